"""The doctrine's move probes' short cuts (issue 33, item 4) give what the long way, the whole check, gives.

A unit's move probe is refused before its whole check when its plan is refused, a man walks into a vehicle,
or a man would end on a friend's base (``moving.surely_refused``); the plan and the bases' verdict are kept
while the state stands still for the check to read. Checked here on the probes the doctrine makes in real
games and on moves that put a man just either side of a base from a friend: every probe surely refused is
refused by the whole check, the check says the same with and without what was kept, and the bases' test
says what it said before its short cut (``long_way_bases_apart``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from shapely.geometry import Polygon

from grognard.core.dice import BOTS, stream
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, snap
from grognard.rulesets.skirmish import afoot as AF
from grognard.rulesets.skirmish import bots as B
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import moving as MV
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import structures as ST
from grognard.rulesets.skirmish.actions import Move, Order
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.moving import MoveSpace
from grognard.rulesets.skirmish.terrain import Terrain
from skirmish_games import game_of

XY = tuple[float, float]


def long_way_bases_apart(ctx: Context, action: Move, paths: dict[str, list[XY]]) -> None:
    """``moving._check_bases_apart`` as it was before its short cut: every friend's end through
    ``rules.overlaps``."""
    s = ctx.state
    base = ctx.tables.sight.base.value
    side = s.units[action.unit].side
    ends: dict[str, XY] = {}
    for f in s.figures.values():
        if f.side != side or not f.alive or f.aboard is not None or f.on_wall is not None or f.on_ladder is not None:
            continue
        path = paths.get(f.id)
        if path is not None and len(path) > 1:
            ends[f.id] = path[-1]
        elif f.on_table:
            ends[f.id] = (f.x, f.y)
    for fid, path in paths.items():
        if len(path) < 2 or fid not in ends:
            continue
        f = s.figures[fid]
        for other, at in ends.items():
            if other == fid or not R.overlaps(path[-1], at, base):
                continue
            gap = math.hypot(path[-1][0] - at[0], path[-1][1] - at[1])
            o = s.figures[other]
            if f.on_table and o.on_table and gap >= math.hypot(f.x - o.x, f.y - o.y) - TOLERANCE:
                continue
            raise IllegalAction(
                f'{action}: {fid} would end {gap:.2f}" from {other}, on his base '
                f'(men keep their bases apart: centres at least {base:g}")',
                "skirmish.10",
            )


def verdict(ctx: Context, check: Any, *args: Any) -> tuple[str, Any]:
    """What ``check(ctx, *args)`` gives, or the refusal it raises (its message)."""
    try:
        return ("passed", check(ctx, *args))
    except IllegalAction as refusal:
        return ("refused", str(refusal))


def near_friends(ctx: Context, unit: str) -> list[Move]:
    """Moves of one man of ``unit`` to spots round a friend on the ground, a base from him and just either side
    of it (0.99" is the least the rule allows: a base less the tolerance), straight and on the slant."""
    s = ctx.state
    men = [f for f in s.living(unit) if f.on_table and f.aboard is None and f.on_wall is None]
    friends = [
        f
        for f in s.figures.values()
        if f.side == s.units[unit].side and f.alive and f.on_table and f.aboard is None and f.on_wall is None
    ]
    moves = []
    for f in men[:3]:
        near = sorted(friends, key=lambda o: (math.hypot(o.x - f.x, o.y - f.y), o.id))[1:3]
        for o in near:
            spots = [(o.x + d, o.y) for d in (0.98, 0.99, 1.0, -0.99, -1.0)] + [(o.x, o.y + 0.99)]
            spots += [(o.x + dx, o.y + dy) for dx, dy in ((0.7, 0.7), (0.7, 0.71), (-0.7, 0.71), (0.6, -0.79))]
            moves += [Move(unit, (), (Order(f.id, "to", ((round(x, 2), round(y, 2)),)),)) for x, y in spots]
    return moves


@pytest.mark.parametrize(("scenario", "index"), [("village_street", 0), ("gun_line_armour", 1)])
def test_a_move_probe_surely_refused_is_refused_by_the_whole_check_and_the_check_reads_the_same(
    monkeypatch: pytest.MonkeyPatch, scenario: str, index: int
) -> None:
    """At the move decisions of a game, every probe the doctrine makes and moves that put a man just either
    side of a base from a friend: a probe ``surely_refused`` refuses, the whole check (nothing kept) refuses;
    the check, once the cheap test ran while the state stands still, gives what it gives with nothing kept;
    the bases' test gives what it gave before its short cut. Some probes are refused by the bases alone
    without the whole check (before, only a walk into a vehicle was, and village_street has none)."""
    game = game_of(scenario, index)
    bot = DoctrineBot(np.random.default_rng(stream(33, index, BOTS)))
    probes: list[Move] = []
    contains = MoveSpace.contains

    def recording(space: MoveSpace, action: Any) -> bool:
        probes.append(action)
        return contains(space, action)

    checked = sure = apart = 0
    edge = {"passed": 0, "refused": 0}  # the moves to a base from a friend, by the bases' verdict
    decisions = 0
    while game.result is None and decisions < 30:
        decision = game.pending()[0]
        space = decision.space
        if not isinstance(space, MoveSpace):
            game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
            continue
        decisions += 1
        ctx = game.ctx
        probes.clear()
        monkeypatch.setattr(MoveSpace, "contains", recording)
        action = bot.choose(game, decision)
        monkeypatch.setattr(MoveSpace, "contains", contains)
        tried = near_friends(ctx, space.unit)
        for probe in [*dict.fromkeys(probes), *tried]:
            long = verdict(ctx, MV.check_move, probe)
            with ctx.still():
                refused = MV.surely_refused(ctx, space.unit, probe)
                kept = verdict(ctx, MV.check_move, probe)
            assert kept == long, probe
            assert long[0] == "refused" or not refused, probe
            if isinstance(probe, Move) and probe.turn is None:
                try:
                    paths = MV._plan_move(ctx, probe)
                except IllegalAction:
                    continue
                bases = verdict(ctx, MV._check_bases_apart, probe, paths)
                assert bases == verdict(ctx, long_way_bases_apart, probe, paths), probe
                apart += refused and bases[0] == "refused"
                if probe in tried:
                    edge[bases[0]] += 1
            checked += 1
            sure += refused
        game.apply(decision.seat, action, checked=False, decision=decision)
    assert decisions >= 20 and checked >= 300, (decisions, checked)
    assert apart >= 20 and edge["passed"] >= 20 and edge["refused"] >= 20, (apart, edge, sure)


def long_way_plan(ctx: Context, action: Move) -> dict[str, list[XY]]:
    """``moving._plan_move``'s paths as it made them before its one-point short cut (no refusal: the probes
    given it here are planned by the real one first)."""
    men = ctx.state.living(action.unit)
    orders = {o.figure: o for o in action.orders}
    leader = men[0]
    paths: dict[str, list[XY]] = {}
    for f in men:
        start = (f.x, f.y)
        given = orders.get(f.id)
        if given is not None and given.verb == "ladder" and len(given.points) == 2:
            paths[f.id] = [start, (snap(given.points[1][0]), snap(given.points[1][1]))]
        elif given is not None:
            paths[f.id] = [start, *((snap(x), snap(y)) for x, y in given.points)] if given.verb == "to" else [start]
        elif f.on_ladder is not None:
            paths[f.id] = [start]
        elif action.path:
            dx, dy = f.x - leader.x, f.y - leader.y
            paths[f.id] = [start, *((snap(x + dx), snap(y + dy)) for x, y in action.path)]
        else:
            paths[f.id] = [start]
    return paths


def test_a_paths_box_is_what_min_and_max_give() -> None:
    rng = np.random.default_rng(33)
    for n in (2, 3, 4):
        for _ in range(400):
            path = [(float(x), float(y)) for x, y in np.round(rng.uniform(-3, 3, (n, 2)), int(rng.integers(0, 3)))]
            want = (min(p[0] for p in path), min(p[1] for p in path), max(p[0] for p in path), max(p[1] for p in path))
            assert AF.path_box(path) == want, path


@pytest.mark.parametrize(("scenario", "index"), [("gun_line_armour", 1), ("castle_storm", 0)])
def test_only_a_man_whose_box_meets_a_vehicles_is_asked_whether_he_walks_into_it(
    monkeypatch: pytest.MonkeyPatch, scenario: str, index: int
) -> None:
    """Over the doctrine's move probes of a game with vehicles, ``afoot.any_walks_into`` says what asking
    ``walks_into`` of every man's path says, and asks it of fewer paths (before, ``surely_refused`` asked it of
    every man's path of two to four points until one walked in); every probe's plan is the long way's."""
    game = game_of(scenario, index)
    bot = DoctrineBot(np.random.default_rng(stream(33, index, BOTS)))
    probes: list[Move] = []
    contains = MoveSpace.contains
    walks_into = AF.walks_into
    asked = {"n": 0}

    def recording(space: MoveSpace, action: Any) -> bool:
        probes.append(action)
        return contains(space, action)

    def counted(*args: Any) -> str | None:
        asked["n"] += 1
        return walks_into(*args)

    checked = into = paths_of = 0
    while game.result is None and checked < 600:
        decision = game.pending()[0]
        probes.clear()
        monkeypatch.setattr(MoveSpace, "contains", recording)
        action = bot.choose(game, decision)
        monkeypatch.setattr(MoveSpace, "contains", contains)
        ctx = game.ctx
        found = AF.obstacles(ctx)
        for probe in dict.fromkeys(probes):
            if not isinstance(probe, Move) or probe.turn is not None:
                continue
            try:
                paths = MV._plan_move(ctx, probe)
            except IllegalAction:
                continue
            assert paths == long_way_plan(ctx, probe), probe
            want = any(2 <= len(p) <= 4 and walks_into(ctx, p, found) is not None for p in paths.values())
            monkeypatch.setattr(AF, "walks_into", counted)
            assert AF.any_walks_into(ctx, paths.values(), found) == want, probe
            monkeypatch.setattr(AF, "walks_into", walks_into)
            checked += 1
            into += want
            paths_of += sum(2 <= len(p) <= 4 for p in paths.values())
        game.apply(decision.seat, action, checked=False, decision=decision)
    assert checked >= 150 and into >= 30, (checked, into)
    assert asked["n"] < paths_of // 2, (asked, paths_of)


def test_a_man_in_no_building_is_not_asked_for_his_section_and_in_danger_says_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At the move decisions of a village_street game, ``bots.in_danger`` of every man says what the sections
    say (``Terrain.section_at``, the section's state and its chance to fall), and asks ``section_at`` only of
    the men in a building (before, of every man)."""
    game = game_of("village_street", 0)
    bot = DoctrineBot(np.random.default_rng(stream(33, 0, BOTS)))
    section_at = Terrain.section_at
    asked = {"n": 0}

    def counted(terrain: Terrain, x: float, y: float) -> Any:
        asked["n"] += 1
        return section_at(terrain, x, y)

    men = inside = 0
    while game.result is None and men < 600:
        decision = game.pending()[0]
        if isinstance(decision.space, MoveSpace):
            ctx = game.ctx
            for f in [f for f in ctx.state.figures.values() if f.alive and f.on_table]:
                section = section_at(ctx.terrain, f.x, f.y)
                want = None
                if section is not None and ST.state_of(ctx, section.id) != "all dead":
                    want = section.id if ST.collapse_chance(ctx, section.id) >= B.LEAVE_AT else None
                monkeypatch.setattr(Terrain, "section_at", counted)
                assert B.in_danger(ctx, f) == want, f.id
                monkeypatch.setattr(Terrain, "section_at", section_at)
                men += 1
                inside += section is not None
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert men >= 600 and inside >= 20, (men, inside)
    assert asked["n"] <= men // 2, (asked, men)


def test_the_objectives_centres_are_the_polygons_centroids_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An attacker's aim is the nearest objective's centre, the centroid of its polygon, made once for the
    scenario (before, every leader's every move made each objective's polygon again)."""
    game = game_of("village_street", 0)
    ctx = game.ctx
    spec = ctx.scenario.spec
    want = [Polygon(o.shape).centroid for o in spec.objectives if o.id in spec.victory.objectives]
    attacker = next(f for f in ctx.state.figures.values() if f.side == spec.victory.attacker)
    B.aim_point(ctx, attacker.side, attacker)
    made = {"n": 0}

    def counted(*args: Any) -> Polygon:
        made["n"] += 1
        return Polygon(*args)

    monkeypatch.setattr(B, "Polygon", counted)
    rng = np.random.default_rng(33)
    for x, y in rng.uniform(0, 40, (50, 2)).tolist():
        attacker.x, attacker.y = x, y
        near = min(want, key=lambda c: math.hypot(c.x - x, c.y - y))
        assert B.aim_point(ctx, attacker.side, attacker) == (near.x, near.y)
    assert made["n"] == 0


def long_way_touching_spot(ctx: Context, f: Any, target: Any, foes: list[Any], taken: list[XY]) -> XY | None:
    """``bots._touching_spot`` as it was: every foe put to ``rules.path_near``."""
    base = ctx.tables.sight.base.value
    d = math.dist((f.x, f.y), (target.x, target.y))
    if d <= TOLERANCE:
        return None
    t = (d - base) / d
    straight = (snap(f.x + t * (target.x - f.x)), snap(f.y + t * (target.y - f.y)))
    beside = math.radians(B.BESIDE)
    near = math.atan2(f.y - target.y, f.x - target.x)
    touching = [
        math.atan2(y - target.y, x - target.x) for x, y in taken if R.in_contact((x, y), (target.x, target.y), base)
    ]
    around = {a + s * beside for a in touching for s in (1, -1)} | {near + k * beside for k in (1, -1, 2, -2)}
    spots = sorted(
        {(snap(target.x + base * math.cos(a)), snap(target.y + base * math.sin(a))) for a in around},
        key=lambda p: (math.hypot(p[0] - f.x, p[1] - f.y), p),
    )
    for end in [straight, *spots]:
        if end is not straight and not ctx.terrain.on_table(*end):
            continue
        if any(R.overlaps(end, spot, base) for spot in taken):
            continue
        if math.hypot(end[0] - f.x, end[1] - f.y) > M.allowance(ctx, f) + TOLERANCE:
            continue
        if any(R.path_near([(f.x, f.y), end], (e.x, e.y), base) for e in foes):
            continue
        return end
    return None


def test_a_charges_spot_asks_path_near_only_of_the_foes_near_the_run_and_finds_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At the move decisions of a village_street game, each man's touching spot on each enemy within 12" is the
    long way's, and ``rules.path_near`` is asked only of the foes near his run's box: less than a quarter as
    often as the long way, which asks it of every foe (as ``_touching_spot`` did before)."""
    game = game_of("village_street", 1)
    bot = DoctrineBot(np.random.default_rng(stream(33, 1, BOTS)))
    path_near = R.path_near
    asked = {"short": 0, "long": 0, "bot": 0}
    way = ["bot"]

    def counted(*args: Any) -> bool:
        asked[way[0]] += 1
        return path_near(*args)

    monkeypatch.setattr(R, "path_near", counted)
    spots = found = 0
    while game.result is None and spots < 300:
        decision = game.pending()[0]
        if isinstance(decision.space, MoveSpace):
            ctx = game.ctx
            men = [f for f in ctx.state.living(decision.space.unit) if f.on_table]
            foes = M.enemies(ctx, men[0].side) if men else []
            taken = B.friends_at(ctx, men[0].side, {f.id for f in men}) if men else []
            for f in men:
                for target in [e for e in foes if math.dist((e.x, e.y), (f.x, f.y)) <= 12.0]:
                    way[0] = "long"
                    want = long_way_touching_spot(ctx, f, target, foes, taken)
                    way[0] = "short"
                    assert B._touching_spot(ctx, f, target, foes, taken) == want, (f.id, target.id)
                    spots += 1
                    found += want is not None
        way[0] = "bot"
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert spots >= 200 and found >= 20, (spots, found)
    assert asked["short"] < asked["long"] // 4, asked


def test_the_foes_within_reach_are_those_math_dist_puts_there() -> None:
    """``bots.within_reach`` (the men a charger may reach) against ``math.dist`` over random men and men at the
    reach along an axis and on the slant, just inside and outside it."""
    game = game_of("village_street", 0)
    f = next(iter(game.ctx.state.figures.values()))
    others = list(game.ctx.state.figures.values())[1:]
    rng = np.random.default_rng(33)
    for reach in (2.0, 5.0, 7.0):
        spots = [(float(x), float(y)) for x, y in rng.uniform(-2 * reach, 2 * reach, (60, 2))]
        for d in (-1e-9, 0.0, 1e-9, 0.01, -0.01):
            r = reach + d
            spots += [(r, 0.0), (-r, 0.0), (0.0, r), (0.0, -r), (r * 0.6, r * 0.8), (-r * 0.8, r * 0.6)]
        for k in range(0, len(spots), len(others)):
            for e, (dx, dy) in zip(others, spots[k : k + len(others)], strict=False):
                e.x, e.y = f.x + dx, f.y + dy
            foes = others[: len(spots[k : k + len(others)])]
            want = [e for e in foes if math.dist((e.x, e.y), (f.x, f.y)) <= reach]
            assert B.within_reach(foes, f, reach) == want
