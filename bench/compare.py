"""Games per second of every rule set on each of its engines, from one run, against the dice floor.

For each row of ``ROWS`` (a rule set, an engine, how to play ``n`` seeded doctrine games on one core)
prints the games per second, and the time per game over the *dice floor*: numpy drawing as many dice
as one game of that rule set rolls (measured on the reference engine), in one call. Beside each row of a
rule set that has a plain script of its rules and doctrine in ``bench/peers/`` (``PEERS``: Omaha, B-17) it
prints that peer's games per second and ours over the peer's: the peer is run once per rule set
(``python bench/peers/RULESET.py --games N``) and times itself by its own CPU time, start-up not counted
(the last number it prints), as the rows time ours. ``--peer RULESET=PATH`` runs another script for a rule
set (the same way: ``--games N``, its games per second last); ``--no-peers`` runs none. With ``--search`` it times the
search bot's decision at 256 playouts, with playouts cut at the depth the rule set's search levels play
(``SEARCH_LEVELS``: what a player of ``search:LEVEL`` waits for) and with playouts run to the game's end.

Times are the CPU time of this process (``time.process_time``), so other work on the machine slows
the figures less than a wall clock would; each peer times its own CPU the same way. Nothing here is
asserted by the tests (they check that the engines play the same games and that this script and the peers
run: tests/test_bench_peers.py).

    python bench/compare.py [--scale 1.0] [--peer omaha=/tmp/peer.py] [--no-peers] [--search] [--only omaha]
"""

from __future__ import annotations

import argparse
import importlib
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from grognard import rulesets
from grognard.analysis.montecarlo import play_one
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out


@dataclass(frozen=True)
class Row:
    """One engine of one rule set: ``play(n)`` plays games 0..n-1 of seed 1, doctrine against doctrine."""

    name: str  # what the row prints: the rule set, and the scenario where it has several
    engine: str  # "reference" (one game at a time) or "batch" (many side by side)
    games: int  # how many games the row plays at --scale 1
    play: Callable[[int], Any]
    ruleset: str
    options: dict[str, Any]


def reference(ruleset: str, options: dict[str, Any] | None = None) -> Callable[[int], Any]:
    """Play ``n`` games one at a time on the fast path (``grognard simulate --engine reference``)."""
    r = rulesets.get(ruleset)
    resolved = r.resolve(options or {})
    bots = {side: "doctrine" for side in r.sides}
    return lambda n: [play_one(r, resolved, bots, 1, index) for index in range(n)]


def batch(ruleset: str, options: dict[str, Any] | None = None) -> Callable[[int], Any]:
    """Play ``n`` games side by side on the rule set's batch path (``grognard simulate``)."""
    r = rulesets.get(ruleset)
    path = r.batch
    assert path is not None
    resolved = r.resolve(options or {})
    bots = {side: "doctrine" for side in r.sides}
    return lambda n: path.play(resolved, bots, 1, 0, n)


def skirmish_rows() -> list[Row]:
    """One reference row per shipped skirmish scenario (village_street, the issue's yardstick, plays the most)."""
    from grognard.rulesets.skirmish.scenario import shipped

    out = []
    for name, _ in shipped():
        options = {"scenario": name}
        games = 20 if name == "village_street" else 6
        out.append(Row(f"skirmish {name}", "reference", games, reference("skirmish", options), "skirmish", options))
    return out


# The rows, in print order.
ROWS: list[Row] = [
    Row("omaha", "reference", 200, reference("omaha"), "omaha", {}),
    Row("omaha", "batch", 20_000, batch("omaha"), "omaha", {}),
    Row("b17", "reference", 60, reference("b17"), "b17", {}),
    *skirmish_rows(),
]


# The plain scripts of a rule set's rules and doctrine, and how many games each plays at --scale 1.
PEERS: dict[str, tuple[Path, int]] = {
    "omaha": (Path(__file__).parent / "peers" / "omaha.py", 300),
    "b17": (Path(__file__).parent / "peers" / "b17.py", 100),
}


def dice_per_game(ruleset: str, options: dict[str, Any], games: int = 10) -> float:
    """The dice (of every size) one doctrine game rolls, on average over ``games`` games (of seed 2: not the
    timed games of seed 1, so that no cache the engine keeps has seen them before they are timed)."""
    r = rulesets.get(ruleset)
    resolved = r.resolve(options)
    total = 0
    for index in range(games):
        counter = SeededDice(stream(2, index, DICE))
        game = r.new_game(resolved, counter)
        rng = np.random.default_rng(stream(2, index, BOTS))
        bots = {side: r.bots["doctrine"](rng) for side in r.sides}
        play_out(game, lambda seat, game=game, bots=bots: bots[game.side_of(seat)], checked=False)
        total += sum(counter.drawn.values())
    return total / games


def dice_floor(count: int, repeats: int = 2000) -> float:
    """Seconds numpy takes to draw ``count`` d6 in one call (the least a game's dice can cost)."""
    rng = np.random.default_rng(2)
    start = time.process_time()
    for _ in range(repeats):
        rng.integers(1, 7, size=count)
    return (time.process_time() - start) / repeats


