"""Games per second of the standard B-17 raid on one core.

Four B-17s against four Me-109s, doctrine bots on both sides, no record, the
fast (unchecked) path that Monte Carlo uses, and for comparison the checked
path that people and the network use; then the enlarged game (eight and eight)
on the fast path. Prints the figures of this one run; nothing here is asserted
by the tests.

With ``--raids FIRST LAST`` it plays instead the raids ``grognard play b17 --seed N`` plays for each N
from FIRST to LAST (the same dice, the bots' stream reset before each decision as the terminal does),
with ``--bots SIDE=BOT`` (default: the book on both sides), and prints what became of the fighters
that entered: shot down, flown off the table, still flying at the end, and how many of those off the
table left on a move that could not stay on it (the forced 6" straight ahead, b17.25); and the
Germans' wins.

    python bench/b17_game.py [--games N] [--seed S]
    python bench/b17_game.py --raids 101 130 --bots german=search:hard
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

from grognard.analysis.stats import wilson
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


def raid(seed: int, bots: dict[str, str]) -> dict[str, Any]:
    """The raid ``grognard play b17 --seed SEED --bots ...`` plays (its dice; the bots' stream reset before
    each decision from the actions taken, as ``terminal.Session.bot`` does): what became of the fighters."""
    ruleset = get("b17")
    game = ruleset.new_game(ruleset.resolve({}), SeededDice(stream(seed, DICE)))
    rng = np.random.default_rng(0)
    made = {
        side: ruleset.bots[bots.get(side, "book" if "book" in ruleset.bots else "doctrine")](rng)
        for side in ruleset.sides
    }
    steps = [0]

    def player(seat: str) -> Any:
        rng.bit_generator.state = np.random.PCG64(stream(seed, BOTS, steps[0])).state
        steps[0] += 1
        return made[game.side_of(seat)]

    result = play_out(game, player)
    fighters = [a for a in game.state.aircraft.values() if not a.bomber and a.status != "waiting"]
    return {
        "entered": len(fighters),
        "destroyed": sum(1 for a in fighters if a.status == "destroyed"),
        "left": sum(1 for a in fighters if a.status == "left"),
        "german_won": result.winner == "german",
    }


def raids(first: int, last: int, bots: dict[str, str]) -> None:
    rows = [raid(seed, bots) for seed in range(first, last + 1)]
    entered = sum(r["entered"] for r in rows)
    shown = ", ".join(f"{k}={v}" for k, v in sorted(bots.items())) or "the book on both sides"
    print(f"raids {first}-{last} ({len(rows)}), {shown}: {entered} fighters entered")
    for key, label in (("destroyed", "shot down"), ("left", "flew off the table")):
        k = sum(r[key] for r in rows)
        low, high = wilson(k, entered)
        print(f"  {label:<20} {k:4d} = {k / entered:6.1%} [{low:6.1%}, {high:6.1%}]  ({k / len(rows):.2f} a raid)")
    won = sum(r["german_won"] for r in rows)
    low, high = wilson(won, len(rows))
    print(f"  German wins          {won:4d} = {won / len(rows):6.1%} [{low:6.1%}, {high:6.1%}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--raids", type=int, nargs=2, metavar=("FIRST", "LAST"), default=None)
    parser.add_argument("--bots", nargs="*", default=[], metavar="SIDE=BOT")
    args = parser.parse_args()
    if args.raids is not None:
        raids(args.raids[0], args.raids[1], dict(b.split("=", 1) for b in args.bots))
        return
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
