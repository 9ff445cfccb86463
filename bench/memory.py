"""The memory a long ``grognard simulate`` run holds, for every rule set.

Runs ``grognard simulate RULESET --games N --out DIR`` (the per-game table written as it goes) in a
child process and samples, every ``--every`` seconds, the resident memory of that process and of
its worker processes together (Linux ``/proc``). Prints for each rule set the peak of the whole tree
so far at each quarter of the run (games are played at a steady rate, so a quarter of the time is
about a quarter of the games), and the growth of that peak per 100,000 games between the first and the
third quarter: games being played, imports done, the workers holding their full-sized chunks. The last
quarter's peak is not in that figure: it holds the end of the run, where ``simulate`` writes its summary
and draws its plots (matplotlib, some 35 MB once, whatever the number of games); counting it made a
2,000-raid B-17 run read as 244 MB more per 100,000 raids (issue 33, item 6) where a process playing
raids holds the same after 1,000 raids as after 2,000. A run whose rows are reduced into integer counts as
they arrive (``analysis.montecarlo``) grows by nothing but the histograms' few new keys and the bots'
bounded caches filling.

Nothing here is asserted by the tests.

    python bench/memory.py [--jobs 2] [--every 0.2] [omaha=200000 b17=2000 skirmish=400 ...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = {"omaha": 200_000, "b17": 2_000, "skirmish": 400}
PAGE = os.sysconf("SC_PAGE_SIZE")


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found = [pid]
    for child in Path("/proc").iterdir():
        if not child.name.isdigit():
            continue
        try:
            parent = int((child / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid:
            found.extend(tree(int(child.name)))
    return found


def resident(pid: int) -> int:
    """Bytes resident in ``pid``'s tree (0 once it has gone)."""
    total = 0
    for p in tree(pid):
        try:
            total += int(Path(f"/proc/{p}/statm").read_text().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            pass
    return total


def measure(ruleset: str, games: int, jobs: int, every: float) -> tuple[float, list[tuple[float, int]]]:
    """Run one simulate; its seconds and the (seconds, bytes) samples of its tree."""
    with tempfile.TemporaryDirectory() as out:
        command = [sys.executable, "-m", "grognard", "simulate", ruleset, "--games", str(games)]
        command += ["--jobs", str(jobs), "--out", out]
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        samples: list[tuple[float, int]] = []
        while child.poll() is None:
            samples.append((time.perf_counter() - start, resident(child.pid)))
            time.sleep(every)
        seconds = time.perf_counter() - start
        if child.returncode:
            raise SystemExit(f"{ruleset}: simulate failed: {child.stderr.read() if child.stderr else ''}")
    return seconds, samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "runs",
        nargs="*",
        help="RULESET=GAMES (default: " + " ".join(f"{k}={n}" for k, n in DEFAULT.items()) + ")",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--every", type=float, default=0.2, help="seconds between samples")
    args = parser.parse_args()
    runs = dict(DEFAULT)
    if args.runs:
        runs = {}
        for text in args.runs:
            name, _, count = text.partition("=")
            runs[name] = int(count)
    mb = 1 << 20
    print(f"grognard simulate RULESET --games N --jobs {args.jobs} --out DIR: peak resident memory of its process tree")
    print(f"{'rule set':10} {'games':>9} {'seconds':>8}   peak MB after 1/4, 1/2, 3/4, all   MB per 100k games")
    print(f"{'':30}(all: with the summary and plots)   (from 1/4 to 3/4)")
    for name, games in runs.items():
        seconds, samples = measure(name, games, args.jobs, args.every)
        peaks = [max((b for t, b in samples if t <= seconds * q / 4), default=0) / mb for q in (1, 2, 3, 4)]
        growth = (peaks[2] - peaks[0]) / (games / 2) * 100_000  # while playing: not the outputs at the end
        quarters = " ".join(f"{p:>7.0f}" for p in peaks)
        print(f"{name:10} {games:>9,} {seconds:>8.1f}   {quarters}   {growth:>17.1f}")


if __name__ == "__main__":
    main()
