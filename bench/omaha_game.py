"""Games per second of the standard Omaha game on one core.

The seed's own beach (6 German, 18 American players), doctrine bots on both
sides, no record, the fast (unchecked) path that Monte Carlo uses, and for
comparison the checked path that people and the network use. Prints the
figures of this one run; nothing here is asserted by the tests.

    python bench/omaha_game.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.rulesets import get


def run(games: int, seed: int, *, checked: bool) -> tuple[float, list[int], int]:
    ruleset = get("omaha")
    options = ruleset.resolve({})
    turns: list[int] = []
    decisions = 0
    start = time.perf_counter()
    for index in range(games):
        dice_seed, bot_seed = stream(seed, index, DICE), stream(seed, index, BOTS)
        game = ruleset.new_game(options, SeededDice(dice_seed))
        bot = ruleset.bots["doctrine"](np.random.default_rng(bot_seed))
        counted = [0]

        def player(seat: str, bot=bot, counted=counted):
            counted[0] += 1
            return bot

        result = play_out(game, player, checked=checked)
        turns.append(result.turn)
        decisions += counted[0]
    return time.perf_counter() - start, turns, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    fast, turns, decisions = run(args.games, args.seed, checked=False)
    slow, _, _ = run(max(4, args.games // 4), args.seed, checked=True)
    per_fast = fast / args.games
    per_slow = slow / max(4, args.games // 4)
    print("standard Omaha game (6 German, 18 American players), doctrine bots, no record, one core")
    print(
        f"  games: {args.games}; turns per game: median {statistics.median(turns):g}, "
        f"mean {statistics.mean(turns):.1f}; decisions per game: {decisions / args.games:.0f}"
    )
    print(
        f"  fast path:    {1 / per_fast:8.1f} games/s  ({per_fast * 1000:.1f} ms a game, "
        f"{per_fast / (decisions / args.games) * 1e6:.1f} us a decision)"
    )
    print(f"  checked path: {1 / per_slow:8.1f} games/s  (checked / fast time ratio {per_slow / per_fast:.2f})")


if __name__ == "__main__":
    main()
