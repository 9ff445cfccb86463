"""grognard balance: a scenario designer's questions, answered from bot games on the same dice.

Who wins under the book's play (each side's win rate with its interval), how often the game is drawn or
runs to its turn limit, how long it lasts, how much skill matters (the skilled bot against the book's, each
way round, paired on the same dice), and, for a scenario with a turn limit, the limit that brings the book
against the book to 50% (within 5 points). The games are ``simulate``'s: the same plans, workers, seeds and
Dask backend (``analysis.balance``).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from grognard import rulesets
from grognard.analysis import balance, evening
from grognard.analysis.balance import Played
from grognard.analysis.montecarlo import Plan
from grognard.analysis.stats import wilson
from grognard.bots.ladder import levels as ladder_levels
from grognard.bots.ladder import note, unknown_bot
from grognard.cli_common import FORCE_HELP, check_outputs_in, progress_bar, shown_options, whole_number
from grognard.cli_common import KNOWN as _KNOWN
from grognard.cli_common import wide_console as _wide_console
from grognard.cli_simulate import _check_run, _duration
from grognard.core.dice import SeededDice
from grognard.core.errors import GrognardError, OptionError
from grognard.core.options import parse_assignments
from grognard.core.ruleset import Ruleset
from grognard.core.words import counted

# games of the book against the book, and of each other pairing, when -n and --skill-games are not given:
# each rule set's default run takes at most 2 minutes on 2 cores (docs/balance.md has the measurements)
DEFAULT_GAMES = {"omaha": 1000, "b17": 1000, "skirmish": 200}
DEFAULT_SKILL_GAMES = {"omaha": 200, "b17": 20, "skirmish": 200}  # B-17: its hard is the search, 2 to 6 s a game
OUTPUTS = ["balance.json", "pairings.png", "turns.png", "sweep.png", "balanced.toml"]


def bot_of(ruleset: Ruleset, level: str, flag: str) -> str:
    """``level`` if ``ruleset`` has a bot of that name (a ladder's level or an older name); OptionError otherwise."""
    if level not in ruleset.bots:
        raise OptionError(f"{flag} {level!r}: {unknown_bot(ruleset, level)}")
    return level


def _game_facts(ruleset: Ruleset, options: dict[str, Any]) -> int | None:
    """Make one game (so a bad scenario is refused before any is played); its turn limit, if it has one."""
    try:
        game = ruleset.new_game(options, SeededDice(0))
    except GrognardError as exc:
        problems = getattr(exc, "problems", None)
        if isinstance(problems, list) and len(problems) == 1:  # one problem: one line, as every bad input
            where, problem = str(getattr(exc, "where", "")), str(problems[0])
            raise OptionError(problem if where in problem else f"{where}: {problem}") from None  # the file named
        raise
    limit = game.view(None).get("stats", {}).get("turn_limit")
    return int(limit) if isinstance(limit, int) else None


def _pairings(ruleset: Ruleset, book: str, skilled: str, every: bool) -> list[tuple[str, str]]:
    """The (first side's level, second side's level) pairings to play, the book against the book first."""
    first = [(book, book)]
    if every:
        levels = ladder_levels(ruleset)
        return first + [(a, b) for a in levels for b in levels if (a, b) != (book, book)]
    return first + ([(skilled, book), (book, skilled)] if skilled != book else [])


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _plan_of(ruleset: Ruleset, options: dict[str, Any], pair: tuple[str, str], seed: int, games: int) -> Plan:
    levels = {side: bot_of(ruleset, level, "--levels") for side, level in zip(ruleset.sides, pair, strict=True)}
    return Plan(ruleset.name, options, levels, seed, games)


def _run(
    ruleset: Ruleset, plans: list[Plan], jobs: int, scheduler: str | None, label: str, quiet: bool, sweep: int
) -> list[Played]:
    """Game 0 of each plan played here first (its time makes the estimate said before the rest), then the rest
    side by side behind a progress bar."""
    first, took = [], []
    for plan in plans:
        played, spent = balance.play_first(plan, ruleset)
        first.append(played)
        took.append(spent)
    seconds = sum(spent * plan.games for spent, plan in zip(took, plans, strict=True))
    total = sum(plan.games for plan in plans)
    workers = 1 if scheduler else max(1, jobs)
    if not quiet:
        where = (
            f"shared by the workers of the Dask cluster at {scheduler}"
            if scheduler
            else f"about {_duration(seconds / workers)} on {counted(jobs, 'process', 'processes')}"
        )
        _say(
            f"{label}: {total:,} games; {_duration(seconds)} of CPU, {where} (from each pairing's first games; "
            f"Ctrl-C stops)"
        )
        if sweep:
            each = took[0] * plans[0].games
            _say(
                f"then the sweep: up to {sweep} values of {plans[0].games:,} games (at most "
                f"{sweep * plans[0].games:,} games, about {_duration(sweep * each / workers)} at the book's pace)"
            )
    with progress_bar() as progress:
        task = progress.add_task(label, total=total, completed=sum(item.summary.games for item in first))
        return balance.play(plans, ruleset, jobs, scheduler, lambda _, n: progress.advance(task, n), played=first)


def _player(ruleset: Ruleset, jobs: int, scheduler: str | None) -> evening.Player:
    """Plays one plan behind its own progress bar (a sweep's value)."""

    def player(plan: Plan, label: str) -> Played:
        with progress_bar() as progress:
            task = progress.add_task(label, total=plan.games)
            (played,) = balance.play([plan], ruleset, jobs, scheduler, lambda _, n: progress.advance(task, n))
        return played

    return player


def _pct(share: float) -> str:
    return f"{100 * share:.1f}%"


def _interval(low: float, high: float) -> str:
    return f"[{_pct(low)}, {_pct(high)}]"


def _games_for(half: float) -> int:
    """The games that make a 95% interval around 50% this narrow (each side of it): (1.96 / 2 / half)^2."""
    return math.ceil((balance.Z95 / 2 / half) ** 2)


def _half_width(games: int) -> float:
    """The half width of a 95% interval around 50% with ``games`` games: how precisely a win rate is known."""
    low, high = wilson(games // 2, games)
    return (high - low) / 2


def _print(console: Console, data: dict[str, Any], ruleset: Ruleset) -> None:
    plan = data["plan"]
    first, second = ruleset.sides
    console.print(f"{ruleset.title}: seed {plan['seed']}")
    console.print(f"  options: {plan['shown']}")
    for level, words in plan["levels"].items():
        console.print(f"  {level}: {words}")
    book = data["pairings"][0]
    console.print(f"[bold]Book v book[/bold], {book['games']} games (95% intervals):")
    for key, item in book["outcomes"].items():
        console.print(
            f"  {key:<14} {item['games']:>6}  {_pct(item['share']):>6}  {_interval(item['low95'], item['high95'])}"
        )
    limit = book["to_the_limit"]
    where = f"to the turn limit ({limit['limit']})" if limit["limit"] else "to a turn cap or a class period"
    console.print(
        f"  ran {where}: {limit['games']} games, {_pct(limit['share'])} {_interval(limit['low95'], limit['high95'])}"
    )
    turns = book["turns"]
    console.print(
        f"  length in turns: median {turns['median']:g}, quartiles {turns['q1']:g}-{turns['q3']:g}, "
        f"range {turns['min']}-{turns['max']}"
    )
    if data["skill"]:
        _print_skill(console, data["skill"], plan["skilled"])
    elif not data.get("matrix"):
        console.print(
            f"Skill: not played (--skill-games 0{'' if plan['skill_games_given'] else ', the default here'}); "
            f"--skill-games N plays N games of {plan['skilled']} v book and of book v {plan['skilled']}"
        )
    if data.get("matrix"):
        _print_matrix(console, data, first, second)
    sweep = data.get("sweep")
    if sweep:
        _print_sweep(console, sweep, plan)
    widths = sorted({plan["games"], *(p["games"] for p in data["pairings"][1:])}, reverse=True)
    console.print(
        "Intervals are 95%: "
        + "; ".join(
            f"at {n} games a win rate near 50% is known to about ±{100 * _half_width(n):.0f} points" for n in widths
        )
        + " (4 times the games halve it)."
    )


def _print_skill(console: Console, skill: dict[str, Any], skilled: str) -> None:
    swing = skill["swing"]
    games, side = swing["games"], swing["side"]
    console.print(
        f"[bold]Skill[/bold] ({skilled} against book, {games} games each way, on the dice of the first {games} above):"
    )
    console.print(
        f"  how much it matters: the {side} win {_pct(swing['one']['share'])} as {skilled} v book, "
        f"{_pct(swing['other']['share'])} as book v {skilled}: a swing of {_points(swing)}"
    )
    for gain in skill["gains"]:
        console.print(
            f"  {skilled} to the {gain['side']}: {_pct(gain['one']['share'])} against book, "
            f"{_pct(gain['other']['share'])} in book v book on the same games: {_points(gain)}"
        )


def _points(item: dict[str, Any]) -> str:
    """A paired difference as points with its interval and McNemar's p."""
    return (
        f"{100 * item['difference']:+.1f} points [{100 * item['low95']:+.1f}, {100 * item['high95']:+.1f}] "
        f"(McNemar p = {item['mcnemar_p']:.3g})"
    )


def _print_matrix(console: Console, data: dict[str, Any], first: str, second: str) -> None:
    levels = data["matrix"]["levels"]
    table = Table(
        title=f"The {first}' win rate, {first} level (row) against {second} level (column)", title_justify="left"
    )
    table.add_column(f"{first} \\ {second}")
    for level in levels:
        table.add_column(level, justify="right")
    for a in levels:
        cells = []
        for b in levels:
            item = data["matrix"]["cells"][f"{a} v {b}"]
            cells.append(f"{_pct(item['share'])} {_interval(item['low95'], item['high95'])}")
        table.add_row(a, *cells)
    _wide_console().print(table)


def _print_sweep(console: Console, sweep: dict[str, Any], plan: dict[str, Any]) -> None:
    side = sweep["side"]
    console.print(
        f"[bold]Evening the game[/bold] (the {side}' score: wins and half the draws; book v book, {plan['games']} "
        f"games a value, the same dice; the turn limit first, then how many men a side loses before it breaks):"
    )
    for item in sweep["sweeps"]:
        tried = ", ".join(f"{value}: {_pct(point['score'])}" for value, point in item["tried"].items())
        whose = f" ({item['side_of_field']})" if "side_of_field" in item else ""
        verdict = "within 5 points of 50%" if item["balanced"] else "the nearest found, not within 5 points"
        console.print(
            f"  {item['field']}{whose}={item['best']:g} gives {_pct(item['score'])} "
            f"{_interval(item['low95'], item['high95'])}: {verdict} "
            f"(the scenario's own: {item['own']:g}; tried {tried})"
        )
    best = sweep["recommended"]
    console.print(
        f"  recommended: {best['field']}={best['best']:g}" + ("" if best["balanced"] else " (not within 5 points)")
    )
    if best["high95"] - best["low95"] > 2 * balance.TARGET:
        console.print(
            f"  its interval is wider than the ±5 points asked: about {_games_for(balance.TARGET)} games (-n) "
            f"narrow it to that"
        )
    if "edit" in best:
        console.print(f"  check it, with {best['edit']}:")
        console.print(f"    {best['check']}", soft_wrap=True)
    else:
        console.print(f"  check it: {best['check']}")


def _sweep_data(
    found: list[dict[str, Any]],
    ruleset: Ruleset,
    options: dict[str, Any],
    given: dict[str, str],
    n: int,
    seed: int,
    out: Path | None,
) -> dict[str, Any]:
    """The sweeps as data, the recommended value and the command that checks it (with --out, the edited
    scenario written there as balanced.toml)."""
    from grognard.core.files import write_output

    best = next((item for item in found if item["balanced"]), None)
    best = best or min(found, key=lambda item: abs(item["score"] - 0.5))
    shown = {**given, "scenario": str(options["scenario"])}
    for item in found:
        plan = item.pop("plan")
        if item is not best:
            continue
        if item["field"] == "turn_limit":
            shown["turn_limit"] = f"{item['best']:g}"
        elif out is not None:
            write_output(out / "balanced.toml", str(plan.embedded["scenario"]["toml"]))
            shown["scenario"] = str(out / "balanced.toml")
        else:
            shown["scenario"] = "YOURS.toml"  # the command stays one a person can paste; what to edit is said apart
            best["edit"] = (
                f"YOURS.toml a copy of the scenario with {item['field']} = {item['best']:g} "
                "(--out DIR writes it: balanced.toml)"
            )
    command = " ".join(f"-o {k}={v}" for k, v in shown.items())
    best["check"] = f"grognard simulate {ruleset.name} {command} --bots {_both_book(ruleset)} -n {n} --seed {seed}"
    return {"side": ruleset.sides[0], "sweeps": found, "recommended": best}


def _both_book(ruleset: Ruleset) -> str:
    return ",".join(f"{side}=book" for side in ruleset.sides)


def _given(ruleset: Ruleset, option: list[str] | None, scenario: str | None) -> dict[str, str]:
    """The options given (``-o``), with ``--scenario`` among them; OptionError for a scenario given twice or
    to a rule set without scenarios."""
    given = parse_assignments(option or ())
    if scenario is not None:
        if not any(spec.name == "scenario" for spec in ruleset.options):
            raise OptionError(f"--scenario {scenario!r}: {ruleset.name} has no scenarios (its options: -o NAME=VALUE)")
        if "scenario" in given:
            raise OptionError(
                f"--scenario {scenario!r}: the scenario is given twice (and -o scenario={given['scenario']})"
            )
        given["scenario"] = scenario
    return given


def _check_places(out: Path | None, force: bool, scheduler: str | None) -> bool:
    """The folder to write in and the cluster, checked (and the folder made) before any game is played; whether
    the folder was made now."""
    made = False
    if out is not None:
        check_outputs_in(out, OUTPUTS, force, "--out")
        made = not out.exists()
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OptionError(f"--out {str(out)!r}: {exc.strerror}") from None
    if scheduler is not None:
        from grognard.analysis.cluster import dask_rows

        list(dask_rows([], scheduler))  # reached, or refused in one line
    return made


@contextmanager
def _unmade_if_stopped(out: Path | None, made: bool) -> Iterator[None]:
    """The folder ``--out`` made for this run is removed again if the run stops (Ctrl-C, an error) before anything
    was written in it: an empty folder left behind said nothing, and refused nothing the next run."""
    try:
        yield
    except BaseException:
        if made and out is not None and out.is_dir() and not any(out.iterdir()):
            out.rmdir()
        raise


def balance_command(
    ruleset_name: Annotated[str, typer.Argument(metavar="RULESET", help=f"the rule set ({_KNOWN})")],
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", metavar="NAME=VALUE", help="a scenario option")
    ] = None,
    scenario: Annotated[
        str | None, typer.Option("--scenario", metavar="S", help="the scenario (a shipped name or a TOML file)")
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "-n",
            "--games",
            help="games of the book against the book (default: "
            + ", ".join(f"{k} {v}" for k, v in DEFAULT_GAMES.items())
            + ")",
            parser=whole_number,
        ),
    ] = None,
    skill_games: Annotated[
        int | None,
        typer.Option(
            "--skill-games",
            help="games of each other pairing, on the book's first games' dice (default: "
            + ", ".join(f"{k} {v}" for k, v in DEFAULT_SKILL_GAMES.items())
            + ")",
            parser=whole_number,
        ),
    ] = None,
    skilled: Annotated[
        str, typer.Option("--skilled", metavar="LEVEL", help="the level played against the book")
    ] = "hard",
    every: Annotated[
        bool, typer.Option("--levels", help="every pairing of the ladder's levels, not only hard and book")
    ] = False,
    sweep: Annotated[
        str,
        typer.Option(
            "--sweep",
            metavar="|".join(evening.FIELDS),
            help="the field to even the game with: the turn limit, else each side's breaks_at (auto); one; none",
        ),
    ] = "auto",
    seed: Annotated[int, typer.Option("--seed", help="seed of the run: game i's dice", parser=whole_number)] = 1,
    jobs: Annotated[
        int | None, typer.Option("--jobs", help="processes (default: every core)", parser=whole_number)
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", metavar="ADDRESS", help="a Dask cluster (tcp://host:port)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            file_okay=False,
            help="write balance.json, PNG plots (and a scenario evened by its breaks_at, balanced.toml) here",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
) -> None:
    """Who wins a scenario under the book's play, how long it lasts, how much skill matters, and the turn limit
    that evens it: from bot games on the same dice."""
    ruleset = rulesets.get(ruleset_name)
    given = _given(ruleset, option, scenario)
    n = DEFAULT_GAMES.get(ruleset.name, 200) if games is None else games
    m = min(n, DEFAULT_SKILL_GAMES.get(ruleset.name, 20)) if skill_games is None else skill_games
    processes = _check_run(n, jobs, seed)
    if m < 0 or m > n:
        raise OptionError(f"--skill-games {m}: from 0 to -n ({n}): the pairings are paired with the book's first games")
    options = ruleset.resolve(given)
    bot_of(ruleset, "book", "--levels"), bot_of(ruleset, skilled, "--skilled")  # both named, before any game
    if skilled == "book":
        raise OptionError("--skilled 'book': the level played against the book is another (hard, normal, beginner)")
    limit = _game_facts(ruleset, options)
    made = _check_places(out, force, scheduler)
    with _unmade_if_stopped(out, made):
        pairs = _pairings(ruleset, "book", skilled, every) if m else [("book", "book")]
        plans = [_plan_of(ruleset, options, pair, seed, n if i == 0 else m) for i, pair in enumerate(pairs)]
        if sweep not in evening.FIELDS:
            raise OptionError(f"--sweep {sweep!r}: choose one of {', '.join(evening.FIELDS)}")
        sweeping = sweep != "none" and limit is not None and any(spec.name == "turn_limit" for spec in ruleset.options)
        values = evening.most_values(ruleset, limit, sweep) if sweeping and limit is not None else 0
        played = _run(ruleset, plans, processes, scheduler, f"{ruleset.name} balance", as_json, values)
        data = _figures(ruleset, options, pairs, plans, played, limit, seed, skilled, every, skill_games is not None)
        if sweeping and limit is not None:
            found = evening.sweeps(ruleset, options, played[0], limit, _player(ruleset, processes, scheduler), sweep)
            data["sweep"] = _sweep_data(found, ruleset, options, given, n, seed, out)
        if as_json:
            print(json.dumps(data, indent=1))
        else:
            _print(Console(highlight=False, soft_wrap=True), data, ruleset)
        if out is not None:
            from grognard.analysis.report import write_balance

            written = write_balance(out, data, played[0].summary)
            if not as_json:
                print("wrote " + ", ".join(str(p) for p in written))


def _figures(
    ruleset: Ruleset,
    options: dict[str, Any],
    pairs: Sequence[tuple[str, str]],
    plans: Sequence[Plan],
    played: Sequence[Played],
    limit: int | None,
    seed: int,
    skilled: str,
    every: bool,
    given_skill: bool,
) -> dict[str, Any]:
    """The run's figures as data (what --json prints and the text shows)."""
    first, second = ruleset.sides
    by_pair = dict(zip(pairs, played, strict=True))
    pairings = []
    for pair, item in zip(pairs, played, strict=True):
        figures = balance.outcome_figures(item, limit)
        figures["levels"] = dict(zip(ruleset.sides, pair, strict=True))
        pairings.append(figures)
    skill: dict[str, Any] = {}
    if (skilled, "book") in by_pair and skilled != "book":
        m = plans[pairs.index((skilled, "book"))].games
        ahead, behind, book = by_pair[(skilled, "book")], by_pair[("book", skilled)], by_pair[("book", "book")]
        skill = {
            "swing": balance.compare(ahead, behind, first, m),
            "gains": [balance.compare(ahead, book, first, m), balance.compare(behind, book, second, m)],
        }
    data: dict[str, Any] = {
        "plan": {
            "ruleset": ruleset.name,
            "options": {k: v for k, v in options.items()},
            "shown": shown_options(ruleset, options),
            "seed": seed,
            "games": plans[0].games,
            "skill_games": plans[1].games if len(plans) > 1 else 0,
            "skill_games_given": given_skill,
            "book": "book",
            "skilled": skilled,
            "levels": {level: note(ruleset, level) for level in dict.fromkeys(a for pair in pairs for a in pair)},
        },
        "pairings": pairings,
        "skill": skill,
    }
    if every:
        levels = [level for level in ladder_levels(ruleset) if any(a == level for a, _ in pairs)]  # weakest first
        cells = {}
        for (a, b), item in by_pair.items():
            wins = item.summary.outcomes.get(f"{first} win", 0)
            low, high = wilson(wins, item.summary.games)
            cells[f"{a} v {b}"] = {
                "games": item.summary.games,
                "wins": wins,
                "share": wins / item.summary.games,
                "low95": low,
                "high95": high,
            }
        data["matrix"] = {"side": first, "levels": levels, "cells": cells}
    return data


def register(app: typer.Typer) -> None:
    """Add balance to ``app``."""
    app.command("balance")(balance_command)
