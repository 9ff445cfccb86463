"""The host starts a skirmish game on `grognard serve`: a shipped scenario or one's own TOML uploaded.

Against the real server process (``grognard.web.testing.ServerProcess``) and its SQLite database read
through SQLAlchemy: a bad file lists every problem as the CLI does and makes no room; a good one is kept
in the record's header (``embedded``), so the game replays and resumes from it after a restart.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import connect

from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR
from grognard.web.testing import ServerProcess, call, receive

STREET = (SCENARIOS_DIR / "village_street.toml").read_text(encoding="utf-8")
OWN = STREET.replace('title = "', 'title = "Our own street: ', 1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("skirmish-start")) as srv:
        yield srv


def rooms(srv: ServerProcess) -> int:
    with create_engine(srv.db).connect() as db:
        return int(db.execute(text("select count(*) from grognard_rooms")).scalar_one())


def header(srv: ServerProcess, code: str) -> dict[str, Any]:
    with create_engine(srv.db).connect() as db:
        row = db.execute(
            text(
                "select l.text from grognard_lines l join grognard_rooms r on r.id = l.room_id "
                "where r.code = :code order by l.n limit 1"
            ),
            {"code": code},
        ).scalar_one()
    return dict(json.loads(row))


def page(srv: ServerProcess, code: str, role: str, token: str | None) -> Any:
    ws = connect(f"{srv.ws_url}/ws/{code}").__enter__()
    ws.send(json.dumps({"type": "hello", "role": role, "token": token}))
    return ws


def state_where(ws: Any, test: Any, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = receive(ws, timeout=max(0.1, deadline - time.monotonic()))
        if message["type"] == "state" and test(message):
            return message
    raise AssertionError("no state matched")


def cli_problems(path: Path) -> list[str]:
    """The problems ``grognard play skirmish FILE`` lists for a bad file (its error's indented lines)."""
    done = subprocess.run(
        [sys.executable, "-m", "grognard.cli", "play", "skirmish", str(path), "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    return [line.strip() for line in (done.stdout + done.stderr).splitlines() if line.startswith("  ")]


def test_a_bad_file_lists_every_problem_and_makes_nothing(server: ServerProcess, tmp_path: Path) -> None:
    bad = re.sub(r"(?m)^width = .*$", "width = -4", OWN, count=1).replace("[victory]", "[victory]\nbogus = 1", 1)
    (tmp_path / "bad_street.toml").write_text(bad, encoding="utf-8")
    before = rooms(server)
    status, answer = call(
        server.url + "/api/rooms",
        {"ruleset": "skirmish", "upload": {"name": "C:\\maps\\bad street.toml", "text": bad}},
    )
    assert status == 400 and answer["code"] == "scenario"
    listed = [line.strip() for line in answer["message"].splitlines()[1:]]
    assert listed == cli_problems(tmp_path / "bad_street.toml") and len(listed) >= 2
    assert answer["message"].startswith("bad_street.toml: ")  # the file's own name, not its folder
    assert rooms(server) == before


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"text": "title = 'x'\n[[[broken"}, "not TOML"),
        (
            {"text": OWN.replace('tables = "default"', 'tables = "/etc/passwd"')},
            "an uploaded scenario plays on the default tables",
        ),
        ({"ruleset": "omaha", "text": OWN}, "take no file of one's own"),
    ],
)
def test_refused_uploads_make_nothing(server: ServerProcess, body: dict[str, Any], why: str) -> None:
    before = rooms(server)
    ruleset = body.pop("ruleset", "skirmish")
    status, answer = call(server.url + "/api/rooms", {"ruleset": ruleset, "upload": {"name": "x.toml", **body}})
    assert status == 400 and why in answer["message"], answer
    assert rooms(server) == before


def test_a_scenario_with_a_byte_order_mark_is_taken_and_kept_without_it(server: ServerProcess) -> None:
    """A file an editor saved with a UTF-8 byte order mark, sent as it is (a page or program that does not strip
    it): the game is made (it was refused, 'not TOML: Invalid statement (at line 1, column 1)'), and the record
    keeps the text without the mark, as the CLI's copy of a file does."""
    status, made = call(
        server.url + "/api/rooms", {"ruleset": "skirmish", "upload": {"name": "bom.toml", "text": "\ufeff" + OWN}}
    )
    assert status == 200, made
    assert header(server, made["code"])["embedded"]["scenario"]["toml"] == OWN


