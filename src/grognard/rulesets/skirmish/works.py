"""The men's works in a move (skirmish.63-65, 86-89): doors opened and closed, wire laid, tank traps set,
bridges built and crossed; each order checked (raising IllegalAction naming the rule) and a bridge's work
carried out. Plain functions of the game's :class:`~.context.Context`, called by ``moving``'s ``check_move``
and ``move``.
"""

from __future__ import annotations

import math

from shapely.geometry import LineString, Point

from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, at_most
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import paths as PA
from grognard.rulesets.skirmish import structures as ST
from grognard.rulesets.skirmish.actions import XY, Move, Order
from grognard.rulesets.skirmish.context import Context


def check_door(ctx: Context, action: Move, order: Order) -> str:
    s = ctx.state
    door = s.doors.get(order.door or "")
    if door is None:
        raise IllegalAction(f"{action}: no door {order.door!r} (doors: {', '.join(s.doors) or 'none'})", "skirmish.65")
    f = s.figures[order.figure]
    opening = ctx.terrain.openings[door.id]
    reach = ctx.tables.sight.opening_reach.value
    if math.hypot(f.x - opening.at[0], f.y - opening.at[1]) > reach + TOLERANCE:
        raise IllegalAction(f'{action}: {f.id} is not within {reach:g}" of door {door.id}', "skirmish.65")
    if door.blown:
        raise IllegalAction(f"{action}: door {door.id} was blown off (skirmish.77): it stays open", "skirmish.77")
    if (order.verb == "open") == door.open:
        raise IllegalAction(f"{action}: door {door.id} is already {'open' if door.open else 'closed'}", "skirmish.65")
    if door.passed == s.turn:
        raise IllegalAction(
            f"{action}: troops passed door {door.id} this turn: it cannot be opened or closed now", "skirmish.65"
        )
    if door.changed == s.turn:
        raise IllegalAction(f"{action}: door {door.id} was already opened or closed this turn", "skirmish.65")
    return door.id


def _reach_check(ctx: Context, action: Move, order: Order, rule: str) -> None:
    """Works go on the table within ``engineering.reach`` of the man: each trap, or the wire's line."""
    f = ctx.state.figures[order.figure]
    reach = ctx.tables.engineering.reach.value
    for x, y in order.points:
        if not ctx.terrain.on_table(x, y):
            raise IllegalAction(f"{action}: ({x:g}, {y:g}) is off the table", rule)
    if order.verb == "wire":
        gap = LineString(order.points).distance(Point(f.x, f.y))
        if gap > reach + TOLERANCE:
            raise IllegalAction(f'{action}: the wire is {gap:.2f}" from {f.id}, more than {reach:g}"', rule)
        return
    for x, y in order.points:
        if math.hypot(x - f.x, y - f.y) > reach + TOLERANCE:
            raise IllegalAction(f'{action}: ({x:g}, {y:g}) is more than {reach:g}" from {f.id}', rule)


def check_wire(ctx: Context, action: Move, order: Order) -> None:
    (x0, y0), (x1, y1) = order.points
    most = ctx.tables.engineering.wire_per_move.value
    length = math.hypot(x1 - x0, y1 - y0)
    if length <= TOLERANCE:
        raise IllegalAction(f"{action}: the wire has no length", "skirmish.64")
    if not at_most(length, most):
        raise IllegalAction(f'{action}: {length:.2f}" of wire; one man lays at most {most:g}" a move', "skirmish.64")
    _reach_check(ctx, action, order, "skirmish.64")


