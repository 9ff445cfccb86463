"""The Omaha batch path's short cuts for speed, each compared with the long way it replaces over many cases.

``test_omaha_batch.py`` plays whole games against the reference engine; these check one short cut at a
time where a whole game would seldom reach its edge cases.
"""

from __future__ import annotations

import numpy as np
import pytest

from grognard.rulesets import get
from grognard.rulesets.omaha.batch import _Batch

OMAHA = get("omaha")


def test_few_fresh_moves_clear_of_the_band_are_measured_one_by_one_as_the_passes_measure_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``_reach_any`` measures fewer than ``ONE_BY_ONE`` fresh moves clear of the band by ``rules.reach`` one by
    one, not by ``_reach``'s passes: the same points as those passes and the reference, for moves wading up,
    along the wall, out of the water, off the table's edges and past the band, cut short by the allowance or not;
    those points are remembered as the passes' are, and a call with more fresh moves, or one across the band,
    still takes the passes."""
    from grognard.rulesets.omaha import rules
    from grognard.rulesets.omaha.batch import geometry
    from grognard.rulesets.omaha.data import BAND_END_Y, WALL_Y

    rng = np.random.default_rng(21)
    games = 20
    batch = _Batch(OMAHA.resolve({"germans": 2, "water": 7.5}), 1, range(games))
    batch.obs[:] = rng.choice([0, 0, 1, 2], (games, batch.S))
    batch._count_blocking(batch.rows_all)
    n = 1500
    g = rng.integers(0, games, n)
    x = np.round(rng.uniform(0, batch.width, n), 2)
    x[:100] = rng.choice([0.0, 0.01, batch.width - 0.01, batch.width], 100)  # the table's edges
    y = np.round(rng.choice([-7.5, -4.0, -0.5, 0.0, 3.25, 11.0, WALL_Y, BAND_END_Y, BAND_END_Y + 2.5], n), 2)
    tx = np.round(np.clip(x + rng.uniform(-12, 12, n), -3.0, batch.width + 3.0), 2)  # some off the table
    up = y < WALL_Y
    ty = np.where(up, WALL_Y, y)
    ty[:n:3] = np.where(y[:n:3] >= BAND_END_Y, BAND_END_Y + rng.uniform(0, 5, len(ty[:n:3])).round(2), ty[:n:3])
    ty = np.where(up & (rng.random(n) < 0.3), np.round(y - rng.uniform(0, 4, n), 2), ty)  # back into the water
    ty = np.maximum(ty, y.min())
    clear = batch._clear_of_band(y, ty)
    assert clear.all()
    expected = [
        rules.reach(batch._beach(int(g[i])), geometry._Standing(float(x[i]), float(y[i])), float(tx[i]), float(ty[i]))
        for i in range(n)
    ]
    short = sum(point != (tx[i], ty[i]) for i, point in enumerate(expected))
    assert 200 < short < n - 200  # moves cut short (the allowance, the wall, the edges) and not
    # the passes themselves, over every move at once
    px, py, _ = batch._reach(g, x, y, tx, ty)
    assert list(zip(px.tolist(), py.tolist(), strict=True)) == expected
    # one by one: few at a time, as _reach_any meets them
    calls: list[int] = []
    long_way = batch._reach

    def counted(*args: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        calls.append(len(args[0]))
        return long_way(*args)

    batch._reach = counted  # type: ignore[method-assign]  # counts the calls of the passes, measures as ever

    def few_at_a_time(step: int) -> tuple[np.ndarray, ...]:
        """Every move, ``step`` at a time, from nothing remembered; what is remembered then."""
        geometry.REACHED.clear()
        for start in range(0, n, step):
            part = slice(start, start + step)
            mx, my = batch._reach_any(g[part], x[part], y[part], tx[part], ty[part], clear[part])
            assert list(zip(mx.tolist(), my.tolist(), strict=True)) == expected[part]
        table = geometry.REACHED[batch.bounds]
        return table.keys.copy(), table.xs.copy(), table.ys.copy(), table.first.copy(), table.last.copy()

    try:
        step = geometry.ONE_BY_ONE - 1
        monkeypatch.setattr(geometry, "ONE_BY_ONE", 0)  # the long way: every fresh move by the passes
        by_passes = few_at_a_time(step)
        assert len(calls) == -(-n // step)
        calls.clear()
        monkeypatch.undo()
        one_by_one = few_at_a_time(step)
        assert calls == []
        for kept, long_way_kept in zip(one_by_one, by_passes, strict=True):  # remembered as the passes remember
            assert kept.tolist() == long_way_kept.tolist()
        assert (one_by_one[0] >= 0).sum() > 0.99 * n
        mx, my = batch._reach_any(g, x, y, tx, ty, clear)  # read from memory (a forgotten few measured)
        assert list(zip(mx.tolist(), my.tolist(), strict=True)) == expected and calls == []
        geometry.REACHED.clear()
        part = slice(0, geometry.ONE_BY_ONE + 5)  # more fresh moves: the passes
        batch._reach_any(g[part], x[part], y[part], tx[part], ty[part], clear[part])
        assert len(calls) == 1
        across = np.array([WALL_Y]), np.array([BAND_END_Y + 1.0])  # one move across the band: the passes
        batch._reach_any(g[:1], x[:1], across[0], x[:1], across[1], np.zeros(1, dtype=bool))
        assert len(calls) == 2
    finally:
        geometry.REACHED.clear()


def test_a_roll_reads_each_games_dice_as_rows_of_a_window_view_as_die_by_die(monkeypatch: pytest.MonkeyPatch) -> None:
    """``DiceStreams.roll`` reads each game's next dice as one row of a sliding window over the streams, not die
    by die: the same dice (zeros past each count) as reading each die by its own index, roll after roll of
    every count from none to the window, through many refills of the streams."""
    from grognard.rulesets.omaha.batch import streams

    monkeypatch.setattr(streams, "CHUNK", 50)  # refills every few rolls
    games, window = 30, 12
    short_cut = streams.DiceStreams(4, range(games), 6, window)
    long_way = streams.DiceStreams(4, range(games), 6, window)
    rng = np.random.default_rng(5)
    for _ in range(300):
        g = np.sort(rng.choice(games, rng.integers(1, games + 1), replace=False))
        counts = rng.integers(0, window + 1, len(g))
        if rng.random() < 0.2:
            counts[:] = rng.integers(0, window + 1)  # every count alike: no zeros to put in
        _, start = long_way.ahead(g, counts)
        most = int(counts.max())
        offsets = np.arange(most)
        expected = np.where(offsets < counts[:, None], long_way.flat[start[:, None] + offsets], 0)
        long_way.column[g] += counts
        rolled = short_cut.roll(g, counts)
        assert rolled.shape == expected.shape and rolled.tolist() == expected.tolist()
    assert short_cut.column.tolist() == long_way.column.tolist()


def test_the_moves_below_the_wall_worked_out_at_once_equal_the_moves_made_player_by_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``_americans`` works out every move of the squads below the wall at the start of the phase and again only
    where an earlier squad's fight changed what the move depends on: every game's beach after every turn is the
    one of the phase played player by player (``_americans_in_turn``, the long way), and moves were worked out
    again that then differ (a section near cleared, the last bunker knocked out)."""
    from grognard.core.geometry import TOLERANCE
    from grognard.rulesets.omaha.batch.americans import AmericanPhase
    from grognard.rulesets.omaha.data import WALL_Y

    again: list[int] = []  # moves worked out again, and how many of them changed
    long_wades_again = AmericanPhase._wades_again

    def counted(
        self: AmericanPhase,
        g: np.ndarray,
        x: np.ndarray,
        y: np.ndarray,
        mx: np.ndarray,
        my: np.ndarray,
        i: slice,
        *rest: np.ndarray,
    ) -> None:
        before = mx[i].copy(), my[i].copy()
        long_wades_again(self, g, x, y, mx, my, i, *rest)
        again.append(int(((mx[i] != before[0]) | (my[i] != before[1])).sum()))

    def player_by_player(self: AmericanPhase, live: np.ndarray) -> None:
        has = self.has[:, live]
        self._americans_in_turn(live, has, has & (self.y[:, live] < WALL_Y - TOLERANCE))

    def beaches(options: dict[str, object]) -> tuple[list[np.ndarray], list[dict[str, object]]]:
        """Every game's beach after every turn (squads, obstacles, bunkers, exits), and the rows."""
        batch = _Batch(OMAHA.resolve(options), 9, range(100))
        turns: list[np.ndarray] = []
        kept = ("x", "y", "fig", "has", "lost", "obs", "status", "defenders", "exit_flag")
        batch.run(lambda b: turns.extend(getattr(b, name).copy() for name in kept))
        return turns, batch.rows()

    for options in ({}, {"germans": 2, "fresh_squads": 1, "water": 9.5}):
        monkeypatch.setattr(AmericanPhase, "_wades_again", counted)
        at_once = beaches(options)
        monkeypatch.setattr(AmericanPhase, "_americans", player_by_player)
        player_by_player_turns, rows = beaches(options)
        assert rows == at_once[1] and len(player_by_player_turns) == len(at_once[0])
        assert all(np.array_equal(a, b) for a, b in zip(player_by_player_turns, at_once[0], strict=True))
        monkeypatch.undo()
    assert sum(again) > 20, again


