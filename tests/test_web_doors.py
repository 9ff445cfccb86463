"""Nobody locked out by one pupil's script (issue 28, item 10): sockets that never say hello.

A class shares one address behind its school's router. A script there holding WebSockets that never
say hello (opening them again as the server closes them) once locked every new page of that address
out, the host's included. Now a page shows its token at the handshake (``web/doors.py``): the host,
every seated pupil and the projector link get in whatever the others' idle sockets; idle sockets with
no token are bounded per room and per address, refused past that with 429 and ``Retry-After``, and
closed after a few seconds. Against the real server process, with real WebSockets (and a real
Chromium for the pages themselves).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.protocol import State
from websockets.sync.client import connect

import loops
from browsers import needs_chromium
from grognard.web import doors
from grognard.web.testing import ServerProcess, call, join, receive


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path) as srv:
        yield srv


def make_room(srv: ServerProcess, germans: int = 2) -> dict[str, Any]:
    status, made = call(srv.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": germans}})
    assert status == 200, made
    return dict(made)


def page(srv: ServerProcess, code: str, role: str, token: str) -> Any:
    """A page as ``connection.js`` opens it: its token at the handshake, then its hello."""
    ws = connect(
        f"{srv.ws_url}/ws/{code}", subprotocols=["grognard", f"grognard.t.{token}"], open_timeout=20
    ).__enter__()
    assert ws.subprotocol == "grognard"
    ws.send(json.dumps({"type": "hello", "role": role, "token": token}))
    return ws


def first_state(ws: Any, timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        message = receive(ws, timeout=max(0.1, deadline - time.monotonic()))
        if message["type"] == "state":
            return dict(message)


def closed_reason(ws: Any, timeout: float = 30.0) -> str:
    try:
        while True:
            ws.recv(timeout=timeout)
    except ConnectionClosed as closed:
        return str(closed.rcvd.reason if closed.rcvd else "")


class Flood(threading.Thread):
    """One pupil's script: WebSockets to the room that never say hello, opened again as the server closes
    them, up to ``most`` at once, from the class's own address (loopback, as every page of the test)."""

    def __init__(self, url: str, most: int = 80, subprotocols: list[str] | None = None) -> None:
        super().__init__(daemon=True)
        self.url, self.most, self.subprotocols = url, most, subprotocols
        self.held: list[Any] = []
        self.opened = 0
        self.refused: list[tuple[int, str | None]] = []  # (HTTP status, Retry-After)
        self.closed_by_server: list[str] = []  # the reasons of those the server closed
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            for ws in [ws for ws in self.held if ws.state is not State.OPEN]:
                self.held.remove(ws)
                self.closed_by_server.append(closed_reason(ws, timeout=1))
            if len(self.held) >= self.most:
                time.sleep(0.05)
                continue
            try:
                self.held.append(connect(self.url, open_timeout=20, subprotocols=self.subprotocols).__enter__())
                self.opened += 1
            except InvalidStatus as refused:
                self.refused.append((refused.response.status_code, refused.response.headers.get("Retry-After")))
                time.sleep(0.05)

    def stop(self) -> None:
        self.stopping.set()
        self.join(30)
        for ws in self.held:
            ws.close()


def test_a_flood_of_silent_sockets_locks_out_neither_the_host_nor_any_pupil(server: ServerProcess) -> None:
    """A script holds as many sockets as it can that never say hello (once 64, which locked the host out
    with 403): the host, all eight seated pupils and the projector link still get in while it runs; the
    script's sockets are refused past the room's bound (429, Retry-After) and closed for want of a hello."""
    made = make_room(server)
    code = made["code"]
    pupils = [join(server.url, code, f"Pupil {k}") for k in range(8)]
    assert all(p["seats"] for p in pupils)
    flood = Flood(f"{server.ws_url}/ws/{code}")
    flood.start()
    try:
        deadline = time.monotonic() + 60
        while not flood.refused and time.monotonic() < deadline:
            time.sleep(0.05)
        assert flood.refused, "the script's sockets were never refused"
        host = page(server, code, "host", made["host_token"])
        state = first_state(host)
        assert len(state["seats"]) == 8 and len(state["host"]["players"]) == 8
        seated = [page(server, code, "player", p["token"]) for p in pupils]
        for ws, p in zip(seated, pupils, strict=True):
            assert first_state(ws)["you"]["seats"] == p["seats"]
        projector = page(server, code, "projector", state["host"]["projector_url"].split("#", 1)[1])
        assert first_state(projector)["code"] == code
        # still refused past the bound, and the idle ones closed for want of a hello
        while not flood.closed_by_server and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        flood.stop()
    assert flood.closed_by_server and all("hello" in reason for reason in flood.closed_by_server)
    assert all(status == 429 and retry is not None and int(retry) >= 1 for status, retry in flood.refused)
    # the pages let in were never closed for the flood: each answers a ping
    for ws in [host, *seated, projector]:
        ws.send(json.dumps({"type": "ping"}))
        while receive(ws)["type"] != "pong":
            pass
        ws.close()


