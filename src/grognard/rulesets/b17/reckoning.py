"""The bots' quick measures of the B-17 table: many candidate positions at once, with numpy.

The bots weigh dozens of candidate moves a decision; measuring each with shapely (a transformed
footprint per candidate) was nine tenths of a raid's time. Here the same measures are plain
trigonometry on arrays. They are the same distances as ``rules.guns_in_range`` measures (the
distance from a point to a union of rectangles is the least distance to one of them), so the bots
choose exactly as before; shapely stays the truth for every rule check (``rules``, ``game``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from grognard.core.geometry import ANGLE_TOLERANCE, TOLERANCE, angle_between
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.data import ARC_HALF_WIDTH, ATTACK_RANGE, GUN_AXIS
from grognard.rulesets.b17.state import Aircraft

GUNS = ("nose", "left waist", "right waist", "tail")  # the order of G.gun_positions
PAIR_INDEX = ((0, 3), (1, 2))  # nose-tail, waists (data.PAIRS)


@lru_cache(maxsize=64)
def _rectangles(dims: G.Dims) -> np.ndarray:
    """The model's rectangles in its own frame: rows of (back, front, half width), fuselage first."""
    return np.array([(part[0][0], part[1][0], part[2][1]) for part in G._parts(dims)])


def distance_to_footprint(
    dims: G.Dims, px: np.ndarray, py: np.ndarray, x: Any, y: Any, h: Any, rough: bool = False
) -> np.ndarray:
    """Inches from points (px, py) to the footprint of a model of ``dims`` at (x, y, heading h).

    Shapes broadcast: ``x, y, h`` (one per candidate) against the points. The footprint's outline is
    the union of its rectangles, so the distance to it is the least distance to one rectangle (0
    inside); the same measure as ``shapely.distance(point, geometry.footprint(...))``. ``rough``: with
    square roots, not ``hypot`` (quicker, within a few units in the last place), for callers that decide
    every verdict near a limit again.
    """
    rad = np.radians(h)
    c, s = np.cos(rad), np.sin(rad)
    dx, dy = px - x, py - y
    u = dx * c + dy * s  # forward, in the model's frame
    v = np.abs(-dx * s + dy * c)  # to the side
    return _to_rectangles(dims, u, v, rough)


def _to_rectangles(dims: G.Dims, u: np.ndarray, v: np.ndarray, rough: bool) -> np.ndarray:
    """The least distance of points (``u`` forward, ``v`` aside, in the model's frame) to the model's
    rectangles, all three at once (an axis of them before the points'); ``hypot``, or square roots when
    ``rough``."""
    back, front, half = _rectangle_axes(dims, np.ndim(u))
    du = np.maximum(np.maximum(back - u, 0.0), u - front)
    dv = np.maximum(v - half, 0.0)
    d: np.ndarray = np.sqrt(du * du + dv * dv) if rough else np.hypot(du, dv)
    least: np.ndarray = d.min(axis=0)
    return least


