"""The move phase of a unit (skirmish.2, 3, 10, 21, 22, 45-55, 61-65, 76, 86-89): paths, terrain cost,
rivers, ponds and wire, doors, works (wire, tank traps, bridges), crossings, turning a piece. The works'
orders (doors, wire, tank traps, bridges) are checked and built in ``works``.

Plain functions of the game's :class:`~.context.Context`. A :class:`~.actions.Move` is checked whole
(:func:`check_move`) and refused with the first rule it breaks, leaving the state as it was; then
:func:`move` carries it out. Conventions as the rule set's: inches, origin south-west, a figure is the
centre of its 1" base; headings in degrees, 0 east, counter-clockwise.
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
from shapely.geometry import LineString, Point

from grognard.core.engine import ActionSpace
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, at_most, snap, snap_angle
from grognard.rulesets.skirmish import afoot as AF
from grognard.rulesets.skirmish import castles as CA
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import paths as PA
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import structures as ST
from grognard.rulesets.skirmish import works as WK
from grognard.rulesets.skirmish.actions import XY, Move, Order
from grognard.rulesets.skirmish.context import Context, Passed
from grognard.rulesets.skirmish.state import Figure, Unit

CHARGE_SHARE = 0.25  # how often a sampled move (the random bot's) is a charge into contact, when an enemy is in reach


def plan_move(ctx: Context, action: Move) -> dict[str, list[XY]]:
    """Each living figure's path (start first) under ``action``; raises IllegalAction (skirmish.21, 45).
    Worked out once for each move while the state stands still (``Context.still``), where a probe plans a
    move for its cheap test (``surely_refused``) and again for its check; each caller gets its own lists."""
    found: dict[str, list[XY]] = ctx.keep_for("plans", action, lambda: _plan_move(ctx, action))
    return {fid: list(path) for fid, path in found.items()}


def _plan_move(ctx: Context, action: Move) -> dict[str, list[XY]]:
    s = ctx.state
    unit = M.unit(ctx, action.unit)
    men = M.living(ctx, action.unit)
    if not men:
        raise IllegalAction(f"{action}: unit {unit.id} has no men left", "skirmish.21")
    ids = {f.id for f in men}
    orders = {o.figure: o for o in action.orders}
    for order in action.orders:
        if order.figure not in ids:
            raise IllegalAction(f"{action}: {order.figure} is not a living man of {unit.id}", "skirmish.21")
    waiting = M.waiting(ctx, unit)
    if waiting and unit.enters > s.turn:
        raise IllegalAction(f"{action}: {unit.id} comes on from move {unit.enters}", "skirmish.45")
    leader = men[0]
    lx, ly = leader.x, leader.y
    path = action.path
    one = path[0] if len(path) == 1 else None  # the leader's one point (most moves): each man's end at once
    paths: dict[str, list[XY]] = {}
    for f in men:
        start = (f.x, f.y)
        given = orders.get(f.id) if orders else None
        walk = None if given is None else CA.plan_castle_path(ctx, f, given)
        if walk is not None:
            paths[f.id] = walk
        elif given is not None:
            if given.verb == "to":
                paths[f.id] = [start, *((snap(x), snap(y)) for x, y in given.points)]
            else:
                paths[f.id] = [start]
        elif f.on_ladder is not None:
            paths[f.id] = [start]  # a man on a ladder goes where it takes him (skirmish.79)
        elif one is not None:
            paths[f.id] = [start, (snap(one[0] + (f.x - lx)), snap(one[1] + (f.y - ly)))]
        elif path:
            dx, dy = f.x - lx, f.y - ly
            paths[f.id] = [start, *((snap(x + dx), snap(y + dy)) for x, y in path)]
        else:
            paths[f.id] = [start]
    if waiting:
        moving = [fid for fid, p in paths.items() if len(p) > 1]
        if moving and len(moving) != len(men):
            raise IllegalAction(f"{action}: a unit comes onto the table whole", "skirmish.45")
        if any(o.verb != "to" for o in action.orders):
            raise IllegalAction(f"{action}: men off the table can only come on", "skirmish.45")
        if not moving:
            _check_hold_off(ctx, action, unit)
    return paths


def plan_turn(ctx: Context, action: Move) -> float:
    """The heading (degrees) ``action``'s crew turns its piece to (skirmish.55); raises IllegalAction
    naming the rule: the piece must be the unit's to serve, unhitched, with its minimum crew at it, and
    the turn is the crew's whole move."""
    s = ctx.state
    turn = action.turn
    assert turn is not None
    if action.path or action.orders:
        raise IllegalAction(f"{action}: turning a piece is the crew's whole move", "skirmish.55")
    unit = M.unit(ctx, action.unit)
    piece = s.pieces.get(turn.piece)
    if piece is None:
        raise IllegalAction(f"{action}: no piece {turn.piece!r} in this game", "skirmish.55")
    if piece.crew != unit.id:
        served = f"served by {piece.crew}" if piece.crew else "without a crew"
        raise IllegalAction(f"{action}: piece {piece.id} is {served}, not {unit.id}'s to turn", "skirmish.72")
    if piece.hitched is not None:
        raise IllegalAction(
            f"{action}: piece {piece.id} is hitched to {piece.hitched}: unhitch it to turn it", "skirmish.61"
        )
    short = M.crew_short(ctx, piece)
    if short is not None:
        raise IllegalAction(f"{action}: {short[1]} to turn it", short[0])
    if turn.at is not None:
        at = (snap(turn.at[0]), snap(turn.at[1]))
        if math.hypot(at[0] - piece.x, at[1] - piece.y) <= TOLERANCE:
            raise IllegalAction(f"{action}: the point to face is the piece's own place", "skirmish.55")
        return R.bearing((piece.x, piece.y), at)
    return snap_angle(turn.heading or 0.0)


