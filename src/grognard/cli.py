"""The ``grognard`` command: play, and (as the project grows) replay, simulate, odds, render, serve.

Bad input never shows a traceback: one line ``error: ...`` naming the field at
fault, and exit code 2.
"""

from __future__ import annotations

import inspect
import itertools
import json
import os
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import IO, Annotated, Any

import numpy as np
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from grognard import __version__, cli_analyse, rulesets
from grognard.analysis.montecarlo import ENGINES, Plan, Summary, batched, default_jobs, simulate
from grognard.analysis.odds import odds_figures, table_json
from grognard.analysis.report import TableWriter, figures, sparkline, write_outputs, write_sweep
from grognard.analysis.stats import wilson
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.engine import Event, Game
from grognard.core.errors import GrognardError, OptionError, RecordError, TornRecord
from grognard.core.options import OptionSpec, parse_assignments
from grognard.core.record import (
    RecordWriter,
    Replay,
    StepCounter,
    drop_torn_line,
    make_header,
    readable_by,
    replay,
    sync_file,
)
from grognard.core.ruleset import Ruleset
from grognard.render import write_picture
from grognard.terminal import Prompter, Quit, Session, TypedDice, parse_humans

app = typer.Typer(
    name="grognard",
    help="WWII miniature wargames played exactly as written (Omaha Beach, the B-17 raid, WWII skirmish).",
    add_completion=False,
)


_KNOWN = ", ".join(rulesets.names())  # for the RULESET argument's help


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


def _reader(game: Game, seat: str) -> str | None:
    """The seat named by ``seat`` (any case), or None for 'spectator'; OptionError names the seats."""
    if seat.lower() == "spectator":
        return None
    for name in game.seats():
        if name.lower() == seat.lower():
            return name
    short = {f"{s.split()[0][0]}{s.split()[-1]}".upper(): s for s in game.seats() if len(s.split()) == 2}
    if seat.upper() in short:  # a short label, as render --seat and --human take (G1 for German 1)
        return short[seat.upper()]
    raise OptionError(f"--seat {seat!r}: no such seat; seats: {', '.join(game.seats())}, or spectator")


@app.command("replay")
def replay_command(
    record: Annotated[Path, typer.Argument(help="a game record (JSON Lines) written by --record", dir_okay=False)],
    to: Annotated[int | None, typer.Option("--to", metavar="TURN", help="stop at the start of this turn")] = None,
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
) -> None:
    """Rebuild a game from its record, checking every die and digest; name the first line that diverges."""
    if (seat is None) != (out is None):
        raise OptionError("--seat and --out go together: --seat SEAT --out FILE writes the record as SEAT may read it")
    rebuilt = _replay_to(record, to, "--to")
    game = rebuilt.game
    header = rebuilt.header
    console = Console(highlight=False, soft_wrap=True)
    if seat is not None and out is not None:
        reader = _reader(game, seat)
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in readable_by(rebuilt.used, reader))
        try:
            with out.open("x", encoding="utf-8") as handle:  # "x": never over a file already there
                handle.write(text)
        except FileExistsError:
            what = "the record itself" if out.resolve() == record.resolve() else "a file already there"
            raise OptionError(f"--out {str(out)!r}: {what}; give a new file (nothing was written)") from None
        except OSError as exc:
            raise OptionError(f"--out {str(out)!r}: {exc.strerror}") from None
        console.print(f"wrote the record as {reader or 'a spectator'} may read it to {out}")
    seed = f"seed {header.get('seed')}" if header.get("dice") == "seeded" else f"{header.get('dice')} dice"
    console.print(
        f"{record}: {header.get('ruleset')} game, {seed}; {rebuilt.lines} lines replayed, "
        f"{rebuilt.actions} actions; every die and digest matches the record"
    )
    if rebuilt.sealed_at is not None:
        console.print(
            f"this record is one seat's view: replayed up to line {rebuilt.sealed_at}, which holds another seat's "
            f"choice still sealed (turn {game.turn}); the full record replays to the end"
        )
    elif not rebuilt.complete:
        console.print(f"stopped at the start of turn {game.turn} as asked (--to {to})")
    elif game.result is None:
        console.print(f"the game is not over: it stands at turn {game.turn} (continue it with --resume)")
    ruleset = rulesets.get(str(header.get("ruleset")))
    if game.result is not None:
        _print_result(ruleset, game, console)


@app.command("render")
def render_command(
    ruleset_name: Annotated[str, typer.Argument(metavar="RULESET", help=f"the rule set of the record ({_KNOWN})")],
    record: Annotated[Path, typer.Argument(help="a game record (JSON Lines)", dir_okay=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="the picture to write: .svg or .png")],
    turn: Annotated[
        int | None, typer.Option("--turn", metavar="T", help="the start of turn T (default: the end)")
    ] = None,
    seat: Annotated[
        str | None, typer.Option("--seat", metavar="SEAT", help="draw what this seat sees (e.g. A3, G1)")
    ] = None,
    focus: Annotated[
        str | None,
        typer.Option(
            "--focus",
            metavar="UNIT",
            help="single out one unit (b17: the 4\" rings of bomber B2's guns; skirmish: man A.3's firing lines)",
        ),
    ] = None,
) -> None:
    """Draw the table of a recorded game at a turn, from a seat's view."""
    ruleset = rulesets.get(ruleset_name)
    if ruleset.render is None:
        raise OptionError(f"{ruleset.name} cannot be drawn yet")
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
        chosen = parse_humans(seat, game, flag="--seat")
        if len(chosen) != 1:
            raise OptionError(f"--seat {seat!r}: name one seat (e.g. A3 or 'German 1')")
        viewer = chosen.pop()
    view = game.view(viewer)
    if focus is not None:
        view["focus"] = focus.upper()
    write_picture(ruleset.render(view), output)
    print(f"drew turn {game.turn} of {record} to {output}")
    if rebuilt.sealed_at is not None and turn is None:
        print(f"(this record is one seat's view: drawn as it stands before line {rebuilt.sealed_at}, a sealed choice)")


