"""The American phase of many Omaha games side by side: each squad's orders in player order, carried out
(``OmahaGame._move`` and ``_fight``), and what a fight changes on the beach (``engine._Batch``'s arrays)."""

from __future__ import annotations

import numpy as np

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.omaha.batch.doctrine import Doctrine
from grognard.rulesets.omaha.batch.fire import _cells
from grognard.rulesets.omaha.batch.mechanics import (
    ACTIVE,
    ASSAULT,
    CLEAR,
    DESTROYED,
    MOVE,
    SHOOT,
    SILENCED,
    UNKNOWN,
    Mechanics,
)
from grognard.rulesets.omaha.batch.streams import DiceStreams
from grognard.rulesets.omaha.data import WALL_Y


class AmericanPhase(Doctrine):
    """The American phase of ``engine._Batch`` (its arrays: players by games, the beach by games)."""

    G: int
    hidden: bool
    turn: int
    m: Mechanics
    dice: DiceStreams
    has: np.ndarray
    defenders: np.ndarray
    blocks_after: np.ndarray  # see _emptied
    near_bits: np.ndarray
    stats: dict[str, np.ndarray]

    def _count_blocking(self, g: np.ndarray) -> None:
        """``blocking[g, s]``: sections before ``s`` whose obstacles (or unknown count) block the band; and
        which sections near each are clear (``Doctrine._near_codes``)."""
        self.blocking[g, 1:] = np.cumsum(self.obs[g] != 0, axis=1)
        self._near_codes(g)

    def _emptied(self, g: np.ndarray, section: np.ndarray) -> None:
        """Obstacle section ``section`` of game ``g`` (one a game) is empty now, its obstacles or its unknown
        count gone: the band's blocking, the sections near clear and the exits follow (``_count_blocking``'s
        columns and codes changed where that section counts, from tables: ``engine._emptying``)."""
        if len(g):
            self.blocking[g] -= self.blocks_after[section]
            self.near_code[g] |= self.near_bits[section]
            self._exits_changed(g, section)

    def _americans(self, live: np.ndarray) -> None:
        """Each squad's orders in player order (``bots.american_orders``, then ``OmahaGame._move``/``_fight``).

        A squad below the wall only moves (``_wade``), and no squad reads another's place: so every such move
        of the phase is worked out at once from its start, and again in player order only where an earlier
        squad's fight has changed what the move depends on (``_wades_again``); those moves are made at the end.
        With hidden obstacles a squad arriving at the wall may roll the obstacles in front of it, so there each
        player's squads move in turn."""
        # no game ends in this phase (victory is checked after it): live stays live
        has = self.has if len(live) == self.G else self.has[:, live]
        heights = self.y if len(live) == self.G else self.y[:, live]
        below = has & (heights < WALL_Y - TOLERANCE)  # the games' orders are their own: split, they are the same
        p, r = _cells(below)  # by player, then game
        if self.hidden or not len(p):
            self._americans_in_turn(live, has, below)
            return
        g = live[r]
        at = p * self.G + g  # (P, G) arrays read flat
        x, y = self.x.reshape(-1)[at], self.y.reshape(-1)[at]
        mx, my = self._wade(g, x, y)
        # what each move depends on besides its place: whether a bunker holds; which sections near are clear
        near = g * self.S + self._sec6(x)
        holds, code = self.n_active[g] > 0, self.near_code.reshape(-1)[near]
        bounds = np.searchsorted(p, np.arange(self.P + 1)).tolist()
        rest = has & ~below
        for player in range(self.P):
            i = slice(bounds[player], bounds[player + 1])
            if player and i.start < i.stop:  # the first player's squads move before any fight
                self._wades_again(g, x, y, mx, my, i, holds[i], near[i], code[i])
            games = live[rest[player]]
            if len(games):
                self._act(games, player, *self._orders(games, player))
        self.x.reshape(-1)[at] = mx
        self.y.reshape(-1)[at] = np.where(my >= WALL_Y - TOLERANCE, WALL_Y, my)

    def _wades_again(
        self,
        g: np.ndarray,
        x: np.ndarray,
        y: np.ndarray,
        mx: np.ndarray,
        my: np.ndarray,
        i: slice,
        holds: np.ndarray,
        near: np.ndarray,
        code: np.ndarray,
    ) -> None:
        """The moves ``i`` of ``_americans``' wades (``mx``, ``my``) worked out again where the fights since
        have knocked out the last bunker or changed which sections near the squad are clear."""
        again = ((self.n_active[g[i]] > 0) != holds) | (self.near_code.reshape(-1)[near] != code)
        if again.any():
            k = np.nonzero(again)[0] + i.start
            mx[k], my[k] = self._wade(g[k], x[k], y[k])

    def _americans_in_turn(self, live: np.ndarray, has: np.ndarray, below: np.ndarray) -> None:
        """``_americans`` with hidden obstacles: each player's squads below the wall move, then the others' orders."""
        for p in range(self.P):
            wading, rest = live[below[p]], live[has[p] & ~below[p]]
            if len(wading):
                mx, my = self._wade(wading, self.x[p][wading], self.y[p][wading])
                none = np.zeros(len(wading), dtype=np.int64)  # no fight: no bunker or section is read
                self._act(wading, p, np.full(len(wading), MOVE), mx, my, none, none, none)
            if len(rest):
                self._act(rest, p, *self._orders(rest, p))

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
        self.x[p][mg] = mx[is_move]
        self.y[p][mg] = my[is_move]
        past = is_move & (my > WALL_Y + TOLERANCE)
        first = g[past & (self.stats["first_past_wall_turn"][g] == 0)]
        self.stats["first_past_wall_turn"][first] = self.turn
        rolls = kind >= SHOOT  # a fight: SHOOT, CLEAR or ASSAULT
        arrive = None  # without hidden obstacles every section was rolled at the start
        if self.hidden:
            arrive_section = self._sec6(mx)
            arrive = is_move & at & (self.obs[g, arrive_section] == UNKNOWN)
            rolls |= arrive
        if not rolls.any():
            return
        i = np.nonzero(rolls)[0]
        gi = g[i]
        figures = self.fig[p][gi]
        a = None if arrive is None else arrive[i]
        values = self.dice.roll(gi, figures if a is None else np.where(a, 1, figures))
        k = kind[i]
        wins = (values >= self.m.order_at[k][:, None]).sum(axis=1)  # each fight's successes (omaha.16-18)
        # a squad arriving at the wall over an unrolled section rolls its obstacles (omaha.32)
        # a section's obstacles matter to the band and the exits only as none or some: a section found or
        # cleared empty changes them (a section unrolled counts as some)
        if a is not None and a.any():
            section, found = arrive_section[i][a], self.m.obstacle_faces[values[a, 0]]
            self.obs[gi[a], section] = found
            self._emptied(gi[a][found == 0], section[found == 0])
        c = k == CLEAR
        if c.any():
            section = own[i][c]
            at = gi[c] * self.S + section  # obs read and written flat
            before = self.obs.reshape(-1)[at]
            present = np.maximum(before, 0)
            after = present - np.minimum(wins[c], present)
            self.obs.reshape(-1)[at] = after
            emptied = (before != 0) & (after == 0)
            self._emptied(gi[c][emptied], section[emptied])
        s = k == SHOOT if a is None else (k == SHOOT) & ~a
        if s.any():
            b = front[i][s]
            left = self.defenders[gi[s], b]
            killed = np.minimum(wins[s], left)
            self.defenders[gi[s], b] = left - killed
            self.stats["german_losses"][gi[s]] += killed
            emptied = (left - killed == 0) & (self.status[gi[s], b] == ACTIVE)
            self.status[gi[s][emptied], b[emptied]] = SILENCED
            self.stale[gi[s][emptied]] = True
            self._exits_changed(gi[s][emptied], self.exit_of[b[emptied]])
            self.n_active[gi[s][emptied]] -= 1
        q = k == ASSAULT if a is None else (k == ASSAULT) & ~a
        if q.any():
            b = target[i][q]
            success = wins[q] > 0
            gs, bs = gi[q][success], b[success]
            self.stats["german_losses"][gs] += self.defenders[gs, bs]
            self.defenders[gs, bs] = 0
            self.n_active[gs] -= self.status[gs, bs] == ACTIVE
            self.status[gs, bs] = DESTROYED
            self.stale[gs] = True
            self._exits_changed(gs, self.exit_of[bs])
