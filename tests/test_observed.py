"""Events only when observed, and the bots' fast path (issue 33, item 1).

A game nobody reads (Monte Carlo, a search playout, a PettingZoo rollout) builds no events and plays exactly the
game a recorded one plays; the fast path a bot's action takes skips what a person's action needs but still
refuses, the state untouched, an action its decision does not take.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.engine import Game
from grognard.core.errors import IllegalAction
from grognard.core.record import RecordWriter, make_header
from grognard.rulesets import get
from grognard.rulesets.omaha.actions import Move
from grognard.testing.conformance import check_unobserved

CASES = [  # short games (turn caps): the record written of the observed one takes a digest a step
    ("omaha", {"turn_cap": 6}),
    ("omaha", {"hidden_obstacles": True, "deep_water": True, "turn_cap": 5}),
    ("b17", {"turn_cap": 6}),
    ("b17", {"enlarged": True, "bomber_length": 4.0, "bomber_span": 9.5, "fighter_scale": 3.0, "turn_cap": 4}),
    ("skirmish", {"scenario": "village_street", "turn_limit": 2}),
]
IDS = ["omaha", "omaha-options", "b17", "b17-largest-models-enlarged", "skirmish-village-street"]


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_each_rule_set_plays_the_same_game_unobserved_as_recorded(name: str, options: dict[str, Any]) -> None:
    ruleset = get(name)
    for seed in (5, 6) if name == "omaha" else (5,):
        assert check_unobserved(ruleset, options, seed) > 10


def test_a_first_b17_box_is_placed_where_the_second_still_has_a_place() -> None:
    """Found by the fast path's check: with the largest models, enlarged, the doctrine placed box 1 a lane off
    its own (its menu's +6") and box 2 had no legal place left; its menu offered an illegal one, played as is."""
    ruleset = get("b17")
    options = dict(CASES[3][1])
    for seed in range(4):
        game = ruleset.create(options, SeededDice(seed))
        first = game.pending()[0]
        for box in first.space.candidates(8):
            trial = game.clone()
            trial.apply(first.seat, box, checked=False, decision=trial.pending()[0])
            second = trial.pending()[0]
            assert second.id == "place box 2"
            assert second.space.contains(second.space.candidates(1)[0]), f"after {box}"


def _doctrine_game(name: str, options: dict[str, Any], seed: int) -> tuple[Game, dict[str, Any]]:
    ruleset = get(name)
    game = ruleset.create(options, SeededDice(stream(seed, 0, DICE)))
    rng = np.random.default_rng(stream(seed, 0, BOTS))
    return game, {side: ruleset.bots["doctrine"](rng) for side in ruleset.sides}


def _refused(game: Game, seat: str, bad: Any, decision: Any) -> IllegalAction:
    digest, owed = game.digest(), [d.id for d in game.pending()]
    with pytest.raises(IllegalAction) as refusal:
        game.apply(seat, bad, checked=False, decision=decision)
    assert game.digest() == digest, f"{bad}: the fast path changed the state"
    assert [d.id for d in game.pending()] == owed
    return refusal.value


@pytest.mark.parametrize(("name", "options"), CASES[::2], ids=IDS[::2])
def test_the_fast_path_refuses_an_action_its_decision_does_not_take(name: str, options: dict[str, Any]) -> None:
    """Another decision's action, a stale one, the right one from the wrong seat: refused, nothing changed."""
    game, bots = _doctrine_game(name, options, 3)
    refused = 0
    stale: list[Any] = []
    for _ in range(400):
        if game.result is not None or refused >= 12:
            break
        pending = game.pending()
        decision = pending[0]
        action = bots[game.side_of(decision.seat)].choose(game, decision)
        wrong = [d.space.candidates(1)[0] for d in pending[1:3] if d.id != decision.id] + stale[-2:]
        for bad in wrong:
            if not decision.space.contains(bad):
                _refused(game, decision.seat, bad, decision)
                refused += 1
        others = [s for s in game.seats() if s != decision.seat]
        if others:
            error = _refused(game, others[0], action, decision)
            assert f"owed by {decision.seat}" in str(error)
            refused += 1
        game.apply(decision.seat, action, checked=False, decision=decision)
        stale.append(action)
    assert refused >= 12


def test_the_fast_path_refuses_an_omaha_move_past_its_allowance_and_a_decision_not_owed() -> None:
    game, bots = _doctrine_game("omaha", {}, 4)
    while not game.pending()[0].id.startswith("orders"):
        decision = game.pending()[0]
        game.apply(decision.seat, bots["german"].choose(game, decision), checked=False, decision=decision)
    decision = game.pending()[0]
    squad = decision.space.move.squad  # type: ignore[attr-defined]
    error = _refused(game, decision.seat, Move(squad.label, squad.x, squad.y + 20.0), decision)
    assert error.rule == "omaha.14"
    before = game.clone()
    game.apply(decision.seat, bots["american"].choose(game, decision), checked=False, decision=decision)
    answered = before.pending()[0]  # the decision just answered: no longer owed
    error = _refused(game, answered.seat, bots["american"].choose(before, answered), answered)
    assert "is not owed now" in str(error)


def test_an_unobserved_game_cannot_be_recorded_nor_have_a_listener() -> None:
    ruleset = get("omaha")
    game = ruleset.create({}, SeededDice(1)).unobserved()
    writer = RecordWriter(make_header("omaha", ruleset.recorded(ruleset.resolve({})), "seeded", 1), io.StringIO())
    with pytest.raises(ValueError, match="builds no events"):
        writer.start(game, [])
    heard = ruleset.create({}, SeededDice(1))
    heard.listener = print
    with pytest.raises(ValueError, match="has a listener"):
        heard.unobserved()
    assert heard.observed and heard.take_events()
