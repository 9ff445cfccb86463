"""The ``grognard`` command: play, and (as the project grows) replay, simulate, odds, render, serve.

Bad input never shows a traceback: one line ``error: ...`` naming the field at
fault, and exit code 2.
"""

from __future__ import annotations

import inspect
import secrets
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import typer
from rich.console import Console

from grognard import __version__, rulesets
from grognard.core.dice import SeededDice
from grognard.core.engine import Decision, Event, Game
from grognard.core.errors import GrognardError, OptionError
from grognard.core.options import OptionSpec, parse_assignments
from grognard.core.play import play_out
from grognard.core.record import RecordWriter, make_header
from grognard.core.ruleset import Bot, Ruleset

app = typer.Typer(
    name="grognard",
    help="Three WWII miniature wargames played exactly as written.",
    add_completion=False,
)


@app.command()
def rules() -> None:
    """List the rule sets and their options."""
    console = Console()
    for name in rulesets.names():
        ruleset = rulesets.get(name)
        console.print(f"[bold]{name}[/bold]: {ruleset.title} (sides: {', '.join(ruleset.sides)})")
        for spec in ruleset.options:
            console.print(f"  {spec.name}={spec.describe_default():<10} {spec.describe_values():<22} {spec.help}")


@app.command()
def version() -> None:
    """Print grognard's version."""
    print(__version__)


# ---------------------------------------------------------------------- play
def game_streams(seed: int) -> tuple[SeededDice, np.random.Generator]:
    """The dice and the bots' generator of a seeded game: two independent streams of one seed."""
    root = np.random.SeedSequence(seed)
    return SeededDice(np.random.SeedSequence(root.entropy, spawn_key=(0,))), np.random.default_rng(
        np.random.SeedSequence(root.entropy, spawn_key=(1,))
    )


def parse_bots(ruleset: Ruleset, items: Sequence[str]) -> dict[str, str]:
    """``["german=random"]`` as {side: bot name}, checked against the rule set's sides and bots."""
    out = {side: ruleset.default_bot for side in ruleset.sides}
    for item in items:
        side, sep, name = item.partition("=")
        side, name = side.strip().lower(), name.strip().lower()
        if not sep or side not in ruleset.sides:
            raise OptionError(f"--bots {item!r}: expected SIDE=BOT with SIDE one of {', '.join(ruleset.sides)}")
        if name not in ruleset.bots:
            raise OptionError(f"--bots {item!r}: unknown bot {name!r}; bots are: {', '.join(ruleset.bots)}")
        out[side] = name
    return out


