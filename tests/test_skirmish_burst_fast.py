"""The burst doctrine's short cuts of issue 33, item 4 (``aiming``, ``bots_fire``) give what the long way gives.

Each is checked against the rules' own function on the burst decisions of real games, over many points: those
the doctrine aims at, random ones on and off the table, and ones placed at the edge of each measure (a weapon's
reach on flat ground and up the hill, a piece's arc, the firer's own position), where rounding would tell a
short cut from the rule first.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
import shapely

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.geometry import snap
from grognard.rulesets import get
from grognard.rulesets.skirmish import aiming as AI
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import bots_fire as BF
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import sight as SG
from grognard.rulesets.skirmish.actions import Burst
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.game import SkirmishGame

XY = tuple[float, float]


def burst_decisions(scenario: str, index: int, most: int) -> Iterator[tuple[SkirmishGame, AR.BurstSpace]]:
    """The first ``most`` burst decisions of a doctrine game, each before the bot chooses."""
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": scenario}), SeededDice(stream(33, index, DICE)))
    assert isinstance(game, SkirmishGame)
    game = game.unobserved()
    bot = DoctrineBot(np.random.default_rng(stream(33, index, BOTS)))
    found = 0
    while game.result is None and found < most:
        decision = game.pending()[0]
        if isinstance(decision.space, AR.BurstSpace):
            found += 1
            yield game, decision.space
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)


def edge_points(ctx: Context, space: AR.BurstSpace, rng: np.random.Generator) -> list[XY]:
    """Points for ``space``'s firer: the enemy men, random points on and off the table, points on the 0.01" grid
    whose range (the rule's, up or down hill) lies within 0.015" of the weapon's reach, points along the edges of a
    piece's arc, and points near the firer's own position."""
    s = ctx.state
    weapon = AR.burst_weapon(ctx, space.by)
    entry = ctx.tables.artillery[weapon]
    thing = s.pieces.get(space.by) or s.vehicles.get(space.by) or s.figures[space.by]
    origin = (thing.x, thing.y)
    reach = max(band.to for band in entry.bands) + R.TOLERANCE
    points = [(f.x, f.y) for f in s.figures.values() if f.alive and f.on_table]
    points += [(snap(float(x)), snap(float(y))) for x, y in rng.uniform(-2, 50, size=(40, 2))]
    terrain = ctx.terrain
    for k in range(24):  # along 24 bearings, the grid points whose range (up or down hill) is at the reach
        a = math.radians(15 * k)
        ray = [
            (snap(origin[0] + r * math.cos(a)), snap(origin[1] + r * math.sin(a)))
            for r in np.arange(-4, 4, 0.1) + reach
        ]
        past = [R.effective_range(terrain, origin, at) > reach for at in ray]
        for (r0, r1), (p0, p1) in zip(itertools.pairwise(ray), itertools.pairwise(past), strict=True):
            if p0 != p1:  # the reach lies between: every grid point there near it
                for f in np.linspace(0, 1, 21):
                    at = (snap(r0[0] + f * (r1[0] - r0[0])), snap(r0[1] + f * (r1[1] - r0[1])))
                    if abs(R.effective_range(terrain, origin, at) - reach) <= 0.015:
                        points.append(at)
    for k in (3, 4, 6, 8, 12, 16, 20, 24):  # 3-4-5 triangles: a range exact in decimals, so at the reach itself
        for sx, sy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            unit = reach / 5
            points.append((snap(origin[0] + sx * 3 * unit), snap(origin[1] + sy * 4 * unit)))
            points.append((snap(origin[0] + sx * k), snap(origin[1] + sy * k * 0.75)))
    if space.by in s.pieces and entry.arc is not None:
        heading = s.pieces[space.by].heading
        for side in (-1, 1):
            for off in np.arange(-0.03, 0.0301, 0.0025):
                a = math.radians(heading + side * (entry.arc + float(off)))
                for r in (3.0, 12.0, 30.0):
                    points.append((snap(origin[0] + r * math.cos(a)), snap(origin[1] + r * math.sin(a))))
    for dx, dy in rng.uniform(-4, 4, size=(30, 2)):  # near the firer's own position
        points.append((snap(origin[0] + float(dx)), snap(origin[1] + float(dy))))
    return list(dict.fromkeys(points))


@pytest.mark.parametrize(("scenario", "index"), [("gun_line_armour", 3), ("castle_storm", 1)])
def test_burst_landings_over_arrays_are_the_rules_answers_at_every_edge(
    scenario: str, index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``aiming.landings`` answers as ``BurstSpace.contains`` for every point, and asks the rules
    (``artillery._aimed``) only of the few whose measure lies at its edge (before: of every point); and so
    again with every line of sight clear, so that its measures alone decide (sight hides no wrong measure)."""
    rng = np.random.default_rng(33)
    aimed: Callable[..., Any] = AR._aimed
    asked: list[Any] = []

    def counting(*args: Any) -> Any:
        asked.append(args[2])
        return aimed(*args)

    answers: set[bool] = set()
    checked = doubted = 0
    for game, space in burst_decisions(scenario, index, 6):
        ctx = game.ctx
        side, by = space.side, space.by
        points = edge_points(ctx, space, rng)
        for clear in (False, True):
            if clear:  # a fresh memo, and every line seen
                monkeypatch.setattr(ctx, "sight_memo", lambda terrain, memo={}: memo)
                monkeypatch.setattr(SG, "sight_many", lambda terrain, pairs, opened: [None] * len(pairs))
            want = [space.contains(Burst(by, at)) for at in points]
            asked.clear()
            monkeypatch.setattr(AR, "_aimed", counting)
            got = AI.landings(ctx, side, by, points)
            monkeypatch.undo()
            assert got == want, [(at, g, w) for at, g, w in zip(points, got, want, strict=True) if g != w][:5]
            assert len(asked) < len(points) / 4
            answers.update(want)
            checked += len(points)
            doubted += len(asked)
    assert checked > 2000 and answers == {True, False}
    assert doubted > 0  # the edges were met, and the rules settled them


def points_at_the_edges(laid: Any, at: XY, touch: float, rng: np.random.Generator) -> list[XY]:
    """Points ``touch`` (and a hair less or more) out from a template laid at ``at``: from three of its edges,
    from its corners (out from ``at``: the farthest is the farthest a man under it may stand), from its edge
    nearest ``at`` (the nearest a man not under it may stand), and ``at`` itself."""
    ring = np.asarray(laid.exterior.coords)
    out = [at]
    for e in rng.choice(len(ring) - 1, size=3, replace=False).tolist():
        (x0, y0), (x1, y1) = ring[e], ring[e + 1]
        mx, my, length = (x0 + x1) / 2, (y0 + y1) / 2, math.hypot(x1 - x0, y1 - y0)
        nx, ny = (y1 - y0) / length, (x0 - x1) / length
        if laid.contains(shapely.Point(mx + 0.01 * nx, my + 0.01 * ny)):
            nx, ny = -nx, -ny  # outward
        for gap in (-1e-3, -1e-9, 0.0, 1e-9, 1e-3):
            out.append((mx + (touch + gap) * nx, my + (touch + gap) * ny))
    nearest = shapely.shortest_line(shapely.Point(at), laid.exterior).coords[1]
    for x, y in [*ring[:-1].tolist(), nearest]:
        r = math.hypot(x - at[0], y - at[1])
        for gap in (-1e-3, -1e-9, 0.0, 1e-9, 1e-3):
            out.append((x + (x - at[0]) / r * (touch + gap), y + (y - at[1]) / r * (touch + gap)))
    return out


@pytest.mark.parametrize("burst", ["small", "heavy"])
def test_the_men_under_every_placement_over_arrays_are_the_rules_men_under_a_template(
    burst: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bots_fire.men_under`` puts a man under a laid template exactly when ``rules.under_template`` does (on
    ``rules.burst_shape``'s polygon), for men at random, inside, and at the template's reach from its edges and
    corners (a hair in, on it, a hair out); it lays a polygon only for the few a hair from that reach (before:
    one for every placement) and for a template that is not a valid polygon (a bow tie of the scenario's)."""
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": "gun_line_armour"}), SeededDice(stream(33, 0, DICE)))
    assert isinstance(game, SkirmishGame)
    ctx = game.ctx
    bow_tie = ((1.0, 1.0), (-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0))
    long = ((-0.5, -1.5), (5.5, -1.5), (5.5, 1.5), (-0.5, 1.5))  # men deep inside it, far from where it lands
    ctx.templates = {**ctx.templates, "bow_tie": (burst, bow_tie), "long": (burst, long)}
    base = ctx.tables.sight.base.value
    touch = base / 2 + R.TOLERANCE
    rng = np.random.default_rng(33)
    shapes = sorted(tid for tid, (cls, _) in ctx.templates.items() if cls == burst)
    turns = [float(angle) for angle in range(0, 360, 45)]
    aims = [(12.5, 30.25), (33.07, 8.0)]
    tries = [(at, tid, angle) for at in aims for tid in shapes for angle in turns]
    laid = [R.burst_shape(ctx.templates[tid][1], at, angle) for at, tid, angle in tries]
    men = [(float(x), float(y)) for x, y in rng.uniform(8, 38, size=(30, 2))]
    men += [(x + float(dx), y + float(dy)) for x, y in aims for dx, dy in rng.uniform(-6, 6, size=(30, 2))]
    for (at, tid, _), shape in list(zip(tries, laid, strict=True))[:: len(turns) // 2]:
        if tid != "bow_tie":  # the bow tie's men are measured by shapely, wherever they stand
            men += points_at_the_edges(shape, at, touch, rng)
    made = 0
    polygons = shapely.polygons

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal made
        made += 1
        return polygons(*args, **kwargs)

    monkeypatch.setattr(shapely, "polygons", counting)
    got = BF.men_under(ctx, aims, shapes, turns, men, touch)
    with_bow, made = made, 0
    plain = [tid for tid in shapes if tid != "bow_tie"]
    again = BF.men_under(ctx, aims, plain, turns, men, touch)
    monkeypatch.setattr(shapely, "polygons", polygons)
    want = np.array([[R.under_template(shape, man, base) for man in men] for shape in laid])
    assert got.shape == want.shape and got.tolist() == want.tolist()
    assert want.any() and not want.all()
    bow = [i for i, (_, tid, _) in enumerate(tries) if tid == "bow_tie"]
    assert want[bow].any() and with_bow > made + len(bow)  # the bow tie's men near it were measured by shapely
    keep = [i for i, (_, tid, _) in enumerate(tries) if tid != "bow_tie"]
    assert again.tolist() == want[keep].tolist()
    assert 0 < made < again.size // 50  # only the men a hair from the reach were measured on a laid polygon


def long_way_burst_order(ctx: Context, space: AR.BurstSpace, rng: np.random.Generator | None) -> Burst:
    """``bots_fire.burst_order`` written the long way: each aim checked by the space, each placement laid by
    ``rules.burst_shape`` and each man under it found by ``rules.under_template``, the placements sorted by
    their worth (the first found first on a tie)."""
    s = ctx.state
    entry = ctx.tables.artillery[AR.burst_weapon(ctx, space.by)]
    across = ctx.tables.burst[entry.burst].across
    enemies = sorted(M.enemies(ctx, space.side), key=lambda e: e.id)
    ours = [f for f in s.figures.values() if f.side == space.side and f.alive and f.on_table]
    base = ctx.tables.sight.base.value
    aims = [(e.x, e.y) for e in enemies]
    for i, a in enumerate(enemies):
        for b in enemies[i + 1 :]:
            if math.hypot(a.x - b.x, a.y - b.y) < across:
                aims.append((snap((a.x + b.x) / 2), snap((a.y + b.y) / 2)))
    aims = [at for at in dict.fromkeys(aims) if space.contains(Burst(space.by, at))]
    shapes = sorted(tid for tid, (cls, _) in ctx.templates.items() if cls == entry.burst)
    placements = []
    for at in aims:
        for tid in shapes:
            for angle in range(0, 360, 45):
                laid = R.burst_shape(ctx.templates[tid][1], at, float(angle))
                if any(R.under_template(laid, (f.x, f.y), base) for f in ours):
                    continue
                worth = sum(BF.figure_value(e) for e in enemies if R.under_template(laid, (e.x, e.y), base))
                if worth > 0:
                    placements.append((worth, Burst(space.by, at, float(angle), tid)))
    order = [burst for _, burst in sorted(placements, key=lambda p: -p[0])]
    if rng is not None and order:
        near = sum(1 for worth, _ in placements if worth >= BF.NEAR_BEST * max(w for w, _ in placements))
        order = [order[j] for j in rng.permutation(near).tolist()] + order[near:]
    return next((burst for burst in order if space.contains(burst)), space.hold())


@pytest.mark.parametrize(("scenario", "index"), [("gun_line_armour", 1), ("castle_storm", 2)])
def test_the_doctrines_burst_is_the_long_ways_burst(scenario: str, index: int) -> None:
    """On the burst decisions of a real game, ``bots_fire.burst_order`` (its aims measured over arrays, the men
    under its placements over arrays, the sight of an aim asked only when a placement there comes to be tried)
    lays the very burst the long way lays, drawing the same from the bot's stream."""
    laid = 0
    for game, space in burst_decisions(scenario, index, 8):
        ctx = game.ctx
        want_rng, got_rng = np.random.default_rng(index), np.random.default_rng(index)
        with ctx.still():
            got = BF.burst_order(ctx, space, got_rng)
        want = long_way_burst_order(ctx, space, want_rng)
        assert got == want
        assert got_rng.bit_generator.state == want_rng.bit_generator.state
        assert BF.burst_order(ctx, space) == long_way_burst_order(ctx, space, None)
        laid += got.at is not None
    assert laid > 2


def burst_firers_long_way(ctx: Context) -> list[tuple[str, str]]:
    """``artillery.burst_firers`` as it was written before its short cut: every man's weapon asked, the terrain
    read afresh for each."""
    s = ctx.state
    out: list[tuple[str, str]] = []
    for pid, piece in sorted(s.pieces.items()):
        if piece.crew is not None and M.piece_ready(ctx, piece) is None:
            out.append((pid, s.units[piece.crew].side))
    for vid, v in sorted(s.vehicles.items()):
        gun = M.tank_gun(ctx, v)
        if gun is not None and M.manned(ctx, v).get(gun) is not None:
            out.append((vid, v.side))
    for fid, f in sorted(s.figures.items()):
        if M.weapon_of(ctx, f) in ctx.tables.artillery and AR._man_burst_problem(ctx, f) is None:
            out.append((fid, f.side))
    return out


@pytest.mark.parametrize(("scenario", "index"), [("gun_line_armour", 3), ("castle_storm", 1), ("landing", 2)])
def test_the_burst_firers_are_the_long_ways_with_men_who_fire_the_vehicles_mg_or_stand_in_water(
    scenario: str, index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``artillery.burst_firers`` (a man asked only when his own weapon, or the MG he may man, fires a burst;
    the terrain read once) is the long way's list at every burst decision of a game: as it stands; with every
    man's weapon a mortar (the vehicles' crews and gunners among them, some dead or off the table); with every
    man stood in the river or a pond where the scenario has one; and with the tables' MG made a burst weapon."""
    kinds: set[int] = set()
    for game, _ in burst_decisions(scenario, index, 4):
        ctx = game.ctx
        assert AR.burst_firers(ctx) == burst_firers_long_way(ctx)
        with monkeypatch.context() as m:
            for f in ctx.state.figures.values():
                m.setattr(f, "weapon", "mortar")
            got = AR.burst_firers(ctx)
            assert got == burst_firers_long_way(ctx)
            kinds.add(len(got))
            terrain = ctx.terrain
            water = terrain.river if not terrain.river.is_empty else terrain.pond
            if not water.is_empty:
                spot = water.representative_point()
                for f in ctx.state.figures.values():
                    m.setattr(f, "x", spot.x)
                    m.setattr(f, "y", spot.y)
                assert AR.burst_firers(ctx) == burst_firers_long_way(ctx)
            guns = {**ctx.tables.artillery, "mg": ctx.tables.artillery["mortar"]}
            m.setattr(ctx, "tables", ctx.tables.model_copy(update={"artillery": guns}))
            assert AR.burst_firers(ctx) == burst_firers_long_way(ctx)
    assert len(kinds) >= 1 and max(kinds) > 0
