"""Partial state messages over a real game through the real server (``grognard serve`` in a subprocess).

Every page is sent its whole state once, then only what changed (``grognard.web.patch``).
A page merging the patches ends with exactly the state the server sends whole, and it was
sent far fewer bytes than whole states would have been.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from grognard.web.patch import Sent, change, merge
from grognard.web.testing import ServerProcess, call


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("patch")) as srv:
        yield srv


class Page:
    """A page that merges patches as app.js does, counting the bytes it is sent and what whole states would be."""

    def __init__(self, srv: ServerProcess, code: str, role: str, token: str | None) -> None:
        self.ws: ClientConnection = connect(f"{srv.ws_url}/ws/{code}", max_size=2**22).__enter__()
        self.state: dict[str, Any] | None = None
        self.kinds: dict[str, int] = {}
        self.sent = 0  # bytes of the state and patch messages received
        self.whole = 0  # bytes the same states would have been, sent whole
        self.ws.send(json.dumps({"type": "hello", "role": role, "token": token}))

    def read(self, timeout: float) -> dict[str, Any] | None:
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        assert isinstance(text, str)
        m = json.loads(text)
        self.kinds[m["type"]] = self.kinds.get(m["type"], 0) + 1
        if m["type"] == "patch":
            assert self.state is not None, "a patch came before any whole state"
            m = merge(self.state, m)
        if m["type"] == "state":
            if self.state is not None:  # after the first, whole state: what changed, against it whole
                self.sent += len(text.encode())
                self.whole += len(json.dumps(m).encode())
            self.state = m
        return m

    def close(self) -> None:
        self.ws.close()


def test_a_page_merging_patches_holds_the_servers_state(server: ServerProcess) -> None:
    status, made = call(server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 1, "period_turns": 6}})
    assert status == 200, made
    code = made["code"]
    status, joined = call(server.url + f"/api/rooms/{code}/join", {"name": "Ann", "side": "american"})
    assert status == 200, joined
    host = Page(server, code, "host", made["host_token"])
    player = Page(server, code, "player", joined["token"])
    projector = Page(server, code, "projector", None)
    pages = (host, player, projector)
    host.ws.send(json.dumps({"type": "start"}))
    answered: set[tuple[int, str]] = set()
    deadline = time.monotonic() + 120
    n = 0
    # the bots play every seat but Ann's; Ann gives the first order of her menu whenever she owes one
    while not all(p.state and p.state["status"] == "over" for p in pages):
        assert time.monotonic() < deadline, "the game did not end in time"
        for p in pages:
            while p.read(0.02) is not None:
                pass
        s = player.state
        for d in (s or {}).get("decisions", []):
            if (s["step"], d["id"]) not in answered:  # type: ignore[index]
                answered.add((s["step"], d["id"]))  # type: ignore[index]
                n += 1
                player.ws.send(json.dumps({"type": "act", "action": d["choices"][0]["text"], "n": n}))
    for p in pages:
        while p.read(0.3) is not None:  # the last messages of the game
            pass
        assert p.kinds.get("patch", 0) >= 3, p.kinds  # the game was followed by patches
        held = p.state
        assert held is not None
        p.ws.send(json.dumps({"type": "resync"}))  # the whole state, asked for
        whole = None
        while whole is None:
            text = p.ws.recv(timeout=10)
            m = json.loads(text)
            if m["type"] == "patch":
                held = merge(held, m)
            elif m["type"] == "state":
                whole = m
        assert held == whole
        assert p.sent * 3 < p.whole, (p.sent, p.whole)  # the bytes drop (some 10 times in a classroom's game)
    assert n > 0  # Ann played
    for p in pages:
        p.close()


def test_a_patch_for_another_state_is_refused_by_the_merge() -> None:
    sent = Sent()
    first = {"type": "state", "version": 1, "turn": 1}
    sent.message(first)
    patch = sent.message({"type": "state", "version": 2, "turn": 2})
    assert patch is not None
    assert merge(first, patch) == {"type": "state", "version": 2, "turn": 2}
    with pytest.raises(ValueError, match="a patch for version 1 met a page at version 2"):
        merge({"type": "state", "version": 2, "turn": 2}, patch)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"a": [1, 2, 3, {"b": "x"}]}, {"a": [1, 3, {"b": "y"}, 4]}),
        ({"a": True}, {"a": 1}),  # equal in Python, not in JSON
        ({"a": [1]}, {"a": [1.0]}),
        ({"a": {"b": 1}, "c": 2}, {"a": {"b": 1, "d": None}}),
        (
            {"svg": "\n".join(f"<rect x='{i}'/>" for i in range(400))},
            {"svg": "\n".join(f"<rect x='{i % 97}'/>" for i in range(399))},
        ),
        ({"rows": [["A1", 12, "beach"]] * 30}, {"rows": [["A1", 11, "beach"]] + [["A1", 12, "beach"]] * 29}),
    ],
)
def test_a_change_merges_back_to_the_new_value(old: dict[str, Any], new: dict[str, Any]) -> None:
    sent = Sent()
    sent.message({"version": 0, **old})
    patch = sent.message({"version": 1, **new})
    assert patch is not None
    merged = merge({"version": 0, **old}, patch)
    assert json.dumps(merged, sort_keys=True) == json.dumps({"type": "state", "version": 1, **new}, sort_keys=True)
    assert change(new, new) is None
