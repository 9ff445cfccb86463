"""The doctrine's vehicles (see ``bots``' docstring): an attacker's vehicle drives for the objective by the
furthest legal drive straight at it or up to 60 degrees either side (whichever ends nearest), and once within
``UNLOAD_AT`` inches of it drops its passengers, driving half a move on first if it can; a landing craft steers
for the beach toward the objective and lands its men there; a defender's vehicles stay put."""

from __future__ import annotations

import functools
import math
from typing import Any

from shapely.geometry import Point, Polygon

from grognard.core.geometry import TOLERANCE, snap
from grognard.rulesets.skirmish import landing as L
from grognard.rulesets.skirmish.actions import Drive
from grognard.rulesets.skirmish.context import XY, Context
from grognard.rulesets.skirmish.driving import DriveSpace

UNLOAD_AT = 8.0  # inches from the objective where a vehicle drops its passengers


def drive_order(ctx: Context, space: DriveSpace) -> Drive:
    """The doctrine's drive for the vehicle of ``space`` (see the module's docstring)."""
    v = ctx.state.vehicles[space.vehicle]
    spec = ctx.scenario.spec
    if v.side != spec.victory.attacker or not spec.victory.objectives:
        return space.hold()
    here = Point(v.x, v.y)
    target, aim = min(objectives(ctx), key=lambda sh: sh[0].distance(here))
    stop = space.unload_all()
    move = ctx.tables.vehicles.kind(v.kind).move
    if ctx.tables.vehicles.kind(v.kind).afloat:
        return craft_order(ctx, space, target, stop)
    if stop is not None and target.distance(here) <= UNLOAD_AT:
        best = _best_drive(ctx, space, aim, move / 2, stop)
        if best is not None:
            return best
        dropping = Drive(space.vehicle, (), stop)
        return dropping if space.contains(dropping) else space.hold()
    if target.contains(here) and stop is None:
        return space.hold()
    best = _best_drive(ctx, space, aim, move, None)
    return best if best is not None else space.hold()


def objectives(ctx: Context) -> list[tuple[Polygon, XY]]:
    """The objectives of the scenario's victory, in its order, each with its centre (kept for the scenario)."""
    found: list[tuple[Polygon, XY]] | None = ctx.bot_cache.get("drive objectives")
    if found is None:
        spec = ctx.scenario.spec
        found = []
        for o in spec.objectives:
            if o.id in spec.victory.objectives:
                shape = Polygon(o.shape)
                c = shape.centroid
                found.append((shape, (c.x, c.y)))
        ctx.bot_cache["drive objectives"] = found
    return found


def craft_order(ctx: Context, space: DriveSpace, target: Polygon, stop: Any) -> Drive:
    """A landing craft (skirmish.27): grounded, it lands its passengers; afloat, it steers for the landing
    beach toward the objective (``landing.beach_toward``), running straight at it to ground there,
    with its men out on the same move when the beach is within half its move."""
    v = ctx.state.vehicles[space.vehicle]
    terrain = ctx.base_terrain
    if L.grounded(terrain, ctx.vehicle_shape(v)):
        dropping = Drive(space.vehicle, (), stop) if stop is not None else None
        return dropping if dropping is not None and space.contains(dropping) else space.hold()
    beach = L.beach_toward(terrain, target, (v.x, v.y))
    if beach is None:
        return space.hold()
    d = math.hypot(beach[0] - v.x, beach[1] - v.y)
    if d <= TOLERANCE:
        return space.hold()
    past = (snap(beach[0] + (beach[0] - v.x) / d * 3.0), snap(beach[1] + (beach[1] - v.y) / d * 3.0))
    for after in (stop, None):
        drive = Drive(space.vehicle, (past,), None, after)
        if space.contains(drive):
            return drive
    best = _best_drive(ctx, space, beach, ctx.tables.vehicles.kind(v.kind).move, None)
    return best if best is not None else space.hold()


def _best_drive(ctx: Context, space: DriveSpace, aim: XY, reach: float, after: Any) -> Drive | None:
    """The legal straight drive, at the aim or up to 60 degrees off it, that ends nearest the aim.

    A direction whose whole line (from the vehicle to where ``toward`` is sent) passes no nearer the aim than
    the best end found so far, or than half an inch nearer than the vehicle is, is not tried: no drive along
    it could be chosen (the ends ``toward`` finds lie on the line, to the 0.01" they are stored to). Nor is
    the rest of a direction's search once the part of its line where its drive will end passes no nearer
    than that (``toward``'s ``give_up``): the drive it would find could not be chosen either."""
    v = ctx.state.vehicles[space.vehicle]
    base = math.atan2(aim[1] - v.y, aim[0] - v.x)
    d = math.hypot(aim[0] - v.x, aim[1] - v.y)
    best: tuple[float, Drive] | None = None
    for off in (0, 20, -20, 40, -40, 60, -60):
        a = base + math.radians(off)
        r = min(reach, d) if off == 0 else reach
        to = (v.x + r * math.cos(a), v.y + r * math.sin(a))
        bound = d - 0.5 if best is None else min(d - 0.5, best[0])  # an end is chosen only nearer than this
        if _from_segment(aim, (v.x, v.y), to) - 0.02 >= bound:  # no end along it is nearer the aim than this
            continue
        drive = space.toward(*to, after=after, steps=5, give_up=functools.partial(_no_nearer, aim, bound))
        if drive is None or not drive.path:
            continue
        x, y = drive.path[-1]
        left = math.hypot(aim[0] - x, aim[1] - y)
        if left < d - 0.5 and (best is None or left < best[0]):
            best = (left, drive)
        if off == 0 and best is not None and math.hypot(x - v.x, y - v.y) >= r - 0.5:
            break  # straight at it went the whole way
    return best[1] if best is not None else None


def _no_nearer(aim: XY, bound: float, a: XY, b: XY) -> bool:
    """No drive ending on the line from ``a`` to ``b`` (to the 0.01" ends are stored to) ends nearer ``aim``
    than ``bound``."""
    return _from_segment(aim, a, b) - 0.02 >= bound


def _from_segment(p: XY, a: XY, b: XY) -> float:
    """The distance (inches) from ``p`` to the segment from ``a`` to ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    span = dx * dx + dy * dy
    t = 0.0 if span == 0 else min(1.0, max(0.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / span))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)
