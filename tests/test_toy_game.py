"""The toy game "sentry run" (tests/toy_game.py), with scripted dice: secret choice, continuous action,
an interruption inside an action; and the conformance suite on it."""

from __future__ import annotations

import json
import math

import pytest

from grognard.core.dice import ScriptedDice
from grognard.core.engine import Decision, Game
from grognard.core.errors import DiceError, IllegalAction, OptionError, ParseError
from grognard.testing.conformance import check_all, random_playout
from toy_game import (
    MARK,
    RULESET,
    RUNNER,
    SENTRY,
    Dash,
    Hold,
    Lane,
    SentryRun,
    Shoot,
    action_from_json,
    parse_action,
)


def new(dice: list[int] | tuple[int, ...] = (), **options: object) -> SentryRun:
    game = RULESET.create(options, ScriptedDice(dice))
    assert isinstance(game, SentryRun)
    game.take_events()
    return game


def lanes(game: Game, runner: str, sentry: str) -> None:
    game.apply(RUNNER, Lane(runner))
    game.apply(SENTRY, Lane(sentry))


def at(game: SentryRun, position: float) -> None:
    """Bring the runner to ``position`` (at most 8" past the start, short of the mark) in round 1, unseen."""
    lanes(game, "left", "right")
    game.apply(RUNNER, Dash(position))
    assert game.state.position == position and game.state.round == 2


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def refused(game: Game, seat: str, action: object, rule: str | None = None) -> IllegalAction:
    """``action`` by ``seat`` raises IllegalAction and changes nothing."""
    digest, owed, view = game.digest(), [d.id for d in game.pending()], game.view(seat)
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    if rule is not None:
        assert info.value.rule == rule
    assert game.digest() == digest
    assert [d.id for d in game.pending()] == owed
    assert game.view(seat) == view
    return info.value


# ---------------------------------------------------------------------- the secret choice
def test_a_round_opens_with_two_secret_lane_choices() -> None:
    game = new()
    pending = game.pending()
    assert [(d.id, d.seat, d.secret_group) for d in pending] == [
        ("lane Runner 1", RUNNER, "lanes 1"),
        ("lane Sentry 1", SENTRY, "lanes 1"),
    ]
    assert [list(space.candidates()) for space in game.legal_actions(RUNNER)] == [[Lane("left"), Lane("right")]]


def test_secret_choice_is_hidden_until_both_chose() -> None:
    game = new()
    events = game.apply(RUNNER, Lane("left"))
    sealed, chosen = events
    assert sealed.kind == "sealed" and sealed.to == frozenset({RUNNER}) and sealed.data["action"] == "lane left"
    assert chosen.kind == "chosen" and chosen.to is None and "action" not in chosen.data
    assert "revealed" not in kinds(events)
    # only the runner sees his lane; the sentry and a spectator see that he chose
    assert game.view(RUNNER)["sealed"] == {"lanes 1": {"lane Runner 1": {"seat": RUNNER, "action": "lane left"}}}
    for seat in (SENTRY, None):
        assert game.view(seat)["sealed"] == {"lanes 1": {"lane Runner 1": {"seat": RUNNER, "action": "chosen"}}}
        assert "left" not in json.dumps(game.view(seat))
        assert [e.to_json() for e in events if e.visible_to(seat)] == [chosen.to_json()]
    assert game.state.lanes == {}
    assert [d.id for d in game.pending()] == ["lane Sentry 1"]
    # the sentry's picture is the same whichever lane the runner sealed
    other = new()
    other_events = other.apply(RUNNER, Lane("right"))
    for seat in (SENTRY, None):
        assert other.view(seat) == game.view(seat)
        assert [e.to_json() for e in other_events if e.visible_to(seat)] == [
            e.to_json() for e in events if e.visible_to(seat)
        ]
    assert other.digest() != game.digest()  # the full state does hold the secret

    events = game.apply(SENTRY, Lane("right"))
    assert kinds(events) == ["sealed", "chosen", "revealed", "lanes"]
    revealed = events[2]
    assert revealed.to is None
    assert revealed.data["choices"] == {
        "lane Runner 1": {"seat": RUNNER, "action": "lane left"},
        "lane Sentry 1": {"seat": SENTRY, "action": "lane right"},
    }
    assert game.state.lanes == {RUNNER: "left", SENTRY: "right"}
    assert game.view(SENTRY)["sealed"] == {} and game.view(SENTRY)["lanes"] == {RUNNER: "left", SENTRY: "right"}
    assert [d.id for d in game.pending()] == ["dash 1"]


