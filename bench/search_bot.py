"""Strength of the search bot against the doctrine bots in a rule set (default Omaha, a small beach).

Plays N games of each match (Omaha: one German player's beach, 3 American
players, fresh squads limited to 2 so the Germans can win by exhausting the
Americans; B-17 and skirmish: their default options): doctrine against doctrine (the baseline), then for each budget the
search bot on one side against the doctrine on the other, for both sides.
Game i of every match rolls the same dice seed (common random numbers: the
games start alike and part where the choices differ), so each search match is
compared with the baseline pair by pair: the games it turned into wins (+) and
into losses (-), the paired difference of the win rates with its 95% interval,
and McNemar's exact p-value (the two-sided binomial test on the games that
differ). Prints each side's win rate with a 95% Wilson interval, and the
search's CPU seconds per decision it weighed (more than one candidate; the
worker's process time, so a machine shared with other work reads about right).
Nothing here is asserted by the tests.

The search plays as the rule set's normal level does (its depth, allocation,
menu cut and the sides whose playouts stop at the seat's next decision), at
each budget; the flags override one setting at a time.

    python bench/search_bot.py [RULESET] [--games N] [--budgets 8 32] [--depth 2] [--allocation halving]
        [--until-own german] [--sides german] [--scenario S] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Collection, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from grognard.analysis.ladder import compare
from grognard.analysis.stats import wilson
from grognard.bots.search import SearchBot
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.rulesets import get

# games per match by default: the paired test counts only the games that differ, and a B-17 game that differs
# is nearly a fresh one, so a gain of 5 points needs several hundred (a B-17 game is cheap; a skirmish one is not)
GAMES = {"omaha": 200, "b17": 400, "skirmish": 40}
BUDGETS = {"omaha": [32, 256], "b17": [64, 256], "skirmish": [8, 16]}  # playouts a decision (B-17: normal, hard)


def play_one(args: tuple[Any, ...]) -> tuple[str | None, int, float, int]:
    """One game: the winner (None if none), the turns it lasted, the search's seconds and decisions searched."""
    (
        name,
        options,
        seed,
        index,
        search_side,
        playouts,
        depth,
        steps,
        confidence,
        per_candidate,
        allocation,
        until_own,
    ) = args
    ruleset = get(name)
    game = ruleset.create(options, SeededDice(stream(seed, index, DICE)))
    rng = np.random.default_rng(stream(seed, index, BOTS))
    doctrine = ruleset.bots["book"](rng)
    search = (
        SearchBot(
            rng,
            ruleset,
            playouts=playouts,
            depth=depth,
            steps=steps,
            confidence=confidence,
            per_candidate=per_candidate,
            allocation=allocation,
            until_own=until_own,
        )
        if playouts
        else None
    )

    spent = [0.0, 0]  # CPU seconds in the search's choices, choices that weighed more than one candidate

    class Timed:
        def choose(self, game: Any, decision: Any) -> Any:
            start = time.process_time()
            assert search is not None
            action = search.choose(game, decision)
            if len(search.last) > 1:
                spent[0] += time.process_time() - start
                spent[1] += 1
            return action

    timed = Timed()

    def player(seat: str) -> Any:
        return timed if search is not None and game.side_of(seat) == search_side else doctrine

    result = play_out(game, player, checked=False)
    return result.winner, result.turn, float(spent[0]), int(spent[1])


# playouts, depth, steps, confidence, playouts a candidate, allocation, until the seat's next decision
Search = tuple[int, int | None, int | None, float | None, int | None, str, bool | Collection[str]]


def run_match(
    pool: ProcessPoolExecutor,
    name: str,
    options: dict[str, Any],
    games: int,
    seed: int,
    side: str,
    search: Search | None,
) -> tuple[dict[str | None, int], float, float, list[str | None], float]:
    """``games`` games, the search (``None``: none) playing ``side``: the wins, wall seconds, mean turns,
    each game's winner, and the search's seconds a decision."""
    start = time.perf_counter()
    settings = search if search is not None else (None, None, None, None, None, "ucb", False)
    tasks = [(name, options, seed, i, side, *settings) for i in range(games)]
    outcomes = list(pool.map(play_one, tasks, chunksize=1))
    wall = time.perf_counter() - start
    wins: dict[str | None, int] = {}
    for winner, _turn, _s, _n in outcomes:
        wins[winner] = wins.get(winner, 0) + 1
    searched = sum(n for *_, n in outcomes)
    per_decision = sum(s for _w, _t, s, _n in outcomes) / searched if searched else 0.0
    turns = sum(turn for _, turn, *_ in outcomes) / games
    return wins, wall, turns, [winner for winner, *_ in outcomes], per_decision


