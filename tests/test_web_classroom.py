"""The classroom's fairness and privacy against the real server (issue 28, items 11, 12, 15).

Who is winning is the host's choice (off, the projector only, everyone; from a turn), stored with the room:
a page not shown it is sent no estimate at all (the WebSocket frames are read, not only the page). A game
the host ends has an end line in its record, which the replay viewer reads as "ended by the host".
Rooms and their records are deleted after their retention, or at once by the host.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grognard import rulesets
from grognard.core.record import replay
from grognard.web.testing import ServerProcess, call
from test_web_skirmish_melee import Page


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path) as srv:
        yield srv


def make_room(srv: ServerProcess, **body: Any) -> dict[str, Any]:
    status, made = call(srv.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 1}, **body})
    assert status == 200, made
    return dict(made)


def join(srv: ServerProcess, code: str, name: str, side: str) -> dict[str, Any]:
    status, joined = call(srv.url + f"/api/rooms/{code}/join", {"name": name, "side": side})
    assert status == 200, joined
    return dict(joined)


def sent_odds(page: Page) -> list[Any]:
    """Every estimate the page was sent: the ``odds`` of its whole states and of its patches."""
    with page.lock:
        frames = [json.loads(text) for text in page.frames]
    found = []
    for frame in frames:
        if frame["type"] == "state" and "odds" in frame:
            found.append(frame["odds"])
        elif frame["type"] == "patch":
            for part in ("set", "change"):
                if "odds" in (frame.get(part) or {}):
                    found.append(frame[part]["odds"])
    return found


def settings(host: Page, **values: Any) -> dict[str, Any]:
    """The host saves settings; the host's state once they are in it."""
    host.send({"type": "settings", **values})
    return host.wait(lambda s: all(s["host"].get(k) == v for k, v in values.items()))


def test_who_is_winning_is_the_hosts_choice_and_a_page_not_shown_it_is_sent_none(server: ServerProcess) -> None:
    made = make_room(server)
    code = made["code"]
    ann, gerda = join(server, code, "Ann", "american"), join(server, code, "Gerda", "german")
    host = Page(server, code, "host", made["host_token"])
    first = host.wait(lambda s: "host" in s and s["ready"])
    # a class's room: the projector only, from turn 3 (the game stands at turn 0: nobody yet)
    assert (first["host"]["odds_shown"], first["host"]["odds_from"], first["turn"]) == ("projector", 3, 0)
    projector_token = first["host"]["projector_url"].split("#", 1)[1]
    projector = Page(server, code, "projector", projector_token)
    spectator = Page(server, code, "projector", None)  # a pupil opening the projector page with the code alone
    pupils = [Page(server, code, "player", ann["token"]), Page(server, code, "player", gerda["token"])]
    pages = [host, projector, spectator, *pupils]
    try:
        for page in pages:
            page.wait(lambda s: s.get("ready"))
        time.sleep(1.0)
        assert all(not sent_odds(page) for page in pages)  # turn 0 < 3: no page, the host's neither
        # from turn 0 on the projector: the host and the projector opened from its link are shown it
        settings(host, odds_from=0)
        for page in (host, projector):
            page.wait(lambda s: s.get("odds") is not None, timeout=90)
        assert projector.state["odds"]["own"] is False and "curve" in projector.state["odds"]
        time.sleep(1.0)
        for page in (spectator, *pupils):  # never a frame with an estimate, not only a page that hides it
            assert not sent_odds(page), page.frames[-3:]
        # everyone: each pupil his own seat's estimate, the spectator the public one
        settings(host, odds_shown="everyone")
        for page in pupils:
            page.wait(lambda s: s.get("odds") is not None and s["odds"]["own"] is True, timeout=90)
        spectator.wait(lambda s: s.get("odds") is not None and s["odds"]["own"] is False, timeout=90)
        # off: taken back from every page, the host's included
        settings(host, odds_shown="off")
        for page in pages:
            page.wait(lambda s: "odds" not in s)
    finally:
        for page in pages:
            page.close()


