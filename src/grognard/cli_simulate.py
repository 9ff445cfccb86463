"""grognard simulate and sweep: many games bot against bot, their figures, and the figures over an option grid."""

from __future__ import annotations

import itertools
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from grognard import rulesets
from grognard.analysis.montecarlo import ENGINES, Plan, Summary, batched, default_jobs, simulate
from grognard.analysis.report import TableWriter, figures, sparkline, write_outputs, write_sweep
from grognard.analysis.stats import wilson
from grognard.cli_bots import parse_bots
from grognard.cli_common import FORCE_HELP, check_outputs_in, check_seed, progress_bar, shown_options, whole_number
from grognard.cli_common import KNOWN as _KNOWN
from grognard.cli_common import wide_console as _wide_console
from grognard.cli_game import INTERRUPTED
from grognard.cli_odds import print_grid
from grognard.core.errors import OptionError
from grognard.core.options import OptionSpec, parse_assignments
from grognard.core.ruleset import Ruleset
from grognard.core.words import counted


def _plan(
    ruleset: Ruleset, options: dict[str, Any], bots: Sequence[str] | None, seed: int, games: int, engine: str
) -> Plan:
    if engine not in ENGINES:
        raise OptionError(f"--engine {engine!r}: choose one of {', '.join(ENGINES)}")
    chosen = parse_bots(ruleset, bots or ())
    return Plan(ruleset.name, ruleset.resolve(options), chosen, seed, games, engine)


BOTS_HELP = (
    "a side's bot by level, weakest first: beginner, book, normal, hard, as the rule set offers them (grognard "
    "play RULESET --help describes each; default: book); several: SIDE=LEVEL,SIDE=LEVEL"
)
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
    check_seed(seed)
    if jobs is not None and jobs < 1:
        raise OptionError(f"--jobs {jobs}: at least one process")
    if jobs is not None and jobs > MAX_JOBS:
        raise OptionError(f"--jobs {jobs}: at most {MAX_JOBS} processes on one machine (--scheduler for a cluster)")
    return jobs if jobs is not None else default_jobs()


def _run_with_progress(
    plan: Plan, jobs: int, scheduler: str | None, writer: TableWriter | None, label: str, into: Summary | None = None
) -> Summary:
    with progress_bar() as progress:
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

        return simulate(plan, jobs=jobs, scheduler=scheduler, on_rows=on_rows, into=into)


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
            f"other {plan.games - games:,} ({_rate(rate)}; Ctrl-C stops)",
            highlight=False,
            soft_wrap=True,
        )


def _rate(games_a_second: float) -> str:
    """A speed as a person reads it: 1,300 games/s, 2.4 games/s, 1.7 s a game."""
    if games_a_second >= 10:
        return f"{games_a_second:,.0f} games/s"
    if games_a_second >= 1:
        return f"{games_a_second:.1f} games/s"
    return f"{1 / games_a_second:.1f} s a game"


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


