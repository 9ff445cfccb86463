"""Omaha's one-game engine, lean per decision (issue 33, item 2): a bot's order on the fast path hands ``pending``
the rest of the phase as it stands (no decision worked out again), and the phase so handed on is the one the
rules owe (the same as a copy works out afresh); a mechanic counts its successes of any whole number type."""

from __future__ import annotations

from typing import Any

import numpy as np

from grognard.core.dice import (
    BOTS,
    DICE,
    AnySuccess,
    ScriptedDice,
    SeededDice,
    SuccessCount,
    game_dice_generator,
    stream,
)
from grognard.core.engine import Game
from grognard.rulesets import get


def _to_the_americans(seed: int) -> tuple[Game, Any]:
    ruleset = get("omaha")
    game = ruleset.create({}, SeededDice(stream(seed, 0, DICE))).unobserved()
    bot = ruleset.bots["doctrine"](np.random.default_rng(stream(seed, 0, BOTS)))
    while not game.pending()[0].id.startswith("orders"):
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    return game, bot


def test_a_bots_order_hands_pending_the_rest_of_the_phase_as_it_stands() -> None:
    for seed in (3, 4):
        game, bot = _to_the_americans(seed)
        owed = game.pending()
        assert len(owed) > 2
        decision = owed[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
        # the engine holds the rest of the phase, the very decisions owed before (nothing rebuilt or searched)
        assert game._pending is not None
        assert all(a is b for a, b in zip(game._pending, owed[1:], strict=True))
        fresh = game.clone()  # a copy remembers no decisions: it works them out from the state
        assert [d.id for d in fresh.pending()] == [d.id for d in game.pending()]


def test_a_phase_played_through_on_the_fast_path_owes_what_a_copy_works_out() -> None:
    game, bot = _to_the_americans(5)
    for _ in range(60):  # through the Americans' phase, the Germans' and into the next turn
        fresh = game.clone()
        assert [(d.id, d.seat) for d in game.pending()] == [(d.id, d.seat) for d in fresh.pending()]
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)


def test_a_mechanic_counts_successes_of_any_whole_number_type() -> None:
    values = [np.int64(6), 5, np.int8(4), 6, True]  # a source may hand numpy's integers
    assert SuccessCount(dice=5, target=5).roll(ScriptedDice([int(v) for v in values]), "test") == 3
    assert SuccessCount(dice=5, target=5).roll(_Fixed(values), "test") == 3
    assert AnySuccess(dice=2, target=6).roll(_Fixed([np.int64(6), 1]), "test") is True
    assert AnySuccess(dice=2, target=6).roll(_Fixed([np.int64(5), 1]), "test") is False


class _Fixed:
    """A dice source handing the values given, whatever their type (a source's own, not ScriptedDice's check)."""

    def __init__(self, values: list[object]) -> None:
        self.values = values

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[object]:
        return self.values[:n]


def test_one_seed_sequence_makes_a_games_dice_as_two_do() -> None:
    """The batch path's dice of game ``i`` (issue 33, item 5): one ``SeedSequence`` a game, the same dice as
    ``SeededDice(stream(seed, i, DICE))`` draws."""
    for seed, index in ((1, 0), (1, 19_999), (7, 3), (0, 0), (2**40, 9)):
        made = game_dice_generator(seed, index, 6).integers(1, 7, size=64)
        assert made.tolist() == SeededDice(stream(seed, index, DICE)).roll(64)


def test_the_batch_keeps_the_moves_it_remembers_in_key_order() -> None:
    """Moves found fresh are merged into those remembered (``geometry.REACHED``) by position: the keys stay sorted,
    each once, and a batch played again from them plays the same games."""
    from grognard.rulesets.omaha.batch import geometry, play_batch

    options = get("omaha").resolve({"germans": 2})
    doctrine = {"american": "doctrine", "german": "doctrine"}
    geometry.REACHED.clear()
    first = play_batch(options, doctrine, 3, 0, 24)
    (known, kept_x, kept_y), *_ = geometry.REACHED.values()
    assert len(known) > 50 and (np.diff(known) > 0).all() and len(kept_x) == len(kept_y) == len(known)
    assert play_batch(options, doctrine, 3, 0, 24) == first
