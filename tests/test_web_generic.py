"""The web play works over any rule set through the Ruleset record: the toy game with secret choices.

In-process (Starlette's TestClient), with the toy rule set of ``tests/toy_game.py`` added to the
registry: a seat's sealed lane reaches that seat's page only; the other seat, the host and the
projector learn only that it chose, until both have chosen and the lanes are revealed.
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import grognard.rulesets as registry
from grognard.web.app import create_app
from grognard.web.patch import merge

with warnings.catch_warnings():  # Starlette's note that its test client will move to another HTTP client
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setitem(registry._MODULES, "toy", "toy_game")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}")) as c:
        yield c


def read_until(ws: Any, test: Any, seen: list[dict[str, Any]], limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == "patch":  # merged into the page's last state, as app.js does
            message = merge(next(m for m in reversed(seen) if m["type"] == "state"), message)
        seen.append(message)
        if test(message):
            return dict(message)
    raise AssertionError(f"no message matched; last: {seen[-3:]}")


def texts(messages: list[dict[str, Any]]) -> str:
    out = []
    for m in messages:
        for e in m.get("events", []):
            out.append(e.get("text", ""))
    return "\n".join(out)


def test_secret_choices_reach_only_their_seat(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"ruleset": "toy"}).json()
    code = made["code"]
    runner = client.post(f"/api/rooms/{code}/join", json={"name": "Rae", "side": "runner"}).json()
    sentry = client.post(f"/api/rooms/{code}/join", json={"name": "Sam", "side": "sentry"}).json()
    assert (runner["seats"], sentry["seats"]) == (["Runner"], ["Sentry"])
    seen: dict[str, list[dict[str, Any]]] = {"host": [], "runner": [], "sentry": [], "projector": []}
    with (
        client.websocket_connect(f"/ws/{code}") as host,
        client.websocket_connect(f"/ws/{code}") as rws,
        client.websocket_connect(f"/ws/{code}") as sws,
        client.websocket_connect(f"/ws/{code}") as pws,
    ):
        host.send_json({"type": "hello", "role": "host", "token": made["host_token"]})
        rws.send_json({"type": "hello", "role": "player", "token": runner["token"]})
        sws.send_json({"type": "hello", "role": "player", "token": sentry["token"]})
        pws.send_json({"type": "hello", "role": "projector"})
        host.send_json({"type": "settings", "fill_bots": False})
        read_until(host, lambda m: m.get("op") == "settings", seen["host"])
        host.send_json({"type": "start"})
        read_until(host, lambda m: m.get("op") == "start", seen["host"])
        state = read_until(rws, lambda m: m["type"] == "state" and m["decisions"], seen["runner"])
        decision = state["decisions"][0]
        assert decision["id"] == "lane Runner 1" and decision["forms"] == []  # the generic face: a menu
        lane = decision["choices"][0]["text"]
        rws.send_json({"type": "act", "action": lane, "n": 1})
        read_until(rws, lambda m: m["type"] == "ack", seen["runner"])
        read_until(rws, lambda m: "sealed" in texts([m]), seen["runner"])  # the runner sees his own choice
        for name, ws in (("sentry", sws), ("host", host), ("projector", pws)):
            read_until(ws, lambda m: "chosen" in texts([m]), seen[name])
            assert "sealed" not in texts(seen[name]) and "'action'" not in texts(seen[name])
            assert lane not in json.dumps([m.get("events") for m in seen[name]])
        # the sentry chooses: both lanes are revealed to all
        state = read_until(sws, lambda m: m["type"] == "state" and m["decisions"], seen["sentry"])
        sws.send_json({"type": "act", "action": state["decisions"][0]["choices"][-1]["text"], "n": 1})
        for name, ws in (("sentry", sws), ("projector", pws)):
            read_until(ws, lambda m: "revealed" in texts([m]), seen[name])
        assert "sealed" not in texts(seen["projector"])


def test_no_page_sees_an_action_before_its_line_is_stored(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page that asks for the state while an action's record line is being stored gets it only after:
    a crash in between must not take back something a page has already shown."""
    from grognard.web.store import Store

    stored_at: dict[int, float] = {}
    slow: set[int] = set()
    original = Store.append

    def append(self: Store, room_id: int, n: int, line: dict[str, Any], meta: dict[str, Any] | None = None) -> None:
        if n in slow:
            time.sleep(0.6)  # a slow disk: the line is not stored for a while
        original(self, room_id, n, line, meta)
        stored_at[n] = time.monotonic()

    monkeypatch.setattr(Store, "append", append)
    made = client.post("/api/rooms", json={"ruleset": "toy"}).json()
    code = made["code"]
    runner = client.post(f"/api/rooms/{code}/join", json={"name": "Rae", "side": "runner"}).json()
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{code}") as host, client.websocket_connect(f"/ws/{code}") as rws:
        host.send_json({"type": "hello", "role": "host", "token": made["host_token"]})
        rws.send_json({"type": "hello", "role": "player", "token": runner["token"]})
        host.send_json({"type": "settings", "fill_bots": False})
        read_until(host, lambda m: m.get("op") == "settings", seen)
        host.send_json({"type": "start"})
        read_until(host, lambda m: m.get("op") == "start", seen)
        state = read_until(rws, lambda m: m["type"] == "state" and m["decisions"], seen)
        before = state["step"]
        line = before + 2  # the record's lines: the header, the start line, then one per action
        slow.add(line)
        rws.send_json({"type": "act", "action": state["decisions"][0]["choices"][0]["text"], "n": 1})
        time.sleep(0.2)  # the action is applied and its line is being stored
        with client.websocket_connect(f"/ws/{code}") as pws:
            pws.send_json({"type": "hello", "role": "projector"})
            first = read_until(pws, lambda m: m["type"] == "state", seen)
            received = time.monotonic()
        assert first["step"] == before + 1
        assert line in stored_at and received >= stored_at[line], "a page saw the action before its line was stored"
