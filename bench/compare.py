"""Games per second of every rule set on each of its engines, from one run, against the dice floor.

For each row of ``ROWS`` (a rule set, an engine, how to play ``n`` seeded doctrine games on one core)
prints the games per second, and the time per game over the *dice floor*: numpy drawing as many dice
as one game of that rule set rolls (measured on the reference engine), in one call. Beside each row of a
rule set that has a plain script of its rules and doctrine in ``bench/peers/`` (``PEERS``: Omaha, B-17) it
prints that peer's games per second and ours over the peer's. The peer (``python bench/peers/RULESET.py --games
N``) times itself by its own CPU time, start-up not counted (the last number it prints), as the rows time ours;
the rule set's first row and its peer are timed in turn, each in a fresh process, ``--rounds`` times with the
order swapped each round, and the table gives their medians and each round's ratio (one reading of each,
minutes apart, moved with the host: 0.84 to 1.50 of the peer in one morning's runs of the same code).
``--peer RULESET=PATH`` runs another script for a rule set (the same way: ``--games N``, its games per second
last); ``--no-peers`` runs none. With ``--search`` it times the
search bot's decision at 256 playouts, with playouts cut at the depth the rule set's search levels play
(``SEARCH_LEVELS``: what a player of ``search:LEVEL`` waits for) and with playouts run to the game's end.

Times are the CPU time of this process (``time.process_time``), so other work on the machine slows
the figures less than a wall clock would; each peer times its own CPU the same way. Nothing here is
asserted by the tests (they check that the engines play the same games and that this script and the peers
run: tests/test_bench_peers.py).

With ``--against REV`` (a git revision of this repository, or a tree's ``src`` directory) it times each row
on this tree and on that one instead, each in a fresh process after the same warm-up, the two in turn
(``--rounds`` times, the order swapped each round, so a host that slows or speeds up mid-run falls on both
alike), and prints each tree's games a second (the median of its rounds) and ours over theirs, round by round:
how much faster this code plays the same games than, say, the code an issue measured, on whatever host runs it.

    python bench/compare.py [--scale 1.0] [--peer omaha=/tmp/peer.py] [--no-peers] [--search] [--only omaha]
    python bench/compare.py --scale 4 --against 1184eac [--rounds 2]
"""

from __future__ import annotations

import argparse
import functools
import importlib
import io
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
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


RULESETS = tuple(dict.fromkeys(row.ruleset for row in ROWS))  # the rule sets with rows, in print order


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
        play_out(game, functools.partial(_bot_of, game, bots), checked=False)
        total += sum(counter.drawn.values())
    return total / games


def _bot_of(game: Any, bots: dict[str, Any], seat: str) -> Any:
    """The bot of ``seat``'s side."""
    return bots[game.side_of(seat)]


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
    return {name: peer_speed(path, games) for name, (path, games) in peer_paths(chosen, overrides, scale).items()}


def peer_paths(chosen: list[str], overrides: list[str], scale: float) -> dict[str, tuple[Path, int]]:
    """The peer script of each rule set in ``chosen`` that has one (``--peer`` overrides), and its games."""
    paths = {name: path for name, (path, _) in PEERS.items()}
    for text in overrides:
        name, sep, given = text.partition("=")
        if not sep or not given:
            raise SystemExit(f"error: --peer {text}: expected RULESET=PATH (e.g. omaha=/tmp/peer.py)")
        if name not in RULESETS:
            raise SystemExit(f"error: --peer {text}: no rule set {name!r} here ({', '.join(RULESETS)})")
        if not Path(given).is_file():
            raise SystemExit(f"error: --peer {text}: no file {given}")
        paths[name] = Path(given)
    return {
        name: (path, max(1, round(PEERS.get(name, (path, 100))[1] * scale)))
        for name, path in paths.items()
        if name in chosen
    }


def in_turn(
    rounds: int, ours: Callable[[], float | None], theirs: Callable[[], float | None]
) -> tuple[list[float], list[float]] | None:
    """``ours()`` and ``theirs()`` (games a second each), called in turn ``rounds`` times, the order swapped each
    round, so a host that slows or speeds up mid-run falls on both alike: their readings, a round each; None as
    soon as one gives None (a row the other tree has not got)."""
    mine: list[float] = []
    other: list[float] = []
    for k in range(rounds):
        for time_ours in (False, True) if k % 2 else (True, False):
            speed = ours() if time_ours else theirs()
            if speed is None:
                return None
            (mine if time_ours else other).append(speed)
    return mine, other


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


