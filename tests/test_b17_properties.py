"""B-17 properties (hypothesis, derandomized: never flaky): any move is flown whole or refused leaving the
state as it was; records replay; the geometry's measures agree with each other."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grognard.core.errors import IllegalAction
from grognard.core.geometry import angle_between, snap_angle
from grognard.core.record import replay
from grognard.rulesets.b17 import RULESET
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17.actions import Fly
from grognard.testing.conformance import random_playout
from test_b17_rules import scene


def quick(n: int) -> Any:
    return settings(
        max_examples=n, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
    )


COORD = st.floats(min_value=0.0, max_value=60.0, allow_nan=False).map(lambda v: round(v, 2))
ANGLE = st.floats(min_value=-200.0, max_value=200.0, allow_nan=False).map(lambda v: round(v, 2))
INCHES = st.floats(min_value=-2.0, max_value=22.0, allow_nan=False).map(lambda v: round(v, 2))


@quick(120)
@given(fx=COORD, fy=COORD, fh=ANGLE, straight=INCHES, turn=ANGLE, at=st.none() | INCHES, bomber=st.booleans())
def test_a_move_is_flown_whole_or_refused_changing_nothing(
    fx: float, fy: float, fh: float, straight: float, turn: float, at: float | None, bomber: bool
) -> None:
    game = scene(
        {"B1": (50.0, 30.0, 0.0)},
        {"F1": (fx + 20.0, fy, snap_angle(fh))},
        dice=(1, 6) * 12,
        phase="bombers" if bomber else "fighters",
    )
    label = "B1" if bomber else "F1"
    a = game.aircraft(label)
    x0, y0, length = a.x, a.y, game.allowance(a)
    action = Fly(label, straight, turn, None if at is None else "B1", at)
    digest = game.digest()
    try:
        game.apply("American" if bomber else "German", action)
    except IllegalAction as exc:
        assert exc.rule is not None and exc.rule.startswith("b17."), exc
        assert game.digest() == digest
        return
    assert a.status in ("flying", "left", "destroyed")
    if a.status == "flying" and at is None:
        path = G.Path(x0, y0, 0.0 if bomber else snap_angle(fh), straight, snap_angle(turn), length)
        ex, ey, _ = path.at(length)
        assert math.dist((a.x, a.y), (ex, ey)) <= 0.015  # the whole allowance, flown (stored to 0.01")


@quick(6)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_raids_replay_to_the_same_digest(seed: int) -> None:
    playout = random_playout(RULESET, {"turn_cap": 12}, seed)
    rebuilt = replay(playout.writer.lines, lambda name: RULESET)
    assert rebuilt.game.digest() == playout.game.digest()


@quick(200)
@given(x=COORD, y=COORD, h=ANGLE, straight=st.floats(0.0, 14.0), turn=ANGLE)
def test_a_path_is_as_long_as_its_legs(x: float, y: float, h: float, straight: float, turn: float) -> None:
    path = G.Path(x, y, snap_angle(h), straight, snap_angle(turn), 14.0)
    tx, ty, th = path.at(straight)
    ex, ey, eh = path.at(14.0)
    assert math.dist((x, y), (tx, ty)) == pytest.approx(straight, abs=1e-9)
    assert math.dist((tx, ty), (ex, ey)) == pytest.approx(14.0 - straight, abs=1e-9)
    assert th == snap_angle(h)
    if straight < 14.0:
        assert angle_between(eh, h + turn) < 0.011


@quick(200)
@given(x=COORD, y=COORD, h=ANGLE)
def test_the_fuselage_lies_inside_the_footprint_and_the_guns_on_it(x: float, y: float, h: float) -> None:
    dims = G.Dims(3.13, 4.37, True)
    shape = G.footprint(dims, x, y, h)
    assert shape.buffer(1e-6).contains(G.fuselage(dims, x, y, h))
    for point in G.gun_positions(dims, x, y, h).values():
        assert G.distance_to(point, shape) < 1e-6
