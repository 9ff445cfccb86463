"""Nothing acknowledged is lost, against a real server process killed with SIGKILL and restarted, on SQLite and on
PostgreSQL alike (the ``database`` fixture: PostgreSQL where ``$GROGNARD_TEST_PG_URL`` names one).

An order sent twice with one client id is one record line (the second answer is the first's ack),
also after a restart; the referee's typed rolls of an order half rolled are kept through a restart
(the restarted game asks only for the rest); the phase timer keeps its deadline through a restart.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import conftest
from grognard.web.testing import ServerProcess
from test_web_api import Client, join, make_room


def stored_lines(srv: ServerProcess) -> list[dict[str, Any]]:
    return conftest.stored_lines(srv.db)


def lines_of(srv: ServerProcess, seat: str) -> list[dict[str, Any]]:
    return [line for line in stored_lines(srv) if line.get("type") == "action" and line.get("seat") == seat]


def test_an_order_sent_twice_is_applied_once_even_after_a_restart(tmp_path: Path, database: str) -> None:
    srv = ServerProcess(tmp_path, db=database).start()
    try:
        made = make_room(srv)
        code = made["code"]
        p = join(srv, code, "Dana", "american")
        host = Client(srv, code, "host", made["host_token"])
        host.send({"type": "start"})
        host.until(lambda m: m["type"] == "ack")
        dana = Client(srv, code, "player", p["token"])
        first = dana.state_where(lambda s: bool(s["decisions"]))
        move = next(c["text"] for c in first["decisions"][0]["choices"] if c["text"].startswith("move"))
        order = {"type": "act", "action": move, "client": "order-0001-dana"}
        dana.send({**order, "n": 1})
        ack = dana.until(lambda m: m["type"] in ("ack", "refused") and m["n"] == 1)
        assert ack["type"] == "ack" and ack["client"] == "order-0001-dana"
        dana.send({**order, "n": 2})  # the page did not hear the answer: the same order again
        again = dana.until(lambda m: m["type"] in ("ack", "refused") and m["n"] == 2)
        assert again == {**ack, "n": 2}  # the first answer, not a refusal
        assert [line["action"] for line in lines_of(srv, "American 1")] == [move]
        srv.kill()
        srv.start()
        dana = Client(srv, code, "player", p["token"])
        dana.state_where(lambda s: s.get("ready"))
        dana.send({**order, "n": 3})  # and again after a restart: the dedupe was stored with the line
        after = dana.until(lambda m: m["type"] in ("ack", "refused") and m["n"] == 3)
        assert after == {**ack, "n": 3}
        assert [line["action"] for line in lines_of(srv, "American 1")] == [move]
    finally:
        srv.stop()


def test_a_bad_client_id_is_refused_naming_the_field(tmp_path: Path) -> None:
    with ServerProcess(tmp_path) as srv:
        made = make_room(srv)
        p = join(srv, made["code"], "Eli", "american")
        eli = Client(srv, made["code"], "player", p["token"])
        eli.send({"type": "act", "action": "hold A1", "client": "no spaces!", "n": 1})
        refused = eli.until(lambda m: m["type"] == "refused")
        assert refused["code"] == "malformed" and "client" in refused["message"]


def answer_dice(host: Client, values: str) -> dict[str, Any]:
    """Type ``values`` for the roll asked now; the ack (stored before it is sent)."""
    host.send({"type": "dice", "values": values})
    return host.until(lambda m: m["type"] in ("ack", "refused") and m.get("n") is None)


def asked(host: Client, test: Any = lambda r: True, timeout: float = 20) -> dict[str, Any]:
    state = host.state_where(
        lambda s: s["host"]["dice_request"] is not None and test(s["host"]["dice_request"]), timeout
    )
    return dict(state["host"]["dice_request"])


def test_typed_setup_rolls_survive_a_sigkill(tmp_path: Path, database: str) -> None:
    """Two of the setup's four rolls typed and acknowledged, then kill -9: the restart asks for the third."""
    srv = ServerProcess(tmp_path, db=database).start()
    try:
        made = make_room(srv, dice="manual")
        code = made["code"]
        host = Client(srv, code, "host", made["host_token"])
        purposes: list[str] = []
        for value in ("2", "5"):
            purposes.append(asked(host, lambda r: r["purpose"] not in purposes)["purpose"])
            assert answer_dice(host, value) == {"type": "ack", "n": None, "dice": [int(value)]}
        third = asked(host, lambda r: r["purpose"] not in purposes)
        srv.kill()
        srv.start()
        host = Client(srv, code, "host", made["host_token"])
        request = asked(host)
        assert request["purpose"] == third["purpose"] != purposes[0]  # not the first roll again
        assert request["kept"] == [{"purpose": purposes[0], "values": [2]}, {"purpose": purposes[1], "values": [5]}]
        assert request["for"] == "the game's setup"
        answer_dice(host, "1")
        asked(host, lambda r: r["purpose"] != third["purpose"])
        answer_dice(host, "6")
        host.state_where(lambda s: s["ready"])
        start = stored_lines(srv)[1]
        assert [e["values"] for e in start["events"] if e.get("kind") == "dice"] == [[2], [5], [1], [6]]
    finally:
        srv.stop()


