"""Monte Carlo speed of the standard Omaha game, and the memory a long run holds.

Prints, from one run: games per second on one core (the fast path, doctrine
bots, no record); the ratio of the time per game to the dice floor (numpy
drawing as many dice as a game rolls, in one call); and the peak resident
memory of a multi-process run of ``--memory-games`` games, which stays flat
because results are reduced into integer counts as they arrive. Nothing here
is asserted by the tests.

    python bench/simulate.py [--games N] [--memory-games M] [--jobs K]
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from grognard.analysis.montecarlo import Plan, default_jobs, play_one, simulate
from grognard.rulesets import get


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--memory-games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    args = parser.parse_args()
    ruleset = get("omaha")
    options = ruleset.resolve({})
    bots = {"american": "doctrine", "german": "doctrine"}
    start = time.perf_counter()
    for index in range(args.games):
        play_one(ruleset, options, bots, 1, index)
    elapsed = time.perf_counter() - start
    # the dice a standard game rolls: count them in one recorded game
    from grognard.core.dice import SeededDice

    counter = SeededDice(1)
    game = ruleset.new_game(options, counter)
    bot = ruleset.bots["doctrine"](np.random.default_rng(1))
    from grognard.core.play import play_out

    play_out(game, lambda seat: bot, checked=False)
    per_game_dice = sum(counter.drawn.values())
    floor_start = time.perf_counter()
    rng = np.random.default_rng(2)
    for _ in range(args.games):
        rng.integers(1, 7, size=per_game_dice)
    floor = (time.perf_counter() - floor_start) / args.games
    per_game = elapsed / args.games
    print("standard Omaha game (6 German, 18 American players), doctrine bots, no record, fast path")
    print(f"  one core: {1 / per_game:.1f} games/s ({per_game * 1000:.2f} ms a game)")
    print(f"  dice floor: {per_game_dice} dice a game drawn in one numpy call take {floor * 1e6:.1f} us; "
          f"time per game / dice floor = {per_game / floor:,.0f}")
    plan = Plan("omaha", options, bots, 3, args.memory_games)
    start = time.perf_counter()
    summary = simulate(plan, jobs=args.jobs)
    elapsed = time.perf_counter() - start
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"  {summary.games} games in {args.jobs} processes: {summary.games / elapsed:.1f} games/s; "
          f"peak resident memory: main {own:.0f} MB, largest worker {children:.0f} MB")


if __name__ == "__main__":
    main()