@pytest.mark.parametrize(("runner", "sentry"), [("left", "left"), ("left", "right"), ("right", "left")])
def test_secret_choices_applied_in_either_order_give_the_same_game(runner: str, sentry: str) -> None:
    first, second = new(), new()
    first.apply(RUNNER, Lane(runner))
    a = first.apply(SENTRY, Lane(sentry))
    second.apply(SENTRY, Lane(sentry))
    b = second.apply(RUNNER, Lane(runner))
    assert first.digest() == second.digest()
    assert first.state_json() == second.state_json()
    assert [e.to_json() for e in a if e.kind in ("revealed", "lanes")] == [
        e.to_json() for e in b if e.kind in ("revealed", "lanes")
    ]
    for seat in (RUNNER, SENTRY, None):
        assert first.view(seat) == second.view(seat)


def test_a_seat_cannot_choose_twice_or_off_the_menu() -> None:
    game = new()
    refused(game, RUNNER, Lane("middle"), "toy.lane")
    game.apply(RUNNER, Lane("left"))
    error = refused(game, RUNNER, Lane("right"))
    assert "owes no decision" in str(error)
    refused(game, SENTRY, Dash(3), None)  # not owed yet: lanes first


# ---------------------------------------------------------------------- the continuous dash
@pytest.mark.parametrize(
    ("inches", "travelled"), [(0, 0.0), (8, 8.0), (8.0, 8.0), (7.999, 8.0), (8.01, 8.0), (3.14159, 3.14), (-0.004, 0.0)]
)
def test_dash_up_to_8_inches_within_the_tolerance(inches: float, travelled: float) -> None:
    game = new()
    lanes(game, "left", "right")
    assert game.legal_actions(RUNNER)[0].contains(Dash(inches))
    events = game.apply(RUNNER, Dash(inches))
    assert game.state.position == travelled
    assert events[0].kind == "dash" and events[0].data["end"] == travelled


@pytest.mark.parametrize("inches", [8.05, 8.02, 9, -0.5, math.nan, math.inf])
def test_dash_beyond_8_inches_or_backwards_is_refused(inches: float) -> None:
    game = new()
    lanes(game, "left", "right")
    error = refused(game, RUNNER, Dash(inches), "toy.dash")
    if inches == 8.05:
        assert "at most 8 inches, not 8.05" in str(error)


def test_the_dash_is_owed_by_the_runner_alone() -> None:
    game = new()
    lanes(game, "left", "left")
    error = refused(game, SENTRY, Dash(3))
    assert "owed by Runner, not Sentry" in str(error)
    refused(game, RUNNER, Shoot())


# ---------------------------------------------------------------------- the interruption
def test_interruption_stops_the_dash_exactly_at_the_mark() -> None:
    game = new()
    at(game, 8)
    lanes(game, "right", "right")
    events = game.apply(RUNNER, Dash(5))
    assert kinds(events) == ["dash", "spotted"]
    assert events[0].data == {"start": 8.0, "end": MARK, "interrupted": True}
    assert game.state.position == MARK and game.state.rest == 3.0 and game.state.phase == "shot"
    [decision] = game.pending()
    assert (decision.id, decision.seat) == ("shot 2", SENTRY)
    assert decision.space.candidates() == [Shoot(), Hold()]
    assert game.legal_actions(RUNNER) == ()
    refused(game, RUNNER, Dash(1))
    refused(game, RUNNER, Hold(), None)  # the sentry's answer, not the runner's
    assert game.view(RUNNER)["position"] == MARK


