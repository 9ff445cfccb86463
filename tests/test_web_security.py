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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from grognard.web.testing import ServerProcess, call


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
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
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


def chunked_post(srv: ServerProcess, path: str, total: int, chunk: int = 65536) -> tuple[int, int, bytes]:
    """POST ``total`` bytes with ``Transfer-Encoding: chunked``: (status, bytes sent before the answer, answer)."""
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
            if readable:
                break
            if not writable:
                break  # the server stopped reading
            sock.sendall(piece)
            sent += chunk
        else:
            sock.sendall(b"0\r\n\r\n")
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
    status, sent, answer = chunked_post(server, f"/api/rooms/{code}/join", 30 * 1024 * 1024)
    assert status == 413, answer[:300]
    assert b"too_big" in answer
    assert sent < 8 * 1024 * 1024  # the server answered long before the 30 MB were sent
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
    assert chunked_post(server, "/api/rooms", 30 * 1024 * 1024)[0] == 413
    status, sent, _ = chunked_post(server, "/api/rulesets", 30 * 1024 * 1024)
    assert status == 405 and sent < 8 * 1024 * 1024


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