@lru_cache(maxsize=64)
def _rectangle_axes(dims: G.Dims, ndim: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rectangles' backs, fronts and half widths (:func:`_rectangles`), each shaped to lie along an axis
    before ``ndim`` axes of points."""
    shape = (-1,) + (1,) * ndim
    rects = _rectangles(dims)
    return rects[:, 0].reshape(shape), rects[:, 1].reshape(shape), rects[:, 2].reshape(shape)


EDGE = 1e-9  # inches: a quick measure this close to a limit is measured again with shapely (the truth)


def snap_many(values: np.ndarray) -> list[float]:
    """:func:`snap_array`, as a list."""
    snapped: list[float] = snap_array(values).tolist()
    return snapped


def snap_array(values: np.ndarray) -> np.ndarray:
    """``core.geometry.snap`` (``round(v, 2) + 0.0``) of each value, exactly: numpy's ``rint(100 v) / 100``,
    and Python's ``round`` where ``100 v`` is within 1e-6 of a half (the only place the two may differ)."""
    scaled = values * 100.0
    steps = np.rint(scaled)
    out: np.ndarray = steps / 100.0 + 0.0
    doubt = np.abs(scaled - steps) > 0.5 - 1e-6  # within 1e-6 of a half
    if doubt.any():
        for i in np.nonzero(doubt)[0].tolist():
            out[i] = round(float(values[i]), 2) + 0.0
    return out


def footprint_distance(dims: G.Dims, px: float, py: float, x: float, y: float, h: float) -> float:
    """:func:`distance_to_footprint` of one point, in plain floats (a few microseconds, not shapely's fifty)."""
    rad = math.radians(h)
    c, s = math.cos(rad), math.sin(rad)
    dx, dy = px - x, py - y
    u = dx * c + dy * s
    v = abs(-dx * s + dy * c)
    best = math.inf
    for back, front, half in _rectangles_list(dims):
        du = max(back - u, 0.0, u - front)
        dv = max(v - half, 0.0)
        best = min(best, math.hypot(du, dv))
    return best


def footprint_distance_many(dims: G.Dims, px: np.ndarray, py: np.ndarray, x: Any, y: Any, c: Any, s: Any) -> np.ndarray:
    """:func:`footprint_distance` of many points, each from its own model at (x, y) whose heading has cosine
    ``c`` and sine ``s`` (arrays of one shape, or floats): the same sums, with numpy's ``hypot``."""
    dx, dy = px - x, py - y
    u = dx * c + dy * s
    v = np.abs(-dx * s + dy * c)
    return _to_rectangles(dims, u, v, False)


def footprint_depth(dims: G.Dims, px: float, py: float, x: float, y: float, h: float) -> float:
    """How deep the point lies inside the footprint (its least distance to the edge of a rectangle it is
    in; <= 0 when in none): a point deeper than :data:`EDGE` is surely inside, at shapely's distance 0."""
    rad = math.radians(h)
    c, s = math.cos(rad), math.sin(rad)
    dx, dy = px - x, py - y
    u = dx * c + dy * s
    v = abs(-dx * s + dy * c)
    return max(min(u - back, front - u, half - v) for back, front, half in _rectangles_list(dims))


@lru_cache(maxsize=64)
def _rectangles_list(dims: G.Dims) -> tuple[tuple[float, float, float], ...]:
    return tuple((float(a), float(b), float(c)) for a, b, c in _rectangles(dims))


def attack_range(
    options: Mapping[str, Any], fighter: Aircraft, fx: float, fy: float, fh: float, bomber: Aircraft, limit: float
) -> float:
    """``rules.attack_range`` as the bots measure it: the quick distance, or shapely's when the quick one is
    within :data:`EDGE` of ``limit`` (the one limit the caller compares it with), so either side of the limit
    is decided as the rules decide it."""
    nx, ny = G.nose(R.dims_of(options, fighter.model), fx, fy, fh)
    d = footprint_distance(R.dims_of(options, bomber.model), nx, ny, bomber.x, bomber.y, bomber.heading)
    if abs(d - limit) <= EDGE:
        return R.attack_range(options, fighter, fx, fy, fh, bomber)
    return d


def closest_bombers(options: Mapping[str, Any], fighter: Aircraft, bombers: Sequence[Aircraft]) -> list[Aircraft]:
    """``rules.closest_bombers`` by the quick distance; shapely's list when a bomber is within :data:`EDGE`
    of the tie limit (the nearest one's distance and the tolerance)."""
    nx, ny = G.nose(R.dims_of(options, fighter.model), fighter.x, fighter.y, fighter.heading)  # attack_range's
    dims = {model: R.dims_of(options, model) for model in {b.model for b in bombers}}
    ranged = [(footprint_distance(dims[b.model], nx, ny, b.x, b.y, b.heading), b) for b in bombers if b.flying]
    if not ranged:
        return []
    best = min(d for d, _ in ranged)
    if any(abs(d - (best + TOLERANCE)) <= EDGE for d, _ in ranged):
        return R.closest_bombers(options, fighter, bombers)
    return [b for d, b in ranged if d <= best + TOLERANCE]


@lru_cache(maxsize=256)
def _guns_at(dims: G.Dims, x: float, y: float, h: float) -> tuple[tuple[float, float], ...]:
    """``geometry.gun_positions`` of a bomber standing so, kept (the bots ask it of every bomber, every move)."""
    return tuple(G.gun_positions(dims, x, y, h).values())


@lru_cache(maxsize=64)
def _gun_table(
    fdims: G.Dims, bombers: tuple[tuple[G.Dims, float, float, float], ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    """For bombers standing so (dims, x, y, heading each): their guns' x and y (rows of the four guns of each,
    in ``geometry.gun_positions``' order), their centres' x and y, and the square of the farthest a gun within
    4" of a fighter of ``fdims`` can be from their centres (kept: the bombers stand still while the fighters
    move)."""
    guns = np.array([_guns_at(dims, x, y, h) for dims, x, y, h in bombers])  # (bombers, 4, 2)
    spread = math.hypot(fdims.length, fdims.span) / 2 + max(math.hypot(d.length, d.span) / 2 for d, *_ in bombers)
    reach = ATTACK_RANGE + 2 * TOLERANCE + spread
    cx = np.array([x for _, x, _, _ in bombers])
    cy = np.array([y for _, _, y, _ in bombers])
    return guns[:, :, 0].copy(), guns[:, :, 1].copy(), cx, cy, reach * reach


def guns_met_many(
    options: Mapping[str, Any],
    fighter: Aircraft,
    bombers: Sequence[Aircraft],
    xs: Sequence[float],
    ys: Sequence[float],
    hs: Sequence[float],
) -> list[int]:
    """For each candidate position (xs[i], ys[i], hs[i]) of ``fighter``: how many gunners of ``bombers``
    could fire at it there, per bomber its better pair (b17.44-b17.45; RULINGS B13).

    Counts the same guns as ``rules.guns_in_range`` would for a fighter standing there: within 4" of
    the fighter's nearest point, and with ``firing_arcs`` its centre within 60 degrees of the gun's axis.
    """
    met: list[int] = guns_met_array(options, fighter, bombers, xs, ys, hs).tolist()
    return met


def guns_met_array(
    options: Mapping[str, Any],
    fighter: Aircraft,
    bombers: Sequence[Aircraft],
    xs: Sequence[float] | np.ndarray,
    ys: Sequence[float] | np.ndarray,
    hs: Sequence[float] | np.ndarray,
) -> np.ndarray:
    """:func:`guns_met_many` as an array of counts. Only the (position, bomber) pairs near enough for a gun
    to reach are measured: a gun is within half the bomber's diagonal of its centre, the fighter's parts
    within half its own of (x, y); the four guns of each such pair at once."""
    n = len(xs)
    if n == 0 or not bombers:
        return np.zeros(n, dtype=np.int64)
    fdims = R.dims_of(options, fighter.model)
    dims = {model: R.dims_of(options, model) for model in {b.model for b in bombers}}
    gx, gy, cx, cy, reach2 = _gun_table(fdims, tuple((dims[b.model], b.x, b.y, b.heading) for b in bombers))
    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    dx, dy = x[:, None] - cx, y[:, None] - cy
    at, bomber = np.nonzero(dx * dx + dy * dy <= reach2)  # the pairs near enough
    if at.size == 0:
        return np.zeros(n, dtype=np.int64)
    rad = np.radians(np.asarray(hs, dtype=float)[at])[:, None]
    c, s = np.cos(rad), np.sin(rad)
    dx, dy = gx[bomber] - x[at][:, None], gy[bomber] - y[at][:, None]  # (pairs, 4): distance_to_footprint's sums
    u = dx * c + dy * s
    v = np.abs(-dx * s + dy * c)
    # square roots, quicker than hypot; hypot's own verdict where a distance is within EDGE of the range
    best = _to_rectangles(fdims, u, v, True)
    limit = ATTACK_RANGE + TOLERANCE
    doubt = np.abs(best - limit) <= EDGE
    if doubt.any():
        best[doubt] = _to_rectangles(fdims, u[doubt], v[doubt], False)
    inside = best <= limit
    if options["firing_arcs"]:
        for p, k in zip(*np.nonzero(inside), strict=True):
            i, j = int(at[p]), int(bomber[p])
            axis = bombers[j].heading + GUN_AXIS[GUNS[k]]
            if angle_between(G.bearing(gx[j, k], gy[j, k], x[i], y[i]), axis) > ARC_HALF_WIDTH + ANGLE_TOLERANCE:
                inside[p, k] = False
    count = inside.astype(np.int64)
    pairs = np.maximum(count[:, 0] + count[:, 3], count[:, 1] + count[:, 2])  # the better pair (b17.45)
    return np.bincount(at, weights=pairs, minlength=n).astype(np.int64)
