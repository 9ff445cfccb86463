"""The real page (app.js in headless Chromium) merges the server's partial state messages over a real game.

A projector page and a host page follow a bots' game to its end, sent only what changed;
then a fresh connection of the same role is sent the whole state, and each page holds
exactly that state. A page handed a patch for another state asks for the whole state.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from browsers import needs_chromium
from grognard.web.patch import merge
from grognard.web.testing import ServerProcess, call

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("patch-browser")) as srv:
        yield srv


def open_page(browser: Any, url: str) -> Any:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    context.set_default_timeout(20000)
    page = context.new_page()
    page.goto(url)
    return page


def play_seat(server: ServerProcess, code: str, token: str, stop: threading.Event) -> None:
    """A player of the real protocol (merging patches) who gives the first order of each menu, after a pause."""
    with connect(f"{server.ws_url}/ws/{code}", max_size=2**22) as ws:
        ws.send(json.dumps({"type": "hello", "role": "player", "token": token}))
        state: dict[str, Any] | None = None
        answered: set[tuple[int, str]] = set()
        n = 0
        while not stop.is_set():
            try:
                m = json.loads(ws.recv(timeout=0.2))
            except TimeoutError:
                continue
            if m["type"] == "patch":
                assert state is not None
                m = merge(state, m)
            if m["type"] != "state":
                continue
            state = m
            for d in state.get("decisions", []):
                if (state["step"], d["id"]) not in answered:
                    answered.add((state["step"], d["id"]))
                    time.sleep(0.3)  # a person's moment: the pages are sent the state meanwhile
                    n += 1
                    ws.send(json.dumps({"type": "act", "action": d["choices"][0]["text"], "n": n}))


def held(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("window.grognardState()"))


def _at_one_version(page: Any, server: ServerProcess, code: str, role: str, secret: str | None) -> tuple[Any, Any]:
    """The open ``page``'s state and the whole state a fresh page of ``role`` is sent, at one version. The fresh
    page's coming is a change (the version): the open page is patched up to it. A page's going is one too, and
    the server may see the player who stopped, or the last fresh page, go just after it sent this one its
    state: when the open page is read at a later version, a fresh page is sent the state again."""
    for _ in range(10):
        with connect(f"{server.ws_url}/ws/{code}", max_size=2**22) as fresh:
            fresh.send(json.dumps({"type": "hello", "role": role, "token": secret}))
            whole = json.loads(fresh.recv(timeout=20))
            while whole["type"] != "state":
                whole = json.loads(fresh.recv(timeout=20))
            page.wait_for_function(f"window.grognardState().version >= {whole['version']}")
            mine = held(page)
            if mine["version"] == whole["version"]:
                return mine, whole
    raise AssertionError(f"the {role}'s page was never read at the version a fresh page was sent")


def test_the_page_merges_patches_into_the_servers_state(browser: Any, server: ServerProcess) -> None:
    status, made = call(server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 1, "period_turns": 4}})
    assert status == 200, made
    code, token = made["code"], made["host_token"]
    status, ann = call(server.url + f"/api/rooms/{code}/join", {"name": "Ann", "side": "american"})
    assert status == 200, ann
    host = open_page(browser, f"{server.url}/host/{code}#{token}")
    projector = open_page(browser, f"{server.url}/projector/{code}")
    patches: list[int] = []
    projector.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda f: patches.append(1) if '"patch"' in str(f)[:40] else None),
    )
    projector.reload()
    projector.wait_for_selector("#svg svg")
    host.wait_for_function("window.grognardState() && window.grognardState().ready")
    stop = threading.Event()
    player = threading.Thread(target=play_seat, args=(server, code, ann["token"], stop), daemon=True)
    player.start()
    host.click("#start")  # Ann plays American 1 from her own page; bots every other seat
    try:
        for page in (host, projector):
            page.wait_for_function("window.grognardState().status === 'over'", timeout=120000)
    finally:
        stop.set()
        player.join(10)
    assert len(patches) >= 3  # the game reached the projector as patches
    for page, role, secret in ((projector, "projector", None), (host, "host", token)):
        mine, whole = _at_one_version(page, server, code, role, secret)
        assert mine == whole
    # the table drawn is the state's scene: every unit and mark it names, and only those
    named = [s["id"] for layer in held(projector)["scene"]["layers"] for s in layer["shapes"] if s.get("id")]
    drawn = projector.locator("#svg [data-id]").evaluate_all("gs => gs.map((g) => g.dataset.id)")
    assert sorted(drawn) == sorted(named) and named


def test_a_patch_for_another_state_makes_the_page_ask_for_the_whole_state(browser: Any, server: ServerProcess) -> None:
    status, made = call(server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 1}})
    assert status == 200, made
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    context.set_default_timeout(20000)
    projector = context.new_page()
    routes: list[Any] = []
    from_page: list[str] = []

    def route(ws: Any) -> None:  # between the page and the real server, every message passed on
        upstream = ws.connect_to_server()
        ws.on_message(lambda m: (from_page.append(m), upstream.send(m)))
        upstream.on_message(lambda m: ws.send(m))
        routes.append(ws)

    projector.route_web_socket("**/ws/*", route)
    projector.goto(f"{server.url}/projector/{made['code']}")
    projector.wait_for_selector("#svg svg")
    # (a class's room shows who is winning from turn 3 on: no estimate comes to change the version meanwhile)
    projector.wait_for_function("window.grognardState() && window.grognardState().ready")
    before = held(projector)
    stale = {"type": "patch", "base": before["version"] - 1, "set": {"version": before["version"] + 5, "turn": 99}}
    with pytest.raises(ValueError):
        merge(before, stale)  # the reference merge refuses it too
    routes[0].send(json.dumps(stale))  # as if from the server
    deadline = 100
    while not any(json.loads(m).get("type") == "resync" for m in from_page) and deadline:
        projector.wait_for_timeout(100)
        deadline -= 1
    assert [json.loads(m)["type"] for m in from_page].count("resync") == 1
    # the page kept its state, then took the whole state sent again
    projector.wait_for_function(f"window.grognardState().version === {before['version']}")
    assert held(projector)["turn"] == before["turn"] != 99
    context.close()
