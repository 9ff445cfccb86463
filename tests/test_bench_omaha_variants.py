"""bench/omaha_variants.py: a side's variants against the book, paired on the same dice (issue 29, item 1).

Nothing about strength is asserted: only that the pairs are paired (with no variant words a side plays the
book's game, and ``hard`` the hard level's, game for game as ``play_one`` plays them) and that a run prints
its figures.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from grognard.analysis.montecarlo import play_one
from grognard.rulesets import get

BENCH = Path(__file__).resolve().parent.parent / "bench" / "omaha_variants.py"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_omaha_variants", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


VARIANTS = _bench()
GAMES = range(12)


@pytest.mark.parametrize(("spec", "level"), [("", "book"), ("hard", "hard")])
@pytest.mark.parametrize("side", ["american", "german"])
def test_a_side_with_no_variant_words_plays_the_level_game_for_game(spec: str, level: str, side: str) -> None:
    omaha = get("omaha")
    options = omaha.resolve(VARIANTS.DEFAULT_OPTIONS)
    levels = {"american": "book", "german": "book", side: level}
    bots = {"american": omaha.bots["book"], "german": omaha.bots["book"], side: VARIANTS.variant(side, spec)}
    for i in GAMES:
        expected = play_one(omaha, options, levels, 29, i)["winner"] or None
        assert VARIANTS.play(options, bots, 29, i) == expected, (side, spec, i)


def test_a_run_prints_each_variant_paired_with_the_book() -> None:
    lines: list[str] = []
    argv = ["--side", "german", "--games", "4", "--seed", "3", "switch=5,outer", "search=2"]
    assert VARIANTS.main(argv, out=lines.append) == 0
    assert lines[0] == "Omaha (germans=1, fresh_squads=1), german variants against the book, 4 paired games, seed 3"
    assert [line.split()[0] for line in lines[1:]] == ["book", "switch=5,outer", "search=2"]
    assert all("McNemar p = " in line for line in lines[2:])
