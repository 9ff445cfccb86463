"""Browser tests' shared setup: Debian's Chromium driven by Playwright with ``executable_path``.

Playwright's own browser download fails on the machines this runs on, and a fresh CI machine has
only Debian's ``chromium`` (``.ci/run`` installs it), so every browser test launches that one. The
``browser`` and ``shots`` fixtures (``conftest.py``) are built from what is here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
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
] + [a for a in os.environ.get("X_ARGS", "").split() if a]

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


def referee_types(host: object, value: str = "1", initiative: str | None = None) -> bool:
    """The host page's referee types the roll asked, if one is: ``value`` for each die ("Roll 3": three of
    them), ``initiative`` instead for an initiative roll if given; whether one was asked. The panel is read and
    its form submitted in one step in the page (a click after a separate look found the panel hidden by then on
    a loaded machine, the roll before just taken, and waited its 20 s for it to show again; the host page is
    redrawn with every state, and a Playwright click waits for it to stand still), then the request is waited
    for to change: the next roll, or none."""
    asked = host.evaluate(  # type: ignore[attr-defined]
        """([value, initiative]) => { const p = document.getElementById('dice-panel');
          if (!p || p.hidden || !p.getClientRects().length) return null;
          const k = document.getElementById('dice-kept'), label = document.getElementById('dice-label').textContent;
          const purpose = document.getElementById('dice-purpose').textContent;
          const n = +(/Roll (\\d+)/.exec(label) || [0, 1])[1];
          document.getElementById('dice-values').value =
            initiative !== null && purpose.startsWith('initiative') ? initiative : Array(n).fill(value).join(' ');
          document.getElementById('dice-form').requestSubmit();
          return purpose + '|' + (k ? k.textContent : ''); }""",
        [value, initiative],
    )
    if asked is None:
        return False
    try:
        host.wait_for_function(  # type: ignore[attr-defined]
            """w => { const p = document.getElementById('dice-panel'), k = document.getElementById('dice-kept');
              const now = document.getElementById('dice-purpose').textContent + '|' + (k ? k.textContent : '');
              return p.hidden || !p.getClientRects().length || now !== w; }""",
            arg=asked,
            timeout=5000,
        )
    except Exception:  # the same request again (a re-roll of a tie, a roll refused): typed again at the next call
        pass
    return True


def in_sight(page: object, selector: str) -> dict[str, float]:
    """The box of ``selector``'s first element, asserted wholly inside the page's viewport (in sight without
    scrolling: the page's own scroll is at its top)."""
    # found and measured in one evaluation in the page: a locator's bounding_box finds the element, then measures
    # it in a second call, and an element drawn anew between the two (the line of the chances, at each estimate)
    # read as not shown
    found = page.evaluate(  # type: ignore[attr-defined]
        "(s) => { const e = document.querySelector(s); if (!e) return null; const r = e.getBoundingClientRect();"
        " if ((!r.width && !r.height) || getComputedStyle(e).visibility === 'hidden') return null;"
        " return {x: r.left, y: r.top, width: r.width, height: r.height}; }",
        selector,
    )
    size = page.viewport_size  # type: ignore[attr-defined]
    assert found is not None, f"{selector} is not shown ({page.locator(selector).count()} in the page)"  # type: ignore[attr-defined]
    assert found["x"] >= 0 and found["x"] + found["width"] <= size["width"] + 0.5, (selector, found, size)
    assert found["y"] >= 0 and found["y"] + found["height"] <= size["height"] + 0.5, (selector, found, size)
    return dict(found)


def one_screen(page: object) -> None:
    """The page does not scroll, across or down, at its viewport's size: all of it is laid out in sight."""
    size = page.viewport_size  # type: ignore[attr-defined]
    across, down = page.evaluate(  # type: ignore[attr-defined]
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert across <= size["width"] and down <= size["height"], (across, down, size)


def one_line(page: object, selector: str) -> None:
    """``selector``'s first element is one line high (a long title is cut short, not wrapped)."""
    high, line = page.evaluate(  # type: ignore[attr-defined]
        "(s) => { const e = document.querySelector(s); const c = getComputedStyle(e);"
        " return [e.getBoundingClientRect().height, parseFloat(c.lineHeight) || 1.4 * parseFloat(c.fontSize)]; }",
        selector,
    )
    assert high <= 1.5 * line, (selector, high, line)


CHROMEBOOKS = ((1280, 800), (1366, 768))  # the screens a class has (a projector shows one of them too)


def at_chromebook_sizes(page: object) -> Iterator[tuple[int, int]]:
    """The page laid out at each of ``CHROMEBOOKS`` in turn: yields (width, height) once it is."""
    for width, height in CHROMEBOOKS:
        page.set_viewport_size({"width": width, "height": height})  # type: ignore[attr-defined]
        yield width, height


def font_px(page: object, selector: str) -> float:
    """The font size of ``selector``'s first element, in CSS pixels. Found and measured in one evaluation in the
    page: ``eval_on_selector`` found the element, then measured it, and one drawn anew between the two (the
    figures, at each estimate) measured NaN, detached."""
    return float(
        page.evaluate(  # type: ignore[attr-defined]
            "(s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", selector
        )
    )
