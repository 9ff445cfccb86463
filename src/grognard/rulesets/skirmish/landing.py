"""Landing craft and paratroop landings as functions of the terrain (skirmish.26, 27, 28).

Pure, like ``vehicles``: each function reads a :class:`~.terrain.Terrain` and
positions (inches; headings in degrees, 0 east, counter-clockwise) and returns
a measure or a place. The game (``driving.VehicleRules``, ``LandingRules``)
rolls the dice and changes the state.

The seed's tables for both are lost (RULINGS S1); the numbers are the tables'
``[vehicles.landing_craft]``, ``[vehicles] ramp_reach`` and ``[paratroops]``,
marked grognard defaults. Readings (docs/rules/skirmish.md):

- A landing craft is a vehicle that moves only on water (ponds and bays): its
  footprint stays in the water. Driven at the land it runs along its path
  until its footprint meets the shore (where water meets land) and stops
  there, **grounded**; the rest of the path is not driven. A craft is
  grounded when its footprint is within 0.01" of dry land. Grounded, it stays
  on the beach; its ramp goes down only then (men get in or out only when it
  is grounded), and men getting out stand on dry land within ``ramp_reach``
  of its bow.
- A paratrooper aims at a point; he lands ``scatter_per_pip`` x a d6 inches
  from it toward the hour of a d12 on a clock face (12 north, 3 east, 6 south,
  9 west).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from grognard.core.geometry import TOLERANCE, snap
from grognard.rulesets.skirmish.terrain import Terrain
from grognard.rulesets.skirmish.vehicles import DriveMeasure, footprint, heading

XY = tuple[float, float]
HARD_LANDING = ("stone_wall", "sandbags", "boulder", "tank_trap", "cliff", "train")  # besides woods and buildings
CRAFT_AND_VEHICLES = ("jeep", "truck", "half_track", "tank", "landing_craft")


def water(terrain: Terrain) -> BaseGeometry:
    """The table's ponds and bays (where craft float and men swim)."""
    return terrain.pond


def dry_land(terrain: Terrain) -> BaseGeometry:
    """The table less its ponds and bays."""
    table = box(0.0, 0.0, terrain.width, terrain.depth)
    return table.difference(terrain.pond) if not terrain.pond.is_empty else table


def shore_gap(terrain: Terrain, shape: BaseGeometry) -> float:
    """Inches from ``shape`` (a craft's footprint) to dry land; 0 when it touches or lies on land."""
    land = dry_land(terrain)
    return 0.0 if land.is_empty else float(shape.distance(land))


def afloat(terrain: Terrain, shape: BaseGeometry, width: float, slack: float = 0.5) -> bool:
    """``shape`` lies in the water, allowing a sliver ``slack`` x ``TOLERANCE`` deep along a side ``width`` long
    (a position stored to 0.01" may poke that far past the shore)."""
    return float(shape.difference(terrain.pond).area) <= slack * TOLERANCE * width + 1e-9


def grounded(terrain: Terrain, shape: BaseGeometry) -> bool:
    """A craft whose footprint is within 0.01" of dry land has grounded (skirmish.27)."""
    return shore_gap(terrain, shape) <= TOLERANCE


@dataclass
class Sail:
    """A landing craft's drive: the measure (``problem`` as (rule, why)), where it ends and whether it grounded
    there (then ``short`` is how much of the ordered path it did not drive, inches)."""

    measure: DriveMeasure
    end: XY
    grounded: bool = False
    short: float = 0.0


def measure_sail(
    terrain: Terrain,
    path: Sequence[XY],
    *,
    length: float,
    width: float,
    facing: float,
    others: Iterable[tuple[str, BaseGeometry]] = (),
) -> Sail:
    """Sail a craft ``length`` x ``width`` inches along ``path`` (its centre's, start first; ``facing`` its
    heading at the start, degrees) until its footprint meets dry land (skirmish.27).

    Refused (``measure.problem``): a craft that has grounded (it stays on the
    beach), a turn that would put it aground, leaving the table (skirmish.2),
    anything in ``others`` in the way (skirmish.23). Every inch sailed costs an
    inch; there are no roads, hills or rivers on the water.
    """
    start = (path[0][0], path[0][1])
    measure = DriveMeasure(0.0, 0.0, facing)
    if len(path) < 2:
        return Sail(measure, start, grounded(terrain, footprint(start, facing, length, width)))
    if grounded(terrain, footprint(start, facing, length, width)):
        measure.problem = ("skirmish.27", "it has grounded: a landing craft stays on the beach")
        return Sail(measure, start, True)
    here, head = start, facing
    driven: list[XY] = [start]
    ground: list[BaseGeometry] = []
    ordered = LineString(path).length
    stopped = False
    for b in path[1:]:
        leg = math.hypot(b[0] - here[0], b[1] - here[1])
        if leg <= TOLERANCE:
            continue
        new = heading(here, b)
        turn = math.remainder(new - head, 360.0)
        steps = max(1, math.ceil(abs(turn) / 30.0))
        for k in range(1, steps + 1):
            turning = footprint(here, head + turn * k / steps, length, width)
            if not afloat(terrain, turning, width):
                measure.problem = ("skirmish.27", f"turning at {here[0]:g},{here[1]:g} would run it aground")
                return Sail(measure, here)
            ground.append(turning)
        head = new
        first = footprint(here, head, length, width)

        def hull(
            t: float, a: XY = here, d: XY = (b[0] - here[0], b[1] - here[1]), f: Polygon = first, h: float = head
        ) -> Polygon:
            p = (a[0] + t * d[0], a[1] + t * d[1])
            return cast(Polygon, f.union(footprint(p, h, length, width)).convex_hull)

        if afloat(terrain, hull(1.0), width):
            ground.append(hull(1.0))
            here = (b[0], b[1])
            driven.append(here)
            continue
        lo, hi = 0.0, 1.0
        for _ in range(40):
            mid = (lo + hi) / 2
            if afloat(terrain, hull(mid), width, slack=0.0):
                lo = mid
            else:
                hi = mid
        here = (snap(here[0] + lo * (b[0] - here[0])), snap(here[1] + lo * (b[1] - here[1])))
        ground.append(hull(lo))
        driven.append(here)
        stopped = True
        break
    line = LineString(driven) if len(driven) > 1 else None
    measure.length = measure.cost = line.length if line is not None else 0.0
    measure.heading = head
    swept = unary_union(ground) if ground else footprint(start, facing, length, width)
    minx, miny, maxx, maxy = swept.bounds
    t = TOLERANCE
    if minx < -t or miny < -t or maxx > terrain.width + t or maxy > terrain.depth + t:
        measure.problem = ("skirmish.2", "the craft would leave the table")
        return Sail(measure, here)
    fresh = swept.difference(footprint(start, facing, length, width).buffer(-TOLERANCE))
    for what, shape in others:
        if fresh.intersection(shape).area > 0.01:
            measure.problem = ("skirmish.23", f"{what} is in the way")
            return Sail(measure, here)
    end_shape = footprint(here, head, length, width)
    aground = grounded(terrain, end_shape)
    return Sail(measure, here, aground, max(0.0, ordered - measure.length) if stopped or aground else 0.0)


