"""What the coach and the after-action reports of a class game cost: process CPU time, never wall time.

A 24-pupil Omaha class (6 Germans, 18 Americans) is played by a level standing in for the pupils (default
``beginner``: a learner's play, so the hard bot often disagrees and most decisions are played out), seeded;
then every seat's decisions are coached (``analysis.coach``, ``--playouts`` pairs a decision) and the
reports (a PDF page a pupil, the class CSV, the zip: ``reports/``) are made without the coach and with it.

    nice -n 5 python bench/coach.py --seed 31 --playouts 24
    nice -n 5 python bench/coach.py --ruleset b17 --seed 31
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from grognard import rulesets
from grognard.analysis.coach import COACH_PLAYOUTS, coach_lines
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.core.record import RecordWriter, make_header

CLASS_OPTIONS: dict[str, dict[str, Any]] = {"omaha": {"germans": 6}, "b17": {}, "skirmish": {}}


def played(ruleset_name: str, level: str, seed: int) -> list[dict[str, Any]]:
    """The record of a game of ``level`` on every seat (the pupils' stand-in)."""
    ruleset = rulesets.get(ruleset_name)
    options = ruleset.resolve(CLASS_OPTIONS[ruleset_name])
    game = ruleset.create(options, SeededDice(stream(seed, DICE)))
    writer = RecordWriter(make_header(ruleset.name, ruleset.recorded(options), "seeded", seed))
    writer.start(game, game.take_events())
    rng = np.random.default_rng(stream(seed, BOTS))
    bots = {side: ruleset.bots[level](rng) for side in ruleset.sides}
    play_out(game, lambda seat: bots[game.side_of(seat)], record=writer)
    return writer.lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="omaha")
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--playouts", type=int, default=COACH_PLAYOUTS)
    args = parser.parse_args()
    lines = played(args.ruleset, args.level, args.seed)
    seats = {str(line["seat"]) for line in lines if line.get("type") == "action"}
    print(f"{args.ruleset}: {len(lines) - 2} steps, {len(seats)} seats played by {args.level}, seed {args.seed}")
    try:
        from grognard.reports import class_reports
    except ImportError:  # before the reports
        class_reports = None
    if class_reports is not None:
        start = time.process_time()
        class_reports(lines, people=None, coaching=None).zip()
        print(f"reports without the coach: {time.process_time() - start:.2f} s CPU")
    start = time.process_time()
    coaching = coach_lines(lines, lambda _line, _seat: True, playouts=args.playouts, seed=args.seed)
    spent = time.process_time() - start
    weighed = [w for w in coaching.weighed if not w.agreed]
    print(
        f"coach: {len(coaching.weighed)} decisions, {len(weighed)} played out ({args.playouts} pairs each), "
        f"{spent:.1f} s CPU ({1000 * spent / max(1, len(coaching.weighed)):.0f} ms a decision)"
    )
    if class_reports is not None:
        start = time.process_time()
        class_reports(lines, people=None, coaching=coaching).zip()
        print(f"reports with the coach: {time.process_time() - start:.2f} s CPU")


if __name__ == "__main__":
    main()