def _check_hold_off(ctx: Context, action: Move, unit: Unit) -> None:
    """At least half the army (by units) comes on in the first move (skirmish.45)."""
    s = ctx.state
    if s.turn != 1:
        return
    army = [u for u in s.units.values() if u.side == unit.side and u.enters <= 1]
    need = math.ceil(len(army) / 2)
    may_stay = len(army) - need
    if s.held_off.get(unit.side, 0) + 1 > may_stay:
        raise IllegalAction(
            f"{action}: at least {need} of the {len(army)} units must be on the table after the first move",
            "skirmish.45",
        )


def check_move(ctx: Context, action: Move) -> dict[str, tuple[list[XY], PA.PathMeasure]]:
    """Check ``action`` whole against the rules; returns each man's path and its measure.

    Raises :class:`IllegalAction` naming the rule for the first problem found.
    """
    s = ctx.state
    if action.turn is not None:
        plan_turn(ctx, action)
    paths = plan_move(ctx, action)
    terrain = ctx.terrain
    orders = {o.figure: o for o in action.orders}
    changed_now: set[str] = set()
    for order in action.orders:
        if order.verb in ("open", "close"):
            changed_now.add(WK.check_door(ctx, action, order))
        elif order.verb == "wire":
            WK.check_wire(ctx, action, order)
        elif order.verb == "traps":
            WK.check_traps(ctx, action, order)
    WK.check_build(ctx, action)
    foes = enemies_at(ctx, M.unit(ctx, action.unit).side)
    doors: frozenset[str] = ctx.keep("open doors", lambda: frozenset(M.open_doors(ctx)))
    found = AF.obstacles(ctx)  # the vehicles and the train, for every man's path
    out: dict[str, tuple[list[XY], PA.PathMeasure]] = {}
    for fid, path in paths.items():
        f = s.figures[fid]
        if len(path) < 2:
            out[fid] = (path, PA.PathMeasure(0.0, 0.0))
            continue
        try:
            measure = _check_man(ctx, action, f, path, terrain, foes, doors, found)
        except IllegalAction:
            if ctx.kept is not None:  # his path refuses any move that asks it of him while the state stands still
                ctx.kept.setdefault("refused paths", set()).add((fid, tuple(path)))
            raise
        for door in measure.doors:
            if s.doors[door].changed == s.turn or door in changed_now:
                raise IllegalAction(
                    f"{action}: {fid} cannot pass door {door}: it was opened or closed this turn", "skirmish.65"
                )
        if f.weapon in R.HEAVY_IN_POND and not terrain.pond.is_empty:
            if LineString(path).intersection(terrain.pond).length > TOLERANCE:
                raise IllegalAction(
                    f"{action}: {fid} carries a {f.weapon}: it may not go into a pond or bay", "skirmish.53"
                )
        out[fid] = (path, measure)
    bases_apart(ctx, action, paths)
    WK.check_crossings(ctx, action, out)
    CA.check_castle_orders(ctx, action, out)
    if orders and any(o.verb in ("open", "close") for o in orders.values()):
        passed = {d for _, m in out.values() for d in m.doors}
        clash = passed & changed_now
        if clash:
            raise IllegalAction(
                f"{action}: door {sorted(clash)[0]} cannot be opened or closed and passed in one turn",
                "skirmish.65",
            )
    return out


