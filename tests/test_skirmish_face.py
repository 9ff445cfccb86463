"""The skirmish's web face (rulesets/skirmish/face.py, face_controls.py): the scene, words and controls come
from ``view(seat)`` alone (a JSON copy of it, no game), the terrain to scale, sides by shape, every control's
order parses and its preview answers with the rules' own figures, the same as ``grognard odds skirmish``."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from grognard.core.dice import SeededDice
from grognard.core.errors import GrognardError, IllegalAction
from grognard.core.face import CLASSES
from grognard.rulesets import get
from grognard.rulesets.skirmish import face
from grognard.rulesets.skirmish import face_controls as FC

SKIRMISH = get("skirmish")
SCENARIOS = [name for name, _ in SKIRMISH.scenarios()] if SKIRMISH.scenarios else []
KINDS = {"polygon", "polyline", "circle", "rect", "text", "figure"}
WORDS = CLASSES


def game(scenario: str, seed: int = 1) -> Any:
    return SKIRMISH.create({"scenario": scenario}, SeededDice(seed))


def plain(view: dict[str, Any]) -> dict[str, Any]:
    """The view as the page would hold it: JSON, nothing of the game behind it."""
    return dict(json.loads(json.dumps(view)))


def test_the_face_imports_nothing_of_the_game() -> None:
    for name in ("face.py", "face_controls.py"):
        source = (Path(face.__file__).parent / name).read_text(encoding="utf-8")
        imported = [node.module or "" for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)]
        assert all(
            m in ("__future__", "collections.abc", "typing", "grognard.rulesets.skirmish.face") for m in imported
        )
        assert "state" not in imported and ".state" not in source


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_draws_from_its_view_alone(scenario: str) -> None:
    g = game(scenario)
    view = plain(g.view("Allies"))
    scene = face.scene(view, {"Allies"})
    assert scene["x0"] + scene["width"] >= view["terrain"]["width"] and scene["x0"] <= 0
    assert scene["y0"] + scene["height"] >= view["terrain"]["depth"] and scene["y0"] <= 0
    shapes = [s for layer in scene["layers"] for s in layer["shapes"]]
    assert {s["kind"] for s in shapes} <= KINDS
    assert {s["cls"] for s in shapes if "cls" in s} <= WORDS
    men = [s for s in shapes if s["kind"] == "figure" and s.get("unit")]
    living = [f for f in view["figures"] if f["alive"] and not f.get("aboard")]
    assert sorted(s["id"] for s in men) == sorted(f["id"] for f in living)
    assert json.loads(json.dumps(scene)) == scene
    assert face.phase(view).startswith("the axis move")
    assert face.tables(view, {"Allies"})[0]["caption"] == "Units"
    assert dict(face.figures(view))["turn"] == 1
    for d in g.pending():
        for control in FC.controls(plain(g.view(d.seat)), d):
            assert control["kind"] in {"pick-point", "drag-path", "pick-target", "template", "choice", "form"}
            SKIRMISH.parse_action(fill(control, view))  # every order a control makes parses


def fill(control: dict[str, Any], view: dict[str, Any]) -> str:
    """The order a page makes of a control: its template with the fields' values (a target: the first)."""
    values = {f["name"]: f["value"] for f in control.get("fields", [])}
    values["target"] = (control.get("targets") or ["X"])[0]
    text = control["template"]
    for key, value in values.items():
        text = text.replace("{" + key + "}", f"{value:g}" if isinstance(value, float | int) else str(value))
    return text


def test_terrain_to_scale_buildings_doors_windows_storeys() -> None:
    view = plain(game("village_street").view("Allies"))
    shapes = face.terrain_shapes(view)
    pieces = {p.get("id"): p for p in view["terrain"]["pieces"]}
    buildings = [s for s in shapes if s["cls"] == "building" and s["kind"] == "polygon"]
    sections = {sec["id"]: sec["shape"] for p in pieces.values() for sec in p.get("sections", [])}
    assert len(buildings) == 2 and all(s["points"] == sections[s["id"]] for s in buildings)  # to scale, inches
    for piece in pieces.values():
        for opening in piece.get("openings", []):
            drawn = next(s for s in shapes if s.get("id") == opening["id"])
            assert drawn["cls"] == ("door" if opening["door"] else "window")
            assert drawn["x"] + drawn["w"] / 2 == pytest.approx(opening["at"][0])
    assert any("storey" in s.get("title", "") for s in buildings)
    assert any(s["cls"] == "water" for s in shapes)  # the river
    assert any(s["cls"] == "road" for s in shapes)