def _until_artillery(host: Client, german: Client) -> str:
    """Play a referee's game (every die typed as 3, the German's first choice) until the German
    may order an artillery strike; that order's text. A state read after an answer is fresh."""
    host_fresh = True
    need_step = 0  # the German's state shows his last order once its step is this
    waiting = False  # the German's order not yet answered
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for name, client in (("host", host), ("german", german)):
            try:
                message = client.recv(0.05)
            except TimeoutError:
                continue
            if name == "host" and message["type"] == "state":
                host_fresh = True
            elif name == "german" and message["type"] in ("ack", "refused"):
                assert message["type"] == "ack", message
                waiting, need_step = False, message["step"]
        request = host.state["host"]["dice_request"] if host.state else None
        if request is not None and host_fresh:
            answer_dice(host, " ".join("3" for _ in range(request["n"])))
            host_fresh = False
        state = german.state
        if state is not None and state["decisions"] and state["step"] >= need_step and not waiting:
            texts = [c["text"] for c in state["decisions"][0]["choices"]]
            strike = next((t for t in texts if t.startswith("artillery")), None)
            if strike is not None:
                return strike
            german.send({"type": "act", "action": texts[0], "n": 9})
            waiting = True
    last = (host.state or {}).get("host", {}).get("dice_request"), (german.state or {}).get("decisions")
    raise AssertionError(f"the German was never offered an artillery strike: {last}, {german.messages[-3:]}")


