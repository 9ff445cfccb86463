"""The one painter (grognard.render.paint): any scene of docs/FACE-CONTRACT.md as a standalone SVG with the
browser table's look, and a PNG of it. Every rule set's scene painted parses and holds every id and word."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from grognard.core.placement import place
from grognard.render import write_picture
from grognard.render.look import side_colours, table_css
from grognard.render.paint import paint, picture
from grognard.rulesets import get
from picture_check import SVG, ids, look, played, unit, words

STATIC = Path(__file__).resolve().parents[1] / "src/grognard/web/static"

# every kind, key, marker and preview part of the contract, in one scene
EVERY: dict[str, Any] = {
    "x0": -2.0,
    "y0": 0.0,
    "width": 30.0,
    "height": 20.0,
    "key": [
        {"cls": "wire", "name": "wire"},
        {"cls": "ground", "name": "open ground"},
        {"cls": "building", "name": "tall house", "state": "tall"},
    ],
    "layers": [
        {
            "name": "terrain",
            "shapes": [
                {"kind": "rect", "x": -2, "y": 0, "w": 30, "h": 20, "cls": "ground"},
                {"kind": "polygon", "points": [[1, 1], [6, 1], [6, 5]], "cls": "wood", "title": "a wood"},
                {"kind": "polygon", "points": [[8, 1], [12, 1], [12, 4], [8, 4]], "cls": "building", "state": "tall"},
                {"kind": "polyline", "points": [[0, 10], [20, 10]], "cls": "wire"},
                {"kind": "text", "x": 3, "y": 15, "text": "the crest", "cls": "label", "anchor": "start"},
                {"kind": "text", "x": 27, "y": 10, "text": "east edge", "rotate": 90, "size": 0.8},
                {"kind": "rect", "x": 14, "y": 14, "w": 2, "h": 1, "rx": 0.3, "cls": "box", "label": "a box"},
            ],
        },
        {
            "name": "units",
            "shapes": [
                {
                    "kind": "figure",
                    "x": 5,
                    "y": 8,
                    "r": 0.5,
                    "id": "G.1",
                    "text": "1",
                    "side": "axis",
                    "marker": "square",
                    "title": "G.1 officer",
                    "heading": 45,
                },
                {"kind": "figure", "x": 7, "y": 8, "r": 0.5, "id": "A.1", "side": "allies", "marker": "triangle"},
                {"kind": "figure", "x": 9, "y": 8, "r": 0.5, "id": "A.2", "side": "allies", "marker": "diamond"},
                {"kind": "circle", "x": 11, "y": 8, "r": 0.5, "id": "A.3", "side": "allies", "label": "A.3"},
                {
                    "kind": "polygon",
                    "points": [[15, 6], [17, 6], [16, 9]],
                    "x": 16,
                    "y": 7,
                    "marker": "circle",
                    "side": "axis",
                    "id": "J",
                    "cls": "fighter",
                    "heading": 180,
                },
                {
                    "kind": "rect",
                    "x": 19,
                    "y": 6,
                    "w": 1,
                    "h": 1,
                    "id": "B7",
                    "text": "B7 4",
                    "cls": "bunker",
                    "state": "silenced",
                    "side": "axis",
                },
                {"kind": "circle", "x": 5, "y": 8, "r": 1.2, "cls": "ring", "id": "G.1"},
            ],
        },
    ],
}
DRAWN = {
    "order": "move G 9,9",
    "path": [[5, 8], [9, 9]],
    "length": 4.1,
    "cost": 4.1,
    "left": 1.9,
    "stop": [9, 9],
    "target": "A.2",
    "rings": [{"x": 9, "y": 9, "r": 4, "title": "a gun's reach"}, {"x": 7, "y": 8, "r": 0.5, "id": "A.1"}],
    "trails": [[[7, 8], [8, 12]]],
    "lines": [{"from": [5, 8], "to": [11, 8], "title": "line of fire", "blocked": True}],
    "shapes": [{"points": [[5, 8], [10, 11], [10, 5]], "title": "MG wedge"}],
}


def scene_words(scene: dict[str, Any]) -> tuple[set[str], list[str]]:
    """A scene's ids, and its words (texts, inside words, labels) as the painter writes them."""
    shapes = [s for layer in scene["layers"] for s in layer["shapes"]]
    found = [str(s[k]) for s in shapes for k in ("text", "label") if s.get(k)]
    return {str(s["id"]) for s in shapes if s.get("id")}, found + [str(k["name"]) for k in scene.get("key", [])]


