"""The classroom hardened, against the real server process: nobody with the room code locks the class out.

Projector pages cannot crowd out the host and the seated players; a request body is limited on
the bytes actually read (a chunked body too); joins from one address are limited but a class
behind one address gets in (its pages told to wait a moment); the host can lock the room and
remove players in bulk; one browser's wrong room codes do not lock out the others on its address;
no OpenAPI schema is served.
"""

from __future__ import annotations

import json
import select
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from grognard.web import doors
from grognard.web.testing import ServerProcess, call, receive


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A fresh server for each test: the rate limits of one test do not reach the next."""
    with ServerProcess(tmp_path) as srv:
        yield srv


def make_room(srv: ServerProcess, germans: int = 1) -> dict[str, Any]:
    status, made = call(srv.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": germans}})
    assert status == 200, made
    return dict(made)


def hello(srv: ServerProcess, code: str, role: str, token: str | None = None) -> Any:
    ws = connect(f"{srv.ws_url}/ws/{code}", open_timeout=20).__enter__()
    ws.send(json.dumps({"type": "hello", "role": role, "token": token}))
    return ws


def first_state(ws: Any, timeout: float = 15.0) -> dict[str, Any]:
    """The first state the page is sent (ConnectionClosed if the server refused it instead)."""
    deadline = time.monotonic() + timeout
    while True:
        message = receive(ws, timeout=max(0.1, deadline - time.monotonic()))
        if message["type"] == "state":
            return dict(message)


def refused_at_hello(ws: Any) -> str:
    """The reason the server gave when it closed this page (AssertionError if it was let in)."""
    try:
        while True:
            message = json.loads(ws.recv(timeout=10))
            assert message["type"] != "state", "the page was let in"
    except ConnectionClosed as closed:
        return str(closed.rcvd.reason if closed.rcvd else "")


def closed_reason(ws: Any, timeout: float = 10.0) -> str:
    """Read on until the server closes this page: the reason it gave."""
    try:
        while True:
            ws.recv(timeout=timeout)
    except ConnectionClosed as closed:
        return str(closed.rcvd.reason if closed.rcvd else "")


def chunked_post(srv: ServerProcess, path: str, total: int, chunk: int = 65536) -> tuple[int, int, bytes]:
    """POST ``total`` bytes with ``Transfer-Encoding: chunked`` and never send the closing chunk: (status, bytes
    sent, answer). A server that waited for the whole body before it answered would never answer (status 0 after
    the socket's 20 s), so an answer proves the body was refused as it was read, whatever the kernel's buffers
    took in meanwhile (counting the bytes sent before the answer depended on them: 32 MB of receive buffer here,
    and a loaded machine filled it)."""
    sock = socket.create_connection(("127.0.0.1", srv.port), timeout=20)
    sock.sendall(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n".encode()
    )
    piece = f"{chunk:x}\r\n".encode() + b"x" * chunk + b"\r\n"
    sent = 0
    answer = b""
    try:
        while sent < total:
            readable, writable, _ = select.select([sock], [sock], [], 10)
            if readable or not writable:
                break  # answered, or the server stopped reading
            sock.sendall(piece)
            sent += chunk
    except OSError:
        pass  # the server closed the connection on us: its answer is waiting
    try:
        while b"\r\n\r\n" not in answer or len(answer) < answer.index(b"\r\n\r\n") + 20:
            got = sock.recv(65536)
            if not got:
                break
            answer += got
    except OSError:
        pass
    sock.close()
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    return status, sent, answer


def test_a_chunked_body_past_the_limit_is_refused_before_it_is_read(server: ServerProcess) -> None:
    code = make_room(server)["code"]
    status, _, answer = chunked_post(server, f"/api/rooms/{code}/join", 1024 * 1024)  # never finished
    assert status == 413, answer[:300]
    assert b"too_big" in answer
    # a small chunked body is read as any other
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=20)
    body = json.dumps({"name": "Chunky"}).encode()
    sock.sendall(
        f"POST /api/rooms/{code}/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n{len(body):x}\r\n".encode()
        + body
        + b"\r\n0\r\n\r\n"
    )
    answer = b""
    while got := sock.recv(65536):
        answer += got
    sock.close()
    assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
    # every route that reads a body; one that reads none answers without reading it either
    assert chunked_post(server, "/api/rooms", 2 * 1024 * 1024)[0] == 413
    assert chunked_post(server, "/api/rulesets", 1024 * 1024)[0] == 405


def test_a_body_just_past_the_limit_gets_its_answer_not_a_broken_pipe(server: ServerProcess) -> None:
    """A body a little past a route's limit, sent whole with its length (a browser's upload of a file too large),
    is answered 413 every time: the server reads and drops it before it answers and closes. It closed at once,
    and a client still sending got a broken pipe one time in three (test_web_replay's upload limits, flaky)."""
    from grognard.web.protocol import MAX_BODY, MAX_UPLOAD

    wide = MAX_BODY + 4 * MAX_UPLOAD
    for _ in range(30):
        status, answer = call(server.url + "/api/rooms", b" " * (wide + 1))
        assert status == 413 and answer["code"] == "too_big", answer


def test_a_websocket_frame_past_the_body_limit_closes_the_page(server: ServerProcess) -> None:
    made = make_room(server)
    host = hello(server, made["code"], "host", made["host_token"])
    first_state(host)
    host.send(json.dumps({"type": "ping", "pad": "x" * 20000}))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            host.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big


def test_no_openapi_schema(server: ServerProcess) -> None:
    for path in ("/openapi.json", "/docs", "/redoc"):
        assert call(server.url + path)[0] == 404, path


def join(srv: ServerProcess, code: str, name: str, side: str | None = None) -> dict[str, Any]:
    status, joined = call(srv.url + f"/api/rooms/{code}/join", {"name": name, "side": side})
    assert status == 200, joined
    return dict(joined)


def test_projector_pages_cannot_lock_out_the_host_and_the_players(server: ServerProcess) -> None:
    """53 projector pages (no token) on an 8-seat game: a few are let in, the rest refused; the host and
    every seated player still get in, and so does the projector opened from the host page."""
    made = make_room(server, germans=2)
    code = made["code"]
    players = [join(server, code, f"Pupil {k}") for k in range(8)]
    assert all(p["seats"] for p in players)
    crowd = [hello(server, code, "projector") for _ in range(53)]
    admitted, refused = [], []
    for ws in crowd:
        try:
            first_state(ws)
            admitted.append(ws)
        except ConnectionClosed as closed:
            refused.append(closed.rcvd.reason if closed.rcvd else "")
    assert 1 <= len(admitted) <= 12 and len(refused) == 53 - len(admitted)
    assert all("projector" in reason for reason in refused), refused[:3]
    host = hello(server, code, "host", made["host_token"])
    state = first_state(host)
    assert state["host"]["players"] and len(state["seats"]) == 8
    seated = [hello(server, code, "player", p["token"]) for p in players]
    for ws, p in zip(seated, players, strict=True):
        assert first_state(ws)["you"]["seats"] == p["seats"]
    # the host page's projector link carries a token: that projector gets in past the crowd
    url = state["host"]["projector_url"]
    assert url.startswith(f"/projector/{code}#")
    projector = hello(server, code, "projector", url.split("#", 1)[1])
    assert first_state(projector)["code"] == code
    assert "projector token" in refused_at_hello(hello(server, code, "projector", "x" * 32))
    # a page that never says hello is closed (and was counted nowhere meanwhile)
    silent = connect(f"{server.ws_url}/ws/{code}", open_timeout=20).__enter__()
    assert "hello" in closed_reason(silent, timeout=30)
    for ws in [*admitted, host, *seated, projector]:
        ws.close()


def test_pages_that_never_say_hello_are_bounded(server: ServerProcess) -> None:
    """Sockets with no token that never say hello are bounded per room: past the bound one more is
    refused at once with 429 (no file descriptors to spend on them); once they go, a page gets in."""
    made = make_room(server)
    silent, refusal = [], None
    for _ in range(200):
        try:
            silent.append(connect(f"{server.ws_url}/ws/{made['code']}", open_timeout=20).__enter__())
        except InvalidStatus as exc:
            refusal = exc.response
            break
    assert refusal is not None and refusal.status_code == 429 and refusal.headers.get("Retry-After")
    assert len(silent) >= doors.PER_ROOM
    for ws in silent:
        ws.close()
    time.sleep(0.5)
    host = hello(server, made["code"], "host", made["host_token"])
    assert first_state(host)["code"] == made["code"]
    host.close()


def test_a_locked_room_stays_locked_after_a_restart(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path).start()
    try:
        made = make_room(srv)
        host = hello(srv, made["code"], "host", made["host_token"])
        first_state(host)
        host.send(json.dumps({"type": "lock", "locked": True}))
        until(host, lambda m: m["type"] == "ack" and m.get("op") == "lock")
        srv.kill()
        srv.start()
        status, answer, _ = try_join(srv, made["code"], "Eve")
        assert status == 403 and answer["code"] == "locked"
    finally:
        srv.stop()


def test_a_sixth_page_of_one_player_closes_the_oldest(server: ServerProcess) -> None:
    """A player (or the host) always gets in: past four open pages of one token, the oldest is closed."""
    made = make_room(server)
    code = made["code"]
    ann = join(server, code, "Ann")
    pages = [hello(server, code, "player", ann["token"]) for _ in range(4)]
    for ws in pages:
        first_state(ws)
    newest = hello(server, code, "player", ann["token"])
    assert first_state(newest)["you"]["name"] == "Ann"
    assert "another page" in closed_reason(pages[0])
    for ws in [*pages[1:], newest]:
        ws.close()


def try_join(srv: ServerProcess, code: str, name: str, browser: str | None = None) -> tuple[int, Any, str | None]:
    """A join: (status, answer, Retry-After)."""
    request = urllib.request.Request(
        srv.url + f"/api/rooms/{code}/join", data=json.dumps({"name": name}).encode(), method="POST"
    )
    request.add_header("Content-Type", "application/json")
    if browser is not None:
        request.add_header("X-Grognard-Browser", browser)
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.loads(answer.read()), None
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), exc.headers.get("Retry-After")


