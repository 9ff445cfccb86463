"""A player's page keeps every order it could not send (Playwright in Chromium, a real server process).

The server is killed (SIGKILL) under a player's page: the order given meanwhile waits in the page's
outbox (and in localStorage), the page says so, and it is sent when the server is back, or by the
page loaded again; an order whose answer was lost on the way is sent again and applied once.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium
from grognard.web.testing import ServerProcess
from test_web_api import Client, join, make_room

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")
SHOTS = Path("/work/shots/webkeep") if Path("/work/shots").is_dir() else None


def actions_of(srv: ServerProcess, seat: str) -> list[str]:
    with sqlite3.connect(srv.db.removeprefix("sqlite:///")) as db:
        lines = [json.loads(t) for (t,) in db.execute("select text from grognard_lines order by room_id, n")]
    return [line["action"] for line in lines if line.get("type") == "action" and line.get("seat") == seat]


def started_game(srv: ServerProcess) -> tuple[str, dict[str, Any]]:
    """An Omaha game (one German seat, bots) with one American player, started; (code, the join answer)."""
    made = make_room(srv)
    code = made["code"]
    player = join(srv, code, "Ada", "american")
    host = Client(srv, code, "host", made["host_token"])
    host.send({"type": "start"})
    host.until(lambda m: m["type"] == "ack")
    host.close()
    return code, player


def player_page(browser: Any, srv: ServerProcess, code: str, token: str) -> tuple[Any, Any]:
    """A context holding the player's token (as after a join from the home page), and its page on the game."""
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)  # for wait_for_function
    context.set_default_timeout(20000)
    context.add_init_script(f"localStorage.setItem('grognard:player:{code}', {json.dumps(token)})")
    page = context.new_page()
    page.goto(f"{srv.url}/play/{code}")
    page.wait_for_selector("#decisions .decision")
    return context, page


def chosen(page: Any) -> str:
    return str(page.locator("#decisions .decision input[type=radio]:checked").first.get_attribute("value"))


def outbox(page: Any, code: str) -> Any:
    return json.loads(page.evaluate(f"localStorage.getItem('grognard:outbox:{code}') || 'null'"))


def test_an_order_given_while_the_server_is_down_is_sent_when_it_is_back(browser: Any, tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path).start()
    try:
        code, player = started_game(srv)
        context, page = player_page(browser, srv, code, player["token"])
        order = chosen(page)
        srv.kill()
        page.wait_for_function("document.getElementById('turn').textContent.startsWith('Reconnecting')")
        page.get_by_role("button", name="Commit the chosen order").first.click()
        box = page.locator("#outbox")
        assert box.inner_text().startswith(f"1 order waiting to be sent: {order}. Not connected")
        kept = outbox(page, code)
        assert [o["action"] for o in kept["orders"]] == [order] and len(kept["orders"][0]["client"]) == 24
        if SHOTS:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "outbox-waiting-1366.png"))
        assert actions_of(srv, "American 1") == []
        srv.start()
        page.wait_for_function("document.getElementById('outbox').textContent.startsWith('Sent: ')", timeout=40000)
        assert order in box.inner_text()
        if SHOTS:
            page.wait_for_timeout(1000)  # the new state drawn (for the picture only)
            page.screenshot(path=str(SHOTS / "outbox-sent-1366.png"))
        assert actions_of(srv, "American 1") == [order]
        assert outbox(page, code) is None
        context.close()
    finally:
        srv.stop()


