"""Exact odds, Monte Carlo and sweeps: numbers checked by hand, by the engine itself, and across workers."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from grognard.analysis.montecarlo import Plan, chunks, run_rows, simulate
from grognard.analysis.odds import distribution_rows, table_json
from grognard.analysis.stats import mcnemar, mean, paired_difference, quantile, wilson
from grognard.cli import main
from grognard.core.dice import Gated, SeededDice
from grognard.rulesets.omaha import RULESET
from grognard.rulesets.omaha.analysis import ARTILLERY_KILLS, ARTILLERY_LANDS, odds_tables
from grognard.rulesets.omaha.data import bunker_fire, morale
from odds_check import check
from terminal_driver import cli_env, sigint_as_at_a_terminal

DOCTRINE = {"american": "doctrine", "german": "doctrine"}


def test_every_declared_mechanic_is_a_distribution() -> None:
    tables = odds_tables()
    assert {t.name for t in tables} >= {
        "morale",
        "bunker_fire",
        "artillery_per_call",
        "assault",
        "shooting",
        "deep_water",
        "obstacles",
        "clearing",
        "artillery_given_lands",
    }
    for table in tables:
        for _, mechanic in table.rows:
            assert sum(p for _, p in distribution_rows(mechanic)) == 1, table.name


def test_hand_derived_fractions() -> None:
    assert dict(distribution_rows(bunker_fire(4)))[0] == Fraction(16, 81)  # (2/3)^4
    assert dict(distribution_rows(bunker_fire(1)))[2] == Fraction(1, 9)  # two dice, both 5-6
    assert dict(distribution_rows(morale(2)))[True] == Fraction(1, 36)  # double six
    assert dict(distribution_rows(morale(1)))[False] == 1  # one die never makes 12
    per_call = dict(distribution_rows(Gated(ARTILLERY_LANDS, ARTILLERY_KILLS)))
    assert per_call[0] == Fraction(2, 3) + Fraction(1, 3) * Fraction(1, 16) == Fraction(11, 16)
    table = next(t for t in odds_tables() if t.name == "assault")
    shares = {row["parameter"]: row["outcomes"] for row in table_json(table)["rows"]}
    assert shares[1][-1] == {"outcome": True, "probability": "1/6", "decimal": 0.166667, "key": "assault/1/True"}
    assert Fraction(shares[12][-1]["probability"]) == 1 - Fraction(5, 6) ** 12


def test_every_exact_odd_matches_the_mechanic_rolled_as_play_rolls_it() -> None:
    """Monte Carlo of each mechanic's own roll() (what the engine calls) within 5 standard errors."""
    dice = SeededDice(20261129)
    n = 4000
    for table in odds_tables():
        for param, mechanic in table.rows:
            check(Counter(mechanic.roll(dice, table.name) for _ in range(n)), distribution_rows(mechanic), param)


def test_bunker_fire_in_the_engine_matches_its_exact_odds() -> None:
    """The kills a bunker inflicts in real games follow the exact 4d6 5-6 distribution."""
    exact = dict(distribution_rows(bunker_fire(4)))
    seen: Counter[int] = Counter()
    for seed in range(60):
        game = RULESET.create({"germans": 1}, SeededDice(seed))
        bot = RULESET.bots["doctrine"](np.random.default_rng(seed))
        while not game.is_over and game.turn < 4:
            decision = game.pending()[0]
            action = bot.choose(game, decision)
            for event in game.apply(decision.seat, action):
                if event.kind == "bunker_fire" and event.data["dice"] == 4:
                    seen[event.data["hits"]] += 1
    n = sum(seen.values())
    assert n > 300
    for kills, p in exact.items():
        se = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(seen[kills] / n - float(p)) <= 5 * se, (kills, seen[kills] / n, float(p))


