"""Load on the web server: one Omaha game with 24 WebSocket players plus 10 more games at once, on loopback.

Every seat is a scripted player (no bots): it answers each decision its page shows
with the first choice of the menu, after a think time like a person's (uniform in
0..2 x ``--think`` seconds; 0: at once, a saturated server). For every action the
bench times its submission to the moment *every* client of that game has seen its
events (the ``events`` message of its record step), and prints p50 and p95 of that
(target: p95 under 100 ms), and of the submitter's acknowledgement. Bounded in
time (``--seconds``).

    python bench/server_load.py [--seconds 40] [--games 10] [--think 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from websockets.asyncio.client import connect

from grognard.web.testing import ServerProcess, call, join


class Game:
    def __init__(self, code: str, clients: int) -> None:
        self.code = code
        self.clients = clients
        self.submitted: dict[int, float] = {}  # record step -> submission time (known at the ack)
        self.seen: dict[int, int] = {}  # record step -> clients that saw its events
        self.last_seen: dict[int, float] = {}
        self.ack: list[float] = []


class Player:
    """One scripted page: answers what it owes, never twice, and again when refused for a stale page."""

    def __init__(self, game: Game, think: float, rng: random.Random, refusals: list[str]) -> None:
        self.game, self.think, self.rng, self.refusals = game, think, rng, refusals
        self.ws: Any = None
        self.n = 0
        self.last: dict[str, Any] | None = None
        self.thinking: set[str] = set()  # decisions being thought about or sent, not yet answered
        self.sent: dict[int, tuple[float, int, str]] = {}  # n -> (time, state version, decision)
        self.answered: dict[str, int] = {}  # decision -> record step that answered it last

    async def play(self, url: str, token: str, stop: float) -> None:
        async with connect(url, max_size=2**22) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "role": "player", "token": token}))
            while time.monotonic() < stop:
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
                except TimeoutError:
                    break
                self.receive(json.loads(text), time.perf_counter())

    def receive(self, m: dict[str, Any], now: float) -> None:
        game = self.game
        if m["type"] == "events":
            game.seen[m["step"]] = game.seen.get(m["step"], 0) + 1
            game.last_seen[m["step"]] = now
        elif m["type"] == "ack":
            t0, _, decision = self.sent.pop(m["n"])
            self.thinking.discard(decision)
            self.answered[decision] = m["step"]  # a state older than this step still shows it owed
            game.submitted[m["step"]] = t0
            game.ack.append(now - t0)
        elif m["type"] == "refused":
            self.refusals.append(m["message"])
            _, version, decision = self.sent.pop(m["n"], (0.0, 0, ""))
            self.thinking.discard(decision)
            if self.last is not None and self.last["version"] > version:
                self.consider(self.last)  # else the next state (newer) will show what to do
        elif m["type"] == "state":
            self.last = m
            self.consider(m)

    def consider(self, state: dict[str, Any]) -> None:
        for d in state.get("decisions", []):
            if d["id"] in self.thinking or self.answered.get(d["id"], -1) >= state["step"]:
                continue
            self.thinking.add(d["id"])
            asyncio.get_running_loop().create_task(self.order(d, state["version"]))

    async def order(self, decision: dict[str, Any], version: int) -> None:
        if self.think:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
        self.n += 1
        self.sent[self.n] = (time.perf_counter(), version, decision["id"])
        action = decision["choices"][0]["text"]
        try:
            await self.ws.send(json.dumps({"type": "act", "action": action, "seat": decision["seat"], "n": self.n}))
        except Exception:  # the run ended meanwhile
            pass


async def make_game(server: ServerProcess, germans: int) -> tuple[str, str, list[str]]:
    status, made = await asyncio.to_thread(
        call, server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": germans}}
    )
    assert status == 200, made
    tokens = []
    for k in range(germans * 4):
        # one address joining many: the server says when to try again (12 at once, then one a second)
        joined = await asyncio.to_thread(join, server.url, made["code"], f"P{k}")
        tokens.append(joined["token"])
    return made["code"], made["host_token"], tokens


async def start(server: ServerProcess, code: str, host_token: str) -> None:
    async with connect(f"{server.ws_url}/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "role": "host", "token": host_token}))
        await ws.send(json.dumps({"type": "settings", "fill_bots": False}))
        await ws.send(json.dumps({"type": "start"}))
        while json.loads(await ws.recv()).get("op") != "start":
            pass


def quantiles(values: list[float]) -> str:
    if len(values) < 2:
        return "too few"
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100)
    return f"p50 {q[49]:.1f} ms, p95 {q[94]:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} actions)"


async def main(seconds: float, extra: int, think: float) -> None:
    folder = Path(tempfile.mkdtemp(prefix="grognard-load-"))
    rng = random.Random(1)
    refusals: list[str] = []
    with ServerProcess(folder) as server:
        specs = [6] + [1] * extra  # 24 players in the big game; 4 in each of the others
        made = await asyncio.gather(*(make_game(server, g) for g in specs))
        games = [Game(code, len(tokens)) for code, _, tokens in made]
        stop = time.monotonic() + seconds
        tasks = [
            asyncio.create_task(Player(game, think, rng, refusals).play(f"{server.ws_url}/ws/{game.code}", token, stop))
            for game, (_, _, tokens) in zip(games, made, strict=True)
            for token in tokens
        ]
        await asyncio.sleep(0.5)
        await asyncio.gather(*(start(server, code, host) for code, host, _ in made))
        await asyncio.gather(*tasks)
    print(
        f"{sum(g.clients for g in games)} players in {len(games)} games for {seconds:g} s on loopback, "
        f"think time 0-{2 * think:g} s"
    )
    for label, chosen in (("the 24-player game", games[:1]), (f"the {extra} other games", games[1:])):
        seen_by_all = [
            g.last_seen[step] - t0
            for g in chosen
            for step, t0 in g.submitted.items()
            if g.seen.get(step) == g.clients and step in g.last_seen
        ]
        print(f"{label}: submission to every client seeing it: {quantiles(seen_by_all)}")
        print(f"{label}: submission to the acknowledgement: {quantiles([a for g in chosen for a in g.ack])}")
    print(f"refused actions (a page a moment old: a squad gone before the order came): {len(refusals)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--games", type=int, default=10, help="games besides the 24-player one")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time of a player, seconds")
    args = parser.parse_args()
    asyncio.run(main(args.seconds, args.games, args.think))
