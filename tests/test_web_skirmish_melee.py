"""Sealed melee choices on the wire (issue 17): until both sides have chosen stay or retreat, the other
side's page, the host's and the projector's WebSocket frames and every HTTP answer carry only that a choice
was made, never which. Against the real server; the referee types the dice (every strike misses: the choice).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from grognard.web.patch import merge
from grognard.web.testing import ServerProcess, call

YARD = (Path(__file__).parent / "skirmish_melee_yard.toml").read_text(encoding="utf-8")


class Page:
    """A page's WebSocket: every raw frame kept as received, the state merged as app.js merges it."""

    def __init__(self, srv: ServerProcess, code: str, role: str, token: str | None) -> None:
        self.ws = connect(f"{srv.ws_url}/ws/{code}").__enter__()
        self.frames: list[str] = []
        self.state: dict[str, Any] = {}
        self.lock = threading.Lock()
        self.ws.send(json.dumps({"type": "hello", "role": role, "token": token}))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for text in self.ws:
                message = json.loads(text)
                with self.lock:
                    self.frames.append(str(text))
                    if message["type"] == "patch":
                        self.state = merge(self.state, message)
                    elif message["type"] == "state":
                        self.state = message
        except ConnectionClosed:
            pass

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def wait(self, test: Callable[[dict[str, Any]], Any], timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if self.state and test(self.state):
                    return self.state
            time.sleep(0.02)
        raise AssertionError(f"no state matched; last frames: {self.frames[-3:]}")

    def text(self) -> str:
        with self.lock:
            return "\n".join(self.frames)

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path) as srv:
        yield srv


def referee(host: Page, stop: threading.Event) -> None:
    """The host types a 1 for every roll asked (every melee strike misses)."""
    while not stop.is_set():
        with host.lock:
            asked = (host.state.get("host") or {}).get("dice_request")
        if asked is not None:
            host.send({"type": "dice", "values": " ".join(["1"] * int(asked["n"]))})
            time.sleep(0.3)
        time.sleep(0.05)


def refereed(srv: ServerProcess, code: str, host_token: str) -> tuple[Page, threading.Event]:
    """The host's page, typing 1s for every roll (``referee``) until the event is set, the game started with
    no bots (every seat a person)."""
    host = Page(srv, code, "host", host_token)
    stop = threading.Event()
    threading.Thread(target=referee, args=(host, stop), daemon=True).start()
    host.wait(lambda s: s.get("ready"))
    host.send({"type": "settings", "fill_bots": False})
    host.send({"type": "start"})
    host.wait(lambda s: s["status"] == "playing")
    return host, stop


def owed(page: Page, prefix: str) -> dict[str, Any]:
    state = page.wait(lambda s: any(d["id"].startswith(prefix) for d in s.get("decisions", [])))
    return next(d for d in state["decisions"] if d["id"].startswith(prefix))


def act(page: Page, action: str, n: int) -> None:
    page.send({"type": "act", "action": action, "n": n})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for frame in page.text().splitlines():
            m = json.loads(frame)
            if m.get("n") == n and m["type"] in ("ack", "refused"):
                assert m["type"] == "ack", m
                return
        time.sleep(0.05)
    raise AssertionError(f"{action}: no answer")


def sealed_words(group: str, men: list[str]) -> tuple[str, ...]:
    """What would tell Ann's choice: her order's text, it in a JSON choices map, her men's retreat."""
    return (f"{group} retreat", f'"{group}":"retreat"', *(f"{m} retreats" for m in men))


def test_the_other_side_never_receives_a_sealed_melee_choice(server: ServerProcess) -> None:
    status, made = call(
        server.url + "/api/rooms",
        {"ruleset": "skirmish", "dice": "manual", "upload": {"name": "melee_yard.toml", "text": YARD}},
    )
    assert status == 200, made
    code = made["code"]
    allies = call(server.url + f"/api/rooms/{code}/join", {"name": "Ann", "side": "allies"})[1]
    axis = call(server.url + f"/api/rooms/{code}/join", {"name": "Axel", "side": "axis"})[1]
    host, stop = refereed(server, code, made["host_token"])
    try:
        ann, axel = Page(server, code, "player", allies["token"]), Page(server, code, "player", axis["token"])
        projector = Page(server, code, "projector", None)
        act(axel, "move G / G.1 to 12,12", 1)  # the charge: bases touching
        act(ann, "hold A", 2)
        act(ann, "fire A hold", 3)
        act(axel, "fire G hold", 4)
        mine = owed(ann, "melee")
        theirs = owed(axel, "melee")
        group = mine["id"].split()[1]
        SEALED = sealed_words(group, ["A.1", "A.2"])
        seen_before = {p: len(p.frames) for p in (axel, host, projector)}
        act(ann, f"melee {group} retreat", 5)
        # the other side's page learns that Ann chose, not what: her decision is gone from what is owed
        axel.wait(lambda s: not next(x for x in s["seats"] if x["seat"] == "Allies")["owes"])
        time.sleep(0.5)
        for page in (axel, host, projector):
            after = "\n".join(page.frames[seen_before[page] :])
            assert after and not any(word in after for word in SEALED), after[-2000:]
            assert not any(word in page.text() for word in SEALED)
        for path in (f"/api/rooms/{code}/record", f"/api/rooms/{code}/debrief"):
            for headers in ({}, {"X-Host-Token": made["host_token"]}):
                status, answer = call(server.url + path, headers=headers)
                assert not any(word in json.dumps(answer) for word in SEALED), (path, answer)
        # the replay viewer, asked by anyone with the room code: it stops before the sealed line
        status, outline = call(server.url + f"/api/rooms/{code}/replay")
        assert status == 200 and "still sealed" in outline["stopped"], outline
        for n in range(outline["steps"]):
            status, answer = call(server.url + f"/api/rooms/{code}/replay/{n}")
            assert status == 200 and not any(word in json.dumps(answer) for word in SEALED), (n, answer)
        assert f"{group} retreat" in ann.text()  # her own page has her choice (the check above can see one)
        act(axel, f"melee {theirs['id'].split()[1]} stay", 6)
        axel.wait(lambda s: any("retreat" in e.get("text", "") for e in s["events"]))  # shown together now
        assert any(word in axel.text() for word in SEALED)
        # revealed: the replay shows Ann's line as a sealed choice, and both choices at the reveal
        status, outline = call(server.url + f"/api/rooms/{code}/replay")
        assert status == 200 and not outline["stopped"], outline
        steps = [call(server.url + f"/api/rooms/{code}/replay/{n}")[1] for n in range(outline["steps"])]
        chose = next(
            k
            for k, st in enumerate(steps)
            if (st["order"] or {}).get("seat") == "Allies" and "secret" in st["order"]["text"]
        )
        assert not any(word in json.dumps(steps[chose]) for word in SEALED)
        assert any(word in json.dumps(steps[k]) for k in range(chose + 1, len(steps)) for word in SEALED)
    finally:
        stop.set()
        for page in (host,):
            page.close()
