"""The measure of a man's path on foot (skirmish.3, 47, 51-53, 65, 73, 74, 76): its length, what it costs in
inches of move (ponds, roads, rivers, wire, walls, boulders, hills) and what it may not cross (cliffs, a
building's or a castle's wall but at an open door). A pure function of a :class:`~.terrain.Terrain` and the
path's points (inches, the rule set's conventions: ``rules``' module docstring); apart from ``rules`` for its
length.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

from shapely.geometry import Point
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
    """
    m = terrain.tables.movement
    if len(points) < 2:
        return PathMeasure(0.0, 0.0)
    line = line_of(tuple((p[0], p[1]) for p in points))
    length = line.length
    measure = PathMeasure(length, length)
    kept: list[Point] = []

    def start() -> Point:  # where he starts, as a point (made only when a test needs it)
        if not kept:
            kept.append(Point(points[0]))
        return kept[0]

    if length <= 1e-9:
        return measure
    parts = measure.parts
    for name, zone, factor in terrain.zones:
        if zone.intersects(line):
            inside = line.intersection(zone).length
            parts[name] = parts.get(name, 0.0) + (factor - 1.0) * inside
    if terrain.hills:
        up = down = 0.0
        profile = terrain.profile(line)
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
    if not terrain.river.is_empty and terrain.river.intersects(line):
        pieces = [p for p in R._pieces(line.intersection(terrain.river)) if p.length > TOLERANCE]
        entries = len(pieces)
        if river_paid and any(p.distance(start()) <= TOLERANCE for p in pieces):
            entries -= 1
        elif not pieces and terrain.river.covers(start()):
            entries = 0
        measure.rivers = entries
        if entries:
            parts["river"] = entries * m.river_loss.value * allowance
    if terrain.wire is not None and terrain.wire.intersects(line):
        crossings = _crossings(line.intersection(terrain.wire), start())
        measure.wires = crossings
        parts["wire"] = crossings * m.wire_loss.value
    for wall in terrain.crossings:
        if wall.line is not None and wall.line.intersects(line):
            measure.walls += _crossings(line.intersection(wall.line), start())
    if measure.walls:
        parts["walls"] = measure.walls * m.wall_crossing.value
    for boulder in terrain.boulders:
        if boulder.shape.intersects(line):
            measure.boulders += sum(
                1
                for p in R._pieces(line.intersection(boulder.shape))
                if p.length > TOLERANCE and p.distance(start()) > TOLERANCE  # not the one he stands on: paid
            )
    if measure.boulders:
        parts["boulders"] = measure.boulders * m.boulder_crossing.value
    measure.cost = length + sum(parts.values())
    for cliff in terrain.cliffs:
        if cliff.shape.intersects(line):
            touching = _points(line.intersection(cliff.shape))
            if any(p.distance(start()) > TOLERANCE for p in touching):
                measure.problem = ("skirmish.3", f"the path crosses the cliff {cliff.id} (men cannot climb cliffs)")
                return measure
    opened = set(open_doors)
    for building in terrain.buildings:
        if not building.shape.intersects(line):
            continue
        for point in _points(line.intersection(building.shape.exterior)):
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
    for castle in terrain.walls:
        if not castle.line.intersects(line):
            continue
        for point in _points(line.intersection(castle.line)):
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


def _crossings(geometry: object, start: Point) -> int:
    """Places a path crosses a line, the one it starts on left out (paid by the move that ended there)."""
    return sum(1 for p in _points(cast(BaseGeometry, geometry)) if p.distance(start) > TOLERANCE)


def _breach(terrain: Terrain, wall: CastleWall, point: Point) -> bool:
    """``point`` on ``wall``'s line lies on a section with no points left (skirmish.74: a breach)."""
    return any(
        sec.line.distance(point) <= TOLERANCE and terrain.section_states.get(sec.id) == ALL_DEAD
        for sec in wall.sections
    )