def test_a_section_emptied_changes_the_blocking_and_near_codes_as_counting_them_again() -> None:
    """``_emptied`` takes an emptied section's count from the band's ``blocking`` and adds its bit to the
    ``near_code`` of the sections near it, from tables: the same as ``_count_blocking`` counting every section
    again, section after section emptied (obstacles cleared, or unrolled ones found none), at the table's edges."""
    from grognard.rulesets.omaha.batch.mechanics import UNKNOWN

    rng = np.random.default_rng(17)
    games = 60
    short_cut = _Batch(OMAHA.resolve({"germans": 3}), 1, range(games))
    long_way = _Batch(OMAHA.resolve({"germans": 3}), 1, range(games))
    short_cut.obs[:] = rng.choice([0, 1, 2, 3, UNKNOWN], (games, short_cut.S))
    short_cut._count_blocking(short_cut.rows_all)
    emptied = 0
    while (short_cut.obs != 0).any():
        g = np.nonzero((short_cut.obs != 0).any(axis=1) & (rng.random(games) < 0.7))[0]
        section = np.array([rng.choice(np.nonzero(short_cut.obs[k] != 0)[0]) for k in g], dtype=np.int64)
        short_cut.obs[g, section] = 0
        short_cut._emptied(g, section)
        emptied += len(g)
        long_way.obs[:] = short_cut.obs
        long_way._count_blocking(long_way.rows_all)
        assert short_cut.blocking.tolist() == long_way.blocking.tolist()
        assert short_cut.near_code.tolist() == long_way.near_code.tolist()
    assert emptied > games * short_cut.S / 2


