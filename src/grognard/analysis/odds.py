"""Exact odds of every dice mechanic a rule set declares, from the mechanics' ``distribution()``.

A rule set declares :class:`OddsTable` objects: a mechanic, or a family of
mechanics over a parameter ("figures lost, 1 to 12"). The odds shown on a
reference sheet, in a menu and in play come from the same objects.

>>> from grognard.core.dice import SuccessCount
>>> table = OddsTable("fire", "Bunker fire", "omaha.19", rows=((4, SuccessCount(4, 5)),), parameter="dice")
>>> row = table_json(table)["rows"][0]
>>> row["outcomes"][0]
{'outcome': 0, 'probability': '16/81', 'decimal': 0.197531}
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


def table_json(table: OddsTable) -> dict[str, Any]:
    """A table as JSON-safe data: exact fractions as text, decimals rounded to 6 places."""
    rows = []
    for param, mechanic in table.rows:
        outcomes = distribution_rows(mechanic)
        average = mean(outcomes)
        rows.append(
            {
                "parameter": param,
                "mechanic": mechanic.text,
                "outcomes": [{"outcome": o, "probability": str(p), "decimal": round(float(p), 6)} for o, p in outcomes],
                "mean": None if average is None else {"exact": str(average), "decimal": round(float(average), 6)},
            }
        )
    return {
        "name": table.name,
        "title": table.title,
        "rule": table.rule,
        "parameter": table.parameter,
        "note": table.note,
        "rows": rows,
    }