def test_a_pupils_own_token_on_silent_sockets_crowds_out_only_his_own(server: ServerProcess) -> None:
    """A script showing a pupil's own token at the handshake and never saying hello: at most four such
    sockets wait at once (a fifth closes the oldest), and the pupil's page, opened last, gets in."""
    made = make_room(server, germans=1)
    ann = join(server.url, made["code"], "Ann")
    url = f"{server.ws_url}/ws/{made['code']}"
    silent = [connect(url, subprotocols=["grognard", f"grognard.t.{ann['token']}"]).__enter__() for _ in range(6)]
    assert [closed_reason(ws) for ws in silent[:2]] == ["opened on another page"] * 2
    mine = page(server, made["code"], "player", ann["token"])
    assert first_state(mine)["you"]["name"] == "Ann"
    # the oldest silent ones gave their places to the page; every silent one is closed in the end
    assert all(closed_reason(ws) in ("opened on another page", "the first message must be hello") for ws in silent)
    mine.close()


def test_a_wrong_token_at_the_handshake_is_only_a_socket_without_one(server: ServerProcess) -> None:
    """A token the room does not know, shown at the handshake, vouches for nothing: the hello decides."""
    made = make_room(server, germans=1)
    ws = connect(f"{server.ws_url}/ws/{made['code']}", subprotocols=["grognard", "grognard.t." + "x" * 32]).__enter__()
    ws.send(json.dumps({"type": "hello", "role": "player", "token": "x" * 32}))
    assert "wrong player token" in closed_reason(ws)
    host = page(server, made["code"], "host", made["host_token"])
    assert first_state(host)["code"] == made["code"]
    host.close()


def test_the_doors_bound_sockets_without_a_token_by_room_and_address() -> None:
    """``Doors``: sockets with no token of the room are bounded per room and per address; those of a
    token never count with them, and past ``PER_TOKEN`` of one token the oldest is pushed out."""

    async def check() -> None:
        gate = doors.Doors()
        idle = [gate.enter("ROOMA", "10.0.0.1", None) for _ in range(doors.PER_ROOM)]
        assert all(idle) and gate.enter("ROOMA", "10.0.0.2", None) is None  # the room is full, whoever asks
        # the room's host and pupils are never counted with them, nor refused for them
        host = gate.enter("ROOMA", "10.0.0.1", "host:")
        pupils = [gate.enter("ROOMA", "10.0.0.1", f"player:p{k}") for k in range(30)]
        assert host is not None and all(pupils) and not any(p.pushed_out.is_set() for p in pupils if p)
        # another room takes the address's other sockets, up to the address's bound
        other = [gate.enter("ROOMB", "10.0.0.1", None) for _ in range(doors.PER_ADDRESS - doors.PER_ROOM)]
        assert all(other) and gate.enter("ROOMC", "10.0.0.1", None) is None
        assert gate.enter("ROOMC", "10.0.0.3", None) is not None  # another address is not refused for it
        ticket = idle[0]
        assert ticket is not None
        gate.leave(ticket)  # one goes: one more may come, from anywhere
        assert gate.enter("ROOMA", "10.0.0.2", None) is not None
        # one token's sockets: the fifth pushes out the oldest, which then counts no more
        same = [gate.enter("ROOMA", "10.0.0.9", "player:p7") for _ in range(doors.PER_TOKEN + 1)]
        assert [t.pushed_out.is_set() for t in same if t] == [True] + [False] * doors.PER_TOKEN
        for t in same:
            assert t is not None
            gate.leave(t)
        assert ("ROOMA", "player:p7") not in gate.by_page
        assert doors.ANONYMOUS_WAIT < doors.VOUCHED_WAIT <= 10

    loops.run(check())


@needs_chromium
def test_the_host_page_and_a_pupils_page_open_during_a_flood(browser: Any, server: ServerProcess) -> None:
    """In Chromium: while a script on the class's address holds silent sockets on the room, the host's
    page (reloaded) and a pupil's page (joined, then reloaded) show the game."""
    made = make_room(server, germans=1)
    code = made["code"]
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    context.set_default_timeout(30000)
    pupil = context.new_page()
    pupil.goto(f"{server.url}/play/{code}")
    pupil.fill("#pname", "Ann")
    pupil.click("#player-join button[type=submit]")
    pupil.wait_for_function("document.getElementById('you').textContent.includes('you play')")
    flood = Flood(f"{server.ws_url}/ws/{code}")
    flood.start()
    try:
        deadline = time.monotonic() + 60
        while not flood.refused and time.monotonic() < deadline:
            time.sleep(0.05)
        assert flood.refused
        host = context.new_page()
        host.goto(f"{server.url}/host/{code}#{made['host_token']}")
        host.wait_for_function("document.querySelectorAll('#seat-rows tr').length === 4")
        assert "Ann" in host.locator("#seat-rows").inner_text()
        pupil.reload()
        pupil.wait_for_function("document.getElementById('you').textContent.includes('you play')")
    finally:
        flood.stop()
    context.close()
