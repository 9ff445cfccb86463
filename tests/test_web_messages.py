"""The web's outbound messages are typed like its inbound ones, and its refusal codes are one enumeration
(issue 30, item 3, the web's part): every message a real game's pages are sent (in process, Starlette's
TestClient over a real SQLite database) fits ``messages.server_message``; every refusal's code is a
``RefusalCode``, every error kind of the rules has one."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grognard import rulesets
from grognard.core.errors import GrognardError
from grognard.web.app import create_app
from grognard.web.messages import RefusalCode, server_message

with warnings.catch_warnings():  # Starlette's note that its test client will move to another HTTP client
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

WEB = Path(__file__).resolve().parents[1] / "src" / "grognard" / "web"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}")) as c:
        yield c


def _until(ws: Any, test: Any, seen: list[dict[str, Any]], limit: int = 400) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        seen.append(message)
        if test(message):
            return message
    raise AssertionError(f"no message matched; last: {seen[-3:]}")


def test_every_message_a_page_is_sent_is_typed(client: TestClient) -> None:
    solo = {"name": "Ann", "side": "american"}
    made = client.post("/api/rooms", json={"ruleset": "omaha", "options": {"germans": 1}, "solo": solo}).json()
    code = made["code"]
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{code}") as host, client.websocket_connect(f"/ws/{code}") as page:
        host.send_json({"type": "hello", "role": "host", "token": made["host_token"]})
        page.send_json({"type": "hello", "role": "player", "token": made["token"]})
        state = _until(page, lambda m: m["type"] == "state" and m["decisions"], seen)
        order = state["decisions"][0]["choices"][0]["text"]
        page.send_json({"type": "preview", "action": order, "n": 2})
        _until(page, lambda m: m["type"] == "preview", seen)
        page.send_json({"type": "preview", "action": "move A99 1 1", "n": 3})
        _until(page, lambda m: m["type"] == "preview" and not m["legal"], seen)
        page.send_json({"type": "act", "action": order, "n": 4, "client": "order-0001"})
        _until(page, lambda m: m["type"] == "ack", seen)
        page.send_json({"type": "ping"})
        _until(page, lambda m: m["type"] == "pong", seen)
        page.send_json({"type": "act", "n": 5})  # no action: malformed
        _until(page, lambda m: m["type"] == "refused" and m["n"] is None, seen)
        page.send_json({"type": "start"})  # a host's command from a player's page
        _until(page, lambda m: m["type"] == "refused" and m["code"] == "host_only", seen)
        _until(page, lambda m: m["type"] == "patch", seen)
        host.send_json({"type": "pause", "paused": True})
        _until(host, lambda m: m.get("op") == "pause", seen)
        host.send_json({"type": "remove", "player": made["player"]})  # the player's page is closed: bye
        _until(page, lambda m: m["type"] == "bye", seen)
    seen.append(client.post(f"/api/rooms/{code}/join", json={"name": "x" * 40}).json())  # malformed
    seen.append(client.get(f"/api/rooms/{code}/record").json())  # host_only
    seen.append(client.get("/api/rooms/NOROOM/debrief").json())  # no_room
    kinds = {m["type"] for m in seen}
    assert kinds >= {"state", "patch", "events", "ack", "preview", "pong", "refused", "bye"}, kinds
    for message in seen:
        server_message.validate_python(message)  # raises for a field not declared, missing, or of another type
    codes = {m["code"] for m in seen if m["type"] == "refused"}
    assert codes >= {"malformed", "host_only", "no_room"} and codes <= set(RefusalCode)


def _kinds(cls: type[GrognardError]) -> Iterator[type[GrognardError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _kinds(sub)


def test_the_refusal_codes_are_one_enumeration() -> None:
    for name in rulesets.names():  # every rule set's own errors imported
        rulesets.get(name)
    codes = {kind.code for kind in [GrognardError, *_kinds(GrognardError)]}
    assert codes <= set(RefusalCode), codes - set(RefusalCode)
    loose = []
    for path in sorted(WEB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
                name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                first = node.args[0] if node.args else None
                if name in ("Refused", "refusal", "stop") and isinstance(first, ast.Constant):
                    loose.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Dict):  # no refusal written as a loose dictionary
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                values = [v.value for v in node.values if isinstance(v, ast.Constant)]
                if "code" in keys and "refused" in values:
                    loose.append(f"{path.name}:{node.lineno}")
    assert not loose, loose


def test_a_state_s_players_roll_asked_and_result_are_typed_too(client: TestClient) -> None:
    """The host's list of players, the roll asked of the referee and the game's result are typed fields of the
    state (they were loose dictionaries, which took anything): a real host state, then each part made wrong."""
    from pydantic import ValidationError

    made = client.post("/api/rooms", json={"ruleset": "omaha", "options": {"germans": 1}, "dice": "manual"}).json()
    joined = client.post(f"/api/rooms/{made['code']}/join", json={"name": "Ann"}).json()
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{made['code']}") as host:
        host.send_json({"type": "hello", "role": "host", "token": made["host_token"]})
        host.send_json({"type": "start"})  # manual dice: the setup's first roll is asked of the host
        state = _until(host, lambda m: m["type"] == "state" and m["host"]["dice_request"] is not None, seen)
    server_message.validate_python(state)
    (ann,) = state["host"]["players"]
    assert ann["id"] == joined["player"] and ann["name"] == "Ann" and ann["seats"] and ann["online"] is False
    request = state["host"]["dice_request"]
    assert set(request) == {"n", "sides", "purpose", "problem", "for", "kept"} and request["kept"] == []
    wrong: list[dict[str, Any]] = [
        {**state, "host": {**state["host"], "players": [{"id": "p1", "name": "Ann", "seats": []}]}},  # online?
        {**state, "host": {**state["host"], "dice_request": {**request, "sides": "six"}}},
        {**state, "host": {**state["host"], "dice_request": {**request, "asked_by": "Bob"}}},
        {**state, "result": {"outcome": "won", "winner": None, "turn": 3, "reason": "", "scores": {}}},
    ]
    for message in wrong:
        with pytest.raises(ValidationError):
            server_message.validate_python(message)


def test_a_player_s_decisions_are_typed_too(client: TestClient) -> None:
    """The decisions a player's page is sent are typed (``DecisionLine``, each choice a ``Choice``; they were
    loose dictionaries), and so are a preview's odds and drawing (they were Any): a real solo game's state
    validates, a choice without its words, a decision with a field it lacks, odds as a number do not."""
    from pydantic import ValidationError

    solo = {"name": "Ann", "side": "american"}
    made = client.post("/api/rooms", json={"ruleset": "omaha", "options": {"germans": 1}, "solo": solo}).json()
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{made['code']}") as page:
        page.send_json({"type": "hello", "role": "player", "token": made["token"]})
        state = _until(page, lambda m: m["type"] == "state" and m["decisions"], seen)
    server_message.validate_python(state)
    decision = state["decisions"][0]
    assert decision["choices"] and set(decision["choices"][0]) == {"text", "label", "note", "odds"}
    unlabelled = [{k: v for k, v in c.items() if k != "label"} for c in decision["choices"]]
    for wrong in ({**decision, "choices": unlabelled}, {**decision, "hint": "go left"}):
        with pytest.raises(ValidationError):
            server_message.validate_python({**state, "decisions": [wrong]})
    preview = {"type": "preview", "n": 1, "action": "x", "legal": True, "note": "", "odds": "50%", "drawn": {}}
    server_message.validate_python(preview)
    for wrong_preview in ({**preview, "odds": 0.5}, {**preview, "drawn": [[1, 2]]}):  # the odds in words, a drawing
        with pytest.raises(ValidationError):
            server_message.validate_python(wrong_preview)
