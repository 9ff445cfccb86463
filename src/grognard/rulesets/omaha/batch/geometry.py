"""Omaha's rules of movement and distance (``rules.py``) on arrays: one value per game.

Where the answer hangs on the last bit of a float (``np.hypot`` and ``math.hypot`` differ in the last
bit now and then; ``np.round`` and ``round`` differ at rounding ties), these measure those few cases
with the reference's own functions (``rules.reach``, ``rules.move_cost``, ``rules.bunker_distance``):
a position within 1e-9" of a rounding tie, a cost within 1e-9" of the allowance, and the rare move the
allowance or the obstacles cut short by bisection.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.batch.mechanics import UNKNOWN
from grognard.rulesets.omaha.data import (
    BAND_END_Y,
    BEACH_MOVE,
    BUNKER_DEPTH,
    BUNKER_FRONT_Y,
    BUNKER_SECTION_WIDTH,
    BUNKER_WIDTH,
    OBSTACLE_SECTION_WIDTH,
    WALL_Y,
    WATER_COST,
)

KEY_SPAN = 1 << 15  # hundredths of an inch: more than twice any table's width or depth
REACHED: dict[tuple[float, float, float, float], Remembered] = {}
"""The moves ``Geometry._reach_any`` worked out, by the table's bounds; kept from batch to batch (a long
simulate plays chunk after chunk on the same table)."""
REACHED_KEPT = 1 << 18  # slots of a table of moves remembered: some 6 MB
UP: dict[tuple[float, float, float, float], np.ndarray] = {}
"""The y a squad below the wall reaches going straight up toward it (``Geometry._reach_up``), by the table's
bounds: one entry a hundredth of an inch from the table's bottom to the wall, NaN until measured."""
FLOAT_MARGIN = 1e-9  # inches: closer than this to a threshold, the reference functions measure
ONE_BY_ONE = 16
"""Fresh moves clear of the band fewer than this are measured by ``rules.reach`` one by one, not by ``_reach``'s
some 150 numpy passes (each a few microseconds however few the moves: the passes cost some 250 us, a move
``rules.reach`` some 8)."""


