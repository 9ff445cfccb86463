"""Where many straight lines cross the outlines of buildings and of convex pieces, over arrays: the measures
``sight.sight_many`` and ``sight.cover`` read before (and instead of) shapely's overlays.

Nothing here decides a rule. Each function gives, for every line, either measures it is sure of to far
better than ``MARGIN`` (1e-6"), or "not sure". The caller compares a sure measure with the rule's threshold
only where it lies more than ``MARGIN`` from it, and asks the rule's own geometry otherwise. A line is not
sure where an end of it lies within ``MARGIN`` of an edge's line (or a corner of the outline within
``MARGIN`` of the line), or where it crosses an edge at a sine under ``STEEP`` (0.006 degree), where the
place of a crossing is ill-conditioned. Elsewhere a signed distance is off by some 1e-13" and a crossing's
place by some 1e-9" (coordinates of a few hundred inches), while shapely's are within an ulp or so.

Lines are given by their ends, an (n, 2, 2) array of (x, y) in inches; each is longer than
``TOLERANCE`` (a shorter one is the caller's: the rule lets it see).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection
from typing import Any, TypeVar, cast

import numpy as np

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.skirmish.terrain import Building, Feature, Terrain

MARGIN = 1e-6  # inches: a measure this close to a rule's threshold is left to the rule's own geometry
STEEP = 1e-4  # the least sine at which a line crosses an edge for the crossing's place to be worked out here

CLEAR, BLOCKED, UNSURE = 0, 1, 2  # a building's verdict on a line (``walls``)

T = TypeVar("T")
Edges = tuple[np.ndarray, np.ndarray]  # an outline's edges: their starts (E, 2) and vectors (E, 2)

_kept: dict[int, tuple[Any, Any]] = {}  # id(shape) -> (shape, its edges or None); shapes never change
_plain: dict[int, tuple[Any, Any]] = {}  # id(shape) -> (shape, its plain_edges or None)


def _edges_of(coords: np.ndarray) -> Edges:
    starts, vectors = coords[:-1], coords[1:] - coords[:-1]
    keep = np.hypot(vectors[:, 0], vectors[:, 1]) > 0.0
    return starts[keep], vectors[keep]


def _kept_for(owner: object, make: Callable[[], T], store: dict[int, tuple[Any, Any]] | None = None) -> T:
    """``make()``, kept in ``store`` (by default ``_kept``) for ``owner`` (a shape or a terrain's list, which
    never change) while it lives."""
    kept = _kept if store is None else store
    found = kept.get(id(owner))
    if found is None or found[0] is not owner:
        if len(kept) > 4096:
            kept.clear()
        found = kept[id(owner)] = (owner, make())
    return cast(T, found[1])


def ring_edges(shape: Any) -> Edges:
    """The edges of ``shape``'s exterior ring (a Polygon's), in its order."""
    return _kept_for(shape, lambda: _edges_of(np.asarray(shape.exterior.coords, dtype=float)))


def convex_edges(shape: Any) -> Edges | None:
    """The edges of ``shape``'s outline counter-clockwise, where it is a convex polygon without holes (every
    turn left, or straight on within 1e-12 of a radian); else None."""
    return _kept_for(shape, lambda: _convex(shape))


def _convex(shape: Any) -> Edges | None:
    if shape.geom_type != "Polygon" or shape.is_empty or len(shape.interiors) or not shape.area > 0.0:
        return None
    coords = np.asarray(shape.exterior.coords, dtype=float)
    if not shape.exterior.is_ccw:
        coords = coords[::-1]
    starts, vectors = _edges_of(coords)
    if len(vectors) < 3:
        return None
    following = np.roll(vectors, -1, axis=0)
    turns = _cross(vectors, following) / (_norm(vectors) * _norm(following))
    return (starts, vectors) if bool((turns >= -1e-12).all()) else None


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np.asarray(u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0])


def _norm(u: np.ndarray) -> np.ndarray:
    return np.asarray(np.hypot(u[..., 0], u[..., 1]))


PlainEdges = tuple[tuple[float, float, float, float, float], ...]  # (px, py, vx, vy, length) of each edge


def plain_edges(shape: Any) -> PlainEdges | None:
    """``convex_edges`` as plain floats, for ``clip_one``: each edge's start, vector and length; None for a
    shape that is not a convex polygon."""

    def make() -> PlainEdges | None:
        edges = convex_edges(shape)
        if edges is None:
            return None
        (starts, vectors), size = edges, _norm(edges[1])
        return tuple(zip(*starts.T.tolist(), *vectors.T.tolist(), size.tolist(), strict=True))

    return _kept_for(shape, make, _plain)


def clip_one(a: tuple[float, float], b: tuple[float, float], edges: PlainEdges) -> tuple[float, float] | None:
    """``clips`` for the one line from ``a`` to ``b`` (longer than ``TOLERANCE``) and one convex polygon, in
    plain arithmetic (the same sums): the length of its piece inside the polygon (0 where it misses it) and that
    piece's distance from ``b``; None where not sure."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length = math.hypot(dx, dy)
    enter, leave, sure = 0.0, 1.0, True
    for px, py, vx, vy, size in edges:
        left_a = (vx * (ay - py) - vy * (ax - px)) / size
        turn = (vx * dy - vy * dx) / size
        out_a, out_b = -left_a, -(left_a + turn)  # outside is to the right of the counter-clockwise edges
        if out_a > MARGIN and out_b > MARGIN:
            return 0.0, math.inf  # wholly outside an edge: it misses the polygon
        if out_a < -MARGIN and out_b < -MARGIN:
            continue
        if min(abs(out_a), abs(out_b)) > MARGIN and out_a * out_b < 0 and abs(turn) >= STEEP * length:
            t = out_a / (out_a - out_b)
            if out_a > 0:
                enter = max(enter, t)
            else:
                leave = min(leave, t)
        else:
            sure = False
    if not sure:
        return None
    return max(leave - enter, 0.0) * length, (1.0 - leave) * length


