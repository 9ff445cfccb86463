"""The Omaha batch path plays the same games as the reference engine: row for row, seed for seed.

The batch (``rulesets/omaha/batch/``) is the Monte Carlo fast path: doctrine
against doctrine, many games side by side in numpy arrays. It must play the
rules exactly as ``OmahaGame`` and the doctrine bots do, so every test here
compares whole games: the same seed and index must give the same row (outcome,
winner, end turn, every metric) from both.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from grognard.analysis.montecarlo import Plan, batched, play_one, simulate
from grognard.core.dice import SeededDice
from grognard.rulesets import get
from grognard.rulesets.omaha.batch import _Batch, play_batch, supports

DOCTRINE = {"american": "doctrine", "german": "doctrine"}
OMAHA = get("omaha")

CASES: dict[str, dict[str, Any]] = {
    "standard": {},
    "fresh squad limit": {"fresh_squads": 1, "out_joins_germans": True},
    "no fresh squads": {"fresh_squads": 0},
    "hidden obstacles and deep water": {"germans": 3, "hidden_obstacles": True, "deep_water": True},
    "the drowned shake no one (O6 other reading)": {"germans": 2, "deep_water": True, "drowned_morale": False},
    "bunkers spare squads past the wall (O10 other reading)": {"germans": 2, "bunker_targets": "not_past_wall"},
    "artillery only with a bunker (O11 other reading)": {"germans": 2, "artillery_needs_bunker": True},
    "wide water and ground": {"germans": 2, "water": 12.5, "ground": 9.0},
    "bunkers only": {"germans": 2, "victory": "bunkers_only"},
    "class period": {"germans": 4, "period_turns": 6},
    "turn cap": {"germans": 1, "turn_cap": 5},
}


def reference_rows(options: dict[str, Any], seed: int, start: int, stop: int) -> list[dict[str, Any]]:
    return [play_one(OMAHA, options, DOCTRINE, seed, index) for index in range(start, stop)]


@pytest.mark.parametrize("given", list(CASES.values()), ids=list(CASES))
def test_batch_rows_equal_the_reference_engine(given: dict[str, Any]) -> None:
    options = OMAHA.resolve(given)
    rows = play_batch(options, DOCTRINE, 11, 5, 25)
    assert [row["game"] for row in rows] == list(range(5, 25))
    assert rows == reference_rows(options, 11, 5, 25)


def test_batch_rows_do_not_depend_on_the_chunk() -> None:
    options = OMAHA.resolve({"germans": 2})
    whole = play_batch(options, DOCTRINE, 3, 0, 12)
    parts = play_batch(options, DOCTRINE, 3, 0, 5) + play_batch(options, DOCTRINE, 3, 5, 12)
    assert whole == parts


def test_batch_reads_the_dice_stream_past_its_first_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """With blocks of 40 dice (the reference's) and of 37 (the batch's, drawn as a game needs them)
    every game runs through many blocks: both engines must still agree."""
    from grognard.rulesets.omaha.batch import streams

    monkeypatch.setattr(SeededDice, "BLOCK", 40)
    monkeypatch.setattr(streams, "CHUNK", 37)
    options = OMAHA.resolve({"germans": 2, "deep_water": True})
    assert play_batch(options, DOCTRINE, 5, 0, 8) == reference_rows(options, 5, 0, 8)


def test_the_remembered_moves_change_no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The moves clear of the obstacle band are remembered from batch to batch (by the table's bounds);
    kept few, so that they are forgotten again and again, or none at all, the games are the same."""
    from grognard.rulesets.omaha.batch import geometry

    options = OMAHA.resolve({"germans": 2})
    expected = reference_rows(options, 4, 0, 10)

    def kept() -> int:
        return sum(len(table) for table in geometry.REACHED.values())

    geometry.REACHED.clear()
    geometry.UP.clear()
    assert play_batch(options, DOCTRINE, 4, 0, 10) == expected
    everything = kept()
    monkeypatch.setattr(geometry, "REACHED_KEPT", 7)
    geometry.REACHED.clear()
    assert play_batch(options, DOCTRINE, 4, 0, 10) == expected
    assert 0 < kept() < everything  # forgotten on the way
    assert play_batch(options, DOCTRINE, 4, 0, 10) == expected  # with what the last batch left
    geometry.REACHED.clear()


def test_games_differ_and_finish() -> None:
    """Not one game copied: the rows vary, and every game has an outcome."""
    rows = play_batch(OMAHA.resolve({"germans": 2, "fresh_squads": 2}), DOCTRINE, 1, 0, 40)
    assert len({(row["turn"], row["american_losses"]) for row in rows}) > 10
    assert {row["outcome"] for row in rows} <= {"win", "unfinished"}
    assert {row["winner"] for row in rows} == {"american", "german"}


