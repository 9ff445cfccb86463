"""The classroom's pages in Chromium (issue 28, items 12, 13, 15), at a Chromebook's 1366x768.

The German's bunker-fire menu is in sight without scrolling (the squad list came first); a referee typing the
setup's dice sees the table and why Start waits; the host's "Done." does not linger; the B-17 placement's
instructions are one sentence in one paragraph; the replay viewer says who ended a game; the host deletes a
game under way after a confirmation; and no page loads anything from another origin.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from browsers import in_sight, needs_chromium
from grognard.web.testing import ServerProcess, call
from test_web_skirmish_melee import Page

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")

SIZES = ((1366, 768), (1920, 1080))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("classroom")) as srv:
        yield srv


def new_page(browser: Any, width: int = 1366, height: int = 768) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    context.set_default_timeout(30000)
    return context.new_page()


def as_player(browser: Any, server: ServerProcess, code: str, token: str) -> Any:
    page = new_page(browser)
    page.context.add_init_script(f"localStorage.setItem('grognard:player:{code}', '{token}')")
    page.goto(f"{server.url}/play/{code}")
    return page


def shoot(page: Any, shots: Path, name: str) -> None:
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(shots / f"{name}-{width}x{height}.png"))
    page.set_viewport_size({"width": 1366, "height": 768})


def test_the_germans_bunker_fire_menu_is_in_sight_without_scrolling(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    """A German pupil in a class's room (the Americans the bots'): the bunker's menu and its Commit button are in
    sight at 1366x768; the list of squads it may fire at comes after it (it came first, pushing the menu down)."""
    status, made = call(server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 1}})
    assert status == 200, made
    code = made["code"]
    status, gerda = call(server.url + f"/api/rooms/{code}/join", {"name": "Gerda", "side": "german"})
    assert status == 200, gerda
    host = Page(server, code, "host", made["host_token"])
    page = as_player(browser, server, code, gerda["token"])
    try:
        host.wait(lambda s: "host" in s)
        host.send({"type": "start"})
        page.wait_for_selector(".decision")
        page.locator(".decision:not([hidden]) fieldset button[type=button]").first.click()  # the bunkers placed
        page.wait_for_function("(window.grognardState().decisions || []).some((d) => d.id.startsWith('fire'))")
        page.wait_for_selector(".decision:not([hidden]) .choice")
        page.evaluate("window.scrollTo(0, 0)")
        menu = in_sight(page, ".decision:not([hidden]) fieldset")  # the whole menu, its Commit button too
        in_sight(page, ".decision:not([hidden]) fieldset > button")
        squads = page.locator(".decision:not([hidden]) p.situation", has_text="squads (furthest up the beach first)")
        box = squads.bounding_box()
        assert box is not None and box["y"] > menu["y"] + menu["height"], (box, menu)
        shoot(page, shots, "german-fire")
    finally:
        host.close()
        page.context.close()


def test_a_referee_typing_the_setups_dice_sees_the_table_and_why_start_waits(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    page = new_page(browser)
    try:
        page.goto(server.url + "/")
        page.check("#dice-manual")
        page.click("#create-form button[type=submit]")
        page.wait_for_url("**/host/*")
        page.wait_for_selector("#dice-panel:not([hidden])")
        # the table's ground is drawn while the setup is typed (it was an empty column)
        page.wait_for_selector("#svg svg.table .layer-terrain > *", state="attached")
        in_sight(page, "#svg svg.table")
        assert page.is_disabled("#start")
        why = in_sight(page, "#start-why")  # the reason beside the greyed-out Start
        start = in_sight(page, "#start")
        assert abs((why["y"] + why["height"] / 2) - (start["y"] + start["height"] / 2)) < start["height"], (why, start)
        assert page.inner_text("#start-why").startswith("Start waits for the setup's dice")
        assert page.get_attribute("#start", "aria-describedby") == "start-why"
        shoot(page, shots, "referee-setup")
        for _ in range(200):  # every roll of the setup typed: Start can be pressed, and no reason is given
            if not page.is_disabled("#start"):
                break
            if page.is_visible("#dice-panel"):
                asked = page.inner_text("#dice-purpose")
                page.fill("#dice-values", "3")
                page.click("#dice-form button[type=submit]")
                page.wait_for_function(
                    "(t) => document.getElementById('dice-purpose').textContent !== t"
                    " || document.getElementById('dice-panel').hidden",
                    arg=asked,
                )
            else:
                page.wait_for_timeout(100)
        assert not page.is_disabled("#start")
        assert page.inner_text("#start-why") == ""
    finally:
        page.context.close()


def test_the_hosts_done_does_not_linger(browser: Any, server: ServerProcess, shots: Path) -> None:
    """A host command's answer is said in words ("Settings saved.") and then goes: a lone "Done." stayed on the
    host page for the rest of the game."""
    page = new_page(browser)
    try:
        page.goto(server.url + "/")
        page.click("#create-form button[type=submit]")
        page.wait_for_url("**/host/*")
        page.wait_for_selector("#seat-rows tr")
        page.click("#settings button[type=submit]")
        page.wait_for_function("document.getElementById('message').textContent === 'Settings saved.'")
        shoot(page, shots, "host-settings")
        page.wait_for_function("document.getElementById('message').textContent === ''")  # 5 s, then it goes
        page.click("#start")
        page.wait_for_function("document.getElementById('message').textContent === 'Started.'")
        page.wait_for_function("document.getElementById('message').textContent === ''")
    finally:
        page.context.close()


def test_the_b17_placement_instructions_are_one_sentence_in_one_paragraph(browser: Any, server: ServerProcess) -> None:
    status, made = call(server.url + "/api/rooms", {"ruleset": "b17", "solo": {"name": "Al", "side": "american"}})
    assert status == 200, made
    page = as_player(browser, server, made["code"], made["token"])
    try:
        page.wait_for_selector(".decision:not([hidden]) p.situation")
        lines = page.locator(".decision:not([hidden]) p.situation").all_inner_texts()
        sentence = [line for line in lines if "give four centres" in line]
        assert len(sentence) == 1 and sentence[0].rstrip().endswith('6" from the flanks'), lines
        assert not any(line.startswith("last bomber") for line in lines), lines  # the break came there
        in_sight(page, ".decision:not([hidden]) p.situation")
    finally:
        page.context.close()


def test_the_host_deletes_a_game_under_way_after_a_confirmation(browser: Any, server: ServerProcess) -> None:
    page = new_page(browser)
    try:
        page.goto(server.url + "/")
        page.click("#create-form button[type=submit]")
        page.wait_for_url("**/host/*")
        code = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#seat-rows tr")
        assert call(f"{server.url}/api/rooms/{code}/join", {"name": "Ann", "side": "american"})[0] == 200
        page.click("#start")  # the bots play the other seats; the game waits for Ann's orders
        page.wait_for_function("window.grognardState().seats.some((x) => x.owes && x.player === 'Ann')")
        assert not page.is_disabled("#delete")
        asked: list[str] = []
        answers = ["dismiss", "accept"]
        page.on("dialog", lambda d: (asked.append(d.message), getattr(d, answers.pop(0))()))
        page.click("#delete")
        page.wait_for_function("true")
        assert asked and "It is not over" in asked[0], asked
        assert call(f"{server.url}/host/{code}")[0] == 200  # dismissed: nothing deleted
        page.click("#delete")
        page.wait_for_url(server.url + "/")
        assert call(f"{server.url}/host/{code}")[0] == 404
    finally:
        page.context.close()


def test_the_replay_viewer_says_the_host_ended_the_game(browser: Any, server: ServerProcess) -> None:
    status, made = call(server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 1}})
    assert status == 200, made
    host = Page(server, made["code"], "host", made["host_token"])
    try:
        host.wait(lambda s: "host" in s)
        host.send({"type": "start"})
        host.wait(lambda s: s["host"]["steps"] >= 3, timeout=60)
        host.send({"type": "end"})
        ended = host.wait(lambda s: s["status"] == "ended")
    finally:
        host.close()
    page = new_page(browser)
    try:
        page.goto(f"{server.url}/replay/{made['code']}")
        page.wait_for_function("window.grognardReplay")
        page.click("#last")
        page.wait_for_selector("#end:not([hidden])")
        said = page.inner_text("#result")
        assert said.startswith(f"Ended by the host on turn {ended['turn']} ("), said
        assert "not over" not in page.inner_text("main")
        assert page.inner_text("#order") == "the host: ends the game"
    finally:
        page.context.close()


def test_no_page_loads_anything_from_another_origin(browser: Any, server: ServerProcess, tmp_path: Path) -> None:
    """Every request Chromium makes (documents, scripts, styles, pictures, fonts, fetches, WebSockets) on the
    home page, the host's, a pupil's (joining), the projector's, a room's replay, an uploaded record's replay
    and a solo game's goes to this server."""
    own = urlsplit(server.url).netloc
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    context.set_default_timeout(30000)
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url))

    def watched() -> Any:
        page = context.new_page()
        page.on("websocket", lambda ws: asked.append(ws.url))
        return page

    try:
        host = watched()
        host.goto(server.url + "/")  # home
        host.wait_for_selector("#create-form")
        host.click("#create-form button[type=submit]")  # host
        host.wait_for_url("**/host/*")
        host.wait_for_selector("#seat-rows tr")
        code = host.url.rsplit("/", 1)[1]
        projector = watched()
        projector.goto(server.url + host.get_attribute("#projector-link", "href"))  # projector
        projector.wait_for_selector("#svg svg.table")
        pupil = watched()
        pupil.goto(f"{server.url}/play/{code}")  # join, then play
        pupil.fill("#pname", "Ann")
        pupil.click("#player-join button[type=submit]")
        pupil.wait_for_function("document.getElementById('you').textContent.includes('Ann')")
        host.click("#start")
        pupil.wait_for_selector(".decision", timeout=60000)
        replay = watched()
        replay.goto(f"{server.url}/replay/{code}")  # a room's replay
        replay.wait_for_function("window.grognardReplay")
        record = tmp_path / "game.jsonl"
        status, made = call(server.url + "/api/rooms", {"ruleset": "b17", "solo": {"name": "Bo", "side": "american"}})
        assert status == 200
        lines = [json.loads(t) for t in _record_of(server, made)]
        record.write_text("".join(json.dumps(line) + "\n" for line in lines))
        upload = watched()
        upload.goto(server.url + "/")  # an uploaded record's replay
        upload.set_input_files("#replay-file", str(record))
        upload.click("#replay-form button[type=submit]")
        upload.wait_for_url("**/replays/*")
        upload.wait_for_function("window.grognardReplay")
        solo = watched()
        solo.goto(server.url + "/")  # solo
        solo.fill("#solo-name", "Cy")
        solo.click("#solo-start")
        solo.wait_for_url("**/play/*")
        solo.wait_for_selector(".decision", timeout=60000)
        time.sleep(1.0)
    finally:
        context.close()
    kinds = {urlsplit(url).path.split("/")[1] for url in asked}
    assert {"", "host", "projector", "play", "replay", "replays", "static", "api", "ws", "qr"} <= kinds, kinds
    foreign = [url for url in asked if not url.startswith(("data:", "blob:")) and urlsplit(url).netloc != own]
    assert not foreign, foreign


