"""The pictures, read back from the SVG the one painter makes of each face's scene: what each shows, by id and
word, and the key inside the picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from grognard.rulesets import get
from picture_check import SVG, ids, played, words


@pytest.mark.parametrize("focus", [None, "B4"])
def test_b17_picture_shows_every_flying_aircraft_with_its_heading_and_the_focused_guns(focus: str | None) -> None:
    """The B-17 picture (its face's scene through the one painter): each aircraft on the table by its id, named,
    its heading a line; ``--focus B4`` rings B4's four guns alone, each named. (That no two words overlap is
    the word-placement test's, on every scene.)"""
    game = played("b17", {}, 2, 14)
    view = game.view(None) | ({"focus": focus} if focus else {})
    root = ET.fromstring(get("b17").render(view))
    flying = [a["label"] for a in view["aircraft"] if a["status"] == "flying"]
    assert flying and [i for i in ids(root) if i in flying] == flying
    assert len(root.findall(f".//{SVG}line[@class='heading']")) == len(flying)
    said = words(root)
    assert all(any(w.startswith(label) for w in said) for label in flying)
    swatches = {id(look) for g in root.iter(f"{SVG}g") if g.get("class") == "key-swatch" for look in g}  # the key's
    guns = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("t-gunring") and id(g) not in swatches]
    if focus:
        assert [g.get("class") for g in guns] == ["t-gunring s-focus"] * 4
        assert {"nose", "tail", "left waist", "right waist"} <= set(said)
    else:
        assert len(guns) == 4 * sum(1 for a in view["aircraft"] if a["kind"] == "bomber" and a["label"] in flying)


def test_skirmish_picture_shows_every_man_and_its_key_names_each_terrain_look_inside_the_picture() -> None:
    """The skirmish picture (its face's scene through the one painter): each living man on the table by his
    id, named; the key above the table names every look of the scenario's terrain, inside the picture."""
    game = played("skirmish", {"scenario": "village_street"}, 4, 40)
    view = game.view(None)
    root = ET.fromstring(get("skirmish").render(view))
    men = [f["id"] for f in view["figures"] if f["on_table"] and f["alive"] and not f.get("aboard")]
    assert len(men) > 10 and set(men) <= set(ids(root))
    face = get("skirmish").face
    assert face is not None
    key = [item["name"] for item in face.scene(view, ())["key"]]
    said = words(root)
    assert "Key:" in said and key and all(name in said for name in key)
    width = float(root.get("width", 0))
    for swatch in root.iter(f"{SVG}rect"):
        if swatch.get("class") == "key-box":
            assert 0 <= float(swatch.get("x", -1)) and float(swatch.get("x", 0)) + 36 <= width


@pytest.mark.parametrize(("scenario", "seed", "steps"), [("castle_storm", 2, 60), ("gun_line_armour", 2, 60)])
def test_skirmish_pictures_of_buildings_pieces_and_vehicles_hold_every_unit_and_word(
    scenario: str, seed: int, steps: int
) -> None:
    """castle_storm's walls, tower and ladders, gun_line_armour's pieces and vehicles: each unit, piece and
    vehicle of the scene is in the picture by its id and each of the scene's words is written. (That no word
    lies on another or on a man is the word-placement test's, on every scene.)"""
    rules = get("skirmish")
    view = played("skirmish", {"scenario": scenario}, seed, steps).view(None)
    assert rules.face is not None
    scene = rules.face.scene(view, ())
    shapes = [s for layer in scene["layers"] for s in layer["shapes"]]
    root = ET.fromstring(rules.render(view))  # type: ignore[misc]
    wanted = {str(s["id"]) for s in shapes if s.get("id")}
    assert len(wanted) > 10 and wanted <= set(ids(root))
    said = words(root)
    missing = [str(s[k]) for s in shapes for k in ("text", "label") if s.get(k) and str(s[k]) not in said]
    assert missing == []
