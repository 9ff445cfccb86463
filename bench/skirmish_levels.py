"""A skirmish level against the book, paired on the same dice, per side of a scenario.

Game i of every match rolls the dice of seed (SEED, i) and gives each side's bot
the generator of (SEED, i, side) too, so the baseline (book against book) and each match
(LEVEL playing SIDE, the book the other side) start alike and part only where
the choices differ. For each side: LEVEL's win rate with its Wilson interval,
the games it turned into wins (+) and into losses (-) against the baseline,
the paired difference with its 95% interval and McNemar's exact p; and the CPU
seconds (process time) of each of LEVEL's decisions over the match: median,
95th percentile and most. Nothing here is asserted by the tests.

    python bench/skirmish_levels.py --scenario village_street --level hard --games 200 --seed 29 [--jobs 1]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from grognard.analysis.stats import mcnemar, paired_difference, wilson
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.rulesets import get

BOOK = "book"


class Variant:
    """The book with some of its module constants set otherwise while it chooses: ``book+CHARGE_RATIO=0.6``
    (constants of ``skirmish.bots``, ``bots_charge``, ``bots_fire`` or ``levels``), for trying a change before making
    it."""

    def __init__(self, rng: Any, base: str, settings: dict[str, float]) -> None:
        from grognard.rulesets.skirmish import bots, bots_charge, bots_fire, bots_levels

        ruleset = get("skirmish")
        self.bot = ruleset.bots[bot_name(ruleset, base)](rng)
        self.modules = [bots_charge, bots, bots_fire, bots_levels]  # the charge's constants where it reads them
        self.settings = settings

    def choose(self, game: Any, decision: Any) -> Any:
        saved = []
        for key, value in self.settings.items():
            module = next(m for m in self.modules if hasattr(m, key))
            saved.append((module, key, getattr(module, key)))
            setattr(module, key, value)
        try:
            return self.bot.choose(game, decision)
        finally:
            for module, key, value in reversed(saved):
                setattr(module, key, value)


def make_bot(ruleset: Any, name: str, rng: Any) -> Any:
    """The bot of level ``name``, or a ``Variant`` of one (``LEVEL+KEY=VALUE+KEY=VALUE``)."""
    if "+" not in name:
        return ruleset.bots[bot_name(ruleset, name)](rng)
    base, *pairs = name.split("+")
    return Variant(rng, base, {k: float(v) for k, v in (p.split("=") for p in pairs)})


def bot_name(ruleset: Any, name: str) -> str:
    """``name``, or the doctrine's old name for the book before the ladder's names landed."""
    return name if name in ruleset.bots or name != BOOK else "doctrine"


def play_one(args: tuple[Any, ...]) -> tuple[str | None, int, list[float]]:
    """One game: the winner (None if none), its turns, the CPU seconds of each of the level's decisions."""
    scenario, seed, index, side, level = args
    ruleset = get("skirmish")
    game = ruleset.create({"scenario": scenario}, SeededDice(stream(seed, index, DICE)))
    # each side's bot its own generator, the same in every match: (SEED, i, BOTS, the side's index)
    rngs = {s: np.random.default_rng(stream(seed, index, BOTS, k)) for k, s in enumerate(ruleset.sides)}
    bots = {s: make_bot(ruleset, level if s == side else BOOK, rngs[s]) for s in ruleset.sides}
    other = bots.get(side)
    spent: list[float] = []

    class Timed:
        def choose(self, game: Any, decision: Any) -> Any:
            start = time.process_time()
            assert other is not None
            action = other.choose(game, decision)
            spent.append(time.process_time() - start)
            return action

    timed = Timed()
    result = play_out(
        game, lambda seat: timed if game.side_of(seat) == side else bots[game.side_of(seat)], checked=False
    )
    return result.winner, result.turn, spent


def run(pool: ProcessPoolExecutor, scenario: str, games: int, seed: int, side: str, level: str) -> list[Any]:
    return list(pool.map(play_one, [(scenario, seed, i, side, level) for i in range(games)], chunksize=1))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="hill_assault")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--sides", nargs="+", default=["allies", "axis"])
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"skirmish {args.scenario}: {args.level} against the book, {args.games} games, seed {args.seed}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        start = time.perf_counter()
        base = run(pool, args.scenario, args.games, args.seed, "", BOOK)
        print(f"  book v book: {time.perf_counter() - start:.1f} s wall; winners", end="")
        for side in ("allies", "axis", None):
            print(f" {side}={sum(1 for w, *_ in base if w == side)}", end="")
        print()
        for side in args.sides:
            start = time.perf_counter()
            outcomes = run(pool, args.scenario, args.games, args.seed, side, args.level)
            wall = time.perf_counter() - start
            k = sum(1 for w, *_ in outcomes if w == side)
            low, high = wilson(k, args.games)
            k0 = sum(1 for w, *_ in base if w == side)
            gained = sum(1 for a, b in zip(base, outcomes, strict=True) if a[0] != side and b[0] == side)
            lost = sum(1 for a, b in zip(base, outcomes, strict=True) if a[0] == side and b[0] != side)
            diff, dlow, dhigh = paired_difference(gained, lost, args.games)
            cpu = np.array([s for *_, spent in outcomes for s in spent] or [0.0])
            print(
                f"  {args.level} as {side:<6}: wins {k}/{args.games} = {k / args.games:.1%} [{low:.1%}, {high:.1%}]"
                f" (book {k0 / args.games:.1%}); paired +{gained} -{lost}: {diff:+.1%} [{dlow:+.1%}, {dhigh:+.1%}],"
                f" McNemar p = {mcnemar(gained, lost):.3g}; cpu a decision median {np.median(cpu) * 1000:.1f} ms,"
                f" p95 {np.percentile(cpu, 95) * 1000:.1f} ms, max {cpu.max() * 1000:.0f} ms; {wall:.0f} s wall"
            )


if __name__ == "__main__":
    main()