def test_only_doctrine_against_doctrine_is_batched() -> None:
    assert supports(DOCTRINE)
    assert not supports({"american": "doctrine", "german": "random"})
    with pytest.raises(ValueError, match="doctrine against doctrine"):
        play_batch(OMAHA.resolve({}), {"american": "random", "german": "doctrine"}, 1, 0, 2)
    options = OMAHA.resolve({"germans": 1})
    assert batched(Plan("omaha", options, DOCTRINE, 1, 10))
    assert not batched(Plan("omaha", options, DOCTRINE, 1, 10, engine="reference"))
    assert not batched(Plan("omaha", options, {"american": "random", "german": "doctrine"}, 1, 10))


def test_simulate_gives_the_same_summary_on_either_engine_and_any_jobs() -> None:
    options = OMAHA.resolve({"germans": 2, "fresh_squads": 1})
    fast = simulate(Plan("omaha", options, DOCTRINE, 9, 90), jobs=1)
    split = simulate(Plan("omaha", options, DOCTRINE, 9, 90), jobs=2)
    slow = simulate(Plan("omaha", options, DOCTRINE, 9, 90, engine="reference"), jobs=1)
    assert fast.to_json() == split.to_json() == slow.to_json()
    assert fast.games == 90


def test_cli_engine_choice() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "grognard", "simulate", "omaha", "--jobs", "1", "-o", "germans=1", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=300)

    fast = run("-n", "20")
    assert fast.returncode == 0, fast.stderr
    assert "batch path" in fast.stdout
    slow = run("-n", "20", "--engine", "reference")
    assert slow.returncode == 0 and "one game at a time" in slow.stdout
    # the same games: every line of figures is the same
    assert fast.stdout.splitlines()[3:] == slow.stdout.splitlines()[3:]
    bad = run("-n", "5", "--engine", "fast")
    assert bad.returncode == 2
    assert bad.stderr.strip() == "error: --engine 'fast': choose one of auto, reference"


def reference_snapshot(state: Any) -> dict[str, Any]:
    """``_Batch.snapshot``'s values, read off an ``OmahaState``."""
    players = []
    for player in state.americans:
        squad = player.squad
        players.append(
            (
                (squad.figures, squad.x, squad.y) if squad is not None else None,
                player.landings,
                player.fresh_used,
                player.out,
            )
        )
    stats = {name: value for name, value in state.stats.items() if name != "first_past_wall"}
    return {
        "players": players,
        "obstacles": list(state.obstacles),
        "bunkers": {section: (b.status, b.defenders) for section, b in sorted(state.bunkers.items())},
        "exits": sorted(state.exits_open),
        "stats": stats,
    }


def reference_turns(options: dict[str, Any], seed: int, index: int) -> list[dict[str, Any]]:
    """The reference game's state at the end of every turn it played."""
    from grognard.analysis.montecarlo import game_seed
    from grognard.core.play import play_out

    dice_seq, bot_seq = game_seed(seed, index).spawn(2)
    game = OMAHA.new_game(options, SeededDice(dice_seq))
    bot = OMAHA.bots["doctrine"](np.random.default_rng(bot_seq))
    turns: list[dict[str, Any]] = []

    def listen(event: Any) -> None:
        if event.kind == "turn" and event.data["turn"] > 1:
            turns.append(reference_snapshot(game.state))

    game.listener = listen
    play_out(game, lambda seat: bot, checked=False)
    turns.append(reference_snapshot(game.state))
    return turns


@pytest.mark.parametrize(
    "given", [{"germans": 2}, {"germans": 2, "hidden_obstacles": True, "deep_water": True, "fresh_squads": 2}]
)
def test_the_beach_after_every_turn_equals_the_reference_engine(given: dict[str, Any]) -> None:
    """Not only the results: squads, obstacles, bunkers, exits and statistics at the end of every turn."""
    options = OMAHA.resolve(given)
    games = 12
    batch = _Batch(options, 21, range(games))
    seen: list[list[dict[str, Any]]] = [[] for _ in range(games)]

    def on_turn(b: _Batch) -> None:
        for k in range(games):
            if b.end_turn[k] in (0, b.turn):
                seen[k].append(b.snapshot(k))

    batch.run(on_turn)
    for k in range(games):
        assert len(seen[k]) >= 5
        assert seen[k] == reference_turns(options, 21, k), f"game {k}"


