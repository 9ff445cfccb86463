"""The B-17 short cuts of issue 33 (item 3) decide as the long way does.

- ``rules.guns_in_range`` measures each gun's distance in plain floats (``reckoning.footprint_distance``) and leaves
  to shapely (``rules.guns_in_range_measured``, the long way) a gun within ``reckoning.EDGE`` of the 4" limit or of
  a half of the 0.01" it keeps; ``FlySpace.resolve`` measures the attack range quickly, shapely deciding within
  ``EDGE`` of the limit.
- ``geometry.surely_on_table`` lets ``onepass.path_ends``, ``onepass.measure`` and ``attacks._generic_stops`` skip
  the table's edges for a move that cannot reach them.
- ``bots._over_target`` tests the fuselage's four corners at once; ``bots._bomber_best`` of a bomber that can bomb
  now weighs those moves alone.

Each is compared with the long way a hair (1e-10 to 1e-2 inch) either side of every limit and in whole raids.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from grognard import rulesets
from grognard.analysis.montecarlo import play_one
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, snap_angle
from grognard.rulesets.b17 import attacks as A
from grognard.rulesets.b17 import bots as B
from grognard.rulesets.b17 import ends as E
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import onepass as P
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17 import spaces as S
from grognard.rulesets.b17.actions import Fly
from grognard.rulesets.b17.data import ATTACK_RANGE
from test_b17_rules import BOMBER, NOSE_4_BEHIND_X, scene

FIGHTER = G.Dims(1.24, 1.37, False)
B17 = G.Dims(3.13, 4.37, True)
HAIRS = (1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2)
LIMIT = ATTACK_RANGE + TOLERANCE  # the last distance in range (4.01")


def quick_guns(arcs: bool, bomber: tuple[float, float, float], fighter: tuple[float, float, float]) -> Any:
    """``rules.guns_in_range``'s measure of the pair standing so, nothing kept (its memo unwrapped)."""
    return R._guns_in_range.__wrapped__(arcs, FIGHTER, B17, *bomber, *fighter)


def facing_away(gun: tuple[float, float], bearing: float, distance: float) -> tuple[float, float, float]:
    """A fighter flying along ``bearing`` from ``gun`` whose tail (its nearest point to the gun) is ``distance``
    inches from it."""
    rad = math.radians(bearing)
    reach = distance + FIGHTER.length / 2
    return gun[0] + reach * math.cos(rad), gun[1] + reach * math.sin(rad), bearing


@pytest.mark.parametrize("arcs", [False, True])
def test_the_quick_gunners_in_range_are_the_long_ways_a_hair_either_side_of_4_inches(arcs: bool) -> None:
    bomber = (50.0, 30.0, 17.0)
    guns = G.gun_positions(B17, *bomber)
    seen = {True: 0, False: 0}
    for name, point in guns.items():
        bearing = bomber[2] + {"nose": 0.0, "left waist": 90.0, "right waist": -90.0, "tail": 180.0}[name]
        for hair in HAIRS:
            for sign in (-1.0, 1.0):
                fighter = facing_away(point, bearing, LIMIT + sign * hair)
                quick = quick_guns(arcs, bomber, fighter)
                assert quick == R.guns_in_range_measured(arcs, FIGHTER, B17, *bomber, *fighter)
                if hair >= 1e-9:  # beyond the float's noise the gun is in range just inside the limit only
                    assert (name in dict(quick)) is (sign < 0)
                    seen[sign < 0] += 1
    assert seen[True] > 20 and seen[False] > 20


def test_the_quick_gunners_keep_the_long_ways_hundredths_a_hair_either_side_of_a_half() -> None:
    bomber = (40.0, 20.0, -63.0)
    point = G.gun_positions(B17, *bomber)["tail"]
    kept = set()
    for half in (3.125, 2.005, 0.635):
        for hair in HAIRS:
            for sign in (-1.0, 1.0):
                fighter = facing_away(point, bomber[2] + 180.0, half + sign * hair)
                quick = dict(quick_guns(False, bomber, fighter))
                assert quick == dict(R.guns_in_range_measured(False, FIGHTER, B17, *bomber, *fighter))
                kept.add(quick["tail"])
    assert {3.12, 3.13, 2.0, 2.01, 0.63, 0.64} <= kept  # each half rounded both ways


@pytest.mark.parametrize("arcs", [False, True])
def test_the_quick_gunners_in_range_are_the_long_ways_round_a_bomber(arcs: bool) -> None:
    rng = np.random.default_rng(41)
    bomber = (60.0, 25.0, -120.0)
    counts = []
    for _ in range(1500):
        fighter = (
            round(float(rng.uniform(52.0, 68.0)), 2),
            round(float(rng.uniform(17.0, 33.0)), 2),
            round(float(rng.uniform(-180.0, 180.0)), 2),
        )
        quick = quick_guns(arcs, bomber, fighter)
        assert quick == R.guns_in_range_measured(arcs, FIGHTER, B17, *bomber, *fighter)
        counts.append(len(quick))
    assert 0 in counts and max(counts) >= (2 if arcs else 4)


