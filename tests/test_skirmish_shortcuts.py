"""The skirmish engine's speed short cuts (issue 19) answer exactly as the plain computations they skip.

- ``rules.under_wedge`` rejects a man out of the wedge's angle by his distance from its edges' rays before
  the exact sector test: checked against that exact test alone, over seeded random men and headings and
  men placed just beside the edges (where a short cut would go wrong first); ``fire.surely_aside``, the
  same rejection over arrays with wide margins, never drops a man the exact test puts under the wedge.
- A drive's ground (``vehicles.ground_of``) kept and reused gives the same measure as one worked out afresh.
- The move space hands over the check it made of a move only on the state it made it on.
- A move ``moving.surely_refused`` (a man walking into a vehicle or the train) is one the whole check refuses;
  a path's measure kept in the terrain's memo (``moving.path_measure``) is ``paths.measure_path``'s afresh.
- A drive's ground problem (``vehicles.ground_problem``, which ``check_drive`` asks first, kept) is the first
  problem ``measure_drive`` finds with every vehicle and man in the way.
- A gunner's wedges at many headings at once (``fire.wedges``) are his wedges at each heading alone.
- The burst doctrine's placements best first (``bots_fire.best_first``) are in the plain scoring's order.
- The train kept by ``Context.train_now`` is the train made afresh; a point meets a road exactly when the
  road covers it (``vehicles.abreast_on_road``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import shapely
from shapely.geometry import Point

from grognard import rulesets
from grognard.core.dice import DICE, SeededDice, stream
from grognard.rulesets.skirmish import bots_fire as BF
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import paths as PA
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import vehicles as V
from grognard.rulesets.skirmish.actions import Move
from grognard.rulesets.skirmish.moving import MoveSpace
from grognard.rulesets.skirmish.scenario import load_scenario
from grognard.rulesets.skirmish.state import FireOrder
from grognard.rulesets.skirmish.terrain import build_terrain


def game(scenario: str):  # type: ignore[no-untyped-def]
    r = rulesets.get("skirmish")
    return r.new_game(r.resolve({"scenario": scenario}), SeededDice(stream(1, 0, DICE)))


def exact_under_wedge(terrain, apex, heading, angle, reach, at, base) -> bool:  # type: ignore[no-untyped-def]
    """``rules.under_wedge`` as it was written before the short cut: the sector test for every man beside it."""
    length = R.wedge_length(terrain, apex, at, reach)
    if length <= R.TOLERANCE:
        return False
    touch = base / 2 + R.TOLERANCE
    d = math.hypot(at[0] - apex[0], at[1] - apex[1])
    if d > length + touch:
        return False
    off = abs(math.remainder(math.degrees(math.atan2(at[1] - apex[1], at[0] - apex[0])) - heading, 360.0))
    if off <= angle / 2:
        return True
    if d <= touch:
        return True
    return bool(R.sector(apex, heading, angle, length).distance(Point(at)) <= touch)


@pytest.mark.parametrize("scenario", ["hill_assault", "convoy"])
def test_under_wedge_short_cut_agrees_with_the_sector_test(scenario: str) -> None:
    spec = load_scenario(scenario)
    terrain = build_terrain(spec.spec, spec.tables)
    rng = np.random.default_rng(19)
    base, angle, reach = 1.0, float(spec.tables.wedge.angle.value), 30.0
    checked = under = skipped = 0
    for _ in range(300):
        apex = (round(float(rng.uniform(0, terrain.width)), 2), round(float(rng.uniform(0, terrain.depth)), 2))
        heading = round(float(rng.uniform(-180, 180)), 2)
        men = [(float(rng.uniform(-40, 40)), float(rng.uniform(-40, 40))) for _ in range(6)]
        for side in (-1, 1):  # just beside each edge: 0.5" off it, either way, at several ranges
            edge = math.radians(heading + side * angle / 2)
            for r_ in (2.0, 10.0, 29.0, 31.0):
                for gap in (0.49, 0.5, 0.51, 0.52):
                    normal = edge + side * math.pi / 2
                    men.append(
                        (r_ * math.cos(edge) + gap * math.cos(normal), r_ * math.sin(edge) + gap * math.sin(normal))
                    )
        ats = [(round(apex[0] + dx, 2), round(apex[1] + dy, 2)) for dx, dy in men]
        aside = FI.surely_aside(apex, heading, angle, np.array(ats), base).tolist()
        for at, surely_not in zip(ats, aside, strict=True):
            want = exact_under_wedge(terrain, apex, heading, angle, reach, at, base)
            assert R.under_wedge(terrain, apex, heading, angle, reach, at, base) == want, (apex, heading, at)
            assert not (surely_not and want), (apex, heading, at)  # the array short cut never drops a man under it
            checked += 1
            under += want
            skipped += surely_not
    assert checked > 10_000 and 0 < under < checked  # both answers were exercised
    assert skipped > checked // 4  # and the array short cut took many of the men out of it


def test_a_kept_drive_ground_measures_as_a_fresh_one() -> None:
    g = game("convoy")
    ctx = g.ctx
    v = next(iter(ctx.state.vehicles.values()))
    entry = ctx.tables.vehicles.kind(v.kind)
    rng = np.random.default_rng(3)
    for _ in range(40):
        end = (round(v.x + float(rng.uniform(-12, 12)), 2), round(v.y + float(rng.uniform(-12, 12)), 2))
        path = [(v.x, v.y), end]
        kwargs = dict(kind=v.kind, facing=v.heading, allowance=entry.move)
        V.ground_of.cache_clear()
        fresh = V.measure_drive(ctx.terrain, path, **kwargs)
        again = V.measure_drive(ctx.terrain, path, **kwargs)  # the kept ground, and what it was found to meet
        assert (fresh.problem, fresh.cost, fresh.heading, fresh.parts) == (
            again.problem,
            again.cost,
            again.heading,
            again.parts,
        )
        ground, heading = V.swept(path, v.heading, entry.length, entry.width)
        kept = V.ground_of(tuple(path), v.heading, entry.length, entry.width)
        assert heading == kept.heading and shapely.equals_exact(ground, kept.ground, tolerance=0)


def test_the_move_space_hands_over_its_check_only_on_the_same_state() -> None:
    g = game("village_street")
    decision = next(d for d in g.pending() if isinstance(d.space, MoveSpace))
    space = decision.space
    hold = Move(space.unit)
    assert space.passed(hold) is None  # never checked
    assert space.contains(hold)
    assert space.passed(hold) is not None
    other = Move(space.unit, ((0.0, 0.0),))
    assert space.passed(other) is None  # another move
    g.state.done.add("something else")  # the game moved on
    assert space.passed(hold) is None


@pytest.mark.parametrize("first", [True, False])
def test_melee_expected_is_the_mean_of_the_exact_outcomes(first: bool) -> None:
    """``MeleeRound.expected`` works the means out man by man; they are the joint distribution's, exactly."""
    from fractions import Fraction

    from grognard.rulesets.skirmish import mechanics as MX

    checked = 0
    for attackers in range(5):
        for defenders in range(5):
            for shifts in ((0, 0), (1, 0), (0, 1)):
                for hit_on, survive_on in ((4, 5), (3, 6)):
                    m = MX.MeleeRound(attackers, defenders, first, hit_on, survive_on, *shifts)
                    die = m.outcomes()
                    total = die.denominator()
                    means = tuple(
                        sum((Fraction(int(v[i]) * q, total) for v, q in die.items()), Fraction(0)) for i in (0, 1)
                    )
                    assert m.expected() == means, m
                    checked += means != (0, 0)
    assert checked == 4 * 4 * 3 * 2  # every round with men on both sides