@app.command("sheet")
def sheet_command(
    ruleset_name: Annotated[str, typer.Argument(metavar="RULESET", help=f"the rule set ({_KNOWN})")],
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FILE.pdf", help="the PDF to write")],
    seed: Annotated[
        int, typer.Option("--seed", min=0, help="the dice of the setup: the same board as grognard play --seed")
    ] = 1,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", metavar="NAME=VALUE", help="a scenario option (the odds and the setup follow it)"),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="write over an existing file")] = False,
) -> None:
    """A printable PDF: the quick-reference card (sequence of play, options in force, every mechanic's odds);
    Omaha's beach set up with the seed's obstacles; the B-17 table layout."""
    from grognard.sheets import write_sheet

    ruleset = rulesets.get(ruleset_name)
    pages = write_sheet(ruleset, output, parse_assignments(option or ()), seed, force=force)
    print(f"wrote {output} ({pages} pages; {ruleset.title}, seed {seed})")


@app.command("odds")
def odds_command(
    ruleset_name: Annotated[str, typer.Argument(metavar="RULESET", help=f"the rule set ({_KNOWN})")],
    as_json: Annotated[
        bool, typer.Option("--json", help="print JSON for programs: every figure with its key (fractions and decimals)")
    ] = False,
    exact: Annotated[bool, typer.Option("--exact", help="print exact fractions instead of decimals")] = False,
    what: Annotated[
        str | None,
        typer.Option(
            "--what", metavar="NAME", help="print one table (its name) or one figure (its key: table/row/outcome)"
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="NAME=VALUE", help="a scenario option (a reading of RULINGS)"),
    ] = None,
) -> None:
    """The exact odds of every dice mechanic of a rule set, and the composites a designer asks for, from the
    same objects play rolls, as the options read them (``-o bomb_tie=hit``)."""
    ruleset = rulesets.get(ruleset_name)
    if ruleset.odds_tables is None:
        raise OptionError(f"{ruleset.name} declares no dice mechanics yet")
    options = ruleset.resolve(parse_assignments(option or ()))
    tables = [table_json(t) for t in ruleset.odds_tables(options)]
    if what is not None:
        by_name = {t["name"]: t for t in tables}
        every = odds_figures(tables)
        if what in by_name:
            tables = [by_name[what]]
        elif what in every:
            figure = every[what]
            if as_json:
                print(json.dumps({"ruleset": ruleset.name, "key": what, **figure}, indent=1))
            elif "probability" in figure:
                print(f"{what}: {figure['probability'] if exact else format(figure['decimal'], '.4f')}")
            else:
                print(f"{what}: {figure['exact'] if exact else format(figure['decimal'], '.4f')}")
            return
        else:
            raise OptionError(
                f"--what {what!r}: no such table or figure key in {ruleset.name}; the tables are "
                + ", ".join(by_name)
                + " (a figure's key is table/row/outcome: see --json)"
            )
    if as_json:
        print(json.dumps({"ruleset": ruleset.name, "tables": tables}, indent=1))
        return
    console = _wide_console()
    for table in tables:
        _print_odds(console, table, exact, "probability")
        if table.get("cumulative"):
            _print_odds(console, {**table, "title": table["title"] + ": P(this or less)"}, exact, "at_most")


def _outcome_order(outcome: Any) -> tuple[int, Any]:
    """Numbers in order, a cut count ("12+") after the numbers it follows, other outcomes as they came."""
    if isinstance(outcome, bool):
        return (1, 0)
    if isinstance(outcome, int):
        return (0, float(outcome))
    if isinstance(outcome, str) and outcome.endswith("+") and outcome[:-1].isdigit():
        return (0, float(outcome[:-1]) + 0.5)
    return (1, 0)


def _cell(item: dict[str, Any] | None, exact: bool, field: str) -> str:
    if item is None:
        return ""
    if field == "at_most":
        return item["at_most"] if exact else f"{float(Fraction(item['at_most'])):.4f}"
    return item["probability"] if exact else f"{item['decimal']:.4f}"


def _print_odds(console: Any, table: dict[str, Any], exact: bool, field: str) -> None:
    """One odds table: a row per parameter value and a column per outcome (``field``: the probability or
    P(this or less)), or the other way round when the outcomes are too many to read across."""
    outcomes: list[Any] = []
    for row in table["rows"]:
        for item in row["outcomes"]:
            if item["outcome"] not in outcomes:
                outcomes.append(item["outcome"])
    outcomes.sort(key=_outcome_order)
    view = Table(
        title=f"{table['title']} ({table['rule']})",
        title_justify="left",
        caption=table["note"] or None,
        caption_justify="left",
    )
    means = field == "probability" and any(row["mean"] for row in table["rows"])
    if len(outcomes) > WIDE_ODDS:  # too many outcomes to read across: one row per outcome instead
        _add_odds_transposed(view, table, outcomes, exact, field, means)
        console.print(view)
        console.print()
        return
    view.add_column(table["parameter"] or "", justify="right")
    for outcome in outcomes:
        view.add_column(
            {True: "yes", False: "no"}.get(outcome, str(outcome)) if isinstance(outcome, bool) else str(outcome),
            justify="right",
        )
    if means:
        view.add_column("mean", justify="right")
    for row in table["rows"]:
        by = {item["outcome"]: item for item in row["outcomes"]}
        cells = [str(row["parameter"]) if row["parameter"] is not None else ""]
        cells += [_cell(by.get(outcome), exact, field) for outcome in outcomes]
        if means:
            average = row["mean"]
            cells.append("" if not average else (average["exact"] if exact else f"{average['decimal']:.4f}"))
        view.add_row(*cells)
    console.print(view)
    console.print()


