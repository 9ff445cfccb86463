"""Several commanders a side (option ``commanders``, ``rulesets/skirmish/commanders.py``): who owes which
decision, the refusal of another commander's unit, what each commander sees (docs/rules/skirmish.md,
"Commanders")."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import numpy as np
import pytest

from grognard import rulesets
from grognard.core.dice import SeededDice
from grognard.core.errors import IllegalAction, OptionError
from grognard.core.play import play_out
from grognard.core.record import SEALED, RecordWriter, make_header, readable_by, replay
from grognard.rulesets.skirmish import RULESET, SkirmishGame
from grognard.rulesets.skirmish import commanders as CM
from grognard.rulesets.skirmish import face as FACE
from grognard.rulesets.skirmish.actions import Choice, Move
from grognard.rulesets.skirmish.scenario import scenario_from_data
from test_skirmish_rules import fig, fire, hold_moves, make, scenario, script, unit


def shipped(name: str) -> dict[str, Any]:
    folder = resources.files("grognard.rulesets.skirmish") / "scenarios"
    return tomllib.loads((folder / f"{name}.toml").read_text())


def four_units(**options: Any) -> SkirmishGame:
    """A.1 faces G.1 five inches apart; B and H far away. Allies move first."""
    return make(
        scenario(
            [
                unit("A", "allies", fig(10, 10)),
                unit("B", "allies", fig(46, 2), fig(44, 2)),
                unit("G", "axis", fig(10, 15)),
                unit("H", "axis", fig(46, 46, "pistol")),
            ]
        ),
        options=options,
    )


def test_one_commander_a_side_is_the_game_as_it_always_was() -> None:
    game = RULESET.create({"scenario": "village_street"}, SeededDice(3))
    assert game.seats() == ("Allies", "Axis")
    assert "commanders" not in RULESET.recorded(RULESET.resolve({"scenario": "village_street"}))
    assert "commanders" not in game.state.options
    assert {d.seat for d in game.pending()} == {"Allies"}
    assert set(game.view("Allies")["commanders"].values()) == {"Allies", "Axis"}


def test_two_commanders_deal_each_sides_units_round_robin_in_the_scenarios_order() -> None:
    game = RULESET.create({"scenario": "village_street", "commanders": 2}, SeededDice(3))
    assert game.seats() == ("Allies 1", "Allies 2", "Axis 1", "Axis 2")
    assert [game.side_of(s) for s in game.seats()] == ["allies", "allies", "axis", "axis"]
    assert dict(game.commanders.units) == {
        "A": "Allies 1",
        "B": "Allies 2",
        "C": "Allies 1",
        "G": "Axis 1",
        "H": "Axis 2",
        "K": "Axis 1",
        "L": "Axis 2",
        "R": "Axis 1",
    }
    assert RULESET.recorded(RULESET.resolve({"commanders": 2}))["commanders"] == 2
    assert game.state.options["commanders"] == 2
    with pytest.raises(IllegalAction, match="no seat 'Allies 3'"):
        game.side_of("Allies 3")


@pytest.mark.rule("skirmish.10")
def test_each_move_and_fire_decision_goes_to_the_units_commander() -> None:
    game = four_units(commanders=2)
    assert {d.id: d.seat for d in game.pending()} == {"move A": "Allies 1", "move B": "Allies 2"}
    assert game.legal_actions("Allies 2") == tuple(d.space for d in game.pending() if d.id == "move B")
    game.apply("Allies 2", Move("B"))
    game.apply("Allies 1", Move("A"))
    assert {d.id: d.seat for d in game.pending()} == {"move G": "Axis 1", "move H": "Axis 2"}
    hold_moves(game)
    assert game.state.phase == "fire"
    fire_seats = {d.id: d.seat for d in game.pending()}
    assert fire_seats["fire A"] == "Allies 1" and fire_seats["fire G"] == "Axis 1"


def test_a_commander_ordering_another_commanders_unit_is_refused_naming_both_and_nothing_changes() -> None:
    game = four_units(commanders=2)
    digest, owed = game.digest(), [(d.id, d.seat) for d in game.pending()]
    with pytest.raises(IllegalAction) as info:
        game.apply("Allies 2", Move("A", ((10.0, 12.0),)))
    assert str(info.value) == "move A 10,12: unit A is commanded by Allies 1, not Allies 2 (option commanders)"
    assert "\n" not in str(info.value)
    assert game.digest() == digest and [(d.id, d.seat) for d in game.pending()] == owed
    # a unit that owes nothing now is refused by its commander all the same
    game.apply("Allies 1", Move("A"))
    with pytest.raises(IllegalAction, match="unit A is commanded by Allies 1, not Allies 2"):
        game.apply("Allies 2", Move("A"))
    # the enemy's unit: the refusal it always was (not owed by that seat)
    with pytest.raises(IllegalAction, match="'move B' is owed by Allies 2, not Axis 1"):
        game.apply("Axis 1", Move("B"))
    game.apply("Allies 2", Move("B"))  # its own commander's order goes through
    assert [d.id for d in game.pending()] == ["move G", "move H"]


def test_every_commander_sees_what_his_side_sees_his_own_units_marked() -> None:
    game = four_units(commanders=2)
    one, two = game.view("Allies 1"), game.view("Allies 2")
    assert one["side"] == two["side"] == "allies"
    assert {k: v for k, v in one.items() if k != "seat"} == {k: v for k, v in two.items() if k != "seat"}
    assert [m["id"] for m in FACE.marks(two, {"Allies 2"})] == ["B"]
    assert [m["id"] for m in FACE.marks(one, {"Allies 1"})] == ["A"]
    assert [m["id"] for m in FACE.marks(one, {"Allies 1", "Allies 2"})] == ["A", "B"]
    (units, *_) = FACE.tables(two, {"Allies 2"})
    assert units["columns"] == ["unit", "name", "side", "men", "where", "arms", "commander", "yours"]
    assert {row[0]: (row[-2], row[-1]) for row in units["rows"]} == {
        "A": ("Allies 1", ""),
        "B": ("Allies 2", "yes"),
        "G": ("Axis 1", ""),
        "H": ("Axis 2", ""),
    }
    (alone, *_) = FACE.tables(four_units().view("Allies"), {"Allies"})
    assert "commander" not in alone["columns"]
    assert FACE.commands(game.view(None)) == {"Allies 1": "A", "Allies 2": "B", "Axis 1": "G", "Axis 2": "H"}
    assert FACE.commands(four_units().view(None)) == {}  # a side's one seat commands all of it
    street = RULESET.create({"scenario": "village_street", "commanders": 2}, SeededDice(3))
    shares = {"Allies 1": "A, C", "Allies 2": "B", "Axis 1": "G, K, R", "Axis 2": "H, L"}
    assert FACE.commands(street.view(None)) == shares


def test_a_melee_groups_choice_goes_to_the_commander_of_most_of_its_men_and_is_shared_with_his_side() -> None:
    game = four_units(commanders=2)
    cmd = game.commanders
    assert CM.of_group(game.ctx, cmd, ["A.1", "B.1", "B.2"]) == "Allies 2"
    assert CM.of_group(game.ctx, cmd, ["A.1", "B.1"]) == "Allies 1"  # a tie: the lower-numbered
    game.apply("Allies 1", Move("A", ((10.0, 14.0),)))  # A.1 charges G.1
    script(game, 3, 3)  # both miss: each group owes a secret stay or retreat
    fire(game)
    assert {d.id: d.seat for d in game.pending()} == {"melee M1": "Allies 1", "melee M2": "Axis 1"}
    with pytest.raises(IllegalAction, match="owed by Allies 1, not Allies 2"):
        game.apply("Allies 2", Choice("M1", "stay"))
    events = game.apply("Allies 1", Choice("M1", "retreat"))
    sealed = next(e for e in events if e.kind == "sealed")
    assert sealed.to == frozenset({"Allies 1", "Allies 2"})
    assert [e.visible_to("Allies 2") for e in events if e.kind == "sealed"] == [True]
    assert not any(e.visible_to(seat) for e in events if e.kind == "sealed" for seat in ("Axis 1", "Axis 2", None))
    assert game.sealed_json("Allies 2")["melee 1"]["melee M1"]["action"] == "melee M1 retreat"
    assert game.sealed_json("Axis 2")["melee 1"]["melee M1"]["action"] == "chosen"
    line = {"type": "action", "seat": "Allies 1", "action": "melee M1 retreat", "events": [e.to_json() for e in events]}
    assert readable_by([line], "Allies 2")[0]["action"] == "melee M1 retreat"  # grognard replay --seat "Allies 2"
    assert readable_by([line], "Axis 1")[0]["action"] == SEALED


def test_a_vehicles_drive_goes_to_its_drivers_commander() -> None:
    game = RULESET.create({"scenario": "convoy", "commanders": 2}, SeededDice(1))
    cmd = game.commanders
    drives = [d for d in game.pending() if d.id.startswith("drive")]
    while not drives:  # the allies may move second
        hold_moves(game)
        drives = [d for d in game.pending() if d.id.startswith("drive")]
    for d in drives:
        v = game.state.vehicles[d.id.split()[1]]
        driver = game.state.figures[v.aboard[0]]
        assert d.seat == cmd.units[driver.unit]
    assert len({d.seat for d in drives}) == 2  # both allied commanders drive some


def test_a_pieces_burst_goes_to_its_crews_commander_and_a_scenario_may_name_the_commanders() -> None:
    data = shipped("gun_line")
    for u in data["units"]:
        if u["id"] == "K":  # the gun crew, the axis's first unit, given to the second commander
            u["commander"] = 2
    game = SkirmishGame(
        RULESET.resolve({"commanders": 2, "scenario": "gun_line"}),
        SeededDice(2),
        scenario=scenario_from_data(data, "gun_line"),
    )
    assert game.commanders.units["K"] == "Axis 2" and game.commanders.units["G"] == "Axis 1"
    assert CM.of_burst(game.ctx, game.commanders, "PAK", "axis") == "Axis 2"
    bot = RULESET.bots["doctrine"](np.random.default_rng(2))
    while not any(d.id == "burst PAK" for d in game.pending()):
        d = game.pending()[0]
        game.apply(d.seat, bot.choose(game, d))
    assert next(d for d in game.pending() if d.id == "burst PAK").seat == "Axis 2"
    bazooka = [d for d in game.pending() if d.id.startswith("burst A.")]
    assert bazooka and {d.seat for d in bazooka} == {"Allies 1"}


def test_too_many_commanders_or_a_unit_naming_one_beyond_them_is_one_clear_line() -> None:
    with pytest.raises(OptionError) as info:
        RULESET.create({"scenario": "village_street", "commanders": 4}, SeededDice(1))
    assert str(info.value) == (
        "option 'commanders': 4 commanders a side, but the allies have 3 units in village_street (at most 3)"
    )
    data = shipped("gun_line")
    data["units"][0]["commander"] = 3
    with pytest.raises(OptionError, match="unit K names commander 3, but there are 2 a side"):
        SkirmishGame(RULESET.resolve({"commanders": 2}), SeededDice(1), scenario=scenario_from_data(data, "gun_line"))
    with pytest.raises(OptionError, match="above the maximum 8"):
        RULESET.resolve({"commanders": "9"})


def test_bots_command_every_seat_to_a_result_and_the_record_replays() -> None:
    options = RULESET.resolve({"scenario": "village_street", "commanders": 2})
    game = RULESET.create(options, SeededDice(7))
    writer = RecordWriter(make_header("skirmish", RULESET.recorded(options), "seeded", 7))
    writer.start(game, game.take_events())
    bots = {seat: RULESET.bots["doctrine"](np.random.default_rng(k)) for k, seat in enumerate(game.seats())}
    seats_played: set[str] = set()

    def note(decision: Any, action: Any, events: list[Any]) -> None:
        seats_played.add(decision.seat)

    result = play_out(game, lambda seat: bots[seat], record=writer, on_step=note)
    assert result.outcome in ("win", "draw")
    assert seats_played == set(game.seats())
    assert writer.lines[0]["options"]["commanders"] == 2
    again = replay(writer.lines, rulesets.get)
    assert again.game.digest() == game.digest()
    assert readable_by(writer.lines, "Allies 2")[-1]["digest"] == writer.lines[-1]["digest"]


def test_the_odds_of_a_commander_know_his_sides_sealed_choice_and_not_the_enemys() -> None:
    from grognard.analysis.winprob import sample_hidden

    game = four_units(commanders=2)
    game.apply("Allies 1", Move("A", ((10.0, 14.0),)))
    script(game, 3, 3)
    fire(game)
    game.apply("Allies 1", Choice("M1", "retreat"))
    seed = np.random.SeedSequence(1)
    assert "melee M1" in sample_hidden(game, "Allies 2", seed).sealed["melee 1"]
    for seat in ("Axis 1", "Axis 2", None):
        assert sample_hidden(game, seat, seed).sealed == {}, seat


def test_a_commander_who_resigns_resigns_for_his_side() -> None:
    game = four_units(commanders=2)
    events = game.resign("Allies 2")
    assert [e.data["side"] for e in events if e.kind == "resigned"] == ["allies"]
    assert game.result is not None and game.result.winner == "axis" and game.result.reason == "Allies 2 resigned"
    assert game.pending() == ()
