"""What a man on foot may not walk into: the vehicles and the train (skirmish.44, 61).

Plain functions of the game's :class:`~.context.Context` (inches); ``driving.check_foot_path`` refuses a man's
path by them, and ``moving.surely_refused`` refuses a whole move by them before the rest of its check.
"""

from __future__ import annotations

from collections.abc import Iterable

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
            walks[key] = _walks_into(ctx, path, shapes)
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
        if V.sweep_meets(line(), half, shape, the_body, side):
            return what
    return None