def test_the_choice_is_kept_with_the_room_through_a_restart(server: ServerProcess) -> None:
    made = make_room(server)
    code = made["code"]
    host = Page(server, code, "host", made["host_token"])
    try:
        host.wait(lambda s: "host" in s)
        settings(host, odds_shown="everyone", odds_from=5)
        host.send({"type": "settings", "odds_shown": "somebody"})  # refused as it stands: nothing changes
        time.sleep(0.5)
        assert any('"code":"malformed"' in frame and "odds_shown" in frame for frame in host.frames)
    finally:
        host.close()
    server.kill()
    server.start()
    host = Page(server, code, "host", made["host_token"])
    try:
        kept = host.wait(lambda s: "host" in s)
        assert (kept["host"]["odds_shown"], kept["host"]["odds_from"]) == ("everyone", 5)
    finally:
        host.close()


def test_a_solo_game_shows_its_player_who_is_winning_from_the_start(server: ServerProcess) -> None:
    made = make_room(server, solo={"name": "Al", "side": "american"})
    al = Page(server, made["code"], "player", made["token"])
    try:
        al.wait(lambda s: s.get("odds") is not None and s["odds"]["own"] is True, timeout=90)
    finally:
        al.close()


def test_a_game_the_host_ends_has_an_end_line_the_replay_reads(server: ServerProcess) -> None:
    made = make_room(server)
    code = made["code"]
    host = Page(server, code, "host", made["host_token"])
    try:
        host.wait(lambda s: "host" in s)
        host.send({"type": "start"})  # every seat a bot's: the game plays itself
        playing = host.wait(lambda s: s["host"]["steps"] >= 3 and s["status"] == "playing", timeout=60)
        assert playing["status"] == "playing"
        host.send({"type": "end"})
        ended = host.wait(lambda s: s["status"] == "ended")
        host.send({"type": "undo"})  # the record is closed: refused, nothing taken back
        host.wait(lambda s: True)
        time.sleep(0.5)
        assert any('"code":"ended"' in frame for frame in host.frames)
    finally:
        host.close()
    status, text = call(server.url + f"/api/rooms/{code}/record", headers={"X-Host-Token": made["host_token"]})
    assert status == 200
    lines = [json.loads(line) for line in text.splitlines()]
    end = lines[-1]
    assert end["type"] == "end" and end["by"] == "host" and end["standing"]
    rebuilt = replay(lines, rulesets.get)  # every digest checked, the end line's too
    assert rebuilt.ended == end and rebuilt.game.turn == end["turn"] == ended["turn"]
    status, outline = call(server.url + f"/api/rooms/{code}/replay")
    assert status == 200 and outline["result"] is None
    assert outline["ended"].startswith(f"Ended by the host on turn {end['turn']} (")
    status, last = call(server.url + f"/api/rooms/{code}/replay/{outline['steps'] - 1}")
    assert last["order"] == {"seat": "the host", "text": "ends the game"} and last["ended"] == outline["ended"]
    # the room comes back from its record after a restart, the end line and all
    server.kill()
    server.start()
    status, again = call(server.url + f"/api/rooms/{code}/record", headers={"X-Host-Token": made["host_token"]})
    assert status == 200 and again == text