def test_wilson_and_histogram_statistics() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28
    low, high = wilson(10, 10)
    assert high == 1.0 and 0.72 < low < 0.73
    assert wilson(0, 0) == (0.0, 1.0)
    histogram = Counter({3: 1, 5: 2, 9: 1})  # 3 5 5 9
    assert quantile(histogram, 0.5) == 5 and quantile(histogram, 0.0) == 3 and quantile(histogram, 1.0) == 9
    assert quantile(histogram, 0.25) == 4.5 and mean(histogram) == 5.5
    assert quantile(Counter(), 0.5) is None


def test_paired_comparison_mcnemar_and_the_difference_interval() -> None:
    """McNemar's exact test is the two-sided binomial test on the discordant pairs (1 of 10: 22/1024)."""
    assert mcnemar(9, 1) == mcnemar(1, 9) == 2 * 11 / 1024
    assert mcnemar(0, 0) == 1.0 and mcnemar(5, 5) == 1.0 and mcnemar(0, 6) == 2 / 64
    diff, low, high = paired_difference(9, 1, 40)  # +1 nine times, -1 once, 0 thirty times
    assert diff == 0.2
    per_pair = [1.0] * 9 + [-1.0] + [0.0] * 30
    sd = math.sqrt(sum((d - 0.2) ** 2 for d in per_pair) / 39)
    assert abs(high - low - 2 * 1.959963984540054 * sd / math.sqrt(40)) < 1e-12 and low < diff < high
    assert paired_difference(0, 0, 20) == (0.0, 0.0, 0.0) and paired_difference(0, 0, 0) == (0.0, -1.0, 1.0)


def _plan(games: int = 40, seed: int = 7, **options: object) -> Plan:
    return Plan("omaha", RULESET.resolve({"germans": 1, **options}), DOCTRINE, seed, games)


def test_same_seed_same_numbers_whatever_the_number_of_processes() -> None:
    plan = _plan(games=130)  # three chunks, the last one short
    one = simulate(plan, jobs=1)
    two = simulate(plan, jobs=2)
    assert one.to_json() == two.to_json()
    assert one.games == 130 and sum(one.outcomes.values()) == 130
    other = simulate(_plan(games=130, seed=8), jobs=1)
    assert other.to_json() != one.to_json()


def test_rows_arrive_in_game_index_order() -> None:
    seen: list[int] = []
    simulate(_plan(games=100), jobs=2, on_rows=lambda rows: seen.extend(r["game"] for r in rows))
    assert seen == list(range(100))


def test_a_huge_run_starts_at_once_in_bounded_memory() -> None:
    """-n 10**15 once built every chunk's range in a list first (gigabytes before the first game)."""
    assert not isinstance(chunks(10**6), list) and next(iter(chunks(10**15))) == (0, 64)
    huge = Plan("omaha", RULESET.resolve({"germans": 1}), DOCTRINE, 7, 10**15, "reference")
    rows = run_rows(huge, jobs=2)
    first, second = next(rows), next(rows)
    rows.close()
    # one game at a time, the first task is 4 games (its time gives the run's estimate early), then 64 a task
    assert [row["game"] for row in first] == list(range(4))
    assert [row["game"] for row in second] == list(range(4, 68))


def test_a_run_s_first_range_may_be_shorter_and_the_ranges_still_cover_every_game_once() -> None:
    assert list(chunks(10, 4, first=1)) == [(0, 1), (1, 5), (5, 9), (9, 10)]
    assert list(chunks(3, 64, first=4)) == [(0, 3)]
    assert list(chunks(130, 64, first=4)) == [(0, 4), (4, 68), (68, 130)]
    assert list(chunks(130, 64, first=100)) == list(chunks(130, 64)) == [(0, 64), (64, 128), (128, 130)]


def test_no_more_processes_than_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing

    asked: list[int] = []
    real = multiprocessing.get_context

    class Context:
        def __init__(self, method: str | None) -> None:
            self.context = real(method)

        def Pool(self, processes: int, **more: object) -> object:
            asked.append(processes)
            return self.context.Pool(processes=processes, **more)

    monkeypatch.setattr(multiprocessing, "get_context", Context)
    plan = Plan("omaha", RULESET.resolve({"germans": 1}), DOCTRINE, 7, 130, "reference")  # three chunks of 64
    assert simulate(plan, jobs=50).to_json() == simulate(plan, jobs=1).to_json()
    assert asked == [3]