def beach_toward(terrain: Terrain, target: BaseGeometry, start: XY) -> XY | None:
    """The landing beach for a craft at ``start`` bound for ``target``: of the points of the shore (where
    ponds and bays meet dry land, not the table's edge, every half inch), the one with the shortest way
    sailed from ``start`` plus walked to ``target``; None if the table has no shore."""
    if terrain.pond.is_empty:
        return None
    table = box(0.0, 0.0, terrain.width, terrain.depth)
    shore = terrain.pond.boundary.difference(table.exterior.buffer(TOLERANCE))
    if shore.is_empty:
        return None
    lines = list(getattr(shore, "geoms", [shore]))
    best: tuple[float, XY] | None = None
    for line in lines:
        n = max(1, int(line.length / 0.5))
        for k in range(n + 1):
            p = line.interpolate(line.length * k / n)
            way = math.hypot(p.x - start[0], p.y - start[1]) + p.distance(target)
            if best is None or way < best[0] - 1e-9:
                best = (way, (snap(p.x), snap(p.y)))
    return best[1] if best is not None else None


def bow(at: XY, facing: float, length: float) -> XY:
    """The middle of a craft's bow (its front edge), where the ramp comes down."""
    h = math.radians(facing)
    return (at[0] + math.cos(h) * length / 2, at[1] + math.sin(h) * length / 2)


def ramp_spots(terrain: Terrain, at: XY, facing: float, length: float, width: float, reach: float) -> list[XY]:
    """Places on dry land within ``reach`` of a grounded craft's bow, nearest the bow first (a grid a base
    apart in front of it, then to its sides); the caller keeps out the occupied ones."""
    h = math.radians(facing)
    ux, uy = math.cos(h), math.sin(h)
    bx, by = bow(at, facing, length)
    land = dry_land(terrain)
    hull = footprint(at, facing, length, width)
    out: list[tuple[float, XY]] = []
    steps = int(reach)
    for i in range(0, steps + 1):
        for j in range(-steps, steps + 1):
            x = bx + ux * (i + 0.75) - uy * j
            y = by + uy * (i + 0.75) + ux * j
            p = Point(x, y)
            d = math.hypot(x - bx, y - by)
            if d > reach + TOLERANCE or not land.covers(p) or p.distance(hull) < 0.5:
                continue
            out.append((d, (snap(x), snap(y))))
    out.sort()
    return [xy for _, xy in out]


def scatter(aim: XY, pips: int, hour: int, per_pip: float) -> XY:
    """Where a man aimed at ``aim`` comes down: ``pips`` x ``per_pip`` inches toward the clock ``hour``
    (1-12; 12 north, 3 east), stored to 0.01".

    >>> scatter((10.0, 10.0), 3, 12, 1.0), scatter((10.0, 10.0), 2, 3, 1.0), scatter((10.0, 10.0), 6, 9, 1.0)
    ((10.0, 13.0), (12.0, 10.0), (4.0, 10.0))
    """
    angle = math.radians(90.0 - 30.0 * hour)
    d = pips * per_pip
    return (snap(aim[0] + d * math.cos(angle)), snap(aim[1] + d * math.sin(angle)))


def landing_ground(terrain: Terrain, at: XY) -> str:
    """What a paratrooper comes down on at ``at``: ``off`` (the table), ``water`` (a pond or bay), ``hard``
    (woods, a building, wall, sandbags, boulder, tank trap, cliff, a vehicle or the train), ``river`` or
    ``ground`` (skirmish.26)."""
    x, y = at
    if not terrain.on_table(x, y):
        return "off"
    if terrain.in_pond(x, y):
        return "water"
    p = Point(x, y)
    if terrain.building_at(x, y) is not None:
        return "hard"
    for f in terrain.features:
        if f.kind == "woods" and f.shape.covers(p):
            return "hard"
        if (f.kind in HARD_LANDING or f.kind in CRAFT_AND_VEHICLES) and (f.shape.distance(p) <= 0.5):
            return "hard"
    if terrain.in_river(x, y):
        return "river"
    return "ground"