def _record_of(server: ServerProcess, made: dict[str, Any]) -> list[str]:
    """A solo game's record so far: ended by its host, then downloaded (the host's token is the maker's)."""
    host = Page(server, made["code"], "host", made["host_token"])
    try:
        host.wait(lambda s: "host" in s)
        host.send({"type": "end"})
        host.wait(lambda s: s["status"] == "ended")
    finally:
        host.close()
    status, text = call(server.url + f"/api/rooms/{made['code']}/record", headers={"X-Host-Token": made["host_token"]})
    assert status == 200, text
    return [line for line in text.splitlines() if line.strip()]


def _play_as(page: Page, name: str, stop: Any) -> int:
    """The player answers every decision owed him with its first choice until ``stop(state)``: his orders."""
    given = 0
    while True:
        state = page.wait(lambda s: stop(s) or bool(s.get("decisions")), timeout=60)
        if stop(state):
            return given
        decision = state["decisions"][0]
        given += 1
        page.send({"type": "act", "action": decision["choices"][0]["text"], "n": given})
        page.wait(lambda s, d=decision: (s.get("decisions") or [None])[0] != d or stop(s), timeout=60)


def _reports(server: ServerProcess, code: str, token: str) -> tuple[dict[str, bytes], str]:
    import io
    import urllib.request
    import zipfile

    asked = urllib.request.Request(f"{server.url}/api/rooms/{code}/reports", headers={"X-Host-Token": token})
    with urllib.request.urlopen(asked, timeout=60) as answer:
        coach = answer.headers["X-Coach"]
        data = answer.read()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}, coach


