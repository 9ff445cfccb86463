"""The state of many Omaha games side by side and the phases of a turn (``game.OmahaGame`` on arrays)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from grognard.core.dice import BOTS
from grognard.rulesets.omaha.batch.americans import AmericanPhase
from grognard.rulesets.omaha.batch.doctrine import NEAR
from grognard.rulesets.omaha.batch.fire import GermanFire, _cells, _runs
from grognard.rulesets.omaha.batch.mechanics import (
    ACTIVE,
    DESTROYED,
    NONE,
    OUTCOMES,
    SILENCED,
    UNKNOWN,
    Mechanics,
)
from grognard.rulesets.omaha.batch.seeds import small_draws
from grognard.rulesets.omaha.batch.streams import DiceStreams
from grognard.rulesets.omaha.data import (
    AMERICANS_PER_GERMAN,
    BAND_END_Y,
    BUNKER_SECTION_WIDTH,
    DEEP_WATER_FACE,
    DEFENDERS,
    OBSTACLE_SECTION_WIDTH,
    SECTIONS_PER_GERMAN,
    SQUAD_SIZE,
    ZONE_WIDTH,
)

PAIRS = ((0, 1), (0, 2), (1, 2))  # the two sections of his three a German's bunkers stand behind


def _emptying(S: int) -> tuple[np.ndarray, np.ndarray]:
    """What emptying each of ``S`` obstacle sections takes from a game's ``blocking`` (one at every column past
    it), and the bits it adds to the ``near_code`` of each section (bit ``NEAR + step`` of the section ``step``
    before it), by section: ``AmericanPhase._emptied``."""
    section = np.arange(S)
    blocks_after = (np.arange(S + 1)[None, :] > section[:, None]).astype(np.int16)
    step = section[:, None] - section[None, :]  # how far each section (rows) is past each (columns)
    near_bits = np.where(np.abs(step) <= NEAR, np.left_shift(1, np.clip(NEAR + step, 0, 62)), 0).astype(np.int64)
    return blocks_after, near_bits


class _Batch(GermanFire, AmericanPhase):
    """The state of many Omaha games side by side (``G`` games, ``P`` players, ``S`` obstacle sections,
    ``B`` bunker sections): the players' arrays are (P, G), the beach's (G, S) and (G, B), the rest (G,);
    the methods play the phases of ``game.OmahaGame``."""

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
        self.hidden = bool(options["hidden_obstacles"])  # obstacles unrolled until a squad reaches the wall
        self.drowned_morale = bool(options.get("drowned_morale", True))
        self.fire_past_wall = options.get("bunker_targets", "anywhere") == "anywhere"  # RULINGS O10
        self.needs_bunker = bool(options.get("artillery_needs_bunker", False))  # RULINGS O11
        self.m = m = Mechanics()
        # dice: each game's d6 stream, as SeededDice draws it; the bots' generator (ties of placement)
        # a turn's landings and morale checks are read at once (_land_all, _morale): P dice, or P squads' losses
        self.dice = DiceStreams(seed, indices, m.sides, max(m.window, P * SQUAD_SIZE))
        self.seed, self.indices = seed, list(indices)  # the bots' generator of a game: see _place_bunkers
        self.rows_all = np.arange(G)
        # players and squads
        # players by games: one player's squads in many games lie side by side (``x[p][g]``: a gather
        # from one row)
        self.has = np.zeros((P, G), dtype=bool)
        self.fig = np.zeros((P, G), dtype=np.int64)
        self.x = np.zeros((P, G))
        self.y = np.zeros((P, G))
        self.lost = np.zeros((P, G), dtype=np.int64)
        self.landings = np.zeros((P, G), dtype=np.int64)
        self.fresh_used = np.zeros((P, G), dtype=np.int64)
        self.out = np.zeros((P, G), dtype=bool)
        # the beach
        self.obs = np.full((G, S), UNKNOWN, dtype=np.int8)  # small types: rows are gathered often
        self.blocking = np.zeros((G, S + 1), dtype=np.int16)  # see _count_blocking
        self.near_code = np.zeros((G, S), dtype=np.int64)  # see Doctrine._cleared_near
        self.near_table: np.ndarray | None = None
        self.blocks_after, self.near_bits = _emptying(S)  # see AmericanPhase._emptied
        self.status = np.zeros((G, B), dtype=np.int8)
        self.defenders = np.zeros((G, B), dtype=np.int8)
        self.n_active = np.zeros(G, dtype=np.int64)  # bunker sections ACTIVE, by game
        self.n_placed = np.zeros(G, dtype=np.int64)  # bunker sections with a bunker, by game
        self.n_open = np.zeros(G, dtype=np.int64)  # exits open, by game
        self.exit_flag = np.zeros((G, B), dtype=bool)
        self.stale = np.ones(G, dtype=bool)  # see Doctrine._fresh
        self.active_before = np.zeros((G, B + 1), dtype=np.int64)
        self.active_after = np.zeros((G, B + 1), dtype=np.int64)
        section = np.arange(B)
        self.bunker_cx = section * BUNKER_SECTION_WIDTH + BUNKER_SECTION_WIDTH / 2
        self.bunker_cx_padded = np.concatenate(([0.0], self.bunker_cx, [0.0]))  # see Doctrine._nearest
        self.exit_of = self._sec6(self.bunker_cx)  # obstacle section in front of each bunker section
        self.exit_mid = self.exit_of * OBSTACLE_SECTION_WIDTH + OBSTACLE_SECTION_WIDTH / 2
        self.exit_mid_padded = np.concatenate(([-np.inf], self.exit_mid, [np.inf]))  # see Doctrine._blocked_exit
        self.exit_mid_or_nan = np.concatenate(([np.nan], self.exit_mid, [np.nan]))
        self.exit_bunker = np.full(S, -1, dtype=np.int64)  # the bunker section whose exit each section is
        self.exit_bunker[self.exit_of] = section
        self.blocked = np.zeros((G, B), dtype=bool)  # see Doctrine._blocked_exit
        self.exits_stale = np.ones(G, dtype=bool)
        self.blocked_before = np.zeros((G, B + 1), dtype=np.int64)
        self.blocked_after = np.zeros((G, B + 1), dtype=np.int64)
        if not (np.diff(self.exit_of) > 0).all():  # Doctrine._blocked_exit reads the exits as neighbours
            raise ValueError("the Omaha batch path needs the bunkers' exits in sections of their own, in order")
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
        if not self.hidden:
            for section in range(self.S):
                faces = self.dice.roll_one(every)
                self.obs[:, section] = self.m.obstacle_faces[faces]
        self._place_bunkers()
        self._count_blocking(every)
        while True:
            live = self._live()
            if not len(live):
                return
            self.turn += 1
            self._land(live)
            self._beaten(self._live())
            live = self._live()
            self._americans(live)
            self._end_phase(live)
            live = self._live()
            self._germans(live)
            self._beaten(live)
            live = self._live()
            self._morale(live)
            self._beaten(live)
            live = self._live()
            period = options["period_turns"]
            if period is not None and self.turn >= period:
                self._finish(live, OUTCOMES.index("scored"))
            elif self.turn >= options["turn_cap"]:
                self._finish(live, OUTCOMES.index("unfinished"))
            if on_turn is not None:
                on_turn(self)

    def _place_bunkers(self) -> None:
        """Each German puts his bunkers behind the two of his sections with most obstacles in front (an
        unknown count as one); a tie is broken by the game's bot generator, as ``bots.place_bunkers``
        does (its draws in German order; a game without a tie never builds it)."""
        cover = self.obs[:, self.exit_of].reshape(self.G, self.germans, SECTIONS_PER_GERMAN)
        cover = np.where(cover == UNKNOWN, 1, cover)
        sums = np.stack([cover[:, :, a] + cover[:, :, b] for a, b in PAIRS], axis=2)
        best = sums == sums.max(axis=2, keepdims=True)
        ties = best.sum(axis=2)
        choice = best.argmax(axis=2)  # the only best pair, or the first of several
        tied = np.nonzero(ties > 1)  # by game, then German: the order each game's draws come in
        pick = small_draws(self.seed, self.indices, (BOTS,), tied[0], ties[tied])  # rng.integers(options)
        top = best[tied]
        choice[tied] = (top & (np.cumsum(top, axis=1) - 1 == pick[:, None])).argmax(axis=1)  # that best pair
        first = SECTIONS_PER_GERMAN * np.arange(self.germans)
        for i in range(2):
            section = first[None, :] + np.array(PAIRS)[choice, i]
            rows = np.broadcast_to(np.arange(self.G)[:, None], section.shape)
            self.status[rows, section] = ACTIVE
            self.defenders[rows, section] = DEFENDERS
        self.n_active[:] = (self.status == ACTIVE).sum(axis=1)
        self.n_placed = (self.status != NONE).sum(axis=1)  # exits to open (RULINGS O17)

    def _land(self, live: np.ndarray) -> None:
        """Beach landings, player by player (``OmahaGame._land``, omaha.11-12)."""
        if not self.deep:  # a die a landing, nothing else: every player's at once
            self._land_all(live)
            return
        for p in range(self.P):
            g = live[~self.out[p][live] & ~self.has[p][live] & ~self.done[live]]
            if not len(g):
                continue
            fresh = self.landings[p][g] > 0
            self.fresh_used[p][g] += fresh
            self.stats["fresh_squads"][g] += fresh
            self.landings[p][g] += 1
            inches = self.dice.roll_one(g)
            self.has[p][g] = True
            self.fig[p][g] = SQUAD_SIZE
            self.x[p][g] = p * ZONE_WIDTH + ZONE_WIDTH / 2
            self.y[p][g] = -inches.astype(np.float64) + 0.0
            self.lost[p][g] = 0
            if self.deep:
                deep = g[inches == DEEP_WATER_FACE]
                if len(deep):
                    values = self.dice.roll(deep, np.full(len(deep), self.m.drown_dice, dtype=np.int64))
                    drowned = (values >= self.m.drown_at).sum(axis=1)
                    self.stats["drowned"][deep] += drowned
                    self._lose(deep, p, drowned)
                    if not self.drowned_morale:  # RULINGS O6 read the other way (OmahaGame._land)
                        self.lost[p][deep] = 0

    def _land_all(self, live: np.ndarray) -> None:
        """``_land`` without deep water: a game's landings in player order take its next dice, one each."""
        r, p = _cells(~self._of(self.out, live).T & ~self._of(self.has, live).T)  # by game, then player
        if not len(r):
            return
        rows, first, count = _runs(r)
        games = live[rows]
        _, start = self.dice.ahead(games, count)
        self.dice.column[games] += count
        g = live[r]
        inches = self.dice.flat[np.repeat(start, count) + np.arange(len(r)) - np.repeat(first, count)]
        at = p * self.G + g
        landings = self.landings.reshape(-1)
        fresh = landings[at] > 0
        self.fresh_used.reshape(-1)[at] += fresh
        self.stats["fresh_squads"] += np.bincount(g, weights=fresh, minlength=self.G).astype(np.int64)
        landings[at] += 1
        self.has.reshape(-1)[at] = True
        self.fig.reshape(-1)[at] = SQUAD_SIZE
        self.x.reshape(-1)[at] = p * ZONE_WIDTH + ZONE_WIDTH / 2
        self.y.reshape(-1)[at] = -inches.astype(np.float64) + 0.0
        self.lost.reshape(-1)[at] = 0

    def _lose(self, g: np.ndarray, p: int, n: np.ndarray) -> None:
        """Remove up to ``n`` figures of player ``p``'s squad in games ``g`` (``OmahaGame._lose``)."""
        removed = np.minimum(n, self.fig[p][g])
        self.fig[p][g] -= removed
        self.lost[p][g] += removed
        self.stats["american_losses"][g] += removed
        wiped = g[(self.fig[p][g] == 0) & (removed > 0)]
        self.stats["wiped_out"][wiped] += 1
        self._remove(wiped, p)

    def _remove(self, g: np.ndarray, p: int) -> None:
        """The squad leaves the beach; its player may be out of squads (``OmahaGame._remove_squad``)."""
        self.has[p][g] = False
        if self.limit is not None:
            self.out[p][g] |= self.fresh_used[p][g] >= self.limit

    def _end_phase(self, live: np.ndarray) -> None:
        """Exits opening, then victory (``OmahaGame._end_phase``, O17, O20)."""
        live = live[~self.done[live]]
        if not len(live):
            return
        # an exit opens where a bunker is knocked out and the section in front is clear of obstacles
        g = live[self.n_placed[live] - self.n_active[live] > self.n_open[live]]  # a knocked-out bunker's exit shut
        if len(g):
            status = self.status[g]
            knocked = (status == SILENCED) | (status == DESTROYED)
            opening = knocked & (self.obs[g[:, None], self.exit_of] == 0) & ~self.exit_flag[g]
            opened = opening.any(axis=1)
            if opened.any():
                self.exit_flag[g] |= opening
                self.n_open[g] += opening.sum(axis=1)
                first = g[opened & (self.stats["breakthrough_turn"][g] == 0)]
                self.stats["breakthrough_turn"][first] = self.turn
        if self.options["victory"] == "bunkers_only":
            won = self.n_active[live] == 0
        else:
            won = self.n_open[live] == self.n_placed[live]  # every exit open
        winners = live[won]
        self.stats["decisive_turn"][winners] = self.turn
        self._finish(winners, OUTCOMES.index("american win"))
        if self.limit is not None:  # only then is a player ever out of squads
            beaten = live[~won & self.out[:, live].all(axis=0)]
            self._finish(beaten, OUTCOMES.index("german win"))

    def _beaten(self, live: np.ndarray) -> None:
        """``_end_phase`` after a phase that knocks out no bunker and clears no obstacle (the landings, the
        Germans', morale): no exit can open, no American win come, but the Americans may be out of squads."""
        if self.limit is not None:  # only then is a player ever out of squads
            live = live[~self.done[live]]
            beaten = live[self.out[:, live].all(axis=0)]
            self._finish(beaten, OUTCOMES.index("german win"))

    def _morale(self, live: np.ndarray) -> None:
        """A d6 per figure lost this turn, 12 or more sends the squad back (omaha.25-26).

        A check that fails changes only its own squad, so every check owed is known before the first:
        all are rolled at once, a game's in player order from its next dice."""
        r, p = _cells((self._of(self.has, live) & (self._of(self.lost, live) > 0)).T)  # by game, then player
        if len(r):
            g = live[r]
            at = p * self.G + g
            counts = self.lost.reshape(-1)[at]
            rows, first, count = _runs(r)
            games = live[rows]
            ends = np.cumsum(counts)
            totals = np.diff(ends[first + count - 1], prepend=0)  # each game's dice
            _, start = self.dice.ahead(games, totals)
            self.dice.column[games] += totals
            offset = np.arange(int(counts.max()))
            rolled = offset < counts[:, None]
            begin = np.repeat(start - np.concatenate(([0], ends[first[1:] - 1])), count) + ends - counts
            values = self.dice.flat[np.where(rolled, begin[:, None] + offset, begin[:, None])]
            failed = (values * rolled).sum(axis=1) >= self.m.morale_at
            self.stats["sent_back"] += np.bincount(g[failed], minlength=self.G)
            gone = at[failed]
            self.has.reshape(-1)[gone] = False
            if self.limit is not None:
                self.out.reshape(-1)[gone] |= self.fresh_used.reshape(-1)[gone] >= self.limit
        self.lost[:, live] = 0

    # ------------------------------------------------------------------ results
    def snapshot(self, k: int) -> dict[str, Any]:
        """Game ``k``'s beach in plain values: each player's squad and landings, the obstacles, each
        bunker section's status and defenders, the exits open and the statistics."""
        players = []
        for p in range(self.P):
            squad = (int(self.fig[p, k]), float(self.x[p, k]), float(self.y[p, k])) if self.has[p, k] else None
            players.append((squad, int(self.landings[p, k]), int(self.fresh_used[p, k]), bool(self.out[p, k])))
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

    def rows(self) -> list[dict[str, Any]]:
        """Every game's row, as ``montecarlo.play_one`` makes it (the arrays read whole, not a value at a time)."""
        kinds: list[str] = []  # by outcome: "american win" is a "win" of the "american"
        winners: list[str] = []
        for outcome in OUTCOMES:
            side = outcome.removesuffix(" win") if outcome.endswith(" win") else ""
            kinds.append("win" if side else outcome)
            winners.append(side)
        outcomes = self.outcome.tolist()
        stats = {name: values.tolist() for name, values in self.stats.items()}
        turns = ("first_past_wall_turn", "breakthrough_turn", "decisive_turn")
        columns = zip(
            self.indices,
            outcomes,
            self.end_turn.tolist(),
            *(stats[name] for name in turns),
            stats["american_losses"],
            stats["german_losses"],
            stats["sent_back"],
            stats["wiped_out"],
            stats["fresh_squads"],
            self.exit_flag.sum(axis=1).tolist(),
            (self.status == ACTIVE).sum(axis=1).tolist(),
            strict=True,
        )
        return [
            {
                "game": index,
                "outcome": kinds[o],
                "winner": winners[o],
                "turn": turn,
                "first_past_wall_turn": first or None,
                "breakthrough_turn": through or None,
                "decisive_turn": decisive or None,
                "american_losses": american,
                "german_losses": german,
                "sent_back": back,
                "wiped_out": wiped,
                "fresh_squads": fresh,
                "exits_open": exits,
                "bunkers_left": left,
            }
            for index, o, turn, first, through, decisive, american, german, back, wiped, fresh, exits, left in columns
        ]
