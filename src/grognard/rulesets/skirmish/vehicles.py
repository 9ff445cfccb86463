"""Vehicles and the train as functions of the terrain and positions (skirmish.23, 44, 49, 50, 56-59, 62).

Pure, like ``rules``: each function reads a :class:`~.terrain.Terrain`, the
tables and positions (inches, headings in degrees: 0 east, counter-clockwise,
``core.geometry.snap_angle``) and returns a measure or a reason. The game
checks vehicle orders with them, the bots and faces look ahead with them.

A vehicle is its footprint, a ``length`` x ``width`` rectangle (tables,
``[vehicles.KIND]``) centred on its position with its long side along its
heading. A drive is a path of its centre (at most two waypoints and the end);
the vehicle turns to face along each leg, so its heading at the end is the
last leg's. The ground it covers is what its footprint sweeps: turning where it
stands at the start and at each waypoint, then straight along each leg.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from grognard.core.geometry import TOLERANCE, snap_angle
from grognard.rulesets.skirmish import swath as SW
from grognard.rulesets.skirmish.forces import vehicle_footprint
from grognard.rulesets.skirmish.terrain import Terrain, line_of

XY = tuple[float, float]
TURN_STEP = SW.TURN_STEP  # degrees between the footprints of a vehicle turning where it stands
STOPS_VEHICLES = {  # terrain kind -> the rule that stops a vehicle there
    "stone_wall": "skirmish.58",
    "sandbags": "skirmish.58",
    "boulder": "skirmish.58",
    "castle_wall": "skirmish.58",  # other vehicles stop at a castle wall too (a tank's is skirmish.62)
    "tank_trap": "skirmish.59",
    "train": "skirmish.44",
}
TANKS_KEPT_OUT = ("castle_wall", "tower", "castle")  # skirmish.62: a castle's walls, towers and ground, tanks only


def heading(a: XY, b: XY) -> float:
    """The heading (degrees) from ``a`` to ``b``.

    >>> heading((0, 0), (0, 5)), heading((3, 3), (1, 3))
    (90.0, 180.0)
    """
    return snap_angle(math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])))


def footprint(at: XY, facing: float, length: float, width: float) -> Polygon:
    """The vehicle's rectangle centred ``at``, its length along ``facing`` (degrees)."""
    return vehicle_footprint(at, facing, length, width)


def swept(path: Sequence[XY], facing: float, length: float, width: float) -> tuple[BaseGeometry, float]:
    """(the ground covered driving ``path``, the heading at its end); ``facing`` is the heading at its start.

    Along a straight leg the footprint sweeps the hull of its first and last
    places; at the start and at each waypoint it turns where it stands, through
    footprints every ``TURN_STEP`` degrees from the old heading to the new.
    """
    shapes = [footprint(path[0], facing, length, width)]
    for a, b in itertools.pairwise(path):
        leg = math.hypot(b[0] - a[0], b[1] - a[1])
        if leg <= TOLERANCE:
            continue
        new = heading(a, b)
        turn = math.remainder(new - facing, 360.0)
        steps = max(1, math.ceil(abs(turn) / TURN_STEP))
        for k in range(1, steps + 1):
            shapes.append(footprint(a, facing + turn * k / steps, length, width))
        facing = new
        shapes.append(
            cast(Polygon, footprint(a, facing, length, width).union(footprint(b, facing, length, width)).convex_hull)
        )
    return unary_union(shapes), facing