def _check_man(
    ctx: Context,
    action: Move,
    f: Figure,
    path: list[XY],
    terrain: Any,
    foes: list[tuple[Figure, float, float]],
    doors: frozenset[str],
    found: list[AF.Obstacle],
) -> PA.PathMeasure:
    """``check_move``'s tests of one man's path of two or more points that read nothing of the move but the man
    and his path (and the state): its length, where he is, the enemies' bases, the ground, vehicles, his move.
    Raises IllegalAction naming the rule; returns the path's measure."""
    s = ctx.state
    fid = f.id
    base = ctx.tables.sight.base.value
    near = base - TOLERANCE + 1e-6
    if len(path) > 4:
        raise IllegalAction(f"{action}: {fid}'s path has more than two waypoints", "skirmish.21")
    if f.aboard is not None:
        DV.check_foot_path(ctx, action, f, path, 0.0)  # he rides: refused at once (skirmish.61)
    if fid in s.engaged:
        raise IllegalAction(
            f"{action}: {fid} is in a melee: he leaves it only by retreating when both sides miss",
            "skirmish.68",
        )
    for x, y in path[1:] if f.on_table else path[-1:]:  # off the table first: no base lies out there
        if not terrain.on_table(x, y):
            raise IllegalAction(f"{action}: {fid} would leave the table at ({x:g}, {y:g})", "skirmish.2")
    # only the enemies near the box round the path can be near it (rules.path_near's own short cut)
    x0, y0, x1, y1 = AF.path_box(path)
    for enemy, ex, ey in foes:
        if x0 - ex >= near or ex - x1 >= near or y0 - ey >= near or ey - y1 >= near:
            continue  # farther than the reach along one axis: not near
        if path_near(path, (ex, ey), base):
            raise IllegalAction(
                f"{action}: {fid} would pass onto or through {enemy.id}'s base "
                "(he may charge only until the bases touch)",
                "skirmish.10",
            )
    allowance = M.allowance(ctx, f)
    if f.on_wall is not None or f.on_ladder is not None:
        measure = CA.check_wall_path(ctx, action, f, path)
    else:
        measure = path_measure(ctx, terrain, path, allowance, f.river_paid, doors)
        if measure.problem is None:
            CA.check_ground_end(ctx, action, f, path)
    if measure.problem is not None:
        rule, why = measure.problem
        raise IllegalAction(f"{action}: {fid}: {why}", rule)
    DV.check_foot_path(ctx, action, f, path, measure.cost, found)
    if not at_most(measure.cost, allowance):
        raise IllegalAction(
            f"{action}: {fid}'s path costs {measure.describe()}, more than his {allowance:g}\" move",
            _cost_rule(measure, f.type, allowance),
        )
    return measure