def _rooms(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [code for (code,) in conn.execute("select code from grognard_rooms")]


def _lines(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("select count(*) from grognard_lines").fetchone()[0])


def test_rooms_past_their_retention_are_deleted_with_their_records_when_the_server_starts(
    server: ServerProcess,
) -> None:
    db = server.folder / "games.sqlite3"
    old, short, fresh = make_room(server), make_room(server), make_room(server)
    host = Page(server, short["code"], "host", short["host_token"])
    try:
        settings(host, retention_days=2)  # the host keeps this one 2 days only
        host.send({"type": "settings", "retention_days": 31})  # more than the server's 30: refused
        host.wait(lambda s: True)
        time.sleep(0.5)
        assert any('"code":"retention"' in f and "at most 30 days" in f for f in host.frames), host.frames[-2:]
        assert host.state["host"]["retention_days"] == 2 and host.state["host"]["expires"] is not None
    finally:
        host.close()
    server.stop()
    day = 86400
    with sqlite3.connect(db) as conn:  # as if made long ago: 31 days (the server's 30 passed), 3 days (the host's 2)
        conn.execute("update grognard_rooms set created = created - ? where code = ?", (31 * day, old["code"]))
        conn.execute("update grognard_rooms set created = created - ? where code = ?", (3 * day, short["code"]))
    before = _lines(db)
    server.start()
    assert sorted(_rooms(db)) == [fresh["code"]]
    assert 0 < _lines(db) < before  # the deleted rooms' records went with them: no line of theirs is left
    for made in (old, short):
        assert call(server.url + f"/play/{made['code']}")[0] == 404
    assert call(server.url + f"/play/{fresh['code']}")[0] == 200


def test_a_running_server_deletes_a_room_when_its_time_is_over(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, args=("--retention", "0.0001")) as srv:  # 8.64 seconds
        made = make_room(srv)
        host = Page(srv, made["code"], "host", made["host_token"])
        try:
            host.wait(lambda s: "host" in s)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not any('"type":"bye"' in f for f in host.frames):
                time.sleep(0.2)
            assert any("its time on this server is over" in f for f in host.frames), host.frames[-2:]
        finally:
            host.close()
        assert _rooms(srv.folder / "games.sqlite3") == [] and _lines(srv.folder / "games.sqlite3") == 0
        assert call(srv.url + f"/host/{made['code']}")[0] == 404


def test_the_host_deletes_a_game_under_way_at_once(server: ServerProcess) -> None:
    made = make_room(server)
    code = made["code"]
    ann = join(server, code, "Ann", "american")
    host, pupil = Page(server, code, "host", made["host_token"]), Page(server, code, "player", ann["token"])
    try:
        host.wait(lambda s: "host" in s)
        host.send({"type": "start"})
        host.wait(lambda s: s["status"] == "playing" and s["host"]["steps"] >= 1, timeout=60)
        wrong = call(server.url + f"/api/rooms/{code}", method="DELETE", headers={"X-Host-Token": "x" * 32})
        assert wrong[0] == 403
        status, answer = call(
            server.url + f"/api/rooms/{code}", method="DELETE", headers={"X-Host-Token": made["host_token"]}
        )
        assert (status, answer) == (200, {"deleted": code})
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any("the game was deleted" in f for f in pupil.frames):
            time.sleep(0.1)
        assert any("the game was deleted" in f for f in pupil.frames)
    finally:
        host.close()
        pupil.close()
    time.sleep(1.0)  # a bot's move under way when it was deleted is not stored after it
    db = server.folder / "games.sqlite3"
    assert _rooms(db) == [] and _lines(db) == 0
    assert call(server.url + f"/play/{code}")[0] == 404


def test_serve_refuses_a_retention_that_keeps_nothing_or_for_ever(tmp_path: Path) -> None:
    from terminal_driver import error_line, run_cli

    for days in ("0", "-3", "nan", "100000"):
        done = run_cli("serve", "--retention", days, "--db", f"sqlite:///{tmp_path / 'g.sqlite3'}")
        said = error_line(done)
        if days == "nan":  # not a number at all: the one number reader of every flag refuses it (docs/terminal.md)
            assert said.startswith("error: Invalid value for '--retention': 'nan' is not a number"), done.stderr
        else:
            assert said.startswith(f"error: --retention {days}: the days"), done.stderr


def test_serve_refuses_odds_playouts_of_none_or_too_many(tmp_path: Path) -> None:
    """``serve --odds-playouts N`` (or $GROGNARD_ODDS_PLAYOUTS): 1 to MAX_PLAYOUTS, else one line, exit 2."""
    from grognard.web.odds import MAX_PLAYOUTS
    from terminal_driver import error_line, run_cli

    db = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    for n in ("0", str(MAX_PLAYOUTS + 1)):
        done = run_cli("serve", "--odds-playouts", n, "--db", db)
        assert done.returncode == 2 and error_line(done) == (
            f"error: --odds-playouts {n}: the games played out for each estimate of who is winning, 1 to {MAX_PLAYOUTS}"
        ), done.stderr
    done = run_cli("serve", "--odds-playouts", "many", "--db", db)
    assert done.returncode == 2 and error_line(done).startswith("error: Invalid value for '--odds-playouts'")
