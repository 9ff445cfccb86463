"""A hill's crest across many lines of sight at once (``rules.hill_in_the_way``, skirmish.11): two exact short cuts.

For one line and one hill, ``rules.crest_blocks`` takes the pieces of the line over the hill (shapely's
intersection), samples each piece every 0.25" or so, leaving out the ``crest_reach`` next to either man, and
finds the line blocked at a sample under the hill's top (by more than the tolerance), unless a man at the crest
stands within ``crest_reach`` of the hill's edge and the sample lies that near the edge too. ``settled`` answers
most lines without the pieces or the samples, over arrays, by measuring only the line's ends:

- **Surely blocked.** No man stands at the crest, one end lies inside the hill farther than ``crest_reach`` and
  the tolerance from its edge, and the sight line within ``crest_reach`` of neither man stays under the hill's
  top by more than the tolerance. Then the piece of the line holding that end reaches beyond ``crest_reach``
  from both men, and its first sample, somewhere between them, lies under the top: nobody is excused.
- **Surely clear.** A man stands at the crest, the hill is convex, and no point of the line within
  ``crest_reach`` of neither man lies inside the hill farther than ``crest_reach`` and the tolerance from its
  edge (inside a convex hill, the distance from its edge is the least of the distances from its sides' lines,
  each a straight function along the line: the points farther than a limit from all of them form one interval,
  here empty). Every sample is then over the top or excused.

Each measure is compared with its limit less ``EDGE`` (its rounding in the arrays could differ from shapely's);
a line neither test settles is the rule's, the long way (``sight._crests``).
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.skirmish.terrain import Feature, Terrain

EDGE = 1e-6  # inches: a measure nearer its limit than this is the rule's to decide
Bools = np.ndarray  # one bool a line
Sides = tuple[np.ndarray, np.ndarray]  # a convex hill's corners, and each side's inward unit normal


def settled(
    terrain: Terrain, hill: Feature, ends: np.ndarray, heights: np.ndarray, length: np.ndarray
) -> tuple[Bools, Bools]:
    """For lines ``ends`` (n x 2 x 2, from a to b) that meet ``hill``, with the ground ``heights`` at a and b
    (n x 2) and each line's ``length`` (shapely's, more than twice ``crest_reach``): whether ``hill`` surely
    blocks each (``rules.crest_blocks`` with the pieces ``rules.hill_in_the_way`` finds says True), and whether
    it is surely clear of it (says False). See the module's docstring."""
    on, gap, crest = _at_ends(terrain, hill, ends, heights)
    blocked = _blocked(terrain, hill, heights, length, (on, gap, crest))
    clear = crest & _shallow(_outline(hill)[1], ends, length, terrain.tables.sight.crest_reach.value)
    return blocked, clear


def surely_blocked(terrain: Terrain, hill: Feature, ends: np.ndarray, heights: np.ndarray, length: np.ndarray) -> Bools:
    """For any lines ``ends`` (n x 2 x 2, from a to b), with the ground ``heights`` at a and b (n x 2) and each
    line's ``length`` (within rounding of shapely's): ``hill`` surely blocks it (``rules.hill_in_the_way``
    would find ``hill``'s crest in the way, or an earlier hill's). Such a line meets the hill, is longer than
    twice ``crest_reach`` and has an end lower than the hill's top, so the rule asks the hill of it."""
    return _blocked(terrain, hill, heights, length, _at_ends(terrain, hill, ends, heights))


def _at_ends(
    terrain: Terrain, hill: Feature, ends: np.ndarray, heights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, Bools]:
    """For each line's ends (n x 2 each): on ``hill`` (shapely's ``intersects``), how far from its edge, and for
    each line whether a man at either end stands at its crest (``rules._at_edge``, with his height)."""
    reach = terrain.tables.sight.crest_reach.value
    x, y = ends[:, :, 0].ravel(), ends[:, :, 1].ravel()  # a0, b0, a1, b1, ...
    on = shapely.intersects_xy(hill.shape, x, y).reshape(-1, 2)
    edge, _, ring = _outline(hill)
    gap = _to_edge(x, y, ring)
    near = np.abs(gap - reach) <= EDGE  # at the crest's reach: shapely's distance, as rules._at_edge measures it
    if near.any():
        gap[near] = shapely.distance(edge, shapely.points(x[near], y[near]))
    gap = gap.reshape(-1, 2)
    crest = np.asarray(((heights >= hill.height - TOLERANCE) & on & (gap <= reach)).any(axis=1))
    return on, gap, crest


def _blocked(
    terrain: Terrain,
    hill: Feature,
    heights: np.ndarray,
    length: np.ndarray,
    at_ends: tuple[np.ndarray, np.ndarray, Bools],
) -> Bools:
    """The surely blocked test of the module's docstring, from ``_at_ends``' measures."""
    on, gap, crest = at_ends
    reach = terrain.tables.sight.crest_reach.value
    ha, hb = heights[:, 0], heights[:, 1]
    highest = np.maximum(ha + (hb - ha) * reach / length, ha + (hb - ha) * (length - reach) / length)
    deep = (on & (gap > reach + TOLERANCE + EDGE)).any(axis=1)
    return np.asarray(
        ~crest & deep & (length - 2 * reach > TOLERANCE + EDGE) & (highest + TOLERANCE < hill.height - EDGE)
    )


