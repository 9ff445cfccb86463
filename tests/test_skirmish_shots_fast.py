"""The shot table's short cuts of issue 33, item 4 give the rules' own answers.

- Line of sight worked out over arrays (``crossings.walls`` for the buildings, ``crossings.clips`` for the convex
  sight blockers; ``sight.sight_many``) is ``rules.line_of_sight`` line by line: over random lines, and lines
  placed a hair either side of every threshold (a crossing at an opening's edge, a line grazing a building's
  or a wall's corner, a line whose piece over a wall is about ``TOLERANCE`` long, a man about ``over_reach``
  from a wall, a man on a wall's face), with the doors shut and open.
- The measures ``crossings.clips`` says it is sure of are shapely's, to 1e-8".
- The cover lookup with its behind test in plain arithmetic (``covers.cover``, ``crossings.clip_one``) is
  ``rules.cover`` for every attack, a hair either side of each threshold, and the plain clip is the clip over
  arrays.
- A shot table read from the shots kept by each shooter's place (``fire._shot_table``) is the table worked out
  with nothing kept.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import shapely

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.geometry import TOLERANCE
from grognard.rulesets import get
from grognard.rulesets.skirmish import context
from grognard.rulesets.skirmish import covers as CV
from grognard.rulesets.skirmish import crossings as XS
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import sight as SG
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.scenario import load_scenario
from grognard.rulesets.skirmish.terrain import Terrain, build_terrain

XY = tuple[float, float]
SHALLOW = (1e-3, 1e-5, 1e-7, -1e-7, math.pi - 1e-5)  # radians off the wall: a line almost along it
HAIRS = (-1e-3, -1e-5, -2e-6, -1e-6, -5e-7, -1e-9, 0.0, 1e-9, 5e-7, 1e-6, 2e-6, 1e-5, 1e-3)


def terrain_of(scenario: str) -> Terrain:
    spec = load_scenario(scenario)
    return build_terrain(spec.spec, spec.tables)


def unit(dx: float, dy: float) -> XY:
    size = math.hypot(dx, dy)
    return dx / size, dy / size


def through(rng: np.random.Generator, at: XY, wall: XY, k: int) -> list[tuple[XY, XY]]:
    """``k`` lines through ``at`` at random slants across the direction ``wall`` (some almost along it), of
    random lengths each side (some ending a hair from ``at``)."""
    out = []
    for _ in range(k):
        turn = float(rng.uniform(0.05, math.pi - 0.05)) if rng.random() < 0.8 else float(rng.choice(SHALLOW))
        c, s = math.cos(turn), math.sin(turn)
        d = (wall[0] * c - wall[1] * s, wall[0] * s + wall[1] * c)
        r1, r2 = (float(v) for v in rng.choice([1e-6, 0.3, 2.0, 9.0, 30.0], size=2))
        out.append(((at[0] - d[0] * r1, at[1] - d[1] * r1), (at[0] + d[0] * r2, at[1] + d[1] * r2)))
    return out


def ring_points(shape: object) -> list[tuple[XY, XY]]:
    """Each edge of the outline of ``shape`` (a Polygon): (start, end)."""
    coords = list(shapely.get_coordinates(shapely.get_exterior_ring(shape)))
    return [((float(p[0]), float(p[1])), (float(q[0]), float(q[1]))) for p, q in itertools.pairwise(coords)]


def near_thresholds(terrain: Terrain, rng: np.random.Generator) -> list[tuple[XY, XY]]:
    """Lines a hair either side of each threshold of the sight rule's building and wall tests."""
    pairs: list[tuple[XY, XY]] = []
    reach = terrain.tables.sight.over_reach.value + TOLERANCE
    for building in terrain.buildings:
        for p, q in ring_points(building.shape):
            along = unit(q[0] - p[0], q[1] - p[1])
            normal = (-along[1], along[0])
            for hair in HAIRS:  # grazing the corner p, either side, and ending a hair from the wall
                at = (p[0] + normal[0] * hair, p[1] + normal[1] * hair)
                pairs += through(rng, at, along, 2)
                mid = ((p[0] + q[0]) / 2 + normal[0] * hair, (p[1] + q[1]) / 2 + normal[1] * hair)
                pairs += [(mid, (mid[0] + normal[0] * 5, mid[1] + normal[1] * 5)), (mid, (mid[0] - 3, mid[1] + 7))]
        for opening in building.openings:
            for p, q in ring_points(building.shape):
                along = unit(q[0] - p[0], q[1] - p[1])
                if shapely.distance(shapely.LineString([p, q]), shapely.Point(opening.at)) > 1e-6:
                    continue
                for side in (-1, 1):  # a crossing a hair either side of the opening's span's end
                    for hair in HAIRS:
                        off = side * (opening.width / 2 + TOLERANCE + hair)
                        at = (opening.at[0] + along[0] * off, opening.at[1] + along[1] * off)
                        pairs += through(rng, at, along, 3)
    for feature in terrain.sight_blockers:
        if feature.shape.geom_type != "Polygon":
            continue
        edges = ring_points(feature.shape)
        for k in sorted(rng.choice(len(edges), size=min(len(edges), 6), replace=False).tolist()):
            p, q = edges[k]
            along = unit(q[0] - p[0], q[1] - p[1])
            normal = (-along[1], along[0])
            for hair in HAIRS:
                for gap in (0.0, reach, TOLERANCE / 2):  # on the face, at the reach, a chord of about TOLERANCE
                    at = (p[0] + normal[0] * (gap + hair), p[1] + normal[1] * (gap + hair))
                    pairs += through(rng, at, along, 2)
                    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
                    man = (mid[0] + normal[0] * (gap + hair), mid[1] + normal[1] * (gap + hair))
                    pairs += [(man, (mid[0] - normal[0] * 9, mid[1] - normal[1] * 9))]
                    pairs += [((mid[0] - normal[0] * 9, mid[1] - normal[1] * 9), man)]
                chord = TOLERANCE / 2 + hair  # a line cutting the corner p at 45 degrees: its chord is twice this
                diagonal = unit(along[0] + normal[0], along[1] + normal[1])
                foot = (p[0] + diagonal[0] * chord * math.sqrt(2), p[1] + diagonal[1] * chord * math.sqrt(2))
                cut = unit(along[0] - normal[0], along[1] - normal[1])
                pairs.append(
                    ((foot[0] - cut[0] * 6, foot[1] - cut[1] * 6), (foot[0] + cut[0] * 6, foot[1] + cut[1] * 6))
                )
    return pairs


