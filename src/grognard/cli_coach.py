"""``grognard analyse GAME.jsonl --coach [--seat S]``: each decision a person made beside the hard bot's.

The seats coached are ``--seat``'s (a seat, a short label, a list or a side, as ``play --human`` reads
them), or else the people's seats the record names (``grognard play --human``'s header); a record that
names none (a web game's, or bots only) needs ``--seat``. A rich table per seat (every decision: the
turn, the choice, the hard bot's, the side's chance to win after each, the difference with its 95%
interval), then the three decisions that gained or cost the most. See :mod:`grognard.analysis.coach`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from grognard import rulesets
from grognard.analysis.coach import COACH_LEVEL, Coaching, Weighed, coach_lines
from grognard.core.dice import SeededDice
from grognard.core.errors import OptionError, RecordError, TornRecord
from grognard.core.record import read_lines, replay
from grognard.terminal import parse_humans

__all__ = ["coach_command", "coached_seats", "print_coaching"]


def coached_seats(lines: list[dict[str, Any]], seat: str | None) -> list[str]:
    """The seats ``--seat`` names, or the people's the header names; ``OptionError`` when neither says."""
    ruleset = rulesets.get(str(lines[0].get("ruleset")))
    # a game made only to read its seats: any dice will do (ones for every roll could loop a set-up for ever)
    game = ruleset.create(dict(lines[0].get("options") or {}), SeededDice(0), lines[0].get("embedded"))
    if seat is not None:
        return sorted(parse_humans(seat, game, flag="--seat"), key=game.seats().index)
    humans = lines[0].get("humans")
    if isinstance(humans, str) and humans.strip():
        return sorted(parse_humans(humans, game, flag="the record's humans"), key=game.seats().index)
    raise OptionError(
        "--coach: the record does not say which seats people played (a web game's, or bots only); "
        f"name them with --seat (e.g. --seat {game.seats()[0].split()[0].lower()} or --seat '{game.seats()[0]}')"
    )


def _row(w: Weighed) -> list[str]:
    if w.agreed:
        return [str(w.turn), w.made, "same", "", "", "as hard"]
    diff, low, high = w.difference()
    turns = f" ({w.turns():+.1f} turns)" if w.turns() and not diff else ""
    return [
        str(w.turn),
        w.made,
        w.suggested,
        f"{100 * w.p_made():.0f}%",
        f"{100 * w.p_suggested():.0f}%",
        f"{100 * diff:+.0f} [{100 * low:+.0f}, {100 * high:+.0f}]{turns}",
    ]


def print_coaching(coaching: Coaching, seats: list[str], console: Console) -> None:
    """Per seat, the table of its decisions, then its key decisions in plain words."""
    for seat in seats:
        mine = coaching.of([seat])
        table = Table(
            title=f"{seat}: {len(mine)} decisions beside the {COACH_LEVEL} bot's ({coaching.playouts} playouts each)",
            title_justify="left",
        )
        table.add_column("turn", justify="right")
        table.add_column("you chose")
        table.add_column(f"{COACH_LEVEL} bot")
        for head in ("win: yours", f"win: {COACH_LEVEL}", "cost, points [95%]"):
            table.add_column(head, justify="right")
        for w in mine:
            table.add_row(*_row(w))
        console.print(table)
        key = coaching.key([seat])
        if not key:
            console.print(f"{seat}: no decision gained or cost anything the playouts could tell.")
            continue
        console.print(f"{seat}'s key decisions (the difference: the {COACH_LEVEL} bot's chance less yours):")
        for w in key:
            said = f"you chose '{w.made}', the {COACH_LEVEL} bot '{w.suggested}'"
            console.print(f"  turn {w.turn}, line {w.line}: {said}: {w.verdict()}")
            if w.why:
                console.print(f"    the {COACH_LEVEL} bot's reason: {w.why}")


def coach_command(record: Path, seat: str | None, playouts: int, seed: int) -> None:
    """The work of ``analyse --coach``: replay, weigh, print (errors are the caller's one line)."""
    try:
        try:
            lines = read_lines(record)
        except TornRecord:
            lines = read_lines(record, drop_torn=True)
        replay(lines, rulesets.get)  # every digest checked before anything is weighed
    except RecordError as exc:
        raise RecordError(f"{record}: {exc}") from None
    seats = coached_seats(lines, seat)
    chosen = set(seats)
    console = Console(highlight=False, soft_wrap=True)
    errors = Console(stderr=True)

    def wanted(_line: int, who: str) -> bool:
        return who in chosen

    if not errors.is_terminal:
        coaching = coach_lines(lines, wanted, playouts=playouts, seed=seed)
    else:
        columns = (TextColumn("weighing decisions"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=errors, transient=True) as bar:
            task = bar.add_task("coach", total=None)

            def told(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            coaching = coach_lines(lines, wanted, playouts=playouts, seed=seed, progress=told)
    print_coaching(coaching, seats, console)