def test_one_address_cannot_fill_a_room_at_once_but_a_class_gets_in(server: ServerProcess) -> None:
    """40 joins at once from one address: a class's first wave goes in, the rest are told to wait a
    moment (with Retry-After) and get in when they try again; nothing is taken for the refused ones."""
    code = make_room(server, germans=8)["code"]  # 32 seats
    answers = [try_join(server, code, f"Bot {k}") for k in range(40)]
    taken = [a for a in answers if a[0] == 200]
    waiting = [a for a in answers if a[0] == 429]
    assert 12 <= len(taken) < 20 and len(taken) + len(waiting) == 40
    assert all(a[1]["code"] == "rate" and "wait a moment" in a[1]["message"] for a in waiting)
    assert all(a[2] is not None and int(a[2]) >= 1 and a[1]["retry"] == int(a[2]) for a in waiting)
    # the ones told to wait try again after Retry-After, as the page does: every one gets in
    late = []
    for k in range(3):
        while True:
            status, joined, retry = try_join(server, code, f"Late {k}")
            if status == 200:
                late.append(joined)
                break
            assert status == 429 and retry is not None
            time.sleep(float(retry))
    assert len({j["player"] for j in late}) == 3


def test_the_host_locks_the_room_and_removes_players_in_bulk(server: ServerProcess) -> None:
    made = make_room(server)  # 4 seats
    code = made["code"]
    pupils = [join(server, code, name) for name in ("Ann", "Bob", "Cy", "Di")]
    strangers = [join(server, code, name) for name in ("xx1", "xx2", "xx3")]
    assert all(p["seats"] for p in pupils) and not any(s["seats"] for s in strangers)
    host = hello(server, code, "host", made["host_token"])
    first_state(host)
    host.send(json.dumps({"type": "lock", "locked": True}))
    locked = until(host, lambda m: m["type"] == "state" and m["locked"])
    status, answer, _ = try_join(server, code, "Eve")
    assert status == 403 and answer["code"] == "locked" and "locked" in answer["message"]
    # who joined already still gets in
    ann = hello(server, code, "player", pupils[0]["token"])
    assert first_state(ann)["locked"] is True
    # a bulk removal naming one unknown player removes nobody
    ids = [s["player"] for s in strangers]
    host.send(json.dumps({"type": "remove_many", "players": [*ids, "p999"]}))
    refused = until(host, lambda m: m["type"] == "refused")
    assert refused["code"] == "bad_player" and "p999" in refused["message"]
    assert len(locked["host"]["players"]) == 7
    host.send(json.dumps({"type": "remove_many", "players": ids}))
    until(host, lambda m: m["type"] == "ack" and m.get("op") == "remove_many")
    state = until(host, lambda m: m["type"] == "state" and len(m["host"]["players"]) == 4)
    assert [p["name"] for p in state["host"]["players"]] == ["Ann", "Bob", "Cy", "Di"]
    assert "wrong player token" in refused_at_hello(hello(server, code, "player", strangers[0]["token"]))
    host.send(json.dumps({"type": "lock", "locked": False}))
    until(host, lambda m: m["type"] == "state" and not m["locked"])
    assert try_join(server, code, "Eve")[0] == 200
    for ws in (host, ann):
        ws.close()


