"""The German phase of many Omaha games side by side: bunker fire in section order, then artillery by
German (``OmahaGame``'s phase, ``bots.german_target``), on the batch's arrays (``engine._Batch``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.omaha.batch.mechanics import ACTIVE, Mechanics
from grognard.rulesets.omaha.batch.streams import DiceStreams
from grognard.rulesets.omaha.data import SECTIONS_PER_GERMAN, WALL_Y


def _runs(r: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(r, return_index=True, return_counts=True)`` of ``r`` sorted (not empty), without sorting it
    again: each run's value, where it starts and how long it is."""
    starts = np.flatnonzero(np.concatenate(([True], r[1:] != r[:-1])))
    return r[starts], starts, np.diff(np.append(starts, len(r)))


def _cells(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero`` of a 2-D ``mask`` (its rows and columns, in its C order: by row, then column) through
    ``flatnonzero`` of a C-ordered copy: numpy's ``nonzero`` of a 2-D array keeps a multi-index element by
    element, some three times the cost."""
    flat = np.flatnonzero(np.ascontiguousarray(mask))
    columns = mask.shape[1]
    return flat // columns, flat % columns


NUMBERS = 100  # a rank's last two digits are NUMBERS - 1 less the squad's number (``GermanFire._threat_rank``)


class _Aims:
    """The German phase's threat of every squad of the games it plays (``scores``, players by games; -1:
    no squad, or not a target) and each game's target: ``aim`` (the squad of highest threat), ``ok``
    (whether there is one). Kept through the phase; a squad dropped (wiped out) makes its game aim again.

    A game's ranks are distinct, each ending in its squad's number (``_threat_rank``), so the highest rank of
    each game (a maximum down the players, over all games at once) names its squad: no ``argmax`` row by row."""

    def __init__(self, scores: np.ndarray) -> None:
        self.scores = scores  # players by games (the caller's own array, changed by ``drop``)
        best = scores.max(axis=0)
        self.aim = NUMBERS - 1 - best % NUMBERS  # none: -1 names squad 0, as argmax of only -1 does
        self.ok = best >= 0

    def drop(self, r: np.ndarray, p: np.ndarray) -> None:
        """Squads ``p`` of rows ``r`` are no target any more; those rows aim again."""
        self.scores[p, r] = -1
        best = self.scores[:, r].max(axis=0)
        self.aim[r] = NUMBERS - 1 - best % NUMBERS
        self.ok[r] = best >= 0


class GermanFire:
    """The German phase of ``engine._Batch`` (its arrays: players by games, the beach by games)."""

    G: int
    P: int
    B: int
    germans: int
    limit: Any
    fire_past_wall: bool
    needs_bunker: bool
    m: Mechanics
    dice: DiceStreams
    done: np.ndarray
    has: np.ndarray
    fig: np.ndarray
    lost: np.ndarray
    y: np.ndarray
    out: np.ndarray
    fresh_used: np.ndarray
    status: np.ndarray
    defenders: np.ndarray
    stats: dict[str, np.ndarray]

    def _of(self, values: np.ndarray, live: np.ndarray) -> np.ndarray:
        """``values[:, live]`` of a players-by-games array, to be read only: the array itself while every game
        is live (the early turns, the busiest), no copy gathered."""
        return values if len(live) == self.G else values[:, live]

    def _threat_rank(self, y: np.ndarray) -> np.ndarray:
        """How the Germans rank squads at heights ``y`` (players by games), but for their figures, which
        count a hundred each (``bots.german_target``): furthest up, then most figures, then the lowest
        number; every rank is positive, and ends in ``NUMBERS - 1`` less the squad's number (``_Aims``)."""
        if self.P > NUMBERS:
            raise ValueError(f"the Omaha batch path ranks at most {NUMBERS} squads a game")
        return (np.round(y * 100).astype(np.int64) + 100_000) * 10_000 + (NUMBERS - 1 - np.arange(self.P))[:, None]

    def _germans(self, live: np.ndarray) -> None:
        """Bunker fire in section order, then artillery by German (omaha.19-24, ``bots.german_target``).

        Each weapon fires at the squad of highest threat it may target: ``anywhere`` and ``spared`` (squads
        not past the wall) hold every squad's threat (``_threat_rank`` and its figures; -1 for no squad or
        one not a target). A squad's rank counts its figures at the start of the turn's fire (those left and
        those lost this turn, drowned included) and stays for the turn, unless the squad is wiped out: so
        each game's target is worked out once (``_Aims``), and again only in a game whose target is gone."""
        live = live[~self.done[live]]
        if not len(live):
            return
        status = self.status if len(live) == self.G else self.status[live]
        fires = status == ACTIVE  # owed by bunkers active now; (n, B)
        y = self._of(self.y, live)
        # no squad moves in this phase; a squad's figures at the start of the fire (left and lost this turn)
        threat = self._threat_rank(y) + (self._of(self.fig, live) + self._of(self.lost, live)) * 100
        has = self._of(self.has, live)
        anywhere = _Aims(np.where(has, threat, -1))
        spared = _Aims(np.where(has & ~(y > WALL_Y + TOLERANCE), threat, -1))  # the artillery's (omaha.23-24)
        bunkers = anywhere if self.fire_past_wall else spared  # RULINGS O10
        # the bunkers owed fire, by game then section (their defenders stay through the phase), a round at a
        # time: every game's first, then every game's second, ... (a game's in section order, as its dice come;
        # the games' fire is their own); a game whose squads are all wiped out on the way has no target left
        # (``ok``), and its later bunkers fire not
        row, section = _cells(fires & bunkers.ok[:, None])
        defenders = self.defenders.reshape(-1)[live[row] * self.B + section]
        first, count = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        if len(row):
            _, first, count = _runs(row)  # each game's bunkers owed fire: where they start, how many
        for k in range(int(count.max(initial=0))):
            chosen = first[count > k] + k  # each game's k-th bunker (of those with so many), by game
            r, left = row[chosen], defenders[chosen]
            ok = bunkers.ok[r]
            if not ok.all():
                r, left = r[ok], left[ok]
            if not len(r):
                continue
            g, p = live[r], bunkers.aim[r]
            kills = (self.dice.roll(g, self.m.fire_dice[left]) >= self.m.fire_target[left][:, None]).sum(axis=1)
            self._hit(r, g, p, kills, anywhere, spared)
        every = np.arange(len(live))
        for k in range(self.germans):
            r = every
            if self.needs_bunker:  # RULINGS O11 read the other way (OmahaGame.calls_artillery)
                own = slice(SECTIONS_PER_GERMAN * k, SECTIONS_PER_GERMAN * (k + 1))
                r = r[fires[:, own].any(axis=1)]
            r = r[spared.ok[r]]
            if not len(r):
                continue
            g = live[r]
            lands = self.dice.roll_one(g) >= self.m.lands_at
            r, g = r[lands], g[lands]
            if not len(g):
                continue
            dice = np.full(len(g), self.m.kill_dice, dtype=np.int64)
            kills = (self.dice.roll(g, dice) >= self.m.kill_at).sum(axis=1)
            self._hit(r, g, spared.aim[r], kills, anywhere, spared)

    def _hit(self, r: np.ndarray, g: np.ndarray, p: np.ndarray, kills: np.ndarray, *aims: _Aims) -> None:
        """Squads ``p`` of games ``g`` (rows ``r`` of the phase's ``aims``) lose ``kills`` figures; a squad
        wiped out is no one's target any more."""
        wiped = self._lose_each(g, p, kills)
        if wiped.any():
            for aim in aims:
                aim.drop(r[wiped], p[wiped])

    def _lose_each(self, g: np.ndarray, p: np.ndarray, n: np.ndarray) -> np.ndarray:
        """``_lose`` with a player per game; whether each squad is wiped out."""
        at = p * self.G + g  # (P, G) arrays read flat: one index, not two
        fig, lost = self.fig.reshape(-1), self.lost.reshape(-1)
        before = fig[at]
        removed = np.minimum(n, before)
        left = before - removed
        fig[at] = left
        lost[at] += removed
        self.stats["american_losses"][g] += removed
        wiped: np.ndarray = (left == 0) & (removed > 0)
        if wiped.any():
            gw, aw = g[wiped], at[wiped]
            self.stats["wiped_out"][gw] += 1
            self.has.reshape(-1)[aw] = False
            if self.limit is not None:
                self.out.reshape(-1)[aw] |= self.fresh_used.reshape(-1)[aw] >= self.limit
        return wiped
