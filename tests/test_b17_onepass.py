"""A fighter's decision measured in one pass (onepass.py, issue 33 item 3) measures as the rules do.

Every measure of ``onepass.measure`` (where the fighter stands at each attack's stop and its path's end, whether
the path stays on the table, the range, the +1, the gunners met, the next straight's edge and the bombers' next
reach) is compared with the plain measure (``Path``, shapely through ``rules``, one position at a time) on many
positions: fighters round a box of bombers (one damaged), by the table's edges, and headings on the very
limits of the +1. And a whole decision, ``fighter_plans``, is the plain doctrine's: every candidate attack
scored through ``FlySpace.resolve``, every interception's end measured alone, sorted by the book's order.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from grognard.core.geometry import snap_angle
from grognard.rulesets.b17 import attacks as A
from grognard.rulesets.b17 import bots as B
from grognard.rulesets.b17 import ends as E
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import onepass as P
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly
from grognard.rulesets.b17.data import ATTACK_RANGE, PAIRS
from grognard.rulesets.b17.game import B17Game, FlySpace
from grognard.rulesets.b17.state import Aircraft
from test_b17_rules import scene

BOX = {"B1": (50.0, 30.0, 0.0), "B2": (45.0, 34.0, 20.0), "B3": (45.0, 26.0, -35.0), "B4": (40.0, 30.0, 170.0)}


def gunners(game: B17Game, f: Aircraft, x: float, y: float, h: float) -> int:
    """The gunners that could fire at ``f`` standing at (x, y, h), by the rules: per bomber its better pair."""
    ghost = f.copy()
    ghost.x, ghost.y, ghost.heading = x, y, h
    total = 0
    for b in game.flying_bombers():
        in_range = R.guns_in_range(game.state.options, b, ghost)
        total += max(sum(1 for g in guns if g in in_range) for guns in PAIRS.values())
    return total


def next_reach(game: B17Game, f: Aircraft, x: float, y: float) -> int:
    """The clause reach, bomber by bomber: 4" and the half-diagonals from the nearest of its next ends weighed."""
    fd = game.dims(f)
    count = 0
    for b in game.flying_bombers():
        bd, length = game.dims(b), R.allowance(b)
        limit = ATTACK_RANGE + (math.hypot(bd.length, bd.span) + math.hypot(fd.length, fd.span)) / 2
        ends = E._bomber_ends(length, R.minimum_straight(b, length)).tolist()
        count += any(math.dist((x, y), G.local_to_world(b.x, b.y, b.heading, u, v)) <= limit for u, v in ends)
    return E.GUNS_A_BOMBER * count


def forced_off(x: float, y: float, h: float) -> bool:
    """The clause edge: the next move's 6" straight ahead ends off the table."""
    return not G.table_contains(*G.local_to_world(x, y, h, 6.0, 0.0))


def fighters(rng: np.random.Generator, n: int) -> list[tuple[float, float, float]]:
    """Fighters round the box (snapped as stored), a few by the table's edges, a few flying on the limits of
    the +1 (the head-on tolerance and its storage step, off a bomber's axis)."""
    out = [
        (round(float(x), 2), round(float(y), 2), snap_angle(float(h)))
        for x, y, h in zip(rng.uniform(28, 64, n), rng.uniform(14, 46, n), rng.uniform(-180, 180, n), strict=True)
    ]
    out += [(2.0, 3.0, -150.0), (104.5, 57.0, 30.0), (60.0, 1.5, -95.0)]  # paths that leave the table
    out += [(62.0, 30.0, 180.0 - 15.01), (36.0, 29.8, 15.01), (58.0, 31.0, -164.99), (33.0, 30.0, 14.99)]
    return out


def by_the_edges(rng: np.random.Generator, n: int) -> list[tuple[float, float, float]]:
    """Fighters round bombers flying along the table's edges (``EDGES``): attacks whose paths leave it."""
    return [
        (round(float(x), 2), round(float(y), 2), snap_angle(float(h)))
        for x, y, h in zip(rng.uniform(92, 108, n), rng.uniform(0, 12, n), rng.uniform(-180, 180, n), strict=True)
    ]


EDGES = {"B1": (101.0, 2.5, 10.0), "B2": (96.0, 6.0, -20.0)}


