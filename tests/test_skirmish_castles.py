"""Skirmish part 4, castles and storming, rule by rule (docs/rules/skirmish.md): both sides of every threshold.

The castle of these tests: a wall W along y = 30 from x = 10 to x = 38 in two
sections (W.a west of x = 24, W.b east of it), corners at (10, 30), (24, 30)
and (38, 30), a door D at (30, 30); a tower T east of it; the castle's ground
north of the wall. The allies attack from the south, the axis hold the wall.
"""

from __future__ import annotations

from typing import Any

import pytest
from shapely.geometry import box

from grognard.core.dice import ScriptedDice
from grognard.core.errors import OptionError
from grognard.rulesets.skirmish import RULESET
from grognard.rulesets.skirmish import castles as CA
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import mechanics as MX
from grognard.rulesets.skirmish import melee as ME
from grognard.rulesets.skirmish import shelling as SH
from grognard.rulesets.skirmish.actions import Drive, Move, Order, parse_action
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.scenario import check_scenario, load_scenario, scenario_from_data
from test_skirmish_rules import fig, figure, hold_moves, make, refusal, scenario, script, unit

WALL = {
    "kind": "castle_wall",
    "id": "W",
    "line": [[10, 30], [24, 30], [38, 30]],
    "doors": [{"id": "D", "at": [30, 30], "width": 2.0}],
    "sections": [
        {"id": "W.a", "line": [[10, 30], [24, 30]]},
        {"id": "W.b", "line": [[24, 30], [38, 30]]},
    ],
}
TOWER = {"kind": "tower", "id": "T", "shape": [[40, 28], [44, 28], [44, 32], [40, 32]], "doors": [{"at": [42, 28]}]}
GROUND = {"kind": "castle", "id": "K", "shape": [[10, 30], [38, 30], [38, 44], [10, 44]]}
CASTLE = [WALL, TOWER, GROUND]
FAR = unit("Z", "allies", fig(2, 2))


def castle(attackers: list[dict[str, Any]], defenders: list[dict[str, Any]], **more: Any) -> SkirmishGame:
    data = scenario([unit("A", "allies", *attackers), unit("G", "axis", *defenders), FAR], CASTLE)
    data.update(more)
    return make(data)


def move(game: SkirmishGame, text: str) -> list[Any]:
    action = parse_action(text)
    assert isinstance(action, Move)
    side = game.state.units[action.unit].side
    return game.apply(game.seat(side), action)


def to_axis_move(game: SkirmishGame) -> None:
    """The allies' units that owe a move hold, so the axis move next."""
    while game.state.phase == "move:allies":
        d = game.pending()[0]
        game.apply(d.seat, Move(d.id.split()[1]) if d.id.startswith("move") else Drive(d.id.split()[1]))


def next_turn(game: SkirmishGame, *dice: int) -> None:
    """Everyone holds to the end of this turn (no fire in these tables' reach unless the test wants it)."""
    script(game, *dice)
    turn = game.state.turn
    while game.state.turn == turn and game.result is None:
        d = game.pending()[0]
        verb, label = d.id.split()
        if verb == "fire":
            from grognard.rulesets.skirmish.actions import Fire

            game.apply(d.seat, Fire(label, None))
        elif verb == "burst":
            from grognard.rulesets.skirmish.actions import Burst

            game.apply(d.seat, Burst(label, None))
        else:
            game.apply(d.seat, Drive(label) if verb == "drive" else Move(label))