def test_a_scenario_of_twenty_kilobytes_with_its_comments_is_taken(server: ServerProcess) -> None:
    """A teacher's file, its every line explained, is three times a shipped one (past one request body's
    16 kB): the new game's request has room for it; a file past the upload's own limit is refused in one line."""
    note = "# for the class: where each unit starts, why the wall is there, what the objective means\n"
    noted = note * (20_000 // len(note) + 1) + OWN  # 20 kB and more
    before = rooms(server)
    status, made = call(
        server.url + "/api/rooms", {"ruleset": "skirmish", "upload": {"name": "noted.toml", "text": noted}}
    )
    assert status == 200, made
    assert rooms(server) == before + 1
    huge = noted * 8  # past MAX_UPLOAD
    status, answer = call(
        server.url + "/api/rooms", {"ruleset": "skirmish", "upload": {"name": "huge.toml", "text": huge}}
    )
    assert status == 422 and "\n" not in answer["message"] and "upload.text" in answer["message"], answer
    assert rooms(server) == before + 1


def test_a_shipped_scenario_two_people_on_two_devices(server: ServerProcess) -> None:
    status, made = call(
        server.url + "/api/rooms", {"ruleset": "skirmish", "options": {"scenario": "village_street", "turn_limit": 3}}
    )
    assert status == 200, made
    code = made["code"]
    allies = call(server.url + f"/api/rooms/{code}/join", {"name": "Ann", "side": "allies"})[1]
    axis = call(server.url + f"/api/rooms/{code}/join", {"name": "Axel", "side": "axis"})[1]
    assert (allies["seats"], axis["seats"]) == (["Allies"], ["Axis"])
    host = page(server, code, "host", made["host_token"])
    state_where(host, lambda s: s["status"] == "lobby")
    host.send(json.dumps({"type": "settings", "fill_bots": False}))
    host.send(json.dumps({"type": "start"}))
    ann, axel = page(server, code, "player", allies["token"]), page(server, code, "player", axis["token"])
    first = state_where(ann, lambda s: s["status"] == "playing" and "decisions" in s)
    other = state_where(axel, lambda s: s["status"] == "playing" and "decisions" in s)
    owed = [d for s in (first, other) for d in s["decisions"]]
    assert owed, "one side owes the first move"
    assert header(server, code)["options"]["turn_limit"] == 3 and "embedded" not in header(server, code)
    for ws in (host, ann, axel):
        ws.close()


def test_an_uploaded_scenario_is_kept_and_resumes_after_a_restart(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path).start()
    try:
        status, made = call(
            srv.url + "/api/rooms",
            {
                "ruleset": "skirmish",
                "options": {"scenario": "hill_assault", "turn_limit": 4},
                "upload": {"name": "our street.toml", "text": OWN},
                "solo": {"name": "Sol", "side": "allies"},
            },
        )
        assert status == 200, made
        code = made["code"]
        kept = header(srv, code)
        assert kept["options"]["scenario"] == "our_street.toml" and kept["options"]["turn_limit"] == 4
        assert kept["embedded"]["scenario"]["toml"] == OWN
        ws = page(srv, code, "player", made["token"])
        seen = state_where(ws, lambda s: bool(s.get("decisions")))
        assert "Our own street" in json.dumps(seen["figures"])
        ws.close()
        srv.kill()
        srv.start()  # the record alone makes the game again: the uploaded text, not any file
        ws = page(srv, code, "player", made["token"])
        again = state_where(ws, lambda s: bool(s.get("decisions")))
        assert "Our own street" in json.dumps(again["figures"]) and again["you"]["seats"] == ["Allies"]
        decision = again["decisions"][0]
        ws.send(json.dumps({"type": "act", "action": f"hold {decision['id'].split()[-1]}", "n": 7}))
        deadline = time.monotonic() + 30
        while True:  # it plays on after the restart
            message = receive(ws, timeout=deadline - time.monotonic())
            if message["type"] in ("ack", "refused") and message.get("n") == 7:
                break
        assert message["type"] == "ack", message
        ws.close()
    finally:
        srv.stop()
