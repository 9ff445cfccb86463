"""A bot that picks a legal action at random: the baseline, and the conformance suite's player."""

from __future__ import annotations

from typing import Any

import numpy as np

from grognard.core.engine import Decision, Game
from grognard.core.reasons import Reason


class RandomBot:
    """Samples each decision's action space with its own generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, game: Game, decision: Decision) -> Any:
        return decision.space.sample(self.rng)

    def explain(self, game: Game, decision: Decision, action: Any) -> Reason:
        """Why ``action``: none but chance (the rule set's clause ``RULESET.random``)."""
        return Reason(f"{game.ruleset}.random", f"{action}: drawn at random among the legal orders")
