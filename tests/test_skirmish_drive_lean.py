"""The drive doctrine's and the drive check's leaner ways (issue 33, item 4) give what the long way gives.

Each short cut is compared with the long way, written here as the code had it, over many cases and over cases
just either side of each threshold, and each test also shows the work the short cut leaves out (it fails on
the code before it).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from grognard.core.dice import BOTS, stream
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, snap, snap_angle
from grognard.rulesets.skirmish import boarding as BD
from grognard.rulesets.skirmish import bots_drive as BV
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import sight as SG
from grognard.rulesets.skirmish import swath as SW
from grognard.rulesets.skirmish import vehicles as V
from grognard.rulesets.skirmish.actions import Drive
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.driving import DriveSpace
from grognard.rulesets.skirmish.terrain import Terrain
from skirmish_games import game_of, mg_gunners

XY = tuple[float, float]


# ------------------------------------------------------------------------------ vehicles side by side
def long_way_abreast(terrain: Terrain, a: XY, a_facing: float, b: XY, length: float) -> bool:
    """``vehicles.abreast_on_road`` as it was: each road asked of both places first."""
    for road in terrain.by_kind("road"):
        if not (road.shape.covers(Point(a)) and road.shape.covers(Point(b))):
            continue
        h = math.radians(a_facing)
        dx, dy = b[0] - a[0], b[1] - a[1]
        along = dx * math.cos(h) + dy * math.sin(h)
        across = -dx * math.sin(h) + dy * math.cos(h)
        if abs(along) < length and abs(across) > TOLERANCE:
            return True
    return False


def test_vehicles_abreast_on_a_road_are_found_as_the_long_way_finds_them_asking_the_roads_less(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Places on convoy's roads and off them, the other vehicle ahead, behind and beside by just less and just
    more than the length and the tolerance: every answer is the long way's; the roads are asked only of a
    vehicle beside the other (before, of every one on a road)."""
    terrain = game_of("convoy", 0).ctx.terrain
    roads = terrain.by_kind("road")
    assert roads
    rng = np.random.default_rng(33)
    asked = {"roads": 0}
    intersects_xy = shapely.intersects_xy

    def counted(*args: Any) -> Any:
        asked["roads"] += 1
        return intersects_xy(*args)

    monkeypatch.setattr(shapely, "intersects_xy", counted)
    cases = beside = 0
    for _ in range(120):
        road = roads[int(rng.integers(len(roads)))].shape
        x0, y0, x1, y1 = road.bounds
        a = (round(float(rng.uniform(x0, x1)), 2), round(float(rng.uniform(y0, y1)), 2))
        facing = round(float(rng.uniform(-180, 180)), 1)
        length = round(float(rng.uniform(1.0, 4.0)), 2)
        h = math.radians(facing)
        for along in (0.0, 0.5, length - 1e-9, length, length + 1e-9, -length + 1e-9, -length - 1e-9, 3 * length):
            for across in (0.0, TOLERANCE - 1e-9, TOLERANCE + 1e-9, 0.3, -0.3, 1.0, 5.0):
                b = (
                    a[0] + along * math.cos(h) - across * math.sin(h),
                    a[1] + along * math.sin(h) + across * math.cos(h),
                )
                want = long_way_abreast(terrain, a, facing, b, length)
                before = asked["roads"]
                assert V.abreast_on_road(terrain, a, facing, b, length) == want, (a, facing, b, length)
                dx, dy = b[0] - a[0], b[1] - a[1]
                side = (
                    abs(dx * math.cos(h) + dy * math.sin(h)) < length
                    and abs(-dx * math.sin(h) + dy * math.cos(h)) > TOLERANCE
                )
                if not side:
                    assert asked["roads"] == before, (a, b)  # not beside it: no road asked
                beside += side
                cases += 1
    assert cases > 6000 and beside > 1000, (cases, beside)


