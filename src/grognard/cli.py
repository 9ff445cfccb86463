"""The ``grognard`` command: play, and (as the project grows) replay, simulate, odds, render, serve.

Bad input never shows a traceback: one line ``error: ...`` naming the field at
fault, and exit code 2.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from rich.table import Table
from typer.core import TyperGroup

from grognard import __version__, cli_analyse, cli_balance, cli_odds, cli_play, cli_replay, cli_simulate, rulesets
from grognard.cli_common import decimal_number, whole_number
from grognard.cli_common import wide_console as _wide_console
from grognard.core.errors import GrognardError


class _Commands(TyperGroup):
    """The commands; a Ctrl-C no command answers itself says 'interrupted' (exit 130), where Typer ended the
    program with 130 and not a word (balance, sweep, odds, analyse ...)."""

    def invoke(self, ctx: Any) -> Any:  # click.Context, which Typer now vendors (typer._click)
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            raise typer.Exit(130) from None


app = typer.Typer(
    name="grognard",
    help="WWII miniature wargames played exactly as written (Omaha Beach, the B-17 raid, WWII skirmish).",
    add_completion=False,
    cls=_Commands,
)


@app.command()
def rules() -> None:
    """List the rule sets and their options."""
    console = _wide_console()
    for name in rulesets.names():
        ruleset = rulesets.get(name)
        table = Table(title=f"{name}: {ruleset.title} (sides: {', '.join(ruleset.sides)})", title_justify="left")
        for column in ("option", "default", "values", "what it does"):
            table.add_column(column)
        for spec in ruleset.options:
            table.add_row(spec.name, spec.describe_default(), spec.describe_values(), spec.help)
        console.print(table)


@app.command()
def version() -> None:
    """Print grognard's version."""
    print(__version__)


cli_replay.register(app)  # replay, render, sheet
cli_odds.register(app)
cli_simulate.register(app)  # simulate, sweep
cli_balance.register(app)
cli_play.register(app)
cli_analyse.register(app)  # grognard analyse GAME.jsonl


# ---------------------------------------------------------------------- serve (the web play: grognard.web)
@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="the address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="the port to listen on", parser=whole_number)] = 8000,
    lan: Annotated[
        bool, typer.Option("--lan", help="listen on this machine's network; print the join address and a QR code")
    ] = False,
    db: Annotated[
        str | None,
        typer.Option(help="an SQLAlchemy URL (default: an SQLite file in the user's data folder)", metavar="URL"),
    ] = None,
    retention: Annotated[
        float,
        typer.Option(
            metavar="DAYS",
            parser=decimal_number,
            help="each game and its record are deleted this many days after it was made (a host may choose fewer)",
        ),
    ] = 30.0,
    odds_playouts: Annotated[
        int,
        typer.Option(
            metavar="N",
            parser=whole_number,
            envvar="GROGNARD_ODDS_PLAYOUTS",
            help="playouts of each seat's estimate of who is winning, each turn (fewer: less CPU, a rougher bar)",
        ),
    ] = 16,
) -> None:
    """Serve games in the browser: a host makes a game, players join with its room code, bots fill the rest."""
    from grognard.web.serve import run

    run(host, port, lan, db, retention=retention, odds_playouts=odds_playouts)


def _with_the_commands(exc: Exception, message: str) -> str:
    """Click's "No such command 'chess'." with the commands there are (``grognard play``'s rule sets)."""
    ctx: Any = getattr(exc, "ctx", None)
    group: Any = getattr(ctx, "command", None)
    if ctx is None or not message.startswith("No such command") or not hasattr(group, "list_commands"):
        return message
    names = ", ".join(group.list_commands(ctx))
    return f"{message.rstrip('.')}: {ctx.command_path} takes one of {names}"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run the command; bad input is one ``error:`` line and exit code 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        code = app(args=args or ["--help"], prog_name="grognard", standalone_mode=False)
    except GrognardError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except typer.TyperException as exc:
        message = exc.format_message()
        if not message.strip():  # a group called without its command: its help was printed
            return 0
        print(f"error: {_with_the_commands(exc, message)}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2)) or 2
    except BrokenPipeError:  # output piped into a program that stopped reading (head)
        sys.stderr.close()
        return 0
    except OSError as exc:
        where = f" {exc.filename!r}" if exc.filename else ""
        print(f"error: cannot write{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except (typer.Abort, KeyboardInterrupt):
        print("interrupted", file=sys.stderr)
        return 130
    except typer.Exit as exc:
        return exc.exit_code
    return code if isinstance(code, int) else 0


def entry() -> None:
    """Console-script entry point."""
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (head) stopped: nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0 if code == 0 else code
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()
