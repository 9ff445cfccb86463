"""What the ``grognard`` command's modules share: the rule sets' names for help texts and a console for tables."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from grognard import rulesets
from grognard.core.errors import OptionError
from grognard.core.numbers import read_float, read_int
from grognard.core.ruleset import Ruleset

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


def decimal_number(text: str) -> float:
    """A number flag with a fraction (``serve --retention``), read as orders and options read one: ASCII
    digits, one ``.`` and a leading ``-`` (a float of Typer's own took ``1_2``, ``1e3`` and ``inf``)."""
    if isinstance(text, float | int):  # a default
        return float(text)
    number = read_float(str(text))
    if number is None:
        raise typer.BadParameter(f"{text!r} is not a number (ASCII digits, one '.' and a leading '-' only)")
    return number


FORCE_HELP = "write over a file that is already there"


def check_output(path: Path, force: bool, flag: str) -> None:
    """The one rule of every file a command writes (sheet, render, replay --out, analyse --png, simulate and
    sweep --out, draw at a prompt): a file already there is refused, ``--force`` writes over it; a folder, a
    folder that is not there or not writable is refused. ``OptionError`` naming ``flag``; nothing written."""
    shown = f"{flag} {str(path)!r}"
    if path.is_dir():
        raise OptionError(f"{shown}: a folder; name a file in it")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OptionError(f"{shown}: there is no folder {str(folder)!r}")
    if path.exists() and not force:
        raise OptionError(f"{shown}: the file is already there; --force writes over it (nothing was written)")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise OptionError(f"{shown}: cannot write there (permission denied)")


def check_outputs_in(folder: Path, names: Sequence[str], force: bool, flag: str) -> None:
    """:func:`check_output` for the files ``names`` a command writes in ``folder`` (simulate's and sweep's
    --out): one already there is refused, naming it, unless ``force``; a file where the folder should be too."""
    if folder.exists() and not folder.is_dir():
        raise OptionError(f"{flag} {str(folder)!r}: a file, not a folder")
    there = [name for name in names if (folder / name).exists()]
    if there and not force:
        raise OptionError(
            f"{flag} {str(folder)!r}: {', '.join(there)} already there; --force writes over "
            f"{'them' if len(there) > 1 else 'it'} (nothing was written)"
        )


def progress_bar() -> Progress:
    """The bar of a long run (simulate, sweep, balance) on standard error: games done, time spent and left;
    off when standard error is not a terminal, gone when the run ends."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        transient=True,
        disable=not sys.stderr.isatty(),
        console=Console(stderr=True),
    )


def shown_options(ruleset: Ruleset, options: Mapping[str, Any]) -> str:
    """Options as a person writes them (on/off, unlimited): ``"germans=6, fresh_squads=unlimited"``."""
    specs = {spec.name: spec for spec in ruleset.options}
    return ", ".join(f"{k}={specs[k].describe(v)}" if k in specs else f"{k}={v}" for k, v in options.items())