def test_the_germans_target_read_from_the_highest_rank_is_argmaxs_row_by_row() -> None:
    """``_Aims`` names each game's target by the highest rank down its players (each rank ends in its squad's
    number): the squad ``argmax`` finds row by row, and whether there is one, for games with every squad, none,
    squads level on height and figures, and as squads are dropped one after another until none is left."""
    from grognard.rulesets.omaha.batch.fire import _Aims

    rng = np.random.default_rng(23)
    batch = _Batch(OMAHA.resolve({}), 1, range(1))
    games = 400
    y = np.round(rng.choice([-3.0, 0.0, 11.5, 24.0, 25.75, 30.0], (batch.P, games)), 2)
    figures = rng.integers(0, 13, (batch.P, games))
    has = rng.random((batch.P, games)) < rng.random(games)  # some games with every squad, some with none
    scores = np.where(has, batch._threat_rank(y) + figures * 100, -1)
    aims = _Aims(scores.copy())
    long_way = scores.T.copy()  # games by players
    while True:
        aim = long_way.argmax(axis=1)
        ok = long_way[np.arange(games), aim] >= 0
        assert aims.aim.tolist() == aim.tolist() and aims.ok.tolist() == ok.tolist()
        if not ok.any():
            break
        r = np.nonzero(ok & (rng.random(games) < 0.5))[0]
        aims.drop(r, aim[r])
        long_way[r, aim[r]] = -1