class Ground:
    """The ground a drive covers (``swept``), the part of it new to the vehicle (``fresh``: less its footprint
    at the start, shrunk by the tolerance), and what was found of ``fresh`` against other shapes (kept with
    the shape, by its identity, so that the same shape met again is not worked out again).

    Both are built only when a test needs them: ``swath.Swath`` answers first where its pieces say surely
    (a shape clear of them, or one its core surely meets), from the footprints' corners; ``box`` holds
    ``fresh`` (the outer pieces' bounds: a shape whose bounds are apart from it has nothing in common with
    ``fresh``)."""

    __slots__ = ("_made", "box", "drive", "found", "heading", "swath")

    def __init__(self, path: tuple[XY, ...], facing: float, length: float, width: float) -> None:
        self.drive = (path, facing, length, width)
        self.swath = SW.Swath(path, facing, length, width)
        self.heading = self.swath.heading
        self.box: tuple[float, float, float, float] = self.swath.box
        self._made: tuple[BaseGeometry, BaseGeometry] | None = None
        self.found: dict[tuple[Any, ...], tuple[BaseGeometry | None, bool]] = {}

    def _make(self) -> tuple[BaseGeometry, BaseGeometry]:
        if self._made is None:
            path, facing, length, width = self.drive
            ground, _ = swept(path, facing, length, width)
            start = footprint(path[0], facing, length, width)
            inside = _start_inside(path[0], facing, length, width) if start.area > 0 else None  # start.buffer(-tol)
            self._made = (ground, ground.difference(inside) if inside is not None else ground)
        return self._made

    @property
    def ground(self) -> BaseGeometry:
        return self._make()[0]

    @property
    def fresh(self) -> BaseGeometry:
        return self._make()[1]

    def apart(self, bounds: tuple[float, float, float, float]) -> bool:
        """Boxes apart: ``fresh`` has nothing in common with a shape of these bounds (a short cut)."""
        x0, y0, x1, y1 = bounds
        box = self.box
        return bool(x1 < box[0] or box[2] < x0 or y1 < box[1] or box[3] < y0)

    def leaves(self, width: float, depth: float, t: float) -> bool:
        """The ground's bounds pass a table ``width`` x ``depth`` by more than ``t``."""
        sure = self.swath.leaves(width, depth, t)
        if sure is not None:
            return sure
        minx, miny, maxx, maxy = self.ground.bounds
        return minx < -t or miny < -t or maxx > width + t or maxy > depth + t

    def meets(self, shape: BaseGeometry) -> bool:
        """``fresh`` intersects ``shape``."""
        swath = self.swath
        if swath.clear_of(shape):
            return False
        return swath.surely_meets(shape) or bool(self.fresh.intersects(shape))

    def stopped_by(self, shape: BaseGeometry, polygon_edge: bool) -> bool:
        """``fresh`` meets ``shape`` (a feature's, whose bounds are not apart); with ``polygon_edge``, more
        than touching an edge of it: ``measure_drive``'s test for the features that stop vehicles."""
        key = ("feature", id(shape))
        known = self.found.get(key)
        if known is not None:
            return known[1]
        swath = self.swath
        if swath.clear_of(shape):
            hit = False
        elif swath.surely_shares(shape, SW.EDGE) if polygon_edge else swath.surely_meets(shape):
            hit = True
        else:
            sure = swath.shares(shape, 1e-6) if polygon_edge else None
            if sure is not None:
                hit = sure
            else:
                hit = bool(self.fresh.intersects(shape))
                if hit and polygon_edge and shape.intersection(self.fresh).area <= 1e-6:
                    hit = False  # touches an edge only
        self.found[key] = (shape, hit)
        return hit

    def overlaps_disc(self, at: XY, radius: float) -> bool:
        """``overlaps(disc(at, radius))``: a man's base; surely no or yes from the swath's pieces alone."""
        key = ("disc", at, radius)
        known = self.found.get(key)
        if known is not None:
            return known[1]
        swath = self.swath
        if swath.disc_clear(at, radius):
            hit = False
        elif swath.disc_shares(at, radius, SW.AREA):
            hit = True
        else:
            shape = disc(at, radius)
            sure = swath.shares(shape, 0.01)
            hit = sure if sure is not None else bool(self.fresh.intersection(shape).area > 0.01)
        self.found[key] = (None, hit)
        return hit

    def overlaps(
        self, shape: BaseGeometry, bounds: tuple[float, float, float, float] | None = None, keep: bool = True
    ) -> bool:
        """``fresh`` and ``shape`` share more than 0.01 square inch (``keep``: what was found is kept)."""
        key = ("area", id(shape))
        known = self.found.get(key) if keep else None
        if known is not None:
            return known[1]
        box = shape.bounds if bounds is None else bounds
        swath = self.swath
        if self.apart(box) or swath.clear_of(shape):
            hit = False
        elif swath.surely_shares(shape, SW.AREA):
            hit = True
        else:
            sure = swath.shares(shape, 0.01)
            hit = sure if sure is not None else bool(self.fresh.intersection(shape).area > 0.01)
        if keep:
            self.found[key] = (shape, hit)
        return hit