def test_a_dash_ending_at_the_mark_is_interrupted_and_passes_on_with_nothing_left() -> None:
    game = new()
    at(game, 8)
    lanes(game, "left", "left")
    game.apply(RUNNER, Dash(2))
    assert game.state.phase == "shot" and game.state.rest == 0.0
    events = game.apply(SENTRY, Hold())
    assert kinds(events) == ["held", "dash", "round"]
    assert game.state.position == MARK and game.state.round == 3
    # standing at the mark, the runner has passed it: no second interruption
    lanes(game, "left", "left")
    game.apply(RUNNER, Dash(4))
    assert game.state.position == 14.0 and game.state.phase == "lanes"


@pytest.mark.parametrize(("inches", "interrupted"), [(1.98, False), (1.99, True), (1.995, True), (2.5, True)])
def test_reaching_the_mark_is_decided_by_the_tolerance(inches: float, interrupted: bool) -> None:
    game = new()
    at(game, 8)
    lanes(game, "left", "left")
    game.apply(RUNNER, Dash(inches))
    assert (game.state.phase == "shot") is interrupted
    if interrupted:
        assert game.state.position == MARK
    else:
        assert game.state.position == 9.98


def test_no_interruption_when_the_sentry_watches_the_other_lane() -> None:
    game = new()
    at(game, 8)
    lanes(game, "left", "right")
    events = game.apply(RUNNER, Dash(8))
    assert "spotted" not in kinds(events)
    assert game.state.position == 16.0 and game.state.round == 3


@pytest.mark.parametrize(("die", "hit"), [(1, False), (3, False), (4, True), (6, True)])
def test_the_shot_hits_on_4_or_more(die: int, hit: bool) -> None:
    dice = ScriptedDice([die])
    game = RULESET.create({}, dice)
    game.take_events()
    assert isinstance(game, SentryRun)
    at(game, 7)
    lanes(game, "left", "left")
    game.apply(RUNNER, Dash(6))  # 7 -> 13, stops at 10 with 3 to run
    events = game.apply(SENTRY, Shoot())
    assert events[0].to_json() == {"kind": "dice", "purpose": "sentry shoots (4+ hits)", "sides": 6, "values": [die]}
    assert dice.remaining == 0
    if hit:
        assert game.result is not None
        assert (game.result.outcome, game.result.winner, game.result.turn) == ("win", "sentry", 2)
        assert game.state.position == MARK
        assert game.pending() == ()
        assert kinds(events)[-1] == "game_over"
    else:
        assert game.result is None
        assert game.state.position == 13.0 and game.state.round == 3
        assert kinds(events) == ["dice", "shot", "dash", "round"]


def test_the_shot_mechanic_is_one_object_for_play_and_odds() -> None:
    game = new()
    assert game.shot.distribution().probability(True) == pytest.approx(0.5)
    assert new(hit_on=6).shot.distribution().probability(True) == pytest.approx(1 / 6)


def test_hit_on_is_an_option() -> None:
    game = new([5], hit_on=6)
    at(game, 8)
    lanes(game, "right", "right")
    game.apply(RUNNER, Dash(8))
    game.apply(SENTRY, Shoot())
    assert game.result is None and game.state.position == 16.0


def test_holding_rolls_no_dice_and_the_runner_runs_on() -> None:
    game = new([])  # any roll would run the script dry
    at(game, 6)
    lanes(game, "left", "left")
    game.apply(RUNNER, Dash(8))
    events = game.apply(SENTRY, Hold())
    assert "dice" not in kinds(events)
    assert game.state.position == 14.0


def test_dice_running_out_inside_the_interruption_changes_nothing() -> None:
    game = new([])
    at(game, 6)
    lanes(game, "left", "left")
    game.apply(RUNNER, Dash(8))
    digest, view = game.digest(), game.view(None)
    with pytest.raises(DiceError, match="sentry shoots"):
        game.apply(SENTRY, Shoot())
    assert game.digest() == digest and game.view(None) == view
    assert game.take_events() == []
    assert [d.id for d in game.pending()] == ["shot 2"]
    game.dice = ScriptedDice([2])
    game.apply(SENTRY, Shoot())
    assert game.state.position == 14.0


