"""The B-17 table's geometry, with shapely: the table, the target, the models, paths.

Conventions (stated once, for the whole rule set):

- **x** runs the table's 108" length from the American entry end (x=0) to the
  target end (x=108); **y** runs its 60" width, y=0 on the bombers' right as
  they fly toward the target, y=60 on their left.
- A **heading** is in degrees, counterclockwise from +x: 0 flies toward the
  target end, 90 toward the y=60 flank, 180 back toward the entry end;
  stored in (-180, 180] to 0.01 degrees. A **turn** is signed: + is left.
- An aircraft's **position** is the centre of its model (the middle of the
  fuselage's length); its nose is half a length ahead along its heading.
- A model's footprint is its wings, fuselage and tailplane as rectangles
  (shapely polygons), sized from the model's length and span. The fuselage
  alone is what must be over the target (RULINGS B17).
- Distances and positions are stored to 0.01"; ``grognard.core.geometry.TOLERANCE``
  (0.01") decides "exactly at a limit": a fighter 4.00" from a gun is in range,
  a fuselage on the target's edge is over the target, an aircraft on the
  table's edge is on the table.

>>> table_contains(108.0, 60.0), table_contains(108.02, 30.0)
(True, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box

from grognard.core.geometry import TOLERANCE, distance_to_rect, snap_angle
from grognard.rulesets.b17.data import FLAK_RANGE, TABLE_LENGTH, TABLE_WIDTH, TARGET

__all__ = [
    "FLAK_AREA",
    "TABLE_LENGTH",
    "TABLE_WIDTH",
    "TARGET_BOX",
    "Dims",
    "Path",
    "bearing",
    "distance_to",
    "engine_positions",
    "footprint",
    "fuselage",
    "gun_positions",
    "in_flak_range",
    "local_to_world",
    "nose",
    "over_target",
    "table_contains",
]

TARGET_BOX = box(*TARGET)
TARGET_WITH_TOLERANCE = TARGET_BOX.buffer(TOLERANCE, join_style="mitre")
FLAK_AREA = TARGET_BOX.buffer(FLAK_RANGE)
TABLE_BOX = box(0.0, 0.0, TABLE_LENGTH, TABLE_WIDTH)


@dataclass(frozen=True)
class Dims:
    """A model's measures in inches: length (nose to tail) and span (wingtip to wingtip)."""

    length: float
    span: float
    bomber: bool
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # the hash worked out once: a model's measures key the memos of its measures hundreds of times a raid
        object.__setattr__(self, "_hash", hash((self.length, self.span, self.bomber)))

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def body_width(self) -> float:
        """The fuselage's width: a tenth of the length for a B-17, a ninth for a fighter."""
        return round(self.length * (0.1 if self.bomber else 0.11), 3)


# local model coordinates: (forward, left) from the model's centre, as fractions of length and span
_WING_CENTRE = 0.08  # forward of the centre, in lengths
_WING_CHORD = 0.18  # in lengths
_TAIL_AT = -0.42
_TAIL_CHORD = 0.09
_TAIL_SPAN = 0.43  # of the span (B-17); fighters 0.35
_WAIST_AT = -0.15  # waist gun hatches, in lengths forward of the centre
_ENGINE_AT = 0.17  # engines' forward position, in lengths
_ENGINE_SPAN = (0.26, 0.14, -0.14, -0.26)  # B-17 engines 1-4 (left outboard first), in spans


def local_to_world(x: float, y: float, heading: float, forward: float, left: float) -> tuple[float, float]:
    """The table point of a model point ``forward`` ahead and ``left`` to the left of a model at (x, y, heading).

    >>> local_to_world(10.0, 10.0, 90.0, 1.0, 0.0)
    (10.0, 11.0)
    """
    rad = math.radians(heading)
    c, s = math.cos(rad), math.sin(rad)
    return (x + forward * c - left * s + 0.0, y + forward * s + left * c + 0.0)


