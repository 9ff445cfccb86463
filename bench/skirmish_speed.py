"""Skirmish games per CPU-second of a scenario, doctrine against doctrine, and where the time goes.

Plays games 0..n-1 of seed 1 on the fast path (``grognard simulate --engine reference --jobs 1``'s games,
``play_one``) after one game to warm the scenario's caches, timed by this process's CPU time
(``time.process_time``: other work on a loaded machine slows it less than a wall clock). Prints the games per
CPU-second and a hash of the games' rows (the same on two trees that play alike); with ``--profile`` also
the top entries of a cProfile on CPU time, by own time and by cumulative time. Nothing here is asserted.

    python bench/skirmish_speed.py castle_storm convoy gun_line_armour village_street -n 30
    python bench/skirmish_speed.py gun_line_armour -n 15 --profile --top 25

To compare two trees on a loaded machine, run them alternately with ``PYTHONPATH=OTHER/src``.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import time

from grognard import rulesets
from grognard.analysis.montecarlo import play_one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="+")
    parser.add_argument("-n", "--games", type=int, default=30)
    parser.add_argument("--profile", action="store_true", help="print the top entries of a CPU-time profile")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    ruleset = rulesets.get("skirmish")
    bots = {side: "doctrine" for side in ruleset.sides}
    for name in args.scenarios:
        options = ruleset.resolve({"scenario": name})
        play_one(ruleset, options, bots, 1, 0)  # the scenario's tables and caches, made before timing
        profile = cProfile.Profile(time.process_time) if args.profile else None
        start = time.process_time()
        if profile is not None:
            profile.enable()
        rows = [play_one(ruleset, options, bots, 1, index) for index in range(args.games)]
        if profile is not None:
            profile.disable()
        cpu = time.process_time() - start
        digest = hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode()).hexdigest()[:16]
        print(f"{name:16} {args.games} games  {cpu:.2f} CPU s  {args.games / cpu:.1f} games/CPU-s  rows {digest}")
        if profile is not None:
            stats = pstats.Stats(profile)
            stats.sort_stats("tottime").print_stats(args.top)
            stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
