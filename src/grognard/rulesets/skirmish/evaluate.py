"""A skirmish position's score for the search bot's truncated playouts (no rule of the seed: a heuristic).

A skirmish turn is many decisions of a slow engine, so the search bot's
playouts stop after a few decisions and are scored here: men lost and flesh
wounds on each side so far (``state.stats``) and the objectives each side holds
now (``turn.holds``, the test of the scenario's victory), as a logistic of
their balance. Not calibrated as a probability: it only ranks positions.
"""

from __future__ import annotations

import math
from typing import Any

from grognard.rulesets.skirmish import turn as TU

WOUND = 0.3  # a flesh wound, in men lost
OBJECTIVE = 1.5  # an objective held, in men lost
SCALE = 2.0  # the balance (in men) that makes a score of about 0.73


def evaluate(game: Any, side: str) -> float:
    """A score in (0, 1) for ``side`` ("allies" or "axis"): 0.5 even, above it ahead in men and objectives."""
    other = "axis" if side == "allies" else "allies"
    stats = game.state.stats
    balance = stats["losses"][other] - stats["losses"][side]
    balance += WOUND * (stats["wounds"][other] - stats["wounds"][side])
    for objective in game.ctx.scenario.spec.objectives:
        balance += OBJECTIVE * (TU.holds(game.ctx, side, objective.id) - TU.holds(game.ctx, other, objective.id))
    return 1.0 / (1.0 + math.exp(-balance / SCALE))
