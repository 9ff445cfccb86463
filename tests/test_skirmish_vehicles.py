"""Skirmish part 4, vehicles and the train, rule by rule (docs/rules/skirmish.md): both sides of every threshold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from grognard.core.dice import SeededDice
from grognard.core.errors import IllegalAction
from grognard.core.play import play_out
from grognard.rulesets.skirmish import RULESET
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.actions import (
    Drive,
    Fire,
    Move,
    Order,
    Stop,
    WedgeOrder,
    action_from_json,
    parse_action,
)
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.fire import FireSpace
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.scenario import check_scenario, load_scenario
from test_skirmish_rules import _write_toml, fig, figure, fire, hold_moves, make, refusal, scenario, script, unit

FAR = [unit("Z", "allies", fig(46, 2)), unit("G", "axis", fig(46, 46, "pistol"))]  # keep both sides in the game


def vehicle(ident: str, kind: str, at: tuple[float, float], *crew: str, heading: float = 90.0, **more: Any) -> dict:
    return {"id": ident, "kind": kind, "side": more.pop("side", "allies"), "at": list(at), "heading": heading,
            "crew": list(crew), **more}  # fmt: skip


def table(units: list[dict], vehicles: list[dict], terrain: list[dict] | None = None, **extra: Any) -> SkirmishGame:
    data = scenario([*units, *FAR], terrain)
    data["vehicles"] = vehicles
    data.update(extra)
    return make(data)


def drive(game: SkirmishGame, action: Drive | str) -> Any:
    action = parse_action(action) if isinstance(action, str) else action
    return game.apply(game.seat(game.state.vehicles[action.vehicle].side), action)


def crew(n: int, x: float = 10.0, y: float = 10.0, ident: str = "A", weapon: str = "rifle") -> dict:
    return unit(ident, "allies", *[fig(x, y, weapon) for _ in range(n)])


ROAD = {"kind": "road", "line": [[30, 0], [30, 48]], "width": 6.0}


# ---------------------------------------------------------------------------------- moving
@pytest.mark.rule("skirmish.23")
def test_a_vehicle_moves_its_tables_inches_and_its_men_ride_with_it() -> None:
    game = table([crew(2)], [vehicle("J", "jeep", (10, 10), "A")])
    jeep = game.ctx.tables.vehicles.jeep
    assert jeep.move == 18.0 and jeep.source == "grognard default"
    error = refusal(game, "Allies", parse_action("drive J 10,28.1"))
    assert error.rule == "skirmish.23" and "18" in str(error)
    drive(game, "drive J 10,28")
    v = game.state.vehicles["J"]
    assert (v.x, v.y, v.heading) == (10.0, 28.0, 90.0)
    assert [(f.x, f.y, f.aboard) for f in (figure(game, "A.1"), figure(game, "A.2"))] == [(10.0, 28.0, "J")] * 2
    error = refusal(game, "Allies", Move("A", ((12.0, 28.0),)))
    assert error.rule == "skirmish.61"  # men aboard do not walk: they get out first
    assert str(Drive("J", ((10.0, 28.0),))) == "drive J 10,28"
    assert action_from_json(Drive("J", ((1.0, 2.0),), Stop("load", ("A",))).to_json()) == parse_action(
        "drive J load A then 1,2"
    )


@pytest.mark.rule("skirmish.23")
def test_roads_double_a_vehicles_move_and_a_drive_turns_it_along_its_path() -> None:
    game = table([crew(1, 30, 5)], [vehicle("T", "truck", (30, 5), "A")], [ROAD])
    error = refusal(game, "Allies", parse_action("drive T 30,29.2"))
    assert error.rule == "skirmish.23"
    drive(game, "drive T 30,29")  # 24" of road at half an inch each: 12"
    assert game.state.vehicles["T"].y == 29.0
    assert not game.state.vehicles["T"].armoured  # a truck is not, by the tables
    game = table([crew(1, 30, 5)], [vehicle("T", "truck", (30, 5), "A", armoured=True)])
    assert game.state.vehicles["T"].armoured  # the scenario may say otherwise
    drive(game, "drive T 30,10 37,10")  # off road: 5 + 7 = 12"
    assert game.state.vehicles["T"].heading == 0.0


@pytest.mark.rule("skirmish.49")
def test_a_vehicle_loses_half_a_move_once_crossing_a_river() -> None:
    river = {"kind": "river", "line": [[0, 14], [48, 14]], "width": 4.0}
    game = table([crew(1, 10, 9)], [vehicle("T", "truck", (10, 9), "A")], [river])
    error = refusal(game, "Allies", parse_action("drive T 10,15.1"))
    assert error.rule == "skirmish.49" and "river +6.00" in str(error)
    drive(game, "drive T 10,15")  # 6" driven + half of 12" for the river
    assert game.state.vehicles["T"].river_paid
    game.apply("Allies", Move("A"))  # A is aboard: it holds
    fire(game)  # nobody fires: the turn ends
    drive(game, "drive T 10,27")  # out of the river it is in: no more to pay
    assert game.state.vehicles["T"].y == 27.0


@pytest.mark.rule("skirmish.50")
def test_no_vehicle_enters_a_pond_or_bay() -> None:
    pond = {"kind": "pond", "shape": [[14, 14], [24, 14], [24, 24], [14, 24]]}
    game = table([crew(1)], [vehicle("J", "jeep", (10, 10), "A")], [pond])
    error = refusal(game, "Allies", parse_action("drive J 18,18"))
    assert error.rule == "skirmish.50"
    drive(game, "drive J 10,24")  # alongside it, clear of the water
    assert game.state.vehicles["J"].y == 24.0


@pytest.mark.rule("skirmish.58")
def test_vehicles_cross_wire_bushes_and_small_rocks_not_walls_or_boulders() -> None:
    terrain = [
        {"kind": "barbed_wire", "line": [[5, 14], [15, 14]]},
        {"kind": "bushes", "shape": [[5, 16], [15, 16], [15, 18], [5, 18]]},
        {"kind": "small_rocks", "shape": [[5, 20], [15, 20], [15, 22], [5, 22]]},
        {"kind": "stone_wall", "line": [[25, 14], [35, 14]]},
        {"kind": "boulder", "at": [40, 16], "radius": 1.0},
    ]
    game = table([crew(1)], [vehicle("J", "jeep", (10, 10), "A")], terrain)
    drive(game, "drive J 10,28")  # wire, bushes and rocks: the full 18", nothing extra
    assert game.state.vehicles["J"].y == 28.0
    for at, goal in (((30, 10), "30,20"), ((40, 10), "40,22")):
        game = table([crew(1, *at)], [vehicle("J", "jeep", at, "A")], terrain)
        error = refusal(game, "Allies", parse_action(f"drive J {goal}"))
        assert error.rule == "skirmish.58"
        assert ("stone wall" if at[0] == 30 else "boulder") in str(error)
    house = {"kind": "building", "shape": [[8, 20], [12, 20], [12, 24], [8, 24]]}
    game = table([crew(1)], [vehicle("J", "jeep", (10, 10), "A")], [house])
    assert refusal(game, "Allies", parse_action("drive J 10,26")).rule == "skirmish.58"


@pytest.mark.rule("skirmish.59")
def test_tank_traps_stop_vehicles_even_those_set_during_play() -> None:
    game = table([crew(1)], [vehicle("K", "tank", (10, 10), "A")], [{"kind": "tank_trap", "at": [10, 16]}])
    assert refusal(game, "Allies", parse_action("drive K 10,19")).rule == "skirmish.59"
    drive(game, "drive K 10,14")  # short of it
    game = table([crew(1), unit("E", "allies", fig(20.5, 15.5))], [vehicle("K", "tank", (20, 10), "A")])
    game.apply("Allies", Move("E", (), (Order("E.1", "traps", ((20.0, 15.0), (21.0, 15.0))),)))
    assert refusal(game, "Allies", parse_action("drive K 20,18")).rule == "skirmish.59"


@pytest.mark.rule("skirmish.56")
def test_vehicles_go_single_file_on_roads() -> None:
    game = table(
        [crew(1, 30, 10), crew(1, 30, 20, "B")],
        [vehicle("T", "truck", (30, 10), "A"), vehicle("U", "truck", (30, 20), "B")],
        [ROAD],
    )
    error = refusal(game, "Allies", parse_action("drive T 32.5,20"))
    assert error.rule == "skirmish.56" and "single file" in str(error)
    drive(game, "drive T 30,15.5")  # behind U, in file
    assert game.state.vehicles["T"].y == 15.5


@pytest.mark.rule("skirmish.57", "skirmish.31")
def test_a_vehicle_needs_a_man_aboard_to_drive_it() -> None:
    game = table([crew(1, 10, 11.9)], [vehicle("J", "jeep", (10, 10))])
    error = refusal(game, "Allies", parse_action("drive J 10,20"))
    assert error.rule == "skirmish.57"
    drive(game, "drive J load A then 10,19")  # A.1 gets in and drives: half a move left
    assert figure(game, "A.1").aboard == "J" and game.state.vehicles["J"].y == 19.0
    assert (
        game.ctx.tables.vehicles.tank.crew_to_move == 1 and game.ctx.tables.vehicles.tank.source == "grognard default"
    )


@pytest.mark.rule("skirmish.60", "skirmish.31")
def test_a_vehicles_mg_is_manned_by_a_man_besides_the_driver() -> None:
    enemy = unit("H", "axis", fig(10, 30))
    game = table([crew(1), enemy], [vehicle("J", "jeep", (10, 10), "A", weapons=["mg"])])
    why = FI.can_fire(game.ctx, figure(game, "A.1"))
    assert why is not None and why[0] == "skirmish.60"
    game = table([crew(2), enemy], [vehicle("J", "jeep", (10, 10), "A", weapons=["mg"])])
    assert FI.can_fire(game.ctx, figure(game, "A.1")) is not None  # the driver drives
    shot = FI.shot_at(game.ctx, figure(game, "A.2"), figure(game, "H.1"))
    assert not isinstance(shot, tuple) and shot.attack == "mg" and shot.hit_on == 4  # 20": the MG's second band
    script(game, 3)  # the MG's die: 3 misses at 4+ (the driver rolls none)
    fire(game, Fire("A", "H"))
    assert figure(game, "H.1").alive and game.state.stats["shots"]["allies"] == 1


def mg_jeep(*enemies: dict, crew_of: int = 3) -> SkirmishGame:
    """A jeep with a MG at (10, 10) facing north: A.1 drives, A.2 mans the MG, A.3 rides; ``enemies`` beyond."""
    return table(
        [crew(crew_of, ident="A", weapon="pistol"), *enemies], [vehicle("J", "jeep", (10, 10), "A", weapons=["mg"])]
    )


@pytest.mark.rule("skirmish.60", "skirmish.16")
def test_a_vehicles_mg_fires_its_wedge_from_the_vehicle_on_every_man_under_it() -> None:
    # H.1 and H.2 20" north, both under a wedge at 90 degrees; H.3 off it; A.3 rides in the jeep at the apex
    enemy = unit("H", "axis", fig(10, 30), fig(11, 28), fig(20, 30))
    game = mg_jeep(enemy)
    gunner = figure(game, "A.2")
    assert M.weapon_of(game.ctx, gunner) == "mg" and gunner.weapon == "pistol"
    record, shots = FI.wedge(game.ctx, gunner, 90.0)
    assert record.weapon == "mg" and record.at == (10.0, 10.0)  # from the vehicle's place
    assert record.men == ["H.1", "H.2"]  # not H.3, not the men aboard the jeep
    assert all(o.attack == "mg" and o.hit_on == 4 and not o.cover for o in shots)  # 18-20": the MG's second band
    script(game, 4, 4, 1, 1)  # both dice hit at 4+; both fail their survival rolls (5-6 after a MG)
    events = fire(game, Fire("A", None, wedges=(WedgeOrder("A.2", 90.0),)))
    wedge = next(e for e in events if e.kind == "wedge")
    assert wedge.data["gunner"] == "A.2" and wedge.data["weapon"] == "mg"
    assert not figure(game, "H.1").alive and not figure(game, "H.2").alive and figure(game, "H.3").alive
    assert all(figure(game, f"A.{i}").alive for i in (1, 2, 3))
    # the other side of the threshold: 3s miss; and aimed at a unit, he fires the wedge, not one shot
    game = mg_jeep(enemy)
    script(game, 3, 3)
    fire(game, Fire("A", "H"))
    assert game.state.stats["shots"]["allies"] == 2 and all(f.alive for f in M.living(game.ctx, "H"))


@pytest.mark.rule("skirmish.57", "skirmish.60", "skirmish.16")
def test_the_driver_and_the_riders_of_a_vehicle_fire_no_wedge() -> None:
    enemy = unit("H", "axis", fig(10, 30))
    game = mg_jeep(enemy)
    hold_moves(game)
    error = refusal(game, "Allies", Fire("A", None, wedges=(WedgeOrder("A.1", 90.0),)))
    assert error.rule == "skirmish.57" and "drives J" in str(error) and "\n" not in str(error)
    error = refusal(game, "Allies", Fire("A", None, wedges=(WedgeOrder("A.3", 90.0),)))
    assert error.rule == "skirmish.16" and "pistol fires no wedge" in str(error)
    assert [f.id for f in FireSpace(game.ctx, "A").gunners()] == ["A.2"]
    game = mg_jeep(enemy, crew_of=1)  # the driver alone: the MG is silent, and A owes no fire order
    hold_moves(game)
    assert not any(d.id == "fire A" for d in game.pending())
    with pytest.raises(IllegalAction) as info:
        FI.plan_fire(game.ctx, Fire("A", None, wedges=(WedgeOrder("A.1", 90.0),)))
    assert info.value.rule == "skirmish.60" and "needs a man besides the driver" in str(info.value)
    assert FireSpace(game.ctx, "A").gunners() == []


@pytest.mark.rule("skirmish.37", "skirmish.38", "skirmish.16")
def test_men_aboard_a_truck_have_cover_from_a_mg_wedge_and_tank_riders_none() -> None:
    for kind, covered in (("truck", True), ("tank", False)):
        riders = unit("H", "axis", *[fig(10, 30) for _ in range(3)])
        game = table(
            [crew(3, ident="A", weapon="pistol"), riders],
            [vehicle("J", "jeep", (10, 10), "A", weapons=["mg"]), vehicle("T", kind, (10, 30), "H", side="axis")],
        )
        _, shots = FI.wedge(game.ctx, figure(game, "A.2"), 90.0)
        assert sorted(o.target for o in shots) == ["H.1", "H.2", "H.3"]
        assert all(o.cover is covered and o.shift == (-1 if covered else 0) for o in shots), kind
        script(game, 4, 4, 4, 1, 1, 1)  # a 4 at 20" (4+) hits in the open, counts 3 in cover
        fire(game, Fire("A", None, wedges=(WedgeOrder("A.2", 90.0),)))
        assert len(M.living(game.ctx, "H")) == (3 if covered else 0), kind
        if covered:  # the other side: a 5 counts 4 and hits the truck's riders
            game = table(
                [crew(3, ident="A", weapon="pistol"), unit("H", "axis", *[fig(10, 30) for _ in range(3)])],
                [vehicle("J", "jeep", (10, 10), "A", weapons=["mg"]), vehicle("T", kind, (10, 30), "H", side="axis")],
            )
            script(game, 5, 5, 5, 1, 1, 1)
            fire(game, Fire("A", None, wedges=(WedgeOrder("A.2", 90.0),)))
            assert M.living(game.ctx, "H") == []


def test_a_vehicle_gunner_is_described_and_drawn_firing_the_mg(tmp_path: Path) -> None:
    from grognard.core.dice import ScriptedDice
    from grognard.rulesets.skirmish import render_svg as render
    from grognard.rulesets.skirmish.faces import preview
    from grognard.rulesets.skirmish.view_words import situation

    data = scenario([crew(3, ident="A", weapon="pistol"), unit("H", "axis", fig(10, 30)), *FAR])
    data["vehicles"] = [vehicle("J", "jeep", (10, 10), "A", weapons=["mg"])]
    _write_toml(tmp_path / "s.toml", data)  # the picture reads the scenario's file
    game = SkirmishGame(RULESET.resolve({"scenario": str(tmp_path / "s.toml")}), ScriptedDice([]))
    hold_moves(game)
    text = "\n".join(situation(game.view(game.pending()[0].seat), game.pending()[0]))
    assert "A.2 infantry pistol, manning J's MG" in text and "A.1 infantry pistol at" in text
    view = preview(game, "Allies", Fire("A", None, wedges=(WedgeOrder("A.2", 90.0),)))
    assert view["preview"]["shots"] == [] and [w["gunner"] for w in view["preview"]["wedges"]] == ["A.2"]
    assert next(f for f in view["figures"] if f["id"] == "A.2")["fires"] == "mg"
    assert "fires" not in next(f for f in view["figures"] if f["id"] == "A.3")
    assert "band 2: 4+" in render(game.view("Allies") | {"focus": "A.2"})  # the MG's 20" band, not the pistol's
    assert "drives J: does not fire" in render(game.view("Allies") | {"focus": "A.1"})


@pytest.mark.rule("skirmish.61")
def test_loading_and_unloading_take_half_a_move_before_or_after() -> None:
    game = table([crew(1), unit("B", "allies", fig(11.4, 10))], [vehicle("J", "jeep", (10, 10), "A")])
    assert game.ctx.tables.vehicles.board_reach.value == 1.0
    assert refusal(game, "Allies", parse_action("drive J load B then 10,19.1")).rule == "skirmish.61"
    drive(game, "drive J load B then 10,19")
    assert figure(game, "B.1").aboard == "J"
    game = table([crew(1), unit("B", "allies", fig(12.0, 10))], [vehicle("J", "jeep", (10, 10), "A")])
    error = refusal(game, "Allies", parse_action("drive J load B"))
    assert error.rule == "skirmish.61" and "within 1" in str(error)  # 1.55" from the jeep's side
    # getting out after the drive: the man has half his move left
    game = table([crew(2)], [vehicle("J", "jeep", (10, 10), "A")])
    assert refusal(game, "Allies", parse_action("drive J 10,19.1 then unload A.2")).rule == "skirmish.61"
    drive(game, "drive J 10,19 then unload A.2")
    out = figure(game, "A.2")
    assert out.aboard is None and out.y < 19.0 and game.state.walked["A.2"] == 3.0
    assert refusal(game, "Allies", Move("A", (), (Order("A.2", "to", ((out.x, out.y - 3.1),)),))).rule == "skirmish.61"
    game.apply("Allies", Move("A", (), (Order("A.2", "to", ((out.x, out.y - 3.0),)),)))
    # a man who walked more than half his move cannot get in
    game = table([crew(1), unit("B", "allies", fig(10, 17))], [vehicle("J", "jeep", (10, 10), "A")])
    game.apply("Allies", Move("B", ((10.0, 12.0),)))  # 5": more than half
    assert refusal(game, "Allies", parse_action("drive J load B")).rule == "skirmish.61"


# ---------------------------------------------------------------------------------- cover
@pytest.mark.rule("skirmish.35", "skirmish.36", "skirmish.37", "skirmish.38")
def test_cover_aboard_each_kind_of_vehicle_by_attack() -> None:
    expect = {
        "jeep": set(),
        "half_track": {"small_arms", "mg", "artillery", "flame_thrower"},
        "truck": {"small_arms", "mg"},
        "tank": set(),
    }
    for kind, covered in expect.items():
        game = table(
            [crew(1, 10, 30), unit("H", "axis", fig(10, 20))],
            [vehicle("V", kind, (10, 30), "A")],
        )
        terrain = game.ctx.terrain
        got = {
            a
            for a in ("small_arms", "mg", "artillery", "flame_thrower", "bazooka")
            if R.cover(terrain, (10, 20), (10, 30), a)
        }
        assert got == covered, kind
        shot = FI.shot_at(game.ctx, figure(game, "H.1"), figure(game, "A.1"))
        assert not isinstance(shot, tuple) and shot.cover == ("small_arms" in covered)


@pytest.mark.rule("skirmish.36", "skirmish.37")
def test_a_rifle_die_of_four_hits_a_jeep_rider_and_misses_a_truck_rider() -> None:
    for kind, dead in (("jeep", True), ("truck", False)):
        game = table([crew(1, 10, 30), unit("H", "axis", fig(10, 20))], [vehicle("V", kind, (10, 30), "A")])
        script(game, 4, 1)  # the hit die at 10" (4+), then his survival die
        fire(game, Fire("H", "A"))
        assert figure(game, "A.1").alive is not dead, kind


# ---------------------------------------------------------------------------------- the train
RAIL = {"kind": "railway", "id": "line", "line": [[0, 30], [48, 30]]}


def train_table(units: list[dict], vehicles: list[dict] | None = None) -> SkirmishGame:
    return table(units, vehicles or [], [RAIL], train={"railway": "line", "enters": 1})


@pytest.mark.rule("skirmish.44")
def test_the_train_runs_twelve_inches_a_move_from_the_boards_end() -> None:
    game = train_table([unit("A", "allies", fig(20, 25))])
    assert game.state.train == 12.0  # move 1: its head is 12" in from the west edge
    shape = game.ctx.train_now()
    assert shape is not None and shape.bounds[0] == 0.0 and shape.bounds[2] == 12.0
    fire(game)  # holds all round: move 2
    assert game.state.turn == 2 and game.state.train == 24.0


@pytest.mark.rule("skirmish.44")
def test_the_train_gives_cover_but_cannot_be_boarded_or_driven_through() -> None:
    game = train_table(
        [unit("A", "allies", fig(6, 31.5)), unit("H", "axis", fig(6, 20)), crew(1, 6, 24, "C")],
        [vehicle("J", "jeep", (6, 24), "C")],
    )
    assert R.cover(game.ctx.terrain, (6, 20), (6, 31.5), "small_arms") == "train"  # the train between them
    assert R.cover(game.ctx.terrain, (6, 20), (6, 31.5), "flame_thrower") is None
    assert refusal(game, "Allies", Move("A", ((6.0, 28.0),))).rule == "skirmish.44"
    assert refusal(game, "Allies", parse_action("drive J 6,34")).rule == "skirmish.44"
    game.apply("Allies", Move("A", ((12.0, 31.5),)))  # beyond the train's tail: along the line is free


@pytest.mark.rule("skirmish.44")
def test_the_train_stops_short_of_a_man_on_the_line_and_a_scenario_needs_its_railway() -> None:
    game = train_table([unit("A", "allies", fig(20, 30))])
    assert game.state.train == 12.0
    fire(game)
    assert game.state.train == 19.0  # 0.5" short of A.1's base at 19.5
    data = scenario([unit("A", "allies", fig(1, 1)), unit("G", "axis", fig(47, 47))])
    data["train"] = {"enters": 1}
    assert any("needs a railway" in p for p in check_scenario(data))
    data["terrain"] = [{"kind": "railway", "line": [[10, 10], [40, 10]]}]
    assert any("starts at the board's end" in p for p in check_scenario(data))


# ---------------------------------------------------------------------------------- scenarios and bots
@pytest.mark.rule("skirmish.23")
def test_a_scenarios_vehicles_are_checked_whole() -> None:
    data = scenario([crew(5), unit("G", "axis", fig(40, 40)), unit("F", "allies", fig(1, 1), enters=2)])
    data["terrain"] = [{"kind": "stone_wall", "line": [[20, 5], [20, 15]]}]
    data["vehicles"] = [
        vehicle("V", "hovercraft", (5, 5), "A"),
        vehicle("W", "jeep", (20, 10), "G", "Q.1"),
        vehicle("X", "jeep", (30, 30), "A", "F", weapons=["laser"]),
        vehicle("A", "truck", (40, 20)),
    ]
    text = "\n".join(check_scenario(data))
    for part in (
        "vehicles[0].kind: 'hovercraft': not a vehicle",
        "vehicles[1].crew: 'G': men of axis cannot ride a allies vehicle",
        "vehicles[1].crew: 'Q.1': no unit or figure",
        "vehicles[1].at: [20.0, 10.0]: the jeep stands on terrain[0], a stone_wall",
        "vehicles[2].crew: 'A': A.1 is already aboard V",
        "vehicles[2].crew: 'F': unit F enters on move 2",
        "vehicles[2].weapons: 'laser'",
        "vehicles[2]: 6 men aboard: a jeep carries at most 4",
        "vehicles[3].id: 'A': used twice",
    ):
        assert part in text, f"{part!r} not in:\n{text}"


def test_the_convoy_plays_to_a_result_with_doctrine_and_random_bots() -> None:
    assert load_scenario("convoy").spec.train is not None
    from grognard.bots.random_bot import RandomBot

    for seed, bot_kind in ((1, DoctrineBot), (2, RandomBot), (3, DoctrineBot)):
        game = RULESET.create({"scenario": "convoy"}, SeededDice(seed))
        bot = bot_kind(np.random.default_rng(seed))
        kinds: list[str] = []
        play_out(
            game,
            lambda seat, bot=bot: bot,
            on_step=lambda d, a, events, kinds=kinds: kinds.extend(e.kind for e in events),
        )
        assert game.result is not None and game.result.outcome in ("win", "draw")
        assert "drove" in kinds and "train" in kinds
        if bot_kind is DoctrineBot:
            assert "unloaded" in kinds or game.result.turn <= 3  # doctrine drops its squads near the crossroads


@pytest.mark.rule("skirmish.61")
def test_random_drives_are_legal_and_load_the_men_beside_a_vehicle() -> None:
    from grognard.rulesets.skirmish.driving import DriveSpace

    game = table([crew(1), unit("B", "allies", fig(11.4, 10))], [vehicle("J", "jeep", (10, 10), "A")])
    space = DriveSpace(game.ctx, "J")
    assert space.near_units() == ["B"]
    rng = np.random.default_rng(5)
    drives = [space.sample(rng) for _ in range(40)]
    assert all(space.contains(d) for d in drives)
    assert any(d.before is not None and d.before.verb == "load" for d in drives)
    assert any(d.path for d in drives)


def test_a_drive_is_noted_previewed_and_drawn_with_its_crew() -> None:
    from grognard.rulesets.skirmish import render_svg as render
    from grognard.rulesets.skirmish.faces import note, preview

    game = train_table([crew(2, 10, 10)], [vehicle("J", "jeep", (10, 10), "A", weapons=["mg"])])
    action = parse_action("drive J 10,16 then unload A.2")
    assert note(game, action) == '6.0" to (10, 16), costs 6.0", then 1 unload'
    view = preview(game, "Allies", action)
    assert [p["figure"] for p in view["preview"]["paths"]] == ["J", "A.2"]
    svg = render(view)
    assert "(jeep) J, facing 90 deg: driver A.1, gunner A.2, aboard A.1, A.2" in svg and ">train<" in svg
    with pytest.raises(IllegalAction) as info:
        preview(game, "Allies", parse_action("drive J 28.5,10"))  # 18.5": beyond a jeep's 18"
    assert info.value.rule == "skirmish.23"


def test_a_person_at_the_terminal_sees_the_vehicle_its_crew_and_the_train() -> None:
    from grognard.rulesets.skirmish.view_words import board, situation

    game = train_table([crew(3, 10, 10)], [vehicle("J", "jeep", (10, 10), "A", weapons=["mg"])])
    decision = next(d for d in game.pending() if d.id == "drive J")
    text = "\n".join(situation(game.view(decision.seat), decision))
    assert "driver A.1, MG A.2; riders: A.3 (3 of 4 aboard)" in text and 'drive up to 18"' in text
    assert "A.1 at (10, 10) aboard J" in board(game.view("Allies"))
    assert 'the train: its head 12" along railway line' in board(game.view("Allies"))


@pytest.mark.rule("skirmish.23", "skirmish.58")
def test_men_and_vehicles_keep_out_of_each_others_way_and_cliffs_stop_vehicles() -> None:
    game = table(
        [crew(1), unit("B", "allies", fig(10, 16)), unit("C", "allies", fig(12, 10))],
        [vehicle("J", "jeep", (10, 10), "A")],
        [{"kind": "cliff", "line": [[20, 5], [20, 20]], "height": 2.0}],
    )
    error = refusal(game, "Allies", parse_action("drive J 10,20"))
    assert error.rule == "skirmish.23" and "B.1 is in the way" in str(error)
    assert refusal(game, "Allies", parse_action("drive J 24,12")).rule == "skirmish.58"  # over the cliff
    error = refusal(game, "Allies", Move("C", ((8.0, 10.0),)))
    assert error.rule == "skirmish.61" and "walk through J" in str(error)
    game.apply("Allies", Move("C", ((12.0, 12.0), (10.0, 12.5))))  # round its front
    drive(game, "drive J 16,10")  # east: nobody in the way now


@pytest.mark.rule("skirmish.57")
def test_an_empty_vehicle_with_nobody_beside_it_asks_for_no_drive() -> None:
    game = table([crew(1, 30, 30)], [vehicle("J", "jeep", (10, 10))])
    assert "drive J" not in [d.id for d in game.pending()]
    game = table([crew(1, 10, 11.9)], [vehicle("J", "jeep", (10, 10))])
    assert "drive J" in [d.id for d in game.pending()]


@pytest.mark.rule("skirmish.61")
def test_a_drive_naming_a_man_twice_in_one_stop_is_refused_like_a_figure_given_two_orders() -> None:
    from grognard.core.errors import ParseError

    with pytest.raises(ParseError, match=r"J\.2 is named twice"):
        parse_action("drive JEEP unload J.2 J.2")
    with pytest.raises(ParseError, match="A is named twice"):
        parse_action("drive TRUCK 10,10 then load A a")
    assert str(parse_action("drive JEEP unload J.2 J.3")) == "drive JEEP unload J.2 J.3"