def test_a_walk_past_a_vehicle_meets_it_as_the_swept_body_does() -> None:
    """``vehicles.sweep_meets`` answers as the body swept (the path buffered by half a base) does, its short cuts
    both ways included: paths from far off to straight through, past vehicles of every shipped size."""
    from grognard.rulesets.skirmish.forces import vehicle_footprint

    rng = np.random.default_rng(23)
    half = 0.5
    answers: set[tuple[bool, float]] = set()
    for _ in range(1500):
        length, width = float(rng.uniform(1.0, 5.0)), float(rng.uniform(0.5, 2.5))
        shape = vehicle_footprint((10.0, 10.0), float(rng.uniform(-180, 180)), length, width)
        start = (round(float(rng.uniform(4, 16)), 2), round(float(rng.uniform(4, 16)), 2))
        ends = [start] + [
            (round(float(rng.uniform(4, 16)), 2), round(float(rng.uniform(4, 16)), 2))
            for _ in range(int(rng.integers(1, 3)))
        ]
        line = shapely.LineString(ends)
        want = bool(line.buffer(half).intersection(shape).area > 0.01)
        assert V.sweep_meets(line, half, shape, lambda line=line: line.buffer(half), min(length, width)) == want
        assert V.sweep_meets(line, half, shape, lambda line=line: line.buffer(half)) == want
        answers.add((want, round(float(shapely.distance(line, shape)), 1)))
    assert {w for w, _ in answers} == {True, False}
    assert any(w and d > 0.2 for w, d in answers)  # the body was needed too, not only the short cuts


