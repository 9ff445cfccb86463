"""Load on the web server: one Omaha game with 24 WebSocket players plus 10 more games at once, on loopback.

Every seat is a scripted player (no bots): each answers its decisions with the first
choice of its menu as soon as its page shows them. For every action the bench times
its submission to the moment *every* client of that game has seen its events (the
``events`` message of its record step), and prints p50 and p95 of that (target: p95
under 100 ms), and of the submitter's acknowledgement. Bounded in time (``--seconds``).

    python bench/server_load.py [--seconds 40] [--games 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from websockets.asyncio.client import connect

from grognard.web.testing import ServerProcess, call


class Game:
    def __init__(self, code: str, clients: int) -> None:
        self.code = code
        self.clients = clients
        self.submitted: dict[int, float] = {}  # step -> submission time (known at the ack)
        self.seen: dict[int, int] = {}  # step -> clients that saw it
        self.last_seen: dict[int, float] = {}
        self.ack: list[float] = []


async def player(server: ServerProcess, game: Game, token: str, stop: float, refusals: list[str]) -> None:
    async with connect(f"{server.ws_url}/ws/{game.code}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "role": "player", "token": token}))
        sent: dict[int, float] = {}
        waiting: set[str] = set()
        n = 0
        while time.monotonic() < stop:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break
            now = time.perf_counter()
            m = json.loads(text)
            if m["type"] == "events":
                step = m["step"]
                game.seen[step] = game.seen.get(step, 0) + 1
                game.last_seen[step] = now
            elif m["type"] == "ack":
                t0 = sent.pop(m["n"])
                game.submitted[m["step"]] = t0
                game.ack.append(now - t0)
            elif m["type"] == "refused":
                refusals.append(m["message"])
                waiting.clear()
            elif m["type"] == "state":
                for d in m.get("decisions", []):
                    if d["id"] in waiting:
                        continue
                    waiting.add(d["id"])
                    n += 1
                    sent[n] = time.perf_counter()
                    await ws.send(
                        json.dumps({"type": "act", "action": d["choices"][0]["text"], "seat": d["seat"], "n": n})
                    )
                owed = {d["id"] for d in m.get("decisions", [])}
                waiting &= owed


async def make_game(server: ServerProcess, germans: int) -> tuple[str, str, list[str]]:
    status, made = await asyncio.to_thread(
        call, server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": germans}}
    )
    assert status == 200, made
    tokens = []
    for k in range(germans * 4):
        status, joined = await asyncio.to_thread(
            call, server.url + f"/api/rooms/{made['code']}/join", {"name": f"P{k}"}
        )
        assert status == 200, joined
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


async def main(seconds: float, extra: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="grognard-load-"))
    with ServerProcess(folder) as server:
        specs = [6] + [1] * extra  # 24 players in the big game; 4 in each of the others
        made = await asyncio.gather(*(make_game(server, g) for g in specs))
        games = [Game(code, len(tokens)) for code, _, tokens in made]
        stop = time.monotonic() + seconds
        refusals: list[str] = []
        tasks = [
            asyncio.create_task(player(server, game, token, stop, refusals))
            for game, (_, _, tokens) in zip(games, made, strict=True)
            for token in tokens
        ]
        await asyncio.sleep(0.5)
        await asyncio.gather(*(start(server, code, host) for code, host, _ in made))
        await asyncio.gather(*tasks)
    print(f"{sum(g.clients for g in games)} players in {len(games)} games for {seconds:g} s on loopback")
    for label, chosen in (("the 24-player game", games[:1]), (f"the {extra} other games", games[1:])):
        seen_by_all = [
            g.last_seen[step] - t0
            for g in chosen
            for step, t0 in g.submitted.items()
            if g.seen.get(step) == g.clients and step in g.last_seen
        ]
        print(f"{label}: submission to every client seeing it: {quantiles(seen_by_all)}")
        print(f"{label}: submission to the acknowledgement: {quantiles([a for g in chosen for a in g.ack])}")
    print(f"refused actions: {len(refusals)}" + (f" (first: {refusals[0]})" if refusals else ""))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--games", type=int, default=10, help="games besides the 24-player one")
    args = parser.parse_args()
    asyncio.run(main(args.seconds, args.games))
