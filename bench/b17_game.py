"""Games per second of the standard B-17 raid on one core.

Four B-17s against four Me-109s, doctrine bots on both sides, no record, the
fast (unchecked) path that Monte Carlo uses, and for comparison the checked
path that people and the network use; then the enlarged game (eight and eight)
on the fast path. Prints the figures of this one run; nothing here is asserted
by the tests.

    python bench/b17_game.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.rulesets import get


def run(games: int, seed: int, *, checked: bool, options: dict[str, Any]) -> tuple[float, list[int], int]:
    ruleset = get("b17")
    resolved = ruleset.resolve(options)
    turns: list[int] = []
    decisions = 0
    start = time.perf_counter()
    for index in range(games):
        dice_seed, bot_seed = stream(seed, index, DICE), stream(seed, index, BOTS)
        game = ruleset.new_game(resolved, SeededDice(dice_seed))
        bot = ruleset.bots["doctrine"](np.random.default_rng(bot_seed))
        counted = [0]

        def player(seat: str, bot: Any = bot, counted: list[int] = counted) -> Any:
            counted[0] += 1
            return bot

        result = play_out(game, player, checked=checked)
        turns.append(result.turn)
        decisions += counted[0]
    return time.perf_counter() - start, turns, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    fast, turns, decisions = run(args.games, args.seed, checked=False, options={})
    small = max(4, args.games // 4)
    slow, _, _ = run(small, args.seed, checked=True, options={})
    big, big_turns, _ = run(small, args.seed, checked=False, options={"enlarged": True})
    per_fast, per_slow, per_big = fast / args.games, slow / small, big / small
    print("standard B-17 raid (4 B-17s, 4 Me-109s), doctrine bots, no record, one core")
    print(
        f"  games: {args.games}; turns per game: median {statistics.median(turns):g}, "
        f"mean {statistics.mean(turns):.1f}; decisions per game: {decisions / args.games:.0f}"
    )
    print(
        f"  fast path:     {1 / per_fast:8.2f} games/s  ({per_fast * 1000:.0f} ms a game, "
        f"{per_fast / (decisions / args.games) * 1e3:.2f} ms a decision)"
    )
    print(f"  checked path:  {1 / per_slow:8.2f} games/s  (checked / fast time ratio {per_slow / per_fast:.2f})")
    print(
        f"  enlarged game: {1 / per_big:8.2f} games/s  (fast path, {small} games, "
        f"median {statistics.median(big_turns):g} turns)"
    )


if __name__ == "__main__":
    main()