@pytest.mark.parametrize("scenario", ["gun_line", "gun_line_armour", "castle_storm"])
def test_burst_landings_are_the_space_s_answers(scenario: str) -> None:
    """``aiming.landings`` (what does not depend on the landing point checked once) answers as
    ``BurstSpace.contains`` does for each point, for every gun, tank and mortar of the scenario, from the
    first turn's fire phase on (their own guns' arcs, ranges and sight decide it)."""
    from grognard.core.dice import BOTS
    from grognard.core.play import play_out
    from grognard.rulesets.skirmish import aiming as AI
    from grognard.rulesets.skirmish import artillery as AR
    from grognard.rulesets.skirmish.actions import Burst

    r = rulesets.get("skirmish")
    g = game(scenario)
    rng = np.random.default_rng(stream(1, 0, BOTS))
    bots = {side: r.bots["doctrine"](rng) for side in r.sides}
    seen: set[bool] = set()
    checked = 0

    def bot(seat: str):  # type: ignore[no-untyped-def]
        nonlocal checked
        ctx = g.ctx
        if ctx.state.phase == "fire":
            for by, side in AR.burst_firers(ctx):
                space = AR.BurstSpace(ctx, by)
                ats = [(round(float(x), 2), round(float(y), 2)) for x, y in rng.uniform(0, 48, size=(12, 2))]
                ats += [(e.x, e.y) for e in ctx.state.figures.values() if e.alive and e.on_table][:12]
                want = [space.contains(Burst(by, at)) for at in ats]
                assert AI.landings(ctx, side, by, ats) == want
                seen.update(want)
                checked += len(ats)
        return bots[g.side_of(seat)]

    play_out(g, bot, checked=False)
    assert checked > 0 and seen == {True, False}