class Remembered:
    """Moves remembered (their keys, the points reached, the obstacle sections the way there crosses in the
    band) in a hash table of ``size`` slots, two to each hash value (a pair; ``keys`` -1: empty). A key is
    found in its pair's first slot or its second. A fresh key takes its pair's empty slot, else the first,
    the key there moving to the second and the second's forgotten (measured again when next asked). A
    search of sorted keys cost 80 ns a key; this, some 3. ``first``/``last``: the first and last obstacle
    section crossed (0 and -1: none)."""

    GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: the key times 2**64 over the golden ratio

    def __init__(self, size: int) -> None:
        slots = max(4, 1 << (size - 1).bit_length())  # a power of two
        self.shift = np.uint64(64 - (slots.bit_length() - 2))  # the hash's top bits: a pair of slots
        self.keys = np.full(slots, -1, dtype=np.int64)
        self.xs, self.ys = np.zeros(slots), np.zeros(slots)
        self.first, self.last = np.zeros(slots, dtype=np.int64), np.full(slots, -1, dtype=np.int64)

    def __len__(self) -> int:
        return int((self.keys >= 0).sum())

    def _pairs(self, key: np.ndarray) -> np.ndarray:
        """The first slot of each key's pair (keys are whole numbers from 0 to 2**60)."""
        return ((np.ascontiguousarray(key).view(np.uint64) * self.GOLDEN) >> self.shift).astype(np.int64) * 2

    def find(self, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where each key is kept, and whether it is (else the slot is its pair's first)."""
        pair = self._pairs(key)
        second = self.keys[pair + 1] == key
        return pair + second, second | (self.keys[pair] == key)

    def keep(self, key: np.ndarray, x: np.ndarray, y: np.ndarray, first: np.ndarray, last: np.ndarray) -> None:
        """Remember fresh keys (none kept) with their points and the sections crossed; of several keys of one
        pair (or one key several times), the first."""
        pair, once = np.unique(self._pairs(key), return_index=True)
        columns: tuple[np.ndarray, ...] = (self.keys, self.xs, self.ys, self.first, self.last)
        values: tuple[np.ndarray, ...] = (key[once], x[once], y[once], first[once], last[once])
        taken = self.keys[pair] >= 0
        second = taken & (self.keys[pair + 1] < 0)
        moved = pair[taken & ~second]
        for column in columns:
            column[moved + 1] = column[moved]
        slot = pair + second
        for column, kept in zip(columns, values, strict=True):
            column[slot] = kept


def _snap(v: np.ndarray) -> np.ndarray:
    """``geometry.snap`` on an array (equal to it away from rounding ties, which the caller checks)."""
    return np.round(v, 2) + 0.0


def _tie_distance(v: np.ndarray) -> np.ndarray:
    """How far each value is from a point where rounding to hundredths ties (as ``rules._tie_distance``)."""
    return np.abs(np.remainder(v * 100.0, 1.0) - 0.5) / 100.0


def _hypot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.hypot``: it may miss ``math.hypot`` by a last bit, so comparisons near a threshold are
    measured again by the reference functions (see ``_cost``, ``_nearest``, ``_contact``)."""
    return np.asarray(np.hypot(a, b))


@dataclass(frozen=True)
class _Beach:
    """What ``rules`` reads of one game's state (``rules.Beach``): the options, the width, the obstacles."""

    options: Mapping[str, Any]
    germans: int
    width: float
    obstacles: list[int | None]


@dataclass(frozen=True)
class _Standing:
    """A squad where the reference's reach starts (``rules.Standing``)."""

    x: float
    y: float
    label: str = "batch"


@dataclass(frozen=True)
class _Sited:
    """A bunker's section (``rules.Sited``)."""

    section: int


class Geometry:
    """``rules.py`` on arrays, for a batch of games of one table: ``S`` obstacle sections, ``B`` bunker
    sections, the table's bounds; ``obs`` (games by sections, ``UNKNOWN`` not yet rolled) and
    ``blocking`` (see ``_count_blocking``) are the games' obstacles."""

    options: Any
    germans: int
    width: float
    S: int
    B: int
    left: float
    right: float
    bottom: float
    top: float
    obs: np.ndarray
    blocking: np.ndarray
    bunker_cx: np.ndarray

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The table's bounds (left, bottom, right, top): what the moves ``_reach_clear`` remembers depend on."""
        return (self.left, self.bottom, self.right, self.top)

    def _sec6(self, x: np.ndarray) -> np.ndarray:
        """``rules.obstacle_section_at`` on an array."""
        return np.minimum(np.maximum(np.floor(x / OBSTACLE_SECTION_WIDTH), 0), self.S - 1).astype(np.int64)

    def _sec8(self, x: np.ndarray) -> np.ndarray:
        """``rules.bunker_section_at`` on an array."""
        return np.minimum(np.maximum(np.floor(x / BUNKER_SECTION_WIDTH), 0), self.B - 1).astype(np.int64)

    @staticmethod
    def _cost(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
        """``rules.move_cost`` on arrays."""
        length = _hypot(x1 - x0, y1 - y0)
        dry = (y0 >= 0) & (y1 >= 0)
        if dry.all():  # every move on land (those at or past the wall): the length
            cost = length  # (a fresh array)
        else:
            wet = (y0 <= 0) & (y1 <= 0)
            with np.errstate(divide="ignore", invalid="ignore"):
                part = np.where(y0 < 0, -y0, -y1) / np.abs(y1 - y0)
                mixed = length * (WATER_COST * part + (1 - part))
            cost = np.where(dry, length, np.where(wet, WATER_COST * length, mixed))
        # np.hypot may differ from math.hypot in the last bit: where that could decide a comparison
        # with the allowance (6", or 6" and the tolerance), the reference function measures
        # (a move along one axis is measured exactly by both)
        close = (np.abs(cost - BEACH_MOVE) < FLOAT_MARGIN) | (np.abs(cost - BEACH_MOVE - TOLERANCE) < FLOAT_MARGIN)
        close &= (x1 != x0) & (y1 != y0)
        for i in np.nonzero(close)[0]:
            cost[i] = R.move_cost(float(x0[i]), float(y0[i]), float(x1[i]), float(y1[i]))
        return cost

    def _band_blocked(
        self, g: np.ndarray, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray
    ) -> np.ndarray:
        """Whether the straight path crosses a band section with obstacles (or unrolled): ``rules.band_sections``."""
        return self._crossed(g, *self._band_span(x0, y0, x1, y1)) > 0

    def _band_span(
        self, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The first and last obstacle section each straight path crosses in the band, 0 and -1 where it
        crosses none (``rules.band_sections``)."""
        low, high = np.minimum(y0, y1), np.maximum(y0, y1)
        inside = ~((high <= WALL_Y + TOLERANCE) | (low >= BAND_END_Y - TOLERANCE))
        if not inside.any():
            return np.zeros(len(x0), dtype=np.int64), np.full(len(x0), -1, dtype=np.int64)
        flat = y1 == y0
        with np.errstate(divide="ignore", invalid="ignore"):
            ta = (np.maximum(low, WALL_Y) - y0) / (y1 - y0)
            tb = (np.minimum(high, BAND_END_Y) - y0) / (y1 - y0)
            xa = np.where(flat, x0, x0 + ta * (x1 - x0))
            xb = np.where(flat, x1, x0 + tb * (x1 - x0))
        first = np.where(inside, self._sec6(np.minimum(xa, xb)), 0)
        last = np.where(inside, self._sec6(np.maximum(xa, xb)), -1)
        return first, last

    def _crossed(self, g: np.ndarray, first: np.ndarray, last: np.ndarray) -> np.ndarray:
        """How many of game ``g``'s obstacle sections ``first`` to ``last`` hold obstacles (or are unrolled)."""
        row = g * (self.S + 1)
        blocking = self.blocking.reshape(-1)  # read flat: one index, not two
        return np.asarray(blocking[row + last + 1] - blocking[row + first])

    def _reach(
        self, g: np.ndarray, x0: np.ndarray, y0: np.ndarray, tx: np.ndarray, ty: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``rules.reach`` on arrays; where it would bisect or hang on a last bit, ``rules.reach`` itself
        (``hard``: those moves). A move not hard ends at a point its start and target alone decide, which
        it reaches because no obstacle stands in the band sections on the way."""
        dx, dy = tx - x0, ty - y0
        length = _hypot(dx, dy)
        still = length < 1e-9
        t = np.ones_like(x0)
        with np.errstate(divide="ignore", invalid="ignore"):
            for lo, hi, start, delta in ((self.left, self.right, x0, dx), (self.bottom, self.top, y0, dy)):
                t = np.where(delta > 0, np.minimum(t, (hi - start) / delta), t)
                t = np.where(delta < 0, np.minimum(t, (lo - start) / delta), t)
            below = y0 < WALL_Y - TOLERANCE
            wall = below & (dy > 0) & (y0 + t * dy > WALL_Y)
            t = np.where(wall, np.minimum(t, (WALL_Y - y0) / dy), t)
            ex, ey = x0 + t * dx, y0 + t * dy
            over = self._cost(x0, y0, ex, ey) > BEACH_MOVE
            limit = self._allowance_limit(y0, dy, length)
            lx, ly = x0 + limit * dx, y0 + limit * dy
        slack = t * 2.0**-38 + limit * 1e-12
        tie = (_tie_distance(lx) <= slack * np.abs(dx) + FLOAT_MARGIN) | (
            _tie_distance(ly) <= slack * np.abs(dy) + FLOAT_MARGIN
        )
        plain_tie = (_tie_distance(ex) < FLOAT_MARGIN) | (_tie_distance(ey) < FLOAT_MARGIN)
        px = np.where(over, _snap(lx), _snap(ex))
        py = np.where(over, _snap(ly), _snap(ey))
        px = np.where(still, x0, px)
        py = np.where(still, y0, py)
        hard = ~still & (np.where(over, tie, plain_tie) | ~self._legal(g, x0, y0, px, py))
        for i in np.nonzero(hard)[0]:
            # a bisection (a point cut short, or a rounding tie) or a cost on the last bit: the reference's own reach
            squad = _Standing(float(x0[i]), float(y0[i]))
            px[i], py[i] = R.reach(self._beach(int(g[i])), squad, float(tx[i]), float(ty[i]))
        return px, py, hard

    def _reach_up(self, g: np.ndarray, x0: np.ndarray, y0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``_reach_clear`` of moves from below the wall straight up to it (toward ``(x0, WALL_Y)``).

        Such a move's end depends on its start's y alone, with the table's bounds: no sideways edge, no
        obstacle, no hypotenuse, and a start's x in hundredths (as every position is) is never near a
        rounding tie. So each start's y is measured once (by ``_reach_clear``), then read from ``UP``; a
        position not in hundredths is measured every time."""
        table = UP.get(self.bounds)
        low = math.floor(self.bottom * 100.0)
        if table is None:
            table = UP[self.bounds] = np.full(round(WALL_Y * 100.0) - low + 1, np.nan)
        whole = np.rint(y0 * 100.0)
        index = whole.astype(np.int64) - low
        kept = (whole / 100.0 == y0) & (np.rint(x0 * 100.0) / 100.0 == x0) & (index >= 0) & (index < len(table))
        index = np.where(kept, index, 0)
        my = table[index]
        known = kept & ~np.isnan(my)
        if not known.all():
            ask = np.nonzero(~known)[0]
            ax, ay = self._reach_clear(g[ask], x0[ask], y0[ask], x0[ask], np.full(len(ask), WALL_Y))
            my[ask] = ay
            new = kept[ask] & (ax == x0[ask])  # straight up it is (a check: no move of the kind goes sideways)
            table[index[ask][new]] = ay[new]
        return x0, my  # x0 itself: the moves go straight up

    def _reach_clear(
        self, g: np.ndarray, x0: np.ndarray, y0: np.ndarray, tx: np.ndarray, ty: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``_reach`` of moves that stay out of the band (see ``_reach_any``)."""
        return self._reach_any(g, x0, y0, tx, ty, np.ones(len(g), dtype=bool))

    def _reach_any(
        self, g: np.ndarray, x0: np.ndarray, y0: np.ndarray, tx: np.ndarray, ty: np.ndarray, clear: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``_reach`` of every move, remembered (``REACHED``) by the table's bounds, the start and the target.

        A move's point depends on those alone (``rules.reach`` remembers the moves from below the wall so
        too), unless obstacles in the band cut it short: so a point is remembered with the band sections the
        way to it crosses, and read again in a game where those hold no obstacle (``_reach`` would find the
        same point there, legal), else measured. A move whose straight line stays out of the band
        (``clear``: both ends on or below the wall, or both on or past the band's far edge) crosses none,
        and each fresh one is measured once for every game asking; a move across the band, game by game
        (its point may be cut short in one game and not in another), and remembered where no obstacle cut
        it. Squads walk the same lines game after game. Positions are stored hundredths (snapped), so the
        key is four whole numbers; a position not in hundredths (none is) is measured, not kept."""
        table = REACHED.get(self.bounds)
        if table is None:
            table = REACHED[self.bounds] = Remembered(REACHED_KEPT)
        values = np.array((x0, y0, tx, ty))
        whole = np.rint(values * 100.0)
        keyed = (whole / 100.0 == values).all(axis=0)
        if not np.abs(whole).max(initial=0.0) < KEY_SPAN // 2:  # a value off every table (or not a number)
            keyed &= (np.abs(whole) < KEY_SPAN // 2).all(axis=0)
            whole = np.where(keyed, whole, 0.0)
        part = whole.astype(np.int64) + KEY_SPAN // 2
        key = ((part[0] * KEY_SPAN + part[1]) * KEY_SPAN + part[2]) * KEY_SPAN + part[3]
        spot, hit = table.find(key)
        ok = hit & keyed
        j = np.nonzero(ok & ~clear)[0]  # across the band: read where its sections hold no obstacle
        if len(j):
            kept = spot[j]
            ok[j] = self._crossed(g[j], table.first[kept], table.last[kept]) == 0
        px, py = table.xs[spot], table.ys[spot]
        miss = np.nonzero(~ok)[0]
        if not len(miss):
            return px, py
        shared = clear[miss] & keyed[miss]  # fresh (a clear move crosses nothing): the same point in every game
        each, s = miss[~shared], miss[shared]
        _, one, where = np.unique(key[s], return_index=True, return_inverse=True)
        ask = np.concatenate((each, s[one]))
        if len(ask) < ONE_BY_ONE and clear[ask].all():  # a point clear of the band is remembered, hard or not
            ax, ay = self._reach_each(g[ask], x0[ask], y0[ask], tx[ask], ty[ask])
            hard = np.zeros(len(ask), dtype=bool)
        else:
            ax, ay, hard = self._reach(g[ask], x0[ask], y0[ask], tx[ask], ty[ask])
        px[ask], py[ask] = ax, ay
        px[s], py[s] = ax[len(each) :][where], ay[len(each) :][where]
        new = keyed[ask] & ~hit[ask] & (clear[ask] | ~hard)  # a point no obstacle cut short
        if new.any():
            k = ask[new]
            table.keep(key[k], ax[new], ay[new], *self._band_span(x0[k], y0[k], ax[new], ay[new]))
        return px, py

    def _reach_each(
        self, g: np.ndarray, x0: np.ndarray, y0: np.ndarray, tx: np.ndarray, ty: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``rules.reach`` itself, move by move (``_reach_any``'s few fresh moves, ``ONE_BY_ONE``)."""
        px, py = np.empty(len(g)), np.empty(len(g))
        beaches: dict[int, _Beach] = {}
        moves = zip(g.tolist(), x0.tolist(), y0.tolist(), tx.tolist(), ty.tolist(), strict=True)
        for i, (k, x, y, to_x, to_y) in enumerate(moves):
            beach = beaches.get(k)
            if beach is None:
                beach = beaches[k] = self._beach(k)
            px[i], py[i] = R.reach(beach, _Standing(x, y), to_x, to_y)
        return px, py

    @staticmethod
    def _clear_of_band(y0: np.ndarray, y1: np.ndarray) -> np.ndarray:
        """Whether the straight line from y ``y0`` to ``y1`` stays out of the band (``rules.band_sections``)."""
        return np.asarray((np.maximum(y0, y1) <= WALL_Y + TOLERANCE) | (np.minimum(y0, y1) >= BAND_END_Y - TOLERANCE))

    def _beach(self, k: int) -> _Beach:
        """What ``rules`` reads of game ``k``'s state: the options, the width, the obstacles."""
        obstacles = [None if count == UNKNOWN else count for count in self.obs[k].tolist()]
        return _Beach(self.options, self.germans, self.width, obstacles)

    @staticmethod
    def _allowance_limit(y0: np.ndarray, dy: np.ndarray, length: np.ndarray) -> np.ndarray:
        """``rules.allowance_limit`` on arrays."""
        budget = BEACH_MOVE / length
        ashore = -y0 / dy
        afloat = y0 / -dy
        wades = (dy > 0) & (y0 < 0)
        walks_in = (dy < 0) & (y0 > 0)
        wades_t = np.where(WATER_COST * ashore >= budget, budget / WATER_COST, ashore + (budget - WATER_COST * ashore))
        walks_t = np.where(afloat >= budget, budget, afloat + (budget - afloat) / WATER_COST)
        wet = (y0 < 0) | ((y0 == 0) & (dy < 0))
        other = np.where(wet, budget / WATER_COST, budget)
        return np.where(wades, wades_t, np.where(walks_in, walks_t, other))

    def _legal(self, g: np.ndarray, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
        """``rules.check_move`` on arrays: whether each move is legal."""
        inside = (
            (self.left - TOLERANCE <= x1)
            & (x1 <= self.right + TOLERANCE)
            & (self.bottom - TOLERANCE <= y1)
            & (y1 <= self.top + TOLERANCE)
        )
        cost = self._cost(x0, y0, x1, y1)
        fits = cost <= BEACH_MOVE + TOLERANCE
        over_wall = (y0 < WALL_Y - TOLERANCE) & (y1 > WALL_Y + TOLERANCE)
        blocked = self._band_blocked(g, x0, y0, x1, y1)
        return np.asarray(inside & fits & ~over_wall & ~blocked)

    def _bunker_distance(self, x: np.ndarray, y: np.ndarray, sections: np.ndarray | None = None) -> np.ndarray:
        """Inches from each squad to each bunker section's footprint, shape (n, B), or to the sections
        ``sections`` (n, k) names, shape (n, k) (``rules.bunker_distance``)."""
        half = BUNKER_WIDTH / 2
        centre = self.bunker_cx[None, :] if sections is None else self.bunker_cx[sections]
        dx = np.maximum(np.maximum(centre - half - x[:, None], 0.0), x[:, None] - (centre + half))
        dy = np.maximum(np.maximum(BUNKER_FRONT_Y - y, 0.0), y - (BUNKER_FRONT_Y + BUNKER_DEPTH))
        return _hypot(dx, dy[:, None])

    @staticmethod
    def _exact_distance(x: float, y: float, section: int) -> float:
        """``rules.bunker_distance`` itself (``math.hypot``, which ``np.hypot`` may miss by a last bit)."""
        return R.bunker_distance(float(x), float(y), _Sited(int(section)))
