"""Properties (hypothesis, derandomized: never flaky): records replay, and an illegal action changes nothing."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grognard.core.engine import Decision, Game
from grognard.core.errors import IllegalAction
from grognard.core.geometry import at_least, at_most, snap
from grognard.core.record import replay
from grognard.core.ruleset import Ruleset
from grognard.rulesets.omaha import RULESET as OMAHA
from grognard.testing.conformance import random_playout
from toy_game import MAX_DASH, Dash, DashSpace, parse_action
from toy_game import RULESET as TOY

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SMALL_OMAHA = {"germans": 1, "turn_cap": 8}


def quick(n: int) -> Any:
    return settings(
        max_examples=n, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
    )


def replays_to_the_same_digest(ruleset: Ruleset, options: dict[str, Any], seed: int) -> None:
    playout = random_playout(ruleset, options, seed)
    lines = playout.writer.lines
    rebuilt = replay(lines, lambda name: ruleset)
    assert rebuilt.game.digest() == playout.game.digest()
    assert rebuilt.game.result == playout.game.result
    assert rebuilt.actions == len(playout.steps)
    text = [json.dumps(line) for line in lines]  # as a file holds it
    assert replay(text, lambda name: ruleset).game.digest() == playout.game.digest()


def wrong_seat_changes_nothing(ruleset: Ruleset, options: dict[str, Any], seed: int) -> int:
    """Before every step, the sampled action is tried from every seat that could not play it."""
    tried = 0

    def before(game: Game, decision: Decision, action: Any) -> None:
        nonlocal tried
        digest = game.digest()
        owed = [d.id for d in game.pending()]
        views = {seat: game.view(seat) for seat in game.seats()}
        for seat in game.seats():
            if any(d.seat == seat and d.space.contains(action) for d in game.pending()):
                continue  # that seat may play it too (both seats choose a lane, say)
            try:
                game.apply(seat, action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{action} by {seat} was accepted; {decision.seat} owed it")
            tried += 1
            assert game.digest() == digest, f"{action} by {seat} changed the state"
            assert [d.id for d in game.pending()] == owed
            assert game.take_events() == []
        assert {seat: game.view(seat) for seat in game.seats()} == views

    random_playout(ruleset, options, seed, before=before)
    return tried


TOY_OPTIONS = st.fixed_dictionaries({}, optional={"round_cap": st.integers(1, 12), "hit_on": st.integers(1, 6)})


@quick(60)
@given(seed=SEEDS, options=TOY_OPTIONS)
def test_toy_record_replays_to_the_same_digest(seed: int, options: dict[str, Any]) -> None:
    replays_to_the_same_digest(TOY, options, seed)


@quick(12)
@given(seed=SEEDS)
def test_omaha_record_replays_to_the_same_digest(seed: int) -> None:
    replays_to_the_same_digest(OMAHA, SMALL_OMAHA, seed)


@quick(40)
@given(seed=SEEDS, options=TOY_OPTIONS)
def test_toy_action_from_the_wrong_seat_changes_nothing(seed: int, options: dict[str, Any]) -> None:
    assert wrong_seat_changes_nothing(TOY, options, seed) > 0


@quick(10)
@given(seed=SEEDS)
def test_omaha_action_from_the_wrong_seat_changes_nothing(seed: int) -> None:
    assert wrong_seat_changes_nothing(OMAHA, SMALL_OMAHA, seed) > 0


@quick(300)
@given(inches=st.floats(allow_nan=True, allow_infinity=True, width=64) | st.integers(-20, 20))
def test_dash_space_is_exactly_0_to_8_inches_within_the_tolerance(inches: float) -> None:
    space = DashSpace()
    legal = math.isfinite(inches) and at_least(snap(inches), 0.0) and at_most(snap(inches), MAX_DASH)
    assert space.contains(Dash(inches)) is legal
    if math.isfinite(inches):
        assert parse_action(str(Dash(inches))) == Dash(inches)


@quick(100)
@given(seed=SEEDS)
def test_dash_samples_and_candidates_are_legal(seed: int) -> None:
    space = DashSpace()
    dash = space.sample(np.random.default_rng(seed))
    assert space.contains(dash) and dash.inches == snap(dash.inches)
    assert all(space.contains(c) for c in space.candidates(16))
