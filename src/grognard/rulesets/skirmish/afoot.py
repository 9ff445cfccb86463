"""What a man on foot may not walk into: the vehicles and the train (skirmish.44, 61).

Plain functions of the game's :class:`~.context.Context` (inches); ``driving.check_foot_path`` refuses a man's
path by them, and ``moving.surely_refused`` refuses a whole move by them before the rest of its check.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from itertools import pairwise

import shapely
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

from grognard.rulesets.skirmish import vehicles as V
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.terrain import line_of

XY = tuple[float, float]

TRAIN = "the train"  # what walks_into names the train


Obstacle = tuple[str, BaseGeometry, tuple[float, float, float, float], float | None]


def obstacles(ctx: Context) -> list[Obstacle]:
    """What a man on foot may not walk into, in the order ``walks_into`` tries them: the train (``TRAIN``, its
    ground, its bounds, None) and each vehicle (its id, footprint, bounds and shorter side, inches); made once
    while the state stands still (``Context.still``)."""
    found: list[Obstacle] = ctx.keep("obstacles", lambda: _obstacles(ctx))
    return found


def _obstacles(ctx: Context) -> list[Obstacle]:
    out: list[Obstacle] = []
    train = ctx.train_now()
    if train is not None:
        out.append((TRAIN, train, train.bounds, None))
    for v in ctx.state.vehicles.values():
        shape = ctx.vehicle_shape(v)
        entry = ctx.tables.vehicles.kind(v.kind)
        out.append((v.id, shape, shape.bounds, min(entry.length, entry.width)))
    return out


def walks_into(ctx: Context, path: list[XY], found: list[Obstacle] | None = None) -> str | None:
    """What a man on foot walking ``path`` (start first, inches) would walk into of ``found`` (``obstacles``,
    made when not given): ``TRAIN`` (skirmish.44), the id of the first vehicle he would walk through
    (skirmish.61), or None."""
    shapes = obstacles(ctx) if found is None else found
    if not shapes:
        return None  # nothing on the table he could walk into
    kept = ctx.kept
    if kept is not None and shapes is kept.get("obstacles"):  # the state stands still: each path is tried once
        walks: dict[tuple[XY, ...], str | None] = kept.setdefault("walks", {})
        key = tuple(path)
        if key not in walks:
            # and once for the terrain now, made of where the vehicles and the train stand (Context.moving_key;
            # a scenario's vehicles are the same, in the same order, in every state): the same terrain, the same
            # obstacles, so the answer serves every decision and game on it (a unit held up by a vehicle tries
            # the same paths turn after turn)
            memo = ctx.sight_memo(ctx.terrain)
            walked = memo.get(("walks into", key), memo)
            if walked is memo:
                walked = memo[("walks into", key)] = _walks_into(ctx, path, shapes)
            walks[key] = walked
        return walks[key]
    return _walks_into(ctx, path, shapes)


def any_walks_into(ctx: Context, paths: Iterable[list[XY]], found: list[Obstacle]) -> bool:
    """Some path of two to four points among ``paths`` walks into one of ``found`` (``walks_into`` says so).
    A path whose box, grown by half a base, meets no obstacle's box is passed over without asking: that is
    ``walks_into``'s own first test, under which it answers None."""
    if not found:
        return False
    reach = ctx.tables.sight.base.value / 2 + 1e-9
    boxes = [bounds for _, _, bounds, _ in found]
    for path in paths:
        if not 2 <= len(path) <= 4:
            continue
        px0, py0, px1, py1 = path_box(path)
        px0, py0, px1, py1 = px0 - reach, py0 - reach, px1 + reach, py1 + reach
        for x0, y0, x1, y1 in boxes:
            if x1 < px0 or px1 < x0 or y1 < py0 or py1 < y0:
                continue
            if walks_into(ctx, path, found) is not None:
                return True
            break
    return False


def path_box(path: list[XY]) -> tuple[float, float, float, float]:
    """The box round ``path``'s points: (least x, least y, most x, most y), as ``min`` and ``max`` give them."""
    if len(path) == 2:
        (ax, ay), (bx, by) = path
        return (
            bx if bx < ax else ax,
            by if by < ay else ay,
            bx if bx > ax else ax,
            by if by > ay else ay,
        )
    xs = [p[0] for p in path]
    ys = [p[1] for p in path]
    return min(xs), min(ys), max(xs), max(ys)


def _walks_into(ctx: Context, path: list[XY], found: list[Obstacle]) -> str | None:
    half = ctx.tables.sight.base.value / 2
    # the body swept lies within the path's box grown by half a base: a shape whose box is apart meets none of it
    reach = half + 1e-9
    x0, y0, x1, y1 = path_box(path)
    box = (x0 - reach, y0 - reach, x1 + reach, y1 + reach)
    body: BaseGeometry | None = None

    def line() -> LineString:  # the path's centre line (kept by line_of)
        return line_of(tuple((p[0], p[1]) for p in path))

    def the_body() -> BaseGeometry:
        nonlocal body
        body = body if body is not None else line().buffer(half)
        return body

    for what, shape, (x0, y0, x1, y1), side in found:
        if x1 < box[0] or box[2] < x0 or y1 < box[1] or box[3] < y0:
            continue
        if _sweep_meets(path, line, half, shape, the_body, side):
            return what
    return None