def random_lines(terrain: Terrain, rng: np.random.Generator, k: int) -> list[tuple[XY, XY]]:
    """``k`` lines between random points of the table, and ``k`` from random points near its buildings and
    walls, snapped to 0.01" as men stand."""
    pairs = []
    for _ in range(k):
        a = (round(float(rng.uniform(0, terrain.width)), 2), round(float(rng.uniform(0, terrain.depth)), 2))
        b = (round(float(rng.uniform(0, terrain.width)), 2), round(float(rng.uniform(0, terrain.depth)), 2))
        pairs.append((a, b))
    pieces = [b.shape for b in terrain.buildings] + [f.shape for f in terrain.sight_blockers]
    for _ in range(k if pieces else 0):
        x0, y0, x1, y1 = pieces[int(rng.integers(len(pieces)))].bounds
        a = (round(float(rng.uniform(x0 - 2, x1 + 2)), 2), round(float(rng.uniform(y0 - 2, y1 + 2)), 2))
        b = (round(float(rng.uniform(0, terrain.width)), 2), round(float(rng.uniform(0, terrain.depth)), 2))
        pairs.append((a, b) if rng.random() < 0.5 else (b, a))
    return pairs


@pytest.mark.parametrize("scenario", ["village_street", "river_town", "proving_ground", "castle_storm"])
def test_sight_over_arrays_is_the_rules_line_of_sight_at_every_threshold(scenario: str) -> None:
    terrain = terrain_of(scenario)
    rng = np.random.default_rng(33)
    pairs = near_thresholds(terrain, rng) + random_lines(terrain, rng, 400)
    doors = [o for b in terrain.buildings for o in b.openings if terrain.openings[o.id].door]
    for opened in (frozenset(), frozenset(o.id for o in doors)):
        got = SG.sight_many(terrain, pairs, opened)
        want = [R.line_of_sight(terrain, a, b, opened) for a, b in pairs]
        wrong = [(a, b, g, w) for (a, b), g, w in zip(pairs, got, want, strict=True) if g != w]
        assert not wrong, wrong[:5]
        assert sum(w is not None for w in want) > len(pairs) // 20  # the lines are blocked often enough to tell


