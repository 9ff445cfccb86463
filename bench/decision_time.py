"""CPU time a bot level takes a decision: the median and the 95th percentile over whole games.

Plays N games of the level on each side against the book (game i's dice and
bots' generators from the seed and i alone, as ``bench/ladder.py``), times
each of the level's decisions with ``time.process_time`` (the process's CPU
time, so a machine shared with other work reads about right) and prints, per
side, the decisions timed, their median, 95th percentile and maximum.
Nothing here is asserted by the tests.

    python bench/decision_time.py RULESET --level hard --games N --seed S [-o NAME=VALUE] [--scenario S]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.rulesets import get

DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {"omaha": {"germans": 1, "fresh_squads": 1}}


def timed_game(name: str, options: dict[str, Any], level: str, side: str, seed: int, index: int) -> list[float]:
    """One game of ``level`` playing ``side`` against the book: the CPU seconds of each of its decisions."""
    ruleset = get(name)
    game = ruleset.create(options, SeededDice(stream(seed, index, DICE)))
    mine = ruleset.bots[level](np.random.default_rng(stream(seed, index, BOTS, 0)))
    book = ruleset.bots["book"](np.random.default_rng(stream(seed, index, BOTS, 1)))
    spent: list[float] = []

    class Timed:
        def choose(self, game: Any, decision: Any) -> Any:
            start = time.process_time()
            action = mine.choose(game, decision)
            spent.append(time.process_time() - start)
            return action

    timed = Timed()
    play_out(game, lambda seat: timed if game.side_of(seat) == side else book, checked=False)
    return spent


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", help="omaha, b17 or skirmish")
    parser.add_argument("--level", default="hard", help="the level timed (default hard)")
    parser.add_argument("--games", type=int, required=True, help="games a side")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--scenario", default=None, help="a skirmish scenario")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option")
    args = parser.parse_args(argv)
    ruleset = get(args.ruleset)
    options = dict(DEFAULT_OPTIONS.get(args.ruleset, {}))
    if args.scenario is not None:
        options["scenario"] = args.scenario
    for given in args.option:
        key, _, value = given.partition("=")
        options[key] = ruleset.resolve({key: value})[key] if key != "scenario" else value
    shown = ", ".join(f"{k}={v}" for k, v in options.items())
    print(f"{ruleset.title} ({shown}); {args.level} against book, {args.games} games a side; seed {args.seed}")
    for side in ruleset.sides:
        times = [
            t for i in range(args.games) for t in timed_game(args.ruleset, options, args.level, side, args.seed, i)
        ]
        ms = np.array(times) * 1000
        print(
            f"  {side:<9} {len(ms):6d} decisions  median {np.median(ms):8.2f} ms  p95 {np.percentile(ms, 95):8.2f} ms"
            f"  max {ms.max():8.2f} ms"
        )


if __name__ == "__main__":
    main()