# ---------------------------------------------------------------------------------- the castle as data
@pytest.mark.rule("skirmish.92")
def test_a_castle_tower_has_twenty_points_and_falls_on_the_men_inside_at_zero() -> None:
    game = castle([fig(20, 10)], [fig(42, 30)])
    assert game.state.sections["T"] == [20]  # the tables' castle.tower_points (seed)
    script(game, 6, 4, 5, 4)  # two shells: 10 and 9 off
    SH.shell(game.ctx, box(41, 29, 43, 31), (42, 30), "heavy_artillery", 3)
    SH.shell(game.ctx, box(41, 29, 43, 31), (42, 30), "heavy_artillery", 3)
    assert game.state.sections["T"] == [1] and figure(game, "G.1").alive  # one point left: it stands
    script(game, 1, 1)
    SH.shell(game.ctx, box(41, 29, 43, 31), (42, 30), "heavy_artillery", 3)
    assert game.state.sections["T"] == [0] and not figure(game, "G.1").alive  # ALL DEAD: it fell on him
    data = scenario([unit("A", "allies", fig(1, 1)), unit("G", "axis", fig(47, 47))], [{**TOWER, "windows": []}])
    assert check_scenario(data) == []


def test_castle_walls_are_checked_as_scenario_data() -> None:
    bad = {
        **WALL,
        "doors": [{"id": "D", "at": [30, 33]}],
        "sections": [{"id": "W.a", "line": [[10, 30], [20, 30]]}, {"id": "W.b", "line": [[24, 31], [38, 35]]}],
    }
    text = "\n".join(check_scenario(scenario([unit("A", "allies", fig(1, 1)), unit("G", "axis", fig(47, 47))], [bad])))
    assert "terrain[0].doors[0].at: [30.0, 33.0]: not on the castle wall's line" in text
    assert "terrain[0].sections[1].line: [[24.0, 31.0], [38.0, 35.0]]: not along the castle wall's line" in text
    assert "add up to" in text
    for name in ("castle_storm",):
        assert load_scenario(name).spec.terrain


@pytest.mark.rule("skirmish.74")
def test_a_wall_section_at_zero_points_takes_every_man_on_it() -> None:
    game = castle([fig(18, 27)], [fig(15, 30), fig(30.5, 30), fig(15, 33)])
    assert figure(game, "G.1").on_wall == "W.a" and figure(game, "G.2").on_wall == "W.b"
    assert figure(game, "G.3").on_wall is None  # in the courtyard, below the wall
    assert game.state.walls == {"W.a": 30, "W.b": 30}  # the tables' castle.wall_points (a marked default)
    script(game, 6, 6, 6, 5)
    SH.shell(game.ctx, box(14, 29, 16, 31), (15, 29), "heavy_artillery", 3)
    SH.shell(game.ctx, box(14, 29, 16, 31), (15, 29), "heavy_artillery", 3)
    assert game.state.walls["W.a"] == 7
    script(game, 3, 3)
    SH.shell(game.ctx, box(14, 29, 16, 31), (15, 29), "heavy_artillery", 3)
    assert game.state.walls["W.a"] == 1 and figure(game, "G.1").alive  # one point left: he stands on it
    # before the breach men on the ground cannot pass the stretch
    assert refusal(game, "Allies", parse_action("move A 18,32")).rule == "skirmish.76"
    script(game, 1, 1)
    events = SH.shell(game.ctx, box(14, 29, 16, 31), (15, 29), "heavy_artillery", 3)
    del events
    assert game.state.walls["W.a"] == 0
    assert not figure(game, "G.1").alive and figure(game, "G.2").alive and figure(game, "G.3").alive
    assert "W.a" not in {figure(game, "G.2").on_wall}
    # the stretch at 0 is a breach: men climb over its rubble
    move(game, "move A 18,32")
    assert figure(game, "A.1").y == 32


@pytest.mark.rule("skirmish.75")
def test_a_cannon_on_a_wall_hit_by_a_one_costs_its_section_five_points() -> None:
    data = scenario([unit("A", "allies", fig(20, 10)), unit("G", "axis", fig(27, 31), fig(28, 31)), FAR], CASTLE)
    data["pieces"] = [{"id": "C", "weapon": "light_artillery", "at": [27.5, 30], "crew": "G"}]
    game = make(data)
    script(game, 3, 4)  # ranging die 2: the shot's 2d6 only
    SH.shell(game.ctx, box(26, 29, 29, 31), (27.5, 30), "heavy_artillery", 2)
    assert game.state.walls["W.b"] == 23
    script(game, 3, 4)  # ranging die 1: 7 and the cannon's 5 (RULINGS S8)
    SH.shell(game.ctx, box(26, 29, 29, 31), (27.5, 30), "heavy_artillery", 1)
    assert game.state.walls["W.b"] == 11
    assert game.state.walls["W.a"] == 30  # the section the cannon is not on loses nothing for it


