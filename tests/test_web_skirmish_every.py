"""Every shipped skirmish scenario is played to its end on `grognard serve` by one person against the bots.

Against the real server process: the host starts the room with the bots filling the other side, and a
person answers every decision their page is sent with one of the orders it offers (moves, shots,
holds, the castle and building orders: whatever the decision's menu holds), drawn with a fixed seed,
until the game is over. Nothing of the game is read but the page's own messages.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from grognard.rulesets.skirmish.scenario import shipped
from grognard.web.testing import ServerProcess, call, receive


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("skirmish-every")) as srv:
        yield srv


def hello(srv: ServerProcess, code: str, role: str, token: str) -> Any:
    ws = connect(f"{srv.ws_url}/ws/{code}").__enter__()
    ws.send(json.dumps({"type": "hello", "role": role, "token": token}))
    return ws


@pytest.mark.parametrize("scenario", [name for name, _ in shipped()])
def test_a_person_plays_every_shipped_scenario_against_the_bots_to_its_end(
    server: ServerProcess, scenario: str
) -> None:
    status, made = call(
        server.url + "/api/rooms", {"ruleset": "skirmish", "options": {"scenario": scenario, "turn_limit": 1}}
    )
    assert status == 200, made
    code = made["code"]
    status, joined = call(server.url + f"/api/rooms/{code}/join", {"name": "Ann", "side": "allies"})
    assert status == 200 and joined["seats"] == ["Allies"], joined
    host = hello(server, code, "host", made["host_token"])
    host.send(json.dumps({"type": "settings", "fill_bots": True}))
    host.send(json.dumps({"type": "start"}))
    ann = hello(server, code, "player", joined["token"])
    rng = random.Random(scenario)
    acted, n = 0, 0
    waiting, done = False, -1  # an order in flight; the step its last acknowledgement named
    last: dict[str, Any] = {}
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline:
            message = receive(ann, timeout=max(0.1, deadline - time.monotonic()))
            if message["type"] == "refused":
                pytest.fail(f"{scenario}: an order from the page's own menu was refused: {message['message']}")
            if message["type"] == "ack":
                acted, waiting, done = acted + 1, False, message["step"]
                continue
            if message["type"] != "state":
                continue
            last = message
            if not host.close_code and message["status"] == "playing":
                host.close()  # the host's page is not read here: left open, its queue would fill and stall its close
            if message["status"] in ("over", "ended"):
                break
            mine = [d for d in message.get("decisions", []) if d["seat"] == "Allies"]
            if not mine or waiting or message["step"] < done:  # one order at a time, on a page that has seen it
                continue
            decision = mine[0]
            assert decision["choices"], (scenario, decision)
            n += 1
            waiting = True
            ann.send(
                json.dumps(
                    {
                        "type": "act",
                        "action": rng.choice(decision["choices"])["text"],
                        "seat": decision["seat"],
                        "n": n,
                        "client": f"every-{scenario}-{n}",
                    }
                )
            )
    finally:
        for ws in (host, ann):
            ws.close()
    assert last.get("status") in ("over", "ended"), f"{scenario}: not over after {acted} orders"
    assert acted >= 1, f"{scenario}: the person never gave an order"
