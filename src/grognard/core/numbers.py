"""The one reader of numbers typed by people: in orders, options, typed dice, menus and flags alike.

Only ASCII digits, one ``.`` and a leading ``-`` make a number. Python's own ``int`` and ``float`` also read
``1_2`` as 12, ``٣`` (an Arabic-Indic three) as 3, ``+5``, ``1e3``, `` 7 `` and ``inf``; a person who typed
those meant something else, and is told so instead.

>>> read_int("12"), read_int("-3"), read_int("1_2"), read_int("٣"), read_int("+5"), read_int("1.0")
(12, -3, None, None, None, None)
>>> read_float("2.5"), read_float("-.5"), read_float("7"), read_float("1e3"), read_float("inf"), read_float("1.")
(2.5, -0.5, 7.0, None, None, 1.0)
"""

from __future__ import annotations

import re

_INT = re.compile(r"-?[0-9]+", re.ASCII)
_FLOAT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)


def read_int(text: str) -> int | None:
    """``text`` as a whole number (ASCII digits, a leading ``-``), else None."""
    return int(text) if _INT.fullmatch(text) else None


def read_float(text: str) -> float | None:
    """``text`` as a number (ASCII digits, at most one ``.``, a leading ``-``), else None."""
    return float(text) + 0.0 if _FLOAT.fullmatch(text) else None


def is_count(text: str) -> bool:
    """Whether ``text`` is a count: ASCII digits only (no sign).

    >>> is_count("12"), is_count("-1"), is_count("٣"), is_count("")
    (True, False, False, False)
    """
    return bool(text) and text.isascii() and text.isdecimal()