def against_source(where: str) -> tuple[Path, Callable[[], None]]:
    """The ``src`` directory of the tree ``--against`` names, and how to clean up after it: ``where`` is a
    directory holding the ``grognard`` package (or its parent's ``src`` does), or a git revision of this
    repository, whose ``src`` is exported (``git archive``) to a temporary directory the clean-up removes.

    Raises SystemExit with one line when ``where`` is neither."""
    path = Path(where)
    if path.is_dir():
        src = path / "src" if (path / "src" / "grognard").is_dir() else path
        if not (src / "grognard" / "__init__.py").is_file():
            raise SystemExit(f"error: --against {where}: no grognard package there (a tree's src, or a git revision)")
        return src.resolve(), lambda: None
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", where, "src"], capture_output=True)
    if done.returncode:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        said = why[-1] if why else "git failed"
        raise SystemExit(f"error: --against {where}: neither a directory nor a git revision of {root} ({said})")
    tmp = Path(tempfile.mkdtemp(prefix="grognard-against-"))
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
        archive.extractall(tmp, filter="data")
    return tmp / "src", lambda: shutil.rmtree(tmp, ignore_errors=True)


NO_ROW = 3  # the exit code of a --row its tree has not got (a scenario shipped since, say)


def row_speed(src: Path | None, row: Row, games: int, label: str = "this tree") -> float | None:
    """Games a second of CPU of ``row`` played ``games`` times in a fresh process, on the tree whose ``src`` is
    ``src`` (None: the grognard this process imports), after the table's warm-up; None if that tree has no
    such row. ``label`` names the tree in an error (``--against``'s revision, not its temporary copy)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), *filter(None, [env.get("PYTHONPATH")])])
    script = str(Path(__file__).resolve())
    command = [sys.executable, script, "--row", f"{row.name}/{row.engine}", "--games", str(games)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=3600)
    if done.returncode == NO_ROW:
        return None
    if done.returncode:
        why = done.stderr.strip().splitlines()
        said = why[-1] if why else f"exit {done.returncode}"
        old = " (this script needs grognard.analysis.montecarlo.play_one and core.dice's streams: too old?)"
        hint = old if src is not None and ("ImportError" in said or "ModuleNotFoundError" in said) else ""
        raise SystemExit(f"error: timing {row.name} ({row.engine}) on {label} failed: {said}{hint}")
    return float(done.stdout.split()[-1])


def play_row(name: str, games: int) -> None:
    """``--row NAME/ENGINE``: warm up as the table does, play the row ``games`` times and print its games a
    second of CPU (exit ``NO_ROW`` when this tree has no such row)."""
    found = [row for row in ROWS if f"{row.name}/{row.engine}" == name]
    if not found:
        print(f"error: --row {name}: no such row here", file=sys.stderr)
        raise SystemExit(NO_ROW)
    row = found[0]
    dice_per_game(row.ruleset, row.options, games=min(10, games))  # the table's warm-up: its dice count
    print(f"{games / timed(row.play, games):.3f}")


def against(rows: list[Row], scale: float, where: str, rounds: int) -> None:
    """Time each of ``rows`` on this tree and on the tree ``where`` names (``against_source``), in turn."""
    if rounds < 1:
        raise SystemExit(f"error: --rounds {rounds}: at least 1")
    src, clean = against_source(where)
    try:
        print(f"this tree against {where}: each row in fresh processes, the two in turn, {rounds} round(s),")
        print("games a second of CPU (the median of the rounds), ours over theirs (the median, then each round's)")
        print(f"{'rule set':26} {'engine':10} {'games':>7} {'ours':>9} {'theirs':>9} {'ours/theirs':>12}  rounds")
        for row in rows:
            games = max(1, round(row.games * scale))
            read = in_turn(
                rounds,
                functools.partial(row_speed, None, row, games),
                functools.partial(row_speed, src, row, games, where),
            )
            if read is None:  # every row is in this tree: ROWS is its
                print(f"{row.name:26} {row.engine:10} {games:7}  (not in that tree)")
                continue
            mine, theirs = read
            ratios = [m / t for m, t in zip(mine, theirs, strict=True)]
            each = ", ".join(f"{r:.2f}" for r in ratios)
            line = f"{row.name:26} {row.engine:10} {games:7} {statistics.median(mine):9,.1f}"
            print(f"{line} {statistics.median(theirs):9,.1f} {statistics.median(ratios):12.2f}  {each}", flush=True)
    finally:
        clean()


def checked_rows(args: argparse.Namespace) -> list[Row]:
    """The rows ``args`` asks for, or SystemExit with one line naming the option at fault."""
    if not args.scale > 0:
        raise SystemExit(f"error: --scale {args.scale}: more than 0 (1.0 plays each row's games)")
    if args.rounds < 1:
        raise SystemExit(f"error: --rounds {args.rounds}: at least 1")
    unknown = [name for name in args.only or [] if name not in RULESETS]
    if unknown:
        raise SystemExit(f"error: --only {unknown[0]}: no such rule set here ({', '.join(RULESETS)})")
    if args.against is not None:
        if not args.against.strip():
            raise SystemExit("error: --against: empty (a git revision, or a tree's src directory)")
        extra = [
            flag for flag, on in (("--search", args.search), ("--peer", args.peer), ("--no-peers", args.no_peers)) if on
        ]
        if extra:
            raise SystemExit(f"error: {extra[0]} with --against: that run times the rows on the two trees only")
    return [row for row in ROWS if not args.only or row.ruleset in args.only]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every row's number of games (1.0)")
    parser.add_argument(
        "--peer", action="append", default=[], metavar="RULESET=PATH", help="another peer script for a rule set"
    )
    parser.add_argument("--no-peers", action="store_true", help="run no peer script")
    parser.add_argument(
        "--only", action="append", help=f"rows of this rule set only, repeatable: {', '.join(RULESETS)}"
    )
    parser.add_argument("--search", action="store_true", help="also time the search bot's decision")
    parser.add_argument(
        "--against", metavar="REV", help="time each row on this tree and on another (a git revision or a tree's src)"
    )
    parser.add_argument("--rounds", type=int, default=2, help="runs of a row timed in turn with its peer or tree (2)")
    parser.add_argument("--row", help=argparse.SUPPRESS)  # NAME/ENGINE: one row's games a second (--against's)
    parser.add_argument("--games", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.row:
        play_row(args.row, args.games)
        return
    rows = checked_rows(args)
    if args.against is not None:
        against(rows, args.scale, args.against, args.rounds)
        return
    chosen = sorted({row.ruleset for row in rows})
    paths = {} if args.no_peers else peer_paths(chosen, args.peer, args.scale)
    speeds: dict[str, float] = {}  # each peer's games a second (the median of its rounds)
    floors: dict[str, tuple[float, float]] = {}
    print("doctrine v doctrine, one core, games a second of CPU (each process its own, start-up not counted);")
    print("floor = numpy drawing a game's dice in one call; peer = bench/peers/RULESET.py, a plain script")
    heading = f"{'rule set':26} {'engine':10} {'games':>7} {'games/s':>10} {'x floor':>9}"
    print(heading + (f" {'peer/s':>9} {'x peer':>7}  rounds" if paths else ""))
    for row in rows:
        games = max(1, round(row.games * args.scale))
        if row.name not in floors:
            count = dice_per_game(row.ruleset, row.options, games=min(10, games))
            floors[row.name] = (count, dice_floor(max(round(count), 1)))
        _, floor = floors[row.name]
        each = ""
        if row.ruleset in paths and row.ruleset not in speeds:  # its first row: timed in turn with the peer
            read = in_turn(
                args.rounds,
                functools.partial(row_speed, None, row, games),
                functools.partial(peer_speed, *paths[row.ruleset]),
            )
            assert read is not None  # neither gives None: ROWS is this tree's, and a peer gives a figure or exits
            mine, theirs = read
            speed, speeds[row.ruleset] = statistics.median(mine), statistics.median(theirs)
            each = "  " + ", ".join(f"{m / t:.2f}" for m, t in zip(mine, theirs, strict=True))
        else:
            speed = games / timed(row.play, games)
        line = f"{row.name:26} {row.engine:10} {games:7} {speed:10,.1f} {1 / speed / floor:9,.0f}"
        peer = speeds.get(row.ruleset)
        if peer:
            line += f" {peer:9,.1f} {speed / peer:7.2f}{each}"
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
    try:
        main()
    except KeyboardInterrupt:  # a temporary tree is removed on the way out (against's finally)
        print("interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    except SystemExit as stop:
        if isinstance(stop.code, str):  # one line, and the exit code of the grognard command's bad input
            print(stop.code, file=sys.stderr)
            raise SystemExit(2) from None
        raise