# ---------------------------------------------------------------------------------- tanks, doors, corners
@pytest.mark.rule("skirmish.62")
def test_tanks_cannot_enter_a_castle_and_other_vehicles_stop_at_its_wall() -> None:
    base = [unit("A", "allies", fig(14, 24), fig(46, 4)), unit("G", "axis", fig(46, 46)), FAR]
    breached = [{**WALL, "sections": [{"id": "W.a", "line": [[10, 30], [24, 30]], "storeys": [{"points": 30}]},
                                      {"id": "W.b", "line": [[24, 30], [38, 30]]}]}, TOWER, GROUND]  # fmt: skip
    for kind, rule in (("tank", "skirmish.62"), ("half_track", "skirmish.58")):
        data = scenario(base, breached)
        data["vehicles"] = [{"id": "V", "kind": kind, "side": "allies", "at": [14, 24], "heading": 90, "crew": ["A.1"]}]
        game = make(data)
        error = refusal(game, "Allies", parse_action("drive V 14,32"))
        assert error.rule == rule, str(error)
        # at the breach of a fallen section: the half track climbs the rubble, the tank may still not enter
        game.state.walls["W.a"] = 0
        game.ctx.structures_changed()
        if kind == "tank":
            assert refusal(game, "Allies", parse_action("drive V 14,32")).rule == "skirmish.62"
    # outside the castle the tank drives on
    data = scenario(base, CASTLE)
    data["vehicles"] = [{"id": "V", "kind": "tank", "side": "allies", "at": [14, 24], "heading": 90, "crew": ["A.1"]}]
    game = make(data)
    game.apply("Allies", parse_action("drive V 14,26"))
    assert game.state.vehicles["V"].y == 26


@pytest.mark.rule("skirmish.73")
def test_a_castle_door_takes_a_full_move_to_open_and_is_passed_the_turn_after() -> None:
    men = [unit("A", "allies", fig(30, 29)), unit("B", "allies", fig(31, 28)), unit("G", "axis", fig(46, 46))]
    data = scenario(men, CASTLE)
    game = make(data)
    # closed: nobody passes it
    assert refusal(game, "Allies", parse_action("move B 31,34")).rule == "skirmish.73"
    # A.1 opens it: that is his whole move (he gets no other order); nobody passes it this turn
    move(game, "move A / A.1 open D")
    assert game.state.doors["D"].open and (figure(game, "A.1").x, figure(game, "A.1").y) == (30, 29)
    assert refusal(game, "Allies", parse_action("move B 31,34")).rule == "skirmish.65"
    next_turn(game)
    move(game, "move B 31,34")
    assert figure(game, "B.1").y == 34


@pytest.mark.rule("skirmish.76")
def test_men_go_on_and_off_walls_only_at_corners_and_walk_along_their_tops() -> None:
    game = castle([fig(9.5, 29.2), fig(16, 29)], [fig(46, 46)])
    # not at a corner: refused; a path onto the top or through the wall: refused
    assert refusal(game, "Allies", parse_action("move A / A.2 up W")).rule == "skirmish.76"
    assert refusal(game, "Allies", parse_action("move A / A.2 to 16,30")).rule == "skirmish.76"
    assert refusal(game, "Allies", parse_action("move A / A.2 to 16,32")).rule == "skirmish.76"
    move(game, "move A / A.1 up W")
    assert figure(game, "A.1").on_wall == "W.a" and (figure(game, "A.1").x, figure(game, "A.1").y) == (10, 30)
    next_turn(game)
    # along the top he walks; off it, or down away from a corner, he may not
    assert refusal(game, "Allies", parse_action("move A / A.1 to 14,32")).rule == "skirmish.76"
    move(game, "move A / A.1 to 15,30")
    assert figure(game, "A.1").on_wall == "W.a"
    next_turn(game)
    assert refusal(game, "Allies", parse_action("move A / A.1 down 15,31")).rule == "skirmish.76"
    move(game, "move A / A.1 to 21,30")
    next_turn(game)
    move(game, "move A / A.1 to 23.5,30")
    next_turn(game)
    move(game, "move A / A.1 down 24,31")  # at the corner between the sections, into the castle
    assert figure(game, "A.1").on_wall is None and figure(game, "A.1").y == 31


