"""The bots' reasons in the browser (issue 31, item 2), end to end in Chromium.

A host starts an Omaha game, its seats bots but American 1's (so that each turn waits for him); on the
projector's page a bot's line in the feed opens
its reason under "why?" (the rule it followed, the candidates it weighed), and a tap on that bunker on
the table shows the reason of its latest order beside the pointer. A screenshot of each is saved.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium, wait_said
from grognard.web.testing import ServerProcess

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("why")) as srv:
        yield srv


def test_a_bot_s_line_and_its_bunker_tell_why(browser: Any, server: ServerProcess, shots: Path) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    context.set_default_timeout(30000)
    try:
        host = context.new_page()
        host.goto(server.url + "/")
        host.fill("#opt-omaha-germans", "1")
        host.click("#create-form button[type=submit]")
        host.wait_for_url("**/host/*")
        code = host.url.rsplit("/", 1)[1]
        host.wait_for_selector("#seat-rows tr")
        # one person plays American 1, so that the game waits for him each turn and the feed holds still
        ann = context.new_page()
        ann.goto(server.url + "/")
        ann.fill("#join-code", code.lower())
        ann.fill("#join-name", "Ann")
        ann.press("#join-name", "Enter")
        ann.wait_for_url(f"**/play/{code}")
        host.wait_for_function("document.querySelectorAll('#player-rows tr').length === 1")
        host.click("#start")
        ann.wait_for_selector(".decision")
        ann.fill("#d0typed", "hold A1")
        ann.locator("form.order-form").last.locator("button[type=submit]").click()
        wait_said(ann, "Done")
        projector = context.new_page()
        projector.goto(f"{server.url}/projector/{code}")
        projector.wait_for_selector("#svg svg")
        # a bunker's fire: its line in the feed carries its reason, folded under "why?" (turn 2 waits for Ann)
        projector.wait_for_function(
            "() => [...document.querySelectorAll('#events li')].some((li) => /bunker B\\d+ fires/.test(li.textContent)"
            " && li.querySelector('details.why'))"
        )
        line = projector.locator("#events li", has_text=re.compile(r"bunker B\d+ fires"))
        line = line.filter(has=projector.locator("details.why")).first
        bunker = re.search(r"bunker (B\d+) fires", line.inner_text()).group(1)  # type: ignore[union-attr]
        line.locator("details.why > summary").click()
        words = line.locator(".why-words")
        words.wait_for()
        said = words.inner_text()
        assert "rule: omaha.doctrine.concentrate" in said, said
        assert "furthest up the beach" in said and "(chosen)" in said, said
        line.scroll_into_view_if_needed()
        projector.screenshot(path=str(shots / "why-feed-1366.png"))
        # a tap on that bunker on the table: the reason of its latest order, beside the pointer
        projector.locator(f'#svg [data-id="{bunker}"]').first.click()
        projector.wait_for_function(
            "() => [...document.querySelectorAll('.why-words')].some((e) => !e.closest('#events'))"
        )
        told = projector.evaluate(
            "() => [...document.querySelectorAll('.why-words')]"
            ".find((e) => !e.closest('#events')).parentElement.innerText"
        )
        assert f"why {bunker} did this" in told and f"fire {bunker} " in told, told
        assert "rule: omaha.doctrine.concentrate" in told, told
        projector.screenshot(path=str(shots / "why-tap-1366.png"))
        projector.set_viewport_size({"width": 1920, "height": 1080})
        projector.screenshot(path=str(shots / "why-tap-1920.png"))
    finally:
        context.close()