def test_the_tables_shared_memos_stay_bounded_and_play_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a scenario's games share (``context.Shared``) is bounded: a terrain every game plays on has its
    memo emptied once it holds more than ``MEMO_ENTRIES``, so a million-game run does not grow without end;
    and the games played while the memos are emptied again and again are those played with them kept."""
    from grognard.analysis.montecarlo import play_one
    from grognard.rulesets.skirmish import context as C

    r = rulesets.get("skirmish")
    options = r.resolve({"scenario": "hill_assault"})
    bots = {side: "doctrine" for side in r.sides}
    kept = [play_one(r, options, bots, 3, index) for index in range(3)]
    monkeypatch.setattr(C.Shared, "MEMO_ENTRIES", 40)
    small = [play_one(r, options, bots, 3, index) for index in range(3)]
    assert small == kept
    shared = C.shared(load_scenario("hill_assault"))
    terrain = next(iter(shared.memos.values()))[0]
    memo = shared.memo(terrain)
    memo.update({("filler", n): None for n in range(41)})
    assert shared.memo(terrain) is memo and not memo  # past the bound: the same memo, emptied
    memo.update({("filler", n): None for n in range(40)})
    assert len(shared.memo(terrain)) == 40  # at the bound: kept


def doctrine_game(scenario: str, index: int = 0):  # type: ignore[no-untyped-def]
    """A doctrine-against-doctrine game of ``scenario`` and its bots (as ``play_one`` makes them)."""
    from grognard.core.dice import BOTS

    r = rulesets.get("skirmish")
    g = r.new_game(r.resolve({"scenario": scenario}), SeededDice(stream(1, index, DICE)))
    rng = np.random.default_rng(stream(1, index, BOTS))
    bots = {side: r.bots["doctrine"](rng) for side in r.sides}
    return g, lambda seat: bots[g.side_of(seat)]


@pytest.mark.parametrize("scenario", ["castle_storm", "gun_line_armour"])
def test_a_move_surely_refused_is_refused_by_the_whole_check(scenario: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``moving.surely_refused`` (a man's path into a vehicle or the train) says yes only of moves the whole
    check refuses; ``moving.path_measure`` (kept in the terrain's memo) is ``paths.measure_path`` worked out
    afresh. Every move the doctrine weighs in two games is put to both, beside the plain check."""
    from grognard.core.engine import ActionSpace
    from grognard.core.play import play_out
    from grognard.rulesets.skirmish import moving as MV

    answers: list[tuple[bool, bool]] = []
    measures = 0
    kept_measure = MV.path_measure

    def plain_contains(space: MV.MoveSpace, action: object) -> bool:
        sure, legal = MV.surely_refused(space.ctx, space.unit, action), ActionSpace.contains(space, action)
        answers.append((sure, legal))
        return legal

    def compared(ctx, terrain, path, allowance, river_paid, opened):  # type: ignore[no-untyped-def]
        nonlocal measures
        kept = kept_measure(ctx, terrain, path, allowance, river_paid, opened)
        assert kept == PA.measure_path(terrain, path, allowance, river_paid=river_paid, open_doors=opened)
        measures += 1
        return kept

    monkeypatch.setattr(MV.MoveSpace, "contains", plain_contains)
    monkeypatch.setattr(MV, "path_measure", compared)
    for index in range(2):
        play_out(*doctrine_game(scenario, index), checked=False)
    assert not any(sure and legal for sure, legal in answers)  # never a legal move refused
    assert sum(sure for sure, _ in answers) > 20  # the short cut was taken
    assert sum(legal for _, legal in answers) > 20 and measures > 100