# ---------------------------------------------------------------------------------- storming
@pytest.mark.rule("skirmish.78")
def test_raising_a_ladder_takes_half_a_move_within_one_inch_of_the_wall() -> None:
    game = castle([fig(16, 28.5), fig(20, 26), fig(12, 25)], [fig(46, 46)])
    # too far from the wall; a top not on the wall's line; a walk of more than half his move first
    assert refusal(game, "Allies", parse_action("move A / A.2 ladder 20,30")).rule == "skirmish.78"
    assert refusal(game, "Allies", parse_action("move A / A.1 ladder 16,31")).rule == "skirmish.78"
    assert refusal(game, "Allies", parse_action("move A / A.3 ladder 12,30 12,28.6")).rule == "skirmish.78"
    # within 1" of the wall's face (0.5" here), and after a walk of 3" (half of 6")
    move(game, "move A / A.1 ladder 16,30 / A.2 ladder 20,30 20,29")
    assert sorted(game.state.ladders) == ["L1", "L2"]
    lad = game.state.ladders["L2"]
    assert lad.section == "W.a" and lad.foot == (20, 29) and lad.top == (20, 30) and lad.side == "allies"


@pytest.mark.rule("skirmish.79")
def test_two_men_a_move_go_onto_a_ladder_and_do_not_fire() -> None:
    game = castle([fig(16, 28.5), fig(15, 28.5), fig(17, 28.5), fig(16, 27.5)], [fig(16, 40)])
    move(game, "move A / A.1 ladder 16,30")
    next_turn(game)
    assert refusal(game, "Allies", parse_action("move A / A.2 climb L1 / A.3 climb L1 / A.4 climb L1")).rule == (
        "skirmish.79"
    )
    move(game, "move A / A.2 climb L1 / A.3 climb L1")
    assert figure(game, "A.2").on_ladder == "L1" and figure(game, "A.3").on_ladder == "L1"
    assert FI.can_fire(game.ctx, figure(game, "A.2")) == (
        "skirmish.79",
        "A.2 is on ladder L1: men on a ladder do not fire",
    )
    assert FI.can_fire(game.ctx, figure(game, "A.1")) is None
    next_turn(game)  # the next turn they stand at its top, outside the wall
    assert figure(game, "A.2").y == 29.5
    assert refusal(game, "Allies", parse_action("move A / A.4 climb L1")).rule == "skirmish.79"  # it holds two


@pytest.mark.rule("skirmish.83", "skirmish.84")
def test_two_men_push_a_ladder_off_on_one_or_two_and_its_men_survive_on_four_to_six() -> None:
    def storming() -> SkirmishGame:
        data = scenario(
            [unit("A", "allies", fig(16, 28.5), fig(15, 28.5), fig(17, 28.5)),
             unit("G", "axis", fig(15, 30), fig(17, 30)), unit("H", "axis", fig(16, 30)), FAR],
            CASTLE,
        )  # fmt: skip
        game = make(data)
        move(game, "move A / A.1 ladder 16,30")
        next_turn(game)
        move(game, "move A / A.2 climb L1 / A.3 climb L1")
        to_axis_move(game)
        return game

    game = storming()
    script(game, 3, 4)  # each pusher rolls: a 3 and a 4: it stays
    move(game, "move G / G.1 push L1 / G.2 push L1")
    assert "L1" in game.state.ladders
    assert refusal(game, "Axis", parse_action("move H / H.1 push L1")).rule == "skirmish.83"  # one try a turn
    game = storming()
    script(game, 5, 2, 4, 3)  # a 2 pushes it off; A.2 survives on 4, A.3 dies on 3
    move(game, "move G / G.1 push L1 / G.2 push L1")
    assert "L1" not in game.state.ladders
    assert figure(game, "A.2").alive and figure(game, "A.2").on_ladder is None and figure(game, "A.2").y < 30
    assert not figure(game, "A.3").alive
    # a ladder that is not there is refused
    game = storming()
    assert refusal(game, "Axis", parse_action("move G / G.1 push L9")).rule == "skirmish.78"
    assert MX.PushOff(2, 2).distribution().probability(True) == pytest.approx(5 / 9)


