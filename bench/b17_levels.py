"""B-17 levels against the book, paired on the same dice: the requirements of issue 29, item 1.

For each level named and each side, plays ``--games`` games of the level on that side against the book
on the other, and the same games (the same dice seeds: game i rolls ``stream(seed, i, DICE)``, its bots
draw from ``stream(seed, i, BOTS)``, or with ``--apart`` each side's bot from its own
``stream(seed, i, BOTS, k)``, k the side's index, so the book across the table draws the same variety
whatever the level draws) book against book; prints each side's win rate with its Wilson
interval, the paired difference with its 95% interval and McNemar's exact p, and the CPU seconds of the
level's decisions (process time, every decision it answered: median, 95th percentile, most). A level is
one of the rule set's bots or a variant of ``bench/b17_variants.py`` (docs/rules/b17.md, the levels).
Nothing here is asserted by the tests.

    python bench/b17_levels.py --levels beginner hard --games 400 --seed 29 --jobs 1 [--apart]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from grognard.analysis.stats import mcnemar, paired_difference, wilson
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.rulesets import get


def _variants() -> dict[str, Any]:
    """``bench/b17_variants.py``'s ``VARIANTS`` (loaded from its file: this one may be loaded from a test)."""
    spec = importlib.util.spec_from_file_location("b17_variants", Path(__file__).with_name("b17_variants.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.VARIANTS)


VARIANTS = _variants()


def play_one(args: tuple[str, str, int, int, dict[str, Any], bool]) -> tuple[str | None, list[float]]:
    """Game ``index``: ``level`` on ``side`` (``""``: nobody), the book elsewhere; the winner, and the CPU
    seconds of each of the level's decisions. ``apart``: each side's bot draws from its own stream."""
    level, side, seed, index, options, apart = args
    ruleset = get("b17")
    game = ruleset.create(options, SeededDice(stream(seed, index, DICE)))
    bots = {**ruleset.bots, **VARIANTS}
    if apart:
        rngs = [np.random.default_rng(stream(seed, index, BOTS, k)) for k in range(len(ruleset.sides))]
        books = {s: ruleset.bots["book"](rngs[k]) for k, s in enumerate(ruleset.sides)}
        if level:
            books[side] = bots[level](rngs[ruleset.sides.index(side)])
        tried = books.get(side)
    else:
        rng = np.random.default_rng(stream(seed, index, BOTS))
        book = ruleset.bots["book"](rng)
        tried = bots[level](rng) if level else book
        books = {s: book for s in ruleset.sides}
    times: list[float] = []

    class Clocked:
        def choose(self, game: Any, decision: Any) -> Any:
            start = time.process_time()
            action = tried.choose(game, decision)
            times.append(time.process_time() - start)
            return action

    clocked = Clocked()
    result = play_out(
        game, lambda seat: clocked if game.side_of(seat) == side else books[game.side_of(seat)], checked=False
    )
    return result.winner, times


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--levels", nargs="+", default=["beginner", "hard"], help="the B-17 bots, or variants of bench/b17_variants.py"
    )
    parser.add_argument("--sides", nargs="+", default=["american", "german"])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--apart", action="store_true", help="each side's bot draws from its own stream")
    args = parser.parse_args(argv)
    games, seed, apart = args.games, args.seed, args.apart
    streams = "a stream a side" if apart else "one stream"
    print(f"B-17 raid, default options; {games} games a match; seed {seed}; {streams}; {args.jobs} processes")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        base = [w for w, _ in pool.map(play_one, [("", "", seed, i, {}, apart) for i in range(games)], chunksize=4)]
        for side in args.sides:
            k = sum(1 for w in base if w == side)
            low, high = wilson(k, games)
            print(f"  book v book        {side:<9} wins {k:4d}/{games} = {k / games:6.1%} [{low:6.1%}, {high:6.1%}]")
        for level in args.levels:
            for side in args.sides:
                tasks = [(level, side, seed, i, {}, apart) for i in range(games)]
                rows = list(pool.map(play_one, tasks, chunksize=4))
                won = [w for w, _ in rows]
                times = sorted(t for _, ts in rows for t in ts)
                k = sum(1 for w in won if w == side)
                low, high = wilson(k, games)
                gained = sum(1 for a, b in zip(base, won, strict=True) if a != side and b == side)
                lost = sum(1 for a, b in zip(base, won, strict=True) if a == side and b != side)
                diff, dlow, dhigh = paired_difference(gained, lost, games)
                p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
                median = statistics.median(times) if times else 0.0
                print(
                    f"  {level:<8} v book    {side:<9} wins {k:4d}/{games} = {k / games:6.1%} [{low:6.1%}, "
                    f"{high:6.1%}]; paired +{gained} -{lost}: {diff:+6.1%} [{dlow:+6.1%}, {dhigh:+6.1%}], "
                    f"McNemar p = {mcnemar(gained, lost):.3g}; cpu a decision: median {median * 1e3:.1f} ms, "
                    f"p95 {p95 * 1e3:.1f} ms, most {times[-1] * 1e3 if times else 0:.1f} ms ({len(times)})"
                )


if __name__ == "__main__":
    main()