def check_build(ctx: Context, action: Move) -> None:
    """Men at work on a bridge not yet built: within reach of its site, at most 10 a bridge a move (S10)."""
    if not any(o.verb == "build" for o in action.orders):
        return
    s = ctx.state
    sites = ST.bridge_sites(ctx)
    reach = ctx.tables.engineering.reach.value
    most = int(ctx.tables.bridges.most_builders.value)
    work = [o for o in action.orders if o.verb == "build"]
    for name in sorted({o.bridge or "" for o in work}):
        at_work = s.bridges[name].builders if name in s.bridges else 0
        count = sum(1 for o in work if o.bridge == name)
        if at_work + count > most:
            raise IllegalAction(
                f"{action}: at most {most} men work on bridge {name} in a move "
                f"({at_work} already at work this move, {count} more ordered)",
                "skirmish.86",
            )
    for order in work:
        bridge = s.bridges.get(order.bridge or "")
        if bridge is None:
            raise IllegalAction(
                f"{action}: no bridge {order.bridge!r} (bridges: {', '.join(sorted(s.bridges)) or 'none'})",
                "skirmish.86",
            )
        if bridge.built:
            raise IllegalAction(f"{action}: bridge {bridge.id} is already built", "skirmish.86")
        f = s.figures[order.figure]
        gap = sites[bridge.id].deck.distance(Point(f.x, f.y))
        if not f.on_table or gap > reach + TOLERANCE:
            raise IllegalAction(
                f'{action}: {f.id} is {gap:.2f}" from bridge {bridge.id}\'s site, more than {reach:g}"',
                "skirmish.86",
            )


def bridges_used(ctx: Context, path: list[XY]) -> list[str]:
    """The standing bridges a path sets foot on (its line meets the deck)."""
    if len(path) < 2:
        return []
    up = ST.standing(ctx)
    if not up:
        return []
    line = LineString(path)
    sites = ST.bridge_sites(ctx)
    return [bid for bid in sorted(up) if line.intersects(sites[bid].deck)]


def check_crossings(ctx: Context, action: Move, paths: dict[str, tuple[list[XY], PA.PathMeasure]]) -> None:
    """Men abreast: at most abreast x ranks_per_move men of a side cross a bridge in a turn (skirmish.88-89)."""
    if not ST.standing(ctx):
        return  # no bridge stands: none is crossed
    s = ctx.state
    side = M.unit(ctx, action.unit).side
    count: dict[str, int] = {}
    for path, _ in paths.values():
        for bid in bridges_used(ctx, path):
            count[bid] = count.get(bid, 0) + 1
    sites = ST.bridge_sites(ctx)
    for bid, n in sorted(count.items()):
        most = ST.bridge_capacity(ctx, bid)
        done = s.bridges[bid].crossed.get(side, 0)
        if done + n > most:
            rule = "skirmish.89" if sites[bid].type == "foot" else "skirmish.88"
            raise IllegalAction(
                f"{action}: {ST.describe_bridge(ctx, bid)} takes {most} men of a side a turn; "
                f"{done} have crossed, {n} more would make {done + n}",
                rule,
            )


def check_traps(ctx: Context, action: Move, order: Order) -> None:
    (x0, y0), (x1, y1) = order.points
    spacing = ctx.tables.engineering.trap_spacing.value
    gap = math.hypot(x1 - x0, y1 - y0)
    if abs(gap - spacing) > TOLERANCE:
        raise IllegalAction(f'{action}: the two tank traps stand {spacing:g}" apart, not {gap:.2f}"', "skirmish.63")
    _reach_check(ctx, action, order, "skirmish.63")


def build(ctx: Context, order: Order) -> None:
    """One man-move of work on a bridge; at ``man_moves`` it is built, whole (skirmish.86, S10)."""
    bridge = ctx.state.bridges[order.bridge or ""]
    bridge.work += 1
    bridge.builders += 1
    need = int(ctx.tables.bridges.man_moves.value)
    ctx.emit("bridge_work", figure=order.figure, bridge=bridge.id, work=bridge.work, of=need)
    if bridge.work >= need:
        bridge.built = True
        bridge.points = ctx.tables.bridges.types[ST.bridge_sites(ctx)[bridge.id].type].points
        ctx.emit("bridge_built", bridge=bridge.id, points=bridge.points)
        ctx.structures_changed()