def path_near(path: list[XY], other: XY, reach: float) -> bool:
    """``rules.path_near(path, other, reach)``, the same answer: for a straight path (two points apart) the
    distance from ``other`` to it is worked out here, and shapely is asked only within 1e-9 inch of the limit
    (``reach`` less the tolerance), where rounding could tell the two apart."""
    if len(path) == 2:
        (ax, ay), (bx, by) = path
        dx, dy = bx - ax, by - ay
        span = dx * dx + dy * dy
        if span > 0.0:
            ox, oy = other[0] - ax, other[1] - ay
            t = (ox * dx + oy * dy) / span
            t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
            gap = math.hypot(ox - t * dx, oy - t * dy)
            limit = reach - TOLERANCE
            if gap < limit - 1e-9:
                return True
            if gap > limit + 1e-9:
                return False
    return R.path_near(path, other, reach)


def held(ctx: Context, action: Move) -> dict[str, tuple[list[XY], PA.PathMeasure]] | None:
    """What ``check_move`` gives a hold (no path, no orders, no turn) of a unit on the table with men alive:
    each man's path his place alone, measured nothing. Nothing in the check can refuse it: no man walks, so no
    path, base, bridge or door is tested; only a unit still off the table is asked about the first move
    (skirmish.45) and a unit with no men is refused (skirmish.21). None for any other move."""
    if action.path or action.orders or action.turn is not None:
        return None
    unit = ctx.state.units.get(action.unit)
    if unit is None or M.waiting(ctx, unit):
        return None
    men = M.living(ctx, action.unit)
    return {f.id: ([(f.x, f.y)], PA.PathMeasure(0.0, 0.0)) for f in men} if men else None


def enemies_at(ctx: Context, side: str) -> list[tuple[Figure, float, float]]:
    """The enemies of ``side`` on the table, each with where he stands; found once while the state stands still."""
    found: list[tuple[Figure, float, float]] = ctx.keep(
        "foes " + side, lambda: [(e, e.x, e.y) for e in M.enemies(ctx, side)]
    )
    return found


def surely_refused(ctx: Context, unit: str, action: Any) -> bool:
    """A cheap test that ``check_move`` refuses ``action`` (a move of ``unit``): its plan is refused, some
    man's path was refused by ``_check_man`` while the state stands still (in another move), walks into a
    vehicle or the train (``afoot.walks_into``), or some man would end on a friend's base (``bases_apart``).
    ``check_move`` plans the move first, puts every man's path of two or more points to ``_check_man`` (which
    reads nothing of the move but him and his path, and puts paths of two to four points to the walking test,
    ``driving.check_foot_path``) and, once every man's path passed, all of them to ``bases_apart``: a move
    refused by any of these is refused by the check, whatever it finds first; False says nothing. The plan and
    the bases' verdict are kept while the state stands still, for the check to read."""
    if not isinstance(action, Move) or action.unit != unit or action.turn is not None:
        return False
    try:
        paths = plan_move(ctx, action)
    except IllegalAction:
        return True
    kept = ctx.kept
    refused = kept.get("refused paths") if kept is not None else None
    if refused and any(len(p) > 1 and (fid, tuple(p)) in refused for fid, p in paths.items()):
        return True
    if ctx.railway is not None or ctx.state.vehicles:
        try:
            if AF.any_walks_into(ctx, paths.values(), AF.obstacles(ctx)):
                return True
        except Exception:
            return False
    try:
        bases_apart(ctx, action, paths)
    except IllegalAction:
        return True
    return False


