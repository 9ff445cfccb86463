"""The skirmish games the speed tests replay: a shipped scenario's game ``index`` of seed 33, nothing observed."""

from __future__ import annotations

from grognard.core.dice import DICE, SeededDice, stream
from grognard.rulesets import get
from grognard.rulesets.skirmish.game import SkirmishGame


def game_of(scenario: str, index: int) -> SkirmishGame:
    """A new game of ``scenario`` on the dice of game ``index`` of seed 33, its events not built (as a Monte Carlo
    game's)."""
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": scenario}), SeededDice(stream(33, index, DICE)))
    assert isinstance(game, SkirmishGame)
    return game.unobserved()