def test_sides_by_shape_and_headings_clockwise_from_north() -> None:
    view = plain(game("castle_storm").view(None))
    shapes = face.figure_shapes(view)
    marker = {(s["side"], s["marker"]) for s in shapes if s.get("unit") and s["marker"] != "diamond"}
    assert marker == {("allies", "circle"), ("axis", "square")}
    tank = next(s for s in shapes if s.get("id") == "TANK" and s["kind"] == "figure")
    assert tank["heading"] == 90.0  # the rules' 0 (east) is the scene's 90
    assert face.rules_heading(face.scene_heading(37.5)) == pytest.approx(37.5)


def play_to(scenario: str, seed: int, wanted: Any, limit: int = 600) -> tuple[Any, Any]:
    """A game played by the doctrine bots until a decision ``wanted(game, decision)`` is owed."""
    g = game(scenario, seed)
    bots = {s: SKIRMISH.bots["doctrine"](np.random.default_rng(seed)) for s in g.seats()}
    for _ in range(limit):
        if g.is_over:
            break
        for d in g.pending():
            if wanted(g, d):
                return g, d
        d = g.pending()[0]
        g.apply(d.seat, bots[d.seat].choose(g, d))
    raise AssertionError("never owed")


def odds_row(weapon: str, band: str, cover: str) -> Fraction:
    """The chance of 'dead' ``grognard odds skirmish --json`` prints for one shot."""
    done = subprocess.run(
        [sys.executable, "-m", "grognard.cli", "odds", "skirmish", "--json"], capture_output=True, text=True, check=True
    )
    table = next(t for t in json.loads(done.stdout)["tables"] if t["name"] == f"shot_{weapon}")
    row = next(r for r in table["rows"] if r["parameter"] == f"{band} {cover}")
    return Fraction(next(o["probability"] for o in row["outcomes"] if o["outcome"] == "dead"))


def test_an_aimed_shot_previews_the_odds_the_odds_command_prints() -> None:
    g, d = play_to("village_street", 3, lambda g, d: d.id.startswith("fire") and bool(d.space.targets()))
    view = plain(g.view(d.seat))
    aim = next(c for c in FC.controls(view, d) if c["verb"] == "aim")
    target = next(t for t in aim["targets"] if not t.startswith(("R.", "K.")))
    order = aim["template"].replace("{target}", target)
    drawn = plain(SKIRMISH.preview(g, d.seat, SKIRMISH.parse_action(order)))["preview"]
    [shot] = drawn["shots"]
    assert drawn["lines"][0]["title"].endswith(f"({shot['dead']})")
    man = next(f for f in view["figures"] if f["id"] == shot["shooter"])
    assert Fraction(shot["dead"]) == odds_row(man["weapon"], shot["band_text"], shot["cover_text"])
    assert "1 die" in SKIRMISH.odds(g, SKIRMISH.parse_action(order))


def test_a_drag_previews_path_length_cost_and_what_is_left() -> None:
    g = game("village_street")
    d = next(d for d in g.pending() if d.id == "move L")
    view = plain(g.view(d.seat))
    drag = next(c for c in FC.controls(view, d) if c["verb"] == "move")
    start = next(f for f in view["figures"] if f["unit"] == drag["unit"] and f["alive"])
    order = drag["template"].format(x=f"{start['x']:g}", y=f"{start['y'] - 3:g}")
    drawn = plain(SKIRMISH.preview(g, d.seat, SKIRMISH.parse_action(order)))["preview"]
    assert drawn["length"] == pytest.approx(3.0) and drawn["cost"] >= 3.0
    assert drawn["left"] == pytest.approx(max(0.0, 6.0 - drawn["cost"]), abs=0.01)
    assert drawn["path"][0] == [start["x"], start["y"]]
    too_far = drag["template"].format(x=f"{start['x']:g}", y=f"{start['y'] - 20:g}")
    with pytest.raises(IllegalAction, match=r"skirmish\.\d+"):
        SKIRMISH.preview(g, d.seat, SKIRMISH.parse_action(too_far))


def test_melee_is_a_secret_choice_and_castle_orders_where_they_apply() -> None:
    g, d = play_to(
        "castle_storm",
        1,
        lambda g, d: (
            d.id.startswith("move") and any(c["verb"] == "ladder" for c in FC.controls(plain(g.view(d.seat)), d))
        ),
    )
    ladder = next(c for c in FC.controls(plain(g.view(d.seat)), d) if c["verb"] == "ladder")
    assert " ladder " in ladder["template"]
    melee = FC.controls({"figures": []}, type("D", (), {"id": "melee M1"})())
    assert [c["template"] for c in melee] == ["melee M1 stay", "melee M1 retreat"] and all(c["secret"] for c in melee)
    with pytest.raises(GrognardError):
        SKIRMISH.preview(g, d.seat, SKIRMISH.parse_action(ladder["template"].format(x="0", y="0")))
