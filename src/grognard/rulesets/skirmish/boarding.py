"""The skirmish game's stops of a drive (skirmish.61, 72): men getting in and out of a vehicle, where they get
out, and a piece hitched or unhitched; checked with the vehicle where it stops (``check_stop``) and carried out
(``hitch``, ``board``) by ``driving``."""

from __future__ import annotations

import math

import shapely
from shapely.geometry import Point

from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, at_most, snap, snap_angle
from grognard.rulesets.skirmish import landing as L
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish.actions import Drive, Stop
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.state import Vehicle

XY = tuple[float, float]


def _men_of(ctx: Context, action: Drive, stop: Stop, v: Vehicle, aboard: list[str]) -> list[str]:
    s = ctx.state
    out: list[str] = []
    for ref in stop.men:
        if ref in s.units:
            unit = s.units[ref]
            if unit.side != v.side:
                raise IllegalAction(f"{action}: {ref} is not a unit of {v.side}", "skirmish.61")
            men = [
                fid
                for fid in unit.figures
                if s.figures[fid].alive
                and ((fid in aboard) if stop.verb == "unload" else s.figures[fid].aboard is None)
                and s.figures[fid].on_table
            ]
            if not men:
                where = f"aboard {v.id}" if stop.verb == "unload" else "on foot"
                raise IllegalAction(f"{action}: no man of {ref} is {where}", "skirmish.61")
            out += [m for m in men if m not in out]
        elif ref in s.figures:
            f = s.figures[ref]
            if f.side != v.side or not f.alive:
                raise IllegalAction(f"{action}: {ref} is not a living man of {v.side}", "skirmish.61")
            if ref not in out:
                out.append(ref)
        else:
            raise IllegalAction(f"{action}: no unit or man {ref!r}", "skirmish.61")
    return out


def check_stop(
    ctx: Context,
    action: Drive,
    stop: Stop,
    v: Vehicle,
    at: XY,
    facing: float,
    aboard: list[str],
    afoot: dict[str, XY],
    towing: list[str],
    near: XY | None = None,
) -> list[tuple[str, XY | None]]:
    """Check one stop with the vehicle at ``at``; updates ``aboard`` and ``afoot`` (men on foot's places)
    and ``towing`` (the pieces ``v`` tows, stop by stop); men getting out gather nearest ``near`` (the
    piece they unhitch), else the vehicle's rear."""
    s = ctx.state
    if stop.verb in ("hitch", "unhitch"):
        check_hitch(ctx, action, stop, v, at, facing, towing)
        rest = Stop("load" if stop.verb == "hitch" else "unload", stop.men[1:])
        beside = tow_point(ctx, v, at, facing)  # the crew gets out beside the piece
        return check_stop(ctx, action, rest, v, at, facing, aboard, afoot, towing, beside) if rest.men else []
    entry = ctx.tables.vehicles.kind(v.kind)
    reach = ctx.tables.vehicles.board_reach.value
    shape = ctx.vehicle_shape(v, at, facing)
    men = _men_of(ctx, action, stop, v, aboard)
    if entry.afloat and not L.grounded(ctx.base_terrain, shape):
        gap = L.shore_gap(ctx.base_terrain, shape)
        raise IllegalAction(
            f'{action}: {v.id} is afloat, {gap:.2f}" off the shore: its ramp goes down only when it has grounded',
            "skirmish.27",
        )
    out: list[tuple[str, XY | None]] = []
    for fid in men:
        f = s.figures[fid]
        half = M.allowance(ctx, f) / 2
        if not at_most(s.walked.get(fid, 0.0), half):
            raise IllegalAction(
                f"{action}: {fid} has spent more than half his move this turn: getting in or out takes half",
                "skirmish.61",
            )
    if stop.verb == "load":
        for fid in men:
            f = s.figures[fid]
            if f.aboard is not None or fid in aboard:
                raise IllegalAction(f"{action}: {fid} is already aboard {f.aboard or v.id}", "skirmish.61")
            if not f.on_table:
                raise IllegalAction(f"{action}: {fid} is not on the table", "skirmish.61")
            if fid in s.engaged:
                raise IllegalAction(f"{action}: {fid} is in a melee", "skirmish.68")
            x, y = afoot[fid]
            gap = shape.distance(Point(x, y))
            if entry.afloat:
                gap = Point(L.bow(at, facing, entry.length)).distance(Point(x, y))
                reach = ctx.tables.vehicles.ramp_reach.value
            if gap > reach + TOLERANCE:
                raise IllegalAction(
                    f'{action}: {fid} is {gap:.2f}" from {v.id}; men get in within {reach:g}"', "skirmish.61"
                )
        if len(aboard) + len(men) > entry.carries:
            raise IllegalAction(
                f"{action}: {len(aboard) + len(men)} men aboard; a {v.kind} carries at most {entry.carries}",
                "skirmish.23",
            )
        for fid in men:
            aboard.append(fid)
            afoot.pop(fid, None)
            out.append((fid, None))
        return out
    for fid in men:
        if fid not in aboard:
            raise IllegalAction(f"{action}: {fid} is not aboard {v.id}", "skirmish.61")
    spots = exit_spots(ctx, v, at, facing, afoot, near=near)
    if len(spots) < len(men):
        raise IllegalAction(
            f"{action}: room round {v.id} for {len(spots)} men to get out, not {len(men)}", "skirmish.61"
        )
    for fid, spot in zip(men, spots, strict=False):
        aboard.remove(fid)
        afoot[fid] = spot
        out.append((fid, spot))
    return out