DEEP = 0.125  # inches: a quarter disc this wide holds 0.0123 sq in, more than the 0.01 an overlap needs
CHORD = 0.003  # inches: a buffer's round ends (16 chords a quarter circle) lie this close inside the circle, and more


def sweep_meets(
    line: LineString, half: float, shape: BaseGeometry, body: Callable[[], BaseGeometry], side: float | None = None
) -> bool:
    """A base of radius ``half`` swept along ``line`` (``body()``: ``line.buffer(half)``) shares more than 0.01
    square inch with ``shape``. Worked out without the body where the answer is sure: no, when the line passes
    farther than ``half`` from the shape (by more than rounding: the body lies within that); yes, when ``shape``
    is a rectangle whose sides are at least ``side`` >= twice ``DEEP`` inches and the line passes within
    ``half`` less ``CHORD`` and ``DEEP`` of it. The body holds every point within ``half`` less ``CHORD`` of the
    line's point nearest the rectangle, so every point of the rectangle within ``DEEP`` of the rectangle's
    nearest point to it; with sides of twice that, those hold a quarter disc of radius ``DEEP`` (at a corner, or
    toward the farther end of an edge): pi/4 x 0.125^2 = 0.0123 sq in."""
    gap = float(shapely.distance(line, shape))
    if gap > half + 1e-6:
        return False
    if side is not None and side >= 2 * DEEP and gap <= half - CHORD - DEEP:
        return True
    return bool(body().intersection(shape).area > 0.01)


@functools.lru_cache(maxsize=1024)  # kept: every drive a vehicle is offered starts where it stands
def _start_inside(at: XY, facing: float, length: float, width: float) -> BaseGeometry:
    """The vehicle's footprint at the start of a drive, shrunk by the tolerance (what ``Ground`` leaves out)."""
    return footprint(at, facing, length, width).buffer(-TOLERANCE)


@functools.lru_cache(maxsize=4096)  # kept: every drive checked is checked against every man on foot
def disc(at: XY, radius: float) -> BaseGeometry:
    """A man's base as a shape: the disc of ``radius`` inches about ``at``."""
    return Point(at).buffer(radius)


@functools.lru_cache(maxsize=4096)  # kept: a vehicle held up is offered the same drives turn after turn
def ground_of(path: tuple[XY, ...], facing: float, length: float, width: float) -> Ground:
    """The :class:`Ground` of driving ``path`` (start first) from heading ``facing``."""
    return Ground(path, facing, length, width)


@dataclass
class DriveMeasure:
    """What a drive costs (inches of the vehicle's move) and what it meets; ``problem`` is (rule, why)."""

    length: float
    cost: float
    heading: float
    parts: dict[str, float] = field(default_factory=dict)
    rivers: int = 0
    problem: tuple[str, str] | None = None

    def describe(self) -> str:
        extras = ", ".join(f"{k} {v:+.2f}" for k, v in self.parts.items() if abs(v) > 1e-9)
        return f'{self.cost:.2f}" ({self.length:.2f}" driven' + (f"; {extras})" if extras else ")")