def until(ws: Any, test: Any, timeout: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        message = receive(ws, timeout=max(0.1, deadline - time.monotonic()))
        if test(message):
            return dict(message)


def test_one_browsers_wrong_codes_do_not_lock_out_its_address(server: ServerProcess) -> None:
    """Room codes tried are limited by browser (its page sends its id) and, more loosely, by address, on
    every route; one pupil's typos stop his browser only, and a class's own room stays open to its
    address even while someone there tries codes by the hundred."""
    made = make_room(server)
    code = made["code"]
    typist = [try_join(server, "WRONG" + str(k), "Tim", browser="browser-tim-1") for k in range(20)]
    assert typist[0][0] == 404 and typist[-1][0] == 429 and typist[-1][1]["code"] == "rate"
    assert "room codes" in typist[-1][1]["message"] and typist[-1][2] is not None
    # the pupil beside him, same address, another browser: his typo is a plain 404, his right code works
    assert try_join(server, "WRONG1", "Sue", browser="browser-sue-2")[0] == 404
    assert try_join(server, code, "Sue", browser="browser-sue-2")[0] == 200
    # a script making up a browser id for every guess meets the address's ceiling, on every route
    statuses = [try_join(server, f"NOPE{k}", "x", browser=f"made-up-{k:04d}")[0] for k in range(80)]
    assert statuses[0] == 404 and statuses[-1] == 429
    assert call(server.url + "/play/NOPEZZ")[0] == 429
    assert call(server.url + "/qr/NOPEZY.svg")[0] == 429
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server.ws_url}/ws/NOPEZX", open_timeout=20)
    assert refused.value.response.status_code == 429
    # while the class's own room, known to this address, is open: pages, joins from a new browser, its socket
    assert call(server.url + f"/play/{code}")[0] == 200
    assert try_join(server, code, "Uma", browser="browser-uma-3")[0] == 200
    host = hello(server, code, "host", made["host_token"])
    assert first_state(host)["code"] == code
    host.close()
