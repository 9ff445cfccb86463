"""Browser tests' shared setup: Debian's Chromium driven by Playwright with ``executable_path``.

Playwright's own browser download fails on the machines this runs on, and a fresh CI machine has
only Debian's ``chromium`` (``.ci/run`` installs it), so every browser test launches that one. The
``browser`` and ``shots`` fixtures (``conftest.py``) are built from what is here.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("GROGNARD_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} (.ci/run installs it)"
)


def wait_said(page: object, start: str, timeout: float | None = None) -> None:
    """Wait until the page's message line has said of the last order given something starting ``start``
    ("Done: ...", "Refused: ..."). The line is read from the page's own log of it (``grognardSaid``): the line
    itself is cleared at once when the order's question is asked again (the next turn), and a slow machine
    may draw that before a poll sees the answer."""
    page.wait_for_function(  # type: ignore[attr-defined]
        "(s) => window.grognardSaid().lines.some((t) => t.startsWith(s))", arg=start, timeout=timeout
    )