def test_a_half_rolled_artillery_strike_survives_a_sigkill(tmp_path: Path, database: str) -> None:
    """The issue's case: 'lands on 5-6' typed as 6 and acknowledged, kill -9; after the restart the
    referee is asked for 'kills on 4-6' (the 6 kept and shown), the player's page sends its order
    again, and the strike is one record line with both rolls."""
    srv = ServerProcess(tmp_path, db=database).start()
    try:
        made = make_room(srv, dice="manual")
        code = made["code"]
        p = join(srv, code, "Gus", "german")
        host = Client(srv, code, "host", made["host_token"])
        seen: list[str] = []
        for _ in range(4):  # the setup's obstacles
            seen.append(asked(host, lambda r: r["purpose"] not in seen)["purpose"])
            answer_dice(host, "3")
        host.state_where(lambda s: s["ready"])
        host.send({"type": "start"})
        host.until(lambda m: m["type"] == "ack" and m.get("op") == "start")
        gus = Client(srv, code, "player", p["token"])
        gus.state_where(lambda s: s["status"] == "playing")
        strike = _until_artillery(host, gus)
        order = {"type": "act", "action": strike, "client": "strike-0001-gus"}
        gus.send({**order, "n": 1})
        lands = asked(host, lambda r: "lands" in r["purpose"])
        assert lands["for"] == "German 1's order" and lands["kept"] == []
        assert answer_dice(host, "6")["dice"] == [6]
        kills = asked(host, lambda r: "kills" in r["purpose"])
        before = len(stored_lines(srv))
        srv.kill()
        srv.start()
        host = Client(srv, code, "host", made["host_token"])
        request = asked(host)
        assert request["purpose"] == kills["purpose"]  # the rest of the strike, not its first roll again
        assert request["kept"] == [{"purpose": lands["purpose"], "values": [6]}]
        gus = Client(srv, code, "player", p["token"])
        gus.send({**order, "n": 2})  # the page never had its answer: it sends the order again
        fives = [5] * request["n"]
        assert answer_dice(host, " ".join(map(str, fives)))["dice"] == fives
        ack = None
        for _ in range(60):  # any later roll of the same order (a squad broken by the strike...)
            if ack is not None:
                break
            try:
                ack = gus.until(lambda m: m["type"] in ("ack", "refused") and m["n"] == 2, timeout=1)
            except (AssertionError, TimeoutError):
                try:
                    more = asked(host, timeout=1)
                except (AssertionError, TimeoutError):
                    continue  # neither the ack nor a roll yet: a loaded machine (asked's 20 s failed the test)
                answer_dice(host, " ".join("3" for _ in range(more["n"])))
        assert ack is not None and ack["type"] == "ack" and ack["client"] == "strike-0001-gus", ack
        stored = stored_lines(srv)
        line = stored[before]  # the next line after the kill is the strike, and it is there once
        assert (line["seat"], line["action"]) == ("German 1", strike)
        assert [x.get("action") for x in stored].count(strike) == 1
        assert [e["values"] for e in line["events"] if e.get("kind") == "dice"][:2] == [[6], fives]
    finally:
        srv.stop()


def test_the_phase_timer_keeps_its_deadline_through_a_restart(tmp_path: Path, database: str) -> None:
    srv = ServerProcess(tmp_path, db=database).start()
    try:
        made = make_room(srv)
        code = made["code"]
        p = join(srv, code, "Fay", "american")
        host = Client(srv, code, "host", made["host_token"])
        host.send({"type": "settings", "timer": 600})
        host.until(lambda m: m["type"] == "ack")
        host.send({"type": "start"})
        fay = Client(srv, code, "player", p["token"])
        state = fay.state_where(lambda s: bool(s["decisions"]) and s["timer"]["left"] is not None)
        deadline = time.time() + state["timer"]["left"]
        time.sleep(5)  # a fresh timer after the restart would end these seconds later (and the restart's)
        srv.kill()
        srv.start()
        fay = Client(srv, code, "player", p["token"])
        state = fay.state_where(lambda s: bool(s["decisions"]) and s["timer"]["left"] is not None)
        after = time.time() + state["timer"]["left"]
        # each deadline is read as its state arrives: on a loaded machine a state waits a second or two on its way
        assert abs(after - deadline) < 2.5, (deadline, after)
        assert state["timer"]["left"] < 598
    finally:
        srv.stop()


def test_an_order_refused_for_the_rate_names_its_client_id(tmp_path: Path) -> None:
    """A page that sends its whole outbox too fast is told which orders to send again."""
    with ServerProcess(tmp_path) as srv:
        made = make_room(srv)
        p = join(srv, made["code"], "Hal", "american")
        hal = Client(srv, made["code"], "player", p["token"])
        for k in range(40):
            hal.send({"type": "act", "action": "hold A1", "client": f"flood-{k:04d}-hal", "n": k + 1})
        refused = hal.until(lambda m: m["type"] == "refused" and m["code"] == "rate")
        assert refused["client"].startswith("flood-") and refused["n"] is None
