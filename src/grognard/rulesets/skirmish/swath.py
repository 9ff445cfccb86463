"""What a drive's ground surely holds and surely leaves out, worked out from its footprints' corners without
building it (``vehicles.Ground`` builds it only where these leave its answer open).

A drive's ground (``vehicles.swept``) is the union of the vehicle's footprint at the start, its footprints
turning where it stands at each waypoint, and the convex hull of its footprints at the two ends of each leg;
the part of it that counts against other shapes (``fresh``) is that, less the footprint at the start shrunk by
the tolerance. Here each of those pieces is a rectangle in its own frame (an origin, a unit axis, and the
ranges along and across it):

- **outer**: every piece grown by ``GROW``; a leg's hull lies in the rectangle of its ends' footprints' corners
  in the leg's frame. ``fresh`` lies within them, so a shape that meets none of them meets ``fresh`` nowhere
  (no intersection, no area).
- **core** (a one-leg drive): the points whose disc of radius ``m`` lies in the leg's hull (the hull of the two
  end footprints shrunk by ``m``: a segment between them at any height both hold) and clear of the start
  footprint (beyond its farthest corner along the leg by ``m``). A core point lies in ``fresh`` with that disc
  around it, so a core meeting a shape shrunk by ``m`` shares at least the disc with it: at ``EDGE`` more than
  the 1e-6 square inch of touching an edge, at ``AREA`` more than the 0.01 of an overlap (GEOS draws a shrunk
  shape's round corners by chords within 0.2% of ``m``, and the margins are far wider than rounding).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from grognard.core.geometry import TOLERANCE, snap_angle

XY = tuple[float, float]
Frame = tuple[float, float, float, float, float, float, float, float]  # ox, oy, ux, uy, s0, s1, t0, t1
TURN_STEP = 30.0  # degrees between the footprints of a vehicle turning where it stands (``vehicles.swept``)
GROW = 1e-6  # inches: the outer pieces grown by this, far more than rounding moves a corner
EDGE = 0.01  # inches: a disc this wide holds 3.1e-4 sq in, far more than the 1e-6 of touching an edge
AREA = 0.1  # inches: a disc this wide holds 0.031 sq in, more than the 0.01 an overlap needs
SLACK = 1e-9  # inches taken off the core's every side for rounding
ERODED_KEPT = 4096  # the shapes shrunk kept (by identity), at most


def _corners(frame: Frame) -> list[XY]:
    ox, oy, ux, uy, s0, s1, t0, t1 = frame
    return [
        (ox + s * ux - t * uy, oy + s * uy + t * ux)  # the origin + s along the axis + t across it
        for s, t in ((s1, t1), (s0, t1), (s0, t0), (s1, t0))
    ]


def _grown(frame: Frame, by: float) -> Frame:
    ox, oy, ux, uy, s0, s1, t0, t1 = frame
    return (ox, oy, ux, uy, s0 - by, s1 + by, t0 - by, t1 + by)


class Swath:
    """The sure answers about the ground of driving ``path`` (start first) from heading ``facing`` (see the
    module's docstring); ``heading``: the heading at its end, as ``vehicles.swept`` gives it; ``box``: bounds
    that hold ``fresh`` (those of the outer pieces)."""

    __slots__ = ("_cores", "_outer", "box", "feet", "frames", "half", "heading", "leg")

    def __init__(self, path: Sequence[XY], facing: float, length: float, width: float) -> None:
        hl, hw = self.half = (length / 2, width / 2)
        a0 = math.radians(facing)
        start: Frame = (path[0][0], path[0][1], math.cos(a0), math.sin(a0), -hl, hl, -hw, hw)
        frames, feet = [start], [start]  # every piece; the footprints (each one's corners are in the ground)
        self.leg: tuple[Frame, float, float] | None = None  # a one-leg drive: its hull's frame, its end's offsets
        legs = 0
        for a, b in itertools.pairwise(path):
            if math.hypot(b[0] - a[0], b[1] - a[1]) <= TOLERANCE:
                continue
            new = snap_angle(math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])))  # vehicles.heading(a, b)
            turn = math.remainder(new - facing, 360.0)
            steps = max(1, math.ceil(abs(turn) / TURN_STEP))
            for k in range(1, steps + 1):
                r = math.radians(facing + turn * k / steps)
                feet.append((a[0], a[1], math.cos(r), math.sin(r), -hl, hl, -hw, hw))
                frames.append(feet[-1])
            r = math.radians(new)
            ux, uy = math.cos(r), math.sin(r)
            du = (b[0] - a[0]) * ux + (b[1] - a[1]) * uy  # b from a along the leg's heading, and across it
            dn = (b[1] - a[1]) * ux - (b[0] - a[0]) * uy
            feet.append((b[0], b[1], ux, uy, -hl, hl, -hw, hw))  # within the hull's rectangle
            hull: Frame = (a[0], a[1], ux, uy, min(-hl, du - hl), max(hl, du + hl), min(-hw, dn - hw), max(hw, dn + hw))
            frames.append(hull)
            self.leg = (hull, du, dn) if legs == 0 and len(path) == 2 else None
            legs += 1
            facing = new
        self.heading = facing
        self.frames = [_grown(f, GROW) for f in frames]
        self.feet = feet
        xs, ys = zip(*(c for f in self.frames for c in _corners(f)), strict=True)
        self.box = (min(xs), min(ys), max(xs), max(ys))
        self._outer: np.ndarray | None = None
        self._cores: dict[float, BaseGeometry | None] = {}

    def outer(self) -> np.ndarray:
        """The outer pieces as polygons (made once)."""
        if self._outer is None:
            self._outer = np.asarray(shapely.polygons(np.array([_corners(f) for f in self.frames], dtype=float)))
        return self._outer

    def core(self, m: float) -> BaseGeometry | None:
        """The core at margin ``m`` (see the module's docstring) as a polygon, or None (none, or not one leg)."""
        if m in self._cores:
            return self._cores[m]
        found = None
        if self.leg is not None:
            (ox, oy, ux, uy, _, _, _, _), du, dn = self.leg
            hl, hw = self.half
            sx, sy = self.feet[0][2], self.feet[0][3]  # the start footprint's axis
            beyond = hl * abs(sx * ux + sy * uy) + hw * abs(sy * ux - sx * uy)  # its farthest corner along the leg
            s0, s1 = beyond + m + SLACK, max(hl, du + hl) - m - SLACK
            t0, t1 = max(-hw, dn - hw) + m + SLACK, min(hw, dn + hw) - m - SLACK
            if s0 < s1 and t0 < t1:
                found = shapely.polygons(_corners((ox, oy, ux, uy, s0, s1, t0, t1)))
        self._cores[m] = found
        return found

    def clear_of(self, shape: BaseGeometry) -> bool:
        """``shape`` meets no outer piece: ``fresh`` surely has nothing in common with it."""
        return not bool(shapely.intersects(shape, self.outer()).any())

    def surely_meets(self, shape: BaseGeometry) -> bool:
        """The core at ``EDGE`` meets ``shape``: ``fresh`` surely intersects it."""
        core = self.core(EDGE)
        return core is not None and bool(shapely.intersects(shape, core))

    def surely_shares(self, shape: BaseGeometry, m: float) -> bool:
        """The core at ``m`` meets ``shape`` shrunk by ``m``: ``fresh`` and ``shape`` surely share a disc of
        radius ``m`` (less 0.2%)."""
        core = self.core(m)
        if core is None:
            return False
        inner = eroded(shape, m)
        return not inner.is_empty and bool(shapely.intersects(inner, core))

    def leaves(self, width: float, depth: float, t: float) -> bool | None:
        """Whether the ground's bounds pass the table's edges by more than ``t`` (``_ground_problem``'s test):
        surely yes when a footprint's corner does (by more than rounding), surely no when every outer
        piece's corner is within them; None when either is too near to say."""
        for f in self.feet:
            for x, y in _corners(f):
                if x < -t - SLACK or y < -t - SLACK or x > width + t + SLACK or y > depth + t + SLACK:
                    return True
        x0, y0, x1, y1 = self.box
        if x0 > -t + SLACK and y0 > -t + SLACK and x1 < width + t - SLACK and y1 < depth + t - SLACK:
            return False
        return None


_ERODED: dict[tuple[int, float], tuple[BaseGeometry, BaseGeometry]] = {}


def eroded(shape: BaseGeometry, m: float) -> BaseGeometry:
    """``shape`` shrunk by ``m`` inches (``buffer(-m)``), kept by the shape's identity (at most
    ``ERODED_KEPT``): features, buildings and footprints are met again and again."""
    key = (id(shape), m)
    found = _ERODED.get(key)
    if found is None or found[0] is not shape:
        if len(_ERODED) >= ERODED_KEPT:
            _ERODED.clear()
        found = _ERODED[key] = (shape, shape.buffer(-m))
    return found[1]