def _option_parameter(spec: OptionSpec) -> inspect.Parameter:
    flag = "--" + spec.name.replace("_", "-")
    text = f"{spec.help} (default: {spec.describe_default()}; {spec.describe_values()})"
    if spec.kind is bool:
        default = typer.Option(None, f"{flag}/--no-{flag[2:]}", help=text, show_default=False)
        annotation: Any = bool | None
    else:
        default = typer.Option(None, flag, help=text, metavar="VALUE", show_default=False)
        annotation = str | None
    return inspect.Parameter(spec.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def _play_command(ruleset: Ruleset) -> Callable[..., None]:
    """A ``play RULESET`` command whose flags are the rule set's options, from its data."""
    option_names = [spec.name for spec in ruleset.options]

    def command(**params: Any) -> None:
        given: dict[str, Any] = {}
        given.update(parse_assignments(params.pop("option") or ()))
        for name in option_names:
            value = params.pop(name)
            if value is not None:
                given[name] = value
        run_play(ruleset, given, **params)

    sides = ", ".join(ruleset.sides)
    keyword = inspect.Parameter.KEYWORD_ONLY
    common = [
        inspect.Parameter(
            "seed",
            keyword,
            annotation=int | None,
            default=typer.Option(
                None, help="seed of the dice and bots (default: a fresh one, printed)", show_default=False
            ),
        ),
        inspect.Parameter(
            "option",
            keyword,
            annotation=list[str] | None,
            default=typer.Option(
                None, "--option", "-o", metavar="NAME=VALUE", help="set a scenario option by name (the options below)"
            ),
        ),
        inspect.Parameter(
            "bots",
            keyword,
            annotation=list[str] | None,
            default=typer.Option(
                None,
                "--bots",
                metavar="SIDE=BOT",
                help=f"which bot plays a side ({sides}); bots: {', '.join(ruleset.bots)} "
                f"(default: {ruleset.default_bot})",
            ),
        ),
        inspect.Parameter(
            "record",
            keyword,
            annotation=Path | None,
            default=typer.Option(
                None, dir_okay=False, help="write the game record (JSON Lines) to this file as the game goes"
            ),
        ),
        inspect.Parameter(
            "verbose",
            keyword,
            annotation=bool,
            default=typer.Option(False, "--verbose", "-v", help="print every event, not a summary per turn"),
        ),
        inspect.Parameter(
            "quiet",
            keyword,
            annotation=bool,
            default=typer.Option(False, "--quiet", "-q", help="print only the final summary"),
        ),
    ]
    command.__signature__ = inspect.Signature(common + [_option_parameter(s) for s in ruleset.options])  # type: ignore[attr-defined]
    command.__doc__ = (
        f"Play {ruleset.title}: bots on every seat, turn by turn, to the result.\n\n"
        f"The rules: seed text {ruleset.seed_file}. Every option is also --option NAME=VALUE."
    )
    return command


def run_play(
    ruleset: Ruleset,
    given: dict[str, Any],
    *,
    seed: int | None,
    bots: Sequence[str] | None,
    record: Path | None,
    verbose: bool,
    quiet: bool,
) -> None:
    """Play one bot-vs-bot game and print it; raises GrognardError on bad input (before any output)."""
    options = ruleset.resolve(given)
    chosen = parse_bots(ruleset, bots or ())
    console = Console(highlight=False, soft_wrap=True)
    if seed is None:
        seed = secrets.randbits(32)
    if not 0 <= seed < 2**63:
        raise OptionError(f"--seed {seed}: must be between 0 and 2^63-1")
    dice, bot_rng = game_streams(seed)
    sink = None
    if record is not None:
        try:
            sink = record.open("w", encoding="utf-8")
        except OSError as exc:
            raise OptionError(f"--record {str(record)!r}: {exc.strerror}") from None
    try:
        game = ruleset.new_game(options, dice)
        writer = RecordWriter(make_header(ruleset.name, options, "seeded", seed, bots=chosen), sink)
        start_events = game.take_events()
        writer.start(game, start_events)
        players: dict[str, Bot] = {}

        def player_for(seat: str) -> Bot:
            bot = players.get(seat)
            if bot is None:
                bot = players[seat] = ruleset.bots[chosen[game.side_of(seat)]](bot_rng)
            return bot

        if not quiet:
            shown = ", ".join(f"{k}={v}" for k, v in options.items())
            console.print(f"[bold]{ruleset.title}[/bold]  seed {seed}  ({shown})")
            console.print("bots: " + ", ".join(f"{side} {name}" for side, name in chosen.items()))
        printer = _TurnPrinter(ruleset, game, console, verbose=verbose, quiet=quiet)
        printer.take(start_events)
        result = play_out(game, player_for, record=writer, on_step=printer.step)
        printer.flush()
    finally:
        if sink is not None:
            sink.close()
    console.print()
    outcome = f"{result.winner} win" if result.outcome == "win" else result.outcome
    console.print(f"[bold]Result: {outcome}[/bold] on turn {result.turn}: {result.reason}")
    if ruleset.summary is not None:
        for label, value in ruleset.summary(game):
            console.print(f"  {label:<32} {value}")
    if result.outcome == "scored":
        console.print("  score: " + ", ".join(f"{k} {v}" for k, v in result.scores.items()))
    if record is not None:
        console.print(f"record written to {record}")


class _TurnPrinter:
    """Prints events turn by turn: a compact summary per turn, or every event with --verbose."""

    def __init__(self, ruleset: Ruleset, game: Game, console: Console, *, verbose: bool, quiet: bool) -> None:
        self.ruleset, self.game, self.console = ruleset, game, console
        self.verbose, self.quiet = verbose, quiet
        self.buffer: list[Event] = []
        self.turn: int | None = None

    def take(self, events: list[Event]) -> None:
        for event in events:
            if event.kind == "turn":
                self.flush()
                self.turn = int(event.data["turn"])
            self.buffer.append(event)

    def step(self, decision: Decision, action: Any, events: list[Event]) -> None:
        self.take(events)

    def flush(self) -> None:
        events, self.buffer = self.buffer, []
        if self.quiet or not events:
            return
        public = [e for e in events if e.to is None]
        if self.verbose or self.ruleset.summarize_turn is None:
            lines = [line for e in public if (line := self.ruleset.describe(e))]
        else:
            lines = self.ruleset.summarize_turn(public)
            lines += [line for e in public if e.kind == "game_over" and (line := self.ruleset.describe(e))]
        title = f"Turn {self.turn}" if self.turn is not None else "Setup"
        self.console.print(f"[bold]{title}[/bold]")
        for line in lines:
            self.console.print(f"  {line}")


play_app = typer.Typer(help="Play a rule set: bots on every seat, turn by turn, to the result.", no_args_is_help=True)
for _name in rulesets.names():
    play_app.command(_name)(_play_command(rulesets.get(_name)))
app.add_typer(play_app, name="play")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run the command; bad input is one ``error:`` line and exit code 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        code = app(args=args or ["--help"], prog_name="grognard", standalone_mode=False)
    except GrognardError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except typer.TyperException as exc:
        print(f"error: {exc.format_message()}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2)) or 2
    except (typer.Abort, KeyboardInterrupt):
        print("interrupted", file=sys.stderr)
        return 130
    except typer.Exit as exc:
        return exc.exit_code
    return code if isinstance(code, int) else 0


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    entry()