def line(label: str, side: str, wins: dict[str | None, int], games: int, extra: str) -> str:
    k = wins.get(side, 0)
    low, high = wilson(k, games)
    return f"  {label:<34} {side:<9} wins {k:4d}/{games:<4d} = {k / games:6.1%}  [{low:6.1%}, {high:6.1%}]  {extra}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="omaha", help="omaha, b17 or skirmish")
    parser.add_argument("--games", type=int, default=None, help="games per match (default: the rule set's)")
    parser.add_argument(
        "--budgets", type=int, nargs="+", default=None, help="playouts per decision (default: the rule set's)"
    )
    parser.add_argument(
        "--depth",
        type=int,
        default=None,
        help="turns a playout runs (negative: no limit; default: the rule set's normal level)",
    )
    parser.add_argument("--steps", type=int, default=None, help="decisions a playout answers at most")
    parser.add_argument(
        "--confidence",
        type=float,
        default=None,
        help="standard errors a move must beat the doctrine's by (negative: play the best mean; default: the "
        "normal level's)",
    )
    parser.add_argument(
        "--allocation", choices=("ucb", "flat", "halving"), default=None, help="default: the normal level's"
    )
    parser.add_argument(
        "--until-own",
        nargs="*",
        default=None,
        help="sides whose playouts stop when the seat owes its next decision (none: no side; default: the "
        "normal level's)",
    )
    parser.add_argument("--sides", nargs="+", default=None, help="sides the search bot plays (default: all)")
    parser.add_argument("--scenario", default=None, help="skirmish: the scenario (default: the rule set's)")
    parser.add_argument("--germans", type=int, default=1)
    parser.add_argument("--fresh-squads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    ruleset = get(args.ruleset)
    normal = ruleset.bots["search"](np.random.default_rng(0))
    assert isinstance(normal, SearchBot)
    if args.depth is None:
        depth, steps = normal.depth, (args.steps if args.steps is not None else normal.steps)
    else:
        depth, steps = (None if args.depth < 0 else args.depth), args.steps
    if args.confidence is None:
        confidence = normal.confidence
    else:
        confidence = None if args.confidence < 0 else args.confidence
    allocation = args.allocation or normal.allocation
    until_own = normal.until_own if args.until_own is None else tuple(args.until_own)
    options: dict[str, Any] = {}
    if args.ruleset == "omaha":
        options = {"germans": args.germans, "fresh_squads": args.fresh_squads}
    elif args.scenario is not None:
        options = {"scenario": args.scenario}
    games = args.games if args.games is not None else GAMES[args.ruleset]
    budgets = args.budgets if args.budgets is not None else BUDGETS[args.ruleset]
    sides = args.sides or list(ruleset.sides)
    shown = ", ".join(f"{k}={v}" for k, v in options.items())
    print(
        f"{ruleset.title} ({shown}); {games} games per match; search depth {depth or 'unlimited'} turns, "
        f"{steps or 'unlimited'} steps, {normal.per_candidate or 'any'} playouts a candidate, "
        f"confidence {confidence}, allocation {allocation}, playouts to the seat's next decision for {until_own}; "
        f"{args.jobs} processes; seed {args.seed}"
    )
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        wins, wall, turns, base, _ = run_match(pool, args.ruleset, options, games, args.seed, "", None)
        print(f"baseline: doctrine against doctrine (mean {turns:.1f} turns; {wall / games:.2f} s a game)")
        for side in ruleset.sides:
            print(line("doctrine", side, wins, games, ""))
        for playouts in budgets:
            print(f"search, {playouts} playouts a decision:")
            for side in sides:
                search = (playouts, depth, steps, confidence, normal.per_candidate, allocation, until_own)
                w, wall, turns, won, per_decision = run_match(
                    pool, args.ruleset, options, games, args.seed, side, search
                )
                # the same dice seed in both matches: which games did the search turn, either way
                paired = compare(base, won, side)
                gained, lost, _ = paired.counts()
                diff, low, high = paired.difference
                print(
                    line(
                        f"search ({playouts}) vs doctrine",
                        side,
                        w,
                        games,
                        f"{per_decision:.2f} cpu-s a decision; {turns:.1f} turns; {wall / games:.1f} s a game (wall)",
                    )
                )
                print(
                    f"  {'':<34} {'':<9} paired: +{gained} -{lost} vs baseline, difference {diff:+6.1%} "
                    f"[{low:+6.1%}, {high:+6.1%}], McNemar p = {paired.p:.3g}"
                )


if __name__ == "__main__":
    main()
