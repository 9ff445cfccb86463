"""The web server against a real process: many clients in one game, every refusal, a SIGKILL restart.

The server runs as ``grognard serve`` in a subprocess on a free port (``grognard.web.testing``);
clients are plain HTTP calls and WebSocket connections (the ``websockets`` package).
"""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import conftest
from grognard import rulesets
from grognard.core.record import replay
from grognard.web.patch import merge
from grognard.web.testing import ServerProcess, call


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("web")) as srv:
        yield srv


class Client:
    """A WebSocket page: sends messages, keeps the latest state, collects every message."""

    def __init__(self, srv: ServerProcess, code: str, role: str, token: str | None, origin: str | None = None) -> None:
        headers = {"Origin": origin} if origin else None
        self.ws: ClientConnection = connect(f"{srv.ws_url}/ws/{code}", additional_headers=headers).__enter__()
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.send({"type": "hello", "role": role, "token": token})

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] == "patch":  # what changed: merged into the state this page holds, as app.js does
            assert self.state is not None, "a patch before any state"
            message = merge(self.state, message)
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def until(self, test: Any, timeout: float = 15.0) -> dict[str, Any]:
        """Read messages until ``test(message)`` holds; that message."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no message matched; last: {self.messages[-3:]}")
            message = self.recv(left)
            if test(message):
                return message

    def state_where(self, test: Any, timeout: float = 15.0) -> dict[str, Any]:
        if self.state is not None and test(self.state):
            return self.state
        return self.until(lambda m: m["type"] == "state" and test(m), timeout)

    def close(self) -> None:
        self.ws.close()


def make_room(srv: ServerProcess, **body: Any) -> dict[str, Any]:
    status, made = call(srv.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 1}, **body})
    assert status == 200, made
    return dict(made)


def join(srv: ServerProcess, code: str, name: str, side: str | None = None) -> dict[str, Any]:
    status, joined = call(srv.url + f"/api/rooms/{code}/join", {"name": name, "side": side})
    assert status == 200, joined
    return dict(joined)


def test_a_class_plays_a_turn(server: ServerProcess) -> None:
    """Three American players and a German player in one game; bots none; every client sees every action."""
    made = make_room(server)
    code = made["code"]
    host = Client(server, code, "host", made["host_token"])
    host.state_where(lambda s: s["status"] == "lobby")
    joined = [join(server, code, f"Player {k}", "american") for k in range(3)]
    german = join(server, code, "Gerda", "german")
    assert [j["seats"] for j in joined] == [["American 1"], ["American 2"], ["American 3"]]
    assert german["seats"] == ["German 1"]
    players = [Client(server, code, "player", j["token"]) for j in [*joined, german]]
    projector = Client(server, code, "projector", None)
    host.send({"type": "settings", "fill_bots": False})
    host.until(lambda m: m["type"] == "ack")
    host.send({"type": "start"})
    host.until(lambda m: m["type"] == "ack")
    # the German player places his bunkers first, then every American acts
    g = players[3].state_where(lambda s: bool(s["decisions"]))
    assert g["decisions"][0]["id"] == "place G1"
    players[3].send({"type": "act", "action": g["decisions"][0]["choices"][0]["text"], "n": 1})
    players[3].until(lambda m: m["type"] == "ack" and m["n"] == 1)
    for k, p in enumerate(players[:3]):
        state = p.state_where(lambda s: bool(s["decisions"]))
        decision = state["decisions"][0]
        assert decision["id"] == f"orders A{k + 1}"
        assert decision["forms"][0]["verb"] == "move" and decision["forms"][1]["verb"] == "fight"
        assert [row[2] for row in state["tables"][0]["rows"] if row[2]] == ["yes"]  # own squad marked
        p.send({"type": "preview", "action": f"hold A{k + 1}", "n": 5})
        preview = p.until(lambda m: m["type"] == "preview")
        assert preview["legal"] is True
        p.send({"type": "act", "action": f"hold A{k + 1}", "n": 6})
        p.until(lambda m: m["type"] == "ack" and m["n"] == 6)
    # the German phase: the projector sees the phase change and the held squads
    for watcher in (projector, host, *players):
        watcher.state_where(lambda s: s.get("phase") == "Germans act")
        texts = [m.get("text", "") for msg in watcher.messages if msg["type"] in ("events",) for m in msg["events"]]
        texts += [e.get("text", "") for e in watcher.state["events"]] if watcher.state else []
        assert any("A3 holds" in t for t in texts)
    state = players[3].state_where(lambda s: len(s["decisions"]) >= 2)
    assert {"fire B1", "fire B2", "artillery G1"} >= {d["id"] for d in state["decisions"]}
    fire = next(d for d in state["decisions"] if d["id"].startswith("fire"))
    assert any("average" in c["odds"] for c in fire["choices"])  # the exact odds, before committing
    for c in (host, projector, *players):
        c.close()


def test_refusals(server: ServerProcess) -> None:
    made = make_room(server)
    code = made["code"]
    a1 = join(server, code, "Ann", "american")
    a2 = join(server, code, "Bob", "american")
    host = Client(server, code, "host", made["host_token"])
    host.send({"type": "settings", "fill_bots": True})
    host.until(lambda m: m["type"] == "ack")
    host.send({"type": "bot", "seat": "American 3", "bot": "doctrine"})
    host.until(lambda m: m["type"] == "ack")
    host.send({"type": "start"})
    host.until(lambda m: m["type"] == "ack")
    ann = Client(server, code, "player", a1["token"])
    ann.state_where(lambda s: bool(s["decisions"]))
    # another seat's unit
    ann.send({"type": "act", "action": "hold A2", "n": 1})
    refused = ann.until(lambda m: m["type"] == "refused")
    assert refused["code"] == "not_yours" and refused["n"] == 1
    # an illegal move (too far): refused, the state unchanged
    before = ann.state["version"]
    ann.send({"type": "act", "action": "move A1 4 20", "n": 2})
    refused = ann.until(lambda m: m["type"] == "refused")
    assert refused["code"] == "illegal" and "omaha" in refused["message"]
    # malformed and oversized messages
    for bad in ("{not json", json.dumps({"type": "act", "action": 5}), json.dumps({"type": "nuke"})):
        ann.send(bad)
        assert ann.until(lambda m: m["type"] == "refused")["code"] == "malformed"
    ann.send(json.dumps({"type": "act", "action": "hold A1", "n": 3, "pad": "x" * 5000}))
    assert ann.until(lambda m: m["type"] == "refused")["code"] == "too_big"
    ann.ws.send(b"\x00\x01binary")
    assert "binary" in ann.until(lambda m: m["type"] == "refused")["message"]
    ann.send({"type": "act", "action": "x" * 201})
    assert ann.until(lambda m: m["type"] == "refused")["code"] == "malformed"
    # a player may not use host commands
    ann.send({"type": "undo"})
    assert ann.until(lambda m: m["type"] == "refused")["code"] == "host_only"
    assert ann.state["version"] == before or ann.state["decisions"]  # nothing happened to the game
    # a wrong token: refused at hello
    for role, token in (("player", "not-a-real-token"), ("host", a2["token"])):
        bad = Client(server, code, role, token)
        with pytest.raises(ConnectionClosed):
            while True:
                bad.recv(5)
    # a foreign origin is refused before anything
    with pytest.raises(Exception):  # noqa: B017 - the handshake or the first read fails
        evil = Client(server, code, "player", a1["token"], origin="http://evil.example")
        evil.recv(5)
    # HTTP: wrong room, bad names, oversized body, the record before the end
    assert call(server.url + "/api/rooms/ZZZZZZ/join", {"name": "x"})[0] == 404
    assert call(server.url + f"/api/rooms/{code}/join", {"name": "\u202e\x00 "})[0] == 422
    assert call(server.url + f"/api/rooms/{code}/join", {"name": "y" * 65})[0] == 422
    assert call(server.url + f"/api/rooms/{code}/join", b"x" * 20000)[0] == 413
    status, answer = call(server.url + f"/api/rooms/{code}/record", headers={"X-Host-Token": made["host_token"]})
    assert status == 409 and "seed" in answer["message"]
    assert call(server.url + f"/api/rooms/{code}/record", headers={"X-Host-Token": a1["token"]})[0] == 403
    # a flood: the bucket refuses, the connection survives
    for _ in range(60):
        ann.send({"type": "ping"})
    codes = [ann.until(lambda m: m["type"] in ("pong", "refused")) for _ in range(60)]
    assert any(m["type"] == "refused" and m["code"] == "rate" for m in codes)
    # no message carries the dice seed before the end (read here from the server's own database)
    with sqlite3.connect(server.db.removeprefix("sqlite:///")) as db:
        headers = [json.loads(t) for (t,) in db.execute("select text from grognard_lines where n = 0")]
    seeds = {str(h["seed"]) for h in headers}
    assert seeds and not any(seed in json.dumps(m) for m in ann.messages + host.messages for seed in seeds)
    # a frame past the server's limit (64 KiB) closes that connection, nothing else
    big = Client(server, code, "player", a2["token"])
    big.send(json.dumps({"type": "ping", "pad": "x" * 70000}))
    with pytest.raises(ConnectionClosed):
        while True:
            big.recv(5)
    time.sleep(0.5)  # the flood emptied Ann's bucket: it fills again at 10 messages a second
    ann.send({"type": "ping"})
    ann.until(lambda m: m["type"] == "pong")
    for c in (host, ann):
        c.close()


def test_join_flood_is_limited(server: ServerProcess) -> None:
    """One browser trying room codes one after another is stopped (its own limit: the others' go on)."""
    browser = {"X-Grognard-Browser": "flood-test-browser"}
    statuses = [call(server.url + f"/api/rooms/QQQQ{k:02d}/join", {"name": "x"}, headers=browser)[0] for k in range(20)]
    assert 429 in statuses and statuses[0] == 404


def test_a_name_is_one_players_in_a_room(tmp_path: Path) -> None:
    """Two pupils may not go by one name (nor by one name in another case): the second join is refused with
    why, and no player or seat is taken for it; the host's rename to a taken name is refused too. (A server of
    its own: the joins of the other tests do not use up this address's share.)"""
    with ServerProcess(tmp_path) as server:
        _one_name_each(server)


def _one_name_each(server: ServerProcess) -> None:
    made = make_room(server)
    code = made["code"]
    sam = join(server, code, "Sam")
    for taken in ("Sam", "  sam ", "SAM"):
        status, answer = call(server.url + f"/api/rooms/{code}/join", {"name": taken})
        assert status == 409 and answer["code"] == "name_taken", answer
        assert answer["message"].startswith(f"the name {taken.strip()!r} is taken in this game"), answer
    other = join(server, code, "Tom")
    assert other["seats"] == ["American 2"]  # the refusals took no seat
    host = Client(server, code, "host", made["host_token"])
    assert [p["name"] for p in host.state_where(lambda s: True)["host"]["players"]] == ["Sam", "Tom"]
    host.send({"type": "rename", "player": other["player"], "name": "sam"})
    assert "taken in this game" in host.until(lambda m: m["type"] == "refused")["message"]
    host.send({"type": "rename", "player": sam["player"], "name": "SAM"})  # one's own name in another case: yes
    host.until(lambda m: m["type"] == "ack" and m.get("op") == "rename")
    names = host.state_where(lambda s: "SAM" in [p["name"] for p in s["host"]["players"]])["host"]["players"]
    assert [p["name"] for p in names] == ["SAM", "Tom"]
    host.close()


def test_a_latecomer_takes_an_empty_seat_from_its_bot(tmp_path: Path) -> None:
    """After the start, the bots play the empty seats; a pupil who joins then is given one of them, and its bot
    stops: the seat waits for the pupil's order (README: Security, for the teacher)."""
    with ServerProcess(tmp_path) as server:
        made = make_room(server)
        code = made["code"]
        ann = join(server, code, "Ann")
        host = Client(server, code, "host", made["host_token"])
        host.send({"type": "start"})
        host.state_where(lambda s: s["status"] == "playing")
        late = join(server, code, "Ben")
        assert late["seats"] == ["American 2"]
        state = host.state_where(lambda s: any(x["player"] == "Ben" for x in s["seats"]))
        assert next(x for x in state["seats"] if x["seat"] == "American 2")["bot"] is None
        # Ann holds; the game goes on to American 2's question (this turn's, or the next if its bot had played it
        # before Ben came), and waits there for Ben: no bot answers it. The game stands once Ann's hold is applied
        # and no bot owes an answer (the Americans answer at once: another American seat's bot may still owe its
        # own beside American 2's). A state taken before either, Ann's hold or a bot's answer still to come, failed
        # under load: the step went on, 3 == 2
        page = Client(server, code, "player", ann["token"])
        page.state_where(lambda s: any(d["seat"] == "American 1" for d in s.get("decisions", [])), 30)
        page.send({"type": "act", "action": "hold A1", "client": "latecomer-test-1", "n": 1})
        held = page.until(lambda m: m["type"] in ("ack", "refused") and m.get("n") == 1, 30)
        assert held["type"] == "ack", held
        owed = lambda s: any(x["seat"] == "American 2" and x["owes"] for x in s["seats"])  # noqa: E731
        bots_done = lambda s: not any(x["owes"] and x["bot"] for x in s["seats"])  # noqa: E731
        waiting = host.state_where(lambda s: owed(s) and bots_done(s) and s["step"] >= held["step"], 30)
        time.sleep(1.0)
        while True:  # every message sent meanwhile: the game stands where it waited
            try:
                host.recv(0.2)
            except TimeoutError:
                break
        assert host.state is not None and owed(host.state) and host.state["step"] == waiting["step"]
        for c in (page, host):
            c.close()


def test_host_controls_and_delete(server: ServerProcess) -> None:
    made = make_room(server)
    code = made["code"]
    pj = join(server, code, "Cleo <script>")
    host = Client(server, code, "host", made["host_token"])
    host.send({"type": "rename", "player": pj["player"], "name": "Cleo"})
    host.until(lambda m: m["type"] == "ack")
    assert host.state_where(lambda s: s["host"]["players"][0]["name"] == "Cleo")
    host.send({"type": "start"})
    # every seat but Cleo's is a bot; Cleo's seat handed to a bot: the game runs on by itself
    host.send({"type": "bot", "seat": pj["seats"][0], "bot": "doctrine"})
    host.until(lambda m: m["type"] == "events" and m["step"] >= 2, timeout=30)
    host.send({"type": "pause", "paused": True})  # refused if the bots already finished the game: undo works then too
    paused = host.state_where(lambda s: s["paused"] or s["status"] == "over")
    steps, stands = paused["host"]["steps"], paused["host"]["stands"]
    host.send({"type": "undo"})
    answer = host.until(lambda m: m["type"] == "refused" or (m["type"] == "ack" and m.get("op") == "undo"))
    if stands is None:  # the last action rolled no die and revealed nothing: taken back
        assert answer["type"] == "ack", (answer, paused["host"], paused["status"])
        host.state_where(lambda s: s["host"]["steps"] == steps - 1)
    else:  # it stands (tests/test_web_take_back.py): refused, saying why
        assert answer["code"] == "stands" and answer["message"] == f"that action stands: {stands}", answer
    # (the host may delete a game under way at once: test_web_classroom)
    host.send({"type": "end"})
    host.state_where(lambda s: s["status"] == "ended")
    status, text = call(server.url + f"/api/rooms/{code}/record", headers={"X-Host-Token": made["host_token"]})
    assert status == 200 and '"seed"' in text.splitlines()[0]
    rebuilt = replay(text.splitlines(), rulesets.get)  # the record grognard replay reads, every digest checked
    # the actions played until the pause (two at least), less the one taken back if it rolled nothing: a pause
    # right after the second action, that action taken back, leaves one (the check said two or more, and failed)
    assert steps >= 2 and rebuilt.complete and rebuilt.actions == steps - (stands is None)
    status, debrief = call(server.url + f"/api/rooms/{code}/debrief")  # the analysis code's plots
    assert status == 200 and "win" in " ".join(debrief["lines"]) and len(debrief["plots"]) == 2
    # the bots' reasons: kept with the room's record (its digests checked above), told in the debrief
    assert any(line.get("reason", {}).get("clause", "").startswith("omaha.") for line in rebuilt.used)
    assert " followed omaha." in " ".join(debrief["reasons"]), debrief["reasons"]
    with urllib.request.urlopen(server.url + debrief["plots"][0]["url"]) as answer:
        assert answer.read(8) == b"\x89PNG\r\n\x1a\n"
    status, _ = call(server.url + f"/api/rooms/{code}", method="DELETE", headers={"X-Host-Token": made["host_token"]})
    assert status == 200
    assert call(server.url + f"/play/{code}")[0] == 404
    host.close()


def test_referee_dice(server: ServerProcess) -> None:
    """Manual dice: the host types each roll; impossible values are refused and asked again."""
    made = make_room(server, dice="manual")
    code = made["code"]
    host = Client(server, code, "host", made["host_token"])
    state = host.state_where(lambda s: s["host"]["dice_request"] is not None)
    request = state["host"]["dice_request"]
    assert request["purpose"].startswith("obstacles O1") and request["n"] == 1
    joined = join(server, code, "Iris")  # a join never waits for the referee's dice
    host.send({"type": "rename", "player": joined["player"], "name": "Iris B"})
    host.until(lambda m: m["type"] == "ack" and m.get("op") == "rename")
    host.send({"type": "dice", "values": "7"})
    assert "not a face" in host.until(lambda m: m["type"] == "refused")["message"]
    host.send({"type": "dice", "values": "3 4"})
    assert "2 values" in host.until(lambda m: m["type"] == "refused")["message"]
    for _ in range(4):  # the four obstacle sections of one German's beach
        host.state_where(lambda s: s["host"]["dice_request"] is not None)
        host.send({"type": "dice", "values": "2"})
        host.until(lambda m: m["type"] == "ack")
    ready = host.state_where(lambda s: s["ready"])
    assert ready["tables"][-1]["rows"][0][1] == 1  # the d6 of 2 read on the obstacle table
    host.close()


def test_restart_after_sigkill_loses_nothing(tmp_path: Path, database: str) -> None:
    """On SQLite and PostgreSQL alike: an order acknowledged survives a SIGKILL, the game plays on, and the record
    the host downloads after it replays, every die and digest checked; the bots' plan committed before the kill
    is revealed at the end (issue 31, item 1)."""
    srv = ServerProcess(tmp_path, db=database).start()
    try:
        made = make_room(srv, options={"germans": 1, "plan": "wall-and-landings"})  # the bots' plan, kept too
        code = made["code"]
        p = join(srv, code, "Dana", "american")
        host = Client(srv, code, "host", made["host_token"])
        host.send({"type": "start"})
        host.until(lambda m: m["type"] == "ack")
        dana = Client(srv, code, "player", p["token"])
        first = dana.state_where(lambda s: bool(s["decisions"]))
        move = next(c["text"] for c in first["decisions"][0]["choices"] if c["text"].startswith("move"))
        dana.send({"type": "act", "action": move, "n": 1})
        dana.until(lambda m: m["type"] == "ack" and m["n"] == 1)
        srv.kill()  # SIGKILL right after the acknowledgement
        srv.start()
        dana = Client(srv, code, "player", p["token"])  # the same token: the seat back
        state = dana.state_where(lambda s: s.get("ready"))
        stored = conftest.stored_lines(srv.db)
        assert {"seat": "American 1", "action": move} in [
            {"seat": line.get("seat"), "action": line.get("action")} for line in stored
        ]
        assert any(e.get("text", "").startswith("A1 moves") for e in state["events"]) or state["turn"] > 1
        assert state["you"]["seats"] == ["American 1"]
        # play on after the restart
        state = dana.state_where(lambda s: bool(s["decisions"]), timeout=30)
        dana.send({"type": "act", "action": state["decisions"][0]["choices"][-1]["text"], "n": 2})
        dana.until(lambda m: m["type"] == "ack" and m["n"] == 2)
        host = Client(srv, code, "host", made["host_token"])
        host.send({"type": "end"})  # the record is given once the game is over
        host.state_where(lambda s: s["status"] == "ended")
        status, text = call(srv.url + f"/api/rooms/{code}/record", headers={"X-Host-Token": made["host_token"]})
        assert status == 200, text
        rebuilt = replay(text.splitlines(), rulesets.get)  # as grognard replay reads it
        assert rebuilt.actions >= 3 and any(line.get("action") == move for line in map(json.loads, text.splitlines()))
        # the plan committed before the kill is found again from the room's bot seed and revealed at the end
        assert rebuilt.plans["german"]["plan"] == "wall-and-landings" and rebuilt.plans["german"]["line"] == 3
    finally:
        srv.stop()


@pytest.mark.parametrize("on_timeout", ["hold", "bot"])
def test_phase_timer(server: ServerProcess, on_timeout: str) -> None:
    """A player who does not act before the phase timer runs out: 'hold' or the bot answers for him."""
    made = make_room(server)
    code = made["code"]
    p = join(server, code, "Eve", "american")
    host = Client(server, code, "host", made["host_token"])
    host.send({"type": "settings", "timer": 1, "on_timeout": on_timeout})
    host.until(lambda m: m["type"] == "ack")
    host.send({"type": "start"})
    eve = Client(server, code, "player", p["token"])
    state = eve.state_where(lambda s: bool(s["decisions"]))
    assert state["timer"]["seconds"] == 1
    state = eve.state_where(
        lambda s: any("time ran out for American 1" in e.get("text", "") for e in s["events"]), timeout=10
    )
    texts = [e["text"] for e in state["events"] if "time ran out" in e.get("text", "")]
    assert texts and (texts[0].endswith("hold A1") if on_timeout == "hold" else "A1" in texts[0])
    eve.close()
    host.close()


def test_referee_game_survives_a_restart(tmp_path: Path, database: str) -> None:
    """Typed dice are in the record like any others: after SIGKILL the game is where it was, and asks on (SQLite
    and PostgreSQL alike)."""
    srv = ServerProcess(tmp_path, db=database).start()
    try:
        made = make_room(srv, dice="manual")
        code = made["code"]
        host = Client(srv, code, "host", made["host_token"])
        for _ in range(4):
            host.state_where(lambda s: s["host"]["dice_request"] is not None)
            host.send({"type": "dice", "values": "1"})
            host.until(lambda m: m["type"] == "ack")
        host.state_where(lambda s: s["ready"])
        host.send({"type": "start"})  # bots everywhere: G1 places his bunkers, then the landings ask for dice
        asked = host.state_where(lambda s: (s["host"]["dice_request"] or {}).get("purpose", "").startswith("landing"))
        assert asked["host"]["dice_request"]["purpose"].startswith("landing A1")
        srv.kill()
        srv.start()
        host = Client(srv, code, "host", made["host_token"])
        state = host.state_where(lambda s: s["ready"] and s["host"]["dice_request"] is not None)
        assert [row[1] for row in state["tables"][-1]["rows"]] == [0, 0, 0, 0]  # the typed setup rolls kept
        assert state["host"]["dice_request"]["purpose"].startswith("landing A1")  # the bot's move, asked again
        host.send({"type": "dice", "values": "4"})
        host.until(lambda m: m["type"] == "ack" and m.get("dice") == [4])
    finally:
        srv.stop()


def test_b17_solo_fly_by_numbers(server: ServerProcess) -> None:
    """A solo B-17 game: one person flies the fighters, the bots fly the bombers. The move as distance and
    turn: a preview (the path, the 4" rings, the exact odds, a picture), a refused move naming its rule,
    then a legal move that is taken."""
    status, made = call(server.url + "/api/rooms", {"ruleset": "b17", "options": {}})
    assert status == 200, made
    code = made["code"]
    host = Client(server, code, "host", made["host_token"])
    host.state_where(lambda s: s["status"] == "lobby" and s["ready"])
    pilot = join(server, code, "Hans", "german")
    assert pilot["seats"] == ["German"]
    host.send({"type": "settings", "fill_bots": True})
    host.until(lambda m: m["type"] == "ack")
    host.send({"type": "start"})
    host.until(lambda m: m["type"] == "ack")
    hans = Client(server, code, "player", pilot["token"])
    state = hans.state_where(lambda s: bool(s["decisions"]), timeout=30)
    decision = state["decisions"][0]
    label = decision["id"].split()[1]
    assert decision["id"] == f"move {label}" and label.startswith("F")
    forms = {f["verb"]: f for f in decision["forms"]}
    assert set(forms) >= {"fly", "fly to"}
    fly = {f["name"]: f for f in forms["fly"]["fields"]}
    assert fly["straight"]["min"] == 6 and fly["turn"]["max"] == 180
    assert label in {r[0] for r in state["tables"][0]["rows"] if r[3] == "yes"}  # own aircraft marked
    assert not {r[0] for r in state["tables"][0]["rows"] if r[3] == "yes" and r[0].startswith("B")}
    before = state["version"]
    # a preview: legal, where it ends, the exact odds, the path and the rings to draw (inches), no picture
    length = fly["straight"]["max"]
    hans.send({"type": "preview", "action": f"fly {label} {length:g} 0", "n": 1})
    preview = hans.until(lambda m: m["type"] == "preview")
    assert preview["legal"] is True and "ends at" in preview["note"], preview
    assert preview["odds"] == "no dice"
    assert "svg" not in preview and len(preview["drawn"]["path"]) >= 2
    assert all(ring["r"] == 4.0 for ring in preview["drawn"]["rings"])
    # a refused move: too short a straight (b17.25), in the preview and on commit; nothing changes
    hans.send({"type": "preview", "action": f"fly {label} 2 45", "n": 2})
    bad = hans.until(lambda m: m["type"] == "preview")
    assert bad["legal"] is False and "b17." in bad["problem"] and "drawn" not in bad
    hans.send({"type": "act", "action": f"fly {label} 2 45", "n": 3})
    refused = hans.until(lambda m: m["type"] == "refused")
    assert refused["code"] == "illegal" and "b17." in refused["message"]
    assert hans.state["version"] == before
    # a legal move by numbers: taken, and the fighter has moved
    hans.send({"type": "act", "action": f"fly {label} {length:g} 0", "n": 4})
    hans.until(lambda m: m["type"] == "ack" and m["n"] == 4)
    moved = hans.state_where(
        lambda s: s["version"] > before and f"move {label}" not in [d["id"] for d in s["decisions"]]
    )
    assert moved["status"] in ("playing", "over")
    for c in (host, hans):
        c.close()


def test_a_refused_name_or_address_says_what_is_wrong_in_the_refusal_shape(tmp_path: Path) -> None:
    """A name too long is refused with the limit a name has (32 characters, the one the cleaned name is held
    to), however long it is; the message is the reason alone (no pydantic 'Value error,'); a step or address
    that is not a number is refused in the same shape as every other refusal (type, code, message), not
    FastAPI's own {"detail": [...]}. (A server of its own: joins are rate limited per address.)"""
    with ServerProcess(tmp_path) as server:
        code = make_room(server)["code"]
        for length in (33, 65, 500):
            status, answer = call(server.url + f"/api/rooms/{code}/join", {"name": "y" * length})
            assert status == 422 and answer["code"] == "malformed", answer
            assert answer["message"] == "malformed message: name: a name has at most 32 characters", answer
        status, answer = call(server.url + f"/api/rooms/{code}/join", {"name": "   "})
        assert status == 422
        assert answer["message"] == "malformed message: name: a name needs at least one visible character", answer
        status, answer = call(server.url + f"/api/rooms/{code}/join", {"name": ""})
        assert status == 422
        assert answer["message"] == "malformed message: name: a name needs at least one visible character", answer
        assert join(server, code, "  Ann   Lee ")["seats"]  # squeezed to 'Ann Lee', 7 characters
        status, answer = call(server.url + f"/api/rooms/{code}/replay/abc")
        assert status == 422 and answer.get("type") == "refused" and answer["code"] == "malformed", answer
        assert "n" in answer["message"] and "integer" in answer["message"], answer


def test_a_bot_for_a_side_names_what_is_wrong_and_changes_nothing(server: ServerProcess) -> None:
    """The host's bot for a side: a side the game lacks and a bot it lacks are each named (it said "no side
    'german' or bot 'nonsense'" of a side that is there); the refused settings change nothing, in part or whole."""
    made = make_room(server)
    host = Client(server, made["code"], "host", made["host_token"])
    before = host.state_where(lambda s: "host" in s)
    bad = {"american": "random", "german": "nonsense"}
    host.send({"type": "settings", "fill_bots": False, "timer": 30, "bot_names": bad})
    refused = host.until(lambda m: m["type"] == "refused")
    assert refused["code"] == "bad_bot" and refused["message"].startswith(
        "bot_names: no bot level 'nonsense' in omaha; the levels, weakest first: beginner, book, normal, hard"
    )
    host.send({"type": "settings", "bot_names": {"martian": "doctrine"}})
    refused = host.until(lambda m: m["type"] == "refused")
    assert refused["message"] == "bot_names: no side 'martian'; sides: american, german", refused
    host.send({"type": "settings", "on_timeout": "bot"})  # a settings that changes nothing: the state as it stood
    host.until(lambda m: m["type"] == "ack" and m.get("op") == "settings")
    after = host.state_where(lambda s: "host" in s)
    assert after["host"]["bot_names"] == before["host"]["bot_names"] == {"american": "book", "german": "book"}
    assert after["timer"]["seconds"] == before["timer"]["seconds"] == 0
    assert after["host"]["fill_bots"] == before["host"]["fill_bots"]
    host.close()


def test_an_order_for_a_seat_that_is_not_ones_own_names_the_seat(server: ServerProcess) -> None:
    """An order sent for another seat, or for a seat the game lacks, is refused naming that seat and the
    player's own (it said 'you owe no decision now' while the player's own seat owed one); nothing is played."""
    status, made = call(
        server.url + "/api/rooms",
        {"ruleset": "omaha", "options": {"germans": 1}, "solo": {"name": "Al", "side": "american"}},
    )
    assert status == 200, made
    al = Client(server, made["code"], "player", made["token"])
    # the game stands on Al's decision once the bots of the other seats have answered theirs (a state taken before,
    # while a bot still played, failed under load: the state's version went on, 5 == 4)
    state = al.state_where(lambda s: bool(s["decisions"]) and not any(x["owes"] and x["bot"] for x in s["seats"]))
    assert made["seats"] == ["American 1"]
    for seat in ("German 1", "American 9"):
        al.send({"type": "act", "action": "hold A1", "seat": seat, "n": 1})
        refused = al.until(lambda m: m["type"] == "refused")
        assert refused["code"] == "not_yours", refused
        assert refused["message"] == f"hold A1: the seat {seat!r} is not yours (yours: American 1)", refused
    assert al.state is not None and al.state["step"] == state["step"]  # nothing was played
    assert al.state["decisions"] == state["decisions"]
    al.send({"type": "act", "action": "hold A1", "seat": "American 1", "n": 2})
    assert al.until(lambda m: m["type"] in ("ack", "refused"))["type"] == "ack"
    al.close()


def test_a_solo_game_is_made_at_the_level_asked_and_an_unknown_level_is_one_line(server: ServerProcess) -> None:
    """``level`` with a new game puts every side's bots at that ladder level (the host may change it); an
    unknown level is refused naming the levels, before any room is made; /api/rulesets lists each rule
    set's levels with their lines (issue 29, items 1 and 5)."""
    from grognard.bots import ladder

    omaha = rulesets.get("omaha")
    status, refused = call(
        server.url + "/api/rooms",
        {"ruleset": "omaha", "options": {"germans": 1}, "solo": {"name": "Ann", "side": "american"}, "level": "x"},
    )
    assert status == 400 and refused["code"] == "bad_bot", refused
    assert refused["message"] == f"level: {ladder.unknown_bot(omaha, 'x')}"
    assert refused["message"].startswith("level: no bot level 'x' in omaha; the levels, weakest first: beginner, book")
    made = make_room(server, solo={"name": "Ann", "side": "american"}, level="hard")
    host = Client(server, made["code"], "host", made["host_token"])
    state = host.state_where(lambda s: "host" in s)
    assert state["host"]["bot_names"] == {"american": "hard", "german": "hard"}
    assert state["host"]["bots"] == ["beginner", "book", "normal", "hard"]
    assert state["host"]["bot_notes"]["hard"] == omaha.bot_notes["hard"]
    assert state["host"]["bot_notes"]["doctrine"] == ladder.OLDER_NOTES["doctrine"]
    for level in ("book", "normal", "search:hard"):  # every level and older name a seat's bot may be
        host.send({"type": "bot", "seat": "German 1", "bot": level})
        host.until(lambda m: m["type"] == "ack" and m.get("op") == "bot")
    host.send({"type": "bot", "seat": "German 1", "bot": "grandmaster"})
    refused = host.until(lambda m: m["type"] == "refused")
    assert refused["message"] == f"bot: {ladder.unknown_bot(omaha, 'grandmaster')}"
    host.send({"type": "end"})  # no bot thinks on in the server after the test
    host.until(lambda m: m["type"] == "ack" and m.get("op") == "end")
    host.close()
    status, listed = call(server.url + "/api/rulesets")
    assert status == 200
    levels = {r["name"]: r["levels"] for r in listed}
    assert levels["b17"] == [
        {"name": n, "note": ladder.note(rulesets.get("b17"), n)} for n in ladder.levels(rulesets.get("b17"))
    ]


def test_a_room_s_bots_commit_to_a_plan_and_reveal_it_when_the_host_ends_the_game(server: ServerProcess) -> None:
    """The host's plan option (issue 31, item 1): the record gets the plan line after the start line and the
    reveal after the host's end line; a player's messages before the end never say the plan; an unknown plan
    is refused in one line listing the plans, before any room is made."""
    from grognard.core import plans

    status, refused = call(server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 1, "plan": "x"}})
    assert status == 400, refused
    assert refused["message"] == ("plan=x: no plan 'x'; the plans: german: concentrate, wall-and-landings (or random)")
    with urllib.request.urlopen(server.url + "/") as page:  # the host's choice on the home page, a rule set each
        assert page.read().decode().count('data-option="plan"') == 3
    made = make_room(server, options={"germans": 1, "plan": "random"})
    code = made["code"]
    pj = join(server, code, "Ann", "american")
    player = Client(server, code, "player", pj["token"])
    host = Client(server, code, "host", made["host_token"])
    host.send({"type": "start"})
    player.until(lambda m: m["type"] == "events" and m["step"] >= 2, timeout=30)
    host.send({"type": "end"})
    host.state_where(lambda s: s["status"] == "ended")
    heard = json.dumps(player.messages)
    player.close()
    host.close()
    status, text = call(server.url + f"/api/rooms/{code}/record", headers={"X-Host-Token": made["host_token"]})
    assert status == 200
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[2]["type"] == "plan" and lines[2]["side"] == "german"
    assert [line["type"] for line in lines[-2:]] == ["end", "reveal"]
    rebuilt = replay(lines, rulesets.get)
    assert rebuilt.plans["german"]["revealed"] == len(lines)
    plan = next(p for p in plans.offered(rulesets.get("omaha"), rebuilt.game)["german"] if p.name == lines[-1]["plan"])
    for secret in (plan.name, plan.description, lines[-1]["salt"]):
        assert secret not in heard
        assert secret not in json.dumps(lines[:-1])
