"""The live win-probability on the wire (issue 20): every page gets its estimate in its state, made off
the room's actor; a seat's page its seat's own, the projector the public one with the curve so far. The
numbers sent are exactly doctrine playouts from what the page may see: from the same position with the
hidden part changed (the same table made with other dice, so other hidden obstacles), the same
playouts give the same numbers, so nothing hidden reached them. Against the real server.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from grognard import rulesets
from grognard.analysis.winprob import win_probability
from grognard.core.dice import SeededDice
from grognard.web.odds import NICE, odds_json, odds_seed
from grognard.web.testing import ServerProcess, call
from test_web_skirmish_melee import Page

FEW = 5  # serve --odds-playouts: not the default (the suite's servers play fewer, conftest.py), so it is the flag's


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path, args=("--odds-playouts", str(FEW))) as srv:
        yield srv


def test_each_page_gets_only_the_estimate_of_what_it_may_see(server: ServerProcess) -> None:
    status, made = call(server.url + "/api/rooms", {"ruleset": "omaha"})
    assert status == 200, made
    code = made["code"]
    ann = call(server.url + f"/api/rooms/{code}/join", {"name": "Ann", "side": "american"})[1]
    host = Page(server, code, "host", made["host_token"])
    host.send({"type": "settings", "odds_shown": "everyone", "odds_from": 0})  # a class's room: the projector's, turn 3
    host.wait(lambda s: s.get("host", {}).get("odds_shown") == "everyone")
    player = Page(server, code, "player", ann["token"])
    projector = Page(server, code, "projector", None)
    try:
        mine = player.wait(lambda s: s.get("odds") and s.get("you", {}).get("seats"), timeout=60)
        public = projector.wait(lambda s: s.get("odds"), timeout=60)
        seat = mine["you"]["seats"][0]
        sent_mine, sent_public = mine["odds"], public["odds"]
        assert sent_mine["own"] is True and "curve" not in sent_mine
        assert sent_public["own"] is False and [p["turn"] for p in sent_public["curve"]] == [public["turn"]]
        for sent in (sent_mine["now"], sent_public["now"]):
            assert set(sent) == {"turn", "playouts", "other", "sides"}  # no seat, no state: numbers only
            assert sent["playouts"] == FEW and set(sent["sides"]) == set(public["sides"])
    finally:
        for page in (host, player, projector):
            page.close()
    # the room's game rolls from its secret seed (which fixes the hidden obstacles); these from others
    for other in (7, 12345):
        copy = rulesets.get("omaha").create({}, SeededDice(other))
        seed = odds_seed(code) + copy.turn
        assert odds_json(win_probability(copy, seat, playouts=FEW, seed=seed)) == sent_mine["now"]
        assert odds_json(win_probability(copy, None, playouts=FEW, seed=seed)) == sent_public["now"]


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _nice(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from Linux's /proc")
def test_the_playouts_run_in_a_lower_priority_worker_that_ends_with_its_server(tmp_path: Path) -> None:
    """The estimate is played out in a worker process below the server's priority (so play goes first on a
    busy machine), and a server killed outright (SIGKILL: no shutdown at all) leaves no worker behind."""
    srv = ServerProcess(tmp_path, env={"GROGNARD_ODDS_NICE": str(NICE)}).start()  # the suite's servers run it at 0
    try:
        status, made = call(srv.url + "/api/rooms", {"ruleset": "omaha"})
        assert status == 200, made
        host = Page(srv, made["code"], "host", made["host_token"])
        host.send({"type": "settings", "odds_from": 0})  # shown from the start (a class's room: from turn 3)
        host.wait(lambda s: s.get("odds"), timeout=60)
        host.close()
        assert srv.proc is not None
        workers = [p for p in _children(srv.proc.pid) if "spawn_main" in Path(f"/proc/{p}/cmdline").read_text()]
        assert len(workers) == 1, workers
        assert _nice(workers[0]) > _nice(srv.proc.pid)
        srv.kill(group=False)  # the server alone: its worker must see it gone by itself
        deadline = time.monotonic() + 15
        while Path(f"/proc/{workers[0]}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        gone = (
            not Path(f"/proc/{workers[0]}").exists() or "Z" in Path(f"/proc/{workers[0]}/stat").read_text().split()[2]
        )
    finally:
        srv.stop()
    assert gone