def one_pass(
    game: B17Game, f: Aircraft, rng: np.random.Generator
) -> tuple[P.Rows, P.Measured, dict[str, object], float]:
    """The rows of the attacks of ``f``'s decision (onto the axis, then the grid's), and 20 more of the grid's
    paths with stops anywhere along them (most out of range), and their measures."""
    length = game.allowance(f)
    minimum = R.minimum_straight(f, length)
    target = R.closest_bombers(game.state.options, f, game.flying_bombers())[0]
    bonus = A._checked_rows(game, f, A._bonus_attacks(game, f, target, length, minimum))
    assert bonus is not None
    grid, _, _ = A._grid_rows(game, f, target, length, minimum)
    paths = rng.integers(len(P.path_grid(length, minimum, P.FIGHTER_TURNS)), size=20)
    stops = rng.integers(int(length * 2) + 1, size=20) / 2
    heading, cos, sin = P.fan_legs(f.heading, length, minimum)
    _, straights, turns = A._grid_paths(length, minimum)
    anywhere = P.Rows(
        np.arange(20), straights[paths], turns[paths].tolist(), stops, heading[paths], cos[paths], sin[paths],
        (target,) * 20, paths,
    )  # fmt: skip
    rows = P.joined(P.joined(P.rows_of(f, bonus), grid), anywhere)
    fan = P.path_ends(f, length, minimum, P.FIGHTER_TURNS)
    return rows, P.measure(game, f, length, rows, fan), fan, length


@pytest.mark.rule("b17.23")
def test_every_measure_of_the_one_pass_is_the_plain_measure_position_by_position() -> None:
    box = scene(BOX, {"F1": (80.0, 30.0, 180.0)})
    box.aircraft("B3").damaged.append(1)  # a shorter move: other next ends
    edges = scene(EDGES, {"F1": (80.0, 30.0, 180.0)})
    rng = np.random.default_rng(33)
    seen = {"rows": 0, "leaves": 0, "plus_one": 0, "out_of_range": 0, "met": 0, "off": 0, "reach": 0}
    for game, where in ((box, fighters(rng, 24)), (edges, by_the_edges(rng, 12))):
        check_positions(game, where, seen, rng)
    assert all(count > 0 for count in seen.values()), seen  # every verdict both ways in the sample
    assert seen["rows"] > 600


def check_positions(
    game: B17Game, where: list[tuple[float, float, float]], seen: dict[str, int], rng: np.random.Generator
) -> None:
    """Every measure of ``onepass.measure`` for the fighter F1 at each of ``where``, against the plain one."""
    f = game.aircraft("F1")
    options = game.state.options
    tolerance = float(options["head_on_tolerance"])
    for f.x, f.y, f.heading in where:
        rows, m, fan, length = one_pass(game, f, rng)
        for k in range(len(rows)):
            path = G.Path(f.x, f.y, f.heading, float(rows.straight[k]), snap_angle(rows.turn[k]), length)
            stop = float(rows.stop[k])
            x, y, h = path.snapped(stop)
            assert (float(m.x[k]), float(m.y[k]), float(m.h[k])) == (x, y, h)
            assert bool(m.stays[k]) == (path.leaves_table_at() is None)
            bomber = rows.bombers[k]
            truth = R.attack_range(options, f, x, y, h, bomber)
            assert abs(float(m.reach[k]) - truth) <= 1e-9
            assert (float(m.reach[k]) <= ATTACK_RANGE + 0.01) == (truth <= ATTACK_RANGE + 0.01)
            assert bool(m.plain[k]) == (R.head_on_or_behind(bomber, x, y, h, tolerance) is None)
            assert int(m.at_stop[k]) == gunners(game, f, x, y, h)
            ex, ey, eh = path.snapped(length)
            assert int(m.at_end[k]) == gunners(game, f, ex, ey, eh)
            assert bool(m.off[k]) == forced_off(ex, ey, eh)
            assert int(m.next_reach[k]) == next_reach(game, f, ex, ey)
            seen["rows"] += 1
            seen["leaves"] += not m.stays[k]
            seen["plus_one"] += not m.plain[k]
            seen["out_of_range"] += truth > ATTACK_RANGE + 0.01
            seen["met"] += m.at_stop[k] > 0
        for i, (straight, turn) in enumerate(zip(fan["straight"], fan["turn"], strict=True)):  # type: ignore[call-overload]
            path = G.Path(f.x, f.y, f.heading, straight, snap_angle(turn), length)
            ex, ey, eh = path.snapped(length)
            assert (fan["x"][i], fan["y"][i], fan["h"][i]) == (ex, ey, eh)  # type: ignore[index]
            assert bool(fan["leaves"][i]) == (path.leaves_table_at() is not None)  # type: ignore[index]
            assert int(m.fan_met[i]) == gunners(game, f, ex, ey, eh)
            assert bool(m.fan_off[i]) == forced_off(ex, ey, eh)
            assert int(m.fan_reach[i]) == next_reach(game, f, ex, ey)
            seen["off"] += bool(m.fan_off[i])
            seen["reach"] += int(m.fan_reach[i]) > 0