def test_every_gunners_measure_of_whole_raids_is_the_long_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    quick = R._guns_in_range.__wrapped__
    asked: list[int] = []

    def both(*where: Any) -> tuple[tuple[str, float], ...]:
        found = quick(*where)
        assert found == R.guns_in_range_measured(*where)
        asked.append(len(found))
        return found

    monkeypatch.setattr(R, "_guns_in_range", both)
    ruleset = rulesets.get("b17")
    options = ruleset.resolve({})
    for index in range(3):
        play_one(ruleset, options, {side: "doctrine" for side in ruleset.sides}, 11, index)
    assert len(asked) > 100 and 0 in asked and max(asked) >= 2


def long_way_check(monkeypatch: pytest.MonkeyPatch, space: S.FlySpace, action: Fly) -> Any:
    """What ``space.resolve`` answers with shapely measuring every attack range (the rules' own measure)."""
    with monkeypatch.context() as m:
        m.setattr(
            S.K, "attack_range", lambda options, a, x, y, h, target, limit: R.attack_range(options, a, x, y, h, target)
        )
        return answer(S.FlySpace(space.game, space.label, space.closest), action)


def answer(space: S.FlySpace, action: Fly) -> Any:
    """The resolved move (its path's ends, the stop and the target), or the refusal's rule and message."""
    try:
        path, stop, target = space.resolve(action)
    except IllegalAction as error:
        return error.rule, str(error)
    return path.snapped(path.length), stop, target


def test_a_moves_attack_range_is_the_long_ways_a_hair_either_side_of_4_inches(monkeypatch: pytest.MonkeyPatch) -> None:
    verdicts = {True: 0, False: 0}
    for hair in HAIRS:
        for sign in (-1.0, 1.0):
            # the nose 4.01" and a hair from B1's tail: the bomber moved, the fighter's stop as stored
            bx, by, bh = BOMBER["B1"]
            game = scene({"B1": (bx + TOLERANCE + sign * hair, by, bh)}, {"F1": (NOSE_4_BEHIND_X - 6.0, 30.0, 0.0)})
            action = Fly("F1", 14.0, 0.0, "B1", 6.0)
            space = S.FlySpace(game, "F1")
            quick = answer(space, action)
            assert quick == long_way_check(monkeypatch, space, action)
            if hair >= 1e-9:
                assert (quick[0] != "b17.34") is (sign < 0)
                verdicts[sign < 0] += 1
    assert verdicts[True] and verdicts[False]


def test_every_attacks_check_is_the_long_ways_on_many_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    bombers = {"B1": (50.0, 30.0, 0.0), "B2": (44.0, 38.0, 12.5), "B3": (97.0, 49.0, 30.0)}
    game = scene(bombers, {"F1": (64.0, 36.5, -135.0)})
    rng = np.random.default_rng(7)
    space = S.FlySpace(game, "F1")
    refused = 0
    for _ in range(300):
        action = Fly(
            "F1",
            float(rng.choice([6.0, float(rng.uniform(6.0, 14.0)), 14.0])),
            float(rng.uniform(-180.0, 180.0)),
            str(rng.choice(["B1", "B2", "B3"])),
            round(float(rng.uniform(0.0, 14.0)), 2),
        )
        quick = answer(space, action)
        assert quick == long_way_check(monkeypatch, space, action)
        refused += quick[0] == "b17.34"
    assert 10 < refused < 290


def starts_by_the_edges(reach: float) -> list[tuple[float, float]]:
    """Starts a hair either side of ``surely_on_table``'s limits for ``reach``: each edge's, the others far."""
    out = []
    for hair in HAIRS:
        for sign in (-1.0, 1.0):
            d = reach + sign * hair
            out += [(d, 30.0), (108.0 - d, 30.0), (54.0, d), (54.0, 60.0 - d)]
    return out


@pytest.mark.parametrize("length", [14.0, 20.0, 8.0])
def test_the_ends_surely_on_the_table_are_the_paths_own_a_hair_either_side_of_the_limit(length: float) -> None:
    """``onepass.path_ends``' leaves (none, without measuring, when every point within the move is surely on
    the table) are ``Path.leaves_table_at``'s, path by path; as are the next straight's (``ends.forced_off``)."""
    game = scene(BOMBER, {"F1": (50.0, 30.0, 0.0)})
    f = game.aircraft("F1")
    minimum = R.minimum_straight(f, length)
    sure = {True: 0, False: 0}
    for f.x, f.y in starts_by_the_edges(length) + starts_by_the_edges(length + 6.0):
        for f.heading in (0.0, 90.0, 180.0, -90.0, 45.0, -135.0):
            ends = P.path_ends(f, length, minimum, P.FIGHTER_TURNS)
            paths = [
                G.Path(f.x, f.y, f.heading, s, snap_angle(t), length)
                for s, t in P.path_grid(length, minimum, P.FIGHTER_TURNS)
            ]
            assert ends["leaves"].tolist() == [p.leaves_table_at() is not None for p in paths]
            off = P._forced_off(f, length, ends["xa"], ends["ya"], ends["ha"])
            assert off.tolist() == E.forced_off(ends["x"], ends["y"], list(ends["h"]))
            sure[G.surely_on_table(f.x, f.y, length)] += 1
    assert sure[True] and sure[False]