OVERLAP = 0.01  # square inches: what a body swept along a path shares with a vehicle to walk into it (vehicles)
INSIDE = math.cos(math.pi / 64)  # a buffer's round ends (32 chords a half circle) lie this much of its radius out


def _sweep_meets(
    path: list[XY], line: Callable[[], LineString], half: float, shape: BaseGeometry, body: Callable[[], BaseGeometry],
    side: float | None,
) -> bool:  # fmt: skip
    """``vehicles.sweep_meets`` of ``line()`` (the path's), and the same answer: where its two first tests (the
    gap) leave it open for a straight path (two points) past a vehicle (a rectangle, ``side`` given), what the
    body (``body()``: ``line().buffer(half)``, shapely's, 16 chords a quarter circle) shares with it is bounded
    first by what the discs swept exactly share (``shares``), and the body is built only when the bounds hold
    0.01 square inch between them."""
    if side is None or len(path) != 2 or path[0] == path[1]:
        return V.sweep_meets(line(), half, shape, body, side)
    gap = float(shapely.distance(line(), shape))
    if gap > half + 1e-6:
        return False
    if side >= 2 * V.DEEP and gap <= half - V.CHORD - V.DEEP:
        return True
    # the buffer's corners lie on the circles of radius half round the path, and each of its sides at least
    # half * INSIDE from both ends (a chord of a thirty-second of a circle): it holds the one sweep and lies
    # within the other
    corners = _corners(shape)
    if shares(path[0], path[1], corners, half * INSIDE - 1e-9) > OVERLAP + 1e-9:
        return True
    if shares(path[0], path[1], corners, half) < OVERLAP - 1e-9:
        return False
    return bool(body().intersection(shape).area > OVERLAP)


_CORNERS: dict[int, tuple[BaseGeometry, list[XY]]] = {}  # id(shape) -> (the shape, its corners)


def _corners(shape: BaseGeometry) -> list[XY]:
    """The corners of a vehicle's footprint (its exterior, less the closing point), kept for the shape (at most
    4,096 shapes, all forgotten past that)."""
    found = _CORNERS.get(id(shape))
    if found is None or found[0] is not shape:
        if len(_CORNERS) >= 4096:
            _CORNERS.clear()
        found = _CORNERS[id(shape)] = (shape, [(float(x), float(y)) for x, y in shapely.get_coordinates(shape)[:-1]])
    return found[1]


def shares(a: XY, b: XY, corners: list[XY], radius: float) -> float:
    """What the discs of ``radius`` swept from ``a`` to ``b`` share with the convex polygon of ``corners``
    (square inches): the band along the path and the half discs at its ends, each cut exactly."""
    length = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    # the corners seen from a: along the path (u) and square to it (v)
    poly = [((x - a[0]) * ux + (y - a[1]) * uy, (y - a[1]) * ux - (x - a[0]) * uy) for x, y in corners]
    band = _clip(_clip(_clip(_clip(poly, -1.0, 0.0, 0.0), 1.0, 0.0, length), 0.0, -1.0, radius), 0.0, 1.0, radius)
    behind = _clip(poly, 1.0, 0.0, 0.0)
    beyond = [(u - length, v) for u, v in _clip(poly, -1.0, 0.0, -length)]
    return abs(_area(band)) + abs(_disc_share(behind, radius)) + abs(_disc_share(beyond, radius))


def _clip(poly: list[XY], a: float, b: float, c: float) -> list[XY]:
    """The convex polygon ``poly`` cut to the half-plane a u + b v <= c (Sutherland-Hodgman)."""
    out: list[XY] = []
    if not poly:
        return out
    for p, q in zip(poly, poly[1:] + poly[:1], strict=True):
        fp = a * p[0] + b * p[1] - c
        fq = a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _area(poly: list[XY]) -> float:
    """The signed area of ``poly`` (shoelace)."""
    return sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, poly[1:] + poly[:1], strict=True)) / 2 if poly else 0.0


def _disc_share(poly: list[XY], radius: float) -> float:
    """The signed area ``poly`` shares with the disc of ``radius`` about (0, 0): over its sides, the triangle from
    the centre, cut by the circle (a part outside it counts the sector it spans)."""
    if len(poly) < 3:
        return 0.0
    total = 0.0
    rr = radius * radius
    for (px, py), (qx, qy) in zip(poly, poly[1:] + poly[:1], strict=True):
        dx, dy = qx - px, qy - py
        aa = dx * dx + dy * dy
        if aa == 0.0:
            continue
        bb = px * dx + py * dy
        cc = px * px + py * py - rr
        cuts = [0.0]
        root = bb * bb - aa * cc
        if root > 0.0:
            s = math.sqrt(root)
            cuts += [t for t in ((-bb - s) / aa, (-bb + s) / aa) if 0.0 < t < 1.0]
        cuts.append(1.0)
        for t0, t1 in pairwise(cuts):
            x0, y0, x1, y1 = px + t0 * dx, py + t0 * dy, px + t1 * dx, py + t1 * dy
            cross = x0 * y1 - x1 * y0
            mx, my = px + (t0 + t1) / 2 * dx, py + (t0 + t1) / 2 * dy
            if mx * mx + my * my <= rr:
                total += cross / 2
            else:
                total += rr * math.atan2(cross, x0 * x1 + y0 * y1) / 2
    return total