# ---------------------------------------------------------------------- the end
def test_reaching_20_inches_wins_for_the_runner() -> None:
    game = new()
    for _ in range(2):
        lanes(game, "left", "right")
        game.apply(RUNNER, Dash(8))
    lanes(game, "left", "right")
    events = game.apply(RUNNER, Dash(8))
    assert game.state.position == 20.0
    assert game.result is not None and (game.result.outcome, game.result.winner, game.result.turn) == (
        "win",
        "runner",
        3,
    )
    assert events[-1].kind == "game_over"
    assert game.pending() == () and game.is_over
    error = refused(game, RUNNER, Lane("left"))
    assert "game is over" in str(error)


def test_the_round_cap_ends_the_game_unfinished() -> None:
    game = new(round_cap=2)
    for _ in range(2):
        lanes(game, "left", "right")
        game.apply(RUNNER, Dash(1))
    assert game.result is not None
    assert (game.result.outcome, game.result.winner, game.result.turn) == ("unfinished", None, 2)
    assert new().state.round_cap == 8


def test_options_are_checked() -> None:
    assert RULESET.resolve({}) == {"round_cap": 8, "hit_on": 4}
    assert RULESET.resolve({"round_cap": "3"}) == {"round_cap": 3, "hit_on": 4}
    with pytest.raises(OptionError, match="round_cap"):
        RULESET.create({"round_cap": 0}, ScriptedDice([]))
    with pytest.raises(OptionError, match="hit_on"):
        RULESET.create({"hit_on": "seven"}, ScriptedDice([]))
    with pytest.raises(OptionError, match="unknown option 'lanes'"):
        RULESET.create({"lanes": 3}, ScriptedDice([]))


# ---------------------------------------------------------------------- actions
@pytest.mark.parametrize(
    "action",
    [Lane("left"), Lane("right"), Dash(0.0), Dash(8.0), Dash(7.5), Dash(3.14), Dash(0.1 + 0.2), Shoot(), Hold()],
)
def test_actions_round_trip_as_text_and_json(action: object) -> None:
    assert parse_action(str(action)) == action
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action  # type: ignore[attr-defined]


def test_action_text() -> None:
    assert str(Dash(8.0)) == "dash 8" and str(Dash(7.25)) == "dash 7.25"
    assert parse_action("  DASH   2 ") == Dash(2.0)
    for bad in ["", "run 3", "dash", "dash far", "dash inf", "dash nan", "shoot now", "lane"]:
        with pytest.raises(ParseError):
            parse_action(bad)
    with pytest.raises(ParseError):
        action_from_json({"type": "jump"})
    with pytest.raises(ParseError):
        action_from_json({"type": "dash"})


# ---------------------------------------------------------------------- the conformance suite
def toy_probes(game: Game, decision: Decision) -> list[object]:
    """Illegal actions only the toy knows: off-menu lanes, dashes beyond 8" or backwards, answers out of turn."""
    return [Lane("middle"), Dash(8.05), Dash(-1.0), Dash(math.nan), Shoot() if decision.seat == RUNNER else Dash(1)]


def test_conformance_suite_on_the_toy() -> None:
    counts = check_all(RULESET, {}, seeds=(1, 2, 3, 4, 5, 6), probes=toy_probes)
    assert counts["games"] == 6
    assert counts["steps"] > 6 * 3
    assert counts["illegal_tried"] > 0
    assert counts["secret_commits"] >= 12  # two per round, at least one round a game
    assert counts["secrets_checked"] > 0


def test_conformance_suite_on_the_toy_with_options() -> None:
    counts = check_all(RULESET, {"round_cap": 2, "hit_on": 2}, seeds=(7, 8, 9), probes=toy_probes)
    assert counts["games"] == 3 and counts["illegal_tried"] > 0 and counts["secrets_checked"] > 0


def test_random_playouts_reach_every_branch() -> None:
    """The conformance seeds exercise the interruption, both answers, and every outcome."""
    seen: set[str] = set()
    for seed in range(1, 41):
        playout = random_playout(RULESET, {}, seed)
        for decision, action in playout.steps:
            if decision.id.startswith("shot"):
                seen.add(str(action))
        result = playout.game.result
        assert result is not None
        seen.add(f"{result.outcome} {result.winner}")
    assert {"shoot", "hold", "win runner", "win sentry", "unfinished None"} <= seen
