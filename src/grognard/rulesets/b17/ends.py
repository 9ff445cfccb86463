"""Where a fighter ends its move: what the doctrine weighs beyond the seed's "intercept the closest bombers".

The seed binds the German fighters to intercept the closest bombers (b17.23, RULINGS B19); where a
fighter ends its move is the player's to choose, and the doctrine chooses it as a careful pilot would
(docs/rules/b17.md, the doctrine's clauses *edge* and *reach*):

- **edge**: never end a move where the next move's forced 6" straight ahead (b17.25) takes the fighter's
  centre off the table (b17.29, RULINGS B18): the table is convex, so the fighter can stay on it next
  move exactly when the end of that straight is on it (turning about there brings it back over its track).
- **reach**: the bombers move after the fighters and fire at every fighter within 4" of a gun at the end
  of their move (b17.43, b17.46): a fighter that ends within a bomber's next reach can be fired on again
  before it moves. A bomber's reach is measured over the ends of the doctrine's grid of its moves (3"
  straight, half-way or the whole move, then each turn of 10 degrees, b17.27) that lie within
  ``REACH_TURN`` of straight ahead (a box flies on; every turn up to 90 degrees counted, the fighters kept
  so far off that they attacked less and won less: docs/rules/b17.md); a fighter is in it when its centre
  lies within 4" and the bomber's and its own half-diagonals of one of those ends. Each bomber in reach
  counts ``GUNS_A_BOMBER`` gunner, weighed with the gunners met for certain at the stop and the end.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.data import ATTACK_RANGE, FIGHTER_STRAIGHT
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.state import Aircraft

GUNS_A_BOMBER = 1  # gunners counted for a bomber in reach: a pair may fire (b17.45), if the bomber flies there
REACH_TURN = 15.0  # degrees: the bombers' next moves weighed, those within this of straight ahead (the box flies on)
PLAIN = 1  # gunners a plain attack (no +1, b17.36) counts as against one directly head-on or from behind


def forced_off(xs: Sequence[float], ys: Sequence[float], hs: Sequence[float]) -> list[bool]:
    """For each end (x, y, heading): whether the next move's 6" straight ahead leaves the table (clause *edge*)."""
    off: list[bool] = forced_off_array(xs, ys, hs).tolist()
    return off


def forced_off_array(
    xs: Sequence[float] | np.ndarray, ys: Sequence[float] | np.ndarray, hs: Sequence[float] | np.ndarray
) -> np.ndarray:
    """:func:`forced_off` as an array."""
    rad = np.radians(np.asarray(hs, dtype=float))
    x = np.asarray(xs, dtype=float) + FIGHTER_STRAIGHT * np.cos(rad)
    y = np.asarray(ys, dtype=float) + FIGHTER_STRAIGHT * np.sin(rad)
    lo, hi_x, hi_y = -TOLERANCE, G.TABLE_LENGTH + TOLERANCE, G.TABLE_WIDTH + TOLERANCE
    off: np.ndarray = (x < lo) | (x > hi_x) | (y < lo) | (y > hi_y)
    return off


@lru_cache(maxsize=32)
def _bomber_ends(length: float, minimum: float) -> np.ndarray:
    """The bomber's next moves' ends weighed, in its frame: rows of (forward, left); the doctrine's grid
    (3" straight, half-way or the whole move, then turns of 10 degrees) within ``REACH_TURN`` of ahead."""
    rows = []
    for straight in sorted({minimum, round((minimum + length) / 2, 2), length}):
        turns = [0.0] if length - straight < 0.02 else [float(t) for t in range(-90, 91, 10)]
        for turn in turns:
            rad = math.radians(turn)
            rest = length - straight
            forward, left = straight + rest * math.cos(rad), rest * math.sin(rad)
            if abs(math.degrees(math.atan2(left, forward))) <= REACH_TURN:
                rows.append((forward, left))
    return np.array(rows)


def in_reach(game: B17Game, fighter: Aircraft, xs: Sequence[float], ys: Sequence[float]) -> list[int]:
    """For each end (x, y) of ``fighter``: the gunners of the bombers whose next move may bring it within 4"
    (clause *reach*): ``GUNS_A_BOMBER`` for each such bomber. Every bomber's ends are measured in one pass."""
    out: list[int] = in_reach_array(game, fighter, xs, ys).tolist()
    return out


def in_reach_array(
    game: B17Game,
    fighter: Aircraft,
    xs: Sequence[float] | np.ndarray,
    ys: Sequence[float] | np.ndarray,
    flying: Sequence[Aircraft] | None = None,
) -> np.ndarray:
    """:func:`in_reach` as an array (``flying``: the flying bombers, when the caller has them)."""
    n = len(xs)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    bombers = tuple(
        (game.dims(b), b.x, b.y, b.heading, length, R.minimum_straight(b, length))
        for b in (game.flying_bombers() if flying is None else flying)
        for length in (R.allowance(b),)
    )
    if not bombers:
        return np.zeros(n, dtype=np.int64)
    ex, ey, starts, limits = _reach_table(game.dims(fighter), bombers)
    x = np.asarray(xs, dtype=float)[:, None]
    y = np.asarray(ys, dtype=float)[:, None]
    d2 = (x - ex[None, :]) ** 2 + (y - ey[None, :]) ** 2
    near = np.minimum.reduceat(d2, starts, axis=1) <= limits  # (ends, bombers): the nearest of each bomber's
    out: np.ndarray = GUNS_A_BOMBER * near.sum(axis=1)
    return out


@lru_cache(maxsize=64)
def _reach_table(
    fdims: G.Dims, bombers: tuple[tuple[G.Dims, float, float, float, float, float], ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For bombers standing so (dims, x, y, heading, move, straight each): the ends of their next moves weighed
    (``_bomber_ends``) on the table, all in a row (x, y), where each bomber's begin, and each bomber's limit
    squared (4" and the two half-diagonals); kept: the bombers stand still while the fighters move."""
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    starts: list[int] = []
    limits: list[float] = []
    begin = 0
    for dims, bx, by, heading, length, minimum in bombers:
        local = _bomber_ends(length, minimum)
        rad = math.radians(heading)
        c, s = math.cos(rad), math.sin(rad)
        starts.append(begin)
        begin += len(local)
        xs.append(bx + local[:, 0] * c - local[:, 1] * s)
        ys.append(by + local[:, 0] * s + local[:, 1] * c)
        limit = ATTACK_RANGE + (math.hypot(dims.length, dims.span) + math.hypot(fdims.length, fdims.span)) / 2
        limits.append(limit * limit)
    return np.concatenate(xs), np.concatenate(ys), np.array(starts), np.array(limits)
