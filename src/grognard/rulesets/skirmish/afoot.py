"""What a man on foot may not walk into: the vehicles and the train (skirmish.44, 61).

Plain functions of the game's :class:`~.context.Context` (inches); ``driving.check_foot_path`` refuses a man's
path by them, and ``moving.surely_refused`` refuses a whole move by them before the rest of its check.
"""

from __future__ import annotations

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


def _walks_into(ctx: Context, path: list[XY], found: list[Obstacle]) -> str | None:
    half = ctx.tables.sight.base.value / 2
    # the body swept lies within the path's box grown by half a base: a shape whose box is apart meets none of it
    reach = half + 1e-9
    box = (
        min(p[0] for p in path) - reach,
        min(p[1] for p in path) - reach,
        max(p[0] for p in path) + reach,
        max(p[1] for p in path) + reach,
    )
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