def tow_point(ctx: Context, v: Vehicle, at: XY | None = None, facing: float | None = None) -> XY:
    """Where a piece hitched to ``v`` stands: on its centre line, ``tow_gap`` inches behind its rear."""
    at = at or (v.x, v.y)
    h = math.radians(v.heading if facing is None else facing)
    back = ctx.tables.vehicles.kind(v.kind).length / 2 + ctx.tables.vehicles.tow_gap.value
    return (snap(at[0] - math.cos(h) * back), snap(at[1] - math.sin(h) * back))


def check_hitch(ctx: Context, action: Drive, stop: Stop, v: Vehicle, at: XY, facing: float, towing: list[str]) -> None:
    """A hitch or unhitch at this stop (skirmish.61, 72), or IllegalAction naming the rule. Tracks the
    pieces ``v`` tows in ``towing`` (the drive plan's)."""
    s = ctx.state
    pid = stop.men[0]
    piece = s.pieces.get(pid)
    if piece is None:
        raise IllegalAction(f"{action}: no artillery piece {pid!r} to {stop.verb}", "skirmish.61")
    if stop.verb == "unhitch":
        if pid not in towing:
            raise IllegalAction(f"{action}: piece {pid} is not hitched to {v.id}", "skirmish.61")
        towing.remove(pid)
        return
    tows = ctx.tables.vehicles.kind(v.kind).tows
    if piece.weapon not in tows:
        can = ", ".join(tows) if tows else "nothing"
        raise IllegalAction(f"{action}: a {v.kind} tows {can}, not {pid}'s {piece.weapon}", "skirmish.61")
    if piece.hitched is not None or pid in towing:
        raise IllegalAction(f"{action}: piece {pid} is already hitched to {piece.hitched or v.id}", "skirmish.61")
    if towing:
        raise IllegalAction(f"{action}: {v.id} already tows {towing[0]}: one piece a vehicle", "skirmish.61")
    if piece.crew is not None and s.units[piece.crew].side != v.side:
        raise IllegalAction(
            f"{action}: piece {pid} is served by the {s.units[piece.crew].side}' unit {piece.crew}", "skirmish.72"
        )
    reach = ctx.tables.vehicles.board_reach.value
    gap = ctx.vehicle_shape(v, at, facing).distance(Point(piece.x, piece.y))
    if gap > reach + TOLERANCE:
        raise IllegalAction(
            f'{action}: piece {pid} is {gap:.2f}" from {v.id}; a piece is hitched within {reach:g}"', "skirmish.61"
        )
    if pid in s.bursts:
        raise IllegalAction(f"{action}: piece {pid} has fired this turn", "skirmish.61")
    towing.append(pid)


def exit_spots(
    ctx: Context, v: Vehicle, at: XY, facing: float, afoot: dict[str, XY], near: XY | None = None
) -> list[XY]:
    """Free places round the vehicle where men get out, nearest its rear (or ``near``, the piece a crew
    unhitches) first: on the table, within
    ``board_reach`` of it, a base apart from other men, out of contact with the enemy, clear of other
    vehicles, the train and what a man may not stand in."""
    base = ctx.tables.sight.base.value
    reach = ctx.tables.vehicles.board_reach.value
    entry = ctx.tables.vehicles.kind(v.kind)
    if entry.afloat:  # skirmish.27: down the ramp onto dry land before the bow
        ramp = ctx.tables.vehicles.ramp_reach.value
        points = [Point(p) for p in L.ramp_spots(ctx.base_terrain, at, facing, entry.length, entry.width, ramp)]
        return _free_spots(ctx, v, points, afoot)
    ring = ctx.vehicle_shape(v, at, facing).buffer(min(reach, base / 2 + 0.25), join_style="mitre").exterior
    h = math.radians(facing)
    rear = (
        Point(near)
        if near is not None
        else Point(at[0] - math.cos(h) * entry.length, at[1] - math.sin(h) * entry.length)
    )
    count = max(8, int(ring.length / (base + 0.05)))
    along = shapely.line_interpolate_point(ring, [ring.length * k / count for k in range(count)])  # interpolate each
    gaps, xy = shapely.distance(along, rear).tolist(), shapely.get_coordinates(along).tolist()  # and its distance
    order = sorted(range(count), key=lambda k: (gaps[k], xy[k][0], xy[k][1]))
    return _free_spots(ctx, v, [along[k] for k in order], afoot)


