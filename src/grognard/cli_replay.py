"""grognard replay, render and sheet: a record rebuilt and checked, drawn at a turn, a printable sheet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from grognard import rulesets
from grognard.cli_common import FORCE_HELP, check_output, check_seed, whole_number
from grognard.cli_common import KNOWN as _KNOWN
from grognard.cli_game import print_result
from grognard.core import plans
from grognard.core.engine import Game
from grognard.core.errors import OptionError, RecordError, TornRecord
from grognard.core.files import write_output
from grognard.core.options import parse_assignments
from grognard.core.reasons import Reason
from grognard.core.record import (
    Replay,
    ended_words,
    readable_by,
    replay,
)
from grognard.core.ruleset import Ruleset
from grognard.render import write_picture
from grognard.terminal import one_seat


def _replay_to(record: Path, turn: int | None, flag: str) -> Replay:
    """The record replayed (every digest checked) to the start of ``turn``, or to its end."""
    if turn is not None and turn < 0:
        raise OptionError(f"{flag} {turn}: a turn is 0 or more")
    until = None if turn is None else (lambda game: game.turn >= turn)
    try:
        try:
            return replay(record, rulesets.get, until=until)
        except TornRecord as torn:  # a crash while the last line was written: the lines before it still hold
            Console(stderr=True, highlight=False, soft_wrap=True).print(
                f"note: {record}: line {torn.line} is cut short (the game stopped while writing it); "
                f"read without it (grognard play --resume offers to drop it)"
            )
            return replay(record, rulesets.get, until=until, drop_torn=True)
    except RecordError as exc:
        raise RecordError(f"{record}: {exc}") from None


def replay_command(
    record: Annotated[
        Path,
        typer.Argument(metavar="GAME.jsonl", help="a game record (JSON Lines) written by --record", dir_okay=False),
    ],
    to: Annotated[
        int | None, typer.Option("--to", metavar="TURN", help="stop at the start of this turn", parser=whole_number)
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option(
            "--seat",
            metavar="SEAT",
            help="with --out: write the record as SEAT may read it ('spectator': no seat); another seat's "
            "secret choice not yet revealed shows as 'sealed'",
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", dir_okay=False, help="write the readable record (--seat) to this file")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="print each bot move's reason kept in the record (as --seat may read it; default: a spectator)",
        ),
    ] = False,
) -> None:
    """Rebuild a game from its record, checking every die and digest; name the first line that diverges."""
    if (seat is None) != (out is None) and not (explain and out is None):
        raise OptionError("--seat and --out go together: --seat SEAT --out FILE writes the record as SEAT may read it")
    if out is not None:
        if out.resolve() == record.resolve():
            raise OptionError(f"--out {str(out)!r}: the record itself; give a new file (nothing was written)")
        check_output(out, force, "--out")
    rebuilt = _replay_to(record, to, "--to")
    if explain:
        check_reasons(record, rebuilt)
    game = rebuilt.game
    if rebuilt.complete and rebuilt.sealed_at is None and (game.is_over or rebuilt.ended is not None):
        for side, kept in sorted(rebuilt.plans.items()):  # a finished game's bots must prove their plan
            if kept["revealed"] is None:
                raise RecordError(
                    f"{record}: line {rebuilt.lines}: the game is over but the {side} plan committed at line "
                    f"{kept['line']} is never revealed"
                )
    header = rebuilt.header
    console = Console(highlight=False, soft_wrap=True)
    if seat is not None and out is not None:
        reader = one_seat(seat, game)
        lines = readable_by(rebuilt.used, reader)
        if "view" in lines[0]:  # a view says where the whole record is: it is never resumed in its place
            whole = (rebuilt.view or {}).get("record") or str(record.resolve())
            lines[0]["view"] = {**lines[0]["view"], "record": whole}
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
        try:
            write_output(out, text, replace=force)  # whole; without --force, never over a file already there
        except FileExistsError:
            raise OptionError(
                f"--out {str(out)!r}: the file is already there; --force writes over it (nothing was written)"
            ) from None
        except OSError as exc:
            raise OptionError(f"--out {str(out)!r}: {exc.strerror}") from None
        console.print(f"wrote the record as {reader or 'a spectator'} may read it to {out}")
    if explain:
        print_reasons(rebuilt, one_seat(seat, game) if seat is not None else None, console)
    seed = f"seed {header.get('seed')}" if header.get("dice") == "seeded" else f"{header.get('dice')} dice"
    console.print(
        f"{record}: {header.get('ruleset')} game, {seed}; {rebuilt.lines} lines replayed, "
        f"{rebuilt.actions} actions; every die and digest matches the record"
    )
    whole = (rebuilt.view or {}).get("record")
    if rebuilt.sealed_at is not None:
        console.print(
            f"this record is one seat's view: replayed up to line {rebuilt.sealed_at}, which holds another seat's "
            f"choice still sealed (turn {game.turn}); the full record replays to the end"
            + (f" (it is {whole})" if isinstance(whole, str) else "")
        )
    elif not rebuilt.complete:
        console.print(f"stopped at the start of turn {game.turn} as asked (--to {to})")
    elif rebuilt.ended is not None:
        standing = "; ".join(f"{label} {value}" for label, value in rebuilt.ended.get("standing", []))
        console.print(f"the game was {ended_words(rebuilt.ended)}" + (f"; as it stood: {standing}" if standing else ""))
    elif game.result is None:
        console.print(f"the game is not over: it stands at turn {game.turn} (continue it with --resume)")
    ruleset = rulesets.get(str(header.get("ruleset")))
    for line in plan_lines(ruleset, game, rebuilt.plans):
        console.print(line)
    if game.result is not None:
        print_result(ruleset, game, console)


def check_reasons(record: Path, rebuilt: Replay) -> None:
    """Each reason kept in the record read as one, before anything is printed or written: they are kept outside
    the digests, so a reason edited by hand is named by line (the moves replay without them)."""
    for number, line in enumerate(rebuilt.used, 1):
        wrong = Reason.problem(line["reason"]) if line.get("type") == "action" and "reason" in line else None
        if wrong is not None:
            raise RecordError(f"{record}: line {number}: {wrong} (edited by hand? no digest covers a reason)")


def print_reasons(rebuilt: Replay, reader: str | None, console: Console) -> None:
    """Each bot move's reason kept in the record, as ``reader`` may read it (a secret choice's, once revealed)."""
    told = 0
    for number, line in enumerate(readable_by(rebuilt.used, reader), 1):
        reason = line.get("reason")
        if line.get("type") != "action" or not isinstance(reason, dict):
            continue
        first, *rest = Reason.from_json(reason).lines()
        console.print(escape(f"line {number}, {line.get('seat')}: {first}"))
        for more in rest:
            console.print(escape(more))
        told += 1
    if not told:
        console.print(
            "no reasons in this record: a game keeps its bots' reasons when played with --explain, "
            "with a person at the keyboard, or in the browser"
        )


def plan_lines(ruleset: Ruleset, game: Game, committed: dict[str, dict[str, Any]]) -> list[str]:
    """What a record's plan lines prove, a line a side: the plan revealed and checked, or still sealed."""
    offered = plans.offered(ruleset, game)
    out = []
    for side, kept in sorted(committed.items()):
        if kept["revealed"] is None:
            out.append(f"the {side} bots' plan: committed at line {kept['line']}, sealed until the game's end")
            continue
        name = kept["plan"]
        told = next((p.description for p in offered.get(side, ()) if p.name == name), "")
        out.append(
            f"the {side} bots' plan: {name}" + (f" ({told})" if told else "") + f"; revealed at line "
            f"{kept['revealed']}, it matches the commitment of line {kept['line']}"
        )
    return out