def test_the_grids_stops_surely_on_the_table_are_the_measured_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """``attacks._generic_stops`` finds the same attacks when it skips looking for stops past the table's edge
    (every stop surely on it) as when it looks (the long way), a hair either side of the limit."""
    length = 14.0
    found = 0
    for x, y in starts_by_the_edges(length):
        for heading in (0.0, 90.0, 180.0, -90.0):
            bomber = (x + 6.0 * math.cos(math.radians(heading)), y + 6.0 * math.sin(math.radians(heading)), heading)
            game = scene({"B1": bomber}, {"F1": (x, y, heading)})
            f, target = game.aircraft("F1"), game.aircraft("B1")
            quick = A._generic_stops(game, f, target, length, 6.0)
            with monkeypatch.context() as m:
                m.setattr(A.G, "surely_on_table", lambda x, y, reach: False)
                truth = A._generic_stops(game, f, target, length, 6.0)
            assert [v.tolist() for v in quick] == [v.tolist() for v in truth]
            found += len(quick[0])
    assert found > 100


def over_target_corner_by_corner(dims: G.Dims, x: Any, y: Any, c: Any, s: Any) -> np.ndarray:
    """``bots._over_target`` the long way: each corner of the fuselage tested in turn (its sums, its limits)."""
    x0, y0, x1, y1 = G.TARGET
    half, side = dims.length / 2, dims.body_width / 2
    inside = np.ones(np.broadcast(x, y, c, s).shape, dtype=bool)
    for f_, l_ in ((half, side), (half, -side), (-half, side), (-half, -side)):
        px = x + f_ * c - l_ * s
        py = y + f_ * s + l_ * c
        inside &= (px >= x0 - TOLERANCE) & (px <= x1 + TOLERANCE) & (py >= y0 - TOLERANCE) & (py <= y1 + TOLERANCE)
    return inside


def test_the_fuselages_over_the_target_all_at_once_are_the_corner_by_corner_ones() -> None:
    """``bots._over_target`` (the four corners along one axis) finds the fuselages over the target that testing
    each corner in turn finds, for bombers a hair either side of each of the target's edges (their corners on
    it), heading along the table and across it, in the shapes its callers give (a row of ends; starts by moves)."""
    x0, y0, x1, y1 = G.TARGET
    half, side = B17.length / 2, B17.body_width / 2
    xs, ys, hs = [], [], []
    for hair in (0.0, *HAIRS):
        for sign in (-1.0, 1.0):
            d = TOLERANCE + sign * hair
            for h, along, across in ((0.0, half, side), (90.0, side, half), (180.0, half, side), (-90.0, side, half)):
                for x, y in (
                    (x0 - d + along, 30.0),
                    (x1 + d - along, 30.0),
                    (104.0, y0 - d + across),
                    (104.0, y1 + d - across),
                ):
                    xs.append(x)
                    ys.append(y)
                    hs.append(h)
    x, y, rad = np.array(xs), np.array(ys), np.radians(hs)
    quick = B._over_target(B17, x, y, np.cos(rad), np.sin(rad))
    assert quick.tolist() == over_target_corner_by_corner(B17, x, y, np.cos(rad), np.sin(rad)).tolist()
    assert quick.any() and not quick.all()
    grid = (
        x[:, None] + np.linspace(-2.0, 2.0, 9)[None, :],
        y[:, None],
        np.radians(np.array(hs)[:, None] + np.arange(-40.0, 41.0, 10.0)),
    )
    quick2 = B._over_target(B17, grid[0], grid[1], np.cos(grid[2]), np.sin(grid[2]))
    assert (
        quick2.tolist()
        == over_target_corner_by_corner(B17, grid[0], grid[1], np.cos(grid[2]), np.sin(grid[2])).tolist()
    )
    assert quick2.any() and not quick2.all()


def test_a_bomber_that_can_bomb_now_takes_the_least_of_all_its_moves_rows() -> None:
    """``bots._bomber_best`` of a bomber by the target (some of its moves end over it, some not, some of the
    table's edge near) is the least row of all its moves scored one by one, look-ahead and all."""
    rng = np.random.default_rng(31)
    bombing = 0
    for _ in range(80):
        x, y = float(rng.uniform(84.0, 107.0)), float(rng.uniform(18.0, 42.0))
        heading = snap_angle(float(rng.uniform(-120.0, 120.0)))
        game = scene({"B1": (x, y, heading), "B2": (x - 5.0, y + 4.0, heading)}, phase="bombers")
        for label in ("B1", "B2"):
            a = game.aircraft(label)
            seed = int(rng.integers(1000))
            best = B._bomber_best(game, a, np.random.default_rng(seed))
            rows, _ = B.bomber_scored(game, a, np.random.default_rng(seed))
            assert best == min(rows)
            bombing += best[:2] == (False, 0)
    assert bombing > 10