def simulate_command(
    ruleset_name: Annotated[str, typer.Argument(metavar="RULESET", help=f"the rule set ({_KNOWN})")],
    games: Annotated[int, typer.Option("-n", "--games", help="how many games", parser=whole_number)] = 1000,
    seed: Annotated[
        int, typer.Option("--seed", help="seed of the run: game i's dice and bots come from it", parser=whole_number)
    ] = 1,
    jobs: Annotated[
        int | None, typer.Option("--jobs", help="processes (default: every core)", parser=whole_number)
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", metavar="NAME=VALUE", help="a scenario option")
    ] = None,
    bots: Annotated[
        list[str] | None,
        typer.Option("--bots", metavar="SIDE=LEVEL", help=BOTS_HELP),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", file_okay=False, help="write games.parquet, summary.json and PNG plots here")
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", metavar="ADDRESS", help="run on this Dask cluster (tcp://host:port)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
    engine: Annotated[str, typer.Option("--engine", metavar="auto|reference", help=ENGINE_HELP)] = "auto",
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
) -> None:
    """Play many games bot against bot and report who wins, how often, when, and at what cost."""
    ruleset = rulesets.get(ruleset_name)
    processes = _check_run(games, jobs, seed)
    plan = _plan(ruleset, parse_assignments(option or ()), bots, seed, games, engine)
    writer = None
    if out is not None:
        check_outputs_in(out, ["games.parquet", "summary.json", "turns.png", "win_curve.png"], force, "--out")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OptionError(f"--out {str(out)!r}: {exc.strerror}") from None
        writer = TableWriter(out / "games.parquet", ruleset.metrics)
    summary, interrupted = Summary(), False
    try:
        _run_with_progress(plan, processes, scheduler, writer, f"{ruleset.name}: {games} games", summary)
    except KeyboardInterrupt:  # Ctrl-C: the games of every chunk finished are kept, reported and written
        interrupted = True
    except BaseException:  # a full disk, a failed run: the file there before is left as it was
        if writer is not None:
            writer.discard()
        raise
    if writer is not None:
        writer.close()
    if interrupted:
        print(
            f"interrupted after {counted(summary.games, 'game')} of {games}"
            + (f": the figures below are of the first {summary.games} (seed {seed})" if summary.games else ""),
            file=sys.stderr,
        )
        if not summary.games:
            raise typer.Exit(INTERRUPTED)
        plan = replace(plan, games=summary.games)
        games = summary.games
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
        shown = shown_options(ruleset, plan.options)
        console.print(
            f"{ruleset.title}: {games} games, seed {seed}, "
            f"{'Dask ' + scheduler if scheduler else counted(processes, 'process', 'processes')}, "
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
    if interrupted:
        raise typer.Exit(INTERRUPTED)


def expand_values(spec: OptionSpec, text: str) -> list[Any]:
    """``A..B`` (integers, inclusive) and comma lists, each value checked: the values of a sweep axis. An empty
    value, a value listed twice and a range written backwards are refused (each point is played once, as written).
    """
    values: list[Any] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise OptionError(f"option {spec.name!r}: an empty value in {text!r}")
        if ".." in item and spec.kind is not int:
            example = ",".join(spec.choices) if spec.choices else "on,off" if spec.kind is bool else "6,7.5,9"
            raise OptionError(
                f"option {spec.name!r}: ranges LOW..HIGH are for options of whole numbers, and this one is "
                f"{spec.describe_values()}; list the values instead (e.g. {spec.name}={example})"
            )
        if ".." in item:
            low, _, high = item.partition("..")
            a, b = spec.parse(low), spec.parse(high)
            if a is None or b is None:
                raise OptionError(f"option {spec.name!r}: {item!r} is not a range of whole numbers LOW..HIGH")
            if b < a:
                raise OptionError(f"option {spec.name!r}: {item!r} runs down; a range is LOW..HIGH ({b}..{a})")
            points = list(range(a, b + 1))
        else:
            points = [spec.parse(item)]
        for value in points:
            if value in values:
                raise OptionError(f"option {spec.name!r}: {spec.describe(value)} is listed twice in {text!r}")
            values.append(value)
    return values


def sweep_command(
    ruleset_name: Annotated[str, typer.Argument(metavar="RULESET", help=f"the rule set ({_KNOWN})")],
    option: Annotated[
        list[str],
        typer.Option(
            "--option", "-o", metavar="NAME=A..B|v1,v2", help="an option to vary (a range or a list) or to fix"
        ),
    ],
    games: Annotated[
        int, typer.Option("-n", "--games", help="games at each point of the grid", parser=whole_number)
    ] = 400,
    seed: Annotated[
        int, typer.Option("--seed", help="seed shared by every point (common random numbers)", parser=whole_number)
    ] = 1,
    jobs: Annotated[
        int | None, typer.Option("--jobs", help="processes (default: every core)", parser=whole_number)
    ] = None,
    bots: Annotated[
        list[str] | None,
        typer.Option("--bots", metavar="SIDE=LEVEL", help=BOTS_HELP),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", file_okay=False, help="write sweep.csv and sweep.png here")
    ] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", metavar="ADDRESS", help="a Dask cluster")] = None,
    engine: Annotated[str, typer.Option("--engine", metavar="auto|reference", help=ENGINE_HELP)] = "auto",
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
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
        check_outputs_in(out, ["sweep.csv", "sweep.png"], force, "--out")
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
        # a row per figure, named in words (its name may be an axis's: fresh_squads), a column per point
        header = ["mean of"] + [", ".join(f"{n}={specs[n].describe(point[n])}" for n in axes) for point, _ in rows]
        body = []
        for metric in ruleset.metrics:
            values = [data["metrics"].get(metric.name, {}).get("mean") for _, data in rows]
            body.append([metric.label, *["-" if value is None else f"{value:.2f}" for value in values]])
        title = "Means at each point (a 'turn' figure: over the games where it happened)"
        print_grid(_wide_console(), title, header, body, None)
    if out is not None:
        write_sweep(out, ruleset.name, [specs[name] for name in axes], outcomes, rows)
        print(f"wrote {out / 'sweep.csv'}, {out / 'sweep.png'}")


def register(app: typer.Typer) -> None:
    """Add simulate and sweep to ``app``."""
    app.command("simulate")(simulate_command)
    app.command("sweep")(sweep_command)