def _free_spots(ctx: Context, v: Vehicle, points: list[Point], afoot: dict[str, XY]) -> list[XY]:
    """Of ``points``, in order, those a man may get out at (see ``exit_spots``). Only the men on foot, and the
    boulders, whose boxes come within reach of the points' box are asked of each point (a man clashes within a
    base and the tolerance of it, ``math.hypot`` being at least either side's gap; a boulder covers a point
    within its box)."""
    base = ctx.tables.sight.base.value
    terrain = ctx.terrain
    others = [ctx.vehicle_shape(o) for o in ctx.state.vehicles.values() if o.id != v.id]
    train = ctx.train_now()
    others += [train] if train is not None else []
    boxes = [o.bounds for o in others]
    reach = base / 2 + 1e-6  # a base's shape lies within its centre's box grown by its radius (and rounding)
    side = v.side
    out: list[XY] = []
    spots = [(snap(x), snap(y)) for x, y in shapely.get_coordinates(points).tolist()] if points else []
    if not spots:
        return out
    xs, ys = [x for x, _ in spots], [y for _, y in spots]
    grow = base + TOLERANCE + 1e-6  # beyond it along either axis, a man is farther from every point
    x0, y0, x1, y1 = min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow
    figures = ctx.state.figures
    taken = [(x, y, figures[fid].side != side) for fid, (x, y) in afoot.items() if x0 <= x <= x1 and y0 <= y <= y1]
    rocks = [b.shape for b in terrain.boulders if _box_meets(b.shape.bounds, (x0, y0, x1, y1))]
    for spot in spots:
        if not terrain.on_table(*spot) or terrain.in_river(*spot) or terrain.in_pond(*spot):
            continue
        if terrain.building_at(*spot) is not None or any(b.covers(Point(spot)) for b in rocks):
            continue
        x, y = spot  # the vehicles and the train whose boxes are apart from the base's (by more) meet none of it
        near = [
            o for o, (x0, y0, x1, y1) in zip(others, boxes, strict=True) if max(x0 - x, x - x1, y0 - y, y - y1) <= reach
        ]
        body = Point(spot).buffer(base / 2) if near else None
        if body is not None and any(body.intersects(o) for o in near):
            continue
        clash = False
        for mx, my, foe in taken:
            gap = math.hypot(mx - x, my - y)
            if gap < base - TOLERANCE or (foe and gap <= base + TOLERANCE):
                clash = True
                break
        if clash or any(math.hypot(ox - x, oy - y) < base - TOLERANCE for ox, oy in out):
            continue
        out.append(spot)
    return out


def _box_meets(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return not (a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1])


def hitch(ctx: Context, v: Vehicle, stop: Stop | None) -> None:
    """Do a checked hitch (the piece goes behind ``v``) or unhitch (it stays there, facing the rear)."""
    if stop is None or stop.verb not in ("hitch", "unhitch"):
        return
    piece = ctx.state.pieces[stop.men[0]]
    if stop.verb == "hitch":
        piece.hitched = v.id
        piece.x, piece.y = tow_point(ctx, v)
        piece.heading = snap_angle(v.heading + 180.0)
    else:
        piece.hitched = None
    ctx.emit("hitched" if stop.verb == "hitch" else "unhitched", vehicle=v.id, piece=piece.id, at=[piece.x, piece.y])


def board(ctx: Context, v: Vehicle, stop: Stop | None, men: list[tuple[str, XY | None]]) -> None:
    if stop is None:
        return
    s = ctx.state
    for fid, spot in men:
        f = s.figures[fid]
        s.walked[fid] = s.walked.get(fid, 0.0) + M.allowance(ctx, f) / 2
        if spot is None:
            f.aboard, f.x, f.y = v.id, v.x, v.y
            v.aboard.append(fid)
        else:
            f.aboard = None
            f.x, f.y = spot
            v.aboard.remove(fid)
    if not men:
        return
    ctx.emit(
        "loaded" if stop.verb in ("load", "hitch") else "unloaded",
        vehicle=v.id,
        men=[fid for fid, _ in men],
        at=[list(p) for _, p in men if p is not None],
    )
