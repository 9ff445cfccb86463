"""Strength of the search bot against the doctrine bots on a small Omaha beach.

Plays N games of each match on one German player's beach (3 American players)
with fresh squads limited (default 2, so the Germans can win by exhausting the
Americans): doctrine against doctrine (the baseline), then for each budget the
search bot on one side against the doctrine on the other, for both sides.
Game i of every match rolls the same dice seed (common random numbers: the
games start alike and part where the choices differ). Prints each side's win
rate with a 95% Wilson interval, and the time per game. Nothing here is
asserted by the tests.

    python bench/search_bot.py [--games N] [--budgets 16 64] [--depth 2] [--jobs 4] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from grognard.analysis.stats import wilson
from grognard.bots.search import SearchBot
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.rulesets import get

Match = tuple[str, int | None]  # (side the search bot plays, or "" for none; its budget)


def play_one(args: tuple[Any, ...]) -> tuple[str | None, int]:
    """One game: the winner (None if none) and the turns it lasted."""
    options, seed, index, search_side, playouts, depth, steps, confidence = args
    ruleset = get("omaha")
    game = ruleset.create(options, SeededDice(stream(seed, index, DICE)))
    rng = np.random.default_rng(stream(seed, index, BOTS))
    doctrine = ruleset.bots["doctrine"](rng)
    search = (
        SearchBot(rng, ruleset, playouts=playouts, depth=depth, steps=steps, confidence=confidence)
        if playouts
        else None
    )

    def player(seat: str) -> Any:
        return search if search is not None and game.side_of(seat) == search_side else doctrine

    result = play_out(game, player, checked=False)
    return result.winner, result.turn


def run_match(
    pool: ProcessPoolExecutor,
    options: dict[str, Any],
    games: int,
    seed: int,
    side: str,
    playouts: int | None,
    depth: int | None,
    steps: int | None,
    confidence: float | None = None,
) -> tuple[dict[str | None, int], float, float, list[str | None]]:
    start = time.perf_counter()
    tasks = [(options, seed, i, side, playouts, depth, steps, confidence) for i in range(games)]
    outcomes = list(pool.map(play_one, tasks, chunksize=1))
    wall = time.perf_counter() - start
    wins: dict[str | None, int] = {}
    for winner, _turn in outcomes:
        wins[winner] = wins.get(winner, 0) + 1
    return wins, wall, sum(turn for _, turn in outcomes) / games, [winner for winner, _ in outcomes]


def line(label: str, side: str, wins: dict[str | None, int], games: int, extra: str) -> str:
    k = wins.get(side, 0)
    low, high = wilson(k, games)
    return f"  {label:<34} {side:<9} wins {k:4d}/{games:<4d} = {k / games:6.1%}  [{low:6.1%}, {high:6.1%}]  {extra}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per match")
    parser.add_argument("--budgets", type=int, nargs="+", default=[32, 256], help="playouts per decision")
    parser.add_argument("--depth", type=int, default=2, help="turns a playout runs (negative: to the end)")
    parser.add_argument("--steps", type=int, default=None, help="decisions a playout answers at most")
    parser.add_argument(
        "--confidence",
        type=float,
        default=1.5,
        help="standard errors a move must beat the doctrine's by (negative: play the best mean)",
    )
    parser.add_argument("--sides", nargs="+", default=["american", "german"], help="sides the search bot plays")
    parser.add_argument("--germans", type=int, default=1)
    parser.add_argument("--fresh-squads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    depth = None if args.depth < 0 else args.depth
    confidence = None if args.confidence < 0 else args.confidence
    options = {"germans": args.germans, "fresh_squads": args.fresh_squads}
    shown = ", ".join(f"{k}={v}" for k, v in options.items())
    print(
        f"Omaha ({shown}); {args.games} games per match; search depth {depth or 'to the end'} turns, "
        f"confidence {confidence}; "
        f"{args.jobs} processes; seed {args.seed}"
    )
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        wins, wall, turns, base = run_match(pool, options, args.games, args.seed, "", None, None, None)
        print(f"baseline: doctrine against doctrine (mean {turns:.1f} turns; {wall / args.games:.2f} s a game)")
        for side in ("american", "german"):
            print(line("doctrine", side, wins, args.games, ""))
        for playouts in args.budgets:
            print(f"search, {playouts} playouts a decision:")
            for side in args.sides:
                w, wall, turns, won = run_match(
                    pool, options, args.games, args.seed, side, playouts, depth, args.steps, confidence
                )
                cpu = wall * args.jobs / args.games
                # the same dice seed in both matches: which games did the search turn, either way
                gained = sum(1 for a, b in zip(base, won, strict=True) if a != side and b == side)
                lost = sum(1 for a, b in zip(base, won, strict=True) if a == side and b != side)
                print(
                    line(
                        f"search ({playouts}) vs doctrine",
                        side,
                        w,
                        args.games,
                        f"(+{gained} -{lost} games vs baseline; mean {turns:.1f} turns; ~{cpu:.1f} cpu-s a game)",
                    )
                )


if __name__ == "__main__":
    main()
