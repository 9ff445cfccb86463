"""The skirmish's pictures (issue 30, item 5): men as round bases of their true size with a glyph per kind and a
label of their own ("G.1", never a bare "1" that G.1 and H.1 share), vehicles and guns as top-down silhouettes
turned to their facing, terrain told apart in grey. Read from the scene of a JSON view, as the page gets it."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from grognard.core.dice import SeededDice
from grognard.core.face import GLYPHS
from grognard.render.paint import paint
from grognard.rulesets import get
from grognard.rulesets.skirmish import face
from grognard.rulesets.skirmish import face_terrain as FT

SKIRMISH = get("skirmish")
SCENARIOS = [name for name, _ in SKIRMISH.files.shipped()] if SKIRMISH.files else []
TABLE_JS = Path(face.__file__).parents[2] / "web" / "static" / "table.js"


def opening(scenario: str) -> dict[str, Any]:
    """The spectators' view of ``scenario``'s opening, through JSON (what the page holds)."""
    view = SKIRMISH.create({"scenario": scenario}, SeededDice(1)).view(None)
    return dict(json.loads(json.dumps(view)))


def shapes(scene: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for layer in scene["layers"] for s in layer["shapes"]]


def men(scene: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in shapes(scene) if s["kind"] == "figure" and s.get("unit")]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_man_of_every_shipped_scenario_has_a_label_of_his_own(scenario: str) -> None:
    view = opening(scenario)
    scene = face.scene(view, set())
    drawn = men(scene)
    tags = [s for s in shapes(scene) if s.get("word") == "tag"]  # each man's id, placed under him as a word
    labels = Counter(s["text"] for s in tags)
    assert [label for label, n in labels.items() if n > 1] == [], scenario
    said = {s["of"]: s["text"] for s in tags}
    assert all(said[s["id"]] == s["id"] and s["id"].startswith(s["unit"] + ".") for s in drawn)
    assert len(drawn) == sum(1 for f in view["figures"] if f["alive"] and not f.get("aboard"))


def test_men_stand_on_round_bases_of_their_true_size_with_their_sides_rim() -> None:
    drawn = men(face.scene(opening("castle_storm"), set()))
    assert {s["r"] for s in drawn} == {0.5}  # a 1" base (skirmish.2)
    assert {(s["side"], s["marker"]) for s in drawn} == {("allies", "circle"), ("axis", "square")}


def test_a_glyph_for_each_kind_of_man_from_what_he_carries_or_is() -> None:
    seen: dict[str, set[tuple[str, str]]] = {}
    for scenario in SCENARIOS:
        view = opening(scenario)
        kinds = {f["id"]: (f["type"], f["weapon"]) for f in view["figures"]}
        for s in men(face.scene(view, set())):
            seen.setdefault(s["glyph"], set()).add(kinds[s["id"]])
    # no shipped scenario has a flame thrower: one man of village_street given one, as a view can hold
    view = opening("village_street")
    view["figures"][0]["weapon"] = "flame_thrower"
    burner = next(s for s in men(face.scene(view, set())) if s["id"] == view["figures"][0]["id"])
    seen.setdefault(burner["glyph"], set()).add(("infantry", "flame_thrower"))
    wanted = {"rifle", "mg", "mortar", "bazooka", "flame_thrower", "crew", "officer", "cavalry"}
    assert wanted <= set(seen) <= set(GLYPHS), sorted(seen)
    # a heavy weapon shows before what a man is, what he is before his small arm
    assert all(weapon == glyph for glyph in ("mg", "mortar", "bazooka") for _, weapon in seen[glyph])
    assert all(kind == glyph for glyph in ("crew", "officer", "cavalry", "engineer") for kind, _ in seen[glyph])
    assert seen["rifle"] == {("infantry", "rifle")}


def test_the_page_draws_the_same_glyphs_as_the_scene_names() -> None:
    found = re.search(r"const GLYPHS = (\{.*?\});\n", TABLE_JS.read_text(encoding="utf-8"))
    assert found is not None, "table.js holds no GLYPHS table"
    assert json.loads(found.group(1)) == GLYPHS


def along(points: list[list[float]]) -> float:
    """The direction of a line from its first point to its last, degrees counter-clockwise from east."""
    (x0, y0), (x1, y1) = points[0], points[-1]
    return math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360.0


@pytest.mark.parametrize("scenario", ["castle_storm", "gun_line_armour"])
def test_vehicles_and_guns_from_above_over_their_footprint_turned_to_their_facing(scenario: str) -> None:
    view = opening(scenario)
    drawn = shapes(face.scene(view, set()))
    vehicles = {v["id"]: v for v in view["vehicles"]}
    outlines = {v["id"]: v["shape"] for v in view["vehicle_shapes"]}
    machines = [*vehicles, *(p["id"] for p in view["pieces"])]
    assert vehicles and view["pieces"]
    for name in machines:
        parts = [s for s in drawn if s.get("id") == name]
        assert all(s["kind"] in ("polygon", "polyline") for s in parts) and not any(
            s["kind"] == "figure" for s in parts
        )
        assert all(s.get("title") for s in parts)  # a tap or a hover on any part of it names it
        assert any(s["kind"] == "text" and s["text"] == name for s in drawn)  # named under it
        kinds = {s["cls"] for s in parts}
        heading = (
            vehicles[name]["heading"]
            if name in vehicles
            else next(p for p in view["pieces"] if p["id"] == name)["heading"]
        )
        if name in vehicles:
            footprint = next(s for s in parts if s.get("state") == "footprint")
            assert footprint["points"] == outlines[name]  # what the rules measure is what is drawn
            assert footprint["cls"] == "hull" and footprint["side"] == vehicles[name]["side"]
        if name in vehicles and vehicles[name]["kind"] == "jeep":
            assert {"hull", "track"} <= kinds  # four wheels and the body
            continue
        barrel = next(s for s in parts if s["cls"] == "barrel")
        assert along(barrel["points"]) == pytest.approx(heading % 360.0, abs=0.5), name  # pointing its way
        if name in vehicles and vehicles[name]["kind"] == "tank":
            assert {"hull", "track", "top", "barrel"} <= kinds  # tracks, hull, turret and gun
        if name not in vehicles:
            assert {"hull", "track", "barrel"} <= kinds  # shield, wheels and trail, barrel


def test_terrain_drawn_as_what_it_is_contours_coils_battlements_storeys_and_points() -> None:
    hill_view, town, castle = opening("hill_assault"), opening("river_town"), opening("castle_storm")
    hills = [p for p in hill_view["terrain"]["pieces"] if p["kind"] == "hill"]
    drawn = shapes(face.scene(hill_view, set()))
    contours = [s for s in drawn if s.get("cls") == "hill" and s.get("state") == "contour"]
    assert hills and len(contours) >= len(hills)  # a contour line inside every hill's foot, closed
    assert all(s["kind"] == "polyline" and s["points"][0] == s["points"][-1] for s in contours)
    wire = next(p for p in hill_view["terrain"]["pieces"] if p["kind"] == "barbed_wire")
    coil = next(s for s in drawn if s.get("cls") == "wire" and s.get("state") == "coil")
    assert len(coil["points"]) > 2 * len(wire["line"])  # a zigzag along it, not its line again
    # the castle: its court paved, its walls lines with battlements, never its footprint filled over the court
    drawn = shapes(face.scene(castle, set()))
    assert any(s.get("cls") == "court" and s["kind"] == "polygon" for s in drawn)
    walls = [s for s in drawn if s.get("cls") == "wall"]
    assert walls and all(s["kind"] == "polyline" for s in walls)
    assert {s["id"] for s in walls if s.get("state") == "battlement"} >= {"S.w", "S.e", "E", "N", "Wst"}
    # a building's storeys (an outline inside for each above the ground floor) and points in words
    drawn = shapes(face.scene(town, set()))
    sections = town["structures"]["sections"]
    words = [s["text"] for s in drawn if s["kind"] == "text"]
    for sid, info in sections.items():
        points = "/".join(str(p) for p in info["points"])
        assert f"{points} pts" in words, (sid, words)
        if len(info["points"]) > 1:
            assert f"{sid} ({len(info['points'])} storeys)" in words
    assert any(s.get("cls") == "building" and s.get("state") == "storey" for s in drawn)


STYLE = TABLE_JS.with_name("style.css")


def test_every_kind_of_area_has_a_texture_so_it_reads_in_grey() -> None:
    """Each kind of ground the skirmish draws as an area is filled with a texture of table.js's (trees, contour
    hatching, ripples, sleepers, stones, tiles, courses, gravel, planks, flagstones), not a colour alone."""
    css, js = STYLE.read_text(encoding="utf-8"), TABLE_JS.read_text(encoding="utf-8")
    areas = {FT.CLS[kind] for kind in FT.CLS if kind not in FT.LINES}
    for cls in sorted(areas):
        rule = re.search(rf"\.t-{cls} polygon[^{{]*\{{([^}}]*)\}}", css)
        assert rule is not None, cls
        texture = re.search(r"url\(#gt-([\w-]+)\)", rule.group(1))
        assert texture is not None, (cls, rule.group(1))
        assert re.search(rf"\n\s+{texture.group(1)}: \{{ size:", js), (cls, texture.group(1))
    tall = re.search(r"\.t-building\.s-tall polygon \{([^}]*)\}", css)
    assert tall is not None and "url(#gt-tall)" in tall.group(1)  # a taller building: darker, crossed tiles


def test_the_painter_draws_each_man_on_his_base_with_his_glyph_and_label() -> None:
    """The picture of paper (render.paint) draws the scene's men as the page does: a round base of his true size
    in his side's colour (thick-rimmed for the axis), his glyph's path on it, his own label under it."""
    view = opening("castle_storm")
    scene = face.scene(view, set())
    svg = paint(scene, SKIRMISH.sides, scale=20.0)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    groups = {g.get("data-id"): g for g in root.iter(f"{ns}g") if g.get("class", "").startswith("t-figure")}
    for man in men(scene):
        g = groups[man["id"]]
        base = g.find(f"{ns}circle")
        assert base is not None and float(base.get("r", 0)) == pytest.approx(0.5 * 20.0)  # 1" across at 20 px
        assert base.get("class") == ("base rimmed" if man["side"] == "axis" else "base")
        mark = g.find(f"{ns}path")
        assert mark is not None and mark.get("d") == GLYPHS[man["glyph"]]["d"]
        tag = [t.text for w in root.iter(f"{ns}g") if w.get("data-of") == man["id"] for t in w.iter(f"{ns}text")]
        assert man["id"] in tag  # his id, a word of its own (placed under his base)


def test_the_key_shows_each_sides_base_and_each_glyph_on_the_table() -> None:
    """A 13-year-old reads the star as an officer from the key beside the table: one swatch a side (its colour
    and rim) and one a glyph the scenario's men carry, named; the painter draws the same swatches."""
    view = opening("hill_assault")
    scene = face.scene(view, set())
    men_items = [k for k in scene["key"] if k["cls"] == "figure"]
    sides = [(k["side"], k["marker"]) for k in men_items if "side" in k]
    assert sides == [("allies", "circle"), ("axis", "square")]
    glyphs = [k["glyph"] for k in men_items if "glyph" in k]
    assert glyphs and set(glyphs) == {s["glyph"] for s in men(scene)}
    assert len(glyphs) == len(set(glyphs)) and all(k["name"] for k in men_items)
    assert {"officer": "officer", "mg": "machine gun"}.items() <= {
        k["glyph"]: k["name"] for k in men_items if "glyph" in k
    }.items()
    root = ET.fromstring(paint(scene, SKIRMISH.sides, scale=20.0))
    ns = "{http://www.w3.org/2000/svg}"
    swatches = [g for g in root.iter(f"{ns}g") if g.get("class") == "key-swatch"]
    drawn = [p.get("d") for g in swatches for p in g.iter(f"{ns}path")]
    assert [GLYPHS[g]["d"] for g in glyphs] == drawn


def test_a_dead_man_is_his_empty_base_where_he_fell_under_the_living() -> None:
    view = opening("castle_storm")
    dead = view["figures"][0]
    dead["alive"] = False
    units = next(layer["shapes"] for layer in face.scene(view, set())["layers"] if layer["name"] == "units")
    fallen = [s for s in units if s.get("cls") == "gone"]
    assert [(s["kind"], s["x"], s["y"], s["r"]) for s in fallen] == [("circle", dead["x"], dead["y"], 0.5)]
    cross = units[units.index(fallen[0]) + 1]  # its "x", a word placed on it
    assert (cross["text"], cross["word"], cross["x"]) == ("x", "inside", dead["x"])
    assert "id" not in fallen[0] and fallen[0]["title"].endswith(": dead")  # not picked: he is no target
    assert dead["id"] not in {s.get("id") for s in units}
    assert units.index(fallen[0]) < min(k for k, s in enumerate(units) if s["kind"] == "figure")  # the living over it