def test_the_batch_reads_its_dice_and_thresholds_from_the_mechanics(monkeypatch: pytest.MonkeyPatch) -> None:
    """Change the mechanics in data.py (bunker fire 4+ and 3 dice for the last man, shooting 5+, morale
    14+): the batch, built anew from data.py, still plays game for game as the reference engine does.
    A threshold typed again in the batch (``>= 5``, ``== 6``) would not follow."""
    import importlib

    from grognard.rulesets.omaha import batch, data

    monkeypatch.setattr(data, "BUNKER_FIRE_TARGET", 4)
    monkeypatch.setattr(data, "BUNKER_DICE_LAST_MAN", 3)
    monkeypatch.setattr(data, "SHOOT_TARGET", 5)
    monkeypatch.setattr(data, "MORALE_TARGET", 14)
    try:
        changed = importlib.reload(batch)
        options = OMAHA.resolve({"germans": 2})
        rows = changed.play_batch(options, DOCTRINE, 7, 0, 12)
        assert rows == reference_rows(options, 7, 0, 12)
        monkeypatch.undo()
        assert rows != reference_rows(options, 7, 0, 12)  # the changed mechanics did change play
    finally:
        monkeypatch.undo()
        importlib.reload(batch)


def test_a_move_straight_up_to_the_wall_is_read_by_its_start_y_and_equals_the_reference() -> None:
    """``_reach_up`` measures a straight-up move once per start's y and reads the rest from a table: from
    any x the reference's own ``reach`` gives that y (wading, on the sand, the water's far edge); a start
    not in hundredths is measured, not kept."""
    from grognard.rulesets.omaha import rules
    from grognard.rulesets.omaha.batch import geometry
    from grognard.rulesets.omaha.data import WALL_Y

    options = OMAHA.resolve({"germans": 2, "water": 7.5})
    geometry.UP.clear()
    batch = _Batch(options, 1, range(1))
    beach = batch._beach(0)
    starts = np.round(np.arange(-7.5, WALL_Y, 0.37), 2)
    for x in (0.0, 4.0, 17.33, 47.99):
        xs = np.full(len(starts), x)
        for _ in range(2):  # measured, then read from the table
            mx, my = batch._reach_up(np.zeros(len(starts), dtype=np.int64), xs, starts)
            expected = [rules.reach(beach, geometry._Standing(x, float(y)), x, WALL_Y) for y in starts]
            assert list(zip(mx.tolist(), my.tolist(), strict=True)) == expected
    kept = geometry.UP[batch.bounds]
    assert np.isfinite(kept).sum() == len(set(starts.tolist()))
    odd = np.array([3.333333])
    _, my = batch._reach_up(np.zeros(1, dtype=np.int64), np.array([4.0]), odd)
    assert my[0] == rules.reach(beach, geometry._Standing(4.0, 3.333333), 4.0, WALL_Y)[1]
    assert np.isfinite(kept).sum() == len(set(starts.tolist()))  # not kept
    geometry.UP.clear()


def test_the_nearest_bunker_by_its_sideways_gap_equals_the_reference() -> None:
    """``_nearest`` ranks the active bunkers by their sideways gap (every footprint level): the same
    section as ``rules.nearest_bunker`` for squads anywhere, on every tie (first in section order) and
    where a gap differs from another only by float noise (measured as the reference does)."""
    from grognard.rulesets.omaha import rules
    from grognard.rulesets.omaha.batch.geometry import _Sited
    from grognard.rulesets.omaha.batch.mechanics import ACTIVE, SILENCED

    rng = np.random.default_rng(5)
    batch = _Batch(OMAHA.resolve({"germans": 2}), 1, range(1))
    n = 3000
    x = np.round(rng.uniform(0, batch.width, n), 2)
    x[:600] = rng.integers(1, batch.B, 600) * 8.0  # midway between two footprints: a tie
    x[600:900] = x[:300] + rng.choice([-1e-12, 1e-12], 300)  # gaps unequal only by float noise
    y = np.round(rng.uniform(-6, 40, n), 2)
    expected, found = [], []
    for i in range(n):
        active = rng.random(batch.B) < 0.5
        active[rng.integers(batch.B)] = True
        batch.status[0] = np.where(active, ACTIVE, SILENCED)
        batch.stale[0] = True
        found.append(int(batch._nearest(np.zeros(1, dtype=np.int64), x[i : i + 1], y[i : i + 1])[0]))
        bunkers = [_Sited(b) for b in range(batch.B) if active[b]]
        expected.append(rules.nearest_bunker(float(x[i]), float(y[i]), bunkers).section)  # type: ignore[arg-type]
    assert found == expected


