"""A fingerprint of play: many seeded doctrine games, reduced to one hash per rule set or scenario.

Run it before and after a change that must not change play (a refactor, a speed-up); the hashes
must be identical. Each game's row (result, winner, turn and every metric the rule set measures:
men lost, bomb hits, ...) comes from the same code as ``grognard simulate`` (``play_one``, the
fast path), so a row differs exactly when a game plays differently.

    python bench/fingerprint.py skirmish --games 500 --jobs 2          # every shipped scenario
    python bench/fingerprint.py skirmish -s village_street -n 50
    python bench/fingerprint.py omaha b17 -n 1000 --out before.json
    python bench/fingerprint.py skirmish --compare before.json       # exit 1 on any difference
    python bench/fingerprint.py skirmish -s convoy --first 100 -n 400  # games 100..499 only

The rows of every game are written with ``--out`` so two runs can be compared game by game.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from importlib import resources
from typing import Any

from grognard.analysis.montecarlo import play_one


def scenarios() -> list[str]:
    folder = resources.files("grognard.rulesets.skirmish") / "scenarios"
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def targets(names: list[str], chosen: list[str] | None) -> list[tuple[str, str, dict[str, Any]]]:
    """(key, rule set, options) for each fingerprint to take."""
    out = []
    for name in names:
        if name == "skirmish":
            for scenario in chosen or scenarios():
                out.append((f"skirmish/{scenario}", name, {"scenario": scenario}))
        else:
            out.append((name, name, {}))
    return out


def one(task: tuple[str, dict[str, Any], int, int]) -> dict[str, Any]:
    """Game ``index``'s row; a game that raises is a row too (a crash is behaviour, and a refactor keeps it)."""
    from grognard import rulesets

    name, options, seed, index = task
    r = rulesets.get(name)
    try:
        return play_one(r, r.resolve(options), {side: "doctrine" for side in r.sides}, seed, index)
    except Exception as exc:  # recorded, not hidden
        return {"game": index, "error": f"{type(exc).__name__}: {exc}"}


def fingerprint(
    ruleset: str, options: dict[str, Any], games: int, seed: int, jobs: int, first: int = 0
) -> tuple[str, list[Any]]:
    tasks = [(ruleset, options, seed, i) for i in range(first, first + games)]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            rows = pool.map(one, tasks, chunksize=8)
    else:
        rows = [one(t) for t in tasks]
    text = json.dumps(rows, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16], rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=["omaha", "b17", "skirmish"])
    parser.add_argument("-s", "--scenario", action="append", help="skirmish scenario (default: every shipped one)")
    parser.add_argument("-n", "--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="index of the first game (to split a long run)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", help="write every game's row here (JSON)")
    parser.add_argument("--compare", help="a file written by --out: say which games differ; exit 1 if any")
    args = parser.parse_args()
    found: dict[str, Any] = {}
    for key, ruleset, options in targets(args.rulesets, args.scenario):
        start = time.perf_counter()
        digest, rows = fingerprint(ruleset, options, args.games, args.seed, args.jobs, args.first)
        seconds = time.perf_counter() - start
        found[key] = {"games": args.games, "first": args.first, "seed": args.seed, "sha256": digest, "rows": rows}
        errors = sum(1 for row in rows if "error" in row)
        crashed = f"  {errors} games raised" if errors else ""
        span = f"games {args.first}..{args.first + args.games - 1}" if args.first else f"{args.games:6} games"
        print(f"{key:28} {span}  seed {args.seed}  {digest}  ({seconds:.1f} s){crashed}", flush=True)
        if args.out:  # after each target, so a long run that is stopped keeps what it finished
            with open(args.out, "w" if len(found) > 1 else "x", encoding="utf-8") as fh:
                json.dump(found, fh, sort_keys=True, default=str)
    if args.compare:
        with open(args.compare, encoding="utf-8") as fh:
            before = json.load(fh)
        differ = 0
        for key, now in found.items():
            then = before.get(key)
            if then is None:
                print(f"{key}: not in {args.compare}")
                continue
            if then["sha256"] == now["sha256"]:
                print(f"{key}: identical")
                continue
            differ += 1
            rows_then = json.loads(json.dumps(then["rows"], default=str))
            rows_now = json.loads(json.dumps(now["rows"], default=str))
            bad = [i for i, (a, b) in enumerate(zip(rows_then, rows_now, strict=False)) if a != b]
            print(f"{key}: DIFFERS in {len(bad)} games, first {bad[:5]}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