def path_measure(
    ctx: Context, terrain: Any, path: list[XY], allowance: float, river_paid: bool, opened: set[str] | frozenset[str]
) -> PA.PathMeasure:
    """``paths.measure_path`` of ``path``, kept in the terrain's memo (a pure function of the terrain, the path and
    the open doors; the measure is only read): the doctrine tries the same paths again, turn after turn."""
    memo = ctx.sight_memo(terrain)
    key = ("path", tuple(path), allowance, river_paid, opened if isinstance(opened, frozenset) else frozenset(opened))
    found: PA.PathMeasure | None = memo.get(key)
    if found is None:
        found = memo[key] = PA.measure_path(terrain, path, allowance, river_paid=river_paid, open_doors=opened)
    return found


def _on_the_ground(f: Figure) -> bool:
    return f.aboard is None and f.on_wall is None and f.on_ladder is None


def bases_apart(ctx: Context, action: Move, paths: dict[str, list[XY]]) -> None:
    """``_check_bases_apart`` of ``action``'s planned ``paths``: its verdict (nothing, or the IllegalAction it
    raises) kept for each move while the state stands still (``Context.still``), where a probe's cheap test
    (``surely_refused``) asks it before the check does."""
    ctx.keep_for("apart", action, lambda: _check_bases_apart(ctx, action, paths))


def _ground_men(ctx: Context, side: str) -> list[Figure]:
    """The living men of ``side`` on the ground (not aboard, on a wall or a ladder), in the state's order;
    found once while the state stands still."""
    figures = ctx.state.figures.values()
    found: list[Figure] = ctx.keep(
        "ground " + side, lambda: [f for f in figures if f.side == side and f.alive and _on_the_ground(f)]
    )
    return found


def _check_bases_apart(ctx: Context, action: Move, paths: dict[str, list[XY]]) -> None:
    """No man ends his move on a friend's base (skirmish.10): a moving man on the ground ends with his centre
    at least a base (1", less the 0.01" tolerance) from every friend on the ground, each where he will stand
    after this move (``paths``: ``plan_move``'s). He may pass through friends. Two men already closer than
    that (put there by a drop or a dismount) may keep their distance or open it, not close it; men on walls
    and ladders stand as the castle rules place them and are left out."""
    s = ctx.state
    base = ctx.tables.sight.base.value
    ends: dict[str, XY] = {}
    for f in _ground_men(ctx, M.unit(ctx, action.unit).side):
        path = paths.get(f.id)
        if path is not None and len(path) > 1:
            ends[f.id] = path[-1]
        elif f.on_table:
            ends[f.id] = (f.x, f.y)
    for fid, path in paths.items():
        if len(path) < 2 or fid not in ends:
            continue
        end = path[-1]
        ex, ey = end
        for other, at in ends.items():
            dx, dy = at[0] - ex, at[1] - ey
            if dx >= base or -dx >= base or dy >= base or -dy >= base:
                continue  # a base or more apart along one axis: the centres are (overlaps' hypot is no less)
            if other == fid or not R.overlaps(end, at, base):
                continue
            gap = math.hypot(ex - at[0], ey - at[1])
            f, o = s.figures[fid], s.figures[other]
            if f.on_table and o.on_table and gap >= math.hypot(f.x - o.x, f.y - o.y) - TOLERANCE:
                continue  # already that close at the start: they keep (or open) their distance
            raise IllegalAction(
                f'{action}: {fid} would end {gap:.2f}" from {other}, on his base '
                f'(men keep their bases apart: centres at least {base:g}")',
                "skirmish.10",
            )


