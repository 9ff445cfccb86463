"""A drive's ground answered from its swath (``swath.Swath``: the footprints' corners) gives what the ground
built whole gives (issue 33, item 4).

The long way is written here as the code had it: the swept ground built (``vehicles.swept``), less the start
footprint shrunk by the tolerance, and each test asked of that. It is compared with ``vehicles.Ground``'s
answers over random drives and shapes, over shapes put just either side of each threshold (touching, 1e-6
and 0.01 square inch, the table's edge), and over every drive the doctrine probes in real games.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import pytest
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from grognard.core.dice import BOTS, stream
from grognard.core.geometry import TOLERANCE
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish import vehicles as V
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.driving import DriveSpace
from skirmish_games import game_of

XY = tuple[float, float]


def built(path: tuple[XY, ...], facing: float, length: float, width: float) -> tuple[BaseGeometry, BaseGeometry]:
    """The long way: (the ground, its fresh part), built whole."""
    ground, _ = V.swept(path, facing, length, width)
    inside = V.footprint(path[0], facing, length, width).buffer(-TOLERANCE)
    return ground, ground.difference(inside)


def long_stopped_by(fresh: BaseGeometry, shape: BaseGeometry, polygon_edge: bool) -> bool:
    hit = bool(fresh.intersects(shape))
    return hit and not (polygon_edge and shape.intersection(fresh).area <= 1e-6)


def long_overlaps(fresh: BaseGeometry, shape: BaseGeometry) -> bool:
    return bool(fresh.intersection(shape).area > 0.01)


def long_leaves(ground: BaseGeometry, width: float, depth: float) -> bool:
    minx, miny, maxx, maxy = ground.bounds
    t = TOLERANCE
    return minx < -t or miny < -t or maxx > width + t or maxy > depth + t


def compare(
    path: tuple[XY, ...], facing: float, size: XY, shapes: list[BaseGeometry], discs: list[tuple[XY, float]]
) -> tuple[int, int]:
    """Every test of a fresh ``vehicles.Ground`` against the long way, for each shape, and for each man's base
    (centre, radius: ``vehicles.disc``); (answers, answers given without building the ground)."""
    fresh = built(path, facing, *size)[1]
    asked = without = 0
    for at, radius in discs:
        g = V.Ground(path, facing, *size)
        want = long_overlaps(fresh, V.disc(at, radius))
        assert g.overlaps_disc(at, radius) == want == g.overlaps(V.disc(at, radius)), (path, facing, size, at, radius)
        asked += 1
        without += g._made is None
    for shape in shapes:
        for test in ("stopped", "edge", "overlaps", "meets"):
            g = V.Ground(path, facing, *size)
            if test == "stopped":
                got, want = g.stopped_by(shape, False), long_stopped_by(fresh, shape, False)
            elif test == "edge":
                if shape.geom_type != "Polygon":
                    continue
                got, want = g.stopped_by(shape, True), long_stopped_by(fresh, shape, True)
            elif test == "overlaps":
                got, want = g.overlaps(shape), long_overlaps(fresh, shape)
            else:
                got, want = g.meets(shape), bool(fresh.intersects(shape))
            assert got == want, (test, path, facing, size, shape.wkt)
            asked += 1
            without += g._made is None
    return asked, without


def random_drive(rng: np.random.Generator) -> tuple[tuple[XY, ...], float, XY]:
    start = (round(float(rng.uniform(-3, 3)), 2), round(float(rng.uniform(-3, 3)), 2))
    path = [start]
    for _ in range(1 if rng.random() < 0.8 else 2):
        a, r = float(rng.uniform(-math.pi, math.pi)), float(rng.uniform(0.0, 10.0))
        path.append((round(path[-1][0] + r * math.cos(a), 2), round(path[-1][1] + r * math.sin(a), 2)))
    size = (round(float(rng.uniform(0.8, 4.0)), 2), round(float(rng.uniform(0.5, 2.0)), 2))
    return tuple(path), round(float(rng.uniform(-180, 180)), 2), size


def test_a_drives_ground_answers_from_its_swath_as_the_ground_built_whole() -> None:
    """Random drives (one and two legs, every turn) against random walls, discs, rectangles and lines round
    them: every answer is the long way's, and most come without building the ground."""
    assert len(V.disc((0.0, 0.0), 0.5).exterior.coords) > 32  # the swath's sure yes for a base counts on it
    rng = np.random.default_rng(33)
    asked = without = 0
    for _ in range(150):
        path, facing, size = random_drive(rng)
        shapes: list[BaseGeometry] = []
        discs: list[tuple[XY, float]] = []
        for _ in range(6):
            at = (float(rng.uniform(-12, 12)), float(rng.uniform(-12, 12)))
            kind = int(rng.integers(4))
            if kind == 0:
                discs.append((at, float(rng.uniform(0.2, 1.0))))
                shapes.append(V.disc(*discs[-1]))
            elif kind == 1:
                shapes.append(V.footprint(at, float(rng.uniform(-180, 180)), *size))
            elif kind == 2:
                a = float(rng.uniform(-math.pi, math.pi))
                shapes.append(LineString([at, (at[0] + 6 * math.cos(a), at[1] + 6 * math.sin(a))]))
            else:
                a = float(rng.uniform(-math.pi, math.pi))
                wall = LineString([at, (at[0] + 8 * math.cos(a), at[1] + 8 * math.sin(a))])
                shapes.append(wall.buffer(0.25, cap_style="flat"))
        n, w = compare(path, facing, size, shapes, discs)
        asked, without = asked + n, without + w
    assert asked > 2000
    assert without > asked * 0.8, (without, asked)


