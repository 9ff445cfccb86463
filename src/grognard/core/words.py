"""Words for the texts people read: a count with its noun in the right number, a chance as a percentage."""

from __future__ import annotations

from typing import SupportsFloat


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` followed by ``singular`` when ``n`` is one, else by ``plural`` (default: ``singular + 's'``).

    >>> counted(1, "man", "men"), counted(3, "man", "men"), counted(1, "die", "dice"), counted(0, "hit")
    ('1 man', '3 men', '1 die', '0 hits')
    """
    return f"{n} {singular if n == 1 else (plural if plural is not None else singular + 's')}"


def percent(p: SupportsFloat) -> str:
    """A chance ``p`` (0 to 1: a float or a ``Fraction``) as a person reads it: whole per cent from 10 %, one
    decimal below it, "<0.1%" for a chance that small but not nothing, ">99%" for one short of certain.

    >>> percent(1 / 9), percent(0.5), percent(0.0123), percent(0), percent(0.0001), percent(0.996), percent(1)
    ('11%', '50%', '1.2%', '0%', '<0.1%', '>99%', '100%')
    """
    value = float(p) * 100
    if value in (0, 100):
        return f"{value:.0f}%"
    if value < 0.05:
        return "<0.1%"
    if value >= 99.5:
        return ">99%"
    return f"{value:.0f}%" if value >= 9.95 else f"{value:.1f}%"


def possessive(name: str) -> str:
    """``name`` owning something, as written: a plural in ``s`` takes an apostrophe alone, any other name ``'s``.

    >>> possessive("Allies"), possessive("Germans"), possessive("Axis"), possessive("German 1"), possessive("A.3")
    ("Allies'", "Germans'", "Axis's", "German 1's", "A.3's")
    """
    plural = name.endswith("s") and not name.endswith(("is", "us", "ss"))
    return f"{name}'" if plural else f"{name}'s"