def move(ctx: Context, action: Move, checked: dict[str, tuple[list[XY], PA.PathMeasure]] | None = None) -> None:
    """Carry out ``action``; ``checked``: what ``check_move`` gave for it on this very state (else it is checked)."""
    s = ctx.state
    if checked is None:
        checked = check_move(ctx, action)
    unit = M.unit(ctx, action.unit)
    terrain = ctx.terrain
    waiting = M.waiting(ctx, unit)
    moved = []
    if action.turn is not None:
        piece = s.pieces[action.turn.piece]
        piece.heading = plan_turn(ctx, action)
        piece.turned = s.turn
        for f in M.living(ctx, unit.id):  # the turn is their whole move (skirmish.55, 61)
            s.walked[f.id] = M.allowance(ctx, f)
        ctx.emit("piece_turned", piece=piece.id, crew=unit.id, heading=piece.heading)
        return
    for order in action.orders:
        if order.verb in ("open", "close"):
            door = s.doors[order.door or ""]
            door.open = order.verb == "open"
            door.changed = s.turn
            ctx.emit("door", figure=order.figure, door=door.id, open=door.open)
        elif order.verb == "wire":
            a, b = ((snap(x), snap(y)) for x, y in order.points)
            s.wires = (*s.wires, (a, b))
            ctx.emit("wire_laid", figure=order.figure, line=[list(a), list(b)])
        elif order.verb == "traps":
            a, b = ((snap(x), snap(y)) for x, y in order.points)
            s.traps = (*s.traps, a, b)
            ctx.emit("traps_set", figure=order.figure, at=[list(a), list(b)])
        elif order.verb == "build":
            WK.build(ctx, order)
    for fid, (path, measure) in checked.items():
        f = s.figures[fid]
        if len(path) < 2:
            continue
        x, y = path[-1]
        entered_river = measure.rivers > 0
        f.x, f.y = x, y
        f.on_table = True
        if f.on_wall is not None:
            f.on_wall = CA.on_a_top(ctx, x, y) or f.on_wall
        s.walked[fid] = round(s.walked.get(fid, 0.0) + measure.cost, 2)
        f.river_paid = terrain.in_river(x, y) and (f.river_paid or entered_river)
        for door_id in measure.doors:
            s.doors[door_id].passed = s.turn
        for bid in WK.bridges_used(ctx, path):
            crossed = s.bridges[bid].crossed
            crossed[f.side] = crossed.get(f.side, 0) + 1
        moved.append({"figure": fid, "to": [x, y], "cost": round(measure.cost, 2)})
    CA.castle_orders(ctx, action)
    if waiting and not moved:
        s.held_off[unit.side] = s.held_off.get(unit.side, 0) + (1 if s.turn == 1 else 0)
        ctx.emit("waits", unit=unit.id)
    elif moved:
        ctx.emit("moved", unit=unit.id, figures=moved, entered=waiting)
    elif not action.orders:
        ctx.emit("holds", unit=unit.id)


def _cost_rule(measure: PA.PathMeasure, man_type: str, allowance: float) -> str:
    """The rule a too-dear path breaks: his move itself when the inches walked alone exceed it, else the extra cost."""
    if not at_most(measure.length, allowance):
        return "skirmish.22" if man_type == "cavalry" else "skirmish.21"
    parts = {k: v for k, v in measure.parts.items() if v > 0}
    if parts.get("river"):
        return "skirmish.47"
    if parts.get("wire"):
        return "skirmish.51"
    if parts.get("pond"):
        return "skirmish.52"
    if parts.get("uphill") or parts.get("road") or parts.get("walls") or parts.get("boulders"):
        return "skirmish.3"
    return "skirmish.22" if man_type == "cavalry" else "skirmish.21"