def _outward(fresh: BaseGeometry, rng: np.random.Generator) -> tuple[XY, XY]:
    """A point on ``fresh``'s outer edge (away from its corners) and the unit normal pointing out of it there."""
    ring = fresh.exterior if fresh.geom_type == "Polygon" else max(fresh.geoms, key=lambda g: g.area).exterior
    coords = list(ring.coords)
    while True:
        k = int(rng.integers(len(coords) - 1))
        (x0, y0), (x1, y1) = coords[k], coords[k + 1]
        edge = math.hypot(x1 - x0, y1 - y0)
        if edge > 0.5:
            break
    t = float(rng.uniform(0.25, 0.75))
    at = (x0 + t * (x1 - x0), y0 + t * (y1 - y0))
    normal = ((y1 - y0) / edge, -(x1 - x0) / edge)
    probe = Point(at[0] + 1e-3 * normal[0], at[1] + 1e-3 * normal[1])
    if fresh.contains(probe):
        normal = (-normal[0], -normal[1])
    return at, normal


def _centre(at: XY, normal: XY, r: float, depth: float) -> XY:
    """The centre of a disc of radius ``r`` pushed ``depth`` inches past ``at`` against ``normal``."""
    return (at[0] + (r - depth) * normal[0], at[1] + (r - depth) * normal[1])


def _disc(at: XY, normal: XY, r: float, depth: float) -> BaseGeometry:
    """A man's base (``vehicles.disc``) of radius ``r`` pushed ``depth`` inches past ``at`` against ``normal``."""
    return V.disc(_centre(at, normal, r, depth), r)


def _square(at: XY, normal: XY, r: float, depth: float) -> BaseGeometry:
    """A square of side ``2 r`` turned to ``normal``, pushed ``depth`` inches past ``at`` against it."""
    nx, ny = normal
    cx, cy = at[0] + (r - depth) * nx, at[1] + (r - depth) * ny
    return Polygon([(cx + r * (-sx * nx - sy * ny), cy + r * (-sx * ny + sy * nx)) for sx, sy in QUARTERS])


QUARTERS = ((1, 1), (1, -1), (-1, -1), (-1, 1))


def _at_area(make: Any, fresh: BaseGeometry, area: float) -> float:
    """The depth (bisected) at which the shape ``make(depth)`` shares ``area`` with ``fresh``."""
    lo, hi = -0.5, 0.5
    for _ in range(34):
        mid = (lo + hi) / 2
        if fresh.intersection(make(mid)).area > area:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


