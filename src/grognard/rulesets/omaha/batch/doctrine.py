"""The doctrine bots (``bots.py``) on arrays: the American squads' orders and the German target, one
value per game."""

from __future__ import annotations

import numpy as np

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.omaha.batch.fire import _cells
from grognard.rulesets.omaha.batch.geometry import FLOAT_MARGIN, Geometry
from grognard.rulesets.omaha.batch.mechanics import ACTIVE, ASSAULT, CLEAR, HOLD, MOVE, SHOOT, SILENCED
from grognard.rulesets.omaha.bots import FOLLOW_UP_REACH, MOSTLY_WHOLE
from grognard.rulesets.omaha.data import (
    BAND_END_Y,
    BUNKER_SECTION_WIDTH,
    BUNKER_WIDTH,
    CONTACT,
    OBSTACLE_SECTION_WIDTH,
    WALL_Y,
)
from grognard.rulesets.omaha.rules import CONTACT_FROM_Y

# sections either side of a squad's own whose middle can be within FOLLOW_UP_REACH of it (a middle d
# sections away is at least (d - 1/2) section widths away)
NEAR = int(FOLLOW_UP_REACH / OBSTACLE_SECTION_WIDTH + 0.5)
SIDEWAYS_TIE = 1e-6  # square inches: sideways gaps whose squares are closer are measured as the reference does
FAR = 1e30  # inches: further than anything on a table (a gap to a bunker not active), squared still finite
# bunker sections either side of a squad's whose footprint can be within contact of it (the footprint of
# the section d away is at least d section widths less half a section and half a footprint away)
CONTACT_NEAR = int((CONTACT + TOLERANCE + BUNKER_SECTION_WIDTH / 2 + BUNKER_WIDTH / 2) / BUNKER_SECTION_WIDTH)


