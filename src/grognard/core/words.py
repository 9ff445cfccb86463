"""Words for the texts people read: a count with its noun in the right number."""

from __future__ import annotations


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` followed by ``singular`` when ``n`` is one, else by ``plural`` (default: ``singular + 's'``).

    >>> counted(1, "man", "men"), counted(3, "man", "men"), counted(1, "die", "dice"), counted(0, "hit")
    ('1 man', '3 men', '1 die', '0 hits')
    """
    return f"{n} {singular if n == 1 else (plural if plural is not None else singular + 's')}"