def test_the_nearest_blocked_exit_is_worked_out_again_only_where_an_exit_changed() -> None:
    """``_exits_changed`` marks a game's blocked exits to be worked out again only where one of them changed
    (a knocked-out bunker's exit found with obstacles or cleared), not at every section emptied or bunker
    knocked out: ``_blocked_exit`` still answers as the nearest blocked exit measured afresh (the left one on a
    tie), event after event, and works them out again for fewer games than it is told of."""
    from grognard.rulesets.omaha.batch.mechanics import ACTIVE, DESTROYED, SILENCED

    rng = np.random.default_rng(29)
    games = 50
    batch = _Batch(OMAHA.resolve({}), 1, range(games))
    batch.status[:] = rng.choice([ACTIVE, ACTIVE, SILENCED, DESTROYED], (games, batch.B))
    batch.obs[:] = rng.choice([0, 1, 2], (games, batch.S))
    every = np.arange(batch.B)
    batch._exits_changed(np.repeat(batch.rows_all, batch.B), np.tile(batch.exit_of, games))
    told = worked = 0
    long_way_neighbours = batch._neighbours

    def counted(ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        nonlocal worked
        worked += len(ok)
        return long_way_neighbours(ok)

    batch._neighbours = counted  # type: ignore[method-assign]
    for _ in range(60):
        g = np.nonzero(rng.random(games) < 0.5)[0]
        b = rng.integers(0, batch.B, len(g))
        knocked = rng.random(len(g)) < 0.5
        batch.status[g[knocked], b[knocked]] = SILENCED
        batch.obs[g[~knocked], batch.exit_of[b[~knocked]]] = rng.choice([0, 1], (~knocked).sum())
        batch._exits_changed(g, batch.exit_of[b])
        told += len(g)
        x = np.round(rng.uniform(0, batch.width, games), 2)
        x[:10] = rng.choice(batch.exit_mid[:-1] + np.diff(batch.exit_mid) / 2, 10)  # midway between two exits
        found = batch._blocked_exit(batch.rows_all, x)
        blocked = (batch.status >= SILENCED) & (batch.obs[:, batch.exit_of] != 0)
        for k in range(games):
            mids = batch.exit_mid[every[blocked[k]]]
            expected = mids[np.argmin(np.abs(mids - x[k]))] if len(mids) else None
            assert (None if np.isnan(found[k]) else float(found[k])) == expected
    assert 0 < worked < told * 0.8, (worked, told)


def test_the_cells_of_a_mask_are_numpys_nonzero() -> None:
    """``fire._cells`` (a turn's squads below the wall, landings, morale checks and bunkers owed fire) gives what
    ``np.nonzero`` gives of a 2-D mask, C-ordered or a transposed view, empty, full, one column wide."""
    from grognard.rulesets.omaha.batch.fire import _cells

    rng = np.random.default_rng(31)
    for shape in ((18, 4096), (7, 1), (1, 9), (0, 5), (300, 18)):
        for share in (0.0, 0.3, 1.0):
            mask = rng.random(shape) < share
            for view in (mask, mask.T, mask[:, ::2]):
                if view.ndim == 2 and view.shape[1]:
                    assert [a.tolist() for a in _cells(view)] == [a.tolist() for a in np.nonzero(view)]