class Doctrine(Geometry):
    """``bots.american_orders`` and ``bots.german_target`` for a batch: the state arrays are the batch's
    (``x``, ``y``, ``fig``, ``status``, ...)."""

    P: int
    x: np.ndarray
    y: np.ndarray
    fig: np.ndarray
    status: np.ndarray
    n_active: np.ndarray
    exit_of: np.ndarray
    exit_mid: np.ndarray
    exit_mid_padded: np.ndarray  # exit_mid between -inf and inf (no exit: infinitely far)
    exit_mid_or_nan: np.ndarray  # exit_mid between NaNs
    bunker_cx_padded: np.ndarray  # bunker_cx between zeros (see _nearest)
    mid6: np.ndarray
    # each game's active bunkers as neighbours (``_neighbours``), worked out again only for a game
    # ``stale`` (a bunker of it knocked out since: ``_act``)
    stale: np.ndarray
    blocked: np.ndarray
    exits_stale: np.ndarray
    blocked_before: np.ndarray
    blocked_after: np.ndarray
    exit_bunker: np.ndarray
    active_before: np.ndarray
    active_after: np.ndarray
    # for _cleared_near: each game's sections near each one clear (``_near_codes``), and the answers by code
    near_code: np.ndarray
    near_table: np.ndarray | None

    def _wade(self, g: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``_orders`` of squads at ``(x, y)`` below the wall (most orders of a game), every one a move: to the
        wall, by a cleared section near if a bunker still holds; the point each move ends at. Most go straight
        up (``_reach_up``). A move depends on the squad's place, whether a bunker holds and which sections
        near its own are clear (``near_code``) alone."""
        tx = x.copy()
        i = np.nonzero(self.n_active[g] > 0)[0]  # a bunker holds
        if len(i):
            follow = self._cleared_near(g[i], x[i])
            tx[i] = np.where(np.isnan(follow), x[i], follow)
        up = tx == x
        if up.all():
            mx, my = self._reach_up(g, x, y)
        else:
            mx, my = np.empty_like(x), np.empty_like(y)
            j, k = np.nonzero(up)[0], np.nonzero(~up)[0]
            mx[j], my[j] = self._reach_up(g[j], x[j], y[j])
            mx[k], my[k] = self._reach_clear(g[k], x[k], y[k], tx[k], np.full(len(k), WALL_Y))
        return mx, my

    def _orders(self, g: np.ndarray, p: int) -> tuple[np.ndarray, ...]:
        """The doctrine's orders for player ``p``'s squad, at the wall or past it, in games ``g``
        (``bots.american_orders``; ``_wade`` gives those below the wall): ``(kind, mx, my, target, own,
        front)``, each one value per game: the kind of order, the point a move ends at, the bunker
        assaulted, the obstacle section and the bunker section in front."""
        n = len(g)
        rows = np.arange(n)
        x, y, figures = self.x[p][g], self.y[p][g], self.fig[p][g]
        any_active = self.n_active[g] > 0
        past = y > WALL_Y + TOLERANCE
        at_wall = ~past
        own = self._sec6(x)
        in_front = self.obs.reshape(-1)[g * self.S + own]  # read flat: one index, not two
        kind = np.full(n, HOLD)
        tx = x.copy()
        ty = np.full(n, WALL_Y)
        target = np.full(n, -1)
        follow = np.full(n, np.nan)
        i = rows[any_active & at_wall & (in_front > 0)]
        if len(i):
            follow[i] = self._cleared_near(g[i], x[i])
        # past the wall: assault in contact, else to the nearest active bunker, else to a blocked exit
        contact = np.full(n, -1)
        i = rows[past & (y >= CONTACT_FROM_Y)]
        if len(i):
            contact[i] = self._contact(g[i], x[i], y[i])
        assault = contact >= 0
        kind[assault] = ASSAULT
        target[assault] = contact[assault]
        # at the wall in front of a cleared section: try for the nearest active bunker
        tried = at_wall & (in_front == 0) & any_active
        to_bunker = past & ~assault & any_active
        i = rows[to_bunker | tried]
        if len(i):
            tx[i] = self.bunker_cx[self._nearest(g[i], x[i], y[i])]
            ty[i] = BAND_END_Y
        kind[to_bunker] = MOVE
        to_exit = past & ~assault & ~any_active
        # at the wall otherwise: follow a cleared section near, else shoot or clear, else to a blocked exit
        rest = at_wall & ~tried
        follows = rest & ~np.isnan(follow)
        kind[follows] = MOVE
        tx[follows] = follow[follows]
        rest &= ~follows
        front = self._sec8(x)
        shoot_ok = self.status.reshape(-1)[g * self.B + front] == ACTIVE
        obstacles = rest & (in_front > 0)
        kind[obstacles & shoot_ok & (figures >= MOSTLY_WHOLE)] = SHOOT
        kind[obstacles & ~(shoot_ok & (figures >= MOSTLY_WHOLE))] = CLEAR
        rest &= ~obstacles
        kind[rest & shoot_ok] = SHOOT
        to_exit |= rest & ~shoot_ok
        self._to_blocked_exit(g, x, to_exit, kind, tx)
        # the moves, the tries at a bunker with them
        mx, my = x.copy(), y.copy()
        i = rows[(kind == MOVE) | tried]
        if len(i):
            mx[i], my[i] = self._move_toward(g[i], x[i], y[i], tx[i], ty[i])
        if tried.any():
            # a try that goes nowhere: shoot at the bunker in front, else make for a blocked exit along the wall
            stuck = tried & (mx == x) & (my == y)
            kind[tried & ~stuck] = MOVE
            kind[stuck & shoot_ok] = SHOOT
            lost = stuck & ~shoot_ok
            if lost.any():
                self._to_blocked_exit(g, x, lost, kind, tx)
                i = rows[lost & (kind == MOVE)]
                if len(i):
                    mx[i], my[i] = self._move_toward(g[i], x[i], y[i], tx[i], np.full(len(i), WALL_Y))
        return kind, mx, my, target, own, front

    def _to_blocked_exit(
        self, g: np.ndarray, x: np.ndarray, which: np.ndarray, kind: np.ndarray, tx: np.ndarray
    ) -> None:
        """The squads ``which`` make for the nearest blocked exit, if there is one (``kind``, ``tx`` set)."""
        if which.any():
            i = np.nonzero(which)[0]
            blocked = self._blocked_exit(g[i], x[i])
            found = ~np.isnan(blocked)
            kind[i[found]] = MOVE
            tx[i[found]] = blocked[found]

    def _move_toward(
        self, g: np.ndarray, x: np.ndarray, y: np.ndarray, tx: np.ndarray, ty: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``bots._move_toward``: round obstacles in the band by a waypoint, then ``reach``; a move that
        stays out of the band (most: wading up to the wall, along it, to a waypoint along it) by
        ``_reach_clear``."""
        clear = self._clear_of_band(y, ty)
        if not clear.all():
            j = np.nonzero(~clear & ~(y < WALL_Y - TOLERANCE))[0]
            blocked = j[self._band_blocked(g[j], x[j], y[j], tx[j], ty[j])]
            if len(blocked):
                wx, wy = self._waypoint(g[blocked], x[blocked], y[blocked], tx[blocked], ty[blocked])
                tx, ty = tx.copy(), ty.copy()
                tx[blocked], ty[blocked] = wx, wy
                clear = self._clear_of_band(y, ty)
        return self._reach_any(g, x, y, tx, ty, clear)

    def _clamp_to(self, section: np.ndarray, x: np.ndarray) -> np.ndarray:
        left = section * OBSTACLE_SECTION_WIDTH
        return np.asarray(np.minimum(np.maximum(x, left), left + OBSTACLE_SECTION_WIDTH - 0.01))

    def _waypoint(
        self, g: np.ndarray, x: np.ndarray, y: np.ndarray, tx: np.ndarray, ty: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``bots._waypoint`` on arrays: most squads stand over a cleared section of the band (or at the
        wall before one) and leave it on the target's side; only the others look along the band."""
        own = self._sec6(x)
        far = np.where(ty >= BAND_END_Y, BAND_END_Y, WALL_Y)
        own_clear = (y < BAND_END_Y) & (self.obs.reshape(-1)[g * self.S + own] == 0)
        wx, wy = self._clamp_to(own, tx), far
        j = np.nonzero(~own_clear)[0]
        if len(j):  # along the band's edge to the cleared section best for both ends, or across it there
            x, y, tx, own = x[j], y[j], tx[j], own[j]
            clear = self.obs[g[j]] == 0
            score = np.abs(x[:, None] - self.mid6[None, :]) + np.abs(tx[:, None] - self.mid6[None, :])
            best = np.where(clear, score, np.inf).argmin(axis=1)
            along = own != best
            any_clear = clear.any(axis=1)
            wx[j] = np.where(any_clear, np.where(along, self._clamp_to(best, x), self._clamp_to(best, tx)), x)
            wy[j] = np.where(any_clear & ~along, far[j], y)
        return wx, wy

    def _cleared_near(self, g: np.ndarray, x: np.ndarray) -> np.ndarray:
        """``bots._cleared_section_near``: x of the nearest cleared section's middle within 8" sideways, else NaN.

        Only the sections within ``NEAR`` of the squad's own can have their middle that near (the others'
        middles are further than 8"), so the answer depends on ``x`` and which of those sections are
        clear alone: each game keeps that as one code a section (``near_code``, bit ``NEAR + step`` for the
        section ``step`` away clear), and the answer of every code and x in hundredths of an inch is read
        from a table (``_near_table``, made by :meth:`_nearest_cleared`); a position not in hundredths
        (none is) is measured."""
        own = self._sec6(x)
        code = self.near_code.reshape(-1)[g * self.S + own]
        table = self._near_table()
        whole = np.rint(x * 100.0)
        columns = table.shape[1]
        exact = (whole / 100.0 == x) & (whole >= 0) & (whole < columns)
        found: np.ndarray = table.reshape(-1)[code * columns + np.where(exact, whole, 0).astype(np.int64)]
        if not exact.all():
            odd = np.nonzero(~exact)[0]
            found[odd] = self._nearest_cleared(x[odd], own[odd], self._near_clear(g[odd], own[odd]))
        return found

    def _near_table(self) -> np.ndarray:
        """``_cleared_near`` of every code (rows) and every x in hundredths across the table (columns)."""
        if self.near_table is None:
            x = np.arange(round(self.width * 100.0) + 1) / 100.0
            own = self._sec6(x)
            section = own[:, None] + np.arange(-NEAR, NEAR + 1)[None, :]
            on_table = (section >= 0) & (section < self.S)
            bits = np.arange(2 * NEAR + 1)
            rows = [
                self._nearest_cleared(x, own, on_table & ((code >> bits) & 1 == 1)) for code in range(2 << 2 * NEAR)
            ]
            self.near_table = np.array(rows)
        return self.near_table

    def _near_codes(self, g: np.ndarray) -> None:
        """``near_code`` of games ``g``: for each section, which sections from ``NEAR`` before it to ``NEAR``
        after it are on the table and clear of obstacles (bit ``NEAR + step``)."""
        clear = (self.obs[g] == 0).astype(np.int64)
        code = clear << NEAR
        for step in range(1, NEAR + 1):
            code[:, step:] |= clear[:, :-step] << (NEAR - step)  # the section ``step`` before
            code[:, :-step] |= clear[:, step:] << (NEAR + step)  # the section ``step`` after
        self.near_code[g] = code

    def _near_clear(self, g: np.ndarray, own: np.ndarray) -> np.ndarray:
        """Whether each section from ``NEAR`` before ``own`` to ``NEAR`` after is on the table and clear, in
        games ``g`` (n, 2 * NEAR + 1)."""
        section = own[:, None] + np.arange(-NEAR, NEAR + 1)[None, :]
        on_table = (section >= 0) & (section < self.S)
        section = np.minimum(np.maximum(section, 0), self.S - 1)
        return np.asarray(on_table & (self.obs[g[:, None], section] == 0))

    def _nearest_cleared(self, x: np.ndarray, own: np.ndarray, clear: np.ndarray) -> np.ndarray:
        """``_cleared_near`` worked out, given which sections near each squad's own are clear (``_near_clear``)."""
        best, least = np.full(len(x), -1), np.full(len(x), np.inf)
        for column, step in enumerate(range(-NEAR, NEAR + 1)):  # in section order: a tie keeps the first
            section = np.minimum(np.maximum(own + step, 0), self.S - 1)
            gap = np.abs(self.mid6[section] - x)
            better = clear[:, column] & (gap <= FOLLOW_UP_REACH) & (gap < least)
            best, least = np.where(better, section, best), np.where(better, gap, least)
        found = (best >= 0) & (best != own)
        return np.where(found, self.mid6[np.maximum(best, 0)], np.nan)

    def _blocked_exit(self, g: np.ndarray, x: np.ndarray) -> np.ndarray:
        """``bots._blocked_exit``: x in front of the nearest knocked-out bunker whose exit holds obstacles, else NaN.

        The exits' middles run left to right, so the nearest blocked one is the last at or left of ``x``
        or the first right of it (the left one on a tie, first in section order): each game's blocked
        exits are kept as neighbours (``_neighbours``), worked out again once one of them changes."""
        d = g[self.exits_stale[g]]
        if len(d):
            self.blocked_before[d], self.blocked_after[d] = self._neighbours(self.blocked[d])
            self.exits_stale[d] = False
        k = np.searchsorted(self.exit_mid, x, side="right")  # the exits whose middle is at or left of x
        at = g * (self.B + 1) + k
        left, right = self.blocked_before.reshape(-1)[at], self.blocked_after.reshape(-1)[at]
        left_gap = x - self.exit_mid_padded[left + 1]  # no exit (-1, B) is infinitely far
        right_gap = self.exit_mid_padded[right + 1] - x
        best = np.where(left_gap <= right_gap, left, right)  # -1 when neither is found
        found: np.ndarray = self.exit_mid_or_nan[best + 1]
        return found

    def _exits_changed(self, g: np.ndarray, section: np.ndarray) -> None:
        """``blocked``: whether each bunker is knocked out with obstacles (or unrolled ones) in its exit,
        kept for the obstacle sections ``section`` of games ``g`` whose obstacles or bunker just changed."""
        b = self.exit_bunker[section]
        is_exit = b >= 0
        g, b, section = g[is_exit], b[is_exit], section[is_exit]
        blocked = (self.status[g, b] >= SILENCED) & (self.obs[g, section] != 0)
        changed = self.blocked[g, b] != blocked  # most change nothing (an active bunker's exit cleared, ...)
        self.blocked[g, b] = blocked
        self.exits_stale[g[changed]] = True

    def _nearest(self, g: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The nearest active bunker's section (first in section order on a tie), -1 if none.

        Every footprint's front and back are level, so a squad is as far from each sideways as ``y`` makes
        it: the nearest is the one nearest sideways (``dx``), with no square root; and of the bunkers left
        of the squad's section the last active is the nearest, of those right of it the first. Distinct
        sideways gaps differ by hundredths of an inch, whose distances differ far beyond a last bit; two
        gaps equal but for float noise (their squares within 1e-6) are measured by the reference's own
        distance, over every active bunker."""
        self._fresh(g)
        s = self._sec8(x)
        at = g * (self.B + 1) + s
        own = np.where(self.status.reshape(-1)[g * self.B + s] == ACTIVE, s, -1)
        before, after = self.active_before.reshape(-1)[at], self.active_after.reshape(-1)[at + 1]
        half = BUNKER_WIDTH / 2
        # each candidate's gap, one array each (in section order), FAR where there is none (-1, or B after)
        gaps = []
        for candidate, there in ((before, before >= 0), (own, own >= 0), (after, after < self.B)):
            centre = self.bunker_cx_padded[candidate + 1]
            gaps.append(np.where(there, np.maximum(np.maximum(centre - half - x, 0.0), x - (centre + half)), FAR))
        best, low = before.copy(), gaps[0]
        for candidate, gap in ((own, gaps[1]), (after, gaps[2])):  # a tie keeps the first, as argmin does
            nearer = gap < low
            best, low = np.where(nearer, candidate, best), np.where(nearer, gap, low)
        square = low * low
        near_tie = np.zeros(len(g), dtype=bool)
        for gap in gaps:
            near_tie |= (gap * gap - square < SIDEWAYS_TIE) & (gap != low)
        for i in np.nonzero(near_tie)[0]:  # two bunkers equally near but for float noise: measure as the reference
            active = self.status[g[i]] == ACTIVE
            exact = [self._exact_distance(x[i], y[i], b) if active[b] else np.inf for b in range(self.B)]
            best[i] = int(np.argmin(exact))
        return np.where(low < FAR, best, -1)

    def _fresh(self, g: np.ndarray) -> None:
        """The neighbours of the games ``g`` whose bunkers changed, worked out again."""
        d = g[self.stale[g]]
        if len(d):
            self.active_before[d], self.active_after[d] = self._neighbours(self.status[d] == ACTIVE)
            self.stale[d] = False

    def _neighbours(self, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Of each row's sections ``ok``: at column ``s`` (0 to B), the last before ``s`` (-1 if none) and
        the first at or after it (``B`` if none)."""
        n, index = len(ok), np.arange(self.B)
        before = np.full((n, self.B + 1), -1, dtype=np.int64)
        before[:, 1:] = np.maximum.accumulate(np.where(ok, index, -1), axis=1)
        after = np.full((n, self.B + 1), self.B, dtype=np.int64)
        after[:, :-1] = np.minimum.accumulate(np.where(ok, index, self.B)[:, ::-1], axis=1)[:, ::-1]
        return before, after

    def _contact(self, g: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """``OmahaGame.bunker_in_contact``: the bunker in front if in contact, else the first in contact; -1.

        Only the bunkers within ``CONTACT_NEAR`` sections of the one in front can be (none: a
        neighbour's footprint is 2.5" sideways from the squad's section), so only those are measured."""
        front = self._sec8(x)
        near = front[:, None] + np.arange(-CONTACT_NEAR, CONTACT_NEAR + 1)[None, :]  # in section order
        on_table = (near >= 0) & (near < self.B)
        near = np.minimum(np.maximum(near, 0), self.B - 1)
        active = on_table & (self.status[g[:, None], near] == ACTIVE)
        distance = self._bunker_distance(x, y, near)
        limit = CONTACT + TOLERANCE
        touching = active & (distance <= limit)
        for i, j in zip(*_cells(active & (np.abs(distance - limit) < FLOAT_MARGIN)), strict=True):
            touching[i, j] = self._exact_distance(x[i], y[i], near[i, j]) <= limit
        first = np.where(touching.any(axis=1), near[np.arange(len(g)), touching.argmax(axis=1)], -1)
        chosen = np.where(touching[:, CONTACT_NEAR], front, first)
        return np.where(y >= CONTACT_FROM_Y, chosen, -1)