WIDE_ODDS = 16  # an odds table with more outcomes than this is printed one row per outcome


def _add_odds_transposed(
    view: Table, table: dict[str, Any], outcomes: list[Any], exact: bool, field: str, means: bool
) -> None:
    """Fill ``view`` with an outcome per row and a column per parameter value (and a last row of means)."""
    rows = table["rows"]
    view.add_column("outcome", justify="right")
    for row in rows:
        name = table["parameter"] or ""
        view.add_column(f"{name} {row['parameter']}".strip() if row["parameter"] is not None else "", justify="right")
    by = [{item["outcome"]: item for item in row["outcomes"]} for row in rows]
    for outcome in outcomes:
        view.add_row(str(outcome), *[_cell(found.get(outcome), exact, field) for found in by])
    if means:
        view.add_row(
            "mean",
            *[
                "" if not row["mean"] else (row["mean"]["exact"] if exact else f"{row['mean']['decimal']:.4f}")
                for row in rows
            ],
        )


# ---------------------------------------------------------------------- analysis
def _plan(
    ruleset: Ruleset, options: dict[str, Any], bots: Sequence[str] | None, seed: int, games: int, engine: str
) -> Plan:
    if engine not in ENGINES:
        raise OptionError(f"--engine {engine!r}: choose one of {', '.join(ENGINES)}")
    chosen = parse_bots(ruleset, bots or ())
    return Plan(ruleset.name, ruleset.resolve(options), chosen, seed, games, engine)


ENGINE_HELP = (
    "auto: the rule set's batch path when it plays these bots (the same games, faster); reference: one game at a time"
)


MAX_JOBS = 256  # processes: each is a copy of the program; more would be a fork bomb, not a faster run


MAX_GAMES = 10_000_000  # games in one run: hours even on the batch path; more is a typo, not a study


def _check_run(games: int, jobs: int | None, seed: int) -> int:
    if games < 1:
        raise OptionError(f"-n {games}: simulate at least one game")
    if games > MAX_GAMES:
        raise OptionError(
            f"-n {games}: at most {MAX_GAMES:,} games in one run (a longer study: several runs, each its own --seed)"
        )
    if not 0 <= seed < 2**63:
        raise OptionError(f"--seed {seed}: must be between 0 and 2^63-1")
    if jobs is not None and jobs < 1:
        raise OptionError(f"--jobs {jobs}: at least one process")
    if jobs is not None and jobs > MAX_JOBS:
        raise OptionError(f"--jobs {jobs}: at most {MAX_JOBS} processes on one machine (--scheduler for a cluster)")
    return jobs if jobs is not None else default_jobs()


def _run_with_progress(plan: Plan, jobs: int, scheduler: str | None, writer: TableWriter | None, label: str) -> Summary:
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        transient=True,
        disable=not sys.stderr.isatty(),
        console=Console(stderr=True),
    ) as progress:
        task = progress.add_task(label, total=plan.games)
        started = time.monotonic()
        done = [0]

        def on_rows(rows: list[dict[str, Any]]) -> None:
            if writer is not None:
                writer.write(rows)
            progress.advance(task, len(rows))
            if done[0] == 0 and len(rows) < plan.games:  # the first chunk: how long the whole run will take
                _say_estimate(progress.console, plan, len(rows), time.monotonic() - started, jobs, scheduler)
            done[0] += len(rows)

        return simulate(plan, jobs=jobs, scheduler=scheduler, on_rows=on_rows)


LONG_RUN = 10.0  # seconds: a run expected to take longer is announced with its estimate


