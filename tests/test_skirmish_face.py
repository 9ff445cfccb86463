"""The skirmish's web face (rulesets/skirmish/face.py, face_controls.py): the scene, words and controls come
from ``view(seat)`` alone (a JSON copy of it, no game), the terrain to scale, sides by shape, every control's
order parses and its preview answers with the rules' own figures, the same as ``grognard odds skirmish``."""

from __future__ import annotations

import ast
import functools
import json
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
from terminal_driver import run_cli

SKIRMISH = get("skirmish")
SCENARIOS = [name for name, _ in SKIRMISH.files.shipped()] if SKIRMISH.files else []
KINDS = {"polygon", "polyline", "circle", "rect", "text", "figure"}
WORDS = CLASSES


def game(scenario: str, seed: int = 1) -> Any:
    return SKIRMISH.create({"scenario": scenario}, SeededDice(seed))


def plain(view: dict[str, Any]) -> dict[str, Any]:
    """The view as the page would hold it: JSON, nothing of the game behind it."""
    return dict(json.loads(json.dumps(view)))


def test_the_face_imports_nothing_of_the_game() -> None:
    for name in ("face.py", "face_controls.py", "face_silhouettes.py", "face_terrain.py"):
        source = (Path(face.__file__).parent / name).read_text(encoding="utf-8")
        imported = [node.module or "" for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)]
        assert all(
            m
            in (
                "__future__",
                "collections.abc",
                "typing",
                "grognard.core.words",
                "grognard.core.placement",
                "grognard.rulesets.skirmish",  # face_silhouettes: vehicles and guns drawn from above
                "grognard.rulesets.skirmish.face",
                "grognard.rulesets.skirmish.face_terrain",
            )
            for m in imported
        ), imported  # core.words: how a number is said; core.placement: where words go; nothing of a game
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
    marker = {(s["side"], s["marker"]) for s in shapes if s.get("unit")}
    assert marker == {("allies", "circle"), ("axis", "square")}
    barrel = next(s for s in shapes if s.get("id") == "TANK" and s["cls"] == "barrel")
    (x0, y0), (x1, y1) = barrel["points"]
    assert x1 > x0 and y1 == y0  # the rules' 0 is east: the gun points along +x
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


@functools.cache
def printed_odds() -> dict[str, list[dict[str, Any]]]:
    """Each table's rows as ``grognard odds skirmish --json`` prints them: run once a module (through the
    program's entry, run_cli), not once for each row a test looks up."""
    done = run_cli("odds", "skirmish", "--json")
    assert done.returncode == 0, done.stderr
    return {t["name"]: t["rows"] for t in json.loads(done.stdout)["tables"]}


def odds_row(weapon: str, band: str, cover: str) -> Fraction:
    """The chance of 'dead' ``grognard odds skirmish --json`` prints for one shot."""
    row = next(r for r in printed_odds()[f"shot_{weapon}"] if r["parameter"] == f"{band} {cover}")
    return Fraction(next(o["probability"] for o in row["outcomes"] if o["outcome"] == "dead"))


def test_an_aimed_shot_previews_the_odds_the_odds_command_prints() -> None:
    g, d = play_to("village_street", 3, lambda g, d: d.id.startswith("fire") and bool(d.space.targets()))
    view = plain(g.view(d.seat))
    aim = next(c for c in FC.controls(view, d) if c["verb"] == "aim")
    target = next(t for t in aim["targets"] if not t.startswith(("R.", "K.")))
    order = aim["template"].replace("{target}", target)
    drawn = plain(SKIRMISH.adviser.preview(g, d.seat, SKIRMISH.parse_action(order)))["preview"]
    [shot] = drawn["shots"]
    assert drawn["lines"][0]["title"].endswith(f"({shot['dead']})")
    man = next(f for f in view["figures"] if f["id"] == shot["shooter"])
    assert Fraction(shot["dead"]) == odds_row(man["weapon"], shot["band_text"], shot["cover_text"])
    assert "1 die" in SKIRMISH.adviser.odds(g, SKIRMISH.parse_action(order))


