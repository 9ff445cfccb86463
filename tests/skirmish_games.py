"""The skirmish games the speed tests replay: a shipped scenario's game ``index`` of seed 33, nothing observed."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.rulesets import get
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.state import Figure


def game_of(scenario: str, index: int) -> SkirmishGame:
    """A new game of ``scenario`` on the dice of game ``index`` of seed 33, its events not built (as a Monte Carlo
    game's)."""
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": scenario}), SeededDice(stream(33, index, DICE)))
    assert isinstance(game, SkirmishGame)
    return game.unobserved()


def mg_gunners(scenario: str, count: int = 6) -> Iterator[tuple[Context, Figure]]:
    """The MG gunners of the fire decisions of doctrine games 1, 2, ... of ``scenario`` (dice and bots of seed 33),
    each with its game's context, as the decision comes (the state standing as it is then); every gunner of a
    decision, until ``count`` are given. The book's bot answers each decision after its gunners."""
    games = (game_of(scenario, index) for index in range(1, 6))
    bots = (DoctrineBot(np.random.default_rng(stream(33, index, BOTS))) for index in range(1, 6))
    game, bot = next(games), next(bots)
    given = 0
    while given < count:
        if game.result is not None:
            game, bot = next(games), next(bots)
        decision = game.pending()[0]
        if isinstance(decision.space, FI.FireSpace):
            for gunner in FI.FireSpace(game.ctx, decision.space.unit).gunners():
                yield game.ctx, gunner
                given += 1
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
