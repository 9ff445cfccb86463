"""The quick-reference card of a rule set: the sequence of play, the options in force, and every dice
mechanic with its exact odds as percentages a 13-year-old can read.

The figures are the rule set's own ``odds_tables(options)`` (the objects play rolls), each probability
shown as a percent (whole from 10%, one decimal below, "<0.1%" for a chance that small but not nothing,
"-" for an outcome that cannot happen); ``grognard odds RULESET --exact`` prints the same as fractions.

>>> percent(Fraction(5, 9)), percent(Fraction(1, 36)), percent(Fraction(1, 10**6)), percent(Fraction(0))
('56%', '2.8%', '<0.1%', '-')
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.platypus import CondPageBreak, KeepTogether, Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from grognard.analysis.odds import table_json
from grognard.core import words
from grognard.core.ruleset import Ruleset

COLUMNS = 12  # outcome columns at most in one table; wider tables go one row per outcome, or in parts
ROWS = 24  # rows at most in one grid: a longer table goes on in another grid, under its title again

_STYLES = getSampleStyleSheet()
TITLE = ParagraphStyle("card-title", parent=_STYLES["Title"], fontSize=20, spaceAfter=4, alignment=0)
HEAD = ParagraphStyle("card-head", parent=_STYLES["Heading2"], fontSize=13, spaceBefore=8, spaceAfter=3)
TEXT = ParagraphStyle("card-text", parent=_STYLES["BodyText"], fontSize=10, leading=12.5)
SMALL = ParagraphStyle("card-small", parent=TEXT, fontSize=8.5, leading=10.5, textColor=colors.HexColor("#333333"))
TABLE_TITLE = ParagraphStyle("card-table-title", parent=TEXT, fontName="Helvetica-Bold", fontSize=10, spaceBefore=6)


def percent(p: Fraction) -> str:
    """A probability as a person reads it, "-" for none (see the module's doctest)."""
    return "-" if p == 0 else words.percent(p)


def _esc(text: Any) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def outcome_words(outcome: Any) -> str:
    """An outcome as a column head: yes/no for True/False, else its text."""
    if isinstance(outcome, bool):
        return "yes" if outcome else "no"
    return str(outcome)


def _grids(rows: list[list[str]], first_col: bool = True) -> list[Table]:
    """``rows`` (a head row, then the body) as grids of at most ``ROWS`` body rows, each with the head."""
    body = rows[1:]
    return [_grid([rows[0], *body[i : i + ROWS]], first_col=first_col) for i in range(0, max(len(body), 1), ROWS)]


def _grid(rows: list[list[str]], head_rows: int = 1, first_col: bool = True) -> Table:
    table = Table(rows, repeatRows=head_rows, hAlign="LEFT")
    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 8.5),
        ("FONT", (0, 0), (-1, head_rows - 1), "Helvetica-Bold", 8.5),
        ("BACKGROUND", (0, 0), (-1, head_rows - 1), colors.HexColor("#E4E4E4")),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999999")),
        ("ALIGN", (1 if first_col else 0, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]
    for r in range(head_rows, len(rows)):
        if (r - head_rows) % 2 == 1:
            style.append(("BACKGROUND", (0, r), (-1, r), colors.HexColor("#F4F4F4")))
    table.setStyle(TableStyle(style))
    return table


TAIL = Fraction(1, 2000)  # a numeric outcome every row gives less than 0.05% is folded into "k or more"


def _fold_tail(outcomes: list[Any], cells: list[dict[Any, Fraction]]) -> tuple[list[Any], list[dict[Any, Fraction]]]:
    """Numeric outcomes past the last one some row gives 0.05% or more become one "k+" outcome (their sum), so a
    table of 8 bombers' hits stops where the chances do.

    >>> tiny = Fraction(1, 10**5)
    >>> cells = [{o: (Fraction(1, 2) - 6 * tiny if o < 2 else tiny) for o in range(14)}]
    >>> outcomes, folded = _fold_tail(list(range(14)), cells)
    >>> outcomes, folded[0]["2+"] == 12 * tiny
    ([0, 1, '2+'], True)
    """
    if len(outcomes) <= COLUMNS or not all(isinstance(o, int) and not isinstance(o, bool) for o in outcomes):
        return outcomes, cells
    ordered = sorted(outcomes)
    last = max(k for k, o in enumerate(ordered) if any(c.get(o, Fraction(0)) >= TAIL for c in cells))
    if last >= len(ordered) - 2:
        return outcomes, cells
    rest = ordered[last + 1 :]
    label = f"{rest[0]}+"
    folded = [
        {
            **{o: c.get(o, Fraction(0)) for o in ordered[: last + 1]},
            label: sum((c.get(o, Fraction(0)) for o in rest), Fraction(0)),
        }
        for c in cells
    ]
    return [*ordered[: last + 1], label], folded


def odds_grids(table: dict[str, Any]) -> list[Table]:
    """One odds table (``table_json`` form) as grids of percentages: a row per parameter value, a column per
    outcome (and the mean); with more than ``COLUMNS`` outcomes, a row per outcome when the parameters are
    few, else the outcomes in parts."""
    outcomes: list[Any] = []
    for row in table["rows"]:
        for item in row["outcomes"]:
            if item["outcome"] not in outcomes:
                outcomes.append(item["outcome"])
    cells = [{item["outcome"]: Fraction(item["probability"]) for item in row["outcomes"]} for row in table["rows"]]
    outcomes, cells = _fold_tail(outcomes, cells)
    labels = ["" if row["parameter"] is None else str(row["parameter"]) for row in table["rows"]]
    means = [row["mean"]["decimal"] if row["mean"] else None for row in table["rows"]]
    head = table["parameter"] or ""
    if len(outcomes) > COLUMNS and len(labels) <= COLUMNS:  # read down: a row per outcome
        rows = [["outcome", *[label or "chance" for label in labels]]]
        rows += [[outcome_words(o), *[percent(c.get(o, Fraction(0))) for c in cells]] for o in outcomes]
        if any(m is not None for m in means):
            rows.append(["average", *["" if m is None else f"{m:.2f}" for m in means]])
        return _grids(rows)
    grids: list[Table] = []
    for start in range(0, len(outcomes), COLUMNS):
        part = outcomes[start : start + COLUMNS]
        last = start + COLUMNS >= len(outcomes)
        show_mean = last and any(m is not None for m in means)
        rows = [[head, *[outcome_words(o) for o in part], *(["average"] if show_mean else [])]]
        for label, c, m in zip(labels, cells, means, strict=True):
            line = [label, *[percent(c.get(o, Fraction(0))) for o in part]]
            if show_mean:
                line.append("" if m is None else f"{m:.2f}")
            rows.append(line)
        if not any(labels) and not head:  # a single mechanic: its outcomes are the heads, no first column
            grids += _grids([r[1:] for r in rows], first_col=False)
        else:
            grids += _grids(rows)
    return grids


def options_in_force(ruleset: Ruleset, options: Mapping[str, Any]) -> Table:
    """Each option with its value and what it does; a changed one is marked."""
    rows: list[list[Any]] = [["option", "value", "what it does"]]
    for spec in ruleset.options:
        value = options.get(spec.name, spec.default)
        changed = value != spec.default
        rows.append(
            [
                Paragraph(("<b>%s</b>" if changed else "%s") % _esc(spec.name), SMALL),
                Paragraph(_esc(spec.describe(value)) + (" <b>(changed)</b>" if changed else ""), SMALL),
                Paragraph(_esc(spec.help), SMALL),
            ]
        )
    table = Table(rows, colWidths=[110, 110, 500], repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8.5),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#E4E4E4")),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999999")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    return table


def card(ruleset: Ruleset, options: Mapping[str, Any], seed: int) -> list[Flowable]:
    """The card's flowables: title, sequence of play, options in force, every odds table."""
    story: list[Flowable] = [
        Paragraph(_esc(f"{ruleset.title}: quick reference"), TITLE),
        Paragraph(
            _esc(
                f"grognard sheet {ruleset.name}, seed {seed}. The same game on the computer: "
                f"grognard play {ruleset.name} --seed {seed}"
                + "".join(
                    f" --option {spec.name}={spec.describe(options[spec.name])}"
                    for spec in ruleset.options
                    if options.get(spec.name, spec.default) != spec.default
                )
            ),
            SMALL,
        ),
    ]
    if ruleset.sequence:
        story.append(Paragraph("Sequence of play", HEAD))
        story += [Paragraph(_esc(line), TEXT) for line in ruleset.sequence]
    if ruleset.options:
        story += [Paragraph("Options in force", HEAD), options_in_force(ruleset, options)]
    if ruleset.analysis is not None:
        story += [
            CondPageBreak(120),
            Paragraph("The dice: the chance of each result", HEAD),
            Paragraph(
                "Each number is the chance in 100 (a percent) of that result, worked out exactly from the "
                "dice as the game rolls them, with the options above. '-' means it cannot happen. The exact "
                f"fractions: grognard odds {ruleset.name} --exact.",
                SMALL,
            ),
        ]
        for table in (table_json(t) for t in ruleset.analysis.odds_tables(options)):
            title = f"{table['title']} ({table['rule']})"
            grids = odds_grids(table)
            for k, grid in enumerate(grids):
                block: list[Flowable] = [Paragraph(_esc(title + (" - continued" if k else "")), TABLE_TITLE), grid]
                if table["note"] and k == len(grids) - 1:
                    block.append(Paragraph(_esc(table["note"]), SMALL))
                block.append(Spacer(1, 3))
                story.append(KeepTogether(block))
    return story
