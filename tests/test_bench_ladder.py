"""bench/ladder.py: the round robin of the levels on the same dice, run on a tiny count (issue 29, item 2).

Its win rates are not asserted (the ladder is a benchmark): only that every
pairing is played on the dice ``grognard simulate`` rolls for the same seed,
that the paired comparisons count the games the rungs played differently,
that the figures do not depend on the processes, and that a bad level is one
line.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

from grognard.analysis.ladder import compare, round_robin
from grognard.analysis.montecarlo import Plan, simulate
from grognard.rulesets import get

BENCH = Path(__file__).resolve().parent.parent / "bench" / "ladder.py"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_ladder", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LADDER = _bench()
ARGS = ["omaha", "--games", "3", "--seed", "11", "--levels", "random", "book"]


def _table(out: str, title: str) -> dict[tuple[str, str], str]:
    """The cells of the Markdown table under ``title``: (row level, column level) -> text."""
    lines = out.split(title + "\n\n", 1)[1].splitlines()
    columns = [c.strip() for c in lines[0].strip("|").split("|")][1:]
    cells = {}
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        row, *rest = (c.strip() for c in line.strip("|").split("|"))
        cells.update({(row, col): text for col, text in zip(columns, rest, strict=True)})
    return cells


def test_the_round_robin_plays_every_pairing_on_simulates_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert LADDER.main(ARGS) == 0
    out = capsys.readouterr().out
    assert out.startswith("Omaha Beach landing (germans=1, fresh_squads=2): the round robin of random, book")
    assert "command: python bench/ladder.py omaha --games 3 --seed 11 --levels random book" in out
    omaha = get("omaha")
    options = omaha.resolve({"germans": 1, "fresh_squads": 2})
    for side in omaha.sides:
        cells = _table(out, f"{side} wins [95% Wilson]")
        assert len(cells) == 4
        for bots in round_robin(omaha.sides, ("random", "book")):
            counted = simulate(Plan("omaha", options, bots, 11, 3, engine="reference"))
            wins = counted.outcomes.get(f"{side} win", 0)
            shown = cells[bots["american"], bots["german"]]
            assert shown.startswith(f"{100 * wins / 3:.1f}% ["), (bots, shown, counted.outcomes)
    for side, other in (("american", "german"), ("german", "american")):
        rung = _table(
            out,
            f"{side}: each rung against the one below, paired on the same dice: points of {side} "
            "wins [95%], games the higher rung won where the lower lost / lost where it won, McNemar p",
        )
        assert set(rung) == {("book - random", f"against {other} random"), ("book - random", f"against {other} book")}
        for text in rung.values():
            assert re.fullmatch(r"[+-]\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\] \+\d/-\d p=[\d.e-]+", text), text


def test_the_figures_do_not_depend_on_the_processes(capsys: pytest.CaptureFixture[str]) -> None:
    def figures(jobs: str) -> str:
        assert LADDER.main([*ARGS, "--jobs", jobs]) == 0
        out = capsys.readouterr().out
        cpu = out.index("CPU seconds a game")
        return out[:cpu].replace(f" --jobs {jobs}", "") + out[out.index("american: each rung") :]

    assert figures("1") == figures("2")


def test_a_comparison_counts_only_the_games_that_differ() -> None:
    paired = compare(["german", "american", None, "german"], ["american", "american", "american", "german"], "american")
    assert paired.counts() == (2, 0, 4)
    assert paired.difference[0] == pytest.approx(0.5) and paired.p == pytest.approx(0.5)
    with pytest.raises(ValueError, match="not paired"):
        compare(["german"], [], "german")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--levels", "book", "grandmaster"], "error: --levels: no bot level 'grandmaster' in omaha; the levels, "),
        (["--scenario", "hill_assault"], "error: --scenario 'hill_assault': omaha has no scenarios"),
        (["-o", "germans=99"], "error: option 'germans': 99 is above the maximum"),  # 9 is a beach: it played
    ],
)
def test_a_bad_level_or_option_is_one_line(args: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert LADDER.main(["omaha", "--games", "1", "--seed", "1", *args]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(said) and not captured.out, captured
