"""The measure of a man's path on foot (skirmish.3, 47, 51-53, 65, 73, 74, 76): its length, what it costs in
inches of move (ponds, roads, rivers, wire, walls, boulders, hills) and what it may not cross (cliffs, a
building's or a castle's wall but at an open door). A pure function of a :class:`~.terrain.Terrain` and the
path's points (inches, the rule set's conventions: ``rules``' module docstring); apart from ``rules`` for its
length.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.terrain import ALL_DEAD, CastleWall, Terrain, _points, line_of

XY = tuple[float, float]


@dataclass
class PathMeasure:
    """What a path costs (inches of move) and what it passes: the parts of the cost are kept for messages."""

    length: float
    cost: float
    parts: dict[str, float] = field(default_factory=dict)
    rivers: int = 0
    wires: int = 0
    walls: int = 0
    boulders: int = 0
    climbed: float = 0.0
    doors: list[str] = field(default_factory=list)
    problem: tuple[str, str] | None = None  # (rule, why) when the path may not be walked at all

    def describe(self) -> str:
        extras = ", ".join(f"{k} {v:+.2f}" for k, v in self.parts.items() if abs(v) > 1e-9)
        return f'{self.cost:.2f}" ({self.length:.2f}" walked' + (f"; {extras})" if extras else ")")


def measure_path(
    terrain: Terrain,
    points: Sequence[XY],
    allowance: float,
    *,
    river_paid: bool = False,
    open_doors: Iterable[str] = (),
) -> PathMeasure:
    """The cost of walking ``points`` (start first) for a man whose move is ``allowance`` inches.

    Costs (skirmish.3, 47, 51, 52): every inch walked, ponds and bays twice
    over, roads at ``road_cost``; half the man's move once for each river he
    enters (none for the one he stands in, if paid); 3" per wire crossed;
    ``wall_crossing`` per wall or sandbags and ``boulder_crossing`` per boulder
    climbed; ``uphill_per_inch`` per inch of height climbed. Sets ``problem``
    for a path that crosses a cliff or a building's wall other than at an open
    door.

    Worked out as shapely would, with less asked of it: the length in plain arithmetic (``_length``), a shape
    whose box lies apart from the path's (``_apart``) passed over as one it does not meet, and the path's line
    made only when some shape is asked (``tests/test_skirmish_path_boxes.py``: the same measure, bit for bit).
    """
    m = terrain.tables.movement
    if len(points) < 2:
        return PathMeasure(0.0, 0.0)
    length = _length(points)
    measure = PathMeasure(length, length)
    if length <= 1e-9:
        return measure
    box = _box(points)
    boxes = _boxes(terrain)
    made: list[LineString] = []
    kept: list[Point] = []

    def line() -> LineString:  # the path's centre line (made only when a shape's box meets the path's)
        if not made:
            made.append(line_of(tuple((p[0], p[1]) for p in points)))
        return made[0]

    def start() -> Point:  # where he starts, as a point (made only when a test needs it)
        if not kept:
            kept.append(Point(points[0]))
        return kept[0]

    parts = measure.parts
    for (name, zone, factor), zone_box in zip(terrain.zones, boxes.zones, strict=True):
        if not _apart(box, zone_box) and zone.intersects(line()):
            inside = line().intersection(zone).length
            parts[name] = parts.get(name, 0.0) + (factor - 1.0) * inside
    if terrain.hills and not all(_apart(box, hill) for hill in terrain.hill_boxes):  # else flat: Terrain.profile's
        up = down = 0.0
        profile = terrain.profile(line())
        for (_, _, h0), (_, _, h1) in itertools.pairwise(profile):
            if h1 > h0:
                up += h1 - h0
            else:
                down += h0 - h1
        measure.climbed = up
        if up:
            parts["uphill"] = up * m.uphill_per_inch.value
        if down and m.downhill_per_inch.value:
            parts["downhill"] = down * m.downhill_per_inch.value
    if not terrain.river.is_empty and not _apart(box, boxes.river) and terrain.river.intersects(line()):
        pieces = [p for p in R._pieces(line().intersection(terrain.river)) if p.length > TOLERANCE]
        entries = len(pieces)
        if river_paid and any(p.distance(start()) <= TOLERANCE for p in pieces):
            entries -= 1
        elif not pieces and terrain.river.covers(start()):
            entries = 0
        measure.rivers = entries
        if entries:
            parts["river"] = entries * m.river_loss.value * allowance
    if terrain.wire is not None and not _apart(box, boxes.wire) and terrain.wire.intersects(line()):
        crossings = _crossings(line().intersection(terrain.wire), start())
        measure.wires = crossings
        parts["wire"] = crossings * m.wire_loss.value
    for wall, wall_box in zip(terrain.crossings, boxes.crossings, strict=True):
        if wall.line is not None and not _apart(box, wall_box) and wall.line.intersects(line()):
            measure.walls += _crossings(line().intersection(wall.line), start())
    if measure.walls:
        parts["walls"] = measure.walls * m.wall_crossing.value
    for boulder, boulder_box in zip(terrain.boulders, boxes.boulders, strict=True):
        if not _apart(box, boulder_box) and boulder.shape.intersects(line()):
            measure.boulders += sum(
                1
                for p in R._pieces(line().intersection(boulder.shape))
                if p.length > TOLERANCE and p.distance(start()) > TOLERANCE  # not the one he stands on: paid
            )
    if measure.boulders:
        parts["boulders"] = measure.boulders * m.boulder_crossing.value
    measure.cost = length + sum(parts.values())
    for cliff, cliff_box in zip(terrain.cliffs, boxes.cliffs, strict=True):
        if not _apart(box, cliff_box) and cliff.shape.intersects(line()):
            touching = _points(line().intersection(cliff.shape))
            if any(p.distance(start()) > TOLERANCE for p in touching):
                measure.problem = ("skirmish.3", f"the path crosses the cliff {cliff.id} (men cannot climb cliffs)")
                return measure
    opened = set(open_doors)
    for building, building_box in zip(terrain.buildings, boxes.buildings, strict=True):
        if _apart(box, building_box) or not building.shape.intersects(line()):
            continue
        for point in _points(line().intersection(building.shape.exterior)):
            door = R._opening_at(building, point, doors_only=True)
            if door is None:
                measure.problem = (
                    "skirmish.65",
                    f"the path goes through the wall of building {building.id} at "
                    f"({point.x:.2f}, {point.y:.2f}), not through a door",
                )
                return measure
            if door not in opened:
                measure.problem = ("skirmish.65", f"door {door} of building {building.id} is closed")
                return measure
            if door not in measure.doors:
                measure.doors.append(door)
    for castle, castle_box in zip(terrain.walls, boxes.walls, strict=True):
        if _apart(box, castle_box) or not castle.line.intersects(line()):
            continue
        for point in _points(line().intersection(castle.line)):
            if _breach(terrain, castle, point):
                continue  # the stretch is gone (0 points): rubble men climb over
            door = R._opening_at(castle, point, doors_only=True)
            if door is None:
                measure.problem = (
                    "skirmish.76",
                    f"the path goes through castle wall {castle.id} at ({point.x:.2f}, {point.y:.2f}): men pass it "
                    "by its doors, or go onto it at a corner or up a ladder",
                )
                return measure
            if door not in opened:
                measure.problem = ("skirmish.73", f"door {door} of castle wall {castle.id} is closed")
                return measure
            if door not in measure.doors:
                measure.doors.append(door)
    return measure


Box = tuple[float, float, float, float]  # (min x, min y, max x, max y), inches


@dataclass(frozen=True)
class _Boxes:
    """The boxes (shapely's ``bounds``) of a terrain's shapes a path is measured against, in the terrain's
    orders; ``of``: the terrain's zones list they were taken with (a new list, new boxes)."""

    of: list[tuple[str, BaseGeometry, float]]
    zones: list[Box]
    river: Box
    wire: Box
    crossings: list[Box]
    boulders: list[Box]
    cliffs: list[Box]
    buildings: list[Box]
    walls: list[Box]


NO_BOX: Box = (math.inf, math.inf, -math.inf, -math.inf)  # of no shape: apart from every path's box


def _boxes(terrain: Terrain) -> _Boxes:
    """The boxes of ``terrain``'s shapes, found once and kept with the terrain (its shapes never change once
    it is finished; a terrain finished anew has a new zones list, and its boxes are found again)."""
    found = terrain.__dict__.get("_path_boxes")
    if isinstance(found, _Boxes) and found.of is terrain.zones:
        return found

    def of(shape: BaseGeometry | None) -> Box:
        if shape is None or shape.is_empty:
            return NO_BOX
        x0, y0, x1, y1 = shape.bounds
        return (x0, y0, x1, y1)

    found = _Boxes(
        terrain.zones,
        [of(zone) for _, zone, _ in terrain.zones],
        of(terrain.river),
        of(terrain.wire),
        [of(wall.line) for wall in terrain.crossings],
        [of(boulder.shape) for boulder in terrain.boulders],
        [of(cliff.shape) for cliff in terrain.cliffs],
        [of(building.shape) for building in terrain.buildings],
        [of(castle.line) for castle in terrain.walls],
    )
    terrain.__dict__["_path_boxes"] = found
    return found


def _box(points: Sequence[XY]) -> Box:
    """The box of a path's points."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _apart(a: Box, b: Box) -> bool:
    """Two boxes apart by more than rounding (1e-9 inch) along an axis: no shape within one meets a shape within
    the other, so shapely's ``intersects`` of the two is False (it first tests the shapes' boxes, exactly)."""
    return b[0] > a[2] + 1e-9 or a[0] > b[2] + 1e-9 or b[1] > a[3] + 1e-9 or a[1] > b[3] + 1e-9


def _length(points: Sequence[XY]) -> float:
    """The path's length as shapely's ``LineString(points).length`` finds it (GEOS's ``Length::ofLine``: from
    0.0, each leg's ``sqrt(dx * dx + dy * dy)`` added in turn), the same float."""
    total = 0.0
    x0, y0 = points[0][0], points[0][1]
    for p in points[1:]:
        x1, y1 = p[0], p[1]
        dx, dy = x1 - x0, y1 - y0
        total += math.sqrt(dx * dx + dy * dy)
        x0, y0 = x1, y1
    return total


def _crossings(geometry: object, start: Point) -> int:
    """Places a path crosses a line, the one it starts on left out (paid by the move that ended there)."""
    return sum(1 for p in _points(cast(BaseGeometry, geometry)) if p.distance(start) > TOLERANCE)


def _breach(terrain: Terrain, wall: CastleWall, point: Point) -> bool:
    """``point`` on ``wall``'s line lies on a section with no points left (skirmish.74: a breach)."""
    return any(
        sec.line.distance(point) <= TOLERANCE and terrain.section_states.get(sec.id) == ALL_DEAD
        for sec in wall.sections
    )