# ---------------------------------------------------------------------- action spaces
class MoveSpace(ActionSpace[Move]):
    """Every legal move of a unit: a continuous space of paths (skirmish.21)."""

    def __init__(self, ctx: Context, unit: str) -> None:
        self.ctx = ctx
        self.unit = unit

    def check(self, action: Any) -> None:
        if not isinstance(action, Move):
            raise IllegalAction(f"{action} is not a move", "skirmish.21")
        if action.unit != self.unit:
            raise IllegalAction(f"{action}: this decision is for unit {self.unit}", "skirmish.21")
        if self.ctx.passed.get(self.ctx, action) is Passed:  # passed already at this moment: nothing to check again
            found = held(self.ctx, action)
            self.ctx.passed.put(self.ctx, action, check_move(self.ctx, action) if found is None else found)

    def contains(self, action: Any) -> bool:
        """``check``'s yes or no; a move ``surely_refused`` is refused without the rest of the check."""
        if surely_refused(self.ctx, self.unit, action):
            return False
        return super().contains(action)

    def passed(self, action: Move) -> dict[str, tuple[list[XY], PA.PathMeasure]] | None:
        """What ``check_move`` gave for ``action`` when it was checked here and passed, on the state as it
        still is (the move the bot chose, checked again when it is carried out); else None."""
        found = self.ctx.passed.get(self.ctx, action)
        return None if found is Passed else cast(dict[str, tuple[list[XY], PA.PathMeasure]], found)

    def toward(self, x: float, y: float, steps: int = 7) -> Move | None:
        """The furthest legal straight move of the whole unit toward (x, y) for its leader, if any."""
        men = M.living(self.ctx, self.unit)
        lx, ly = men[0].x, men[0].y
        full = Move(self.unit, ((snap(x), snap(y)),))
        if self.contains(full):
            return full
        lo, hi, best = 0.0, 1.0, None
        for _ in range(steps):
            mid = (lo + hi) / 2
            move = Move(self.unit, ((snap(lx + mid * (x - lx)), snap(ly + mid * (y - ly))),))
            if self.contains(move):
                lo, best = mid, move
            else:
                hi = mid
        return best

    def hold(self) -> Move:
        return Move(self.unit)

    def sample(self, rng: np.random.Generator) -> Move:
        ctx = self.ctx
        men = M.living(ctx, self.unit)
        leader = men[0]
        reach = M.allowance(ctx, leader)
        base = ctx.tables.sight.base.value
        close = [e for e in M.enemies(ctx, leader.side) if math.hypot(e.x - leader.x, e.y - leader.y) <= reach + base]
        if leader.on_table and close and rng.random() < CHARGE_SHARE:  # a charge: the leader runs into contact
            foe = close[int(rng.integers(len(close)))]
            d = math.hypot(foe.x - leader.x, foe.y - leader.y)
            t = (d - base) / d if d > base else 0.0
            move = Move(
                self.unit, ((snap(leader.x + t * (foe.x - leader.x)), snap(leader.y + t * (foe.y - leader.y))),)
            )
            if move.path[0] != (leader.x, leader.y) and self.contains(move):
                return move
        for _ in range(6):
            angle = float(rng.uniform(0.0, 2 * math.pi))
            dist = float(rng.uniform(0.2, 1.0)) * reach
            x, y = leader.x + dist * math.cos(angle), leader.y + dist * math.sin(angle)
            move = Move(self.unit, ((snap(x), snap(y)),))
            if len(men) > 1 and leader.on_table and rng.random() < 0.3:
                move = Move(self.unit, move.path, (self._figure_order(rng, men[1:]),))
            if self.contains(move):
                return move
        options = self.candidates(4)
        return options[int(rng.integers(len(options)))]

    def _figure_order(self, rng: np.random.Generator, men: list[Figure]) -> Order:
        """A random single man's order: stay, his own short path, wire, tank traps, or a door near him."""
        f = men[int(rng.integers(len(men)))]
        walls = self.ctx.base_terrain.walls
        kind = int(rng.integers(9 if walls else 6))
        if kind >= 6:  # castles: raise a ladder at the nearest wall, climb or push a ladder, go up a wall
            return self._castle_order(rng, f, kind)
        if kind == 5:  # work on a bridge not yet built (refused, and so not chosen, unless he stands at its site)
            sites = sorted(b.id for b in self.ctx.state.bridges.values() if not b.built)
            if sites:
                return Order(f.id, "build", (), None, sites[int(rng.integers(len(sites)))])
            kind = 0
        angle = float(rng.uniform(0.0, 2 * math.pi))
        dx, dy = math.cos(angle), math.sin(angle)
        if kind == 0:
            return Order(f.id, "stay")
        if kind == 1:
            return Order(f.id, "to", ((snap(f.x + 2 * dx), snap(f.y + 2 * dy)),))
        if kind == 2:
            return Order(f.id, "wire", ((snap(f.x - dx), snap(f.y - dy)), (snap(f.x + dx), snap(f.y + dy))))
        if kind == 3:
            return Order(f.id, "traps", ((snap(f.x), snap(f.y)), (snap(f.x + dx), snap(f.y + dy))))
        doors = self.ctx.state.doors
        if doors:
            door = sorted(doors)[int(rng.integers(len(doors)))]
            return Order(f.id, "close" if doors[door].open else "open", (), door)
        return Order(f.id, "stay")

    def _castle_order(self, rng: np.random.Generator, f: Figure, kind: int) -> Order:
        """A random castle order for ``f`` (refused, and so not chosen, unless he stands where it is legal)."""
        ctx = self.ctx
        ladders = sorted(ctx.state.ladders)
        if kind == 6:
            here = Point(f.x, f.y)
            sec = min(ST.wall_sections(ctx).values(), key=lambda w: w.line.distance(here))
            top = sec.line.interpolate(sec.line.project(here))
            return Order(f.id, "ladder", ((snap(top.x), snap(top.y)),))
        if kind == 7 and ladders:
            return Order(f.id, "climb" if f.on_wall is None else "push", name=ladders[int(rng.integers(len(ladders)))])
        if f.on_wall is not None:
            return Order(
                f.id, "down", ((snap(f.x + float(rng.uniform(-1, 1))), snap(f.y + float(rng.uniform(-1, 1)))),)
            )
        walls = ctx.base_terrain.walls
        return Order(f.id, "up", name=walls[int(rng.integers(len(walls)))].id)

    def candidates(self, k: int = 16) -> list[Move]:
        ctx = self.ctx
        men = M.living(ctx, self.unit)
        leader = men[0]
        reach = M.allowance(ctx, leader)
        out: list[Move] = []
        if self.contains(self.hold()):
            out.append(self.hold())
        enemies = M.enemies(ctx, leader.side)
        spec = ctx.scenario.spec
        aims: list[XY] = []
        for objective in spec.objectives:
            xs = [p[0] for p in objective.shape]
            ys = [p[1] for p in objective.shape]
            aims.append((sum(xs) / len(xs), sum(ys) / len(ys)))
        if enemies:
            near = min(enemies, key=lambda e: math.hypot(e.x - leader.x, e.y - leader.y))
            aims.append((near.x, near.y))
        edge = next(s.edge for s in spec.sides if s.id == leader.side)
        inward = {"south": (0, 1), "north": (0, -1), "west": (1, 0), "east": (-1, 0)}[edge]
        aims.append((leader.x + inward[0] * reach, leader.y + inward[1] * reach))
        for ax, ay in aims:
            d = math.hypot(ax - leader.x, ay - leader.y)
            if d <= TOLERANCE:
                continue
            t = min(1.0, reach / d)
            move = self.toward(leader.x + t * (ax - leader.x), leader.y + t * (ay - leader.y))
            if move is not None and move not in out:
                out.append(move)
            if len(out) >= k:
                break
        if not out:
            for angle in range(0, 360, 45):
                move = self.toward(
                    leader.x + reach / 2 * math.cos(math.radians(angle)),
                    leader.y + reach / 2 * math.sin(math.radians(angle)),
                )
                if move is not None:
                    out.append(move)
                    break
        if not out:
            raise IllegalAction(f"unit {self.unit} has no legal move", "skirmish.21")
        return out[:k]