def measure_drive(
    terrain: Terrain,
    path: Sequence[XY],
    *,
    kind: str,
    facing: float,
    allowance: float,
    river_paid: bool = False,
    others: Iterable[tuple[str, BaseGeometry]] = (),
    men: Sequence[tuple[str, XY]] = (),
    radius: float = 0.0,
    ground_ok: bool = False,
    costs: dict[Any, Any] | None = None,
) -> DriveMeasure:
    """The cost of driving ``path`` (the centre's, start first) for a vehicle of ``kind`` whose move is
    ``allowance`` inches, and the first rule it breaks.

    Costs: every inch driven, an inch of road at ``vehicles.road_cost`` (S15),
    ``uphill_per_inch`` per inch climbed, half the vehicle's move once for each
    river its centre enters (skirmish.49; none for the river it stands in, if
    paid). Wire, bushes and small rocks cost nothing (skirmish.58). Refused
    (``problem``): leaving the table (skirmish.2); a pond or bay (skirmish.50);
    walls, sandbags, boulders (skirmish.58), buildings and cliffs (skirmish.58,
    reading); tank traps (skirmish.59); the train (skirmish.44); a tank into a
    castle (skirmish.62); and anything in ``others`` ((what, shape): other
    vehicles and men on foot), then ``men`` ((who, where): men on foot as
    discs of ``radius`` inches, made only for those near the drive). ``ground_ok``: the caller found no
    ``ground_problem`` for this drive on this terrain (it is not looked for again). ``costs``: a memo of the
    costs (pure functions of the path and the terrain's roads, hills and rivers) for this terrain's ground.
    """
    tables = terrain.tables
    entry = tables.vehicles.kind(kind)
    start_heading = facing
    if len(path) < 2:
        return DriveMeasure(0.0, 0.0, start_heading)
    line = line_of(tuple((p[0], p[1]) for p in path))
    measure = DriveMeasure(line.length, line.length, start_heading)
    if line.length <= TOLERANCE:
        return measure
    drive = ground_of(tuple(path), facing, entry.length, entry.width)
    measure.heading = drive.heading
    measure.problem = None if ground_ok else _ground_problem(terrain, drive, kind)
    if measure.problem is not None:
        return measure
    others = list(others)
    x0, y0, x1, y1 = drive.box
    if others:
        boxes = shapely.bounds(np.array([shape for _, shape in others], dtype=object))
        # Ground.apart over the array: only the shapes whose boxes are not apart from it can meet it
        close = ~((boxes[:, 2] < x0) | (x1 < boxes[:, 0]) | (boxes[:, 3] < y0) | (y1 < boxes[:, 1]))
        for k in close.nonzero()[0].tolist():  # np.flatnonzero without its dispatch (a 1-d mask)
            what, shape = others[k]
            if drive.overlaps(shape, tuple(boxes[k].tolist())):
                measure.problem = ("skirmish.23", f"{what} is in the way")
                return measure
    if men:
        xy = np.array([at for _, at in men], dtype=float)
        grow = radius + 1e-6  # a disc's box lies within its centre's box grown by its radius (and rounding)
        close = ~((xy[:, 0] + grow < x0) | (x1 < xy[:, 0] - grow) | (xy[:, 1] + grow < y0) | (y1 < xy[:, 1] - grow))
        for k in close.nonzero()[0].tolist():  # np.flatnonzero without its dispatch (a 1-d mask)
            what, at = men[k]
            if drive.overlaps_disc(at, radius):
                measure.problem = ("skirmish.23", f"{what} is in the way")
                return measure
    key = ("drive costs", tuple(path), river_paid, allowance)
    known = costs.get(key) if costs is not None else None
    if known is not None:
        measure.parts.update(known[0])
        measure.rivers = known[1]
    else:
        _costs(terrain, line, path, river_paid, allowance, measure)
        if costs is not None:
            costs[key] = (dict(measure.parts), measure.rivers)
    measure.cost = measure.length + sum(measure.parts.values())
    return measure


def _costs(
    terrain: Terrain, line: LineString, path: Sequence[XY], river_paid: bool, allowance: float, measure: DriveMeasure
) -> None:
    """``measure_drive``'s costs of driving ``line`` (``path``'s): its parts and the rivers entered."""
    tables = terrain.tables
    parts = measure.parts
    if not terrain.road.is_empty and terrain.road.intersects(line):
        on_road = line.intersection(terrain.road).length
        parts["road"] = (tables.vehicles.road_cost.value - 1.0) * on_road
    if terrain.hills:
        up = 0.0
        for (_, _, h0), (_, _, h1) in itertools.pairwise(terrain.profile(line)):
            up += max(0.0, h1 - h0)
        if up:
            parts["uphill"] = up * tables.movement.uphill_per_inch.value
    if not terrain.river.is_empty and terrain.river.intersects(line):
        pieces = [p for p in _pieces(line.intersection(terrain.river)) if p.length > TOLERANCE]
        entries = len(pieces)
        if river_paid and any(p.distance(Point(path[0])) <= TOLERANCE for p in pieces):
            entries -= 1
        measure.rivers = entries
        if entries:
            parts["river"] = entries * tables.movement.river_loss.value * allowance


