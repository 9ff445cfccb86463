"""Printable sheets (``grognard sheet RULESET -o FILE.pdf``): a quick-reference card for every rule set,
and for Omaha and the B-17 raid the drawings a real table is set up from.

A sheet is a PDF made with reportlab, landscape US Letter (11" by 8.5"). Its pages:

- the card (:mod:`grognard.sheets.card`): the sequence of play, the options in force, and every dice
  mechanic the rule set declares (``odds_tables``, read with those options) as tables of percentages;
- Omaha (:mod:`grognard.sheets.omaha`): the beach drawn to scale with the obstacles the seeded dice
  rolled for each section (the same dice as ``grognard play omaha --seed N``), the bunker places, the exits;
- the B-17 raid (:mod:`grognard.sheets.b17`): the table with the entry zone and the box, the target and
  its flak ring, the gun positions' 4" rings, the clock hours of the fighters' entry, and 1:1 gauges.

The faces here read a game's ``view`` and the rule set's data, never a game's state.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from reportlab.lib.pagesizes import landscape, letter
from reportlab.platypus import PageBreak, SimpleDocTemplate
from reportlab.platypus.flowables import Flowable

from grognard.core.errors import OptionError
from grognard.core.files import write_output
from grognard.core.ruleset import Ruleset

PAGE = landscape(letter)  # points: 792 by 612
MARGIN = 36.0  # points (half an inch)


def setup_pages(ruleset: Ruleset, options: Mapping[str, Any], seed: int) -> list[Flowable]:
    """The rule set's own setup pages (none for a rule set without one)."""
    from grognard.sheets import b17, omaha

    makers: dict[str, Callable[[Ruleset, Mapping[str, Any], int], list[Flowable]]] = {
        "omaha": omaha.pages,
        "b17": b17.pages,
    }
    maker = makers.get(ruleset.name)
    return [] if maker is None else maker(ruleset, options, seed)


def check_output(path: Path, force: bool) -> None:
    """Refuse an output path that is not a new ``.pdf`` file in a writable folder (raises :class:`OptionError`)."""
    if path.suffix.lower() != ".pdf":
        raise OptionError(f"-o {path}: a sheet is a PDF; name the file FILE.pdf")
    if path.is_dir():
        raise OptionError(f"-o {path}: is a folder; name a file, e.g. {path / 'sheet.pdf'}")
    from grognard.cli_common import check_output as check_file  # the rule of every output: --force to replace

    check_file(path, force, "-o")


def write_sheet(ruleset: Ruleset, path: Path, given: Mapping[str, Any], seed: int, force: bool = False) -> int:
    """Write the sheet of ``ruleset`` with options ``given`` (text or values) and ``seed`` to ``path``.

    Returns the number of pages. Raises :class:`OptionError` (bad option, bad path) before writing anything.
    """
    from grognard.sheets.card import card

    check_output(path, force)
    options = ruleset.resolve(given)
    story: list[Flowable] = list(card(ruleset, options, seed))
    extra = setup_pages(ruleset, options, seed)
    if extra:
        story += [PageBreak(), *extra]
    pages = [0]

    def count(canvas: Any, doc: Any) -> None:
        pages[0] = canvas.getPageNumber()
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawRightString(PAGE[0] - MARGIN, MARGIN / 2, f"grognard sheet {ruleset.name} - page {pages[0]}")
        canvas.restoreState()

    buffer = io.BytesIO()  # built in memory, written whole at the end: a failure leaves the file there before
    doc = SimpleDocTemplate(
        buffer,
        pagesize=PAGE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=f"{ruleset.title}: grognard sheet",
        author="grognard",
    )
    doc.build(story, onFirstPage=count, onLaterPages=count)
    try:
        write_output(path, buffer.getvalue())
    except OSError as exc:
        raise OptionError(f"-o {path}: cannot write it ({exc.strerror or exc})") from None
    return pages[0]