@pytest.mark.rule("skirmish.83")
def test_one_man_alone_cannot_push_a_ladder_off_unless_the_one_die_option_is_played() -> None:
    def storming(push: str | None) -> SkirmishGame:
        data = scenario(
            [unit("A", "allies", fig(16, 28.5), fig(15, 28.5), fig(17, 28.5)),
             unit("G", "axis", fig(15, 30), fig(17, 30)), FAR],
            CASTLE,
        )  # fmt: skip
        options = RULESET.resolve({} if push is None else {"ladder_push": push})
        game = SkirmishGame(options, ScriptedDice([]), scenario=scenario_from_data(data, "test"))
        move(game, "move A / A.1 ladder 16,30")
        next_turn(game)
        move(game, "move A / A.2 climb L1 / A.3 climb L1")
        to_axis_move(game)
        return game

    game = storming(None)  # the default: two men (RULINGS S9)
    assert game.state.options["ladder_push"] == "two_men"
    before = game.state.to_json()
    problem = refusal(game, "Axis", parse_action("move G / G.1 push L1"))
    assert problem.rule == "skirmish.83" and "it takes 2 men" in str(problem)
    assert game.state.to_json() == before and "L1" in game.state.ladders
    script(game, 3, 2, 5, 6)  # two men: a 3 and a 2: the 2 pushes it off; its two men survive (5, 6)
    move(game, "move G / G.1 push L1 / G.2 push L1")
    assert "L1" not in game.state.ladders
    # the one-die reading: one man alone rolls one die, a 1 or 2 pushes it off, a 3 does not
    game = storming("one_die")
    script(game, 3)
    move(game, "move G / G.1 push L1")
    assert "L1" in game.state.ladders and game.state.ladders["L1"].pushed == game.state.turn
    game = storming("one_die")
    script(game, 2, 6, 6)  # a 2 pushes it off; the two men on it survive on 6
    move(game, "move G / G.1 push L1")
    assert "L1" not in game.state.ladders
    with pytest.raises(OptionError):
        RULESET.resolve({"ladder_push": "three_men"})


@pytest.mark.rule("skirmish.80", "skirmish.81", "skirmish.85")
def test_ladder_men_fight_two_defenders_without_advantage_and_winners_take_the_wall() -> None:
    game = castle([fig(16, 28.5), fig(15, 28.5), fig(17, 28.5)], [fig(16, 30)])
    move(game, "move A / A.1 ladder 16,30")
    next_turn(game)
    move(game, "move A / A.2 climb L1 / A.3 climb L1")
    next_turn(game)
    # turn 3: they stand at the top touching G.1 on the wall; the melee: A.2 and A.3 strike G.1
    assert ME.contacts(game.ctx)["G.1"] == {"A.2", "A.3"} and "A.1" not in ME.contacts(game.ctx)["G.1"]
    # A.2 hits (4), G.1 rolls survival (no attack advantage) and gets 6: a flesh wound; A.3 hits again (5):
    # a second hit this turn kills (skirmish.7); then no one is left at the top: they go onto the wall
    next_turn(game, 4, 6, 5, 1)  # ... and G.1, dead, strikes back before removal (1: a miss)
    assert not figure(game, "G.1").alive
    assert figure(game, "A.2").on_wall == "W.a" and figure(game, "A.3").on_wall == "W.a"
    assert figure(game, "A.2").on_ladder is None