class Outlines:
    """The edges of some outlines stacked, each outline's a run of columns from ``first[k]``, as (1, E)
    arrays: starts ``px``, ``py``, vectors ``vx``, ``vy`` and lengths ``size``."""

    def __init__(self, edges: list[Edges]) -> None:
        starts = np.concatenate([e[0] for e in edges]) if edges else np.zeros((0, 2))
        vectors = np.concatenate([e[1] for e in edges]) if edges else np.zeros((0, 2))
        self.px, self.py = starts[None, :, 0], starts[None, :, 1]
        self.vx, self.vy = vectors[None, :, 0], vectors[None, :, 1]
        self.size = np.hypot(self.vx, self.vy)
        self.first = np.cumsum([0] + [len(e[0]) for e in edges[:-1]]).astype(np.intp)[: len(edges)]
        self.owner = np.repeat(np.arange(len(edges)), [len(e[0]) for e in edges])


class Lines:
    """Lines (``ends``: (n, 2, 2)) as (n, 1) columns: first ends ``ax``, ``ay``, vectors ``dx``, ``dy``,
    lengths ``length``."""

    def __init__(self, ends: np.ndarray) -> None:
        self.ax, self.ay = ends[:, 0, 0:1], ends[:, 0, 1:2]
        self.dx, self.dy = ends[:, 1, 0:1] - self.ax, ends[:, 1, 1:2] - self.ay
        self.length = np.hypot(self.dx, self.dy)


def _sides(lines: Lines, edges: Outlines) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each line's ends' signed distances from each edge's line, left positive, (n, E) each; the lines' cross
    products with the edges over the edges' lengths (``left_b - left_a``); and ``a`` less the edges' starts."""
    rx, ry = lines.ax - edges.px, lines.ay - edges.py
    left_a = (edges.vx * ry - edges.vy * rx) / edges.size
    turn = (edges.vx * lines.dy - edges.vy * lines.dx) / edges.size
    return left_a, left_a + turn, turn, np.stack([rx, ry])


def clips(lines: Lines, edges: Outlines) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """How each line meets each convex polygon of ``edges`` (each outline's ``convex_edges``): (sure, length,
    from_a, from_b), each (n, F). Where ``sure``: the length of the line's piece inside the polygon (0 where it
    misses it), and that piece's distances from the line's first and last ends (``crossing.length``,
    ``crossing.distance`` of ``line.intersection(polygon)`` in the rule), each within 1e-8"."""
    left_a, left_b, turn, _ = _sides(lines, edges)
    out_a, out_b = -left_a, -left_b  # outside the polygon is to the right of its counter-clockwise edges
    first = edges.first
    misses = np.logical_or.reduceat((out_a > MARGIN) & (out_b > MARGIN), first, axis=1)  # wholly outside an edge
    within = (out_a < -MARGIN) & (out_b < -MARGIN)  # wholly inside that edge's half-plane
    crosses = (np.minimum(np.abs(out_a), np.abs(out_b)) > MARGIN) & (out_a * out_b < 0)
    crosses &= np.abs(turn) >= STEEP * lines.length
    sure = misses | np.logical_and.reduceat(within | crosses, first, axis=1)
    t = np.divide(out_a, out_a - out_b, out=np.zeros_like(out_a), where=crosses)
    enter = np.maximum.reduceat(np.where(crosses & (out_a > 0), t, 0.0), first, axis=1)
    leave = np.minimum.reduceat(np.where(crosses & (out_a < 0), t, 1.0), first, axis=1)
    inside = np.where(misses, 0.0, np.maximum(leave - enter, 0.0) * lines.length)
    return sure, inside, enter * lines.length, (1.0 - leave) * lines.length