@pytest.mark.parametrize("seed", [1, 2])
def test_shapes_just_either_side_of_each_threshold_are_answered_as_the_ground_built_whole(seed: int) -> None:
    """Discs and squares pushed into a drive's fresh ground until they share just under and just over 0.01 and
    1e-6 square inch with it, and just touching it; drives whose ground passes the table's edge by just more
    and just less than the tolerance: every answer is the long way's."""
    rng = np.random.default_rng(seed)
    thresholds = 0
    for _ in range(14):
        path, facing, size = random_drive(rng)
        if math.hypot(path[-1][0] - path[0][0], path[-1][1] - path[0][1]) < 2.0:
            continue
        _, fresh = built(path, facing, *size)
        at, normal = _outward(fresh, rng)
        shapes: list[BaseGeometry] = []
        discs: list[tuple[XY, float]] = []
        for radius in (0.3, 0.49, 0.6):
            disc, square = functools.partial(_disc, at, normal, radius), functools.partial(_square, at, normal, radius)
            for make in (disc, square):
                for area in (0.01, 1e-6):
                    depth = _at_area(make, fresh, area)
                    shapes += [make(depth + k) for k in (-1e-4, -1e-7, 1e-7, 1e-4)]
                shapes += [make(k) for k in (-1e-9, 0.0, 1e-9)]  # touching, or nearly
            depth = _at_area(disc, fresh, 0.01)
            discs += [(_centre(at, normal, radius, depth + k), radius) for k in (-1e-4, -1e-7, 1e-7, 1e-4, 0.05, 0.3)]
            discs += [(_centre(at, normal, radius, k), radius) for k in (-1e-9, 0.0, 1e-9)]
        n, _ = compare(path, facing, size, shapes, discs)
        thresholds += n
        ground, _ = built(path, facing, *size)
        minx, miny, maxx, maxy = ground.bounds
        for k in (-1e-7, 1e-7, -1e-3, 1e-3):  # the table's edges just past the ground's and just short of it
            for width, depth in ((maxx - TOLERANCE + k, maxy + 5), (maxx + 5, maxy - TOLERANCE + k)):
                shifted = tuple((x - minx, y - miny) for x, y in path)
                want = long_leaves(built(shifted, facing, *size)[0], width - minx, depth - miny)
                assert V.Ground(shifted, facing, *size).leaves(width - minx, depth - miny, TOLERANCE) == want
    assert thresholds > 300, thresholds


class LongGround(V.Ground):
    """``vehicles.Ground`` asked the long way: every test of the ground built whole."""

    def leaves(self, width: float, depth: float, t: float) -> bool:
        return long_leaves(self.ground, width, depth)

    def meets(self, shape: BaseGeometry) -> bool:
        return bool(self.fresh.intersects(shape))

    def stopped_by(self, shape: BaseGeometry, polygon_edge: bool) -> bool:
        return long_stopped_by(self.fresh, shape, polygon_edge)

    def overlaps(self, shape: BaseGeometry, bounds: Any = None, keep: bool = True) -> bool:
        return long_overlaps(self.fresh, shape)


class CountedGround(V.Ground):
    """``vehicles.Ground``, counting the grounds made."""

    made = 0

    def __init__(self, *args: Any) -> None:
        CountedGround.made += 1
        super().__init__(*args)