@pytest.mark.rule("skirmish.85")
def test_on_walls_only_two_men_a_side_strike_each_way() -> None:
    game = castle([fig(15, 30), fig(16, 30), fig(17, 30)], [fig(13, 30), fig(19, 30), fig(20, 30)])
    aims = {"A.1": "G.1", "A.2": "G.2", "A.3": "G.2", "G.2": "A.3", "G.3": "A.3"}
    # A.2 and A.3 strike east and A.1 west: all three strike; had a third gone east he would wait
    assert CA.wall_strikers(game.ctx, aims) == aims
    crowd = {"A.1": "G.2", "A.2": "G.2", "A.3": "G.2"}
    assert CA.wall_strikers(game.ctx, crowd) == {"A.1": "G.2", "A.2": "G.2"}


@pytest.mark.rule("skirmish.82")
def test_others_follow_up_the_ladder_while_a_man_holds_its_top() -> None:
    game = castle([fig(16, 28.5), fig(15, 28.5), fig(17, 28.5), fig(16, 27.5)], [fig(46, 46)])
    move(game, "move A / A.1 ladder 16,30")
    next_turn(game)
    move(game, "move A / A.2 climb L1")
    next_turn(game)  # the next turn he stands at the top; nobody stands against him: he takes the wall
    assert figure(game, "A.2").on_ladder == "L1"
    next_turn(game)
    assert figure(game, "A.2").on_wall == "W.a"
    move(game, "move A / A.3 climb L1 / A.4 climb L1")  # he holds the top: they step onto the wall at once
    assert figure(game, "A.3").on_wall == "W.a" and figure(game, "A.4").on_wall == "W.a"
    assert figure(game, "A.3").on_ladder is None


def test_ladder_orders_round_trip_and_are_refused_with_one_line() -> None:
    action = parse_action("move A / A.1 ladder 16,30 16,29 / A.2 push L1")
    assert str(action) == "move A / A.1 ladder 16,30 16,29 / A.2 push L1"
    assert isinstance(action, Move) and action.orders[1] == Order("A.2", "push", name="L1")
    game = castle([fig(16, 28.5)], [fig(46, 46)])
    error = refusal(game, "Allies", parse_action("move A / A.1 climb L3"))
    assert "\n" not in str(error) and "no ladder 'L3'" in str(error)
    hold_moves(game)


def test_the_castle_storm_plays_to_a_result_and_the_doctrine_raises_and_climbs_ladders() -> None:
    import numpy as np

    from grognard.bots.random_bot import RandomBot
    from grognard.core.dice import SeededDice
    from grognard.core.play import play_out
    from grognard.rulesets.skirmish import RULESET
    from grognard.rulesets.skirmish.book import DoctrineBot

    for seed, bot_kind in ((1, DoctrineBot), (2, RandomBot)):
        game = RULESET.create({"scenario": "castle_storm"}, SeededDice(seed))
        bot = bot_kind(np.random.default_rng(seed))
        kinds: list[str] = []
        play_out(
            game,
            lambda seat, bot=bot: bot,
            on_step=lambda d, a, events, kinds=kinds: kinds.extend(e.kind for e in events),
        )
        assert game.result is not None and game.result.outcome in ("win", "draw")
        if bot_kind is DoctrineBot:
            assert "ladder_raised" in kinds and "climbs" in kinds


@pytest.mark.rule("skirmish.83")
def test_the_ladder_push_odds_follow_the_option() -> None:
    from fractions import Fraction

    from grognard.analysis.odds import distribution_rows

    def table(options: dict[str, str]) -> dict[object, dict[object, Fraction]]:
        found = next(t for t in RULESET.analysis.odds_tables(RULESET.resolve(options)) if t.name == "ladder_push")
        return {men: dict(distribution_rows(mechanic)) for men, mechanic in found.rows}

    assert table({}) == {2: {False: Fraction(4, 9), True: Fraction(5, 9)}}  # two men, a die each (S9)
    assert table({"ladder_push": "one_die"})[1] == {False: Fraction(2, 3), True: Fraction(1, 3)}
