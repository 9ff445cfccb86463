"""The skirmish in a real headless Chromium (Debian's, Playwright ``executable_path``): the host starts a game
from the home page on a scenario of one's own (a bad file lists its problems and makes nothing), then the
skirmish table played through the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium
from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR
from grognard.web.testing import ServerProcess

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")

STREET = (SCENARIOS_DIR / "village_street.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("skirmish-browser")) as srv:
        yield srv


def new_page(browser: Any, width: int = 1366, height: int = 768) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    context.set_default_timeout(20000)
    return context.new_page()


def rooms(server: ServerProcess) -> int:
    from sqlalchemy import create_engine, text

    with create_engine(server.db).connect() as db:
        return int(db.execute(text("select count(*) from grognard_rooms")).scalar_one())


def test_the_host_uploads_a_scenario_from_the_home_page(browser: Any, server: ServerProcess, tmp_path: Path) -> None:
    bad = tmp_path / "bad_street.toml"
    bad.write_text(STREET.replace("width = 48.0", "width = -1.0", 1).replace("[victory]", "[victory]\nbogus = 2", 1))
    good = tmp_path / "our_street.toml"
    good.write_text(STREET.replace('title = "', 'title = "Our street: ', 1))
    page = new_page(browser)
    page.goto(server.url + "/")
    page.select_option("#ruleset", "skirmish")
    before = rooms(server)
    page.set_input_files("#opt-skirmish-scenario-file", str(bad))
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#message.error")
    message = page.inner_text("#message")
    assert message.startswith("bad_street.toml: ") and "table.width" in message and "bogus" in message
    assert len(message.splitlines()) >= 3  # every problem on its own line, as the CLI lists them
    assert page.url.rstrip("/") == server.url and rooms(server) == before
    page.set_input_files("#opt-skirmish-scenario-file", str(good))
    page.fill("#solo-name", "Sol")
    page.select_option("#solo-side", "allies")
    page.click("#solo-start")
    page.wait_for_url("**/play/*")
    page.wait_for_function("document.body.innerText.includes('Our street')")
    assert rooms(server) == before + 1