# ------------------------------------------------------------------------------ the train's run
def long_way_train_run(terrain: Terrain, railway: str, head: float, blockers: list[BaseGeometry]) -> float:
    """``vehicles.train_run`` as it was: every blocker's shape made and asked."""
    step = terrain.tables.vehicles.train_move.value
    feature = next(f for f in terrain.by_kind("railway") if f.id == railway)
    line = feature.line
    assert isinstance(line, LineString)
    width = feature.shape.area / max(line.length, TOLERANCE)
    lo, hi = max(0.0, head), min(line.length, head + step)
    if hi - lo <= TOLERANCE:
        return step
    ahead = V._substring(line, lo, hi).buffer(width / 2, cap_style="flat")
    best = step
    for shape in blockers:
        if not ahead.intersects(shape):
            continue
        first = min(line.project(Point(c)) for c in V._corners(ahead.intersection(shape)))
        best = min(best, max(0.0, first - head - 0.5))
    return best


@pytest.mark.rule("skirmish.44")
def test_the_trains_run_makes_only_the_bases_near_the_track_ahead_and_runs_as_far_as_the_long_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Men all over convoy's table and men just touching the track ahead, just clear of it and just either side
    of its ends (by 1e-7" and 1e-3"), with and without a vehicle on the line: the train runs as far as the long
    way says (every man's base made), and only the bases of men near the track ahead are made (before, every
    man's)."""
    ctx = game_of("convoy", 0).ctx
    terrain = ctx.base_terrain
    railway = ctx.railway
    assert railway is not None
    line = next(f for f in terrain.by_kind("railway") if f.id == railway).line
    assert isinstance(line, LineString)
    radius = ctx.tables.sight.base.value / 2
    step = ctx.tables.vehicles.train_move.value
    rng = np.random.default_rng(44)
    made = {"bases": 0}
    buffer = Point.buffer

    def counted(self: Point, *args: Any, **kwargs: Any) -> Any:
        made["bases"] += 1
        return buffer(self, *args, **kwargs)

    runs = short = 0
    for head in (0.0, 20.0, line.length - 5.0):
        ahead = V._substring(line, max(0.0, head), min(line.length, head + step))
        tip, tail = ahead.interpolate(ahead.length), ahead.interpolate(0.0)
        feature = next(f for f in terrain.by_kind("railway") if f.id == railway)
        half = feature.shape.area / line.length / 2
        edge = [(p.x, p.y) for p in (tip, tail)]
        for k in range(8):
            mid = ahead.interpolate(ahead.length * (k + 0.5) / 8)
            after = ahead.interpolate(min(ahead.length, ahead.length * (k + 0.5) / 8 + 0.01))
            dx, dy = after.x - mid.x, after.y - mid.y
            n = math.hypot(dx, dy) or 1.0
            for gap in (-1e-3, -1e-7, 1e-7, 1e-3):  # the base's circle just over the band's side, or just clear
                d = half + radius + gap
                edge.append((mid.x - dy / n * d, mid.y + dx / n * d))
        men = [(float(rng.uniform(0, terrain.width)), float(rng.uniform(0, terrain.depth))) for _ in range(40)]
        for at in edge:
            for gap in (-1e-3, -1e-7, 1e-7, 1e-3):
                men.append((at[0] + gap, at[1]))
                men.append((at[0], at[1] + radius + gap))
        x0, y0, x1, y1 = V._substring(line, max(0.0, head), min(line.length, head + step)).buffer(half).bounds
        for lot in range(0, len(men), 3):
            chosen = men[lot : lot + 3]
            for vehicles in ([], [V.footprint((x1 + 0.5, (y0 + y1) / 2), 0.0, 2.0, 1.0)]):
                want = long_way_train_run(
                    terrain, railway, head, [*vehicles, *(Point(at).buffer(radius) for at in chosen)]
                )
                made["bases"] = 0
                with monkeypatch.context() as patched:
                    patched.setattr(Point, "buffer", counted)
                    got = V.train_run(terrain, railway, head, vehicles, chosen, radius)
                assert got == want, (head, chosen)
                near = sum(
                    x0 - radius - 1e-6 <= x <= x1 + radius + 1e-6 and y0 - radius - 1e-6 <= y <= y1 + radius + 1e-6
                    for x, y in chosen
                )
                assert made["bases"] <= near + 1, (made, near)  # the track's band and the near men's bases
                runs += 1
                short += got < step
    assert runs > 400 and short > 100, (runs, short)


# ------------------------------------------------------------------------------ the drive doctrine's aim
def test_the_drive_doctrines_objectives_are_made_once_a_scenario_as_the_long_way_makes_them() -> None:
    """The objectives the drive doctrine aims at, with their centres, are the polygons and centroids made
    afresh from the scenario, in its order, and the second decision reads the same objects (before, each
    decision made them again)."""
    for scenario in ("convoy", "castle_storm"):
        ctx = game_of(scenario, 0).ctx
        spec = ctx.scenario.spec
        want = [Polygon(o.shape) for o in spec.objectives if o.id in spec.victory.objectives]
        found = BV.objectives(ctx)
        assert [shape.equals_exact(w, 0.0) for (shape, _), w in zip(found, want, strict=True)] == [True] * len(want)
        assert [c for _, c in found] == [(w.centroid.x, w.centroid.y) for w in want]
        assert BV.objectives(game_of(scenario, 1).ctx) is found


# ------------------------------------------------------------------------------ the whole check of a probe
def _outcome(ctx: Any, drive: Drive) -> Any:
    """``check_drive``'s plan, or its refusal (rule and words)."""
    try:
        return DV.check_drive(ctx, drive)
    except IllegalAction as refusal:
        return (refusal.rule, str(refusal))


@pytest.mark.parametrize("scenario", ["convoy", "castle_storm"])
def test_a_drive_checked_after_its_probe_reads_what_the_probe_found_clear_and_decides_as_the_whole_check(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the drive decisions of a game, while the state stands still as the doctrine weighs its drive: drives
    every 30 degrees round the vehicle (a whole, a half and a tenth of a move: into the other vehicles and the
    men on foot, and clear of them), each with and without its passengers out after it, probed
    (``DriveSpace.contains``) and then checked whole: the plan or the refusal is the one ``check_drive`` gives
    with nothing kept; and the drives ``surely_refused`` found clear of vehicles and men are not looked over
    for them again (``measure_drive`` given none; before, every one was)."""
    game = game_of(scenario, 1)
    bot = DoctrineBot(np.random.default_rng(stream(33, 1, BOTS)))
    asked: list[bool] = []
    measure_drive = V.measure_drive

    def counted(*args: Any, **kwargs: Any) -> Any:
        asked.append(bool(kwargs.get("others")) or bool(kwargs.get("men")))
        return measure_drive(*args, **kwargs)

    checked = passed = 0
    while game.result is None and checked < 500:
        decision = game.pending()[0]
        space = decision.space
        if isinstance(space, DriveSpace):
            ctx = game.ctx
            v = ctx.state.vehicles[space.vehicle]
            move = ctx.tables.vehicles.kind(v.kind).move
            stop = space.unload_all()
            drives = [
                Drive(v.id, ((snap(v.x + r * math.cos(a)), snap(v.y + r * math.sin(a))),), None, after)
                for a in (math.radians(30 * k) for k in range(12))
                for r in (move, move / 2, move / 10)
                for after in {None, stop}
            ]
            want = [_outcome(ctx, d) for d in drives]  # the whole check, nothing kept
            with ctx.still():
                got = []
                for d in drives:
                    space.contains(d)
                    asked.clear()
                    with monkeypatch.context() as patched:
                        patched.setattr(V, "measure_drive", counted)
                        got.append(_outcome(ctx, d))
                    passed += asked == [False]
            assert got == want
            checked += len(drives)
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert checked >= 300 and passed >= 50, (checked, passed)


# ------------------------------------------------------------------------------ where men get out
def long_way_free_spots(ctx: Any, v: Any, points: list[Point], afoot: dict[str, XY]) -> list[XY]:
    """``boarding._free_spots`` as it was: every man on foot and every boulder asked of every point."""
    base = ctx.tables.sight.base.value
    terrain = ctx.terrain
    others = [ctx.vehicle_shape(o) for o in ctx.state.vehicles.values() if o.id != v.id]
    train = ctx.train_now()
    others += [train] if train is not None else []
    out: list[XY] = []
    for p in points:
        spot = (snap(p.x), snap(p.y))
        if not terrain.on_table(*spot) or terrain.in_river(*spot) or terrain.in_pond(*spot):
            continue
        if terrain.building_at(*spot) is not None or any(b.shape.covers(Point(spot)) for b in terrain.boulders):
            continue
        body = Point(spot).buffer(base / 2)
        if any(body.intersects(o) for o in others):
            continue
        if any(
            math.hypot(x - spot[0], y - spot[1]) < base - TOLERANCE
            or (ctx.state.figures[fid].side != v.side and math.hypot(x - spot[0], y - spot[1]) <= base + TOLERANCE)
            for fid, (x, y) in afoot.items()
        ) or any(math.hypot(x - spot[0], y - spot[1]) < base - TOLERANCE for x, y in out):
            continue
        out.append(spot)
    return out


@pytest.mark.rule("skirmish.61")
def test_the_spots_men_get_out_at_ask_only_the_men_near_and_are_the_long_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round each vehicle of convoy, at its place and 3" on: the men on foot of the game, then friends and foes
    put at a spot just either side of a base less the tolerance and a base and the tolerance away from it (on
    the axes and the slant), and a boulder on a spot: the free spots, in order, are the long way's; and only
    the men near the spots are measured (before, every man on foot at every point)."""
    game = game_of("convoy", 1)
    ctx = game.ctx
    base = ctx.tables.sight.base.value
    measured = {"gaps": 0}
    hypot = math.hypot

    def counted(*args: float) -> float:
        measured["gaps"] += 1
        return hypot(*args)

    cases = fewer = 0
    rng = np.random.default_rng(61)
    for v in list(ctx.state.vehicles.values()):
        for ahead in (0.0, 3.0):
            h = math.radians(v.heading)
            at = (round(v.x + ahead * math.cos(h), 2), round(v.y + ahead * math.sin(h), 2))
            spots = BD.exit_spots(ctx, v, at, v.heading, {})
            afoot = {f.id: (f.x, f.y) for f in ctx.state.figures.values() if f.alive and f.aboard is None}
            sides = {f.id: f.side for f in ctx.state.figures.values()}
            men = [fid for fid in sides if fid not in afoot]
            for spot in spots[:3]:
                for gap in (base - TOLERANCE, base + TOLERANCE):
                    for k in (-1e-9, 1e-9):
                        a = float(rng.uniform(0, 2 * math.pi)) if rng.random() < 0.5 else 0.0
                        if men:
                            afoot[men.pop()] = (spot[0] + (gap + k) * math.cos(a), spot[1] + (gap + k) * math.sin(a))
            ring = ctx.vehicle_shape(v, at, v.heading).buffer(0.75, join_style="mitre").exterior
            points = [ring.interpolate(ring.length * k / 16) for k in range(16)]
            for kept in (afoot, {**afoot, **{fid: (x + 40.0, y) for fid, (x, y) in list(afoot.items())[:5]}}):
                want = long_way_free_spots(ctx, v, points, kept)
                measured["gaps"] = 0
                with monkeypatch.context() as patched:
                    patched.setattr(math, "hypot", counted)
                    got = BD._free_spots(ctx, v, points, kept)
                assert got == want, (v.id, at)
                fewer += measured["gaps"] < len(points) * len(kept) / 2
                cases += 1
    rocky = game_of("hill_assault", 0).ctx  # round a boulder's corner: the spots on it are left out
    v = next(iter(ctx.state.vehicles.values()))
    for rock in rocky.terrain.boulders:
        c = rock.shape.exterior.coords[0]
        points = [Point(c[0] + 0.3 * math.cos(k / 3), c[1] + 0.3 * math.sin(k / 3)) for k in range(19)]
        points.append(rock.shape.centroid)
        got = BD._free_spots(rocky, v, points, {})
        assert got == long_way_free_spots(rocky, v, points, {}) and len(got) < len(points)
    assert cases >= 8 and fewer == cases, (cases, fewer)


# ------------------------------------------------------------------------------ a probe's sure refusal
def test_a_paths_length_told_without_its_line_is_the_lines() -> None:
    """Paths of one to three legs on the 0.01" grid, with legs of nothing, half a step, a step (the
    tolerance, by either rounding), two steps and random ones: ``vehicles.no_length`` says what
    ``line_of(path).length <= TOLERANCE`` says, and makes the line only for the few near the tolerance."""
    rng = np.random.default_rng(23)
    made = told = 0
    line_of = V.line_of
    for _ in range(3000):
        x, y = round(float(rng.uniform(0, 48)), 2), round(float(rng.uniform(0, 48)), 2)
        path = [(x, y)]
        for _ in range(int(rng.integers(1, 4))):
            step = float(rng.choice([0.0, 0.005, 0.01, 0.02, float(rng.uniform(0, 3))]))
            a = float(rng.choice([0.0, math.pi / 2, math.pi, math.pi / 4, float(rng.uniform(-math.pi, math.pi))]))
            x, y = round(x + step * math.cos(a), 2), round(y + step * math.sin(a), 2)
            path.append((x, y))
        want = line_of(tuple(path)).length <= TOLERANCE
        line_of.cache_clear()
        assert V.no_length(path) == want, path
        made += line_of.cache_info().currsize
        told += want
    assert told > 300 and 30 < made < 1500, (told, made)


@pytest.mark.parametrize("scenario", ["convoy", "castle_storm"])
def test_the_ground_memo_is_found_once_a_decision_and_every_drive_surely_refused_is_refused_whole(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the drive decisions of a game, the doctrine's probes and drives every 45 degrees round the vehicle:
    every drive ``surely_refused`` refuses, the whole check refuses (with nothing kept), and the ground's memos
    are found once a decision while the state stands still (before, once a probe, and again in the check)."""
    game = game_of(scenario, 2)
    bot = DoctrineBot(np.random.default_rng(stream(33, 2, BOTS)))
    found = {"memos": 0}
    ground_memo = DV.ground_memo

    def counted(*args: Any) -> Any:
        found["memos"] += 1
        return ground_memo(*args)

    probes: list[Any] = []
    contains = DriveSpace.contains

    def kept(space: DriveSpace, action: Any) -> bool:
        probes.append(action)
        return contains(space, action)

    decisions = refused = 0
    while game.result is None and decisions < 12:
        decision = game.pending()[0]
        space = decision.space
        if isinstance(space, DriveSpace):
            ctx = game.ctx
            v = ctx.state.vehicles[space.vehicle]
            move = ctx.tables.vehicles.kind(v.kind).move
            drives = [
                Drive(v.id, ((snap(v.x + r * math.cos(a)), snap(v.y + r * math.sin(a))),))
                for a in (math.radians(45 * k) for k in range(8))
                for r in (move, move / 3)
            ]
            probes.clear()
            found["memos"] = 0
            with monkeypatch.context() as patched:
                patched.setattr(DV, "ground_memo", counted)
                patched.setattr(DriveSpace, "contains", kept)
                with ctx.still():
                    for d in drives:
                        space.contains(d)
                    action = bot.choose(game, decision)
            assert found["memos"] <= 2, found  # the problems and the costs
            for d in [*drives, *probes]:
                if DV.surely_refused(ctx, v.id, d):
                    with pytest.raises(IllegalAction):
                        DV.check_drive(ctx, d)
                    refused += 1
            decisions += 1
            game.apply(decision.seat, action, checked=False, decision=decision)
        else:
            game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert decisions >= 8 and refused >= 40, (decisions, refused)


# ------------------------------------------------------------------------------ a gunner's wedges
def long_way_wedge_rows(ctx: Any, gunner: Any, headings: list[float]) -> Any:
    """``fire.wedge_rows`` as it was: the men, their wedge lengths and dice worked out at every call, each
    heading's row found man by man."""
    tables, terrain = ctx.tables, ctx.terrain
    weapon = M.weapon_of(ctx, gunner)
    angle = tables.wedge.angle.value
    reach = tables.max_range(weapon)
    base = tables.sight.base.value
    apex = (gunner.x, gunner.y)
    longest = reach + max((h.height for h in terrain.hills), default=0.0) * tables.hills.range_downhill_per_inch.value
    opened = frozenset(M.open_doors(ctx))
    memo = ctx.sight_memo(terrain)
    six = FI.six_hits_in_cover(ctx.state.options)
    men = [
        f
        for f in sorted(ctx.state.figures.values(), key=lambda g: g.id)
        if f.id != gunner.id
        and f.alive
        and f.on_table
        and not (gunner.aboard is not None and f.aboard == gunner.aboard)
        and math.hypot(f.x - apex[0], f.y - apex[1]) <= longest + base
    ]
    lengths = [R.wedge_length(terrain, apex, (f.x, f.y), reach) for f in men]
    if len(headings) > 1:
        keep = [FI._within_length(apex, (f.x, f.y), length, base) for f, length in zip(men, lengths, strict=True)]
        men = [f for f, k in zip(men, keep, strict=True) if k]
        lengths = [n for n, k in zip(lengths, keep, strict=True) if k]
    where = np.array([(f.x, f.y) for f in men], dtype=float).reshape(-1, 2)
    reaches = np.array(lengths, dtype=float)
    dice: list[Any] = [None] * len(men)
    known = [False] * len(men)
    snapped = [snap_angle(heading) for heading in headings]
    column = np.array(snapped, dtype=float).reshape(-1, 1)
    asides = FI.surely_aside(apex, column, angle, where, base)
    insides = FI.surely_under(apex, column, angle, where, reaches, base).tolist()
    rows: list[list[int]] = []
    for heading, aside, inside in zip(snapped, asides, insides, strict=True):
        row: list[int] = []
        for k in (~aside).nonzero()[0].tolist():
            f = men[k]
            at = (f.x, f.y)
            if not (inside[k] or R.under_wedge(terrain, apex, heading, angle, reach, at, base)):
                continue
            if not known[k]:
                key = ("sight", apex, at, opened)
                if key not in memo:
                    SG.fill_sight(terrain, memo, [(apex, at)], opened)
                known[k] = True
                dice[k] = None if memo[key] is not None else FI._wedge_die(ctx, terrain, memo, gunner, f, weapon, six)
            row.append(k)
        rows.append(row)
    return men, dice, rows


@pytest.mark.parametrize("scenario", ["convoy", "castle_storm"])
def test_a_gunners_wedges_weighed_and_fired_while_the_state_stands_still_are_the_long_ways(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the fire decisions of a game, each MG gunner's wedges at the doctrine's headings and at headings
    that put each man just inside and just outside the wedge's edges (by 1e-7 and 0.5 degree), all at once
    and then one by one as the check fires them, while the state stands still: the men, dice and rows are the
    long way's (worked out afresh at every call); and the calls after the first work out no die and no man's
    wedge length again, but the rule's own for a man near an edge (before, every call did)."""
    again = {"lengths": 0, "dice": 0, "rule": 0}
    wedge_length, wedge_die, under_wedge = R.wedge_length, FI._wedge_die, R.under_wedge

    def rule(*args: Any) -> Any:
        again["rule"] += 1
        return under_wedge(*args)

    def lengths(*args: Any) -> Any:
        again["lengths"] += 1
        return wedge_length(*args)

    def dice(*args: Any) -> Any:
        again["dice"] += 1
        return wedge_die(*args)

    rows = 0
    for ctx, gunner in mg_gunners(scenario):
        half = ctx.tables.wedge.angle.value / 2
        apex = (gunner.x, gunner.y)
        bearings = [R.bearing(apex, (f.x, f.y)) for f in ctx.state.figures.values() if f.alive]
        headings = sorted(
            {snap_angle(b + s * (half + k)) for b in bearings for s in (-1, 1) for k in (-0.5, -1e-7, 1e-7)}
        )
        want = long_way_wedge_rows(ctx, gunner, headings)
        some = headings[:: max(1, len(headings) // 12)]
        each = [_named(long_way_wedge_rows(ctx, gunner, [h])) for h in some]
        with ctx.still():
            assert FI.wedge_rows(ctx, gunner, headings) == want
            again.update(lengths=0, dice=0, rule=0)
            with monkeypatch.context() as patched:
                patched.setattr(R, "wedge_length", lengths)
                patched.setattr(R, "under_wedge", rule)
                patched.setattr(FI, "_wedge_die", dice)
                got = [_named(FI.wedge_rows(ctx, gunner, [h])) for h in some]
            assert again["dice"] == 0 and again["lengths"] <= again["rule"], again  # the rule's own
        assert got == each
        rows += sum(len(row) for found in got for row in found)
    assert rows >= 20, rows


def _named(found: Any) -> Any:
    """A wedge's rows by the men's ids, with their dice."""
    men, dice, rows = found
    return [[(men[k].id, dice[k]) for k in row] for row in rows]


@pytest.mark.parametrize("scenario", ["castle_storm", "gun_line_armour"])
def test_a_search_reads_whether_the_ground_refused_a_drive_from_its_probe_as_the_ground_says(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the drive decisions of a game, the doctrine's searches and straight searches every 45 degrees round
    the vehicle: after each probe, what ``DriveSpace.ground_refused`` reads from it is ``ground_refuses`` asked
    afresh, and the searches ask ``ground_refuses`` nothing (before, after every refused probe while all were
    refused by the ground)."""
    game = game_of(scenario, 3)
    bot = DoctrineBot(np.random.default_rng(stream(33, 3, BOTS)))
    asked = {"ground": 0}
    ground_refuses = DV.ground_refuses

    def counted(*args: Any) -> Any:
        asked["ground"] += 1
        return ground_refuses(*args)

    contains = DriveSpace.contains
    read: list[tuple[bool, bool]] = []

    def compared(space: DriveSpace, action: Any) -> bool:
        legal = contains(space, action)
        v = space.ctx.state.vehicles[space.vehicle]
        read.append((space.ground_refused(action), ground_refuses(space.ctx, v, action)))
        return legal

    decisions = 0
    while game.result is None and decisions < 6:
        decision = game.pending()[0]
        space = decision.space
        if isinstance(space, DriveSpace):
            ctx = game.ctx
            v = ctx.state.vehicles[space.vehicle]
            move = ctx.tables.vehicles.kind(v.kind).move
            asked["ground"] = 0
            with monkeypatch.context() as patched:
                patched.setattr(DV, "ground_refuses", counted)
                with ctx.still():
                    for k in range(8):
                        a = math.radians(45 * k)
                        space.toward(v.x + move * math.cos(a), v.y + move * math.sin(a), steps=5)
                    action = bot.choose(game, decision)
            assert asked["ground"] == 0, asked
            with monkeypatch.context() as patched:
                patched.setattr(DriveSpace, "contains", compared)
                with ctx.still():
                    for k in range(8):
                        a = math.radians(45 * k + 10)
                        space.toward(v.x + move * math.cos(a), v.y + move * math.sin(a), steps=5)
            decisions += 1
            game.apply(decision.seat, action, checked=False, decision=decision)
        else:
            game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert all(got == want for got, want in read), read
    assert decisions >= 4 and sum(want for _, want in read) >= 10 and len(read) >= 60, (decisions, len(read))


def test_a_swaths_box_is_the_box_of_its_pieces_corners() -> None:
    """The box of a drive's outer pieces (``swath.Swath.box``, summed inline) is the one ``_corners`` gives,
    to the last bit, over drives of one and two legs from every heading."""
    rng = np.random.default_rng(76)
    for _ in range(1000):
        path = [(round(float(rng.uniform(0, 40)), 2), round(float(rng.uniform(0, 40)), 2))]
        for _ in range(int(rng.integers(1, 3))):
            path.append(
                (round(path[-1][0] + float(rng.uniform(-9, 9)), 2), round(path[-1][1] + float(rng.uniform(-9, 9)), 2))
            )
        swath = SW.Swath(
            path, round(float(rng.uniform(-180, 180)), 1), float(rng.uniform(1, 4)), float(rng.uniform(0.5, 2))
        )
        xs, ys = zip(*(c for f in swath.frames for c in SW._corners(f)), strict=True)
        assert swath.box == (min(xs), min(ys), max(xs), max(ys))