@pytest.mark.parametrize("scenario", ["village_street", "proving_ground"])
def test_the_arrays_settle_most_lines_and_leave_only_those_near_a_threshold_to_shapely(scenario: str) -> None:
    terrain = terrain_of(scenario)
    rng = np.random.default_rng(34)
    near, far = near_thresholds(terrain, rng), random_lines(terrain, rng, 300)
    for pairs in (far, near):
        ends = np.array(pairs, dtype=float).reshape(-1, 2, 2)
        lines = XS.Lines(ends)
        walls = XS.walls(terrain, terrain.buildings, lines, frozenset())
        outlines, _ = XS.convex_outlines(terrain.sight_blockers)
        sure = XS.clips(lines, outlines)[0]
        settled = (walls != XS.UNSURE).all(axis=1) & sure.all(axis=1)
        if pairs is far:
            assert settled.mean() >= 0.98
        else:  # the thresholds are reached: some lines are left to shapely
            assert 0.02 <= 1 - settled.mean() <= 0.5


@pytest.mark.parametrize("scenario", ["village_street", "proving_ground", "hill_assault"])
def test_what_the_clip_is_sure_of_is_shapelys_crossing_to_a_hundred_millionth_of_an_inch(scenario: str) -> None:
    terrain = terrain_of(scenario)
    rng = np.random.default_rng(35)
    pairs = near_thresholds(terrain, rng) + random_lines(terrain, rng, 300)
    pairs = [(a, b) for a, b in pairs if math.hypot(b[0] - a[0], b[1] - a[1]) > TOLERANCE]
    ends = np.array(pairs, dtype=float).reshape(-1, 2, 2)
    outlines, columns = XS.convex_outlines(terrain.sight_blockers)
    sure, inside, from_a, from_b = XS.clips(XS.Lines(ends), outlines)
    checked = 0
    for feature, column in zip(terrain.sight_blockers, columns, strict=True):
        if column < 0:
            continue
        for i in np.flatnonzero(sure[:, column]).tolist():
            a, b = pairs[i]
            crossing = shapely.LineString([a, b]).intersection(feature.shape)
            assert abs(inside[i, column] - crossing.length) <= 1e-8, (a, b)
            if crossing.length > TOLERANCE:
                assert abs(from_a[i, column] - crossing.distance(shapely.Point(a))) <= 1e-8, (a, b)
                assert abs(from_b[i, column] - crossing.distance(shapely.Point(b))) <= 1e-8, (a, b)
                checked += 1
    assert checked > 50


def doctrine_game(scenario: str, index: int) -> tuple[SkirmishGame, DoctrineBot]:
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": scenario}), SeededDice(stream(33, index, DICE)))
    assert isinstance(game, SkirmishGame)
    return game.unobserved(), DoctrineBot(np.random.default_rng(stream(33, index, BOTS)))