def plain_decision(game: B17Game, f: Aircraft, k: int) -> list[Fly]:
    """The doctrine's best ``k`` moves the plain way: every attack on the closest bomber scored through
    ``FlySpace.resolve`` (a plain attack counting ``ends.PLAIN`` more), then interceptions measured end by end."""
    length = game.allowance(f)
    minimum = R.minimum_straight(f, length)
    target = R.closest_bombers(game.state.options, f, game.flying_bombers())[0]
    space = FlySpace(game, f.label)
    bonus = A._bonus_attacks(game, f, target, length, minimum)
    generic = A._generic_attacks(game, f, target, length, minimum)
    scored = [
        (score, plan)
        for plans, plus_one in ((bonus, True), (generic, False))
        for plan, score in zip(plans, A._score_by_resolve(game, f, plans, space), strict=True)
        if score is not None and not (plus_one and score[1])
    ]
    scored.sort(key=lambda item: (item[0][0], item[0][2] + E.PLAIN * item[0][1], item[0]))
    good = [plan for score, plan in scored if not score[0]][:k]
    bx, by = math.cos(math.radians(target.heading)), math.sin(math.radians(target.heading))
    step = R.allowance(target)
    nx, ny = target.x + bx * step, target.y + by * step
    aims = [
        ((nx + 10.0 * bx, ny + 10.0 * by), target.heading + 180.0),
        ((nx - 10.0 * bx, ny - 10.0 * by), target.heading),
    ]
    aims = [((min(max(x, 3.0), 105.0), min(max(y, 3.0), 57.0)), want) for (x, y), want in aims]
    ends = []
    for straight, turn in P.path_grid(length, minimum, P.FIGHTER_TURNS):
        path = G.Path(f.x, f.y, f.heading, straight, snap_angle(turn), length)
        x, y, h = path.snapped(length)
        leaves = path.leaves_table_at() is not None or forced_off(x, y, h)
        met = gunners(game, f, x, y, h) + next_reach(game, f, x, y)
        miss = min(math.dist((x, y), aim) + 0.05 * abs(math.remainder(h - want, 360.0)) for aim, want in aims)
        ends.append(((leaves, miss + 6.0 * (0 if leaves else met)), Fly(f.label, straight, turn)))
    ends.sort(key=lambda item: item[0])
    return good + [plan for _, plan in ends][: max(k - len(good), 0)]


@pytest.mark.rule("b17.23")
def test_a_fighter_decides_in_one_pass_as_the_plain_doctrine_plan_by_plan() -> None:
    game = scene(BOX, {"F1": (80.0, 30.0, 180.0)})
    f = game.aircraft("F1")
    attacks = interceptions = 0
    for f.x, f.y, f.heading in [*fighters(np.random.default_rng(7), 14), (75.0, 50.0, 90.0), (8.0, 8.0, -90.0)]:
        for k in (1, 5):
            chosen = B.fighter_plans(game, f, k)
            assert chosen == plain_decision(game, f, k)
        attacks += chosen[0].target is not None
        interceptions += chosen[-1].target is None
    assert attacks > 5 and interceptions > 2


def test_the_interceptions_spots_are_drawn_as_the_generator_draws_them() -> None:
    """``bots._varied`` reads three uniform numbers from the bot's stream: the same numbers, and the stream left
    where ``Generator.uniform`` leaves it."""
    for seed in range(200):
        ours, numpy_s = np.random.default_rng(seed), np.random.default_rng(seed)
        assert B._varied(ours) == tuple(
            float(v) for v in numpy_s.uniform((6.0, -B.VARY_ASIDE, 0.0), (14.0, B.VARY_ASIDE, B.VARY_LEAN))
        )
        assert ours.random() == numpy_s.random()


@pytest.mark.rule("b17.27")
def test_a_bombers_move_in_one_pass_is_the_least_of_its_moves_scored_one_by_one() -> None:
    """``bots._bomber_best`` (the box held or the target flown for, every move's inches at once) picks the
    least of ``bomber_scored``'s rows: bombers holding the box, leading it (the aim varied from the stream),
    lining up their runs by the target, over it, and by the table's edges."""
    rng = np.random.default_rng(27)
    kinds = {"hold": 0, "lead": 0, "run": 0}
    for _ in range(60):
        lx, ly = float(rng.uniform(5, 104)), float(rng.uniform(2, 58))
        heading = snap_angle(float(rng.uniform(-60, 60)))
        box = {"B1": (lx, ly, heading), "B2": (lx - 5, ly + 4, heading), "B3": (lx - 5, ly - 4, heading)}
        game = scene(box, phase="bombers")
        for label in box:
            a = game.aircraft(label)
            seed = int(rng.integers(1000))
            best = B._bomber_best(game, a, np.random.default_rng(seed))
            rows, _ = B.bomber_scored(game, a, np.random.default_rng(seed))
            assert best == min(rows)
            kinds["lead" if label == "B1" else "hold"] += best[1] in (2, 3)
            kinds["run"] += best[1] in (0, 1)
    assert all(count > 0 for count in kinds.values()), kinds
