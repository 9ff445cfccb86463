"""A skirmish position's score for the search bot's truncated playouts (no rule of the seed: a heuristic).

A skirmish turn is many decisions of a slow engine, so the search bot's
playouts stop after a few decisions and are scored here: men lost and flesh
wounds on each side so far (``state.stats``), the objectives each side holds
now (``turn.holds``, the test of the scenario's victory), and the attacker's
progress: how near its living men on the table stand to the nearest objective
it must take, on average (``PROGRESS`` men's worth an inch, so a playout cut at
the end of the turn does not score holding back as safe and therefore good), and
likewise the defender's counter-attack on its way to it (``counter_distance``),
as a logistic of their balance. Not calibrated as a probability: it only ranks
positions.
"""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import Point, Polygon

from grognard.rulesets.skirmish import turn as TU

WOUND = 0.3  # a flesh wound, in men lost
OBJECTIVE = 1.5  # an objective held, in men lost
PROGRESS = 0.1  # an inch nearer the objective for the attacker's men on average, in men lost
SCALE = 2.0  # the balance (in men) that makes a score of about 0.73


def evaluate(game: Any, side: str) -> float:
    """A score in (0, 1) for ``side`` ("allies" or "axis"): 0.5 even, above it ahead in men and objectives."""
    other = "axis" if side == "allies" else "allies"
    stats = game.state.stats
    balance = stats["losses"][other] - stats["losses"][side]
    balance += WOUND * (stats["wounds"][other] - stats["wounds"][side])
    for objective in game.ctx.scenario.spec.objectives:
        balance += OBJECTIVE * (TU.holds(game.ctx, side, objective.id) - TU.holds(game.ctx, other, objective.id))
    attacker = game.ctx.scenario.spec.victory.attacker
    distance = attacker_distance(game)
    if distance is not None:
        balance += PROGRESS * (-distance if side == attacker else distance)
    counter = counter_distance(game)
    if counter is not None:  # the defender's counter-attack on its way gains as the attacker does
        balance += PROGRESS * (counter if side == attacker else -counter)
    return 1.0 / (1.0 + math.exp(-balance / SCALE))


def counter_distance(game: Any) -> float | None:
    """The mean distance in inches from the men of the defender's counter-attack on its way (units that come
    on after the start, on the table or not yet, whose leader stands more than ``bots.HOME`` from it: the
    book's clause "counter-attack") to the nearest objective of the scenario's victory; None when none."""
    from grognard.rulesets.skirmish.bots import HOME

    spec = game.ctx.scenario.spec
    shapes = [Polygon(o.shape) for o in spec.objectives if o.id in spec.victory.objectives]
    if not shapes:
        return None
    far: list[float] = []
    for unit in game.state.units.values():
        if unit.side == spec.victory.attacker or unit.enters < 1:
            continue
        men = [game.state.figures[f] for f in unit.figures if game.state.figures[f].alive]
        gaps = [min(shape.distance(Point(f.x, f.y)) for shape in shapes) for f in men]
        if gaps and gaps[0] > HOME:
            far += gaps
    return sum(far) / len(far) if far else None


def attacker_distance(game: Any) -> float | None:
    """The mean distance in inches from the attacker's living men on the table to the nearest objective of the
    scenario's victory (0 inside it); None when there is no such objective or no such man."""
    spec = game.ctx.scenario.spec
    shapes = [Polygon(o.shape) for o in spec.objectives if o.id in spec.victory.objectives]
    men = [f for f in game.state.figures.values() if f.side == spec.victory.attacker and f.alive and f.on_table]
    if not shapes or not men:
        return None
    return float(sum(min(shape.distance(Point(f.x, f.y)) for shape in shapes) for f in men)) / len(men)
