"""A skirmish side's plans (``grognard.core.plans``): the scenario file's ``[[plans]]``, checked, and what the
doctrine bot reads of the plan it follows (docs/rules/skirmish.md, "The plans").

A plan gives groups of its side's units a task: ``hold`` (the defender's clause: hold where most of the unit
has cover from the nearest enemy, else go to the nearest cover), ``objective`` (the attacker's clause: cover to
cover to the nearest objective of the victory; a defender's unit so tasked counter-attacks) or ``enemy`` (cover
to cover to the nearest enemy); with a ``flank`` (``west`` or ``east``) the unit first makes for a point a
quarter of the table's width to that side of its aim, and turns on the aim once it is no farther from it than
that point. Units a plan does not name, and every other clause (fire, melee, vehicles, guns, buildings), play
the book.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from grognard.core.plans import Plan
from grognard.rulesets.skirmish.schema import PlanGroup, ScenarioSpec

XY = tuple[float, float]
FLANK_SHARE = 0.25  # of the table's width: how far to a side of its aim a flanking unit swings
MARGIN = 2.0  # inches a flank point keeps from the table's edge


def check_plans(spec: ScenarioSpec) -> Iterable[str]:
    """The plans' problems a field check cannot see: their sides, their units, their names."""
    sides = [s.id for s in spec.sides]
    units = {u.id: u.side for u in spec.units}
    seen: set[str] = set()
    for i, plan in enumerate(spec.plans):
        if plan.side not in sides:
            yield f"plans[{i}].side: {plan.side!r}: not a side of this scenario ({', '.join(sides)})"
        if plan.name in seen:
            yield f"plans[{i}].name: {plan.name!r}: two plans of this scenario have this name"
        seen.add(plan.name)
        named: set[str] = set()
        for j, group in enumerate(plan.groups):
            for unit in group.units:
                where = f"plans[{i}].groups[{j}].units: {unit!r}"
                if unit not in units:
                    yield f"{where}: no unit has this id"
                elif units[unit] != plan.side:
                    yield f"{where}: a unit of the {units[unit]} side, not the plan's ({plan.side})"
                elif unit in named:
                    yield f"{where}: given two tasks in this plan"
                named.add(unit)
    for side in sides:
        count = sum(1 for p in spec.plans if p.side == side)
        if count == 1:
            yield f"plans: the {side} side has one plan; a side has none or at least two (the bot draws one)"


def side_plans(spec: ScenarioSpec) -> dict[str, tuple[Plan, ...]]:
    """The scenario's plans as ``grognard.core.plans.Plan`` (their ``priorities``: ``{"groups": [...]}``)."""
    out: dict[str, list[Plan]] = {}
    for plan in spec.plans:
        groups = [g.model_dump() for g in plan.groups]
        made = Plan(plan.name, plan.side, plan.description, tuple(plan.clauses), {"groups": groups})
        out.setdefault(plan.side, []).append(made)
    return {side: tuple(plans) for side, plans in out.items()}


def task_of(plan: Plan | None, unit: str) -> PlanGroup | None:
    """The task ``plan`` gives ``unit`` (None: the book's)."""
    if plan is None:
        return None
    for group in plan.priorities.get("groups", ()):
        if unit in group["units"]:
            return PlanGroup.model_validate(group)
    return None


def flank_aim(spec: ScenarioSpec, here: XY, aim: XY, flank: str | None) -> XY:
    """Where a unit at ``here`` heads for ``aim`` by way of its ``flank``: the flank point while it is farther
    from the aim than that point is, then the aim itself."""
    if flank is None:
        return aim
    swing = FLANK_SHARE * spec.table.width * (-1.0 if flank == "west" else 1.0)
    point = (min(max(aim[0] + swing, MARGIN), spec.table.width - MARGIN), aim[1])
    return point if math.dist(here, aim) > math.dist(point, aim) + MARGIN else aim