def test_the_games_generators_hashed_together_are_numpys_own() -> None:
    """``seeds.states`` hashes numpy's ``SeedSequence`` over many games at once: the same four words as
    the sequence's own ``generate_state`` for seeds of one to five words (past the pool), the indices'
    edges and both streams' keys; the generators made from them draw the same dice and the same ties.
    A seed or index that would not share the lanes' shape takes numpy's own path."""
    from grognard.core.dice import BOTS, DICE, game_dice_generator, stream
    from grognard.rulesets.omaha.batch import seeds

    indices = [*range(40), 2**31, 2**32 - 1]
    for seed in (0, 1, 11, 2**32 - 1, 2**32, 2**64 + 7, 2**130 + 12345):
        for tail in ((DICE, 6), (BOTS,), (DICE, 10)):
            words = seeds.states(seed, indices, tail)
            assert words is not None
            for row, index in zip(words, indices, strict=True):
                expected = np.random.SeedSequence(seed, spawn_key=(index, *tail)).generate_state(4, np.uint64)
                assert row.tolist() == expected.tolist(), (seed, tail, index)
    made = seeds.generators(3, range(5, 9), (DICE, 6))
    assert [g.integers(1, 7, 500, dtype=np.int32).tolist() + g.integers(1, 7, 9).tolist() for g in made] == [
        game_dice_generator(3, i, 6).integers(1, 7, 509).tolist() for i in range(5, 9)
    ]  # drawn as int32 (the batch's), the same dice as int64 (SeededDice's)
    ties = seeds.generators(3, range(5, 9), (BOTS,))
    assert [g.integers(3, size=4).tolist() for g in ties] == [
        np.random.default_rng(stream(3, i, BOTS)).integers(3, size=4).tolist() for i in range(5, 9)
    ]
    assert seeds.states(3, [2**32], (DICE, 6)) is None
    far = seeds.generators(3, [2**32], (DICE, 6))[0]
    assert far.integers(1, 7, 50).tolist() == game_dice_generator(3, 2**32, 6).integers(1, 7, 50).tolist()


def test_the_placements_ties_drawn_together_are_the_generators_own_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """``seeds.small_draws``: each game's draws of 2 or 3 choices, read from its generator's outputs at
    once, are what ``generator.integers(n)`` gives one after another; where Lemire's method might draw
    again (forced here by a low product) that game's draws come from its generator itself."""
    from grognard.core.dice import BOTS, stream
    from grognard.rulesets.omaha.batch import seeds

    rng = np.random.default_rng(9)
    counts = rng.integers(1, 8, 300)
    game = np.repeat(np.arange(300), counts)
    sizes = rng.integers(2, 4, len(game))
    indices = [int(i) for i in rng.integers(0, 10**6, 300)]
    expected = []
    for k, n in enumerate(counts.tolist()):
        generator = np.random.default_rng(stream(7, indices[k], BOTS))
        mine = sizes[game == k].tolist()
        expected += [int(generator.integers(m)) for m in mine[:n]]
    assert seeds.small_draws(7, indices, (BOTS,), game, sizes).tolist() == expected
    assert seeds.small_draws(7, indices, (BOTS,), game, np.full(len(game), 2**32 - 5)).tolist() == [
        int(v)
        for k in range(300)
        for v in np.random.default_rng(stream(7, indices[k], BOTS)).integers(2**32 - 5, size=counts[k])
    ]  # large sizes: most products fall low, and those games are drawn by their generators
    with pytest.raises(ValueError, match="from 2"):
        seeds.small_draws(7, indices, (BOTS,), game[:3], np.array([2, 1, 3]))


