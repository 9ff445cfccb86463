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
- **bounds on an area** (``shares``): what a shape shares with ``fresh`` is at most what it shares with the
  outer pieces, all told, and at least what it shares with the core, or with any footprint of the drive less
  what it shares with the start footprint. A man's base is a regular polygon on its circle: its tests are
  worked out from its centre (``disc_clear``, ``disc_shares``).
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
AREA = 0.06  # inches: a disc this wide holds 0.0113 sq in (0.01128 as GEOS draws it), more than the 0.01 of an overlap
SLACK = 1e-9  # inches taken off the core's every side for rounding
INSCRIBED = math.cos(math.pi / 32)  # a regular polygon of 32 sides or more on a circle holds this share of it
ERODED_KEPT = 4096  # the shapes shrunk kept (by identity), at most


def _corners(frame: Frame) -> list[XY]:
    ox, oy, ux, uy, s0, s1, t0, t1 = frame
    return [
        (ox + s * ux - t * uy, oy + s * uy + t * ux)  # the origin + s along the axis + t across it
        for s, t in ((s1, t1), (s0, t1), (s0, t0), (s1, t0))
    ]


def _gap(at: XY, frame: Frame) -> float:
    """The distance from ``at`` to the rectangle of ``frame`` (0 inside it)."""
    ox, oy, ux, uy, s0, s1, t0, t1 = frame
    dx, dy = at[0] - ox, at[1] - oy
    s, t = dx * ux + dy * uy, dy * ux - dx * uy
    return math.hypot(max(s0 - s, 0.0, s - s1), max(t0 - t, 0.0, t - t1))


def _grown(frame: Frame, by: float) -> Frame:
    ox, oy, ux, uy, s0, s1, t0, t1 = frame
    return (ox, oy, ux, uy, s0 - by, s1 + by, t0 - by, t1 + by)


class Swath:
    """The sure answers about the ground of driving ``path`` (start first) from heading ``facing`` (see the
    module's docstring); ``heading``: the heading at its end, as ``vehicles.swept`` gives it; ``box``: bounds
    that hold ``fresh`` (those of the outer pieces)."""

    __slots__ = ("_cores", "_feet", "_outer", "box", "feet", "frames", "half", "heading", "leg")

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
        xs: list[float] = []
        ys: list[float] = []
        for ox, oy, ux, uy, s0, s1, t0, t1 in self.frames:  # every corner (``_corners``' sums, inline)
            for s, t in ((s1, t1), (s0, t1), (s0, t0), (s1, t0)):
                xs.append(ox + s * ux - t * uy)
                ys.append(oy + s * uy + t * ux)
        self.box = (min(xs), min(ys), max(xs), max(ys))
        self._outer: np.ndarray | None = None
        self._feet: np.ndarray | None = None
        self._cores: dict[float, BaseGeometry | None] = {}

    def outer(self) -> np.ndarray:
        """The outer pieces as polygons (made once)."""
        if self._outer is None:
            self._outer = np.asarray(shapely.polygons(np.array([_corners(f) for f in self.frames], dtype=float)))
        return self._outer

    def core_frame(self, m: float) -> Frame | None:
        """The core at margin ``m`` (see the module's docstring), or None (none, or not a one-leg drive)."""
        if self.leg is None:
            return None
        (ox, oy, ux, uy, _, _, _, _), du, dn = self.leg
        hl, hw = self.half
        sx, sy = self.feet[0][2], self.feet[0][3]  # the start footprint's axis
        beyond = hl * abs(sx * ux + sy * uy) + hw * abs(sy * ux - sx * uy)  # its farthest corner along the leg
        s0, s1 = beyond + m + SLACK, max(hl, du + hl) - m - SLACK
        t0, t1 = max(-hw, dn - hw) + m + SLACK, min(hw, dn + hw) - m - SLACK
        return (ox, oy, ux, uy, s0, s1, t0, t1) if s0 < s1 and t0 < t1 else None

    def core(self, m: float) -> BaseGeometry | None:
        """The core at margin ``m`` as a polygon (made once), or None."""
        if m not in self._cores:
            frame = self.core_frame(m)
            self._cores[m] = None if frame is None else shapely.polygons(_corners(frame))
        return self._cores[m]

    def shares(self, shape: BaseGeometry, area: float) -> bool | None:
        """Whether ``fresh`` and ``shape`` share more than ``area`` square inches, when bounds on what they
        share settle it (by more than rounding); else None. At most: the sum of what ``shape`` shares with
        each outer piece. At least: what it shares with the core at ``SLACK`` (clear of the start footprint),
        or with a footprint of the drive less what it shares with the footprint at the start (``fresh`` holds
        each footprint less the start one)."""
        upper = float(shapely.area(shapely.intersection(shape, self.outer())).sum())
        if upper <= area - SLACK:
            return False
        if self._feet is None:
            self._feet = np.asarray(shapely.polygons(np.array([_corners(f) for f in self.feet], dtype=float)))
        shared = shapely.area(shapely.intersection(shape, self._feet)).tolist()
        lower = max(shared[1:], default=0.0) - shared[0]
        core = self.core(SLACK)
        if core is not None:
            lower = max(lower, float(shapely.area(shapely.intersection(shape, core))))
        return True if lower > area + SLACK else None

    def disc_clear(self, at: XY, radius: float) -> bool:
        """A disc of ``radius`` about ``at`` (and so any polygon within it) meets no outer piece."""
        return all(_gap(at, f) > radius + SLACK for f in self.frames)

    def disc_shares(self, at: XY, radius: float, m: float) -> bool:
        """A man's base (``vehicles.disc``: a polygon of at least 32 sides on the circle of ``radius`` about
        ``at``, so holding the disc of ``radius`` x cos(pi/32)) surely shares a disc of radius ``m`` with
        ``fresh``: a core point lies that much within it."""
        frame = self.core_frame(m)
        return frame is not None and _gap(at, frame) <= radius * INSCRIBED - m - SLACK

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