def test_common_random_numbers_across_a_sweep() -> None:
    """Game i has the same dice at every grid point: with an option that cannot matter, identical results."""
    a = simulate(_plan(games=30, markers=True))
    b = simulate(_plan(games=30, markers=False))
    assert a.to_json() == b.to_json()


def test_a_dask_cluster_gives_the_local_answer() -> None:
    distributed = pytest.importorskip("dask.distributed")
    plan = _plan(games=70)
    local = simulate(plan, jobs=1)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        remote = simulate(plan, scheduler=cluster.scheduler_address)
    assert remote.to_json() == local.to_json()


def test_curves_of_the_turn_plot_that_coincide_both_show(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Omaha's game ends with its decisive win: the one curve hid the other (same width, same solid line)."""
    import matplotlib.axes

    drawn: list[tuple[str, object, float]] = []
    real = matplotlib.axes.Axes.step

    def step(self: matplotlib.axes.Axes, *args: object, **kwargs: object) -> object:
        drawn.append((str(kwargs["label"]), kwargs.get("linestyle", "-"), float(kwargs.get("linewidth", 1.5))))  # type: ignore[arg-type]
        return real(self, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "step", step)
    assert main(["simulate", "omaha", "-n", "20", "--jobs", "1", "-o", "germans=1", "--out", str(tmp_path)]) == 0
    turns = {label: (style, width) for label, style, width in drawn if label != "american win"}
    assert turns["end of the game"] != turns["turn of the decisive win"]
    assert len({style for style, _ in turns.values()}) == len(turns)  # every curve its own dash


def test_simulate_command_reports_intervals_and_writes_table_and_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["simulate", "omaha", "-n", "24", "--seed", "3", "--jobs", "1", "-o", "germans=1", "-o", "fresh_squads=1"]
    code = main([*args, "--out", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "Results of 24 games (95% Wilson intervals)" in text
    assert "american win" in text and "german win" in text
    assert "turn of the breakthrough" in text and "American figures lost" in text
    import pyarrow.parquet as pq

    table = pq.read_table(out / "games.parquet")
    assert table.num_rows == 24 and table.column("game").to_pylist() == list(range(24))
    for name in ("turns.png", "win_curve.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["figures"]["games"] == 24
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["figures"]["outcomes"] == summary["figures"]["outcomes"]


def test_sweep_answers_the_fresh_squad_question(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "sweep",
            "omaha",
            "-o",
            "germans=1",
            "-o",
            "fresh_squads=0..1,unlimited",
            "-n",
            "30",
            "--jobs",
            "1",
            "--out",
            str(tmp_path),
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "unlimited" in text and "german win" in text
    rows = (tmp_path / "sweep.csv").read_text().splitlines()
    assert len(rows) == 4 and rows[0].startswith("germans,fresh_squads")
    german = [float(r.split(",")[5]) for r in rows[1:]]  # german win share, by fresh squads 0, 1, unlimited
    assert german[0] > german[1] > german[2] == 0.0
    never = rows[3].split(",")  # no German win in 30 games: share 0, but the interval still reaches 11.4%
    assert never[1] == "unlimited" and never[5:8] == ["0.000000", "0.000000", "0.113513"]
    assert "0.0% [0.0%, 11.4%]" in text  # the table gives the interval of an outcome no game had, not a bare 0
    assert (tmp_path / "sweep.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["simulate", "omaha", "-n", "0"], "-n 0"),
        (["simulate", "omaha", "--jobs", "0"], "--jobs 0"),
        (["simulate", "omaha", "-n", "2", "--jobs", "100000"], "at most 256 processes"),  # not 100,000 forks
        (["simulate", "omaha", "-o", "germans=0"], "'germans'"),
        (["simulate", "omaha", "-o", "nope=1"], "'nope'"),
        (["simulate", "omaha", "--bots", "german=nobody"], "nobody"),
        (["simulate", "chess"], "chess"),
        (["simulate", "omaha", "-n", "2", "--scheduler", "tcp://127.0.0.1:9"], "--scheduler"),
        (["sweep", "omaha", "-o", "fresh_squads=3..1"], "'fresh_squads'"),
        (["sweep", "omaha", "-o", "bogus=1,2"], "'bogus'"),
        (["sweep", "omaha", "-o", "germans=1..12", "-o", "fresh_squads=0..20"], "at most 200"),
        (["odds", "chess"], "chess"),
        (["sweep", "omaha", "-o", "fresh_squads=0..2", "-o", "fresh_squads=4"], "given twice"),  # not the last alone
        (["sweep", "omaha", "-o", "fresh_squads=0,1", "-n", "5", "--out", "/proc/no/such/dir"], "--out"),
        (["simulate", "omaha", "-o", "germans=2", "-o", "germans=4"], "given twice"),
        (["sweep", "b17", "-o", "head_on_tolerance=0..90"], "this one is float 0..90"),  # whole ends, not whole values
        (["sweep", "b17", "-o", "fighter_type=me109..fw190"], "fighter_type=me109,fw190,mixed"),
    ],
)
def test_bad_analysis_input_is_one_line_exit_2(args: list[str], field: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert "Wilson" not in out, "refused before any game is played"
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and field in lines[0], err
    assert "Traceback" not in err


def test_odds_command_prints_tables_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "omaha"]) == 0
    text = capsys.readouterr().out
    assert "Morale check fails" in text and "0.1975" in text
    assert main(["odds", "omaha", "--exact"]) == 0
    assert "16/81" in capsys.readouterr().out
    assert main(["odds", "omaha", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    fire = next(t for t in data["tables"] if t["name"] == "bunker_fire")
    first = fire["rows"][0]
    assert first["parameter"] == "4, 4-12"  # four defenders at a squad of four or more: no kill wasted
    assert first["outcomes"][0] == {
        "outcome": 0,
        "probability": "16/81",
        "decimal": 0.197531,
        "at_most": "16/81",
        "key": "bunker_fire/4, 4-12/0",
    }


def interrupted_simulation(after: float) -> tuple[int | None, str]:
    """``grognard simulate`` on two workers, Ctrl-C sent to its process group ``after`` seconds after both workers
    exist: (its exit code, what it wrote on stderr); (None, ...) if it had not stopped 60 s later."""
    args = [sys.executable, "-m", "grognard", "simulate", "omaha", "-n", "10000000", "--jobs", "2"]
    run = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cli_env(),
                           start_new_session=True, preexec_fn=sigint_as_at_a_terminal)  # fmt: skip
    try:
        children = Path(f"/proc/{run.pid}/task/{run.pid}/children")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(children.read_text().split()) < 2:
            time.sleep(0.001)
        time.sleep(after)
        os.killpg(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        return None, "still running 60 s after Ctrl-C"
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate()
    return run.returncode, err


def test_ctrl_c_stops_a_simulation_in_worker_processes_without_their_tracebacks() -> None:
    """Ctrl-C reaches the whole process group: the workers once printed a traceback each."""
    code, err = interrupted_simulation(after=1.0)  # the workers are playing games
    assert code == 130, err[-2000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-2000:]


def test_ctrl_c_as_the_workers_are_born_stops_the_simulation() -> None:
    """Ctrl-C the moment the workers exist, before they could ignore it: the run stops at once, exit 130, no
    traceback. A worker born with Python's handler died of it, and the run hung (2 times in 3; the test above
    under load, once)."""
    for _ in range(4):
        code, err = interrupted_simulation(after=0.0)
        assert code == 130, err[-2000:]
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-2000:]
