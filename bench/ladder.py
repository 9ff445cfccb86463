"""The ladder measured: the round robin of a rule set's bot levels for each side, every pairing on the same dice.

Plays N games of every pairing (a level for each side: with levels book,
normal and hard, 9 pairings), game i of every pairing on the dice of game i
(seed S: the dice and the bots' generators of game i come from S and i alone,
as in ``grognard simulate``), and prints, as Markdown tables:

- each side's win rate with its 95% Wilson interval, for every pairing (the
  first side's level down, the second's across), the games nobody won, and
  the CPU seconds a game;
- for adjacent rungs (each level against the one below it, in the order of
  ``--levels``, weakest first), on each side and against each level of the
  other side: the paired difference of the win rates (the higher rung's minus
  the lower's) with its 95% interval, the games the higher rung turned into
  wins and into losses, and McNemar's exact p-value. The pairs share their
  dice, so the test counts only the games the levels played differently.

Omaha plays one German player's beach with 2 fresh squads each (as
``bench/search_bot.py``: the Germans can win by exhausting the Americans);
``-o NAME=VALUE`` sets any rule option. Nothing here is asserted by the tests
beyond that it runs; strength is measured, never claimed.

    python bench/ladder.py RULESET --games N --seed S [--scenario S] [--levels book normal hard]
        [-o NAME=VALUE] [--jobs N]
"""

from __future__ import annotations

import argparse
import functools
import itertools
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from grognard import rulesets
from grognard.analysis.ladder import Comparison, Match, compare, round_robin, run_matches
from grognard.bots import ladder
from grognard.core.errors import GrognardError
from grognard.core.ruleset import Ruleset

DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {"omaha": {"germans": 1, "fresh_squads": 2}}


def _rate(side: str, match: Match) -> str:
    """``side``'s win rate in ``match`` with its interval: ``52.0% [45.1, 58.8]``."""
    p, low, high = match.rate(side)
    return f"{100 * p:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _paired(comparison: Comparison) -> str:
    """``+3.0 [-1.2, +7.2] +10/-4 p=0.18``: points, their 95% interval, games gained and lost, McNemar p."""
    diff, low, high = comparison.difference
    gained, lost, _ = comparison.counts()
    return f"{100 * diff:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}] +{gained}/-{lost} p={comparison.p:.2g}"


def matrix(
    title: str, sides: Sequence[str], levels: Sequence[str], cell: Any, played: Mapping[tuple[str, str], Match]
) -> list[str]:
    """A Markdown table: the first side's level down, the second's across, ``cell(match)`` in each."""
    first, second = sides
    out = [title, "", f"| {first} \\ {second} | " + " | ".join(levels) + " |", "|---" * (len(levels) + 1) + "|"]
    for row in levels:
        out.append(f"| {row} | " + " | ".join(cell(played[row, col]) for col in levels) + " |")
    return [*out, ""]


def rungs(sides: Sequence[str], levels: Sequence[str], played: Mapping[tuple[str, str], Match]) -> list[str]:
    """For each side, each level against the one below it, against each level of the other side."""
    out = []
    for k, side in enumerate(sides):
        other = sides[1 - k]
        out += [
            f"{side}: each rung against the one below, paired on the same dice: points of {side} wins [95%], "
            "games the higher rung won where the lower lost / lost where it won, McNemar p",
            "",
            "| rung | " + " | ".join(f"against {other} {level}" for level in levels) + " |",
            "|---" * (len(levels) + 1) + "|",
        ]
        for low, high in itertools.pairwise(levels):
            cells = []
            for level in levels:
                below = played[(low, level) if k == 0 else (level, low)]
                above = played[(high, level) if k == 0 else (level, high)]
                cells.append(_paired(compare(below.winners, above.winners, side)))
            out.append(f"| {high} - {low} | " + " | ".join(cells) + " |")
        out.append("")
    return out


def options_of(ruleset: Ruleset, scenario: str | None, given: Sequence[str]) -> dict[str, Any]:
    """The resolved options: the bench's defaults, the scenario, then each NAME=VALUE (refused in one line)."""
    options = dict(DEFAULT_OPTIONS.get(ruleset.name, {}))
    if scenario is not None:
        if not any(spec.name == "scenario" for spec in ruleset.options):
            raise GrognardError(f"--scenario {scenario!r}: {ruleset.name} has no scenarios")
        options["scenario"] = scenario
    for item in given:
        name, sep, value = item.partition("=")
        if not sep:
            raise GrognardError(f"-o {item!r}: expected NAME=VALUE")
        options[name.strip()] = value.strip()
    return ruleset.resolve(options)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("ruleset", help="omaha, b17 or skirmish")
    parser.add_argument("--games", type=int, required=True, help="games a pairing")
    parser.add_argument("--seed", type=int, required=True, help="the run's seed: game i's dice come from it")
    parser.add_argument("--scenario", default=None, help="a skirmish scenario (default: the rule set's)")
    parser.add_argument("--levels", nargs="+", default=None, help="weakest first (default: the levels offered)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1: a shared machine)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    try:
        ruleset = rulesets.get(args.ruleset)
        options = options_of(ruleset, args.scenario, args.option)
        levels = args.levels or list(ladder.levels(ruleset))
        for level in levels:
            if level not in ruleset.bots:
                raise GrognardError(f"--levels: {ladder.unknown_bot(ruleset, level)}")
        if len(ruleset.sides) != 2 or len(set(levels)) != len(levels) or args.games < 1 or args.jobs < 1:
            raise GrognardError("a round robin of two sides, distinct levels, at least one game and one process")
    except (GrognardError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sides = ruleset.sides
    pairings = round_robin(sides, levels)
    quiet = {spec.name: options[spec.name] for spec in ruleset.options if options[spec.name] != spec.default}
    shown = ", ".join(f"{name}={value}" for name, value in quiet.items()) or "default options"
    command = " ".join(["python bench/ladder.py", *(argv if argv is not None else sys.argv[1:])])
    print(f"{ruleset.title} ({shown}): the round robin of {', '.join(levels)}, weakest first")
    print(f"{args.games} games a pairing, game i of every pairing on the dice of seed {args.seed}, game i")
    print(f"command: {command}\n")
    played = _play(ruleset.name, options, pairings, args.games, args.seed, args.jobs)
    for side in sides:
        print("\n".join(matrix(f"{side} wins [95% Wilson]", sides, levels, functools.partial(_rate, side), played)))
    if any(match.draws() for match in played.values()):
        print("\n".join(matrix("games nobody won", sides, levels, lambda m: str(m.draws()), played)))
    print("\n".join(matrix("CPU seconds a game", sides, levels, lambda m: f"{m.seconds():.3g}", played)))
    print("\n".join(rungs(sides, levels, played)))
    return 0


def _play(
    name: str, options: Mapping[str, Any], pairings: list[dict[str, str]], games: int, seed: int, jobs: int
) -> dict[tuple[str, str], Match]:
    from rich.console import Console
    from rich.progress import Progress

    with Progress(transient=True, console=Console(stderr=True)) as progress:
        task = progress.add_task("games", total=games * len(pairings))
        matches = run_matches(name, options, pairings, games, seed, jobs=jobs, on_game=lambda: progress.advance(task))
    return {tuple(match.bots.values()): match for match in matches}  # type: ignore[misc]


if __name__ == "__main__":
    sys.exit(main())
