"""Exact odds of every dice mechanic a rule set declares, from the mechanics' ``distribution()``.

A rule set declares :class:`OddsTable` objects: a mechanic, or a family of
mechanics over a parameter ("figures lost, 1 to 12"). The odds shown on a
reference sheet, in a menu and in play come from the same objects.

>>> from grognard.core.dice import SuccessCount
>>> table = OddsTable("fire", "Bunker fire", "omaha.19", rows=((4, SuccessCount(4, 5)),), parameter="dice")
>>> row = table_json(table)["rows"][0]
>>> row["outcomes"][0]
{'outcome': 0, 'probability': '16/81', 'decimal': 0.197531, 'at_most': '16/81', 'key': 'fire/4/0'}

Every figure has a key, ``table/parameter/outcome`` (``table/parameter/mean`` for a mean):
``grognard odds RULESET --what KEY`` prints it, ``--what TABLE`` the whole table. A composite
mechanic that cuts an unbounded count (``Rounds``) labels its last outcome ``"12+"`` and gives
the exact mean of the uncut count.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grognard.core.dice import Mechanic


@dataclass(frozen=True)
class OddsTable:
    """One mechanic, or a family of them over ``parameter``: ``rows`` are (parameter value, mechanic)."""

    name: str
    title: str
    rule: str
    rows: tuple[tuple[Any, Mechanic], ...]
    parameter: str | None = None
    note: str = ""
    cumulative: bool = False  # print P(outcome or less) too (the JSON always carries it for numbers)


def _outcome(value: Any) -> Any:
    return bool(value) if isinstance(value, bool) else (int(value) if isinstance(value, int) else str(value))


def distribution_rows(mechanic: Mechanic) -> list[tuple[Any, Fraction]]:
    """``(outcome, exact probability)`` for each outcome of ``mechanic``, in outcome order."""
    die = mechanic.distribution()
    total = die.denominator()
    return [(_outcome(outcome), Fraction(int(quantity), int(total))) for outcome, quantity in die.items()]


def mean(rows: list[tuple[Any, Fraction]]) -> Fraction | None:
    """The exact mean of numeric outcomes (``None`` for outcomes that are not numbers)."""
    if not rows or not all(isinstance(o, int) and not isinstance(o, bool) for o, _ in rows):
        return None
    return sum((Fraction(o) * p for o, p in rows), Fraction(0))


def figure_key(table: str, parameter: Any, outcome: Any) -> str:
    """The key of one figure: ``table/parameter/outcome`` (no parameter: ``table//outcome``)."""
    return f"{table}/{'' if parameter is None else parameter}/{outcome}"


def table_json(table: OddsTable) -> dict[str, Any]:
    """A table as JSON-safe data: exact fractions as text, decimals rounded to 6 places, each figure keyed.

    Numeric outcomes carry ``at_most``, the exact P(outcome or less).
    """
    rows = []
    for param, mechanic in table.rows:
        outcomes = distribution_rows(mechanic)
        exact_mean = getattr(mechanic, "exact_mean", None)
        average = exact_mean() if exact_mean is not None else mean(outcomes)
        label = getattr(mechanic, "outcome_label", None)
        numeric = mean(outcomes) is not None
        items = []
        below = Fraction(0)
        for o, p in outcomes:
            shown = label(o) if label is not None else o
            item: dict[str, Any] = {"outcome": shown, "probability": str(p), "decimal": round(float(p), 6)}
            if numeric:
                below += p
                item["at_most"] = str(below)
            item["key"] = figure_key(table.name, param, shown)
            items.append(item)
        rows.append(
            {
                "parameter": param,
                "mechanic": mechanic.text,
                "outcomes": items,
                "mean": None
                if average is None
                else {
                    "exact": str(average),
                    "decimal": round(float(average), 6),
                    "key": figure_key(table.name, param, "mean"),
                },
            }
        )
    return {
        "name": table.name,
        "title": table.title,
        "rule": table.rule,
        "parameter": table.parameter,
        "note": table.note,
        "cumulative": table.cumulative,
        "rows": rows,
    }


def odds_figures(tables: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every figure of these tables (``table_json`` output) by its key: the outcome items and the means."""
    out: dict[str, dict[str, Any]] = {}
    for table in tables:
        for row in table["rows"]:
            for item in row["outcomes"]:
                out[item["key"]] = item
            if row["mean"]:
                out[row["mean"]["key"]] = row["mean"]
    return out