def no_length(path: Sequence[XY]) -> bool:
    """``line_of(path).length <= TOLERANCE`` (the test of a path too short to look for anything in its way),
    from the legs' lengths by ``math.hypot`` when their sum is far from the tolerance (GEOS's sum and it differ
    by rounding); else by the line itself."""
    total = 0.0
    for a, b in itertools.pairwise(path):
        total += math.hypot(b[0] - a[0], b[1] - a[1])
    if total > 2 * TOLERANCE:
        return False
    if total < TOLERANCE / 2:
        return True
    return bool(line_of(tuple((p[0], p[1]) for p in path)).length <= TOLERANCE)


def ground_problem(
    terrain: Terrain, path: Sequence[XY], *, kind: str, facing: float, memo: dict[Any, Any] | None = None
) -> tuple[str, str] | None:
    """The first rule ``measure_drive`` finds broken by the ground alone, as (rule, why), or None: leaving
    the table, a pond, a feature that stops vehicles, a building, a cliff (its ``others`` and ``men`` aside).
    A pure function of the terrain and the drive, kept in ``memo`` (the terrain's, ``Context.sight_memo``)
    when given: a vehicle held up is offered the same drives turn after turn."""
    key = ("drive ground", tuple(path), kind, facing)
    if memo is not None and key in memo:
        found: tuple[str, str] | None = memo[key]
        return found
    found = None
    if len(path) >= 2 and not no_length(path):
        entry = terrain.tables.vehicles.kind(kind)
        found = _ground_problem(terrain, ground_of(tuple(path), facing, entry.length, entry.width), kind)
    if memo is not None:
        memo[key] = found
    return found


def _ground_problem(terrain: Terrain, drive: Ground, kind: str) -> tuple[str, str] | None:
    if drive.leaves(terrain.width, terrain.depth, TOLERANCE):
        return ("skirmish.2", "the vehicle would leave the table")
    if not terrain.pond.is_empty and drive.overlaps(terrain.pond, keep=False):
        return ("skirmish.50", "no vehicle may enter a pond or bay")
    boxes = terrain.feature_box_array
    x0, y0, x1, y1 = drive.box
    # Ground.apart over the array: the features whose boxes are apart from the fresh ground, in order, left out
    close = ~((boxes[:, 2] < x0) | (x1 < boxes[:, 0]) | (boxes[:, 3] < y0) | (y1 < boxes[:, 1]))
    for k in close.nonzero()[0].tolist():  # np.flatnonzero without its dispatch (a 1-d mask)
        feature = terrain.features[k]
        rule = STOPS_VEHICLES.get(feature.kind)
        if feature.kind in TANKS_KEPT_OUT and kind == "tank":
            rule = "skirmish.62"
        if rule is None:
            continue
        if not drive.stopped_by(feature.shape, feature.shape.geom_type == "Polygon"):
            continue
        what = feature.kind.replace("_", " ")
        why = {
            "skirmish.58": f"vehicles cannot cross walls, sandbags or boulders: {what} {feature.id} is in the way",
            "skirmish.59": f"vehicles cannot cross tank traps: {feature.id} is in the way",
            "skirmish.44": "the train is in the way (it cannot be boarded or driven through)",
            "skirmish.62": f"tanks cannot enter a castle: {what} {feature.id}",
        }[rule]
        return (rule, why)
    for building in terrain.buildings:
        if drive.overlaps(building.shape):
            return ("skirmish.58", f"vehicles cannot drive through building {building.id}")
    for cliff in terrain.cliffs:
        if drive.meets(cliff.shape):
            return ("skirmish.58", f"vehicles cannot cross the cliff {cliff.id}")
    return None


def _pieces(geometry: BaseGeometry) -> list[LineString]:
    if geometry.geom_type == "LineString":
        return [cast(LineString, geometry)]
    return [g for g in getattr(geometry, "geoms", []) if g.geom_type == "LineString"]