def _pdf_text(data: bytes) -> tuple[int, str]:
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), " ".join((page.extract_text() or "") for page in reader.pages)


def test_a_pupils_after_action_report_and_coach_are_his_own_orders(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    """Gerda plays the Germans of a small beach against the bots to the end; the host's zip holds her one-page
    report (her story, her orders' odds and dice, the playtest line) and the class CSV (her orders counted),
    without the coach at first and with it once it is ready; her debrief shows the coach's key decisions."""
    import csv

    status, made = call(server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 1, "fresh_squads": 0}})
    assert status == 200, made
    code = made["code"]
    gerda = call(f"{server.url}/api/rooms/{code}/join", {"name": "Gerda", "side": "german"})[1]
    host = Page(server, code, "host", made["host_token"])
    player = Page(server, code, "player", gerda["token"])
    try:
        host.wait(lambda s: "host" in s and s["ready"])
        host.send({"type": "start"})
        orders = _play_as(player, "Gerda", lambda s: s["status"] == "over")
    finally:
        host.close()
        player.close()
    files, coach = _reports(server, code, made["host_token"])
    assert sorted(files) == ["01-Gerda.pdf", "class.csv"]
    pages, text = _pdf_text(files["01-Gerda.pdf"])
    assert pages == 1
    for said in ("After-action report: Gerda", "German 1", "Your unit's story", "The odds you faced", "playtest"):
        assert said in text, (said, text)
    rows = list(csv.reader(files["class.csv"].decode().splitlines()))
    assert rows[0][:6] == ["name", "side", "seats", "orders", "losses inflicted", "losses taken"]
    assert rows[1][:4] == ["Gerda", "german", "German 1", str(orders)]
    deadline = time.monotonic() + 120
    asked = f"{server.url}/api/rooms/{code}/coach"
    while (answer := call(asked, headers={"X-Token": gerda["token"]}))[1]["ready"] is False:
        assert time.monotonic() < deadline, answer
        assert answer[1]["total"] == orders
        time.sleep(0.5)
    mine = answer[1]["players"]
    assert [(p["name"], p["decisions"]) for p in mine] == [("Gerda", orders)] and len(mine[0]["key"]) <= 3
    assert call(asked)[1]["players"] == []  # anyone with the room code: how far the coach got, no one's view
    assert [p["name"] for p in call(asked, headers={"X-Token": made["host_token"]})[1]["players"]] == ["Gerda"]
    files, coach = _reports(server, code, made["host_token"])
    assert coach == "ready" and "played both out" in _pdf_text(files["01-Gerda.pdf"])[1]
    page = as_player(browser, server, code, gerda["token"])
    try:
        page.wait_for_selector("#coach-body p")
        page.wait_for_function(
            "!document.getElementById('coach-body').textContent.includes('of')"
            " || document.getElementById('coach-body').textContent.includes('decisions,')"
        )
        said = page.inner_text("#coach-body")
        assert said.startswith(f"You: {orders} decisions,"), said
        page.locator("#coach").scroll_into_view_if_needed()
        shoot(page, shots, "debrief-coach")
    finally:
        page.context.close()