@lru_cache(maxsize=64)
def _parts(dims: Dims) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The model's rectangles in local (forward, left) coordinates: fuselage first."""
    length, span, width = dims.length, dims.span, dims.body_width
    tail_span = span * (_TAIL_SPAN if dims.bomber else 0.35)

    def rect(f0: float, f1: float, half: float) -> tuple[tuple[float, float], ...]:
        return ((f0, -half), (f1, -half), (f1, half), (f0, half))

    wing_front = (_WING_CENTRE + _WING_CHORD / 2) * length
    wing_back = (_WING_CENTRE - _WING_CHORD / 2) * length
    tail_back = -length / 2
    return (
        rect(-length / 2, length / 2, width / 2),
        rect(wing_back, wing_front, span / 2),
        rect(tail_back, (_TAIL_AT + _TAIL_CHORD / 2) * length, tail_span / 2),
    )


def _polygon(x: float, y: float, heading: float, corners: tuple[tuple[float, float], ...]) -> Polygon:
    return Polygon([local_to_world(x, y, heading, f, left) for f, left in corners])


def fuselage(dims: Dims, x: float, y: float, heading: float) -> Polygon:
    """The fuselage's rectangle on the table (RULINGS B17)."""
    return _polygon(x, y, heading, _parts(dims)[0])


@lru_cache(maxsize=64)
def _local_footprint(dims: Dims) -> Polygon:
    """The model's outline in local (forward, left) coordinates: the union of its rectangles."""
    outline = shapely.union_all([Polygon(part) for part in _parts(dims)])
    assert isinstance(outline, Polygon)  # the parts overlap: one outline
    return outline


def footprint(dims: Dims, x: float, y: float, heading: float) -> Polygon:
    """Wings, fuselage and tailplane on the table, one outline: what 'the nearest point of' an aircraft
    measures to."""
    rad = math.radians(heading)
    c, s = math.cos(rad), math.sin(rad)
    matrix = np.array([[c, s], [-s, c]])
    offset = np.array([x, y])
    return shapely.transform(_local_footprint(dims), lambda coords: coords @ matrix + offset)


def nose(dims: Dims, x: float, y: float, heading: float) -> tuple[float, float]:
    """The nose point: where a fighter's attack range is measured from (RULINGS B16)."""
    return local_to_world(x, y, heading, dims.length / 2, 0.0)


def gun_positions(dims: Dims, x: float, y: float, heading: float) -> dict[str, tuple[float, float]]:
    """The four gun positions of a B-17 on the table: nose, left waist, right waist, tail (b17.44)."""
    half = dims.length / 2
    waist = _WAIST_AT * dims.length
    side = dims.body_width / 2
    return {
        "nose": local_to_world(x, y, heading, half, 0.0),
        "left waist": local_to_world(x, y, heading, waist, side),
        "right waist": local_to_world(x, y, heading, waist, -side),
        "tail": local_to_world(x, y, heading, -half, 0.0),
    }


def engine_positions(dims: Dims, x: float, y: float, heading: float) -> list[tuple[float, float]]:
    """Where each engine is on the table: a B-17's four (1 = left outboard ... 4 = right outboard), a fighter's one."""
    if not dims.bomber:
        return [local_to_world(x, y, heading, dims.length * 0.45, 0.0)]
    return [local_to_world(x, y, heading, _ENGINE_AT * dims.length, k * dims.span) for k in _ENGINE_SPAN]


def table_contains(x: float, y: float) -> bool:
    """Whether the point is on the table; a point on the edge (within the tolerance) is (RULINGS B18)."""
    return -TOLERANCE <= x <= TABLE_LENGTH + TOLERANCE and -TOLERANCE <= y <= TABLE_WIDTH + TOLERANCE


def surely_on_table(x: float, y: float, reach: float) -> bool:
    """Whether every point within ``reach`` inches of (x, y) is on the table (:func:`table_contains`) however its
    sums round: the disc lies inside the table's own edges, the tolerance beyond them to spare (a quick test
    that lets the bots skip measuring each end of a move, each within its length of the start)."""
    return reach <= x <= TABLE_LENGTH - reach and reach <= y <= TABLE_WIDTH - reach


def distance_to(point: tuple[float, float], shape: shapely.Geometry) -> float:
    """Inches from a point to the nearest point of a shape (0 inside it)."""
    return float(shapely.distance(Point(point), shape))