def _say_estimate(console: Console, plan: Plan, games: int, seconds: float, jobs: int, scheduler: str | None) -> None:
    """After the first chunk of ``games`` games took ``seconds``: the time the whole run should take, if long.

    The workers play side by side, so the rate is the first chunk's times the workers that were busy.
    """
    busy = 1 if scheduler is None and jobs <= 1 else max(1, min(jobs, -(-plan.games // max(games, 1))))
    rate = games * busy / max(seconds, 1e-6)
    left = (plan.games - games) / rate
    if left >= LONG_RUN:
        console.print(
            f"{plan.ruleset}: the first {games} games took {seconds:.1f} s; about {_duration(left)} for the "
            f"other {plan.games - games:,} ({rate:,.0f} games/s; Ctrl-C stops)",
            highlight=False,
            soft_wrap=True,
        )


def _duration(seconds: float) -> str:
    """A duration as a person says it: 40 s, 12 min, 3 h 20 min, 5 days."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        hours, minutes = divmod(round(seconds / 60), 60)
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{seconds / 86400:,.0f} days"


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def _print_figures(console: Console, data: dict[str, Any]) -> None:
    console.print(f"[bold]Results of {data['games']} games[/bold] (95% Wilson intervals)")
    for key, item in data["outcomes"].items():
        console.print(
            f"  {key:<14} {item['games']:>9}  {_percent(item['share']):>6}  "
            f"[{_percent(item['low95'])}, {_percent(item['high95'])}]"
        )
    for item in data["metrics"].values():
        if item["games"] == 0:
            console.print(f"  {item['label']}: never")
            continue
        never = f"; never in {item['never']} games" if item["never"] else ""
        if item["kind"] == "turn":
            console.print(
                f"  {item['label']}: median {item['median']:g}, quartiles {item['q1']:g}-{item['q3']:g}, "
                f"range {item['min']}-{item['max']}{never}"
            )
        else:
            console.print(
                f"  {item['label']}: mean {item['mean']:.2f}, median {item['median']:g}, "
                f"quartiles {item['q1']:g}-{item['q3']:g}"
            )


@app.command("simulate")
def simulate_command(
    ruleset_name: Annotated[str, typer.Argument(metavar="RULESET", help=f"the rule set ({_KNOWN})")],
    games: Annotated[int, typer.Option("-n", "--games", help="how many games")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="seed of the run: game i's dice and bots come from it")] = 1,
    jobs: Annotated[int | None, typer.Option("--jobs", help="processes (default: every core)")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", metavar="NAME=VALUE", help="a scenario option")
    ] = None,
    bots: Annotated[list[str] | None, typer.Option("--bots", metavar="SIDE=BOT", help="the bot of a side")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", file_okay=False, help="write games.parquet, summary.json and PNG plots here")
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", metavar="ADDRESS", help="run on this Dask cluster (tcp://host:port)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
    engine: Annotated[str, typer.Option("--engine", metavar="auto|reference", help=ENGINE_HELP)] = "auto",
) -> None:
    """Play many games bot against bot and report who wins, how often, when, and at what cost."""
    ruleset = rulesets.get(ruleset_name)
    processes = _check_run(games, jobs, seed)
    plan = _plan(ruleset, parse_assignments(option or ()), bots, seed, games, engine)
    writer = None
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OptionError(f"--out {str(out)!r}: {exc.strerror}") from None
        writer = TableWriter(out / "games.parquet", ruleset.metrics)
    try:
        summary = _run_with_progress(plan, processes, scheduler, writer, f"{ruleset.name}: {games} games")
    finally:
        if writer is not None:
            writer.close()
    data = figures(summary, ruleset.metrics)
    if as_json:
        print(
            json.dumps(
                {
                    "plan": {
                        "ruleset": plan.ruleset,
                        "options": dict(plan.options),
                        "bots": dict(plan.bots),
                        "seed": seed,
                        "games": games,
                        "engine": "batch" if batched(plan) else "reference",
                    },
                    "figures": data,
                },
                indent=1,
            )
        )
    else:
        console = Console(highlight=False, soft_wrap=True)
        shown = _shown(ruleset, plan.options)
        console.print(
            f"{ruleset.title}: {games} games, seed {seed}, "
            f"{'Dask ' + scheduler if scheduler else f'{processes} process(es)'}, "
            f"{'batch path' if batched(plan) else 'one game at a time'}"
        )
        console.print(f"  options: {shown}")
        console.print("  bots: " + ", ".join(f"{side} {name}" for side, name in plan.bots.items()))
        _print_figures(console, data)
        console.print(f"  end turn: {sparkline(summary.histograms.get('turn', Counter()))}")
    if out is not None:
        written = write_outputs(out, plan, summary, ruleset.metrics)
        if not as_json:
            print("wrote " + ", ".join(str(p) for p in [out / "games.parquet", *written]))


def expand_values(spec: OptionSpec, text: str) -> list[Any]:
    """``A..B`` (integers, inclusive) and comma lists, each value checked: the values of a sweep axis."""
    values: list[Any] = []
    for item in (part.strip() for part in text.split(",")):
        if ".." in item and spec.kind is not int:
            example = ",".join(spec.choices) if spec.choices else "on,off" if spec.kind is bool else "6,7.5,9"
            raise OptionError(
                f"option {spec.name!r}: ranges LOW..HIGH are for options of whole numbers, and this one is "
                f"{spec.describe_values()}; list the values instead (e.g. {spec.name}={example})"
            )
        if ".." in item:
            low, _, high = item.partition("..")
            a, b = spec.parse(low), spec.parse(high)
            if a is None or b is None or b < a:
                raise OptionError(f"option {spec.name!r}: {item!r} is not a range LOW..HIGH")
            values.extend(range(a, b + 1))
        elif item:
            values.append(spec.parse(item))
    if not values:
        raise OptionError(f"option {spec.name!r}: no values in {text!r}")
    return values


@app.command("sweep")
def sweep_command(
    ruleset_name: Annotated[str, typer.Argument(metavar="RULESET", help=f"the rule set ({_KNOWN})")],
    option: Annotated[
        list[str],
        typer.Option(
            "--option", "-o", metavar="NAME=A..B|v1,v2", help="an option to vary (a range or a list) or to fix"
        ),
    ],
    games: Annotated[int, typer.Option("-n", "--games", help="games at each point of the grid")] = 400,
    seed: Annotated[int, typer.Option("--seed", help="seed shared by every point (common random numbers)")] = 1,
    jobs: Annotated[int | None, typer.Option("--jobs", help="processes (default: every core)")] = None,
    bots: Annotated[list[str] | None, typer.Option("--bots", metavar="SIDE=BOT", help="the bot of a side")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", file_okay=False, help="write sweep.csv and sweep.png here")
    ] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", metavar="ADDRESS", help="a Dask cluster")] = None,
    engine: Annotated[str, typer.Option("--engine", metavar="auto|reference", help=ENGINE_HELP)] = "auto",
) -> None:
    """The figures at every point of an option grid, with the same games' dice at every point."""
    ruleset = rulesets.get(ruleset_name)
    processes = _check_run(games, jobs, seed)
    specs = {spec.name: spec for spec in ruleset.options}
    axes: dict[str, list[Any]] = {}
    for name, text in parse_assignments(option).items():
        if name not in specs:
            raise OptionError(f"unknown option {name!r}; options are: {', '.join(specs)}")
        axes[name] = expand_values(specs[name], text)
    grid = [dict(zip(axes, values, strict=True)) for values in itertools.product(*axes.values())]
    if len(grid) > 200:
        raise OptionError(f"--option: the grid has {len(grid)} points; at most 200")
    if games * len(grid) > MAX_GAMES:
        raise OptionError(
            f"-n {games}: {games:,} games at each of {len(grid)} points is {games * len(grid):,} games; "
            f"at most {MAX_GAMES:,} in one sweep"
        )
    plans = [_plan(ruleset, point, bots, seed, games, engine) for point in grid]  # every point checked first
    if out is not None:  # and the place to write, before the games: not after hours of them
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OptionError(f"--out {str(out)!r}: {exc.strerror}") from None
    rows = []
    for point, plan in zip(grid, plans, strict=True):
        label = ", ".join(f"{k}={v}" for k, v in point.items())
        summary = _run_with_progress(plan, processes, scheduler, None, label)
        data = figures(summary, ruleset.metrics)
        rows.append((point, data))
    outcomes = sorted({key for _, data in rows for key in data["outcomes"]})
    for _, data in rows:  # an outcome no game of a point had: 0 with its interval (0 of 500 is up to 0.8%)
        for key in outcomes:
            if key not in data["outcomes"]:
                low, high = wilson(0, data["games"])
                data["outcomes"][key] = {"games": 0, "share": 0.0, "low95": low, "high95": high}
    table = Table(
        title=f"{ruleset.title}: {games} games a point, seed {seed} (95% Wilson intervals)", title_justify="left"
    )
    for name in axes:
        table.add_column(name, justify="right")
    for key in outcomes:
        table.add_column(key, justify="right")
    table.add_column("median end", justify="right")
    for point, data in rows:
        cells = [specs[name].describe(point[name]) for name in axes]
        for key in outcomes:
            item = data["outcomes"][key]
            cells.append(f"{_percent(item['share'])} [{_percent(item['low95'])}, {_percent(item['high95'])}]")
        cells.append(f"{data['metrics']['turn']['median']:g}")
        table.add_row(*cells)
    _wide_console().print(table)
    if ruleset.metrics:  # the rule set's own figures (losses, objectives, ...): their mean at each point
        means = Table(title="Means at each point (a 'turn' figure: over the games where it happened)")
        for name in axes:
            means.add_column(name, justify="right")
        for metric in ruleset.metrics:
            means.add_column(metric.name, justify="right")
        for point, data in rows:
            cells = [specs[name].describe(point[name]) for name in axes]
            for metric in ruleset.metrics:
                value = data["metrics"].get(metric.name, {}).get("mean")
                cells.append("-" if value is None else f"{value:.2f}")
            means.add_row(*cells)
        _wide_console().print(means)
    if out is not None:
        write_sweep(out, ruleset.name, [specs[name] for name in axes], outcomes, rows)
        print(f"wrote {out / 'sweep.csv'}, {out / 'sweep.png'}")


def _wide_console() -> Console:
    """A console for tables: the terminal's width, or a wide page when writing to a file or pipe."""
    console = Console(highlight=False)
    return console if console.is_terminal else Console(highlight=False, width=200)


# ---------------------------------------------------------------------- play
def game_streams(seed: int) -> tuple[SeededDice, np.random.Generator]:
    """The dice and the bots' generator of a seeded game: two independent streams of one seed."""
    return SeededDice(stream(seed, DICE)), np.random.default_rng(stream(seed, BOTS))


def parse_bots(ruleset: Ruleset, items: Sequence[str]) -> dict[str, str]:
    """``["german=random"]`` as {side: bot name}, checked against the rule set's sides and bots."""
    out = {side: ruleset.default_bot for side in ruleset.sides}
    for item in items:
        side, sep, name = item.partition("=")
        side, name = side.strip().lower(), name.strip().lower()
        if not sep or side not in ruleset.sides:
            raise OptionError(f"--bots {item!r}: expected SIDE=BOT with SIDE one of {', '.join(ruleset.sides)}")
        bot, colon, level = name.partition(":")
        if colon and name not in ruleset.bots and bot in ruleset.bots:
            levels = [other.partition(":")[2] for other in ruleset.bots if other.startswith(bot + ":")]
            raise OptionError(
                f"--bots {item!r}: {bot} has no level {level!r}; levels are: {', '.join(levels) or 'none'}"
            )
        if name not in ruleset.bots:
            raise OptionError(f"--bots {item!r}: unknown bot {name!r}; bots are: {', '.join(ruleset.bots)}")
        out[side] = name
    return out


def _option_parameter(spec: OptionSpec) -> inspect.Parameter:
    flag = "--" + spec.name.replace("_", "-")
    if spec.help.endswith(")") and "(default: " in spec.help:  # the help names its default in its own words
        text = f"{spec.help[:-1]}; {spec.describe_values()})"
    else:
        text = f"{spec.help} (default: {spec.describe_default()}; {spec.describe_values()})"
    if spec.kind is bool:
        default = typer.Option(None, f"{flag}/--no-{flag[2:]}", help=text, show_default=False)
        annotation: Any = bool | None
    else:
        default = typer.Option(None, flag, help=text, metavar="VALUE", show_default=False)
        annotation = str | None
    return inspect.Parameter(spec.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def _seat_help(ruleset: Ruleset) -> str:
    """The rest of --human's help: the seats of a default game, by name or short label (Omaha's A1,G6), when
    there are more seats than sides; B-17's two seats are its sides."""
    seats = ruleset.new_game(ruleset.resolve({}), SeededDice(0)).seats()
    shorts = [f"{s.split()[0][0]}{s.split()[-1]}" for s in seats if len(s.split()) == 2]
    if len(seats) > len(ruleset.sides) and shorts:
        return f", 'all', or seats by name or label ({shorts[0]},{shorts[-1]})"
    return " or 'all'"


def _play_command(ruleset: Ruleset) -> Callable[..., None]:
    """A ``play RULESET`` command whose flags are the rule set's options, from its data."""
    option_names = [spec.name for spec in ruleset.options]

    def command(**params: Any) -> None:
        if ruleset.scenarios is not None:  # [SCENARIO] and --list: the rule set plays scenario files
            if params.pop("list_scenarios"):
                for name, title in ruleset.scenarios():
                    print(f"{name:<20} {title}")
                return
            named = params.pop("scenario_name")
            if named is not None:
                if params.get("scenario") is not None:
                    raise OptionError("the scenario is given twice (as SCENARIO and --scenario)")
                shipped = {name for name, _ in ruleset.scenarios()}
                if named not in shipped and Path(named).is_file():
                    named = str(Path(named).resolve())  # the record replays from any folder
                params["scenario"] = named
        given: dict[str, Any] = {}
        given.update(parse_assignments(params.pop("option") or ()))
        for name in option_names:
            value = params.pop(name)
            if value is not None:
                if name in given:
                    raise OptionError(f"option {name!r} is given twice (as --{name.replace('_', '-')} and --option)")
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
            "human",
            keyword,
            annotation=str | None,
            default=typer.Option(
                None,
                "--human",
                metavar="SIDE|SEATS",
                help=f"people take a side ({sides}){_seat_help(ruleset)}: hot seat",
            ),
        ),
        inspect.Parameter(
            "dice",
            keyword,
            annotation=str,
            default=typer.Option(
                "seeded",
                "--dice",
                metavar="seeded|manual",
                help="seeded: the program rolls; manual: every roll is typed in (a referee at a real table)",
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
            "resume",
            keyword,
            annotation=Path | None,
            default=typer.Option(None, dir_okay=False, help="continue the game saved in this record, writing on to it"),
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
        *cli_analyse.play_parameters(),
    ]
    if ruleset.scenarios is not None:
        common = [
            inspect.Parameter(
                "scenario_name",
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=str | None,
                default=typer.Argument(None, metavar="SCENARIO", help="a shipped scenario's name or a TOML file"),
            ),
            *common,
            inspect.Parameter(
                "list_scenarios",
                keyword,
                annotation=bool,
                default=typer.Option(False, "--list", help="name the shipped scenarios and stop"),
            ),
        ]
    command.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        common + [_option_parameter(s) for s in ruleset.options]
    )
    command.__doc__ = (
        f"Play {ruleset.title}: people and bots, turn by turn, to the result.\n\n"
        f"The rules: seed text {ruleset.seed_file}. Every option is also --option NAME=VALUE."
        + (f"\n\n{ruleset.log_key.replace('`', '')}" if ruleset.log_key else "")
    )
    return command


def _resume_replay(path: Path, prompter: Prompter) -> Replay | None:
    """The record at ``path`` replayed to go on with it; a last line cut short (a crash while it was written)
    is offered to be dropped, and only with a yes is it (None: the person said no, nothing changed)."""
    try:
        return replay(path, rulesets.get)
    except TornRecord as torn:
        prompter.say(
            f"{path}: line {torn.line}, the last, is cut short: the game stopped while writing it, so the "
            f"action on it was not saved whole. Drop that line and go on from the {torn.line - 1} lines before it?"
        )
        try:
            answer = prompter.ask("drop the cut line? (yes/no)> ").lower()
        except Quit:
            answer = "no"
        if answer not in ("y", "yes"):
            prompter.say(f"nothing changed: {path} is as it was")
            return None
        drop_torn_line(path)
        prompter.say(f"dropped line {torn.line} of {path}; its action is played again")
        return replay(path, rulesets.get)
    except RecordError as exc:
        raise RecordError(f"--resume {str(path)!r}: {exc}") from None


def _open_record(path: Path, mode: str) -> IO[str]:
    try:
        if mode == "a" and path.is_file() and path.stat().st_size > 0:
            with path.open("rb") as handle:  # a last line written whole but for its newline: end it first
                handle.seek(-1, os.SEEK_END)
                if handle.read(1) != b"\n":
                    with path.open("a", encoding="utf-8") as tail:
                        tail.write("\n")
        if mode == "w" and path.is_file() and path.stat().st_size > 0:  # never write over a saved game
            raise OptionError(
                f"--record {str(path)!r}: the file is already there (a saved game?); continue it with "
                f"--resume {path}, or give another file"
            )
        return path.open(mode, encoding="utf-8")
    except OSError as exc:
        raise OptionError(f"--record {str(path)!r}: {exc.strerror}") from None


INTERRUPTED = 130  # the exit code of a program stopped by Ctrl-C (128 + SIGINT)


def run_play(
    ruleset: Ruleset,
    given: dict[str, Any],
    *,
    seed: int | None,
    human: str | None,
    dice: str,
    bots: Sequence[str] | None,
    record: Path | None,
    resume: Path | None,
    verbose: bool,
    quiet: bool,
    show_odds: bool = False,
    odds_playouts: int = cli_analyse.DEFAULT_PLAYOUTS,
) -> None:
    """Play one game at the terminal; raises GrognardError on bad input before anything is played."""
    cli_analyse.check_playouts(odds_playouts, "--odds-playouts")
    console = Console(highlight=False, soft_wrap=True)
    prompter = Prompter(console)
    if dice not in ("seeded", "manual"):
        raise OptionError(f"--dice {dice!r}: expected seeded or manual")
    if verbose and quiet:
        raise OptionError("--verbose and --quiet together: choose one (-v prints every event, -q only the result)")
    if seed is not None and not 0 <= seed < 2**63:
        raise OptionError(f"--seed {seed}: must be between 0 and 2^63-1")
    resumed = None
    if resume is not None:
        if given:
            raise OptionError(f"--resume: the options come from the record, not the command line ({', '.join(given)})")
        if record is not None:
            raise OptionError("--resume writes on to its own file; leave out --record")
        resumed = _resume_replay(resume, prompter)
        if resumed is None:
            return
        header = resumed.header
        if header.get("ruleset") != ruleset.name:
            raise OptionError(
                f"--resume {str(resume)!r}: the record's rule set is {header.get('ruleset')}, not {ruleset.name}"
            )
        options = ruleset.resolve(header.get("options", {}))
        if seed is not None and seed != header.get("seed"):
            raise OptionError(f"--seed {seed}: the record was played with seed {header.get('seed')}")
        seed = int(header["seed"])
        if dice != "seeded" and dice != header.get("dice"):
            raise OptionError(f"--dice {dice}: the record's game uses {header.get('dice')} dice")
        dice = str(header.get("dice"))
        chosen = parse_bots(ruleset, bots) if bots else dict(header.get("bots") or parse_bots(ruleset, ()))
        human = human if human is not None else header.get("humans")
    else:
        options = ruleset.resolve(given)
        chosen = parse_bots(ruleset, bots or ())
        if seed is None:
            seed = secrets.randbits(32)
    seeded = game_streams(seed)[0] if dice == "seeded" else None
    source: Any = seeded if seeded is not None else TypedDice(prompter)
    early: _TurnPrinter | None = None
    if resumed is not None:
        game = resumed.game
        if seeded is not None:
            game.dice = SeededDice(seeded.seed_sequence, skip=resumed.dice_drawn)
        else:
            game.dice = source
        humans = parse_humans(human, game)
        if game.is_over:
            console.print(f"the game in {resume} is already over")
            _print_result(ruleset, game, console)
            return
        sink = _open_record(resume, "a")
        writer = RecordWriter.resume(resumed.used, sink)
        if not quiet:
            console.print(f"resumed {resume} at turn {game.turn}: {resumed.actions} actions replayed, digests match")
    else:
        if dice == "manual" and human:  # check the seats before the referee types the setup's dice (probe game)
            parse_humans(human, ruleset.new_game(options, SeededDice(0)))
        embedded = ruleset.embed(options) if ruleset.embed is not None else None  # read once: played and kept
        sink = _open_record(record, "w") if record is not None else None  # a bad path fails before anything
        if not quiet:
            console.print(f"[bold]{ruleset.title}[/bold]  seed {seed}  ({_shown(ruleset, options)})")
            taken = {part.strip().lower() for part in (human or "").split(",")}  # sides people take whole
            playing = [f"{side} {name}" for side, name in chosen.items() if side not in taken and "all" not in taken]
            console.print("bots: " + (", ".join(playing) or "none (people take every side)"))
        if dice == "manual" and not quiet:
            console.print("Manual dice: type each roll as the table rolls it (e.g. 5 2 6 or 526).")
        if isinstance(source, TypedDice):  # the setup's story (a scenario's banner) before its first roll
            early = _TurnPrinter(ruleset, None, console, verbose=True, quiet=quiet)
            source.listener = early.take_one
        try:
            game = ruleset.create(options, source, embedded)
        except (Quit, KeyboardInterrupt) as stop:  # typed dice of the setup abandoned: nothing to save yet
            if sink is not None and record is not None:
                sink.close()
                record.unlink(missing_ok=True)
            console.print("stopped at turn 0, during the setup: nothing was recorded")
            if isinstance(stop, KeyboardInterrupt):
                raise typer.Exit(INTERRUPTED) from None
            return
        humans = parse_humans(human, game)
        kept = {"embedded": embedded} if embedded else {}  # one's own scenario file travels with the record
        header = make_header(ruleset.name, ruleset.recorded(options), dice, seed, bots=chosen, humans=human, **kept)
        writer: RecordWriter | StepCounter = RecordWriter(header, sink)  # in memory too: 'undo' replays it
        start_events = game.take_events()
        writer.start(game, start_events)
    try:
        if humans and not quiet:
            console.print("people: " + ", ".join(sorted(humans)) + " (type 'help' at a prompt)")
        live = verbose or bool(humans) or dice == "manual"
        if early is not None:  # it has shown the setup's events as they happened
            printer = early
        else:
            printer = _TurnPrinter(ruleset, game, console, verbose=live, quiet=quiet)
            if resumed is None:
                printer.take(start_events)
        if isinstance(source, TypedDice) or isinstance(game.dice, TypedDice):
            typed = game.dice if isinstance(game.dice, TypedDice) else source
            if ruleset.board_text is not None:
                typed.board = lambda: ruleset.board_text(session.game, None)  # type: ignore[misc]
            game.listener = printer.take_one  # the story so far, before each roll is asked for
            on_events = _ignore
            typed.kept = writer.typed  # each roll on the disk as typed: a crash mid-action loses none
            if resumed is not None and resumed.typed:
                typed.waiting = [(p, s, list(v)) for p, s, v in resumed.typed]
                rolls = "; ".join(f"{p}: {' '.join(map(str, v))}" for p, _, v in resumed.typed)
                console.print(
                    f"the action under way when the game stopped was not saved; the {len(resumed.typed)} roll(s) "
                    f"typed for it are kept and used again as the game asks for them ({rolls})"
                )
        else:
            on_events = printer.take
        if seeded is not None:
            stream = seeded.seed_sequence

            def dice_after(rebuilt: Replay) -> Any:
                return SeededDice(stream, skip=rebuilt.dice_drawn)
        else:

            def dice_after(rebuilt: Replay) -> Any:
                return source

        if show_odds:  # each turn's chances, as the people (or a spectator) may see the game
            seat = cli_analyse.seat_for_odds(game, humans)
            on_events = cli_analyse.OddsEachTurn(on_events, lambda: session.game, console, seat, odds_playouts, seed)
        session = Session(ruleset, game, writer, chosen, humans, prompter, seed, on_events, dice_after)
        interrupted = False
        try:
            result = session.run()
        except KeyboardInterrupt:  # Ctrl-C: the record holds every action finished; say how to go on
            result, interrupted = None, True
        game = session.game
        printer.flush()
    finally:
        if sink is not None:
            sync_file(sink)  # the last lines on the disk too (bots' lines are synced at most every 0.2 s)
            sink.close()
    if result is None:
        saved = record or resume
        where = (
            f"; continue with: grognard play {ruleset.name} --resume {saved}"
            if saved
            else "; nothing was saved (play with --record FILE to keep a game)"
        )
        console.print(f"{'interrupted' if interrupted else 'stopped'} at turn {game.turn}{where}")
        if interrupted:
            raise typer.Exit(INTERRUPTED)
        return
    _print_result(ruleset, game, console, seed=seed, quiet=quiet)
    if record is not None:
        console.print(f"record written to {record}")


def _shown(ruleset: Ruleset, options: Mapping[str, Any]) -> str:
    """Options as a person writes them (on/off, unlimited)."""
    specs = {spec.name: spec for spec in ruleset.options}
    return ", ".join(f"{k}={specs[k].describe(v)}" if k in specs else f"{k}={v}" for k, v in options.items())


def _ignore(events: list[Event]) -> None:
    """Events already shown as they happened."""


def _print_result(
    ruleset: Ruleset, game: Game, console: Console, *, seed: int | None = None, quiet: bool = False
) -> None:
    result = game.result
    assert result is not None
    if not quiet:
        console.print()
    outcome = f"{result.winner} win" if result.outcome == "win" else result.outcome
    console.print(f"[bold]Result: {outcome}[/bold] on turn {result.turn}: {result.reason}")
    if seed is not None and quiet:
        console.print(f"  {'seed (play it again with --seed)':<32} {seed}")
    if ruleset.summary is not None:
        for label, value in ruleset.summary(game):
            console.print(f"  {label:<32} {value}")
    if result.outcome == "scored":
        console.print("  score: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in result.scores.items()))


class _TurnPrinter:
    """Prints events: a compact summary per turn, or every event as it happens (--verbose, or people playing)."""

    def __init__(self, ruleset: Ruleset, game: Game | None, console: Console, *, verbose: bool, quiet: bool) -> None:
        self.ruleset, self.game, self.console = ruleset, game, console
        self.verbose, self.quiet = verbose, quiet
        self.buffer: list[Event] = []
        self.turn: int | None = None

    def take_one(self, event: Event) -> None:
        self.take([event])

    def take(self, events: list[Event]) -> None:
        for event in events:
            if event.to is not None:
                continue
            if event.kind == "turn":
                self.flush()
                self.turn = int(event.data["turn"])
                if self.verbose and not self.quiet:
                    self.console.print(f"[bold]Turn {self.turn}[/bold]")
                continue
            if self.verbose:
                if not self.quiet and (line := self.ruleset.describe(event)):
                    self.console.print(f"  {escape(line)}")
            else:
                self.buffer.append(event)

    def flush(self) -> None:
        events, self.buffer = self.buffer, []
        if self.quiet or not events:
            return
        if self.ruleset.summarize_turn is None:
            lines = [line for e in events if (line := self.ruleset.describe(e))]
        else:
            lines = self.ruleset.summarize_turn(events)
            lines += [line for e in events if e.kind == "game_over" and (line := self.ruleset.describe(e))]
        title = f"Turn {self.turn}" if self.turn is not None else "Setup"
        self.console.print(f"[bold]{title}[/bold]")
        for line in lines:
            self.console.print(f"  {escape(line)}")


play_app = typer.Typer(help="Play a rule set: bots on every seat, turn by turn, to the result.", no_args_is_help=True)
for _name in rulesets.names():
    play_app.command(_name)(_play_command(rulesets.get(_name)))
app.add_typer(play_app, name="play")
cli_analyse.register(app)  # grognard analyse GAME.jsonl


# ---------------------------------------------------------------------- serve (the web play: grognard.web)
@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="the address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="the port to listen on")] = 8000,
    lan: Annotated[
        bool, typer.Option("--lan", help="listen on this machine's network; print the join address and a QR code")
    ] = False,
    db: Annotated[
        str | None,
        typer.Option(help="an SQLAlchemy URL (default: an SQLite file in the user's data folder)", metavar="URL"),
    ] = None,
) -> None:
    """Serve games in the browser: a host makes a game, players join with its room code, bots fill the rest."""
    from grognard.web.serve import run

    run(host, port, lan, db)


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
        print(f"error: {message}", file=sys.stderr)
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