def test_a_move_across_the_band_is_remembered_and_read_only_where_its_sections_hold_no_obstacle() -> None:
    """``_reach_any`` remembers a move across the obstacle band with the sections the way crosses, and reads
    it again in a game where those hold no obstacle: every point equals the reference's own ``reach``, for
    moves cut short by obstacles or not, measured or read, and after obstacles are found where a remembered
    way crossed none. A second pass over the same moves measures only those obstacles cut short."""
    from grognard.rulesets.omaha import rules
    from grognard.rulesets.omaha.batch import geometry
    from grognard.rulesets.omaha.data import BAND_END_Y, WALL_Y

    rng = np.random.default_rng(12)
    games = 40
    batch = _Batch(OMAHA.resolve({"germans": 2}), 1, range(games))
    batch.obs[:] = np.where(rng.random((games, batch.S)) < 0.8, 0, rng.integers(1, 3, (games, batch.S)))
    batch._count_blocking(batch.rows_all)
    n = 2000
    g = rng.integers(0, games, n)
    x = np.round(rng.uniform(0, batch.width, n), 2)
    y = rng.choice([WALL_Y, WALL_Y + 1.5, WALL_Y + 3.25, BAND_END_Y + 1.0], n)
    tx = np.round(np.clip(x + rng.uniform(-9, 9, n), 0, batch.width), 2)
    ty = rng.choice([WALL_Y, WALL_Y + 2.0, BAND_END_Y, BAND_END_Y + 3.0], n)
    y[:300], ty[:300] = BAND_END_Y + 1.0, BAND_END_Y  # clear of the band: one point for every game
    clear = batch._clear_of_band(y, ty)
    assert 200 < (~clear).sum()
    measured: list[int] = []
    long_way = batch._reach

    def counted(*args: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        measured.append(len(args[0]))
        return long_way(*args)

    batch._reach = counted  # type: ignore[method-assign]  # counts the moves measured, measures them as ever

    def reference() -> list[tuple[float, float]]:
        return [
            rules.reach(batch._beach(int(g[i])), geometry._Standing(float(x[i]), float(y[i])), tx[i], ty[i])
            for i in range(n)
        ]

    geometry.REACHED.clear()
    try:
        passes, short = [], []
        for found in (False, True, True):
            if found:  # obstacles found in sections some remembered ways crossed clear
                batch.obs[rng.random((games, batch.S)) < 0.15] = 1
                batch._count_blocking(batch.rows_all)
            expected = reference()
            # moves short of their targets (cut by obstacles, or by the allowance) bound the moves measured again
            short.append(sum(point != (tx[i], ty[i]) for i, point in enumerate(expected[300:], 300)))
            for _ in range(2):  # measured (or read from the pass before), then read
                measured.clear()
                mx, my = batch._reach_any(g, x, y, tx, ty, clear)
                assert list(zip(mx.tolist(), my.tolist(), strict=True)) == expected
                passes.append(sum(measured))
        assert passes[0] > (~clear).sum() and 0 < passes[1] <= short[0] < (~clear).sum(), (passes, short)
        assert passes[2] > passes[1], passes  # obstacles found: some remembered ways are measured again
    finally:
        geometry.REACHED.clear()


def test_the_cleared_section_near_read_from_a_table_equals_the_reference() -> None:
    """``_cleared_near`` reads the section a squad follows from a table, by x in hundredths and which sections
    near its own are clear (each game's codes, kept as its obstacles change): the same as the doctrine's own
    ``bots._cleared_near`` for squads anywhere across the beach, at the sections' edges and the table's, over
    unrolled sections; a position not in hundredths is measured."""
    from grognard.rulesets.omaha import bots
    from grognard.rulesets.omaha.batch.mechanics import UNKNOWN

    rng = np.random.default_rng(8)
    games = 30
    batch = _Batch(OMAHA.resolve({"germans": 2}), 1, range(games))
    n = 3000
    g = rng.integers(0, games, n)
    x = np.round(rng.uniform(0, batch.width, n), 2)
    x[:400] = rng.integers(0, batch.S + 1, 400) * 6.0 + rng.choice([-0.01, 0.0, 0.01, 3.0], 400)  # edges, middles
    x[:400] = np.clip(x[:400], 0.0, batch.width)
    x[400:450] += 1e-7  # not in hundredths
    for _ in range(3):  # the codes follow the obstacles
        batch.obs[:] = rng.choice([0, 0, 1, 2, UNKNOWN], (games, batch.S))
        batch._count_blocking(batch.rows_all)
        found = batch._cleared_near(g, x)
        expected = [
            bots._cleared_near([None if c == UNKNOWN else int(c) for c in batch.obs[k]], v)
            for k, v in zip(g.tolist(), x.tolist(), strict=True)
        ]
        assert [None if np.isnan(f) else float(f) for f in found] == expected
    assert 300 < (~np.isnan(found)).sum() < n - 300  # sections followed, and none


def test_the_runs_of_a_sorted_array_are_numpys_unique() -> None:
    """``engine._runs`` (a turn's landings and morale checks, game by game) gives what ``np.unique`` gives of a
    sorted array: each value, its first place and its count."""
    from grognard.rulesets.omaha.batch.engine import _runs

    rng = np.random.default_rng(3)
    for size in (1, 2, 7, 500):
        r = np.sort(rng.integers(0, max(size // 3, 1), size))
        runs, expected = _runs(r), np.unique(r, return_index=True, return_counts=True)
        assert [a.tolist() for a in runs] == [a.tolist() for a in expected]
