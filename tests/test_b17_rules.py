"""The B-17 raid, rule by rule (docs/rules/b17.md): every rule ID b17.1-b17.63 is proved here.

Most tests build a *scene*: a game past placement whose bombers and fighters are put where the test
wants them (``game.state`` edited directly), every other aircraft off the table, and every die
scripted. Models are sized for round numbers (options ``bomber_length=3``, ``bomber_span=4``; the
Me-109 is 1.24" long, 1.37" across), so a B-17 at (50, 30) heading 0 has its nose at x=51.5, its tail
gun at (48.5, 30), its waist guns at (49.55, 30.15) and (49.55, 29.85), its wingtips at y=28 and 32.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from grognard.core.dice import ScriptedDice, SeededDice
from grognard.core.engine import Event
from grognard.core.errors import IllegalAction
from grognard.core.play import play_out
from grognard.rulesets.b17 import RULESET, B17Game
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly, Guns, PlaceBox
from grognard.rulesets.b17.bots import DoctrineBot, fighter_plans
from grognard.rulesets.b17.data import (
    B17_LENGTH,
    B17_SPAN,
    FLAK_RANGE,
    ME109_LENGTH,
    ME109_SPAN,
    TABLE_LENGTH,
    TABLE_WIDTH,
    TARGET,
    damage_grade,
)

ROUND = {"bomber_length": 3.0, "bomber_span": 4.0}

# ---------------------------------------------------------------------------------- helpers


def placed_game(dice: list[int], **options: Any) -> B17Game:
    """A game whose box(es) the doctrine placed; ``dice`` are the dice after placement (entry rolls...)."""
    game = B17Game(RULESET.resolve({**ROUND, **options}), ScriptedDice(dice))
    for decision in list(game.pending()):
        game.apply("American", decision.space.candidates(1)[0])
    return game


def scene(
    bombers: dict[str, tuple[float, float, float]],
    fighters: dict[str, tuple[float, float, float]] | None = None,
    *,
    phase: str = "fighters",
    dice: tuple[int, ...] = (),
    **options: Any,
) -> B17Game:
    """A game in ``phase`` with only these aircraft on the table, every element arrived (level), dice scripted."""
    boxes = 2 if options.get("enlarged") else 1
    game = placed_game([1] * (2 * boxes), **options)
    s = game.state
    for element in s.elements:
        element.entered, element.altitude, element.hour = 0, "level", 6
    for label, a in s.aircraft.items():
        where = (bombers if a.bomber else (fighters or {})).get(label)
        if where is None:
            a.status = "left"
        else:
            a.x, a.y, a.heading = where
            a.status = "flying"
            a.moves = 0 if a.bomber else 1
    s.phase = phase
    s.to_move = list(fighters or {}) if phase == "fighters" else list(bombers)
    game.dice = ScriptedDice(dice)
    game.changed()
    return game


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events if e.kind != "dice"]


def first(events: list[Event], kind: str) -> dict[str, Any]:
    return dict(next(e.data for e in events if e.kind == kind))


def every(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


def german(game: B17Game, action: Any) -> list[Event]:
    return game.apply("German", action)


def american(game: B17Game, action: Any) -> list[Event]:
    return game.apply("American", action)


def refused(game: B17Game, seat: str, action: Any, rule: str) -> IllegalAction:
    digest = game.digest()
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert info.value.rule == rule, info.value
    assert game.digest() == digest
    return info.value


# a B-17 alone at (50, 30) heading 0, and a fighter behind it on its axis whose nose is 4" from its tail gun
BOMBER = {"B1": (50.0, 30.0, 0.0)}
NOSE_4_BEHIND_X = 48.5 - 4.0 - ME109_LENGTH / 2  # 43.88


RUN = {"B1": (98.0, 30.0, 0.0)}  # 6" on, a turn of 90 degrees, 4" on: ends at (104, 34), fuselage over the target
RUN_MOVE = Fly("B1", 6.0, 90.0)


# ---------------------------------------------------------------------------------- I-II


@pytest.mark.rule("b17.1")
def test_a_whole_raid_plays_solo_with_the_automaton_on_both_sides() -> None:
    for seed in (1, 2):
        game = RULESET.create({}, SeededDice(seed))
        bot = DoctrineBot(np.random.default_rng(seed))
        result = play_out(game, lambda seat, bot=bot: bot)  # type: ignore[misc]
        assert result.outcome == "win" and result.winner in ("american", "german")
        # unescorted: the only fighters are German
        assert {a.model for a in game.state.aircraft.values() if not a.bomber} <= {"Me-109", "FW-190"}
        assert {a.model for a in game.state.aircraft.values() if a.bomber} == {"B-17"}


@pytest.mark.rule("b17.2")
def test_the_table_is_a_ping_pong_table_and_off_it_is_out() -> None:
    assert (TABLE_LENGTH, TABLE_WIDTH) == (108.0, 60.0)
    assert G.table_contains(0.0, 0.0) and G.table_contains(108.0, 60.0)
    assert not G.table_contains(-0.02, 30.0) and not G.table_contains(54.0, 60.02)


@pytest.mark.rule("b17.3")
def test_four_b17s_against_four_fighters_at_1_285() -> None:
    game = placed_game([1, 1])
    bombers = [a for a in game.state.aircraft.values() if a.bomber]
    fighters = [a for a in game.state.aircraft.values() if not a.bomber]
    assert len(bombers) == 4 and {b.model for b in bombers} == {"B-17"} and {b.engines for b in bombers} == {4}
    assert len(fighters) == 4 and {f.model for f in fighters} == {"Me-109"} and {f.engines for f in fighters} == {1}
    # 1/285 of the real aircraft: B-17 22.66 m by 31.62 m, Me-109 8.95 m by 9.92 m
    assert (B17_LENGTH, B17_SPAN) == (3.13, 4.37)
    assert (ME109_LENGTH, ME109_SPAN) == (1.24, 1.37)
    mixed = placed_game([1, 1], fighter_type="mixed")
    assert [mixed.aircraft(f"F{k}").model for k in range(1, 5)] == ["Me-109", "FW-190", "Me-109", "FW-190"]
    assert R.dims_of(RULESET.resolve({"fighter_scale": 2.0}), "Me-109").length == 2 * ME109_LENGTH


@pytest.mark.rule("b17.4")
def test_each_damage_point_smokes_from_one_engine() -> None:
    game = scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 2, 30.0, 0.0)}, dice=(4, 3, 1, 6, 1, 6))
    events = german(game, Fly("F1", 14.0, 0.0, "B1", 2.0))
    assert first(events, "attack")["outcome"] == "damaged"  # 4+3+1 behind against 3+3
    b1 = game.aircraft("B1")
    assert b1.damaged == [1] and first(events, "engine_damaged") == {"aircraft": "B1", "engine": 1, "damage": 1}
    picture = RULESET.render(game.view(None))  # type: ignore[misc]
    assert "B1 (B-17), heading 0 degrees, 1 engines damaged" in picture  # the picture's B1 says so
    assert len(G.engine_positions(game.dims(b1), 50.0, 30.0, 0.0)) == 4


@pytest.mark.rule("b17.5")
def test_the_target_is_eleven_by_eight_inches() -> None:
    x0, y0, x1, y1 = TARGET
    assert (y1 - y0, x1 - x0) == (11.0, 8.0)


# ---------------------------------------------------------------------------------- III-IV


@pytest.mark.rule("b17.6")
def test_fighters_enter_in_elements_of_two() -> None:
    game = placed_game([2, 3, 3, 3, 1])  # E1 enters at 6 o'clock, level; E2 does not
    e1, e2 = game.state.elements
    assert e1.fighters == ("F1", "F2") and e2.fighters == ("F3", "F4")
    assert [game.aircraft(f).status for f in ("F1", "F2", "F3", "F4")] == ["flying", "flying", "waiting", "waiting"]
    f1, f2 = game.aircraft("F1"), game.aircraft("F2")
    assert (f1.x, f1.y, f1.heading) == (0.0, 30.0, 0.0)
    assert f2.heading == 0.0 and math.dist((f1.x, f1.y), (f2.x, f2.y)) == pytest.approx(1.5 * ME109_SPAN, abs=0.01)


@pytest.mark.rule("b17.7")
def test_the_two_fighters_of_an_element_fly_apart() -> None:
    game = scene(BOMBER, {"F1": (20.0, 10.0, 0.0), "F2": (20.0, 12.0, 0.0)})
    assert {d.id for d in game.pending()} == {"move F1", "move F2"}
    german(game, Fly("F2", 6.0, 90.0))
    german(game, Fly("F1", 6.0, -45.0))
    f1, f2 = game.aircraft("F1"), game.aircraft("F2")
    assert (f2.x, f2.y, f2.heading) == (26.0, 20.0, 90.0)
    assert f1.heading == -45.0 and f1.y < 10.0


@pytest.mark.rule("b17.8")
def test_three_bomb_hits_win_for_the_americans_two_do_not() -> None:
    # flak 1 against 6: no damage; bombs (bomber, target): 6-3 two hits, 4-3 one hit, then misses
    win = scene(RUN, phase="bombers", dice=(1, 6, 6, 3, 4, 3, 1, 6, 1, 6))
    american(win, RUN_MOVE)
    assert win.state.hits == 3 and win.result is not None and win.result.winner == "american"
    lose = scene(RUN, phase="bombers", dice=(1, 6, 6, 3, 1, 6, 1, 6, 1, 6))
    american(lose, RUN_MOVE)
    assert lose.state.hits == 2 and lose.result is not None and lose.result.winner == "german"


@pytest.mark.rule("b17.9")
def test_the_germans_win_by_shooting_down_every_bomber_and_the_game_ends_when_no_bomber_is_left_to_bomb() -> None:
    game = scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 2, 30.0, 0.0)}, dice=(4, 3))
    game.aircraft("B1").damaged = [1, 2, 3, 4]
    game.changed()
    events = german(game, Fly("F1", 14.0, 0.0, "B1", 2.0))
    assert first(events, "destroyed")["aircraft"] == "B1"
    assert game.result is not None and game.result.winner == "german"
    assert game.result.reason.endswith("1 of 4 bombers shot down")  # the others are off the table (the scene)
    # a game that runs to the turn cap ends unfinished
    capped = scene({"B1": (20.0, 30.0, 90.0)}, phase="bombers", turn_cap=1)
    american(capped, Fly("B1", 3.0, 90.0))
    assert capped.result is not None and capped.result.outcome == "unfinished"


FAR = {"B2": (30.0, 30.0, 0.0)}  # a second bomber far from the target and the flak, still to bomb
FIGHTER_AWAY = {"F1": (5.0, 5.0, 180.0)}  # a fighter still flying, out of every gun's reach


@pytest.mark.rule("b17.9")
@pytest.mark.parametrize(
    ("bombs", "fighters", "ends"),
    [
        ((6, 3, 6, 3, 4, 3, 1, 6), None, True),  # 2 + 2 + 1 = 5 hits (major), no fighter left: decided
        ((6, 3, 6, 3, 1, 6, 1, 6), None, False),  # 4 hits (moderate): B2's bombs could still make it major
        ((6, 3, 6, 3, 4, 3, 1, 6), FIGHTER_AWAY, False),  # 5 hits, but a fighter still hunts the bombers
    ],
)
def test_the_raid_ends_when_five_hits_are_in_and_no_fighter_is_left(
    bombs: tuple[int, ...], fighters: dict[str, tuple[float, float, float]] | None, ends: bool
) -> None:
    game = scene({**RUN, **FAR}, fighters, phase="bombers", dice=(1, 6, *bombs))  # flak 1 against 6: no damage
    american(game, RUN_MOVE)
    american(game, Fly("B2", 10.0, 0.0))
    assert game.aircraft("B1").bombed and game.aircraft("B2").flying and not game.aircraft("B2").bombed
    if ends:
        assert game.result is not None and game.result.winner == "american" and game.state.hits == 5
        assert "major damage, and no fighter is left" in game.result.reason
    else:
        assert game.result is None and game.turn == 2


@pytest.mark.rule("b17.9")
@pytest.mark.parametrize(
    ("damage", "fighters", "capped"),
    [
        ([1, 2, 3, 4], None, False),  # 2" a move, all straight, nobody left to fight: it flies on past the cap
        ([1, 2, 3], None, True),  # 4" a move: it can still turn, a choice is left: the cap ends the raid
        ([1, 2, 3, 4], FIGHTER_AWAY, True),  # a fighter is still flying: the cap ends the raid
    ],
)
def test_a_crippled_bomber_flying_a_fixed_course_is_not_stopped_by_the_turn_cap(
    damage: list[int], fighters: dict[str, tuple[float, float, float]] | None, capped: bool
) -> None:
    # at the target: flak 1 against 6 (no damage), then bombs 2 + 2 + 1
    game = scene({"B1": (20.0, 30.0, 0.0)}, fighters, phase="bombers", dice=(1, 6, 6, 3, 6, 3, 4, 3, 1, 6), turn_cap=1)
    game.aircraft("B1").damaged = damage
    game.changed()
    american(game, Fly("B1", min(game.allowance(game.aircraft("B1")), 3.0), 0.0))
    if capped:
        assert game.result is not None and game.result.outcome == "unfinished"
    else:
        assert game.result is None and game.turn == 2
        while not game.is_over:  # the crawl to the far end: it bombs or leaves, the raid ends by itself
            american(game, Fly("B1", 2.0, 0.0))
        assert game.aircraft("B1").bombed and game.state.hits == 5 and game.turn == 2 + (100 - 20 - 2) // 2
        assert game.result is not None and game.result.winner == "american"


# ---------------------------------------------------------------------------------- V. placement


@pytest.mark.rule("b17.10", "b17.11")
def test_the_target_lies_flush_with_the_middle_of_the_far_end() -> None:
    _x0, y0, x1, y1 = TARGET
    assert x1 == TABLE_LENGTH  # the end opposite the American entry end (x=0)
    assert (y0 + y1) / 2 == TABLE_WIDTH / 2


def box(lx: float, ly: float, gap: float = 4.0, wing: float = 4.0) -> PlaceBox:
    dims = G.Dims(3.0, 4.0, True)
    return PlaceBox(1, R.standard_box(dims, lx, ly, gap, wing))


def setup_game(**options: Any) -> B17Game:
    return B17Game(RULESET.resolve({**ROUND, **options}), ScriptedDice([1, 1, 1, 1]))


@pytest.mark.rule("b17.12")
def test_bombers_are_placed_6_to_18_inches_from_the_entry_edge() -> None:
    assert box(16.5, 30.0).positions[0] == (16.5, 30.0)  # leader's nose exactly on the 18" line
    american(setup_game(), box(16.5, 30.0))
    error = refused(setup_game(), "American", box(16.52, 30.0), "b17.12")
    assert '6" to 18"' in str(error)
    american(setup_game(), box(14.5, 30.0))  # last bomber's tail exactly on the 6" line
    refused(setup_game(), "American", box(14.48, 30.0), "b17.12")


@pytest.mark.rule("b17.13")
def test_bombers_keep_6_inches_from_the_flanks() -> None:
    american(setup_game(), box(16.0, 48.0))  # the left bomber's wingtip at y=54
    refused(setup_game(), "American", box(16.0, 48.02), "b17.13")
    american(setup_game(), box(16.0, 12.0))  # the right bomber's wingtip at y=6
    refused(setup_game(), "American", box(16.0, 11.98), "b17.13")


@pytest.mark.rule("b17.14")
def test_the_diamond_box_and_4_inches_from_the_leaders_tail_to_the_last_bombers_nose() -> None:
    american(setup_game(), box(16.0, 30.0, gap=4.0))
    error = refused(setup_game(), "American", box(16.0, 30.0, gap=3.98), "b17.14")
    assert '3.98"' in str(error)
    leader, left, right, last = box(16.0, 30.0).positions
    refused(setup_game(), "American", PlaceBox(1, (leader, right, left, last)), "b17.14")  # left and right swapped
    refused(setup_game(), "American", PlaceBox(1, (leader, left, right)), "b17.14")


@pytest.mark.rule("b17.15")
def test_4_inches_between_the_wingtips_of_the_left_and_right_bombers() -> None:
    american(setup_game(), box(16.0, 30.0, wing=4.0))
    error = refused(setup_game(), "American", box(16.0, 30.0, wing=3.98), "b17.15")
    assert "wingtips" in str(error)


# ---------------------------------------------------------------------------------- V. arrival


@pytest.mark.rule("b17.16")
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_an_element_enters_on_an_even_d6(face: int) -> None:
    dice = [face, 3, 3, 3] if face % 2 == 0 else [face]
    game = placed_game([*dice, 1])
    assert (game.state.elements[0].entered == 1) is (face % 2 == 0)
    assert game.state.elements[1].entered is None


@pytest.mark.rule("b17.16")
def test_an_element_not_yet_in_rolls_again_every_turn() -> None:
    game = placed_game([1, 1])
    game.dice = ScriptedDice([2, 3, 3, 3, 2, 3, 3, 3])  # turn 2: both elements enter
    for b in [b.label for b in game.state.bombers()]:
        american(game, Fly(b, 10.0, 0.0))
    assert game.turn == 2 and all(e.entered == 2 for e in game.state.elements)


@pytest.mark.rule("b17.17", "b17.18")
@pytest.mark.parametrize(
    ("dice", "hour", "where"),
    [
        ((6, 6), 12, (108.0, 30.0, 180.0)),  # the target's end, flying back down the table
        ((3, 3), 6, (0.0, 30.0, 0.0)),  # the American entry end
        ((1, 2), 3, (54.0, 0.0, 90.0)),  # the bombers' right flank
        ((4, 5), 9, (54.0, 60.0, -90.0)),
        ((1, 1), 2, (71.32, 0.0, 120.0)),
    ],
)
def test_2d6_on_the_clock_face_give_the_entry_point_and_heading(dice: tuple[int, int], hour: int, where: Any) -> None:
    game = placed_game([2, *dice, 3, 1])
    e1 = game.state.elements[0]
    f1 = game.aircraft("F1")
    assert e1.hour == hour and (f1.x, f1.y, f1.heading) == where
    assert G.table_contains(f1.x, f1.y)  # an entry point on the edge is on the table


@pytest.mark.rule("b17.19", "b17.20")
@pytest.mark.parametrize(
    ("face", "altitude"), [(1, "below"), (2, "below"), (3, "level"), (4, "level"), (5, "above"), (6, "above")]
)
def test_a_d6_for_altitude_once_per_element(face: int, altitude: str) -> None:
    game = placed_game([2, 3, 3, face, 1])
    assert game.state.elements[0].altitude == altitude
    assert [d for p, _, d in game.dice.log if "altitude" in p] == [[face]]  # type: ignore[attr-defined]


@pytest.mark.rule("b17.21")
def test_the_coin_beside_the_element_is_its_altitude_shown_to_everyone() -> None:
    game = placed_game([2, 3, 3, 6, 1])
    view = game.view("American")
    assert view["elements"][0]["altitude"] == "above"
    assert "above the bombers" in (RULESET.board(game, None) or "")


@pytest.mark.rule("b17.22")
@pytest.mark.parametrize(("face", "first_move"), [(1, 8.0), (3, 14.0), (6, 20.0)])
def test_the_first_move_dives_climbs_or_flies_level_and_later_moves_are_regular(face: int, first_move: float) -> None:
    game = placed_game([2, 1, 2, face, 1])  # enters at 3 o'clock, (54, 0), heading 90
    f1 = game.aircraft("F1")
    assert game.allowance(f1) == first_move
    german(game, Fly("F1", first_move, 0.0))
    assert (f1.x, f1.y) == (54.0, first_move)
    assert game.allowance(f1) == 14.0


# ---------------------------------------------------------------------------------- VI. movement


@pytest.mark.rule("b17.23")
def test_the_fighters_automaton_intercepts_the_closest_bomber() -> None:
    bombers = {"B1": (50.0, 30.0, 0.0), "B2": (70.0, 30.0, 0.0)}
    game = scene(bombers, {"F1": (85.0, 30.0, 180.0)})
    plan = fighter_plans(game, game.aircraft("F1"), 1)[0]
    assert plan.target == "B2"  # the nearer bomber, head-on
    path, stop, _ = game.pending()[0].space.resolve(plan)  # type: ignore[attr-defined]
    x, y, h = path.snapped(stop)
    assert R.head_on_or_behind(game.aircraft("B2"), x, y, h, 15.0) == "head-on"
    # a person flying the fighters is bound to the closest bomber only with the option auto_intercept
    pair = {"B1": (50.0, 30.0, 0.0), "B2": (56.0, 30.0, 0.0)}  # F1's nose is nearer B1's wing than B2
    bound = scene(pair, {"F1": (53.0, 36.0, -90.0)}, auto_intercept=True)
    refused(bound, "German", Fly("F1", 14.0, 0.0, "B2", 2.0), "b17.23")
    loose = scene(pair, {"F1": (53.0, 36.0, -90.0)}, dice=(1, 6, 1, 6, 1, 6))
    events = german(loose, Fly("F1", 14.0, 0.0, "B2", 2.0))
    assert first(events, "attack")["bomber"] == "B2"


@pytest.mark.rule("b17.23")
def test_a_turn_runs_entry_fighters_bombers_bomber_fire_and_bomb_run() -> None:
    game = placed_game([2, 3, 3, 3, 1])
    assert game.state.phase == "fighters" and {d.id for d in game.pending()} == {"move F1", "move F2"}
    german(game, Fly("F1", 6.0, -90.0))
    german(game, Fly("F2", 6.0, -90.0))
    assert game.state.phase == "bombers" and {d.id for d in game.pending()} == {f"move B{k}" for k in range(1, 5)}


@pytest.mark.rule("b17.24")
def test_fighters_fly_14_inches_and_b17s_10() -> None:
    game = scene({"B1": (20.0, 30.0, 0.0)}, {"F1": (20.0, 10.0, 0.0)})
    german(game, Fly("F1", 14.0, 0.0))
    assert (game.aircraft("F1").x, game.state.phase) == (34.0, "bombers")
    american(game, Fly("B1", 10.0, 0.0))
    assert game.aircraft("B1").x == 30.0


@pytest.mark.rule("b17.25")
def test_fighters_fly_6_inches_straight_then_turn_any_way() -> None:
    game = scene(BOMBER, {"F1": (20.0, 10.0, 0.0)})
    refused(game, "German", Fly("F1", 5.98, 30.0), "b17.25")
    german(game, Fly("F1", 6.0, 180.0))
    f1 = game.aircraft("F1")
    assert (f1.x, f1.y, f1.heading) == (18.0, 10.0, 180.0)


@pytest.mark.rule("b17.26")
def test_a_damaged_fighter_flies_2_inches_less() -> None:
    game = scene(BOMBER, {"F1": (20.0, 10.0, 0.0)})
    game.aircraft("F1").damaged = [1]
    game.changed()
    refused(game, "German", Fly("F1", 14.0, 0.0), "b17.29")
    german(game, Fly("F1", 12.0, 0.0))
    assert game.aircraft("F1").x == 32.0


@pytest.mark.rule("b17.27")
def test_bombers_fly_3_inches_straight_then_turn_up_to_90_degrees() -> None:
    game = scene({"B1": (30.0, 30.0, 0.0)}, phase="bombers")
    refused(game, "American", Fly("B1", 2.98, 10.0), "b17.27")
    refused(game, "American", Fly("B1", 3.0, 90.02), "b17.27")
    refused(game, "American", Fly("B1", 3.0, -90.02), "b17.27")
    american(game, Fly("B1", 3.0, 90.0))  # a turn of exactly 90 degrees
    b1 = game.aircraft("B1")
    assert (b1.x, b1.y, b1.heading) == (33.0, 37.0, 90.0)


@pytest.mark.rule("b17.28")
def test_a_bomber_flies_2_inches_less_per_damage_point() -> None:
    game = scene({"B1": (30.0, 30.0, 0.0)}, phase="bombers")
    game.aircraft("B1").damaged = [1, 4, 2]
    game.changed()
    assert game.allowance(game.aircraft("B1")) == 4.0
    american(game, Fly("B1", 4.0, 0.0))
    assert game.aircraft("B1").x == 34.0


@pytest.mark.rule("b17.29")
def test_the_whole_move_is_flown_and_an_aircraft_leaving_the_table_is_out() -> None:
    game = scene({"B1": (50.0, 50.0, 90.0), "B2": (60.0, 50.02, 90.0)}, phase="bombers")
    refused(game, "American", Fly("B1", 10.02, 0.0), "b17.29")
    american(game, Fly("B1", 10.0, 0.0))  # ends exactly on the table's edge: still on the table
    assert (game.aircraft("B1").y, game.aircraft("B1").status) == (60.0, "flying")
    events = american(game, Fly("B2", 10.0, 0.0))  # 0.02" beyond the edge: out
    assert game.aircraft("B2").status == "left" and first(events, "left_table")["aircraft"] == "B2"
    # a point to fly to gives the one path that ends there
    to = scene({"B1": (30.0, 30.0, 0.0)}, phase="bombers")
    american(to, Fly("B1", to=(33.0, 37.0)))
    assert (to.aircraft("B1").x, to.aircraft("B1").y, to.aircraft("B1").heading) == (33.0, 37.0, 90.0)
    refused(scene({"B1": (30.0, 30.0, 0.0)}, phase="bombers"), "American", Fly("B1", to=(60.0, 30.0)), "b17.29")


@pytest.mark.rule("b17.30")
def test_a_fighter_stops_to_attack_takes_the_defensive_fire_then_flies_on() -> None:
    # attack 1 against 6; the tail gunner fires at the stop (1 against 6) and at the end (1 against 6)
    game = scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 13.88, 30.0, 0.0)}, dice=(1, 6, 1, 6, 1, 6))
    f1 = game.aircraft("F1")
    start = f1.x
    events = german(game, Fly("F1", 14.0, 0.0, "B1", 13.88))
    assert kinds(events)[:6] == ["stops", "attack", "gunners", "gun", "moved", "gunners"]
    assert first(events, "stops")["x"] == pytest.approx(NOSE_4_BEHIND_X)
    assert (f1.x, f1.y) == (pytest.approx(start + 14.0), 30.0)
    assert [g["occasion"] for g in every(events, "gunners")] == ["attack", "end of move"]
    refused(scene(BOMBER, {"F1": (30.0, 30.0, 0.0)}), "German", Fly("F1", 14.0, 0.0, "B1", 14.02), "b17.30")


@pytest.mark.rule("b17.31")
@pytest.mark.parametrize(("gunner", "end_y"), [((1, 6), 30.0 + 6.12), ((5, 2), 30.0 + 4.12)])
def test_the_move_is_measured_first_and_2_inches_come_off_it_if_the_defensive_fire_damages_the_fighter(
    gunner: tuple[int, int], end_y: float
) -> None:
    game = scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 7.88, 30.0, 0.0)}, dice=(1, 6, *gunner))
    events = german(game, Fly("F1", 7.88, 90.0, "B1", 7.88))  # stops at the turn, then 6.12" to the left
    f1 = game.aircraft("F1")
    assert (f1.x, f1.y) == (pytest.approx(NOSE_4_BEHIND_X), pytest.approx(end_y))
    assert ("move_cut" in kinds(events)) is (gunner == (5, 2))


@pytest.mark.rule("b17.32", "b17.33", "b17.37")
def test_offensive_and_defensive_values_added_to_one_d6_each() -> None:
    side = {"F1": (50.0, 36.0, -90.0)}  # beside B1, not on its axis: no +1; its left waist gun answers
    game = scene(BOMBER, side, dice=(2, 5, 1, 6))
    events = german(game, Fly("F1", 14.0, 0.0, "B1", 1.5))
    attack = first(events, "attack")
    assert (attack["attack"], attack["defence"], attack["approach"]) == (2 + 3, 5 + 3, None)
    gun = first(events, "gun")
    assert (gun["attack"], gun["defence"]) == (1 + 1, 6 + 2)  # bombers 1 against fighters 2
    rolled = [p for p, _, _ in game.dice.log]  # type: ignore[attr-defined]
    assert rolled[0] == "F1 attacks B1: attacker die, defender die"


@pytest.mark.rule("b17.34")
def test_the_attack_range_is_4_inches_from_the_fighters_nose() -> None:
    at_4 = scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 6.0, 30.0, 0.0)}, dice=(1, 6, 1, 6, 1, 6))
    german(at_4, Fly("F1", 14.0, 0.0, "B1", 6.0))  # nose exactly 4" from the tail
    beyond = scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 6.02, 30.0, 0.0)})
    error = refused(beyond, "German", Fly("F1", 14.0, 0.0, "B1", 6.0), "b17.34")
    assert '4.02"' in str(error)


@pytest.mark.rule("b17.35")
def test_one_attack_per_fighter_move() -> None:
    game = scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 6.0, 30.0, 0.0)}, dice=(1, 6, 1, 6, 1, 6))
    german(game, Fly("F1", 14.0, 0.0, "B1", 6.0))
    assert "move F1" not in {d.id for d in game.pending()}
    with pytest.raises(IllegalAction):
        german(game, Fly("F1", 6.0, 0.0, "B1", 1.0))


@pytest.mark.rule("b17.36")
@pytest.mark.parametrize(("heading", "bonus"), [(-165.0, True), (165.0, True), (-164.98, False), (180.0, True)])
def test_plus_one_directly_head_on_within_the_tolerance(heading: float, bonus: bool) -> None:
    # the fighter 3.5" ahead of B1's nose on its axis, flying at it within (or just past) 15 degrees
    game = scene(BOMBER, {"F1": (55.0, 30.0, heading)}, dice=(3, 3, 1, 6, 1, 6, 1, 6))
    b1 = game.aircraft("B1")
    how = R.head_on_or_behind(b1, 55.0, 30.0, heading, 15.0)
    assert (how == "head-on") is bonus
    events = german(game, Fly("F1", 14.0, 0.0, "B1", 0.0))
    attack = first(events, "attack")
    assert attack["attack"] == 3 + 3 + (1 if bonus else 0)
    assert attack["outcome"] == ("damaged" if bonus else "no damage")  # 7 against 6, or 6 against 6


@pytest.mark.rule("b17.36")
def test_plus_one_from_directly_behind_and_not_from_the_side() -> None:
    b1 = scene(BOMBER).aircraft("B1")
    assert R.head_on_or_behind(b1, 44.0, 30.0, 15.0, 15.0) == "behind"
    assert R.head_on_or_behind(b1, 44.0, 30.0, 15.02, 15.0) is None
    assert R.head_on_or_behind(b1, 50.0, 35.0, -90.0, 15.0) is None
    assert R.head_on_or_behind(b1, 44.0, 30.0, 25.0, 30.0) == "behind"  # a wider tolerance setting


@pytest.mark.rule("b17.38", "b17.39", "b17.40")
@pytest.mark.parametrize(
    ("dice", "outcome"),
    [
        ((3, 3), "no damage"),
        ((3, 4), "no damage"),
        ((4, 3), "damaged"),
        ((4, 1), "damaged"),
        ((5, 1), "destroyed"),
        ((6, 1), "destroyed"),
    ],
)
def test_equal_or_more_no_damage_less_an_engine_doubled_destroyed(dice: tuple[int, int], outcome: str) -> None:
    game = scene(BOMBER, {"F1": (50.0, 36.0, -90.0)}, dice=(*dice, 1, 6, 1, 6, 1, 6))
    events = german(game, Fly("F1", 14.0, 0.0, "B1", 1.5))
    assert first(events, "attack")["outcome"] == outcome
    b1 = game.aircraft("B1")
    assert b1.status == ("destroyed" if outcome == "destroyed" else "flying")
    assert b1.damage == (1 if outcome == "damaged" else 0)


@pytest.mark.rule("b17.39")
def test_damage_with_every_engine_already_damaged_destroys() -> None:
    game = scene(BOMBER, {"F1": (50.0, 36.0, -90.0)}, dice=(4, 3))
    game.aircraft("B1").damaged = [1, 4, 2]
    game.changed()
    game.dice = ScriptedDice([4, 3, 4, 3, 1, 6])
    german(game, Fly("F1", 14.0, 0.0, "B1", 1.0))
    assert game.aircraft("B1").damaged == [1, 4, 2, 3] and game.aircraft("B1").flying
    fighter = scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 6.0, 30.0, 0.0)}, dice=(1, 6, 5, 2))
    fighter.aircraft("F1").damaged = [1]  # its one engine already smokes
    fighter.changed()
    events = german(fighter, Fly("F1", 12.0, 0.0, "B1", 6.0))
    assert fighter.aircraft("F1").status == "destroyed" and first(events, "gun")["outcome"] == "damaged"


@pytest.mark.rule("b17.41", "b17.46")
def test_a_bomber_ending_its_move_within_4_inches_fires_and_fighters_never_fire_back() -> None:
    ahead = 51.5 + 4.0 + ME109_LENGTH / 2  # F1's nose 4" ahead of the nose gun of B1 at (50, 30)
    game = scene({"B1": (40.0, 30.0, 0.0)}, {"F1": (ahead, 30.0, 180.0)}, phase="bombers", dice=(1, 6))
    # B1 flies to (50, 30): its nose gun 4" from F1's nose
    events = american(game, Fly("B1", 10.0, 0.0))
    assert every(events, "gunners") == [
        {"bomber": "B1", "fighter": "F1", "pair": "nose-tail", "guns": ["nose"], "occasion": "bombers' move"}
    ]
    assert "attack" not in kinds(events)


@pytest.mark.rule("b17.42")
@pytest.mark.parametrize(("dice", "outcome"), [((4, 3), "no damage"), ((5, 3), "damaged"), ((6, 1), "destroyed")])
def test_gunners_attack_with_1_against_the_fighters_2(dice: tuple[int, int], outcome: str) -> None:
    game = scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 6.0, 30.0, 0.0)}, dice=(1, 6, *dice, 1, 6))
    events = german(game, Fly("F1", 14.0, 0.0, "B1", 6.0))
    assert first(events, "gun")["outcome"] == outcome


@pytest.mark.rule("b17.43")
def test_bombers_do_not_stop_to_attack_but_fire_at_the_end_of_their_move() -> None:
    game = scene({"B1": (40.0, 30.0, 0.0)}, {"F1": (56.12, 30.0, 180.0)}, phase="bombers", dice=(1, 6))
    refused(game, "American", Fly("B1", 10.0, 0.0, "B1", 5.0), "b17.43")
    events = american(game, Fly("B1", 10.0, 0.0))
    assert first(events, "gunners")["occasion"] == "bombers' move"


@pytest.mark.rule("b17.44")
def test_four_gun_positions_on_the_model_and_range_measured_from_them() -> None:
    guns = G.gun_positions(G.Dims(3.0, 4.0, True), 50.0, 30.0, 0.0)
    assert guns["nose"] == (51.5, 30.0) and guns["tail"] == (48.5, 30.0)
    assert guns["left waist"] == pytest.approx((49.55, 30.15)) and guns["right waist"] == pytest.approx((49.55, 29.85))
    options = RULESET.resolve(ROUND)
    game = scene(BOMBER, {"F1": (NOSE_4_BEHIND_X, 30.0, 0.0)})
    assert R.guns_in_range(options, game.aircraft("B1"), game.aircraft("F1")) == {"tail": 4.0}  # exactly 4"
    game.aircraft("F1").x = NOSE_4_BEHIND_X - 0.02
    assert R.guns_in_range(options, game.aircraft("B1"), game.aircraft("F1")) == {}
    # the option firing_arcs: a waist gun does not fire along the fuselage to the rear
    arcs = RULESET.resolve({**ROUND, "firing_arcs": True})
    b1, f1 = game.aircraft("B1"), game.aircraft("F1")
    f1.x = 47.0  # just behind the tail
    assert set(R.guns_in_range(options, b1, f1)) == {"nose", "left waist", "right waist", "tail"}
    assert set(R.guns_in_range(arcs, b1, f1)) == {"tail"}


@pytest.mark.rule("b17.45")
def test_waist_gunners_never_fire_with_the_nose_or_tail_gunner_at_one_target() -> None:
    # F1 stops just behind B1's left wing: the tail and both waist guns are within 4"
    game = scene(BOMBER, {"F1": (47.0, 36.0, -90.0)}, dice=(1, 6, 1, 6, 1, 6))
    german(game, Fly("F1", 14.0, 0.0, "B1", 3.0))
    decision = game.pending()[0]
    assert decision.id == "guns B1 F1"
    assert set(decision.space.candidates(4)) == {Guns("B1", "F1", "nose-tail"), Guns("B1", "F1", "waists")}
    refused(game, "American", Guns("B1", "F1", "all"), "b17.45")
    events = american(game, Guns("B1", "F1", "waists"))
    assert [g["gun"] for g in every(events, "gun")] == ["left waist", "right waist"]


@pytest.mark.rule("b17.45")
def test_in_the_bombers_fire_a_gun_that_fired_at_one_fighter_does_not_fire_at_another() -> None:
    # after B1's move to (50, 30), F1 and F2 are both within 4" of its nose gun and of no other gun
    fighters = {"F1": (51.5 + 4.0 + ME109_LENGTH / 2, 30.0, 180.0), "F2": (54.5, 32.5, 180.0)}
    game = scene({"B1": (40.0, 30.0, 0.0)}, fighters, phase="bombers", dice=(1, 6, 1, 6))
    options = game.state.options
    b1 = game.aircraft("B1")
    events = american(game, Fly("B1", 10.0, 0.0))
    assert set(R.guns_in_range(options, b1, game.aircraft("F2"))) == {"nose"}
    assert [(g["fighter"], g["guns"]) for g in every(events, "gunners")] == [("F1", ["nose"])]
    assert game.dice.remaining == 2  # type: ignore[attr-defined]


@pytest.mark.rule("b17.46", "b17.47")
def test_fired_on_at_the_stop_and_again_at_the_end_by_every_bomber_within_4_inches() -> None:
    bombers = {"B1": (50.0, 30.0, 0.0), "B2": (50.0, 22.0, 0.0)}
    # F1 stops behind B1 (tail gun), then flies on to end beside B2's tail
    game = scene(bombers, {"F1": (NOSE_4_BEHIND_X - 6.0, 30.0, 0.0)}, dice=(1, 6, 1, 6, 1, 6, 1, 6))
    events = german(game, Fly("F1", 6.0, -90.0, "B1", 6.0))
    fire = every(events, "gunners")
    assert [(g["bomber"], g["occasion"]) for g in fire] == [("B1", "attack"), ("B2", "end of move")]


@pytest.mark.rule("b17.48")
def test_a_bomber_destroyed_by_the_attack_fires_nothing() -> None:
    game = scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 6.0, 30.0, 0.0)}, dice=(6, 1))
    events = german(game, Fly("F1", 14.0, 0.0, "B1", 6.0))
    assert first(events, "destroyed")["aircraft"] == "B1"
    assert "gunners" not in kinds(events) and game.dice.remaining == 0  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------- VII. the bomb run


@pytest.mark.rule("b17.49")
def test_several_bombers_bomb_in_the_same_turn() -> None:
    two = {"B1": (101.0, 22.0, 90.0), "B2": (105.0, 22.0, 90.0)}  # each flies 10" up into the target
    game = scene(two, phase="bombers", dice=(1, 6, *(1, 6) * 4) * 2)
    american(game, Fly("B1", 10.0, 0.0))
    events = american(game, Fly("B2", 10.0, 0.0))
    assert [b["bomber"] for b in every(events, "bombs")] == ["B1", "B2"]


@pytest.mark.rule("b17.50")
@pytest.mark.parametrize(("x", "over"), [(106.5, True), (106.52, False), (101.5, True), (101.48, False)])
def test_the_whole_fuselage_must_be_over_the_target_its_edge_included(x: float, over: bool) -> None:
    dims = G.Dims(3.0, 4.0, True)
    assert G.over_target(dims, x, 30.0, 0.0) is over
    assert G.over_target(dims, 104.0, 24.5 + 1.5, 90.0)  # sideways, the tail on the target's edge
    assert not G.over_target(dims, 104.0, 24.48 + 1.5, 90.0)


@pytest.mark.rule("b17.51")
@pytest.mark.parametrize("damage", [0, 3])
def test_four_bomb_rolls_damaged_or_not(damage: int) -> None:
    move = 10.0 - 2.0 * damage
    game = scene({"B1": (104.0 - move, 30.0, 0.0)}, phase="bombers", dice=(1, 6, *(1, 6) * 4))
    game.aircraft("B1").damaged = [1, 4, 2][:damage]
    game.changed()
    events = american(game, Fly("B1", move, 0.0))  # ends at (104, 30): over the target
    assert first(events, "bombs")["rolls"] == [0, 0, 0, 0]
    assert len([p for p, _, _ in game.dice.log if " bomb " in p]) == 4  # type: ignore[attr-defined]


@pytest.mark.rule("b17.52", "b17.57", "b17.58", "b17.59")
@pytest.mark.parametrize(
    ("dice", "hits"), [((2, 3), 0), ((3, 3), 0), ((4, 3), 1), ((5, 3), 1), ((6, 3), 2), ((2, 1), 2)]
)
def test_each_bomb_roll_is_read_like_combat_tie_none_more_one_doubled_two(dice: tuple[int, int], hits: int) -> None:
    game = scene(RUN, phase="bombers", dice=(1, 6, *dice, 1, 6, 1, 6, 1, 6))
    events = american(game, RUN_MOVE)
    assert first(events, "bombs")["rolls"] == [hits, 0, 0, 0]


@pytest.mark.rule("b17.53")
@pytest.mark.parametrize(("gap", "flak"), [(6.0, True), (6.02, False)])
def test_flak_reaches_6_inches_beyond_the_targets_edge(gap: float, flak: bool) -> None:
    # B1 flies 10" down the middle and ends with its nose 'gap' inches short of the target
    x = 100.0 - gap - 1.5 - 10.0
    game = scene({"B1": (x, 30.0, 0.0)}, phase="bombers", dice=(1, 6) if flak else ())
    events = american(game, Fly("B1", 10.0, 0.0))
    assert ("flak" in kinds(events)) is flak
    assert FLAK_RANGE == 6.0


@pytest.mark.rule("b17.53")
def test_flak_fires_once_at_each_bomber_and_before_its_bombs() -> None:
    game = scene({"B1": (88.0, 30.0, 0.0)}, phase="bombers", dice=(1, 6))
    american(game, Fly("B1", 10.0, 0.0))  # ends at (98, 30), its nose 0.5" from the target: flak
    game.dice = ScriptedDice([*(1, 6) * 4])
    american(game, RUN_MOVE)  # over the target next turn: no second flak, straight to the bombs
    assert game.aircraft("B1").bombed
    assert next(p for p, _, _ in game.dice.log).startswith("B1 bomb 1")  # type: ignore[attr-defined]
    every_turn = scene({"B1": (88.0, 30.0, 0.0)}, phase="bombers", dice=(1, 6), flak_every_turn=True)
    american(every_turn, Fly("B1", 10.0, 0.0))
    every_turn.dice = ScriptedDice([1, 6, *(1, 6) * 4])
    events = american(every_turn, RUN_MOVE)
    assert kinds(events).index("flak") < kinds(events).index("bombs")


@pytest.mark.rule("b17.54", "b17.55", "b17.56")
@pytest.mark.parametrize(
    ("dice", "outcome", "bombs"),
    [((3, 3), "no damage", True), ((2, 3), "no damage", True), ((3, 2), "damaged", True), ((4, 2), "destroyed", False)],
)
def test_flak_no_damage_when_the_bomber_scores_as_much_damage_below_destroyed_when_doubled(
    dice: tuple[int, int], outcome: str, bombs: bool
) -> None:
    game = scene(RUN, phase="bombers", dice=(*dice, *(1, 6) * 4))
    events = american(game, RUN_MOVE)
    assert first(events, "flak")["outcome"] == outcome
    assert game.aircraft("B1").bombed is bombs  # a damaged bomber still bombs (B6)


@pytest.mark.rule("b17.60")
@pytest.mark.parametrize(("hits", "grade"), [(2, "none"), (3, "minor"), (4, "moderate"), (5, "major"), (8, "major")])
def test_damage_grades(hits: int, grade: str) -> None:
    assert damage_grade(hits) == grade


# ---------------------------------------------------------------------------------- VIII. the enlarged game


@pytest.mark.rule("b17.61")
def test_the_enlarged_game_doubles_bombers_and_fighters() -> None:
    game = placed_game([1, 1, 1, 1], enlarged=True)
    s = game.state
    assert len(s.bombers()) == 8 and len(s.fighters()) == 8 and len(s.elements) == 4
    assert game.state.placed == [1, 2]


@pytest.mark.rule("b17.62")
def test_two_boxes_side_by_side() -> None:
    game = B17Game(RULESET.resolve({**ROUND, "enlarged": True}), ScriptedDice([1] * 4))
    american(game, box(16.0, 20.0))
    refused(game, "American", PlaceBox(2, box(16.0, 26.0).positions), "b17.62")  # one box inside the other
    american(game, PlaceBox(2, box(16.0, 40.0).positions))
    assert {b.box for b in game.state.bombers()} == {1, 2}


# ---------------------------------------------------------------------------------- paper models


@pytest.mark.rule("b17.63")
def test_paper_models_change_only_the_sizes_given_as_options() -> None:
    paper = RULESET.resolve({"bomber_length": 3.5, "bomber_span": 5.0, "fighter_scale": 1.2})
    assert R.dims_of(paper, "B-17") == G.Dims(3.5, 5.0, True)
    assert R.dims_of(paper, "Me-109").length == round(ME109_LENGTH * 1.2, 2)