def over_target(dims: Dims, x: float, y: float, heading: float) -> bool:
    """The whole fuselage over the target rectangle, its edge included (b17.50, RULINGS B17)."""
    if distance_to_rect(x, y, *TARGET) > 2 * TOLERANCE:
        return False  # the centre (in the fuselage) is off the target and its edge: shapely need not look
    return bool(TARGET_WITH_TOLERANCE.contains(fuselage(dims, x, y, heading)))


def in_flak_range(dims: Dims, x: float, y: float, heading: float) -> bool:
    """Any part of the aircraft within 6" of the target's edge (or over it) (b17.53, RULINGS B5)."""
    if distance_to_rect(x, y, *TARGET) - math.hypot(dims.length, dims.span) / 2 > FLAK_RANGE + 2 * TOLERANCE:
        return False  # every part of the model is within half its diagonal of the centre: surely out of range
    return float(shapely.distance(footprint(dims, x, y, heading), TARGET_BOX)) <= FLAK_RANGE + TOLERANCE


def bearing(x0: float, y0: float, x1: float, y1: float) -> float:
    """The heading from (x0, y0) to (x1, y1), degrees."""
    return math.degrees(math.atan2(y1 - y0, x1 - x0))


@dataclass(frozen=True)
class Path:
    """A move: ``straight`` inches along ``heading`` from (x, y), then a turn of ``turn`` degrees, then on
    to ``length`` inches in all (RULINGS B16)."""

    x: float
    y: float
    heading: float
    straight: float
    turn: float
    length: float
    # cos, sin of the heading; the heading after the turn, its cos and sin (worked out in __post_init__)
    _legs: tuple[float, float, float, float, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # the trigonometry of both legs, once per path (a bot weighs dozens of paths a decision); the
        # sums below are local_to_world's, term for term, so the points are the same to the last bit
        rad = math.radians(self.heading)
        new_heading = snap_angle(self.heading + self.turn)
        turned = math.radians(new_heading)
        object.__setattr__(
            self, "_legs", (math.cos(rad), math.sin(rad), new_heading, math.cos(turned), math.sin(turned))
        )

    @property
    def new_heading(self) -> float:
        return self._legs[2]

    def at(self, d: float) -> tuple[float, float, float]:
        """(x, y, heading) ``d`` inches along the path; a point exactly at the turn is before it."""
        d = max(0.0, min(d, self.length))
        first = min(d, self.straight)
        c, s, heading, c1, s1 = self._legs
        x = self.x + first * c - 0.0 * s + 0.0
        y = self.y + first * s + 0.0 * c + 0.0
        if d <= self.straight:
            return x, y, self.heading
        rest = d - self.straight
        return x + rest * c1 - 0.0 * s1 + 0.0, y + rest * s1 + 0.0 * c1 + 0.0, heading

    def snapped(self, d: float) -> tuple[float, float, float]:
        """:meth:`at`, rounded as stored (0.01" and 0.01 degrees)."""
        x, y, h = self.at(d)
        return round(x, 2) + 0.0, round(y, 2) + 0.0, h

    def leaves_table_at(self) -> float | None:
        """How far along the path the aircraft's centre leaves the table, or None if it stays on it.

        The table is convex and the path two straight legs, so each leg is checked at its ends and,
        when one end is off, the crossing is found on that leg.
        """
        legs = [(0.0, min(self.straight, self.length))]
        if self.length > self.straight:
            legs.append((self.straight, self.length))
        for start, stop in legs:
            x1, y1, _ = self.at(stop)
            if table_contains(x1, y1):
                continue
            x0, y0, h = self.at(start)
            if start > 0 and self.length > self.straight:
                h = self.new_heading
            rad = math.radians(h)
            c, s = math.cos(rad), math.sin(rad)
            ts = []
            for coord, step, high in ((x0, c, TABLE_LENGTH), (y0, s, TABLE_WIDTH)):
                if step > 1e-12:
                    ts.append((high + TOLERANCE - coord) / step)
                elif step < -1e-12:
                    ts.append((-TOLERANCE - coord) / step)
            t = max(0.0, min(ts)) if ts else 0.0
            return start + t
        return None
