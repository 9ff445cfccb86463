"""The plans of one side played against each other on the same dice (issue 31, item 1: the plans differ in play).

For the side named, plays ``--games`` games of each of its plans (the side's bot at ``--level``, following
that plan; the other side's bot the book), game i of every plan on the same dice (``stream(seed, i, DICE)``)
and the same bots' stream (``stream(seed, i, BOTS)``); prints each plan's wins for the side with its Wilson
interval and the game's own figures (``Analysis.measure``: their means), then each plan against the first,
paired: the difference in wins with its 95% interval and McNemar's exact p, and the games whose outcome
differs at all. Nothing here is asserted by the tests.

    nice -n 5 python bench/plans.py omaha --side german --games 60 --seed 31 [-o germans=1 ...]
    nice -n 5 python bench/plans.py skirmish --side allies --games 40 --seed 31 -o scenario=proving_ground
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

import numpy as np

from grognard.analysis.stats import mcnemar, paired_difference, wilson
from grognard.core import plans
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.options import parse_assignments
from grognard.core.play import play_out
from grognard.rulesets import get


def play(name: str, options: dict[str, Any], side: str, level: str, plan: str, seed: int, i: int) -> dict[str, Any]:
    """Game ``i``: ``side`` at ``level`` following ``plan``, the other side the book; its outcome and figures."""
    ruleset = get(name)
    game = ruleset.create(options, SeededDice(stream(seed, i, DICE)))
    rng = np.random.default_rng(stream(seed, i, BOTS))
    chosen = next(p for p in plans.offered(ruleset, game)[side] if p.name == plan)
    made = {s: ruleset.bots[level if s == side else "book"](rng) for s in ruleset.sides}
    made[side].follow(chosen)  # type: ignore[attr-defined]
    result = play_out(game, lambda seat: made[game.side_of(seat)], checked=False)
    row = {"won": result.winner == side, "outcome": result.outcome, "turn": result.turn}
    if ruleset.analysis is not None:
        row.update(ruleset.analysis.measure(game))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset")
    parser.add_argument("--side", required=True)
    parser.add_argument("--level", default="book")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("-o", "--option", action="append", default=[])
    args = parser.parse_args()
    ruleset = get(args.ruleset)
    options = ruleset.resolve(parse_assignments(args.option))
    probe = ruleset.create(options, SeededDice(0))
    names = [p.name for p in plans.offered(ruleset, probe)[args.side]]
    rows: dict[str, list[dict[str, Any]]] = {}
    for plan in names:
        rows[plan] = [play(args.ruleset, options, args.side, args.level, plan, args.seed, i) for i in range(args.games)]
        wins = sum(r["won"] for r in rows[plan])
        low, high = wilson(wins, args.games)
        figures = {
            key: statistics.mean(float(r[key]) for r in rows[plan] if r.get(key) is not None)
            for key in rows[plan][0]
            if key not in ("won", "outcome") and any(r.get(key) is not None for r in rows[plan])
        }
        shown = ", ".join(f"{k} {v:.1f}" for k, v in figures.items())
        print(f"{plan}: {args.side} wins {wins}/{args.games} = {wins / args.games:.1%} [{low:.1%}, {high:.1%}]")
        print(f"    means: {shown}")
    first = names[0]
    for plan in names[1:]:
        gained = sum(1 for a, b in zip(rows[first], rows[plan], strict=True) if b["won"] and not a["won"])
        lost = sum(1 for a, b in zip(rows[first], rows[plan], strict=True) if a["won"] and not b["won"])
        diff, low, high = paired_difference(gained, lost, args.games)
        apart = sum(
            1
            for a, b in zip(rows[first], rows[plan], strict=True)
            if (a["outcome"], a["turn"]) != (b["outcome"], b["turn"])
        )
        print(
            f"{plan} - {first}: {diff * 100:+.1f} points [{low * 100:+.1f}, {high * 100:+.1f}], +{gained} -{lost}, "
            f"McNemar p {mcnemar(gained, lost):.2g}; {apart} of {args.games} games end otherwise (outcome or turn)"
        )


if __name__ == "__main__":
    main()
