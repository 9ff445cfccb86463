"""The turn (skirmish.10, 20; RULINGS S0): its start (ladders, the train, paratroops, initiative) and its
end (victory: a side broken, objectives held, the turn limit).

Plain functions of the game's :class:`~.context.Context`. A turn: a d6 each for initiative (ties roll
again; a scenario may fix the first mover); the winner's units move, then the other side's; then all
fire at once (``fire``, ``artillery``); then melee (``melee``). Victory is checked at the end of each
turn. The game's step machine (``game.SkirmishGame``) runs the phases in this order.
"""

from __future__ import annotations

from typing import Any

import shapely
from shapely.geometry import Polygon

from grognard.core.engine import Result
from grognard.rulesets.skirmish import castles as CA
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish import drops as DP
from grognard.rulesets.skirmish import mechanics as MX
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.men import SIDES, other


def begin_turn(ctx: Context) -> None:
    s = ctx.state
    s.turn += 1
    for f in s.figures.values():
        f.hits = 0
    for bridge in s.bridges.values():
        bridge.crossed, bridge.builders = {}, 0
    s.walked = {}
    ctx.emit("turn", turn=s.turn)
    CA.ladders_up(ctx)
    DV.run_train(ctx)
    DP.drop_paratroops(ctx)
    first = ctx.scenario.spec.first_mover
    if first == "initiative":
        first, a, b, ties = MX.INITIATIVE.roll(ctx, "initiative: allies, axis (the higher moves first)")
        ctx.emit("initiative", allies=a, axis=b, first=first, ties=ties)
    else:
        ctx.emit("initiative", first=first, fixed=True)
    s.order = (first, other(first))
    s.phase, s.done = f"move:{first}", set()
    ctx.shot_cache = None


def end_turn(ctx: Context) -> None:
    s = ctx.state
    spec = ctx.scenario.spec
    total = {side: sum(1 for f in s.figures.values() if f.side == side) for side in SIDES}
    alive = {side: sum(1 for f in s.figures.values() if f.side == side and f.alive) for side in SIDES}
    broken = []
    for side_spec in spec.sides:
        side = side_spec.id
        lost = total[side] - alive[side]
        if alive[side] == 0 or (total[side] and lost / total[side] >= side_spec.breaks_at - 1e-9):
            broken.append(side)
    if len(broken) == 2:
        finish(ctx, Result("draw", None, s.turn, "both sides broke in the same turn", scores(ctx)))
        return
    if broken:
        side = broken[0]
        why = "has no men left" if alive[side] == 0 else f"lost {total[side] - alive[side]} of {total[side]} men"
        finish(ctx, Result("win", other(side), s.turn, f"{side} {why}", scores(ctx)))
        return
    attacker = spec.victory.attacker
    if spec.victory.objectives and all(holds(ctx, attacker, o) for o in spec.victory.objectives):
        finish(
            ctx, Result("win", attacker, s.turn, f"{attacker} hold {', '.join(spec.victory.objectives)}", scores(ctx))
        )
        return
    if s.turn >= s.stats["turn_limit"]:
        at_limit = spec.victory.at_limit
        reason = f"the turn limit ({s.stats['turn_limit']}) is reached"
        if at_limit == "defender":
            finish(ctx, Result("win", other(attacker), s.turn, reason, scores(ctx)))
        elif at_limit == "draw":
            finish(ctx, Result("draw", None, s.turn, reason, scores(ctx)))
        else:
            finish(ctx, Result("unfinished", None, s.turn, reason, scores(ctx)))


def holds(ctx: Context, side: str, objective: str) -> bool:
    """``side`` has a living man inside the objective and the enemy has none (skirmish.20)."""
    shapes: dict[str, Polygon] = ctx.bot_cache.setdefault("objective shapes", {})  # the scenario's, made once
    shape = shapes.get(objective)
    if shape is None:
        spec = next(o for o in ctx.scenario.spec.objectives if o.id == objective)
        shape = shapes[objective] = Polygon(spec.shape)
    men = [f for f in ctx.state.figures.values() if f.alive and f.on_table]
    # covers(Point(x, y)): a point is covered exactly when it meets the shape (terrain._covers), for all at once
    inside = shapely.intersects_xy(shape, [f.x for f in men], [f.y for f in men]).tolist() if men else []
    ours = any(f.side == side for f, there in zip(men, inside, strict=True) if there)
    theirs = any(f.side != side for f, there in zip(men, inside, strict=True) if there)
    return ours and not theirs


def scores(ctx: Context) -> dict[str, Any]:
    s = ctx.state
    return {
        "allies_lost": s.stats["losses"]["allies"],
        "axis_lost": s.stats["losses"]["axis"],
        "allies_left": sum(1 for f in s.figures.values() if f.side == "allies" and f.alive),
        "axis_left": sum(1 for f in s.figures.values() if f.side == "axis" and f.alive),
    }


def finish(ctx: Context, result: Result) -> None:
    ctx.state.outcome = result
    ctx.state.phase = "over"
    ctx.emit("game_over", **result.to_json())
