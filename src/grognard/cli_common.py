"""What the ``grognard`` command's modules share: the rule sets' names for help texts and a console for tables."""

from __future__ import annotations

import typer
from rich.console import Console

from grognard import rulesets
from grognard.core.errors import OptionError
from grognard.core.numbers import read_int

KNOWN = ", ".join(rulesets.names())  # for the RULESET argument's help


def wide_console() -> Console:
    """A console for tables: the terminal's width, or a wide page when writing to a file or pipe."""
    console = Console(highlight=False)
    return console if console.is_terminal else Console(highlight=False, width=200)


def check_seed(seed: int | None, flag: str = "--seed") -> None:
    """A seed the dice take (0 to 2^63-1), or None (a fresh one); ``OptionError`` naming ``flag`` otherwise."""
    if seed is not None and not 0 <= seed < 2**63:
        raise OptionError(f"{flag} {seed}: must be between 0 and 2^63-1")


def whole_number(text: str) -> int:
    """A whole-number flag (``--seed``, ``-n``) read by the one reader of typed numbers (``core.numbers``):
    ASCII digits and a leading ``-``, as orders and options read them (Typer's own took ``1_2`` for 12)."""
    if isinstance(text, int):  # a default
        return text
    number = read_int(str(text))
    if number is None:
        raise typer.BadParameter(f"{text!r} is not a whole number (ASCII digits and '-' only)")
    return number