def test_every_kind_key_and_preview_part_is_painted_with_the_pages_look(tmp_path: Path) -> None:
    svg = paint(place(EVERY), ("allies", "axis"), drawn=DRAWN, heading=["A test table - turn 1", "figures"])
    root = ET.fromstring(svg)
    shown, wanted = set(ids(root)), scene_words(EVERY)
    assert shown == wanted[0] and sorted(w for w in wanted[1] if w not in words(root)) == []
    assert ids(root)["G.1"] == "t-ring mine unit"  # the ring comes last: it is the one kept by id
    # a label and an inner word are painted where the placement put them, as the words of their shape
    name = root.find(f".//{SVG}g[@data-of='A.3']/{SVG}text[@class='name']")
    assert name is not None and name.text == "A.3"
    officer = [g.get("class") for g in root.iter(f"{SVG}g") if g.get("data-id") == "G.1"]
    assert (
        officer == ["t-figure unit", "t-ring mine unit"]
        and root.find(f".//{SVG}g[@data-id='G.1']/{SVG}rect") is not None
    )
    # a side's colour and marker: the square is the Axis's (2nd side), the triangle and diamond the Allies'
    colours = side_colours()
    assert unit(root, "A.1").find(f"{SVG}polygon").get("fill") == colours[0]  # type: ignore[union-attr]
    assert unit(root, "J").find(f"{SVG}circle[@class='glyph']") is not None
    assert len(root.findall(f".//{SVG}line[@class='heading']")) == 2
    assert any(t.get("transform", "").startswith("rotate(90 ") for t in root.iter(f"{SVG}text"))
    # the look is the page's: a silenced bunker hollow, a tall building darker, the key's wire a line
    bunker = unit(root, "B7").find(f"{SVG}rect")
    assert bunker is not None and look(root, bunker)["fill"] == "#fff"
    tall = [g for g in root.iter(f"{SVG}g") if g.get("class") == "t-building s-tall"]
    # the table's and the key's: the darker roof's texture over its colour
    assert len(tall) == 2 and all(look(root, g[0])["fill"] == "url(#gt-tall) #b9805a" for g in tall)
    assert root.find(f".//{SVG}g[@class='t-wire']/{SVG}polyline") is not None
    # the preview: path with its words, stop, rings (one boldly under), trails, lines, shapes, the caption
    for cls in ("p-path", "p-end", "p-stop", "p-ring", "p-ring under", "p-trail", "p-line blocked", "p-shape"):
        assert root.find(f".//*[@class='{cls}']") is not None, cls
    said = words(root)
    assert '4.1" walked, costs 4.1", 1.9" left' in said and "attacks A.2" in said
    assert "preview (not given): move G 9,9" in said and "A test table - turn 1" == root.findtext(f"{SVG}title")
    write_picture(svg, tmp_path / "every.png")
    assert (tmp_path / "every.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_look_is_read_from_the_pages_files_not_copied() -> None:
    css = table_css()
    page = (STATIC / "style.css").read_text(encoding="utf-8")
    assert ".t-wood polygon, .t-wood rect { fill: url(#gt-wood) #7fb069;" in css and "var(" not in css
    assert ".svg svg.table" not in css and "@media" not in css  # the page's layout is not the picture's
    assert "stroke: #1a1a1a" in css and "--ink: #1a1a1a" in page  # :root's colours filled in
    assert re.search(r"SIDE_COLOURS = \[([^\]]*)\]", (STATIC / "table.js").read_text())[1].count("#") == len(  # type: ignore[index]
        side_colours()
    )


@pytest.mark.parametrize(
    ("name", "options", "steps"),
    [
        ("omaha", {}, 40),
        ("b17", {}, 30),
        ("skirmish", {"scenario": "village_street"}, 30),
        ("skirmish", {"scenario": "castle_storm"}, 30),
    ],
)
def test_every_rule_sets_scene_painted_parses_and_holds_every_id_and_word(
    name: str, options: dict[str, Any], steps: int
) -> None:
    rules = get(name)
    view = played(name, options, 4, steps).view(None)
    assert rules.face is not None
    scene = rules.face.scene(view, ())
    root = ET.fromstring(picture(rules.face, rules.sides, rules.title, view))
    wanted_ids, wanted_words = scene_words(scene)
    assert wanted_ids and wanted_ids <= set(ids(root))
    said = words(root)
    assert wanted_words and [w for w in wanted_words if w not in said] == []


def test_a_word_moved_off_its_mark_is_painted_with_its_leader() -> None:
    """Twelve squads on one spot: the names the placement moved further off are painted with their leader line
    back to their squad, and no name is painted twice."""
    squads = [
        {"kind": "figure", "x": 10 + 0.1 * k, "y": 5, "r": 0.9, "id": f"A{k}", "label": f"A{k}"} for k in range(12)
    ]
    placed = place({"x0": 0, "y0": 0, "width": 48, "height": 24, "layers": [{"name": "units", "shapes": squads}]})
    root = ET.fromstring(paint(placed, ("allies",)))
    leaders = [s for s in placed["layers"][0]["shapes"] if s.get("leader")]
    assert leaders and len(root.findall(f".//{SVG}line[@class='leader']")) == len(leaders)
    assert sorted(w for w in words(root) if w.startswith("A")) == sorted(f"A{k}" for k in range(12))