def render_command(
    ruleset_name: Annotated[str, typer.Argument(metavar="RULESET", help=f"the rule set of the record ({_KNOWN})")],
    record: Annotated[Path, typer.Argument(metavar="GAME.jsonl", help="a game record (JSON Lines)", dir_okay=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="the picture to write: .svg or .png")],
    turn: Annotated[
        int | None,
        typer.Option("--turn", metavar="T", help="the start of turn T (default: the end)", parser=whole_number),
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option("--seat", metavar="SEAT", help="draw what this seat sees (e.g. A3, G1; default: spectator)"),
    ] = None,
    focus: Annotated[
        str | None,
        typer.Option(
            "--focus",
            metavar="UNIT",
            help="single out one unit (b17: the 4\" rings of bomber B2's guns; skirmish: man A.3's firing lines)",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
) -> None:
    """Draw the table of a recorded game at a turn, from a seat's view."""
    ruleset = rulesets.get(ruleset_name)
    if ruleset.render is None:
        raise OptionError(f"{ruleset.name} cannot be drawn yet")
    check_output(output, force, "-o")
    rebuilt = _replay_to(record, turn, "--turn")
    if rebuilt.header.get("ruleset") != ruleset.name:
        raise OptionError(f"{record}: the record's rule set is {rebuilt.header.get('ruleset')}, not {ruleset.name}")
    game = rebuilt.game
    if turn is not None and game.turn < turn:
        if rebuilt.sealed_at is not None:
            raise OptionError(
                f"--turn {turn}: this seat's view of the game stops on turn {game.turn}, at line "
                f"{rebuilt.sealed_at} (another seat's choice still sealed)"
            )
        ended = "the game ended" if game.is_over else "the record stops"
        raise OptionError(f"--turn {turn}: {ended} on turn {game.turn}")
    viewer = None
    if seat is not None:
        viewer = one_seat(seat, game)
    view = game.view(viewer)
    if focus is not None:
        view["focus"] = focus.upper()
    write_picture(ruleset.render(view), output)
    print(f"drew turn {game.turn} of {record} to {output}")
    if rebuilt.sealed_at is not None and turn is None:
        print(f"(this record is one seat's view: drawn as it stands before line {rebuilt.sealed_at}, a sealed choice)")


def sheet_command(
    ruleset_name: Annotated[str, typer.Argument(metavar="RULESET", help=f"the rule set ({_KNOWN})")],
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FILE.pdf", help="the PDF to write")],
    seed: Annotated[
        int,
        typer.Option(
            "--seed", help="the dice of the setup: the same board as grognard play --seed", parser=whole_number
        ),
    ] = 1,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", metavar="NAME=VALUE", help="a scenario option (the odds and the setup follow it)"),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
) -> None:
    """A printable PDF: the quick-reference card (sequence of play, options in force, every mechanic's odds);
    Omaha's beach set up with the seed's obstacles; the B-17 table layout."""
    from grognard.sheets import write_sheet

    check_seed(seed)  # the card names 'grognard play --seed N': a seed play takes
    ruleset = rulesets.get(ruleset_name)
    pages = write_sheet(ruleset, output, parse_assignments(option or ()), seed, force=force)
    print(f"wrote {output} ({pages} pages; {ruleset.title}, seed {seed})")


def register(app: typer.Typer) -> None:
    """Add replay, render and sheet to ``app``."""
    app.command("replay")(replay_command)
    app.command("render")(render_command)
    app.command("sheet")(sheet_command)
