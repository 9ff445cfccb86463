"""The doctrine's move probes' short cuts (issue 33, item 4), second round: each gives what the long way gives.

A hold of a unit on the table is passed without the whole check (``moving.held``); each is checked here
against ``moving.check_move`` at the decisions of real games, and on the units the check does refuse or ask
about (off the table, in the first move, with no men).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, Point, Polygon

from grognard.core.dice import BOTS, stream
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, snap
from grognard.rulesets.skirmish import afoot as AF
from grognard.rulesets.skirmish import bots as B
from grognard.rulesets.skirmish import context
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import moving as MV
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import structures as ST
from grognard.rulesets.skirmish import vehicles as V
from grognard.rulesets.skirmish.actions import Move, Order
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.moving import MoveSpace
from grognard.rulesets.skirmish.terrain import Terrain
from skirmish_games import game_of
from test_skirmish_move_fast import long_way_bases_apart, long_way_touching_spot

XY = tuple[float, float]


def move_decisions(scenario: str, index: int, most: int) -> Iterator[tuple[SkirmishGame, MoveSpace]]:
    """Game ``index`` of ``scenario`` played by the doctrine, stopping at each of its first ``most`` move
    decisions (the caller looks, the bot then chooses and the move is carried out)."""
    game = game_of(scenario, index)
    bot = DoctrineBot(np.random.default_rng(stream(33, index, BOTS)))
    seen = 0
    while game.result is None and seen < most:
        decision = game.pending()[0]
        if isinstance(decision.space, MoveSpace):
            seen += 1
            yield game, decision.space
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)


def verdict(ctx: Context, check: Any, *args: Any) -> tuple[str, Any]:
    """What ``check(ctx, *args)`` gives, or the refusal it raises (its message and rule)."""
    try:
        return ("passed", check(ctx, *args))
    except IllegalAction as refusal:
        return ("refused", (str(refusal), refusal.rule))


@pytest.mark.parametrize(("scenario", "index"), [("village_street", 0), ("castle_storm", 0), ("gun_line_armour", 1)])
def test_a_hold_passed_without_the_whole_check_is_what_the_check_gives(scenario: str, index: int) -> None:
    """At each move decision, a hold of every unit of the game: ``held`` gives what ``check_move`` gives (each
    man's path and measure), or None where the check has something to ask; with the state standing still too.
    Before, every hold the doctrine chose was put to the whole check when it was carried out."""
    given = none = 0
    for game, _ in move_decisions(scenario, index, 25):
        ctx = game.ctx
        for unit in ctx.state.units:
            hold = Move(unit)
            long = verdict(ctx, MV.check_move, hold)
            for still in (False, True):
                if still:
                    with ctx.still():
                        short = MV.held(ctx, hold)
                else:
                    short = MV.held(ctx, hold)
                if short is None:
                    none += 1
                    continue
                assert ("passed", short) == long, (unit, short, long)
                given += 1
            moved = Move(unit, ((1.0, 1.0),))
            assert MV.held(ctx, moved) is None and MV.held(ctx, Move(unit, (), ())) == MV.held(ctx, hold)
    assert given >= 200, (given, none)


def test_a_hold_the_check_asks_about_is_left_to_the_check() -> None:
    """A unit off the table (the first move's half must come on, skirmish.45) and a unit with no men left
    (skirmish.21): ``held`` says nothing, and the space's check refuses or passes as ``check_move`` does."""
    game = game_of("village_street", 0)
    ctx = game.ctx
    units = list(ctx.state.units.values())
    off = units[0]
    for fid in off.figures:
        ctx.state.figures[fid].on_table = False
    ctx.changed()
    hold = Move(off.id)
    assert MV.held(ctx, hold) is None
    assert verdict(ctx, MV.check_move, hold)[0] == "passed"
    ctx.state.held_off[off.side] = len(units)  # every unit that may stay off has stayed off
    long = verdict(ctx, MV.check_move, hold)
    assert long[0] == "refused" and long[1][1] == "skirmish.45", long
    assert MV.held(ctx, hold) is None
    assert not MoveSpace(ctx, off.id).contains(hold)
    dead = units[1]
    for fid in dead.figures:
        ctx.state.figures[fid].alive = False
    ctx.changed()
    assert MV.held(ctx, Move(dead.id)) is None
    assert verdict(ctx, MV.check_move, Move(dead.id))[1][1] == "skirmish.21"
    assert not MoveSpace(ctx, dead.id).contains(Move(dead.id))


def doctrine_probes(game: SkirmishGame, monkeypatch: pytest.MonkeyPatch, decision: Any) -> tuple[Any, list[Any]]:
    """The doctrine's choice at ``decision`` and the moves it probed for it, in order (repeats kept)."""
    probes: list[Any] = []
    contains = MoveSpace.contains

    def recording(space: MoveSpace, action: Any) -> bool:
        probes.append(action)
        return contains(space, action)

    bot = DoctrineBot(np.random.default_rng(0))
    monkeypatch.setattr(MoveSpace, "contains", recording)
    try:
        action = bot.choose(game, decision)
    finally:
        monkeypatch.setattr(MoveSpace, "contains", contains)
    return action, probes


@pytest.mark.parametrize(("scenario", "index"), [("village_street", 0), ("castle_storm", 0)])
def test_a_move_with_a_path_refused_in_another_is_refused_by_the_whole_check(
    monkeypatch: pytest.MonkeyPatch, scenario: str, index: int
) -> None:
    """At each move decision, the doctrine's probes replayed in order while the state stands still, then a move
    of each man alone along each path refused so far, and along it with its end 0.01" either way: every move
    ``surely_refused`` is refused by the whole check with nothing kept, and the check says the same with and
    without what was kept. Some moves are surely refused only by a path refused in an earlier move (before,
    each went through the whole check again: village_street's charges through a wall, castle_storm's men on
    the wall's top)."""
    game = game_of(scenario, index)
    bot = DoctrineBot(np.random.default_rng(stream(33, index, BOTS)))
    only_paths = checked = 0
    decisions = 0
    while game.result is None and decisions < 40:
        decision = game.pending()[0]
        space = decision.space
        if not isinstance(space, MoveSpace):
            game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
            continue
        decisions += 1
        ctx = game.ctx
        action, probes = doctrine_probes(game, monkeypatch, decision)
        longs = {probe: verdict(ctx, MV.check_move, probe) for probe in probes}
        with ctx.still():
            for probe in probes:
                sure = MV.surely_refused(ctx, space.unit, probe)
                assert not sure or longs[probe][0] == "refused", probe
                if not sure:
                    assert verdict(ctx, MV.check_move, probe) == longs[probe], probe
            assert ctx.kept is not None
            refused = set(ctx.kept.get("refused paths", set()))
            tried = []
            for fid, path in sorted(refused):
                *head, (x, y) = path
                for dx, dy in ((0.0, 0.0), (0.01, 0.0), (-0.01, 0.0), (0.0, 0.01)):
                    end = (round(x + dx, 2), round(y + dy, 2))
                    tried.append(Move(space.unit, (), (Order(fid, "to", (*head[1:], end)),)))
            for move in tried:
                long = verdict(ctx, MV.check_move, move)
                ctx.kept.pop("refused paths", None)
                without = MV.surely_refused(ctx, space.unit, move)
                ctx.kept["refused paths"] = refused
                sure = MV.surely_refused(ctx, space.unit, move)
                assert not sure or long[0] == "refused", move
                only_paths += sure and not without
                checked += 1
        game.apply(decision.seat, action, checked=False, decision=decision)
    assert checked >= 40 and only_paths >= 10, (checked, only_paths)


def long_way_in_danger(ctx: Context, f: Any) -> str | None:
    """``bots.in_danger`` as it was: the section asked of the terrain, its state and chance worked out, each time."""
    section = ctx.terrain.section_at(f.x, f.y)
    if section is None or ST.state_of(ctx, section.id) == "all dead":
        return None
    return section.id if ST.collapse_chance(ctx, section.id) >= B.LEAVE_AT else None


@pytest.mark.parametrize(("scenario", "index"), [("village_street", 0), ("castle_storm", 0)])
def test_a_mans_danger_read_from_what_was_kept_is_the_long_ways(
    monkeypatch: pytest.MonkeyPatch, scenario: str, index: int
) -> None:
    """At each move decision, every man on the table: ``in_danger`` with nothing kept, then twice while the
    state stands still, says what the long way says; the section holding a man's place is asked of the terrain
    once for that terrain (before, at every call). ``counter_attacks`` of every unit says what the objectives'
    polygons made afresh say, and makes none."""
    section_at = Terrain.section_at
    asked = {"n": 0}

    def counted(terrain: Terrain, x: float, y: float) -> Any:
        asked["n"] += 1
        return section_at(terrain, x, y)

    inside = danger = men = 0
    spec_of = game_of(scenario, index).ctx.scenario.spec
    made = {"n": 0}

    def polygon(*args: Any) -> Polygon:
        made["n"] += 1
        return Polygon(*args)

    for game, _ in move_decisions(scenario, index, 30):
        ctx = game.ctx
        figures = [f for f in ctx.state.figures.values() if f.alive and f.on_table]
        want = {f.id: long_way_in_danger(ctx, f) for f in figures}
        monkeypatch.setattr(Terrain, "section_at", counted)
        assert {f.id: B.in_danger(ctx, f) for f in figures} == want
        asked["n"] = 0
        with ctx.still():
            for _ in range(2):
                assert {f.id: B.in_danger(ctx, f) for f in figures} == want
        assert asked["n"] == 0, asked
        monkeypatch.setattr(Terrain, "section_at", section_at)
        men += len(figures)
        inside += sum(section_at(ctx.terrain, f.x, f.y) is not None for f in figures)
        danger += sum(v is not None for v in want.values())
        for unit in ctx.state.units:
            B.counter_attacks(ctx, unit)  # the shapes made, once a scenario (if a unit asks for them)
        monkeypatch.setattr(B, "Polygon", polygon)
        for unit in ctx.state.units.values():
            living = [f for f in ctx.state.living(unit.id) if f.on_table]
            long = (
                unit.side != spec_of.victory.attacker
                and unit.enters >= 1
                and bool(spec_of.victory.objectives)
                and bool(living)
                and min(
                    Polygon(o.shape).distance(Point(living[0].x, living[0].y))
                    for o in spec_of.objectives
                    if o.id in spec_of.victory.objectives
                )
                > B.HOME
            )
            assert B.counter_attacks(ctx, unit.id) == long, unit.id
        monkeypatch.setattr(B, "Polygon", Polygon)
    assert men >= 300 and inside >= 20, (men, inside, danger)
    assert made["n"] == 0
    # every section with a man in it, brought down point by point: each side of the 1/6 chance to fall
    ctx = game.ctx
    state = ctx.state
    held = {}
    for f in [f for f in state.figures.values() if f.alive and f.on_table]:
        section = section_at(ctx.terrain, f.x, f.y)
        if section is not None:
            held.setdefault(section.id, []).append(f)
    verdicts = set()
    for sid, inside_it in held.items():
        full = list(state.sections[sid])
        for points in range(full[0], -1, -1):
            state.sections[sid] = [points] + [0] * (len(full) - 1)
            ctx.changed()
            want = {f.id: long_way_in_danger(ctx, f) for f in inside_it}
            assert {f.id: B.in_danger(ctx, f) for f in inside_it} == want
            with ctx.still():
                assert {f.id: B.in_danger(ctx, f) for f in inside_it} == want
            verdicts |= {v is None for v in want.values()}
        state.sections[sid] = full
        ctx.changed()
    assert verdicts == {True, False}


def beside_friends(ctx: Context, unit: str) -> list[Move]:
    """Moves of ``unit`` putting a man (alone, or the leader with the unit behind him) round a friend of another
    unit or his own: a base away and just either side of the least the rule allows (0.99"), straight and slanted."""
    s = ctx.state
    men = [f for f in s.living(unit) if f.on_table and f.aboard is None and f.on_wall is None]
    if not men:
        return []
    friends = [
        f
        for f in s.figures.values()
        if f.side == men[0].side and f.alive and f.on_table and f.aboard is None and f.on_wall is None
    ]
    moves = []
    for f in men[:3]:
        for o in sorted(friends, key=lambda o: (math.hypot(o.x - f.x, o.y - f.y), o.id))[1:4]:
            for dx, dy in ((0.99, 0.0), (0.98, 0.0), (1.0, 0.0), (-0.99, 0.0), (0.0, -0.99), (0.7, 0.7), (0.7, 0.71)):
                end = (round(o.x + dx, 2), round(o.y + dy, 2))
                moves.append(Move(unit, (), (Order(f.id, "to", (end,)),)))
                if f is men[0]:
                    moves.append(Move(unit, (end,)))
    return moves


@pytest.mark.parametrize(("scenario", "index"), [("village_street", 0), ("gun_line_armour", 1), ("castle_storm", 0)])
def test_the_bases_test_and_a_mans_cover_read_from_what_was_kept_are_the_long_ways(
    monkeypatch: pytest.MonkeyPatch, scenario: str, index: int
) -> None:
    """At each move decision, the doctrine's probes and moves putting men just either side of a base from a
    friend: ``_check_bases_apart`` says what the long way says, message and all, with and without the state
    standing still (a guard: a window of friends sorted along x was tried and measured slower, and not kept);
    ``covered_from_enemy`` of every man, reading the enemies found once while the state stands still, says
    what the nearest of ``men.enemies`` says (fails before: a name ``moving.enemies_at`` it reads)."""
    verdicts = {"passed": 0, "refused": 0}
    covered = 0
    for game, space in move_decisions(scenario, index, 25):
        ctx = game.ctx
        decision = next(d for d in game.pending() if d.space is space)
        _, probes = doctrine_probes(game, monkeypatch, decision)
        moves = [p for p in dict.fromkeys(probes) if isinstance(p, Move) and p.turn is None]
        moves += beside_friends(ctx, space.unit)
        planned = []
        for move in moves:
            try:
                planned.append((move, MV._plan_move(ctx, move)))
            except IllegalAction:
                continue
        longs = [verdict(ctx, long_way_bases_apart, move, paths) for move, paths in planned]
        assert [verdict(ctx, MV._check_bases_apart, move, paths) for move, paths in planned] == longs
        with ctx.still():
            assert [verdict(ctx, MV._check_bases_apart, move, paths) for move, paths in planned] == longs
            for f in [f for f in ctx.state.figures.values() if f.alive and f.on_table]:
                assert [e for e, _, _ in MV.enemies_at(ctx, f.side)] == M.enemies(ctx, f.side)
                enemies = M.enemies(ctx, f.side)
                near = min(enemies, key=lambda e: math.hypot(e.x - f.x, e.y - f.y)) if enemies else None
                terrain = ctx.terrain
                want = near is None or R.cover(terrain, (near.x, near.y), (f.x, f.y), "small_arms") is not None
                assert B.covered_from_enemy(ctx, f.x, f.y, f.side) == want, f.id
                covered += 1
        for kind, _ in longs:
            verdicts[kind] += 1
    assert verdicts["passed"] >= 100 and verdicts["refused"] >= 100 and covered >= 300, (verdicts, covered)


def test_men_already_closer_than_a_base_keep_or_open_their_distance_as_the_long_way_says() -> None:
    """Two friends put 0.6" apart (as a drop or a dismount leaves them) and a third near them: the first moved to
    ends all round them, nearer, as near and farther: the short cut and the long way give the same verdict."""
    game = game_of("village_street", 0)
    ctx = game.ctx
    s = ctx.state
    unit = next(u for u in s.units.values() if len(s.living(u.id)) >= 3)
    a, b, c = s.living(unit.id)[:3]
    for f, (x, y) in zip((a, b, c), ((20.0, 20.0), (20.6, 20.0), (21.2, 20.7)), strict=True):
        f.x, f.y, f.on_table = x, y, True
    ctx.changed()
    seen = set()
    for dx in np.arange(-1.2, 1.21, 0.05):
        for dy in (-0.61, -0.3, 0.0, 0.01, 0.3, 0.6):
            end = (round(20.6 + float(dx), 2), round(20.0 + dy, 2))
            move = Move(unit.id, (), (Order(a.id, "to", (end,)),))
            paths = MV._plan_move(ctx, move)
            long = verdict(ctx, long_way_bases_apart, move, paths)
            assert verdict(ctx, MV._check_bases_apart, move, paths) == long, end
            with ctx.still():
                assert verdict(ctx, MV._check_bases_apart, move, paths) == long, end
            seen.add(long[0])
    assert seen == {"passed", "refused"}


def walks_cases() -> list[tuple[XY, XY, Any, float]]:
    """Straight paths past vehicles' footprints (turned every way, a tank's and a jeep's sizes): at random, and
    tuned by bisection so that what the body swept shares with the vehicle is 0.01 square inch, then a hair
    either side (1e-7, 1e-5, 1e-3 of the offset): alongside a side (the body's straight edge) and end-on at a
    side and at a corner (its round end, where the body's chords lie inside the circle)."""
    rng = np.random.default_rng(33)
    cases: list[tuple[XY, XY, Any, float]] = []

    def shared(a: XY, b: XY, shape: Any) -> float:
        return float(LineString([a, b]).buffer(0.5).intersection(shape).area)

    for k in range(16):
        heading = float(rng.uniform(0, 360))
        length, width = ((3.0, 1.4), (1.4, 0.9))[k % 2]
        shape = V.footprint((20.0, 20.0), heading, length, width)
        corners = [tuple(c) for c in shapely.get_coordinates(shape)[:-1]]
        for _ in range(20):  # at random near it
            a = (round(float(rng.uniform(16, 24)), 2), round(float(rng.uniform(16, 24)), 2))
            t = float(rng.uniform(0, 2 * math.pi))
            d = float(rng.uniform(0.05, 5))
            b = (round(a[0] + d * math.cos(t), 2), round(a[1] + d * math.sin(t), 2))
            if a != b:
                cases.append((a, b, shape, min(length, width)))
        (x0, y0), (x1, y1) = corners[0], corners[1]
        ex, ey = (x1 - x0) / math.dist(corners[0], corners[1]), (y1 - y0) / math.dist(corners[0], corners[1])
        nx, ny = ey, -ex  # out of the footprint across the side corners[0]-corners[1] (the corners go round)
        if shapely.intersects_xy(shape, x0 + 0.01 * nx + 0.01 * ex, y0 + 0.01 * ny + 0.01 * ey):
            nx, ny = -nx, -ny
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        paths = {
            "alongside": lambda o, mx=mx, my=my, ex=ex, ey=ey, nx=nx, ny=ny: (
                (mx - 2 * ex + o * nx, my - 2 * ey + o * ny),
                (mx + 2 * ex + o * nx, my + 2 * ey + o * ny),
            ),
            "end-on": lambda o, mx=mx, my=my, nx=nx, ny=ny: ((mx + 3 * nx, my + 3 * ny), (mx + o * nx, my + o * ny)),
            "at a corner": lambda o, x0=x0, y0=y0, ex=ex, ey=ey, nx=nx, ny=ny: (
                (x0 + 3 * (nx - ex), y0 + 3 * (ny - ey)),
                (x0 + o * (nx - ex) / math.sqrt(2), y0 + o * (ny - ey) / math.sqrt(2)),
            ),
        }
        for make in paths.values():
            lo, hi = 0.2, 0.5  # offsets (inches out of the side) sharing more and less than 0.01 square inch
            if not shared(*make(lo), shape) > 0.01 > shared(*make(hi), shape):
                continue
            for _ in range(60):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if shared(*make(mid), shape) > 0.01 else (lo, mid)
            for step in (0.0, 1e-7, -1e-7, 1e-5, -1e-5, 1e-3, -1e-3):
                a, b = make(lo + step)
                cases.append(((float(a[0]), float(a[1])), (float(b[0]), float(b[1])), shape, min(length, width)))
    return cases


def test_a_walk_past_a_vehicle_settled_from_the_swept_discs_is_what_the_body_says() -> None:
    """``afoot._sweep_meets`` (what the body shares with a vehicle bounded by the discs swept exactly) says what
    ``vehicles.sweep_meets`` (the body built) says, over paths at random and tuned to a hair either side of 0.01
    square inch, alongside, end-on and at a corner; the bounds hold the body's share between them; the
    premise holds: shapely's buffer of a straight path has its corners within half a base of the path and
    each side at least ``INSIDE`` of that from both ends. The body is built for few of them (before, for each
    path whose gap the first two tests left open)."""
    built = near = 0
    for a, b, shape, side in walks_cases():
        line = LineString([a, b])
        body = line.buffer(0.5)
        made = {"n": 0}

        def the_body(body: Any = body, made: dict[str, int] = made) -> Any:
            made["n"] += 1
            return body

        want = V.sweep_meets(line, 0.5, shape, lambda body=body: body, side)
        assert AF._sweep_meets([a, b], lambda line=line: line, 0.5, shape, the_body, side) == want, (a, b)
        corners = [tuple(c) for c in shapely.get_coordinates(shape)[:-1]]
        area = body.intersection(shape).area
        assert AF.shares(a, b, corners, 0.5 * AF.INSIDE - 1e-9) <= area + 1e-12, (a, b)
        assert area <= AF.shares(a, b, corners, 0.5) + 1e-12, (a, b)
        ring = list(body.exterior.coords)
        assert max(line.distance(Point(p)) for p in ring) <= 0.5 + 1e-12
        for p, q in itertools.pairwise(ring):
            if p != q:
                side_line = LineString([p, q])
                span = math.dist(p, q)
                for end in (a, b):
                    gap = abs((end[0] - p[0]) * (q[1] - p[1]) - (end[1] - p[1]) * (q[0] - p[0])) / span
                    assert gap >= 0.5 * AF.INSIDE - 1e-12, (a, b, side_line)
        near += abs(area - 0.01) < 1e-4
        built += made["n"]
    assert near >= 40 and built <= near, (near, built)


def long_way_profile(terrain: Terrain, line: LineString) -> list[tuple[float, float, float]]:
    """``Terrain.profile`` as it was: every hill asked of the line, the ground measured at each span's middle."""
    cuts = {0.0, line.length}
    for hill in terrain.hills:
        if not hill.shape.intersects(line):
            continue
        crossing = shapely.get_coordinates(line.intersection(hill.shape.boundary))
        if len(crossing):
            cuts.update(np.asarray(shapely.line_locate_point(line, shapely.points(crossing))).tolist())
    spans = [(a, b) for a, b in itertools.pairwise(sorted(cuts)) if b - a > 1e-9]
    mids = shapely.get_coordinates(shapely.line_interpolate_point(line, [(a + b) / 2 for a, b in spans]))
    out: list[tuple[float, float, float]] = []
    for (a, b), (x, y) in zip(spans, mids.tolist(), strict=True):
        h = terrain.height(x, y)
        if out and out[-1][2] == h:
            out[-1] = (out[-1][0], b, h)
        else:
            out.append((a, b, h))
    return out or [(0.0, line.length, terrain.height(*line.coords[0]))]


def test_the_ground_along_a_path_clear_of_every_hills_box_is_flat_as_the_long_way_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``Terrain.profile`` of every path the doctrine measures in a gun_line_armour game, and of paths ending a
    hair either side of the hill's box (1e-10 to 1e-2 inch, along each side, and at the corners), says what the
    long way says; a path clear of every hill's box is not put to the hill (before, every path was)."""
    monkeypatch.setattr(context, "_SHARED", {})  # this game's own memos: a game played before it in this process
    game = game_of("gun_line_armour", 1)  # (as a CI worker did) had kept every path's measure, so none came here
    terrain = game.ctx.base_terrain
    assert terrain.hills
    lines: list[LineString] = []
    profile = Terrain.profile

    def recording(t: Terrain, line: LineString) -> Any:
        lines.append(line)
        return profile(t, line)

    monkeypatch.setattr(Terrain, "profile", recording)
    bot = DoctrineBot(np.random.default_rng(stream(33, 1, BOTS)))
    for _ in range(150):
        if game.result is not None:
            break
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    monkeypatch.setattr(Terrain, "profile", profile)
    x0, y0, x1, y1 = terrain.hills[0].shape.bounds
    for gap in (1e-10, 1e-9, 2e-9, 1e-6, 1e-2):
        for d in (-gap, gap):
            ends = [(x0 - d, (y0 + y1) / 2), (x1 + d, (y0 + y1) / 2), ((x0 + x1) / 2, y0 - d), ((x0 + x1) / 2, y1 + d)]
            ends += [(x0 - d, y0 - d), (x1 + d, y1 + d)]
            for ex, ey in ends:
                away = (ex + 3 * (ex - (x0 + x1) / 2) / abs(x1 - x0), ey + 3 * (ey - (y0 + y1) / 2) / abs(y1 - y0))
                lines.append(LineString([away, (ex, ey)]))
    asked = {"n": 0}
    intersects = type(terrain.hills[0].shape).intersects

    def counted(shape: Any, other: Any) -> bool:
        asked["n"] += 1
        return bool(intersects(shape, other))

    clear = 0
    for line in lines:
        want = long_way_profile(terrain, line)
        monkeypatch.setattr(type(terrain.hills[0].shape), "intersects", counted)
        asked["n"] = 0
        assert terrain.profile(line) == want, line
        monkeypatch.setattr(type(terrain.hills[0].shape), "intersects", intersects)
        clear += asked["n"] == 0
    assert len(lines) >= 200 and clear >= len(lines) // 3, (len(lines), clear)


def test_a_point_near_a_straight_path_measured_here_is_what_rules_path_near_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``moving.path_near`` against ``rules.path_near``: random straight paths and points, and points a hair
    either side of the limit (a base less the tolerance; 1e-12 to 1e-3 inch) square to the path's middle, past
    each end and on the slant; paths of one point, of two equal points and of three. Shapely is asked only of
    the points within 1e-9 inch of the limit and of the paths not straight (before, of every one)."""
    rng = np.random.default_rng(33)
    asked = {"n": 0}
    path_near = R.path_near

    def counted(*args: Any) -> bool:
        asked["n"] += 1
        return path_near(*args)

    cases: list[tuple[list[XY], XY]] = []
    close = 0  # the cases shapely may be asked of
    for _ in range(300):
        a = (round(float(rng.uniform(0, 40)), 2), round(float(rng.uniform(0, 40)), 2))
        b = (round(a[0] + float(rng.uniform(-6, 6)), 2), round(a[1] + float(rng.uniform(-6, 6)), 2))
        cases.append(([a, b], (float(rng.uniform(a[0] - 2, a[0] + 2)), float(rng.uniform(a[1] - 2, a[1] + 2)))))
        d = math.dist(a, b)
        if d == 0:
            close += 1
            continue
        ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
        limit = 1.0 - TOLERANCE
        for step in (0.0, 1e-12, -1e-12, 1e-10, -1e-10, 1e-8, -1e-8, 1e-6, -1e-6, 1e-3, -1e-3):
            r = limit + step
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            cases.append(([a, b], (mx - uy * r, my + ux * r)))
            cases.append(([a, b], (b[0] + ux * r, b[1] + uy * r)))
            cases.append(([a, b], (a[0] - (ux + uy) * r / math.sqrt(2), a[1] - (uy - ux) * r / math.sqrt(2))))
            close += 3 if abs(step) < 1e-9 else 0
    three = [(5.0, 5.0), (7.0, 5.0), (7.0, 8.0)]
    cases += [
        ([(5.0, 5.0)], (5.5, 5.2)),
        ([(5.0, 5.0), (5.0, 5.0)], (5.5, 5.2)),
        ([(5.0, 5.0), (5.0, 5.0)], (5.0, 6.0)),
    ]
    cases += [(three, (7.9, 6.0)), (three, (8.0, 6.0))]
    close += 5
    want = [path_near(path, other, 1.0) for path, other in cases]
    monkeypatch.setattr(R, "path_near", counted)
    assert [MV.path_near(path, other, 1.0) for path, other in cases] == want
    assert sum(want) >= 500 and len(want) - sum(want) >= 500, sum(want)
    assert asked["n"] <= close < len(cases) // 2, (asked, close, len(cases))


@pytest.mark.parametrize(("scenario", "index"), [("castle_storm", 0), ("gun_line_armour", 1)])
def test_a_walk_kept_with_the_terrain_is_what_the_vehicles_where_they_stand_give(
    monkeypatch: pytest.MonkeyPatch, scenario: str, index: int
) -> None:
    """At each move decision of a game (the state standing still), every path of the doctrine's probes:
    ``walks_into`` (kept for the terrain now, across decisions) says what ``_walks_into`` worked out afresh
    says; the premise holds: a terrain met again stands for the same vehicles and train (what, where, how
    big); and fewer walks are worked out than the decisions ask for afresh (before, each decision's)."""
    worked = {"n": 0}
    fresh = AF._walks_into

    def counted(*args: Any) -> str | None:
        worked["n"] += 1
        return fresh(*args)

    monkeypatch.setattr(AF, "_walks_into", counted)
    seen: dict[int, tuple[Any, list[tuple[str, bytes, float | None]]]] = {}
    asked = paths_in = 0
    for game, space in move_decisions(scenario, index, 40):
        ctx = game.ctx
        decision = next(d for d in game.pending() if d.space is space)
        _, probes = doctrine_probes(game, monkeypatch, decision)
        with ctx.still():
            found = AF.obstacles(ctx)
            terrain = ctx.terrain
            made = [(what, shapely.to_wkb(shape), side) for what, shape, _, side in found]
            if id(terrain) in seen and seen[id(terrain)][0] is terrain:
                assert seen[id(terrain)][1] == made
            seen[id(terrain)] = (terrain, made)
            before = worked["n"]
            tried: set[tuple[XY, ...]] = set()
            for probe in dict.fromkeys(probes):
                if not isinstance(probe, Move) or probe.turn is not None:
                    continue
                try:
                    paths = MV.plan_move(ctx, probe)
                except IllegalAction:
                    continue
                for path in paths.values():
                    if 2 <= len(path) <= 4 and tuple(path) not in tried:
                        tried.add(tuple(path))
                        assert AF.walks_into(ctx, path, found) == fresh(ctx, path, found), path
                        paths_in += 1
            asked += len(tried) - (worked["n"] - before)
    assert paths_in >= 150 and asked >= paths_in // 4, (paths_in, asked)


def test_a_charges_spot_measures_only_the_friends_near_it_and_finds_the_long_ways(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At the move decisions of a village_street game, each man's touching spot on each enemy within 12" is the
    long way's (``long_way_touching_spot``), also with friends put round the target at a base and a hair either
    side of it; ``rules.in_contact`` and ``rules.overlaps`` are asked of a quarter as many friends or fewer
    (before, of every friend at every spot)."""
    game = game_of("village_street", 1)
    bot = DoctrineBot(np.random.default_rng(stream(33, 1, BOTS)))
    asked = {"short": 0, "long": 0, "bot": 0}
    way = ["bot"]
    overlaps, in_contact = R.overlaps, R.in_contact

    def counted_overlaps(*args: Any) -> bool:
        asked[way[0]] += 1
        return overlaps(*args)

    def counted_contact(*args: Any) -> bool:
        asked[way[0]] += 1
        return in_contact(*args)

    monkeypatch.setattr(R, "overlaps", counted_overlaps)
    monkeypatch.setattr(R, "in_contact", counted_contact)
    spots = found = 0
    while game.result is None and spots < 1200:
        decision = game.pending()[0]
        if isinstance(decision.space, MoveSpace):
            ctx = game.ctx
            men = [f for f in ctx.state.living(decision.space.unit) if f.on_table]
            foes = M.enemies(ctx, men[0].side) if men else []
            taken = B.friends_at(ctx, men[0].side, {f.id for f in men}) if men else []
            for f in men:
                for target in [e for e in foes if math.dist((e.x, e.y), (f.x, f.y)) <= 12.0]:
                    ring = [  # round the target, along the axes and on the slant, at a base and the contact's limit
                        (target.x + r * math.cos(a), target.y + r * math.sin(a))
                        for r in (1.0 - 1e-9, 1.0, 1.0 + 1e-9, 1.01, 1.01 + 1e-9)
                        for a in (0.0, 0.3, math.pi / 2, 2.0, 4.0)
                    ]
                    d = math.dist((f.x, f.y), (target.x, target.y))
                    if d <= TOLERANCE:
                        continue
                    sx = snap(f.x + (d - 1.0) / d * (target.x - f.x))
                    sy = snap(f.y + (d - 1.0) / d * (target.y - f.y))
                    beside = [  # round the straight spot, along the axes, at and about the overlap's limit
                        (sx + s * r, sy) if k else (sx, sy + s * r)
                        for r in (0.95, 0.99 - 1e-9, 0.99, 0.99 + 1e-9)
                        for s in (1, -1)
                        for k in (0, 1)
                    ]
                    blocked = [(sx, sy)]  # a friend on the straight spot: the spots round the target are tried
                    for friends in (
                        taken,
                        taken + ring,
                        taken + ring + blocked,
                        taken + beside[:4],
                        taken + beside[4:],
                    ):
                        way[0] = "long"
                        want = long_way_touching_spot(ctx, f, target, foes, friends)
                        way[0] = "short"
                        assert B._touching_spot(ctx, f, target, foes, friends) == want, (f.id, target.id)
                        spots += 1
                        found += want is not None
        way[0] = "bot"
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert spots >= 800 and found >= 30, (spots, found)
    assert asked["short"] <= asked["long"] // 4, asked