def test_a_drag_previews_path_length_cost_and_what_is_left() -> None:
    g = game("village_street")
    d = next(d for d in g.pending() if d.id == "move L")
    view = plain(g.view(d.seat))
    drag = next(c for c in FC.controls(view, d) if c["verb"] == "move")
    start = next(f for f in view["figures"] if f["unit"] == drag["unit"] and f["alive"])
    order = drag["template"].format(x=f"{start['x']:g}", y=f"{start['y'] - 3:g}")
    drawn = plain(SKIRMISH.adviser.preview(g, d.seat, SKIRMISH.parse_action(order)))["preview"]
    assert drawn["length"] == pytest.approx(3.0) and drawn["cost"] >= 3.0
    assert drawn["left"] == pytest.approx(max(0.0, 6.0 - drawn["cost"]), abs=0.01)
    assert drawn["path"][0] == [start["x"], start["y"]]
    too_far = drag["template"].format(x=f"{start['x']:g}", y=f"{start['y'] - 20:g}")
    with pytest.raises(IllegalAction, match=r"skirmish\.\d+"):
        SKIRMISH.adviser.preview(g, d.seat, SKIRMISH.parse_action(too_far))


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
        SKIRMISH.adviser.preview(g, d.seat, SKIRMISH.parse_action(ladder["template"].format(x="0", y="0")))


def range_game() -> tuple[Any, dict[str, Any]]:
    """tests/skirmish_fire_range.toml played to its first fire phase (both sides hold their moves)."""
    from grognard.rulesets.skirmish.game import SkirmishGame
    from grognard.rulesets.skirmish.scenario import load_scenario

    g = SkirmishGame(
        {"scenario": "fire_range"},
        SeededDice(3),
        load_scenario(str(Path(__file__).parent / "skirmish_fire_range.toml")),
    )
    while not any(d.id.startswith("fire") for d in g.pending()):
        d = g.pending()[0]
        g.apply(d.seat, SKIRMISH.parse_action(f"hold {d.id.split()[1]}"))
    return g, {d.id: d for d in g.pending()}


def odds_dead(table: str, parameter: str) -> Fraction:
    row = next(r for r in printed_odds()[table] if r["parameter"] == parameter)
    return Fraction(next(o["probability"] for o in row["outcomes"] if o["outcome"] == "dead"))


def test_a_wedge_and_a_template_preview_each_man_under_them_with_the_odds_commands_figure() -> None:
    g, owed = range_game()
    fire, burst = owed["fire A"], owed["burst M.1"]
    wedge = next(c for c in FC.controls(plain(g.view(fire.seat)), fire) if c["verb"] == "wedge")
    assert wedge["unit"] == "A.2" and wedge["from"] == [18.0, 8.0]  # the gunner: a drag starts on him
    order = wedge["template"].format(x="18", y="22")
    drawn = plain(SKIRMISH.adviser.preview(g, fire.seat, SKIRMISH.parse_action(order)))["preview"]
    assert (
        {r["id"] for r in drawn["rings"]} == set(drawn["under"]) == {o["id"] for o in drawn["odds"]} >= {"G.1", "G.4"}
    )
    assert all(o["words"].startswith('0-18" open: dead ') for o in drawn["odds"])
    [w] = drawn["wedges"]
    for o in w["odds"]:
        assert Fraction(o["dead"]) == odds_dead("wedge_mg", f"{o['band_text']} {o['cover_text']}")
    lay = next(c for c in FC.controls(plain(g.view(burst.seat)), burst) if c["verb"] == "burst")
    assert lay["from"] == [10.0, 6.0] and [f["name"] for f in lay["fields"]] == ["x", "y", "angle"]
    drawn = plain(SKIRMISH.adviser.preview(g, burst.seat, SKIRMISH.parse_action("burst M.1 18,22 15")))["preview"]
    [t] = drawn["templates"]
    assert t["under"] and [e["id"] for e in t["each"]] == t["under"] and drawn["stop"] == [18.0, 22.0]
    assert drawn["lands"].startswith("the ranging shot lands on 3 or less: 50% (1/2)")
    for e in t["each"]:  # ranging shot, effect die and survival: the odds command's under_mortar row
        assert Fraction(e["dead"]) == odds_dead("under_mortar", e["cover_text"].split(": ")[0])


