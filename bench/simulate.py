"""Monte Carlo speed of the standard Omaha game, and the memory a long run holds.

Prints, from one run:

- games per second on one core on the batch path (doctrine against doctrine,
  side by side in numpy arrays; the path ``grognard simulate`` takes), for
  ``--games`` standard games (6 German, 18 American players, no record);
- games per second on one core of the reference engine (one game at a time,
  the fast path of ``Game.apply``), for ``--reference-games`` games;
- for each, the ratio of the time per game to the dice floor (numpy drawing
  as many dice as a game rolls, in one call);
- the peak resident memory of a ``--memory-games`` run in ``--jobs``
  processes, which stays flat because rows are reduced into integer counts as
  they arrive (try ``--memory-games 1000000``).

Nothing here is asserted by the tests (they check that both paths give the same games).

    python bench/simulate.py [--games N] [--reference-games R] [--memory-games M] [--jobs K]
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from grognard.analysis.montecarlo import Plan, default_jobs, play_one, simulate
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.rulesets import get

DOCTRINE = {"american": "doctrine", "german": "doctrine"}


def dice_per_game(games: int) -> float:
    """The d6 a standard doctrine game rolls, on average over ``games`` games."""
    ruleset = get("omaha")
    options = ruleset.resolve({})
    total = 0
    for index in range(games):
        counter = SeededDice(stream(1, index, DICE))
        game = ruleset.new_game(options, counter)
        bot = ruleset.bots["doctrine"](np.random.default_rng(stream(1, index, BOTS)))
        play_out(game, lambda seat, bot=bot: bot, checked=False)
        total += counter.drawn[6]
    return total / games


def dice_floor(count: int, repeats: int = 200) -> float:
    """Seconds numpy takes to draw ``count`` d6 in one call."""
    rng = np.random.default_rng(2)
    start = time.perf_counter()
    for _ in range(repeats):
        rng.integers(1, 7, size=count)
    return (time.perf_counter() - start) / repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--reference-games", type=int, default=100)
    parser.add_argument("--memory-games", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    args = parser.parse_args()
    ruleset = get("omaha")
    options = ruleset.resolve({})
    dice = dice_per_game(20)
    floor = dice_floor(round(dice))

    start = time.perf_counter()
    summary = simulate(Plan("omaha", options, DOCTRINE, 1, args.games), jobs=1)
    batch = (time.perf_counter() - start) / summary.games

    start = time.perf_counter()
    for index in range(args.reference_games):
        play_one(ruleset, options, DOCTRINE, 1, index)
    reference = (time.perf_counter() - start) / args.reference_games

    print("standard Omaha game (6 German, 18 American players), doctrine bots, no record")
    print(f"  dice floor: {dice:.0f} d6 a game drawn in one numpy call take {floor * 1e6:.1f} us")
    print(
        f"  batch path, one core, {args.games} games: {1 / batch:,.0f} games/s ({batch * 1000:.3f} ms a game); "
        f"time per game / dice floor = {batch / floor:,.0f}"
    )
    print(
        f"  reference engine, one core, {args.reference_games} games: {1 / reference:,.1f} games/s "
        f"({reference * 1000:.2f} ms a game); time per game / dice floor = {reference / floor:,.0f}"
    )
    print(f"  batch path / reference engine: {reference / batch:,.1f} times as fast")

    plan = Plan("omaha", options, DOCTRINE, 3, args.memory_games)
    start = time.perf_counter()
    summary = simulate(plan, jobs=args.jobs)
    elapsed = time.perf_counter() - start
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"  {summary.games:,} games in {args.jobs} processes: {summary.games / elapsed:,.0f} games/s; "
        f"peak resident memory: main {own:.0f} MB, largest worker {children:.0f} MB"
    )


if __name__ == "__main__":
    main()
