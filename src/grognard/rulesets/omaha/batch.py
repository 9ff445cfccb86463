"""Omaha doctrine against doctrine, many games at once in numpy arrays: the Monte Carlo fast path.

The reference engine (:mod:`grognard.rulesets.omaha.game` with the
:mod:`~grognard.rulesets.omaha.bots` doctrine) plays one game at a time, a
decision object per order; a run of 10,000 games takes minutes. This module
plays the same games side by side: every array holds one row per game, and
each step of a turn (a landing, one squad's orders, one bunker's fire, one
artillery call, one morale check) is a few numpy operations over every game
at once.

It is not an approximation. Game ``i`` draws the same d6 stream as the
reference engine's ``SeededDice`` for that game (the same child seed, drawn in
the same blocks), rolls its dice in the same order for the same purposes, and
its bots make the same choices (the German placement ties are broken by the
same generator calls), so a game's row equals the reference engine's row for
that index. ``tests/test_omaha_batch.py`` checks that game by game.

Where the answer hangs on the last bit of a float (``np.hypot`` and
``math.hypot`` differ in the last bit now and then; ``np.round`` and ``round``
differ at rounding ties), the batch measures those few cases with the
reference's own functions (``rules.reach``, ``rules.move_cost``,
``rules.bunker_distance``): a position within 1e-9" of a rounding tie, a cost
within 1e-9" of the allowance, two bunkers within 1e-9" of equally near, and
the rare move the allowance or the obstacles cut short by bisection.

Supported: doctrine bots on both sides, every Omaha option (``shoot_from``, RULINGS O9, changes nothing
the doctrine does: it never shoots from past the wall).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from grognard.core.dice import BOTS, DICE, SeededDice, dice_generator, stream
from grognard.core.geometry import TOLERANCE
from grognard.rulesets.omaha import data as D
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.bots import FOLLOW_UP_REACH, MOSTLY_WHOLE
from grognard.rulesets.omaha.data import (
    AMERICANS_PER_GERMAN,
    BAND_END_Y,
    BEACH_MOVE,
    BUNKER_DEPTH,
    BUNKER_FRONT_Y,
    BUNKER_SECTION_WIDTH,
    BUNKER_WIDTH,
    CONTACT,
    DEEP_WATER_FACE,
    DEFENDERS,
    OBSTACLE_ROLL,
    OBSTACLE_SECTION_WIDTH,
    SECTIONS_PER_GERMAN,
    SQUAD_SIZE,
    WALL_Y,
    WATER_COST,
    ZONE_WIDTH,
)
from grognard.rulesets.omaha.rules import CONTACT_FROM_Y

# --- statuses and kinds of order ---------------------------------------------------------
NONE, ACTIVE, SILENCED, DESTROYED = 0, 1, 2, 3
HOLD, MOVE, SHOOT, CLEAR, ASSAULT = 0, 1, 2, 3, 4
UNKNOWN = -1  # an obstacle section not yet rolled (hidden obstacles)
OUTCOMES = ("", "american win", "german win", "scored", "unfinished")

FLOAT_MARGIN = 1e-9  # inches: closer than this to a threshold, the reference functions measure
OBSTACLE_FACES = np.array((0, *OBSTACLE_ROLL.table), dtype=np.int64)  # face -> obstacles (omaha.8)
# the mechanics of data.py, read once: every threshold and count of dice below comes from them
FIRE = [D.bunker_fire(defenders) for defenders in range(DEFENDERS + 1)]  # by defenders left (omaha.19-20)
FIRE_DICE = np.array([m.dice for m in FIRE], dtype=np.int64)
FIRE_TARGET = np.array([m.target for m in FIRE], dtype=np.int64)
CLEAR_AT, SHOOT_AT = D.clearing(1).target, D.shooting(1).target  # a d6 per figure (omaha.16-17)
ASSAULT_AT, DROWN_AT = D.assault(1).target, D.deep_water(1).target  # (omaha.18, omaha.12)
MORALE_AT = D.morale(1).target  # (omaha.25)
SIDES = D.LANDING_ROLL.sides  # every die of Omaha has as many sides (a d6): one stream of them per game
MECHANICS = (*FIRE, D.clearing(1), D.shooting(1), D.assault(1), D.deep_water(1), D.morale(1))
assert all(m.sides == SIDES for m in (*MECHANICS, D.ARTILLERY_LANDS, D.ARTILLERY_KILLS))
assert len(OBSTACLE_ROLL.table) == SIDES and D.ARTILLERY_LANDS.dice == 1  # one die each
WINDOW = max(SQUAD_SIZE, D.ARTILLERY_KILLS.dice, *(m.dice for m in FIRE))  # the most dice one roll asks for


def supports(bots: Mapping[str, str]) -> bool:
    """Whether the batch plays these bots: the doctrine on both sides."""
    return set(bots.values()) == {"doctrine"} and set(bots) == {"american", "german"}


def play_batch(
    options: Mapping[str, Any], bots: Mapping[str, str], seed: int, start: int, stop: int
) -> list[dict[str, Any]]:
    """The rows of games ``start`` to ``stop - 1`` of a run seeded ``seed``, equal to ``play_one``'s.

    ``options`` are resolved Omaha options; ``bots`` must satisfy :func:`supports`
    (raises ``ValueError`` otherwise).
    """
    if not supports(bots):
        raise ValueError(f"the batch path plays doctrine against doctrine, not {dict(bots)}")
    batch = _Batch(options, seed, range(start, stop))
    batch.run()
    return [batch.row(k, index) for k, index in enumerate(range(start, stop))]


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


class _Batch:
    """The state of many Omaha games, one row per game (``G`` games, ``P`` players, ``S`` obstacle
    sections, ``B`` bunker sections); the methods play the phases of ``game.OmahaGame``."""

    def __init__(self, options: Mapping[str, Any], seed: int, indices: Sequence[int]) -> None:

        self.options = options
        germans = int(options["germans"])
        self.germans = germans
        P = self.P = germans * AMERICANS_PER_GERMAN
        self.width = P * ZONE_WIDTH
        S = self.S = round(self.width / OBSTACLE_SECTION_WIDTH)
        B = self.B = SECTIONS_PER_GERMAN * germans
        G = self.G = len(indices)
        self.left, self.bottom = 0.0, -float(options["water"])
        self.right, self.top = self.width, BAND_END_Y + float(options["ground"])
        self.limit = options["fresh_squads"]
        self.deep = bool(options["deep_water"])
        self.drowned_morale = bool(options.get("drowned_morale", True))
        self.fire_past_wall = options.get("bunker_targets", "anywhere") == "anywhere"  # RULINGS O10
        self.needs_bunker = bool(options.get("artillery_needs_bunker", False))  # RULINGS O11
        # dice: each game's d6 stream, as SeededDice draws it
        self.generators: list[np.random.Generator] = []
        self.bot_rngs: list[np.random.Generator] = []
        block = SeededDice.BLOCK
        self.stream = np.empty((G, block + WINDOW), dtype=np.int8)
        self.filled = np.full(G, block, dtype=np.int64)
        for k, index in enumerate(indices):
            generator = dice_generator(stream(seed, index, DICE), SIDES)
            self.stream[k, :block] = generator.integers(1, SIDES + 1, size=block, dtype=np.int64)
            self.generators.append(generator)
            self.bot_rngs.append(np.random.default_rng(stream(seed, index, BOTS)))
        self.cursor = np.zeros(G, dtype=np.int64)
        self.rows_all = np.arange(G)
        # players and squads
        self.has = np.zeros((G, P), dtype=bool)
        self.fig = np.zeros((G, P), dtype=np.int64)
        self.x = np.zeros((G, P))
        self.y = np.zeros((G, P))
        self.lost = np.zeros((G, P), dtype=np.int64)
        self.landings = np.zeros((G, P), dtype=np.int64)
        self.fresh_used = np.zeros((G, P), dtype=np.int64)
        self.out = np.zeros((G, P), dtype=bool)
        # the beach
        self.obs = np.full((G, S), UNKNOWN, dtype=np.int64)
        self.blocking = np.zeros((G, S + 1), dtype=np.int64)  # see _count_blocking
        self.status = np.zeros((G, B), dtype=np.int64)
        self.defenders = np.zeros((G, B), dtype=np.int64)
        self.exit_flag = np.zeros((G, B), dtype=bool)
        section = np.arange(B)
        self.bunker_cx = section * BUNKER_SECTION_WIDTH + BUNKER_SECTION_WIDTH / 2
        self.exit_of = self._sec6(self.bunker_cx)  # obstacle section in front of each bunker section
        self.exit_mid = self.exit_of * OBSTACLE_SECTION_WIDTH + OBSTACLE_SECTION_WIDTH / 2
        self.mid6 = np.arange(S) * OBSTACLE_SECTION_WIDTH + OBSTACLE_SECTION_WIDTH / 2
        # results
        self.turn = 0
        self.done = np.zeros(G, dtype=bool)
        self.outcome = np.zeros(G, dtype=np.int64)
        self.end_turn = np.zeros(G, dtype=np.int64)
        stats = (
            "american_losses",
            "german_losses",
            "sent_back",
            "wiped_out",
            "fresh_squads",
            "drowned",
            "first_past_wall_turn",
            "breakthrough_turn",
            "decisive_turn",
        )
        self.stats = {name: np.zeros(G, dtype=np.int64) for name in stats}

    # ------------------------------------------------------------------ dice
    def _dice(self, g: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """The next ``counts[i]`` d6 of game ``g[i]``, as a (len(g), WINDOW) array with zeros past each count."""
        need = self.cursor[g] + counts > self.filled[g]
        if need.any():
            self._extend(g[need])
        window = self.stream[g[:, None], self.cursor[g][:, None] + np.arange(WINDOW)]
        self.cursor[g] += counts
        return np.where(np.arange(WINDOW) < counts[:, None], window, 0)

    def _extend(self, games: np.ndarray) -> None:
        """Draw the next block of the d6 streams of ``games``, as ``SeededDice`` does when its buffer runs
        out: a game's dice are its blocks one after another, indexed from its first die."""
        block = SeededDice.BLOCK
        for k in games:
            end = int(self.filled[k]) + block
            if end + WINDOW > self.stream.shape[1]:
                grown = np.zeros((self.G, end + WINDOW), dtype=np.int8)
                grown[:, : self.stream.shape[1]] = self.stream
                self.stream = grown
            self.stream[k, self.filled[k] : end] = self.generators[k].integers(1, SIDES + 1, size=block, dtype=np.int64)
            self.filled[k] = end

    # ------------------------------------------------------------------ geometry (rules.py, on arrays)
    def _sec6(self, x: np.ndarray) -> np.ndarray:
        """``rules.obstacle_section_at`` on an array."""
        return np.clip(np.floor(x / OBSTACLE_SECTION_WIDTH), 0, self.S - 1).astype(np.int64)

    def _sec8(self, x: np.ndarray) -> np.ndarray:
        """``rules.bunker_section_at`` on an array."""
        return np.clip(np.floor(x / BUNKER_SECTION_WIDTH), 0, self.B - 1).astype(np.int64)

    @staticmethod
    def _cost(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
        """``rules.move_cost`` on arrays."""
        length = _hypot(x1 - x0, y1 - y0)
        dry = (y0 >= 0) & (y1 >= 0)
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
        low, high = np.minimum(y0, y1), np.maximum(y0, y1)
        inside = ~((high <= WALL_Y + TOLERANCE) | (low >= BAND_END_Y - TOLERANCE))
        if not inside.any():
            return np.asarray(inside)
        flat = y1 == y0
        with np.errstate(divide="ignore", invalid="ignore"):
            ta = (np.maximum(low, WALL_Y) - y0) / (y1 - y0)
            tb = (np.minimum(high, BAND_END_Y) - y0) / (y1 - y0)
            xa = np.where(flat, x0, x0 + ta * (x1 - x0))
            xb = np.where(flat, x1, x0 + tb * (x1 - x0))
        xa = np.where(inside, xa, 0.0)
        xb = np.where(inside, xb, 0.0)
        first = self._sec6(np.minimum(xa, xb))
        last = self._sec6(np.maximum(xa, xb))
        blocking = self.blocking[g]
        rows = np.arange(len(g))
        count = blocking[rows, last + 1] - blocking[rows, first]
        return np.asarray(inside & (count > 0))

    def _reach(
        self, g: np.ndarray, x0: np.ndarray, y0: np.ndarray, tx: np.ndarray, ty: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``rules.reach`` on arrays; where it would bisect or hang on a last bit, ``rules.reach`` itself."""
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
            squad = SimpleNamespace(x=float(x0[i]), y=float(y0[i]), label="batch")
            px[i], py[i] = R.reach(self._beach(int(g[i])), squad, float(tx[i]), float(ty[i]))  # type: ignore[arg-type]
        return px, py

    def _beach(self, k: int) -> SimpleNamespace:
        """What ``rules`` reads of game ``k``'s state: the options, the width, the obstacles."""
        obstacles = [None if count == UNKNOWN else int(count) for count in self.obs[k]]
        return SimpleNamespace(options=self.options, width=self.width, obstacles=obstacles, germans=self.germans)

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

    def _bunker_distance(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Inches from each squad to each bunker section's footprint, shape (n, B) (``rules.bunker_distance``)."""
        half = BUNKER_WIDTH / 2
        left = self.bunker_cx - half
        right = self.bunker_cx + half
        dx = np.maximum(np.maximum(left[None, :] - x[:, None], 0.0), x[:, None] - right[None, :])
        dy = np.maximum(np.maximum(BUNKER_FRONT_Y - y, 0.0), y - (BUNKER_FRONT_Y + BUNKER_DEPTH))
        return _hypot(dx, dy[:, None])

    # ------------------------------------------------------------------ bookkeeping
    def _finish(self, g: np.ndarray, outcome: int) -> None:
        self.done[g] = True
        self.outcome[g] = outcome
        self.end_turn[g] = self.turn

    def _live(self) -> np.ndarray:
        return np.nonzero(~self.done)[0]

    # ------------------------------------------------------------------ the game
    def run(self, on_turn: Callable[[_Batch], None] | None = None) -> None:
        """Setup, then turns until every game is over (``OmahaGame._advance``).

        ``on_turn(self)`` is called at the end of every turn of a game still going
        (the tests compare the state there with the reference engine's)."""
        options = self.options
        every = self.rows_all
        if not options["hidden_obstacles"]:
            for section in range(self.S):
                faces = self._dice(every, np.ones(self.G, dtype=np.int64))[:, 0]
                self.obs[:, section] = OBSTACLE_FACES[faces]
        self._place_bunkers()
        self._count_blocking(every)
        while True:
            live = self._live()
            if not len(live):
                return
            self.turn += 1
            self._land(live)
            self._end_phase(self._live())
            live = self._live()
            self._americans(live)
            self._end_phase(live)
            live = self._live()
            self._germans(live)
            self._end_phase(live)
            live = self._live()
            self._morale(live)
            self._end_phase(live)
            live = self._live()
            period = options["period_turns"]
            if period is not None and self.turn >= period:
                self._finish(live, OUTCOMES.index("scored"))
            elif self.turn >= options["turn_cap"]:
                self._finish(live, OUTCOMES.index("unfinished"))
            if on_turn is not None:
                on_turn(self)

    def _count_blocking(self, g: np.ndarray) -> None:
        """``blocking[g, s]``: sections before ``s`` whose obstacles (or unknown count) block the band."""
        self.blocking[g, 1:] = np.cumsum(self.obs[g] != 0, axis=1)

    def _place_bunkers(self) -> None:
        """Each German puts his bunkers behind the sections with most obstacles (``bots.place_bunkers``)."""
        pairs = ((0, 1), (0, 2), (1, 2))
        for k in range(self.G):
            rng = self.bot_rngs[k]
            for german in range(self.germans):
                first = SECTIONS_PER_GERMAN * german
                cover = [int(self.obs[k, self.exit_of[first + i]]) for i in range(3)]
                cover = [1 if c == UNKNOWN else c for c in cover]
                sums = [cover[a] + cover[b] for a, b in pairs]
                best = max(sums)
                choices = [pair for pair, total in zip(pairs, sums, strict=True) if total == best]
                a, b = choices[int(rng.integers(len(choices)))]
                for i in (a, b):
                    self.status[k, first + i] = ACTIVE
                    self.defenders[k, first + i] = DEFENDERS

    def _land(self, live: np.ndarray) -> None:
        """Beach landings, player by player (``OmahaGame._land``, omaha.11-12)."""
        for p in range(self.P):
            g = live[~self.out[live, p] & ~self.has[live, p] & ~self.done[live]]
            if not len(g):
                continue
            fresh = self.landings[g, p] > 0
            self.fresh_used[g, p] += fresh
            self.stats["fresh_squads"][g] += fresh
            self.landings[g, p] += 1
            inches = self._dice(g, np.ones(len(g), dtype=np.int64))[:, 0]
            self.has[g, p] = True
            self.fig[g, p] = SQUAD_SIZE
            self.x[g, p] = p * ZONE_WIDTH + ZONE_WIDTH / 2
            self.y[g, p] = -inches.astype(np.float64) + 0.0
            self.lost[g, p] = 0
            if self.deep:
                deep = g[inches == DEEP_WATER_FACE]
                if len(deep):
                    values = self._dice(deep, np.full(len(deep), D.deep_water(SQUAD_SIZE).dice, dtype=np.int64))
                    drowned = (values >= DROWN_AT).sum(axis=1)
                    self.stats["drowned"][deep] += drowned
                    self._lose(deep, p, drowned)
                    if not self.drowned_morale:  # RULINGS O6 read the other way (OmahaGame._land)
                        self.lost[deep, p] = 0

    def _lose(self, g: np.ndarray, p: int, n: np.ndarray) -> None:
        """Remove up to ``n`` figures of player ``p``'s squad in games ``g`` (``OmahaGame._lose``)."""
        removed = np.minimum(n, self.fig[g, p])
        self.fig[g, p] -= removed
        self.lost[g, p] += removed
        self.stats["american_losses"][g] += removed
        wiped = g[(self.fig[g, p] == 0) & (removed > 0)]
        self.stats["wiped_out"][wiped] += 1
        self._remove(wiped, p)

    def _remove(self, g: np.ndarray, p: int) -> None:
        """The squad leaves the beach; its player may be out of squads (``OmahaGame._remove_squad``)."""
        self.has[g, p] = False
        if self.limit is not None:
            self.out[g, p] |= self.fresh_used[g, p] >= self.limit

    def _end_phase(self, live: np.ndarray) -> None:
        """Exits opening, then victory (``OmahaGame._end_phase``, O17, O20)."""
        live = live[~self.done[live]]
        if not len(live):
            return
        status = self.status[live]
        knocked = (status == SILENCED) | (status == DESTROYED)
        clear = self.obs[live][:, self.exit_of] == 0
        opening = knocked & clear & ~self.exit_flag[live]
        opened = opening.any(axis=1)
        if opened.any():
            self.exit_flag[live] |= opening
            first = live[opened & (self.stats["breakthrough_turn"][live] == 0)]
            self.stats["breakthrough_turn"][first] = self.turn
        bunkers = status != NONE
        if self.options["victory"] == "bunkers_only":
            won = ~(status == ACTIVE).any(axis=1)
        else:
            won = (self.exit_flag[live] == bunkers).all(axis=1)
        winners = live[won]
        self.stats["decisive_turn"][winners] = self.turn
        self._finish(winners, OUTCOMES.index("american win"))
        beaten = live[~won & self.out[live].all(axis=1)]
        self._finish(beaten, OUTCOMES.index("german win"))

    def _americans(self, live: np.ndarray) -> None:
        """Each squad's orders in player order (``bots.american_orders``, then ``OmahaGame._move``/``_fight``)."""
        for p in range(self.P):
            g = live[self.has[live, p] & ~self.done[live]]
            if len(g):
                self._orders(g, p)

    def _orders(self, g: np.ndarray, p: int) -> None:
        """Player ``p``'s squad in games ``g`` takes the doctrine's orders (``bots.american_orders``)."""
        n = len(g)
        rows = np.arange(n)
        x, y, figures = self.x[g, p], self.y[g, p], self.fig[g, p]
        active = self.status[g] == ACTIVE
        any_active = active.any(axis=1)
        below = y < WALL_Y - TOLERANCE
        past = y > WALL_Y + TOLERANCE
        at_wall = ~below & ~past
        own = self._sec6(x)
        in_front = self.obs[g, own]
        kind = np.full(n, HOLD)
        tx = x.copy()
        ty = np.full(n, WALL_Y)
        target = np.full(n, -1)
        moved = np.zeros(n, dtype=bool)  # a move already worked out (the at-wall try at the nearest bunker)
        mx, my = x.copy(), y.copy()
        follow = np.full(n, np.nan)
        i = rows[any_active & (below | (at_wall & (in_front > 0)))]
        follow[i] = self._cleared_near(g[i], x[i])
        # below the wall: to it, by a cleared section near if a bunker still holds
        kind[below] = MOVE
        tx = np.where(below & ~np.isnan(follow), follow, tx)
        # past the wall: assault in contact, else to the nearest active bunker, else to a blocked exit
        contact = np.full(n, -1)
        i = rows[past & (y >= CONTACT_FROM_Y)]
        contact[i] = self._contact(g[i], x[i], y[i], active[i])
        assault = contact >= 0
        kind[assault] = ASSAULT
        target[assault] = contact[assault]
        tried = at_wall & (in_front == 0) & any_active
        to_bunker = past & ~assault & any_active
        nearest = np.full(n, -1)
        i = rows[to_bunker | tried]
        nearest[i] = self._nearest(g[i], x[i], y[i], active[i])
        kind[to_bunker] = MOVE
        tx = np.where(to_bunker, self.bunker_cx[np.maximum(nearest, 0)], tx)
        ty = np.where(to_bunker, BAND_END_Y, ty)
        to_exit = past & ~assault & ~any_active
        # at the wall
        if tried.any():
            i = rows[tried]
            bx = self.bunker_cx[nearest[i]]
            px, py = self._move_toward(g[i], x[i], y[i], bx, np.full(len(i), BAND_END_Y))
            goes = (px != x[i]) | (py != y[i])
            moved[i[goes]] = True
            kind[i[goes]] = MOVE
            mx[i], my[i] = px, py
        rest = at_wall & ~moved
        follows = rest & ~np.isnan(follow)
        kind[follows] = MOVE
        tx = np.where(follows, follow, tx)
        rest &= ~follows
        front = self._sec8(x)
        shoot_ok = self.status[g, front] == ACTIVE
        obstacles = rest & (in_front > 0)
        kind[obstacles & shoot_ok & (figures >= MOSTLY_WHOLE)] = SHOOT
        kind[obstacles & ~(shoot_ok & (figures >= MOSTLY_WHOLE))] = CLEAR
        rest &= ~obstacles
        kind[rest & shoot_ok] = SHOOT
        to_exit |= rest & ~shoot_ok
        if to_exit.any():
            i = rows[to_exit]
            blocked = self._blocked_exit(g[i], x[i])
            found = ~np.isnan(blocked)
            kind[i[found]] = MOVE
            tx[i[found]] = blocked[found]
        # the moves still to work out
        todo = (kind == MOVE) & ~moved
        if todo.any():
            i = rows[todo]
            mx[i], my[i] = self._move_toward(g[i], x[i], y[i], tx[i], ty[i])
        self._act(g, p, kind, mx, my, target, own, front)

    def _act(
        self,
        g: np.ndarray,
        p: int,
        kind: np.ndarray,
        mx: np.ndarray,
        my: np.ndarray,
        target: np.ndarray,
        own: np.ndarray,
        front: np.ndarray,
    ) -> None:
        """Carry out the orders: ``OmahaGame._move`` and ``_fight`` (omaha.14-18)."""
        is_move = kind == MOVE
        at = (my >= WALL_Y - TOLERANCE) & (my <= WALL_Y + TOLERANCE)
        my = np.where(at, WALL_Y, my)
        mg = g[is_move]
        self.x[mg, p] = mx[is_move]
        self.y[mg, p] = my[is_move]
        arrive_section = self._sec6(mx)
        arrive = is_move & at & (self.obs[g, arrive_section] == UNKNOWN)
        past = is_move & (my > WALL_Y + TOLERANCE)
        first = g[past & (self.stats["first_past_wall_turn"][g] == 0)]
        self.stats["first_past_wall_turn"][first] = self.turn
        fights = (kind == SHOOT) | (kind == CLEAR) | (kind == ASSAULT)
        rolls = arrive | fights
        if not rolls.any():
            return
        i = np.nonzero(rolls)[0]
        gi = g[i]
        figures = self.fig[gi, p]
        counts = np.where(arrive[i], 1, figures)
        values = self._dice(gi, counts)
        k = kind[i]
        # a squad arriving at the wall over an unrolled section rolls its obstacles (omaha.32)
        a = arrive[i]
        if a.any():
            self.obs[gi[a], arrive_section[i][a]] = OBSTACLE_FACES[values[a, 0]]
        c = k == CLEAR
        if c.any():
            section = own[i][c]
            present = np.maximum(self.obs[gi[c], section], 0)
            cleared = (values[c] >= CLEAR_AT).sum(axis=1)
            self.obs[gi[c], section] = present - np.minimum(cleared, present)
        if a.any() or c.any():
            self._count_blocking(gi[a | c])
        s = (k == SHOOT) & ~a
        if s.any():
            b = front[i][s]
            left = self.defenders[gi[s], b]
            killed = np.minimum((values[s] >= SHOOT_AT).sum(axis=1), left)
            self.defenders[gi[s], b] = left - killed
            self.stats["german_losses"][gi[s]] += killed
            emptied = (left - killed == 0) & (self.status[gi[s], b] == ACTIVE)
            self.status[gi[s][emptied], b[emptied]] = SILENCED
        q = (k == ASSAULT) & ~a
        if q.any():
            b = target[i][q]
            success = (values[q] >= ASSAULT_AT).any(axis=1)
            gs, bs = gi[q][success], b[success]
            self.stats["german_losses"][gs] += self.defenders[gs, bs]
            self.defenders[gs, bs] = 0
            self.status[gs, bs] = DESTROYED

    def _move_toward(
        self, g: np.ndarray, x: np.ndarray, y: np.ndarray, tx: np.ndarray, ty: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``bots._move_toward``: round obstacles in the band by a waypoint, then ``reach``."""
        check = ~(y < WALL_Y - TOLERANCE)
        blocked = check & self._band_blocked(g, x, y, tx, ty)
        if blocked.any():
            i = np.nonzero(blocked)[0]
            wx, wy = self._waypoint(g[i], x[i], y[i], tx[i], ty[i])
            tx, ty = tx.copy(), ty.copy()
            tx[i], ty[i] = wx, wy
        return self._reach(g, x, y, tx, ty)

    def _clamp_to(self, section: np.ndarray, x: np.ndarray) -> np.ndarray:
        left = section * OBSTACLE_SECTION_WIDTH
        return np.asarray(np.minimum(np.maximum(x, left), left + OBSTACLE_SECTION_WIDTH - 0.01))

    def _waypoint(
        self, g: np.ndarray, x: np.ndarray, y: np.ndarray, tx: np.ndarray, ty: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``bots._waypoint`` on arrays."""
        obs = self.obs[g]
        rows = np.arange(len(g))
        own = self._sec6(x)
        far = np.where(ty >= BAND_END_Y, BAND_END_Y, WALL_Y)
        own_clear = (y < BAND_END_Y) & (obs[rows, own] == 0)
        clear = obs == 0
        any_clear = clear.any(axis=1)
        score = np.abs(x[:, None] - self.mid6[None, :]) + np.abs(tx[:, None] - self.mid6[None, :])
        best = np.where(clear, score, np.inf).argmin(axis=1)
        along = own != best
        wx = np.where(along, self._clamp_to(best, x), self._clamp_to(best, tx))
        wy = np.where(along, y, far)
        wx = np.where(any_clear, wx, x)
        wy = np.where(any_clear, wy, y)
        wx = np.where(own_clear, self._clamp_to(own, tx), wx)
        wy = np.where(own_clear, far, wy)
        return wx, wy

    def _cleared_near(self, g: np.ndarray, x: np.ndarray) -> np.ndarray:
        """``bots._cleared_section_near``: x of the nearest cleared section's middle within 8" sideways, else NaN."""
        gap = np.abs(self.mid6[None, :] - x[:, None])
        ok = (self.obs[g] == 0) & (gap <= FOLLOW_UP_REACH)
        best = np.where(ok, gap, np.inf).argmin(axis=1)
        found = ok.any(axis=1) & (best != self._sec6(x))
        return np.where(found, self.mid6[best], np.nan)

    def _blocked_exit(self, g: np.ndarray, x: np.ndarray) -> np.ndarray:
        """``bots._blocked_exit``: x in front of the nearest knocked-out bunker whose exit holds obstacles, else NaN."""
        status = self.status[g]
        knocked = (status == SILENCED) | (status == DESTROYED)
        shut = self.obs[g][:, self.exit_of] != 0
        ok = knocked & shut
        gap = np.abs(self.exit_mid[None, :] - x[:, None])
        best = np.where(ok, gap, np.inf).argmin(axis=1)
        return np.where(ok.any(axis=1), self.exit_mid[best], np.nan)

    def _nearest(self, g: np.ndarray, x: np.ndarray, y: np.ndarray, active: np.ndarray) -> np.ndarray:
        """The nearest active bunker's section (first in section order on a tie), -1 if none."""
        distance = np.where(active, self._bunker_distance(x, y), np.inf)
        best = distance.argmin(axis=1)
        low = distance[np.arange(len(g)), best]
        near_tie = ((np.abs(distance - low[:, None]) < FLOAT_MARGIN) & (distance != low[:, None])).any(axis=1)
        for i in np.nonzero(near_tie)[0]:  # two bunkers equally near but for the last bit: measure as the reference
            exact = [self._exact_distance(x[i], y[i], b) if active[i, b] else np.inf for b in range(self.B)]
            best[i] = int(np.argmin(exact))
        return np.where(active.any(axis=1), best, -1)

    @staticmethod
    def _exact_distance(x: float, y: float, section: int) -> float:
        """``rules.bunker_distance`` itself (``math.hypot``, which ``np.hypot`` may miss by a last bit)."""
        return R.bunker_distance(float(x), float(y), SimpleNamespace(section=int(section)))  # type: ignore[arg-type]

    def _contact(self, g: np.ndarray, x: np.ndarray, y: np.ndarray, active: np.ndarray) -> np.ndarray:
        """``OmahaGame.bunker_in_contact``: the bunker in front if in contact, else the first in contact; -1."""
        distance = self._bunker_distance(x, y)
        limit = CONTACT + TOLERANCE
        touching = active & (distance <= limit)
        for i, b in zip(*np.nonzero(np.abs(distance - limit) < FLOAT_MARGIN), strict=True):
            touching[i, b] = active[i, b] and self._exact_distance(x[i], y[i], b) <= limit
        rows = np.arange(len(g))
        front = self._sec8(x)
        first = np.where(touching.any(axis=1), touching.argmax(axis=1), -1)
        chosen = np.where(touching[rows, front], front, first)
        return np.where(y >= CONTACT_FROM_Y, chosen, -1)

    def _threat_key(self, g: np.ndarray, eligible: np.ndarray) -> np.ndarray:
        """The squad every German weapon concentrates on (``bots.german_target``): furthest up, most figures,
        lowest number; -1 where none is eligible."""
        rank = (np.round(self.y[g] * 100).astype(np.int64) + 100_000) * 10_000 + self.fig[g] * 100
        rank = rank + (99 - np.arange(self.P))[None, :]
        rank = np.where(eligible, rank, -1)
        best = rank.argmax(axis=1)
        return np.where(eligible.any(axis=1), best, -1)

    def _germans(self, live: np.ndarray) -> None:
        """Bunker fire in section order, then artillery by German (omaha.19-24, ``bots.german_target``)."""
        if not len(live):
            return
        fires = self.status[live] == ACTIVE  # the German phase's decisions are owed by bunkers active now
        for b in range(self.B):
            g = live[fires[:, b] & ~self.done[live]]
            targets = self.has[g] if self.fire_past_wall else self.has[g] & ~(self.y[g] > WALL_Y + TOLERANCE)
            g, targets = g[targets.any(axis=1)], targets[targets.any(axis=1)]
            if not len(g):
                continue
            p = self._threat_key(g, targets)
            left = self.defenders[g, b]
            kills = (self._dice(g, FIRE_DICE[left]) >= FIRE_TARGET[left][:, None]).sum(axis=1)
            self._lose_each(g, p, kills)
        for k in range(self.germans):
            g = live[~self.done[live]]
            if self.needs_bunker:  # RULINGS O11 read the other way (OmahaGame.calls_artillery)
                own = slice(SECTIONS_PER_GERMAN * k, SECTIONS_PER_GERMAN * (k + 1))
                g = g[(self.status[g, own] == ACTIVE).any(axis=1)]
            eligible = self.has[g] & ~(self.y[g] > WALL_Y + TOLERANCE)
            g, eligible = g[eligible.any(axis=1)], eligible[eligible.any(axis=1)]
            if not len(g):
                continue
            p = self._threat_key(g, eligible)
            lands = self._dice(g, np.ones(len(g), dtype=np.int64))[:, 0] >= D.ARTILLERY_LANDS.target
            g, p = g[lands], p[lands]
            if not len(g):
                continue
            dice = np.full(len(g), D.ARTILLERY_KILLS.dice, dtype=np.int64)
            kills = (self._dice(g, dice) >= D.ARTILLERY_KILLS.target).sum(axis=1)
            self._lose_each(g, p, kills)

    def _lose_each(self, g: np.ndarray, p: np.ndarray, n: np.ndarray) -> None:
        """``_lose`` with a player per game."""
        removed = np.minimum(n, self.fig[g, p])
        self.fig[g, p] -= removed
        self.lost[g, p] += removed
        self.stats["american_losses"][g] += removed
        wiped = (self.fig[g, p] == 0) & (removed > 0)
        gw, pw = g[wiped], p[wiped]
        self.stats["wiped_out"][gw] += 1
        self.has[gw, pw] = False
        if self.limit is not None:
            self.out[gw, pw] |= self.fresh_used[gw, pw] >= self.limit

    def _morale(self, live: np.ndarray) -> None:
        """A d6 per figure lost this turn, 12 or more sends the squad back (omaha.25-26)."""
        for p in range(self.P):
            g = live[self.has[live, p] & (self.lost[live, p] > 0) & ~self.done[live]]
            if not len(g):
                continue
            total = self._dice(g, self.lost[g, p]).sum(axis=1)
            failed = g[total >= MORALE_AT]
            self.stats["sent_back"][failed] += 1
            self._remove(failed, p)
        self.lost[live] = 0

    # ------------------------------------------------------------------ results
    def snapshot(self, k: int) -> dict[str, Any]:
        """Game ``k``'s beach in plain values: each player's squad and landings, the obstacles, each
        bunker section's status and defenders, the exits open and the statistics."""
        players = []
        for p in range(self.P):
            squad = (int(self.fig[k, p]), float(self.x[k, p]), float(self.y[k, p])) if self.has[k, p] else None
            players.append((squad, int(self.landings[k, p]), int(self.fresh_used[k, p]), bool(self.out[k, p])))
        names = ("", "active", "silenced", "destroyed")
        return {
            "players": players,
            "obstacles": [None if c == UNKNOWN else int(c) for c in self.obs[k]],
            "bunkers": {
                b: (names[int(self.status[k, b])], int(self.defenders[k, b]))
                for b in range(self.B)
                if self.status[k, b]
            },
            "exits": sorted(int(b) for b in np.nonzero(self.exit_flag[k])[0]),
            "stats": {
                name: (int(values[k]) or None) if name.endswith("_turn") else int(values[k])
                for name, values in self.stats.items()
            },
        }

    def row(self, k: int, index: int) -> dict[str, Any]:
        """Game ``k``'s row, as ``montecarlo.play_one`` makes it."""
        outcome = OUTCOMES[int(self.outcome[k])]
        if outcome.endswith(" win"):
            kind, winner = "win", outcome.split(" ")[0]
        else:
            kind, winner = outcome, ""
        stats = {name: int(values[k]) for name, values in self.stats.items()}
        turns = ("first_past_wall_turn", "breakthrough_turn", "decisive_turn")
        return {
            "game": index,
            "outcome": kind,
            "winner": winner,
            "turn": int(self.end_turn[k]),
            **{name: (stats[name] or None) for name in turns},
            "american_losses": stats["american_losses"],
            "german_losses": stats["german_losses"],
            "sent_back": stats["sent_back"],
            "wiped_out": stats["wiped_out"],
            "fresh_squads": stats["fresh_squads"],
            "exits_open": int(self.exit_flag[k].sum()),
            "bunkers_left": int((self.status[k] == ACTIVE).sum()),
        }
