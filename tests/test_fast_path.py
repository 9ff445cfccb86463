"""The Omaha engine's shortcuts give exactly what the plain computations give.

Each shortcut of the fast path (remembered decisions, the exact allowance
limit inside ``reach``, the doctrine bots' narrowed searches) is checked here
against the plain computation it replaces, written out in full: the golden
records prove the same on three whole games, these on many states.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

from grognard.core.dice import SeededDice, spawn_seeds
from grognard.core.errors import IllegalAction
from grognard.core.geometry import snap
from grognard.core.play import play_out
from grognard.rulesets.omaha import RULESET, OmahaGame
from grognard.rulesets.omaha import bots as B
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.data import BEACH_MOVE, OBSTACLE_SECTION_WIDTH
from grognard.rulesets.omaha.state import OmahaState, Squad

# ---------------------------------------------------------------------------------- the plain computations


def plain_reach(state: OmahaState, squad: Squad, tx: float, ty: float) -> tuple[float, float]:
    """``rules.reach`` as first written: 40 halvings on ``move_cost`` for the allowance."""
    x0, y0 = squad.x, squad.y
    dx, dy = tx - x0, ty - y0
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return x0, y0
    t = 1.0
    left, bottom, right, top = R.table_bounds(state)
    for lo, hi, start, delta in ((left, right, x0, dx), (bottom, top, y0, dy)):
        if delta > 0:
            t = min(t, (hi - start) / delta)
        elif delta < 0:
            t = min(t, (lo - start) / delta)
    if R.below_wall(y0) and dy > 0 and y0 + t * dy > R.WALL_Y:
        t = min(t, (R.WALL_Y - y0) / dy)
    if R.move_cost(x0, y0, x0 + t * dx, y0 + t * dy) > BEACH_MOVE:
        lo_t, hi_t = 0.0, t
        for _ in range(40):
            mid = (lo_t + hi_t) / 2
            if R.move_cost(x0, y0, x0 + mid * dx, y0 + mid * dy) <= BEACH_MOVE:
                lo_t = mid
            else:
                hi_t = mid
        t = lo_t
    x, y = snap(x0 + t * dx), snap(y0 + t * dy)
    if R._legal(state, squad, x, y):
        return x, y
    lo_t, hi_t = 0.0, t
    for _ in range(30):
        mid = (lo_t + hi_t) / 2
        if R._legal(state, squad, snap(x0 + mid * dx), snap(y0 + mid * dy)):
            lo_t = mid
        else:
            hi_t = mid
    x, y = snap(x0 + lo_t * dx), snap(y0 + lo_t * dy)
    return (x, y) if R._legal(state, squad, x, y) else (x0, y0)


def plain_german_target(game: OmahaGame, *, artillery: bool) -> str | None:
    squads = [a.squad for a in game.state.americans if a.squad is not None]
    if artillery:
        squads = [s for s in squads if not R.past_wall(s.y)]
    return max(squads, key=B.threat).label if squads else None


def plain_cleared_section_near(game: OmahaGame, squad: Squad) -> float | None:
    best: tuple[float, float] | None = None
    for section, count in enumerate(game.state.obstacles):
        if count != 0:
            continue
        middle = section * OBSTACLE_SECTION_WIDTH + OBSTACLE_SECTION_WIDTH / 2
        gap = abs(middle - squad.x)
        if gap <= B.FOLLOW_UP_REACH and (best is None or gap < best[0]):
            best = (gap, middle)
    if best is None or R.obstacle_section_at(game.state, squad.x) == R.obstacle_section_at(game.state, best[1]):
        return None
    return best[1]


def plain_bunker_in_contact(game: OmahaGame, squad: Squad) -> Any:
    bunker = game.bunker_in_front(squad)
    candidates = [bunker] if bunker is not None else []
    candidates += [b for b in game.state.bunkers.values() if b is not bunker]
    for b in candidates:
        if b.active and R.in_contact(squad, b):
            return b
    return None


def random_beach(rng: random.Random) -> OmahaState:
    germans = rng.choice([1, 2, 6])
    return OmahaState(
        options={"water": rng.choice([6.0, 10.0]), "ground": 4.0},
        germans=germans,
        width=24.0 * germans,
        americans=[],
        obstacles=[rng.choice([None, 0, 0, 1, 2]) for _ in range(4 * germans)],
    )


def random_squad(rng: random.Random, width: float) -> Squad:
    x = snap(rng.uniform(0, width))
    y = rng.choice([float(-rng.randint(1, 6)), snap(rng.uniform(-6, 32)), 0.0, 24.0, 28.0, snap(rng.uniform(-1, 1))])
    return Squad("A1", 12, x, y)


# ---------------------------------------------------------------------------------- rules


def test_the_allowance_limit_is_where_move_cost_reaches_the_allowance() -> None:
    rng = random.Random(11)
    for _ in range(20_000):
        x0, y0 = snap(rng.uniform(0, 144)), rng.choice([snap(rng.uniform(-24, 40)), 0.0, -float(rng.randint(1, 6))])
        angle = rng.uniform(0, 2 * math.pi)
        dx, dy = 50 * math.cos(angle), 50 * math.sin(angle)
        dx, dy = rng.choice([(dx, dy), (0.0, dy), (dx, 0.0)])
        limit = R.allowance_limit(y0, dy, math.hypot(dx, dy))
        cost = R.move_cost(x0, y0, x0 + limit * dx, y0 + limit * dy)
        assert cost == pytest.approx(BEACH_MOVE, abs=1e-9)
        for side in (1 - 2 * R.LIMIT_MARGIN, 1 + 2 * R.LIMIT_MARGIN):
            t = limit * side
            fits = R.move_cost(x0, y0, x0 + t * dx, y0 + t * dy) <= BEACH_MOVE
            assert fits == (side < 1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reach_is_the_plain_bisection_to_the_last_bit(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20_000):
        state = random_beach(rng)
        squad = random_squad(rng, state.width)
        kind = rng.random()
        if kind < 0.3:  # far away in any direction, as MoveSpace.sample asks
            angle = rng.uniform(0, 2 * math.pi)
            tx, ty = squad.x + 1000 * math.cos(angle), squad.y + 1000 * math.sin(angle)
        elif kind < 0.6:  # the wall, the band's edge, anywhere on the table
            tx, ty = snap(rng.uniform(-5, state.width + 5)), rng.choice([24.0, 28.0, snap(rng.uniform(-8, 34))])
        else:  # sideways and short moves, as the menus ask
            tx = squad.x + rng.choice([-6.0, 6.0, 0.0, 3.0, snap(rng.uniform(-9, 9))])
            ty = squad.y + rng.choice([0.0, 6.0, -6.0, snap(rng.uniform(-9, 9))])
        assert R.reach(state, squad, tx, ty) == plain_reach(state, squad, tx, ty)


def test_reach_next_to_a_rounding_tie_falls_back_to_the_bisection() -> None:
    """A move whose allowance ends at x = 3.605 (half a hundredth): the bisection decides how it rounds."""
    state = OmahaState(options={"water": 6.0, "ground": 4.0}, germans=1, width=24.0, americans=[], obstacles=[0] * 4)
    squad = Squad("A1", 12, 0.0, 10.0)
    side = math.sqrt(36 - 3.605**2)
    for scale in (2.0, 3.0, 7.5):
        tx, ty = 3.605 * scale, 10.0 + side * scale
        assert R._snapped_clear(0.0, 10.0, tx, ty - 10.0, 1 / scale, 1.0) is None
        assert R.reach(state, squad, tx, ty) == plain_reach(state, squad, tx, ty)


def test_a_move_below_the_wall_remembered_is_the_plain_one_whatever_the_obstacles() -> None:
    """``reach`` remembers points for squads below the wall by table and positions alone: the same move
    asked on beaches with other obstacles (and other squads' labels) gets the plain answer each time."""
    rng = random.Random(9)
    R.REACHED_BELOW_WALL.clear()
    asked = []
    for _ in range(300):
        state = random_beach(rng)
        x, y = snap(rng.uniform(0, state.width)), rng.choice([float(-rng.randint(1, 6)), snap(rng.uniform(-6, 23.9))])
        tx, ty = rng.choice([(x, 24.0), (snap(rng.uniform(0, state.width)), 24.0), (x + 6.0, y), (x, 40.0)])
        asked.append((state, x, y, tx, ty))
    hits = 0
    for state, x, y, tx, ty in asked * 3:
        state.obstacles = [rng.choice([None, 0, 1, 2]) for _ in state.obstacles]
        hits += (R.table_bounds(state), x, y, tx, ty) in R.REACHED_BELOW_WALL
        squad = Squad(rng.choice(["A1", "A7"]), 12, x, y)
        assert R.reach(state, squad, tx, ty) == plain_reach(state, squad, tx, ty)
    assert hits >= 600  # the second and third asking of each move were remembered


def _verdict(check: Any, *args: Any) -> str | None:
    try:
        check(*args)
    except IllegalAction as exc:
        return f"{exc.rule}: {exc}"
    return None


def test_a_move_below_the_wall_remembered_legal_is_the_plain_verdict_whatever_the_obstacles() -> None:
    """``check_move`` remembers the legal moves of squads below the wall by table and ends alone (issue 33: the
    fast path checks every bot's move): asked again on beaches with other obstacles, each gets the plain verdict."""
    rng = random.Random(11)
    R.LEGAL_BELOW_WALL.clear()
    asked = []
    for _ in range(300):
        state = random_beach(rng)
        x, y = (
            snap(rng.uniform(0, state.width)),
            float(-rng.randint(0, 6)) if rng.random() < 0.5 else snap(rng.uniform(-6, 23.9)),
        )
        tx, ty = rng.choice([(x, 24.0), (x, snap(y + rng.uniform(0, 8))), (snap(x + rng.uniform(-6, 6)), y), (x, 27.0)])
        asked.append((state, x, y, tx, ty))
    remembered = 0
    for state, x, y, tx, ty in asked * 3:
        state.obstacles = [rng.choice([None, 0, 1, 2]) for _ in state.obstacles]
        remembered += (R.table_bounds(state), x, y, tx, ty) in R.LEGAL_BELOW_WALL
        squad = Squad(rng.choice(["A1", "A7"]), 12, x, y)
        plain = _verdict(R._check_move, state, squad, tx, ty, R.table_bounds(state))
        assert _verdict(R.check_move, state, squad, tx, ty) == plain
    assert remembered >= 200  # the legal ones, asked a second and a third time


def test_section_at_clamps_as_min_of_max() -> None:
    rng = random.Random(4)
    for _ in range(20_000):
        x = rng.choice([rng.uniform(-50, 400), float(rng.randint(-10, 300)), snap(rng.uniform(-1, 300))])
        width, count = rng.choice([6.0, 8.0]), rng.randint(1, 40)
        assert R.section_at(x, width, count) == min(max(math.floor(x / width), 0), count - 1)


# ---------------------------------------------------------------------------------- remembered decisions and bots


def _played_games() -> list[tuple[dict[str, Any], str, str]]:
    return [
        ({"germans": 2}, "doctrine", "doctrine"),
        (
            {"germans": 2, "deep_water": True, "hidden_obstacles": True, "fresh_squads": 1, "out_joins_germans": True},
            "doctrine",
            "doctrine",
        ),
        ({"germans": 1, "period_turns": 12}, "random", "random"),
    ]


def _fresh(game: OmahaGame) -> list[tuple[Any, ...]]:
    """The pending decisions of a clone, which remembers nothing, in comparable form."""
    return _comparable(game.clone())


def _comparable(game: OmahaGame) -> list[tuple[Any, ...]]:
    out = []
    for d in game.pending():
        space = d.space
        shape: Any = [str(a) for a in space.candidates(64)]
        if hasattr(space, "fight"):
            shape = (shape, space.fight.kinds())
        out.append((d.id, d.seat, d.prompt, d.secret_group, type(space).__name__, shape))
    return out


@pytest.mark.parametrize(("options", "americans", "germans"), _played_games())
def test_remembered_decisions_and_bot_shortcuts_are_the_plain_ones(
    options: dict[str, Any], americans: str, germans: str
) -> None:
    for seed in spawn_seeds(5, 3):
        dice_seed, bot_seed = seed.spawn(2)
        game = RULESET.new_game(RULESET.resolve(options), SeededDice(dice_seed))
        bots = {
            "american": RULESET.bots[americans](np.random.default_rng(bot_seed)),
            "german": RULESET.bots[germans](np.random.default_rng(bot_seed.spawn(1)[0])),
        }

        def check(*_: Any, game: OmahaGame = game) -> None:
            if game.result is not None:
                return
            assert _comparable(game) == _fresh(game)
            for artillery in (False, True):
                assert B.german_target(game, artillery=artillery) == plain_german_target(game, artillery=artillery)
            for player in game.state.americans:
                if player.squad is not None:
                    squad = player.squad
                    assert B._cleared_section_near(game, squad) == plain_cleared_section_near(game, squad)
                    assert game.bunker_in_contact(squad) is plain_bunker_in_contact(game, squad)

        def player_for(seat: str, game: OmahaGame = game, bots: dict[str, Any] = bots) -> Any:
            return bots[game.side_of(seat)]

        check()
        play_out(game, player_for, checked=False, on_step=check)


def test_changed_state_is_seen_by_the_next_pending() -> None:
    game = RULESET.new_game(RULESET.resolve({"germans": 1}), SeededDice(3))
    bot = RULESET.bots["doctrine"](np.random.default_rng(3))
    while game.state.phase != "americans":
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    before = game.pending()
    squad = game.state.americans[0].squad
    assert squad is not None
    squad.figures = 5
    game.changed()
    after = game.pending()
    assert after[0].prompt.startswith("A1 (5 figures)") and before[0].prompt != after[0].prompt
    assert _comparable(game) == _fresh(game)


def test_asking_for_decisions_in_the_middle_of_an_action_changes_nothing() -> None:
    """A listener may look at the pending decisions while an action is carried out (a live display)."""

    def play(look: bool) -> list[Any]:
        game = RULESET.new_game(RULESET.resolve({"germans": 2}), SeededDice(8))
        bot = RULESET.bots["doctrine"](np.random.default_rng(8))
        if look:
            game.listener = lambda event: None if game.is_over else game.pending() and None
        seen: list[Any] = []
        while game.result is None:
            decision = game.pending()[0]
            seen.append((decision.id, decision.prompt, [str(a) for a in decision.space.candidates(32)]))
            events = game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
            seen.append([e.to_json() for e in events])
        return seen

    assert play(look=True) == play(look=False)