def timed(play: Callable[[int], Any], games: int) -> float:
    """Seconds of CPU one call of ``play(games)`` takes."""
    start = time.process_time()
    play(games)
    return time.process_time() - start


def peer_speed(path: str | Path, games: int) -> float:
    """Run a peer script for ``games`` games and read its games per second of its own CPU: the last number
    it prints."""
    command = [sys.executable, str(path), "--games", str(games)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    if done.returncode:
        raise SystemExit(f"error: peer {path} failed (exit {done.returncode}): {done.stderr.strip()[-300:]}")
    numbers = re.findall(r"[-+]?\d[\d,]*(?:\.\d+)?", done.stdout)
    if not numbers:
        raise SystemExit(f"error: peer {path} printed no number (its games per second) on standard output")
    return float(numbers[-1].replace(",", ""))


def peers(chosen: list[str], overrides: list[str], scale: float) -> dict[str, float]:
    """Games per second of CPU of the peer of each rule set in ``chosen`` that has one."""
    paths = {name: path for name, (path, _) in PEERS.items()}
    for text in overrides:
        name, sep, path = text.partition("=")
        if not sep or not path:
            raise SystemExit(f"error: --peer {text}: expected RULESET=PATH (e.g. omaha=/tmp/peer.py)")
        paths[name] = Path(path)
    out = {}
    for name, path in paths.items():
        if name in chosen:
            games = max(1, round(PEERS.get(name, (path, 100))[1] * scale))
            out[name] = peer_speed(path, games)
    return out


def search_decision(ruleset: str, depth: int | None, playouts: int = 256, decisions: int = 3) -> float:
    """Seconds of CPU the search bot takes for one decision at ``playouts`` playouts, each cut short
    ``depth`` turns on (``None``: played to the game's end); the mean of the first ``decisions`` it
    makes in a doctrine game."""
    from grognard.bots.search import SearchBot

    r = rulesets.get(ruleset)
    game = r.new_game(r.resolve({}), SeededDice(stream(1, 0, DICE)))
    rng = np.random.default_rng(stream(1, 0, BOTS))
    doctrine = r.bots["doctrine"](rng)
    search = SearchBot(rng, r, playouts=playouts, depth=depth)
    side = r.sides[0]
    spent, made = 0.0, 0
    while game.result is None and made < decisions:
        decision = game.pending()[0]
        if game.side_of(decision.seat) == side and len(decision.space.candidates(2)) > 1:
            start = time.process_time()
            action = search.choose(game, decision)
            spent += time.process_time() - start
            made += 1
        else:
            action = doctrine.choose(game, decision)
        game.apply(decision.seat, action, checked=False, decision=decision)
    return spent / max(made, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every row's number of games")
    parser.add_argument(
        "--peer", action="append", default=[], metavar="RULESET=PATH", help="another peer script for a rule set"
    )
    parser.add_argument("--no-peers", action="store_true", help="run no peer script")
    parser.add_argument("--only", action="append", help="rows of this rule set only (repeatable)")
    parser.add_argument("--search", action="store_true", help="also time the search bot's decision")
    args = parser.parse_args()
    rows = [row for row in ROWS if not args.only or row.ruleset in args.only]
    chosen = sorted({row.ruleset for row in rows})
    speeds = {} if args.no_peers else peers(chosen, args.peer, args.scale)
    floors: dict[str, tuple[float, float]] = {}
    print("doctrine v doctrine, one core, games a second of CPU (each process its own, start-up not counted);")
    print("floor = numpy drawing a game's dice in one call; peer = bench/peers/RULESET.py, a plain script")
    heading = f"{'rule set':26} {'engine':10} {'games':>7} {'games/s':>10} {'x floor':>9}"
    print(heading + (f" {'peer/s':>9} {'x peer':>7}" if speeds else ""))
    for row in rows:
        games = max(1, round(row.games * args.scale))
        if row.name not in floors:
            count = dice_per_game(row.ruleset, row.options, games=min(10, games))
            floors[row.name] = (count, dice_floor(max(round(count), 1)))
        _, floor = floors[row.name]
        seconds = timed(row.play, games)
        speed = games / seconds
        line = f"{row.name:26} {row.engine:10} {games:7} {speed:10,.1f} {seconds / games / floor:9,.0f}"
        peer = speeds.get(row.ruleset)
        if peer:
            line += f" {peer:9,.1f} {speed / peer:7.2f}"
        print(line, flush=True)
    for name, (count, floor) in floors.items():
        print(f"  {name}: {count:,.0f} dice a game; the floor draws them in {floor * 1e6:.1f} us")
    if args.search:
        for name in ("omaha", "b17"):
            depth = importlib.import_module(f"grognard.rulesets.{name}").SEARCH_LEVELS["normal"].depth
            levels = search_decision(name, depth)
            whole = search_decision(name, None)
            print(
                f"  search bot, {name}, 256 playouts: {levels:.2f} s a decision with playouts of {depth} turns "
                f"(the search levels'), {whole:.2f} s with playouts to the game's end",
                flush=True,
            )


if __name__ == "__main__":
    main()