def test_a_page_loaded_again_sends_the_order_it_kept(browser: Any, tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path).start()
    try:
        code, player = started_game(srv)
        context, page = player_page(browser, srv, code, player["token"])
        order = chosen(page)
        srv.kill()
        page.wait_for_function("document.getElementById('turn').textContent.startsWith('Reconnecting')")
        page.get_by_role("button", name="Commit the chosen order").first.click()
        page.wait_for_function("document.getElementById('outbox').textContent.startsWith('1 order waiting')")
        page.close()  # the tab is closed while the server is down: only localStorage keeps the order
        srv.start()
        again = context.new_page()
        again.goto(f"{srv.url}/play/{code}")
        again.wait_for_function("document.getElementById('outbox').textContent.startsWith('Sent: ')")
        assert actions_of(srv, "American 1") == [order]
        assert outbox(again, code) is None
        context.close()
    finally:
        srv.stop()


def test_an_order_whose_answer_was_lost_is_applied_once(browser: Any, tmp_path: Path) -> None:
    """The server applies the order but its ack never reaches the page (the connection drops):
    the page sends it again on reconnecting, the server answers with the first ack and applies nothing."""
    srv = ServerProcess(tmp_path).start()
    try:
        code, player = started_game(srv)
        context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)  # for wait_for_function
        context.set_default_timeout(20000)
        context.add_init_script(f"localStorage.setItem('grognard:player:{code}', {json.dumps(player['token'])})")
        page = context.new_page()
        sent: list[dict[str, Any]] = []
        dropped: list[dict[str, Any]] = []

        def route(ws: Any) -> None:
            server = ws.connect_to_server()

            def to_server(message: Any) -> None:
                data = json.loads(message)
                if data.get("type") == "act":
                    sent.append(data)
                server.send(message)

            def to_page(message: Any) -> None:
                data = json.loads(message)
                if data.get("type") == "ack" and data.get("client") and not dropped:
                    dropped.append(data)  # lost on the way: and the connection with it
                    ws.close()
                    server.close()
                    return
                ws.send(message)

            ws.on_message(to_server)
            server.on_message(to_page)

        page.route_web_socket("**/ws/*", route)
        page.goto(f"{srv.url}/play/{code}")
        page.wait_for_selector("#decisions .decision")
        order = chosen(page)
        page.get_by_role("button", name="Commit the chosen order").first.click()
        page.wait_for_function("document.getElementById('outbox').textContent.startsWith('Sent: ')", timeout=40000)
        assert dropped and dropped[0]["action"] == order
        assert [m["client"] for m in sent] == [dropped[0]["client"]] * 2  # sent twice, one id
        assert actions_of(srv, "American 1") == [order]  # applied once
        context.close()
    finally:
        srv.stop()


def test_the_referee_page_shows_the_rolls_kept_through_a_sigkill(browser: Any, tmp_path: Path) -> None:
    """The referee types two of the setup's four rolls, the server is killed and restarted: the page asks
    for the third, saying which rolls of this order are already entered and kept."""
    srv = ServerProcess(tmp_path).start()
    try:
        made = make_room(srv, dice="manual")
        context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
        context.set_default_timeout(20000)
        page = context.new_page()
        page.goto(srv.url + made["host_url"])
        purpose = page.locator("#dice-purpose")
        for value, shown in (("2", "O1"), ("5", "O2")):
            page.wait_for_function(f"document.getElementById('dice-purpose').textContent.includes('{shown}')")
            page.fill("#dice-values", value)
            page.get_by_role("button", name="Enter the roll").click()
            page.wait_for_function(f"document.getElementById('message').textContent === 'Dice entered: {value}'")
        page.wait_for_function("document.getElementById('dice-purpose').textContent.includes('O3')")
        srv.kill()
        page.wait_for_function("document.getElementById('turn').textContent === 'Reconnecting...'")
        srv.start()
        page.wait_for_function(
            "document.getElementById('turn').textContent === \"Waiting for the referee's dice\"", timeout=40000
        )
        kept = "Already entered and kept: obstacles O1: 2; obstacles O2: 5"
        assert page.locator("#dice-kept").inner_text() == kept
        assert purpose.inner_text() == "obstacles O3 (the game's setup)"
        if SHOTS:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "referee-kept-1366.png"))
        context.close()
    finally:
        srv.stop()