@pytest.mark.parametrize("cap", [FI.ROW_MARKS, 3])
def test_every_shot_table_read_from_the_shots_kept_is_the_table_worked_out_with_nothing_kept(
    cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shots kept in the terrain's memo by each shooter's place and kit (from an earlier game on the same
    terrain, and this game's earlier tables) give the table worked out with nothing kept: the same rows, in the
    same order, with the same shots and reasons; with a small cap, the kept shots start afresh and stay few."""
    monkeypatch.setattr(FI, "ROW_MARKS", cap)
    monkeypatch.setattr(context, "_SHARED", {})  # this test's games alone keep shots on the terrain
    for index in (0, 1):  # game 1 reads what game 0 kept
        game, bot = doctrine_game("village_street", index)
        last, tables = None, 0
        while game.result is None:
            ctx = game.ctx
            if ctx.state.phase == "fire" and FI.shot_table(ctx) is not last:  # each fire phase's table, once
                last = table = FI.shot_table(ctx)
                kept, ctx.shot_cache = ctx.shot_cache, None
                with monkeypatch.context() as patched:
                    patched.setattr(ctx, "sight_memo", lambda terrain: {})
                    fresh = FI._shot_table(ctx)
                ctx.shot_cache = kept
                assert [(s, list(row.items())) for s, row in table.items()] == [
                    (s, list(row.items())) for s, row in fresh.items()
                ]
                memo = ctx.sight_memo(ctx.terrain)
                rows = [v for k, v in memo.items() if isinstance(k, tuple) and k[0] == "shots"]
                assert rows and max(len(v) for v in rows) <= cap + len(ctx.state.figures)
                tables += 1
            decision = game.pending()[0]
            game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
        assert tables >= 4


@pytest.mark.parametrize("scenario", ["village_street", "convoy", "gun_line_armour", "hill_assault", "castle_storm"])
def test_cover_with_the_behind_test_in_plain_arithmetic_is_the_rules_cover_at_every_threshold(scenario: str) -> None:
    """``covers.cover`` against ``rules.cover`` for every attack a cover row names, over lines a hair either side
    of the behind test's thresholds (a man about over_reach from a wall's face or on it, a chord of about
    TOLERANCE, a firer on the wall) both ways round, and random lines near the walls."""
    terrain = terrain_of(scenario)
    rng = np.random.default_rng(36)
    pairs = near_thresholds(terrain, rng) + random_lines(terrain, rng, 200)
    pairs += [(b, a) for a, b in pairs]
    attacks = sorted({attack for row in terrain.tables.cover for attack in row.against})
    held = 0
    for attack in attacks:
        for a, b in pairs:
            want = R.cover(terrain, a, b, attack)
            assert CV.cover(terrain, a, b, attack) == want, (a, b, attack)
            held += want in ("stone_wall", "castle_wall", "sandbags", "boulder")
    assert held > 20  # the behind rows hold often enough to tell


def test_the_plain_clip_is_the_clip_over_arrays() -> None:
    """``crossings.clip_one`` is sure of the same lines as ``crossings.clips`` and measures the same."""
    terrain = terrain_of("proving_ground")
    rng = np.random.default_rng(37)
    pairs = [(a, b) for a, b in near_thresholds(terrain, rng) if math.hypot(b[0] - a[0], b[1] - a[1]) > TOLERANCE]
    outlines, columns = XS.convex_outlines(terrain.sight_blockers)
    sure, inside, _, from_b = XS.clips(XS.Lines(np.array(pairs, dtype=float).reshape(-1, 2, 2)), outlines)
    for feature, column in zip(terrain.sight_blockers, columns, strict=True):
        edges = XS.plain_edges(feature.shape)
        assert (edges is None) == (column < 0)
        if edges is None:
            continue
        for i, (a, b) in enumerate(pairs):
            plain = XS.clip_one(a, b, edges)
            assert (plain is not None) == bool(sure[i, column]), (a, b)
            if plain is not None and inside[i, column] > 0:  # the same sums (hypot may differ in its last bit)
                assert plain == pytest.approx((inside[i, column], from_b[i, column]), rel=1e-12, abs=1e-12)