def _shallow(sides: Sides | None, ends: np.ndarray, length: np.ndarray, reach: float) -> Bools:
    """For each line: the hill of ``sides`` (``_outline``'s) is convex and no point of the line within ``reach`` of
    neither end lies inside it farther than ``reach`` and the tolerance (less ``EDGE``) from its edge."""
    if sides is None:
        return np.zeros(len(ends), dtype=bool)
    corner, normal = sides  # m corners, each side's inward unit normal
    a, d = ends[:, 0], ends[:, 1] - ends[:, 0]
    # the distance from side k's line at the point s inches along: p + q s, inward positive
    p = (a[:, np.newaxis, 0] - corner[np.newaxis, :, 0]) * normal[np.newaxis, :, 0]
    p += (a[:, np.newaxis, 1] - corner[np.newaxis, :, 1]) * normal[np.newaxis, :, 1]
    q = (d[:, np.newaxis, 0] * normal[np.newaxis, :, 0] + d[:, np.newaxis, 1] * normal[np.newaxis, :, 1]) / length[
        :, np.newaxis
    ]
    limit = reach + TOLERANCE - EDGE
    at = np.divide(limit - p, q, out=np.zeros_like(p), where=q != 0)  # where each side's distance reaches the limit
    never = ((q == 0) & (p <= limit)).any(axis=1)  # a side's distance stays within it all along
    low = np.maximum(reach, np.where(q > 0, at, -np.inf).max(axis=1))
    high = np.minimum(length - reach, np.where(q < 0, at, np.inf).min(axis=1))
    return np.asarray(never | (low > high))


def _outline(hill: Feature) -> tuple[BaseGeometry, Sides | None, np.ndarray]:
    """``hill``'s edge, its corners with each side's inward unit normal when it is one convex polygon (else
    None), and the segments of its edge (k x 2 x 2); kept by its shape (the hills never change)."""
    found = _OUTLINES.get(id(hill.shape))
    if found is None or found[0] is not hill.shape:
        if len(_OUTLINES) >= 64:
            _OUTLINES.clear()
        edge = hill.shape.boundary
        parts = shapely.get_parts(edge)
        ring = np.concatenate([_segments(shapely.get_coordinates(part)) for part in parts]).reshape(-1, 2, 2)
        found = _OUTLINES[id(hill.shape)] = (hill.shape, edge, _sides(hill.shape), ring)
    return found[1], found[2], found[3]


_OUTLINES: dict[int, tuple[BaseGeometry, BaseGeometry, Sides | None, np.ndarray]] = {}


def _segments(coords: np.ndarray) -> np.ndarray:
    """The segments (k x 2 x 2) of a line through ``coords``."""
    return np.stack([coords[:-1], coords[1:]], axis=1)


def _to_edge(x: np.ndarray, y: np.ndarray, ring: np.ndarray) -> np.ndarray:
    """Each point's (``x``, ``y``) distance from the segments ``ring`` (k x 2 x 2), over arrays (within rounding of
    shapely's)."""
    x0, y0 = ring[np.newaxis, :, 0, 0], ring[np.newaxis, :, 0, 1]
    ex, ey = ring[np.newaxis, :, 1, 0] - x0, ring[np.newaxis, :, 1, 1] - y0
    px, py = x[:, np.newaxis] - x0, y[:, np.newaxis] - y0
    span = ex * ex + ey * ey
    f = np.clip(np.divide(px * ex + py * ey, span, out=np.zeros_like(px), where=span > 0), 0.0, 1.0)
    return np.asarray(np.hypot(px - f * ex, py - f * ey).min(axis=1))


def _sides(shape: BaseGeometry) -> Sides | None:
    """``shape``'s corners and each side's inward unit normal, when it is one convex polygon (else None)."""
    if not isinstance(shape, Polygon) or len(shape.interiors) > 0:
        return None
    ring = shapely.get_coordinates(shape.exterior)
    corner, side = ring[:-1], ring[1:] - ring[:-1]
    size = np.hypot(side[:, 0], side[:, 1])
    if len(corner) < 3 or (size == 0).any():
        return None
    after = np.roll(side, -1, axis=0)  # the next side
    turn = side[:, 0] * after[:, 1] - side[:, 1] * after[:, 0]
    if not ((turn > 0).all() or (turn < 0).all()):
        return None  # not convex (or a straight corner: left to the rule)
    sign = 1.0 if turn[0] > 0 else -1.0  # counterclockwise: the inside is on the left
    normal = sign * np.stack([-side[:, 1], side[:, 0]], axis=1) / size[:, np.newaxis]
    return corner, normal