@pytest.mark.parametrize("scenario", ["castle_storm", "gun_line_armour", "convoy"])
def test_a_drive_s_ground_problem_is_measure_drive_s(scenario: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``vehicles.ground_problem`` (what ``check_drive`` refuses first, kept in the terrain's memo) is the first
    problem ``measure_drive`` finds, worked out afresh with every other vehicle and man in the way, whenever
    it finds one; and the kept answer is the fresh one; a drive ``driving.surely_refused`` (by that problem)
    is refused by the whole check, and the space answers as the whole check does. Every drive the doctrine
    weighs in two games."""
    from grognard.core.engine import ActionSpace
    from grognard.core.play import play_out
    from grognard.rulesets.skirmish import driving as DV

    found = {True: 0, False: 0}
    contains = DV.DriveSpace.contains

    def compared(space: DV.DriveSpace, action: object) -> bool:
        ctx = space.ctx
        v = ctx.state.vehicles[space.vehicle]
        entry = ctx.tables.vehicles.kind(v.kind)
        if getattr(action, "path", None) and not entry.afloat:
            path = [(v.x, v.y), *((round(x, 2), round(y, 2)) for x, y in action.path)]  # type: ignore[attr-defined]
            terrain = ctx.terrain
            fresh = V.ground_problem(terrain, path, kind=v.kind, facing=v.heading)
            kept = V.ground_problem(terrain, path, kind=v.kind, facing=v.heading, memo=ctx.sight_memo(terrain))
            assert kept == fresh
            others = [(o.id, ctx.vehicle_shape(o)) for o in ctx.state.vehicles.values() if o.id != v.id]
            men = [(f.id, (f.x, f.y)) for f in ctx.state.figures.values() if f.alive and f.on_table and not f.aboard]
            measure = V.measure_drive(
                terrain, path, kind=v.kind, facing=v.heading, allowance=entry.move, others=others, men=men, radius=0.49
            )
            if fresh is not None:
                assert measure.problem == fresh
            elif measure.problem is not None:
                assert measure.problem[0] == "skirmish.23"  # another vehicle or a man: not the ground's
            found[fresh is not None] += 1
        sure, legal = DV.surely_refused(ctx, space.vehicle, action), ActionSpace.contains(space, action)
        assert not (sure and legal), action  # a drive surely refused is refused by the whole check
        refused[sure] += 1
        assert contains(space, action) == legal
        return legal

    refused = {True: 0, False: 0}
    monkeypatch.setattr(DV.DriveSpace, "contains", compared)
    for index in range(2):
        play_out(*doctrine_game(scenario, index), checked=False)
    assert found[True] > 10 and found[False] > 10
    assert refused[True] > 10 and refused[False] > 10


@pytest.mark.parametrize("scenario", ["landing", "castle_storm"])
def test_many_wedges_at_once_are_each_wedge_alone(scenario: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``fire.wedge_rows`` of many headings (every heading against every man over arrays, the men past the
    wedge's length for their height left out first, each man's die worked out once) gives, heading by heading,
    the wedge ``fire.wedge`` gives of that heading alone: every gunner's headings the doctrine weighs in two
    games."""
    from grognard.core.play import play_out
    from grognard.rulesets.skirmish import fire as FI

    many = FI.wedge_rows
    compared = 0

    def both(ctx, gunner, headings):  # type: ignore[no-untyped-def]
        nonlocal compared
        men, dice, rows = out = many(ctx, gunner, headings)
        if len(headings) > 1:
            for heading, row in zip(headings, rows, strict=True):
                record, shots = FI.wedges(ctx, gunner, [heading])[0]
                assert record.men == [men[k].id for k in row if dice[k] is not None]
                assert record.unseen == [men[k].id for k in row if dice[k] is None]
                assert shots == [FireOrder(*dice[k]) for k in row if dice[k] is not None]
                compared += len(shots)
        return out

    monkeypatch.setattr(FI, "wedge_rows", both)
    for index in range(2):
        play_out(*doctrine_game(scenario, index), checked=False)
    assert compared > 50


def test_the_burst_placements_best_first_are_the_plain_scoring_s() -> None:
    """``bots_fire.best_first`` (only the placements that can score, the worths added by ``compress``) orders the
    placements as the plain scoring does: every placement in turn, spoilt ones out, the worth of the enemies
    under it added in order, those worth more than 0 sorted by worth, the first found first on a tie."""
    rng = np.random.default_rng(19)
    values = [3.0, 1.5, 1.0, 0.8, 2.0, 4.5, 1.2]  # the doctrine's worths: many ties between placements
    orders = 0
    for _ in range(200):
        tries, men = int(rng.integers(0, 40)), int(rng.integers(0, 9))
        ours = rng.random(tries) < 0.3
        theirs = rng.random((tries, men)) < 0.25
        worth = [values[int(k)] for k in rng.integers(0, len(values), size=men)]
        scored = []
        for i, (spoilt, under) in enumerate(zip(ours.tolist(), theirs.tolist(), strict=True)):
            if spoilt:
                continue
            value = sum(w for w, hit in zip(worth, under, strict=True) if hit)
            if value > 0:
                scored.append((value, len(scored), i))
        plain = [i for _, _, i in sorted(scored, key=lambda item: (-item[0], item[1]))]
        assert BF.best_first(ours, theirs, worth) == plain
        orders += len(plain) > 1
    assert orders > 100


def test_the_train_kept_is_the_train_made_afresh() -> None:
    """``Context.train_now`` keeps the last train it made (by railway and head): at every step of a doctrine game
    of the convoy it is, coordinate for coordinate, the train ``vehicles.train_shape`` makes afresh."""
    from grognard.core.play import play_out

    g, bots = doctrine_game("convoy")
    heads: set[float] = set()

    def bot(seat: str):  # type: ignore[no-untyped-def]
        ctx = g.ctx
        kept = ctx.train_now()
        if ctx.railway is not None and ctx.state.train is not None:
            fresh = V.train_shape(ctx.base_terrain, ctx.railway, ctx.state.train)
            assert (kept is None) == (fresh is None)
            if fresh is not None:
                assert shapely.equals_exact(kept, fresh, tolerance=0)
                heads.add(ctx.state.train)
        return bots(seat)

    play_out(g, bot, checked=False)
    assert len(heads) > 2  # the train ran


def test_a_point_on_a_road_by_coordinates_is_covered_by_it() -> None:
    """``vehicles.abreast_on_road`` asks ``shapely.intersects_xy`` of the roads where it asked ``covers(Point)``:
    the same answer for points inside, outside, on the corners and on the edges of every road of the convoy."""
    spec = load_scenario("convoy")
    terrain = build_terrain(spec.spec, spec.tables)
    rng = np.random.default_rng(23)
    seen = set()
    for road in terrain.by_kind("road"):
        ring = shapely.get_coordinates(road.shape.exterior)
        points = [tuple(p) for p in ring] + [tuple((a + b) / 2) for a, b in itertools.pairwise(ring)]
        x0, y0, x1, y1 = road.shape.bounds
        points += [(float(rng.uniform(x0 - 1, x1 + 1)), float(rng.uniform(y0 - 1, y1 + 1))) for _ in range(300)]
        for x, y in points:
            want = road.shape.covers(Point(x, y))
            assert bool(shapely.intersects_xy(road.shape, x, y)) == want, (road.id, x, y)
            seen.add(want)
    assert seen == {True, False}


def test_the_collapse_chance_kept_is_the_damage_distribution_s() -> None:
    """``structures._at_least`` (kept per dice and points, for ``collapse_chance``) is the exact chance ``Damage``'s
    distribution gives, on both sides of every threshold."""
    from fractions import Fraction

    from grognard.rulesets.skirmish import structures as ST

    for dice in (1, 2, 3):
        dist = ST.Damage(dice).distribution()
        for need in range(-1, 6 * dice + 3):
            want = Fraction(sum(dist.quantity(v) for v in dist.outcomes() if v >= need), dist.denominator())
            assert ST._at_least(dice, need) == want == ST._at_least(dice, need)
    assert ST._at_least(2, 12) == Fraction(1, 36) and ST._at_least(2, 13) == 0 and ST._at_least(2, 2) == 1


def test_a_kept_start_footprint_shrunk_is_the_one_made_afresh() -> None:
    """``vehicles._start_inside`` (kept per place, heading and size) is the footprint shrunk by the tolerance
    made afresh, coordinate for coordinate, for every vehicle size of the tables at seeded places and headings."""
    from grognard.rulesets.skirmish.forces import vehicle_footprint

    tables = load_scenario("convoy").tables
    rng = np.random.default_rng(29)
    for kind in ("tank", "truck", "half_track", "jeep", "landing_craft"):
        entry = tables.vehicles.kind(kind)
        for _ in range(25):
            at = (round(float(rng.uniform(0, 48)), 2), round(float(rng.uniform(0, 48)), 2))
            facing = round(float(rng.uniform(-180, 180)), 2)
            fresh = vehicle_footprint(at, facing, entry.length, entry.width).buffer(-R.TOLERANCE)
            for _ in range(2):  # made, then kept
                assert shapely.equals_exact(V._start_inside(at, facing, entry.length, entry.width), fresh, 0)


def test_the_building_kept_by_point_is_the_one_found_afresh() -> None:
    """``Terrain.building_at`` keeps its answer by point (the cover lookup asks it of every pair of men): asked
    again, it gives the building the long way finds, for points inside, outside
    and on the walls and corners of every building of the village; ``Terrain.cover_rows`` is the tables'."""
    spec = load_scenario("village_street")
    terrain = build_terrain(spec.spec, spec.tables)
    rng = np.random.default_rng(29)
    points: list[tuple[float, float]] = []
    for house in terrain.buildings:
        ring = shapely.get_coordinates(house.shape.exterior)
        points += [tuple(p) for p in ring] + [tuple((a + b) / 2) for a, b in itertools.pairwise(ring)]
        x0, y0, x1, y1 = house.shape.bounds
        points += [(float(rng.uniform(x0 - 1, x1 + 1)), float(rng.uniform(y0 - 1, y1 + 1))) for _ in range(200)]
    found = set()
    for x, y in points + points:
        want = next((b for b in terrain.buildings if b.shape.covers(Point(x, y))), None)
        assert terrain.building_at(x, y) is want, (x, y)
        found.add(want is None)
    assert found == {True, False} and len(terrain._houses) == len(set(points))
    for attack in ("small_arms", "mg", "flame_thrower", "mortar"):
        assert terrain.cover_rows(attack) == spec.tables.cover_rows(attack)
        assert terrain.cover_rows(attack) is terrain.cover_rows(attack)