def test_the_host_downloads_the_reports_from_the_host_page(browser: Any, server: ServerProcess, shots: Path) -> None:
    """A game the host ended after Ann's first order: the host page offers the reports, and they download as a
    zip with Ann's page and the class CSV, saying the coach is still at work or done."""
    status, made = call(server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 1}})
    assert status == 200, made
    code = made["code"]
    ann = call(f"{server.url}/api/rooms/{code}/join", {"name": "Ann", "side": "american"})[1]
    host = Page(server, code, "host", made["host_token"])
    player = Page(server, code, "player", ann["token"])
    try:
        host.wait(lambda s: "host" in s and s["ready"])
        host.send({"type": "start"})
        _play_as(player, "Ann", lambda s: s["step"] >= 5)
        host.send({"type": "end"})
        host.wait(lambda s: s["status"] == "ended")
    finally:
        host.close()
        player.close()
    page = new_page(browser)
    try:
        page.goto(f"{server.url}{made['host_url']}")
        page.wait_for_selector("#reports:not([hidden])")
        with page.expect_download() as download:
            page.click("#reports")
        saved = download.value.path()
        page.wait_for_function("document.getElementById('reports-note').textContent.startsWith('Downloaded')")
        page.locator("#reports").scroll_into_view_if_needed()
        shoot(page, shots, "host-reports")
        import zipfile

        with zipfile.ZipFile(saved) as archive:
            assert sorted(archive.namelist()) == ["01-Ann.pdf", "class.csv"]
            assert _pdf_text(archive.read("01-Ann.pdf"))[0] == 1
        assert download.value.suggested_filename == f"grognard-{code}-reports.zip"
    finally:
        page.context.close()
