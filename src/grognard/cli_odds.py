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

# the option values that print other odds than the defaults (tests/test_odds_cli.py checks this list against
# the tables themselves, so a new reading that changes a table cannot be left off it)
ODDS_OPTIONS = {
    "omaha": ("drowned_morale=off",),
    "b17": (
        "doubled=more_than",
        "bomb_tie=hit",
        "flak_dice=bomber_defence",
        "fourth_engine=destroys",
        "flak_damage=breaks_off",
    ),
    "skirmish": ("ladder_push=one_die", "cover_six=hits", "artillery_one=damage_die", "wounds=last"),
}
OPTION_HELP = "a scenario option (a reading of RULINGS); those that change the odds: " + "; ".join(
    f"{name} {', '.join(values)}" for name, values in ODDS_OPTIONS.items()
)


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
        typer.Option("--option", "-o", metavar="NAME=VALUE", help=OPTION_HELP),
    ] = None,
) -> None:
    """The exact odds of every dice mechanic of a rule set, and the composites a designer asks for, from the
    same objects play rolls, as the options read them (``-o bomb_tie=hit``)."""
    ruleset = rulesets.get(ruleset_name)
    if ruleset.analysis is None:
        raise OptionError(f"{ruleset.name} declares no dice mechanics yet")
    options = ruleset.resolve(parse_assignments(option or ()))
    tables = [table_json(t) for t in ruleset.analysis.odds_tables(options)]
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
    P(this or less)), or the other way round when the outcomes are too many to read across. A table wider than
    the console is printed in parts, each repeating the first column; no figure is ever cut short."""
    outcomes: list[Any] = []
    for row in table["rows"]:
        for item in row["outcomes"]:
            if item["outcome"] not in outcomes:
                outcomes.append(item["outcome"])
    outcomes.sort(key=_outcome_order)
    means = field == "probability" and any(row["mean"] for row in table["rows"])
    if len(outcomes) > WIDE_ODDS:  # too many outcomes to read across: one row per outcome instead
        header, body = _transposed_grid(table, outcomes, exact, field, means)
    else:
        header, body = _grid(table, outcomes, exact, field, means)
    print_grid(console, f"{table['title']} ({table['rule']})", header, body, table["note"] or None)


def print_grid(console: Any, title: str, header: list[str], body: list[list[str]], caption: str | None) -> None:
    """A table of ``header`` and rows of cells, in parts no wider than ``console`` when it is too wide for it,
    each part repeating the first column (``continued (2 of 3)``); no cell is ever cut short."""
    parts, widths = column_parts(header, body, console.width)
    for number, columns in enumerate(parts, 1):
        view = Table(
            title=title if number == 1 else f"{title}, continued ({number} of {len(parts)})",
            title_justify="left",
            caption=caption if number == len(parts) else None,
            caption_justify="left",
        )
        for index, wide in zip(columns, _part_widths(header, body, columns, widths, console.width), strict=True):
            view.add_column(
                header[index],
                justify="left" if index == 0 and body and not _figures(body) else "right",
                width=wide,
                overflow="fold",
            )
        for cells in body:
            view.add_row(*[cells[index] for index in columns])
        console.print(view)
        console.print()


def _figures(body: list[list[str]]) -> bool:
    """Whether a table's first column holds figures (right-aligned) rather than words."""
    return all(not cells[0] or cells[0][0].isdigit() or cells[0][0] in "-." for cells in body)


WIDE_ODDS = 16  # an odds table with more outcomes than this is printed one row per outcome


def _outcome_name(outcome: Any) -> str:
    return {True: "yes", False: "no"}[outcome] if isinstance(outcome, bool) else str(outcome)


def _mean_cell(row: dict[str, Any], exact: bool) -> str:
    average = row["mean"]
    return "" if not average else (average["exact"] if exact else f"{average['decimal']:.4f}")


def _grid(
    table: dict[str, Any], outcomes: list[Any], exact: bool, field: str, means: bool
) -> tuple[list[str], list[list[str]]]:
    """The header and the rows' cells of a table with a row per parameter value and a column per outcome."""
    header = [table["parameter"] or ""] + [_outcome_name(outcome) for outcome in outcomes]
    header += ["mean"] if means else []
    body = []
    for row in table["rows"]:
        by = {item["outcome"]: item for item in row["outcomes"]}
        cells = [str(row["parameter"]) if row["parameter"] is not None else ""]
        cells += [_cell(by.get(outcome), exact, field) for outcome in outcomes]
        body.append(cells + ([_mean_cell(row, exact)] if means else []))
    return header, body


def _transposed_grid(
    table: dict[str, Any], outcomes: list[Any], exact: bool, field: str, means: bool
) -> tuple[list[str], list[list[str]]]:
    """The header and cells of a table with an outcome per row, a column per parameter value, a last row of means."""
    rows = table["rows"]
    name = table["parameter"] or ""
    header = ["outcome"]
    header += [f"{name} {row['parameter']}".strip() if row["parameter"] is not None else "" for row in rows]
    by = [{item["outcome"]: item for item in row["outcomes"]} for row in rows]
    body = [[str(outcome), *[_cell(found.get(outcome), exact, field) for found in by]] for outcome in outcomes]
    if means:
        body.append(["mean", *[_mean_cell(row, exact) for row in rows]])
    return header, body


def _width(header: list[str], body: list[list[str]], index: int) -> int:
    """A column's least width: its longest cell, and its heading's longest word (a heading may wrap at spaces)."""
    words = [len(word) for word in header[0].split()] if header else []
    return max([len(cells[index]) for cells in body] + words + [1])


def column_parts(header: list[str], body: list[list[str]], width: int) -> tuple[list[list[int]], list[int]]:
    """The columns of each part of a table ``width`` characters wide at most (the first column in every part,
    then as many of the others, in order, as fit beside it, one at least) and each column's width: a figure
    wider than the terminal (an exact fraction of many dice) is given the room there is and folds onto lines."""
    edge = 1  # a rich table's left border; each column adds its width, a space either side and a border
    first = min(_width(header, body, 0), max(1, width // 3 - 3))
    room = max(1, width - edge - (first + 3) - 3)
    widths = [first, *[min(_width([heading], body, index), room) for index, heading in enumerate(header)][1:]]
    parts: list[list[int]] = []
    current, used = [0], edge + first + 3
    for index in range(1, len(header)):
        if len(current) > 1 and used + widths[index] + 3 > width:
            parts.append(current)
            current, used = [0], edge + first + 3
        current.append(index)
        used += widths[index] + 3
    parts.append(current)
    return parts, widths


def _part_widths(
    header: list[str], body: list[list[str]], columns: list[int], least: list[int], width: int
) -> list[int]:
    """The widths of a part's columns: each heading on one line when the whole part then fits, else the least."""
    whole = [max([least[index], len(header[index])] + [len(cells[index]) for cells in body]) for index in columns]
    return whole if 1 + sum(w + 3 for w in whole) <= width else [least[index] for index in columns]


def register(app: typer.Typer) -> None:
    """Add odds to ``app``."""
    app.command("odds")(odds_command)