@pytest.mark.parametrize("scenario", ["convoy", "castle_storm"])
def test_every_drive_the_doctrine_probes_meets_the_ground_as_the_ground_built_whole(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every drive the doctrine probes in the first turns of a game: the ground's problem, the whole measure
    (the vehicles and men in the way, the cost) and the sure refusal from grounds answered by their swaths
    are the long way's; and few grounds are built (before, every one was)."""
    game = game_of(scenario, 1)
    bot = DoctrineBot(np.random.default_rng(stream(33, 1, BOTS)))
    probes: list[Any] = []
    contains = DriveSpace.contains

    def kept(space: DriveSpace, action: Any) -> bool:
        probes.append(action)
        return contains(space, action)

    made = {"swept": 0}
    CountedGround.made = 0
    swept = V.swept

    def counted(*args: Any) -> Any:
        made["swept"] += 1
        return swept(*args)

    compared = 0
    while game.result is None and compared < 120:
        decision = game.pending()[0]
        probes.clear()
        with monkeypatch.context() as patched:
            patched.setattr(DriveSpace, "contains", kept)
            action = bot.choose(game, decision)
        for probe in probes:
            with monkeypatch.context() as patched:
                patched.setattr(V, "swept", counted)
                patched.setattr(V, "Ground", CountedGround)
                short = _measures(game.ctx, probe)
            with monkeypatch.context() as patched:
                patched.setattr(V, "ground_of", LongGround)
                long = _measures(game.ctx, probe)
            assert short == long, (probe, short, long)
            compared += short is not None
        game.apply(decision.seat, action, checked=False, decision=decision)
    assert compared >= 60, compared
    assert made["swept"] * 40 < CountedGround.made, (made, CountedGround.made)


def forget() -> None:
    """The grounds kept (``vehicles.ground_of``'s cache) forgotten, when it is the cache."""
    getattr(V.ground_of, "cache_clear", lambda: None)()


def _measures(ctx: Any, action: Any) -> Any:
    """The drive's ground problem, its measure and whether it is surely refused, each ground fresh."""
    v = ctx.state.vehicles[action.vehicle]
    entry = ctx.tables.vehicles.kind(v.kind)
    if not action.path or entry.afloat:
        return None
    path = (v.x, v.y), *action.path
    base = ctx.tables.sight.base.value
    others = [(o.id, ctx.vehicle_shape(o)) for o in ctx.state.vehicles.values() if o.id != v.id]
    men = [(f.id, (f.x, f.y)) for f in ctx.state.figures.values() if f.alive and f.on_table and f.aboard is None]
    if math.hypot(path[-1][0] - path[0][0], path[-1][1] - path[0][1]) <= TOLERANCE:
        return None
    forget()
    problem = V._ground_problem(ctx.terrain, V.ground_of(path, v.heading, entry.length, entry.width), v.kind)
    forget()
    measure = V.measure_drive(
        ctx.terrain,
        path,
        kind=v.kind,
        facing=v.heading,
        allowance=entry.move,
        others=others,
        men=men,
        radius=base / 2 - TOLERANCE,
    )
    forget()
    ctx.sight_memo(ctx.terrain).clear()
    sure = DV.surely_refused(ctx, v.id, action)
    forget()
    return problem, measure.problem, measure.cost, measure.heading, sure


@pytest.mark.parametrize("scenario", ["convoy", "castle_storm"])
def test_the_grounds_refusals_and_costs_kept_for_its_terrains_are_what_each_terrain_works_out(scenario: str) -> None:
    """At every drive decision of a game, drives every 30 degrees round the vehicle: the ground's refusal
    and the measure found through ``driving.ground_memo`` (kept for every terrain of the same ground, as
    vehicles move) are those worked out afresh on the terrain of the moment; a vehicle's drive makes a new
    terrain but the same memo (before, each terrain had its own), and the memo keeps answers across them."""
    game = game_of(scenario, 2)
    bot = DoctrineBot(np.random.default_rng(stream(33, 2, BOTS)))
    probes = kept = 0
    memos: dict[str, set[int]] = {"terrains": set(), "problems": set(), "costs": set()}
    asked: list[Any] = []  # the keys asked at the last drive decision, and of which terrain
    while game.result is None and probes < 400:
        decision = game.pending()[0]
        if isinstance(decision.space, DriveSpace):
            ctx = game.ctx
            terrain = ctx.terrain
            v = ctx.state.vehicles[decision.space.vehicle]
            entry = ctx.tables.vehicles.kind(v.kind)
            problems, costs = DV.ground_memo(ctx, terrain), DV.ground_memo(ctx, terrain, "costs")
            if asked and asked[0] != id(terrain) and asked[1] == id(problems):  # another terrain, the same ground
                kept += sum(key in problems for key in asked[2:])
            asked = [id(terrain), id(problems)]
            memos["terrains"].add(id(terrain))
            memos["problems"].add(id(problems))
            memos["costs"].add(id(costs))
            for k in range(12):
                for r in (entry.move, entry.move / 3):
                    a = math.radians(30 * k)
                    path = [(v.x, v.y), (round(v.x + r * math.cos(a), 2), round(v.y + r * math.sin(a), 2))]
                    asked.append(("drive ground", tuple(path), v.kind, v.heading))
                    args: dict[str, Any] = dict(kind=v.kind, facing=v.heading)
                    want = V.ground_problem(terrain, path, **args)
                    assert V.ground_problem(terrain, path, **args, memo=problems) == want
                    args.update(allowance=entry.move, river_paid=v.river_paid, ground_ok=True)
                    fresh = V.measure_drive(terrain, path, **args)
                    memo = V.measure_drive(terrain, path, **args, costs=costs)
                    assert (memo.cost, memo.parts, memo.rivers) == (fresh.cost, fresh.parts, fresh.rivers)
                    probes += 1
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert probes >= 200
    assert len(memos["terrains"]) > len(memos["problems"]) >= 1 and len(memos["costs"]) == 1, memos
    assert kept > 20, kept


def test_the_grounds_memos_are_bounded_and_drop_the_oldest_ground_first() -> None:
    """``driving.ground_memo`` keeps at most ``STORES`` grounds (a tank trap laid makes another), dropping the
    oldest first, the latest kept; a memo past ``STORE_ENTRIES`` starts afresh (a long simulate stays bounded)."""
    ctx = game_of("convoy", 0).ctx
    base = ctx.terrain
    memos = []
    for k in range(DV.STORES + 3):
        terrain = base.with_works((), [(2.0 + k, 2.0)])
        memo = DV.ground_memo(ctx, terrain)
        memo["seen"] = k
        memos.append(memo)
        assert DV.ground_memo(ctx, terrain) is memo
    stores = ctx.shared.bot_cache["drive grounds"]
    assert len(stores) == DV.STORES
    kept = [m.get("seen") for m in stores.values()]
    assert kept == list(range(3, DV.STORES + 3))
    memo = memos[-1]
    memo.update({k: None for k in range(DV.STORE_ENTRIES)})
    assert DV.ground_memo(ctx, base.with_works((), [(2.0 + DV.STORES + 2, 2.0)])) == {}