def abreast_on_road(terrain: Terrain, a: XY, a_facing: float, b: XY, length: float) -> bool:
    """Two vehicles at ``a`` and ``b`` stand side by side on one road (skirmish.56: single file only).

    Both centres on the same road, and ``b`` less than ``length`` (the moving
    vehicle's) ahead of or behind ``a`` along ``a``'s heading, while off its
    centre line by more than a base's width: the one beside the other.
    """
    h = math.radians(a_facing)
    dx, dy = b[0] - a[0], b[1] - a[1]
    along = dx * math.cos(h) + dy * math.sin(h)
    across = -dx * math.sin(h) + dy * math.cos(h)
    if not (abs(along) < length and abs(across) > TOLERANCE):
        return False  # not beside it, on whatever road (the roads are asked only of one that is)
    for road in terrain.by_kind("road"):
        # covers(Point(...)), without making the points: a point is covered exactly when it meets the shape
        if shapely.intersects_xy(road.shape, *a) and shapely.intersects_xy(road.shape, *b):
            return True
    return False


# ------------------------------------------------------------------------------ the train
def train_shape(terrain: Terrain, railway: str, head: float) -> BaseGeometry | None:
    """The train's ground when its head has run ``head`` inches along ``railway``: the railway's
    band from ``head - train_length`` to ``head``, or None while it is off the board (skirmish.44)."""
    feature = next(f for f in terrain.by_kind("railway") if f.id == railway)
    assert feature.line is not None
    line = cast(LineString, feature.line)
    length = terrain.tables.vehicles.train_length.value
    lo, hi = max(0.0, head - length), min(line.length, head)
    if hi - lo <= TOLERANCE:
        return None
    width = feature.shape.area / max(line.length, TOLERANCE)
    piece = _substring(line, lo, hi)
    return piece.buffer(width / 2, cap_style="flat")


def _substring(line: LineString, lo: float, hi: float) -> LineString:
    from shapely.ops import substring

    piece = substring(line, lo, hi)
    assert isinstance(piece, LineString)
    return piece


def train_run(
    terrain: Terrain,
    railway: str,
    head: float,
    blockers: Iterable[BaseGeometry],
    men: Sequence[XY] = (),
    radius: float = 0.0,
) -> float:
    """How far the train's head runs this move from ``head``: ``train_move`` inches, less where something
    stands on the line ahead (reading: it stops short of men and vehicles on the track). ``men``: the centres
    of more blockers, each a man's base of ``radius`` (``Point(at).buffer(radius)``), made only for the men
    whose box meets the track's ahead (a base lies within its centre's box grown by its radius)."""
    step = terrain.tables.vehicles.train_move.value
    feature = next(f for f in terrain.by_kind("railway") if f.id == railway)
    line = cast(LineString, feature.line)
    width = feature.shape.area / max(line.length, TOLERANCE)
    lo, hi = max(0.0, head), min(line.length, head + step)
    if hi - lo <= TOLERANCE:
        return step
    ahead = _substring(line, lo, hi).buffer(width / 2, cap_style="flat")
    x0, y0, x1, y1 = ahead.bounds
    grow = radius + 1e-6  # and rounding
    near = [at for at in men if x0 - grow <= at[0] <= x1 + grow and y0 - grow <= at[1] <= y1 + grow]
    best = step
    for shape in itertools.chain(blockers, (Point(at).buffer(radius) for at in near)):
        if not ahead.intersects(shape):
            continue
        first = min(line.project(Point(c)) for c in _corners(ahead.intersection(shape)))
        best = min(best, max(0.0, first - head - 0.5))
    return best


def _corners(geometry: BaseGeometry) -> list[XY]:
    if geometry.geom_type == "Polygon":
        return [(x, y) for x, y in cast(Polygon, geometry).exterior.coords]
    if geometry.geom_type == "Point":
        point = cast(Point, geometry)
        return [(point.x, point.y)]
    out: list[XY] = []
    for g in getattr(geometry, "geoms", []):
        out += _corners(g)
    return out