def test_the_ranging_shot_is_drawn_where_it_fell_landed_or_missed() -> None:
    base = {"shape": [[17, 21], [19, 21], [19, 23], [17, 23]], "by": "M.1", "weapon": "mortar", "side": "allies"}
    view = {
        "landed": [
            {**base, "at": [18.0, 22.0], "die": 2, "ranging": 3, "landed": True, "hit": ["G.2"]},
            {**base, "at": [8.0, 30.0], "die": 5, "ranging": 3, "landed": False},
        ],
        "chutes": [{"figure": "P.1", "side": "allies", "aim": [5, 5], "at": [7, 9], "fate": "landed"}],
    }
    shells = face.shell_shapes(view)
    landed, missed = [s for s in shells if s["cls"] == "template"]
    assert (landed["state"], missed["state"]) == ("landed", "missed")
    assert "ranging 2 (needs 3 or less), landed; hit G.2" in landed["title"]
    assert "missed: the template is taken away (skirmish.13)" in missed["title"]
    crosses = [s for s in shells if s["cls"] == "aim"]
    assert [c["points"][2] for c in crosses] == [[18.0, 22.0], [8.0, 30.0]]  # each cross centred on its aim
    words = [s["text"] for s in shells if s["kind"] == "text"]
    assert words == ["M.1: ranging 2 (needs 3 or less), landed", "M.1: ranging 5 (needs 3 or less), missed"]
    aim, line = face.chute_shapes(view)
    assert aim["points"][2] == [5.0, 5.0] and line["cls"] == "scatter" and line["points"] == [[5, 5], [7, 9]]
    assert all(s["cls"] in CLASSES for s in [*shells, aim, line])


def test_two_men_at_an_enemy_ladders_top_push_it_together_with_the_odds_commands_chance() -> None:
    """The push control names both men at the top (skirmish.83: two push a ladder off, RULINGS S9) and the
    order's odds are the ladder_push row of ``grognard odds skirmish``."""
    view = {
        "terrain": {
            "width": 48,
            "depth": 48,
            "pieces": [{"kind": "castle_wall", "sections": [{"line": [[14, 30], [24, 30]]}]}],
        },
        "ladders": [{"id": "L1", "side": "allies", "top": [17.5, 30.0], "foot": [17.5, 28.8]}],
        "figures": [
            {
                "id": f"G.{k}",
                "unit": "G",
                "side": "axis",
                "alive": True,
                "on_table": True,
                "on_wall": "S.w",
                "x": x,
                "y": 30.0,
                "weapon": "rifle",
            }
            for k, x in ((1, 17.0), (2, 18.2), (3, 22.0))
        ],
    }
    [push] = [c for c in FC._castle_controls(view, "G", view["figures"]) if c["verb"] == "push"]
    assert push["men"] == ["G.1", "G.2"] and push["template"] == "move G / G.1 push L1 / G.2 push L1"
    g, _ = range_game()
    action = SKIRMISH.parse_action(push["template"])
    assert SKIRMISH.adviser.odds(g, action).startswith("ladder L1 falls 56% (5/9: 2d6, any 2 or less)")
    assert odds_dead_row("ladder_push", 2) == Fraction(5, 9)


def odds_dead_row(table: str, parameter: Any) -> Fraction:
    row = next(r for r in printed_odds()[table] if r["parameter"] == parameter)
    return Fraction(next(o["probability"] for o in row["outcomes"] if o["outcome"] is True))