def convex_outlines(pieces: list[Feature]) -> tuple[Outlines, list[int]]:
    """The outlines of those of ``pieces`` whose shapes are convex polygons (``convex_edges``), and for each
    piece its column in them (-1: not convex); kept for the list."""

    def make() -> tuple[Outlines, list[int]]:
        edges = [convex_edges(f.shape) for f in pieces]
        kept = [e for e in edges if e is not None]
        columns = list(itertools.accumulate((e is not None for e in edges), initial=0))
        return Outlines(kept), [c if e is not None else -1 for c, e in zip(columns[:-1], edges, strict=True)]

    return _kept_for(pieces, make)


class Walls:
    """The buildings' outlines (exterior rings) and openings stacked, for ``walls``."""

    def __init__(self, terrain: Terrain, buildings: list[Building]) -> None:
        self.edges = Outlines([ring_edges(b.shape) for b in buildings])
        openings = [(j, o) for j, b in enumerate(buildings) for o in b.openings]
        self.ids = [o.id for _, o in openings]
        self.doors = np.array([terrain.openings[o.id].door for _, o in openings], dtype=bool)
        self.cx = np.array([o.at[0] for _, o in openings], dtype=float)
        self.cy = np.array([o.at[1] for _, o in openings], dtype=float)
        self.reach = np.array([o.width / 2 + TOLERANCE for _, o in openings], dtype=float)  # opening_at_xy's span
        owner = np.array([j for j, _ in openings], dtype=np.intp)
        self.mine = self.edges.owner[:, None] == owner[None, :]  # (E, K): the opening is in the edge's building
        self.seeing: dict[frozenset[str], np.ndarray] = {}

    def sees(self, opened: Collection[str]) -> np.ndarray:
        """Which openings let sight through with the doors ``opened`` open: windows and open doors (K,)."""
        doors = frozenset(opened)
        found = self.seeing.get(doors)
        if found is None:
            found = self.seeing[doors] = np.array(
                [not door or k in doors for door, k in zip(self.doors.tolist(), self.ids, strict=True)], dtype=bool
            )
        return found


def walls(terrain: Terrain, buildings: list[Building], lines: Lines, opened: Collection[str]) -> np.ndarray:
    """Each building's verdict on each line (n, B): ``BLOCKED`` where the line surely crosses its outline
    (exterior ring) at a point that no window or open door holds, ``CLEAR`` where every place it crosses the
    outline (if any) surely lies in one, else ``UNSURE`` (``rules.line_of_sight``'s first test, building by
    building; the first opening in the building's order whose span holds a point decides it, as
    ``rules.opening_at_xy`` finds it)."""
    if not buildings or len(lines.ax) == 0:
        return np.full((len(lines.ax), len(buildings)), CLEAR, dtype=np.int8)
    kept = _kept_for(buildings, lambda: Walls(terrain, buildings))
    edges = kept.edges
    left_a, left_b, turn, (rx, ry) = _sides(lines, edges)
    left_p = (lines.dy * rx - lines.dx * ry) / lines.length  # the edges' ends' signed distances from each line
    left_q = left_p - turn * edges.size / lines.length
    clear_ab = np.minimum(np.abs(left_a), np.abs(left_b)) > MARGIN  # neither end of the line on the edge's line
    clear_pq = np.minimum(np.abs(left_p), np.abs(left_q)) > MARGIN  # neither end of the edge on the line
    sides_ab, sides_pq = left_a * left_b, left_p * left_q  # < 0: on either side
    apart = ((sides_ab > 0) & clear_ab) | ((sides_pq > 0) & clear_pq)
    crosses = (sides_ab < 0) & (sides_pq < 0) & clear_ab & clear_pq & (np.abs(turn) >= STEEP * lines.length)
    line, edge = np.nonzero(crosses)  # the places a line crosses an edge (a few a line)
    s = left_a[line, edge] / -turn[line, edge]
    x = (lines.ax[line, 0] + s * lines.dx[line, 0])[:, None]  # (m, 1)
    y = (lines.ay[line, 0] + s * lines.dy[line, 0])[:, None]
    blocked, doubt = np.ones(len(line), dtype=bool), np.zeros(len(line), dtype=bool)
    if kept.ids:
        gap = np.hypot(x - kept.cx, y - kept.cy)  # (m, K)
        near = (gap <= kept.reach + MARGIN) & kept.mine[edge]  # the openings that may hold the place
        held = near.any(axis=1)
        k = near.argmax(axis=1)  # the first of them, in the building's order
        doubt = held & (gap[np.arange(len(k)), k] >= kept.reach[k] - MARGIN)
        blocked = ~doubt & ~(held & kept.sees(opened)[k])
    owner = edges.owner[edge]
    unsure_b = np.logical_or.reduceat(~apart & ~crosses, edges.first, axis=1)
    unsure_b[line[doubt], owner[doubt]] = True
    blocked_b = np.zeros_like(unsure_b)
    blocked_b[line[blocked], owner[blocked]] = True
    return np.where(blocked_b, BLOCKED, np.where(unsure_b, UNSURE, CLEAR)).astype(np.int8)
