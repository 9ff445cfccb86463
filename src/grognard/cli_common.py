"""What the ``grognard`` command's modules share: the rule sets' names for help texts and a console for tables."""

from __future__ import annotations

from rich.console import Console

from grognard import rulesets

KNOWN = ", ".join(rulesets.names())  # for the RULESET argument's help


def wide_console() -> Console:
    """A console for tables: the terminal's width, or a wide page when writing to a file or pipe."""
    console = Console(highlight=False)
    return console if console.is_terminal else Console(highlight=False, width=200)
