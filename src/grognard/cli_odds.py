"""grognard odds: the exact odds of every dice mechanic of a rule set, as tables or JSON."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.table import Table

from grognard import rulesets
from grognard.analysis.odds import odds_figures, table_json
from grognard.cli_common import KNOWN as _KNOWN
from grognard.cli_common import wide_console as _wide_console
from grognard.core.errors import OptionError
from grognard.core.options import parse_assignments


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


def register(app: typer.Typer) -> None:
    """Add odds to ``app``."""
    app.command("odds")(odds_command)
