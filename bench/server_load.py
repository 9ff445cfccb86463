"""Load on the web server: one Omaha game with 24 WebSocket players, alone and then beside 10 more games and
skirmish rooms, on loopback.

Every seat is a scripted player (no bots): it answers each decision its page shows
with the first choice of the menu, after a think time like a person's (uniform in
0..2 x ``--think`` seconds; 0: at once, a saturated server). For every action the
bench times its submission to the moment *every* client of that game has seen its
events (the ``events`` message of its record step), and prints p50 and p95 of that
(target: p95 under 100 ms), of every page's state showing it (the projector's
picture), and of the submitter's acknowledgement. It prints the bytes each page was
sent per phase of the game (the JSON text, and that text through one zlib stream per
page: about what permessage-deflate puts on the wire), and the server's CPU time per order: the CPU time
(user and system) its process spent while the games were played, divided by the orders it acknowledged,
which does not depend on how loaded the machine is (the odds worker's, a child process at a lower
priority, apart). Two runs, each on a fresh
server and bounded in time (``--seconds``): the 24-player game alone, then with
``--games`` other games of 4 players each and ``--skirmish`` skirmish rooms (village_street, one person a
side, each answering with a menu order drawn at random from its decision's choices: moves, shots, holds).

    python bench/server_load.py [--seconds 40] [--games 10] [--skirmish 2] [--think 1.0] [--profile PREFIX]

``--profile PREFIX``: py-spy samples the server while the games are played (``PREFIX-alone.txt`` and
``PREFIX-beside.txt``, its collapsed stacks) and the bench prints the functions it was found in most
(``pip install py-spy``).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import psutil
from websockets.asyncio.client import connect

from grognard.web.patch import merge
from grognard.web.testing import ServerProcess, call


class Game:
    def __init__(self, code: str, clients: int, ruleset: str = "omaha") -> None:
        self.code = code
        self.ruleset = ruleset
        self.clients = clients
        self.submitted: dict[int, float] = {}  # record step -> submission time (known at the ack)
        self.seen: dict[int, int] = {}  # record step -> clients that saw its events
        self.last_seen: dict[int, float] = {}
        self.drawn: dict[int, int] = {}  # record step -> clients whose state shows it
        self.last_drawn: dict[int, float] = {}
        self.ack: list[float] = []
        self.phases: set[tuple[Any, Any]] = set()  # (turn, phase) the game went through
        self.sent = 0  # bytes of JSON text sent to its pages
        self.wire = 0  # the same through one zlib stream per page


def by_all(submitted: dict[int, float], count: dict[int, int], last: dict[int, float], clients: int) -> list[float]:
    """Per action: submission to the moment the last of the game's clients had it."""
    return [last[step] - t0 for step, t0 in submitted.items() if count.get(step) == clients and step in last]


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
        self.deflate = zlib.compressobj(wbits=-15)
        self.step = -1

    async def play(self, url: str, token: str, stop: float, source: str) -> None:
        # from its game's own address, as the join was: one address trying a dozen codes at once is refused
        # its token shown at the handshake, as a page does (web/doors.py)
        protocols = ["grognard", f"grognard.t.{token}"]
        async with connect(url, max_size=2**22, local_addr=(source, 0), subprotocols=protocols) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "role": "player", "token": token}))
            while time.monotonic() < stop:
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
                except TimeoutError:
                    break
                now = time.perf_counter()
                self.game.sent += len(text.encode())
                self.game.wire += len(self.deflate.compress(text.encode()) + self.deflate.flush(zlib.Z_SYNC_FLUSH))
                self.receive(json.loads(text), now)

    def receive(self, m: dict[str, Any], now: float) -> None:
        game = self.game
        if m["type"] == "patch":  # what changed: merged into the state this page holds, as app.js does
            assert self.last is not None
            m = merge(self.last, m)
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
            for step in range(self.step + 1, m["step"] + 1):
                game.drawn[step] = game.drawn.get(step, 0) + 1
                game.last_drawn[step] = now
            self.step = max(self.step, m["step"])
            if m.get("ready"):
                game.phases.add((m.get("turn"), m.get("phase")))
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
        choices = decision["choices"]
        # Omaha: the first order of the menu; skirmish: any (else every squad holds and nobody shoots)
        action = (self.rng.choice(choices) if self.game.ruleset == "skirmish" else choices[0])["text"]
        try:
            await self.ws.send(
                json.dumps(
                    {
                        "type": "act",
                        "action": action,
                        "seat": decision["seat"],
                        "n": self.n,
                        "client": f"bench-{id(self):x}-{self.n:06d}",
                    }
                )
            )
        except Exception:  # the run ended meanwhile
            pass


def join_from(server: ServerProcess, code: str, name: str, source: str, side: str | None = None) -> str:
    """A player joins from address ``source`` (each game its own class, each class its own address),
    waiting as the server asks when many join at once; the player's token."""
    while True:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20, source_address=(source, 0))
        headers = {"Content-Type": "application/json"}
        body = {"name": name} | ({"side": side} if side else {})
        conn.request("POST", f"/api/rooms/{code}/join", json.dumps(body), headers)
        answer = conn.getresponse()
        body = json.loads(answer.read())
        conn.close()
        if answer.status == 429:
            time.sleep(float(body.get("retry") or 1))
            continue
        assert answer.status == 200, body
        return str(body["token"])


async def make_game(server: ServerProcess, germans: int, source: str) -> tuple[str, str, list[str]]:
    status, made = await asyncio.to_thread(
        call, server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": germans}}
    )
    assert status == 200, made
    tokens = [await asyncio.to_thread(join_from, server, made["code"], f"P{k}", source) for k in range(germans * 4)]
    return made["code"], made["host_token"], tokens


async def make_skirmish(server: ServerProcess, source: str) -> tuple[str, str, list[str]]:
    """A skirmish room on village_street, one person on each side (no bots)."""
    status, made = await asyncio.to_thread(
        call, server.url + "/api/rooms", {"ruleset": "skirmish", "options": {"scenario": "village_street"}}
    )
    assert status == 200, made
    tokens = [
        await asyncio.to_thread(join_from, server, made["code"], f"S{k}", source, side)
        for k, side in enumerate(("allies", "axis"))
    ]
    return made["code"], made["host_token"], tokens


async def start(server: ServerProcess, code: str, host_token: str, source: str) -> None:
    protocols = ["grognard", f"grognard.t.{host_token}"]
    async with connect(f"{server.ws_url}/ws/{code}", local_addr=(source, 0), subprotocols=protocols) as ws:
        await ws.send(json.dumps({"type": "hello", "role": "host", "token": host_token}))
        await ws.send(json.dumps({"type": "settings", "fill_bots": False}))
        await ws.send(json.dumps({"type": "start"}))
        while json.loads(await ws.recv()).get("op") != "start":
            pass


def quantiles(values: list[float]) -> str:
    if len(values) < 2:
        return "too few"
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100, method="inclusive")  # never beyond the max, with few actions
    return f"p50 {q[49]:.1f} ms, p95 {q[94]:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} actions)"


def cpu_seconds(process: psutil.Process) -> tuple[float, float]:
    """CPU time (user and system) of the server's process and of its children (the odds worker) so far."""
    own = process.cpu_times()
    children = 0.0
    for child in process.children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.NoSuchProcess:
            continue
        children += times.user + times.system
    return own.user + own.system, children


def profile_top(path: Path, count: int = 25) -> None:
    """The functions py-spy found the server in most: their share of its samples, inclusive and their own."""
    total = 0
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack:
            continue
        samples = int(n)
        total += samples
        frames = [f.split(" (")[0] + " (" + f.rsplit("/", 1)[-1] if " (" in f else f for f in stack.split(";")]
        for frame in set(frames[1:]):  # the first frame is the thread
            inclusive[frame] = inclusive.get(frame, 0) + samples
        own[frames[-1]] = own.get(frames[-1], 0) + samples
    print(f"profile ({total} samples of the server's threads while busy, {path}):")
    for label, table in (("inclusive", inclusive), ("own", own)):
        print(f"  top by {label} time:")
        for frame, samples in sorted(table.items(), key=lambda kv: -kv[1])[:count]:
            print(f"    {samples / max(1, total):6.1%}  {frame}")


def start_profiler(pid: int, seconds: float, path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        ["py-spy", "record", "-p", str(pid), "-d", str(int(seconds)), "-r", "200", "-f", "raw", "-o", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def run(seconds: float, extra: int, think: float, skirmish: int = 0, profile: Path | None = None) -> None:
    folder = Path(tempfile.mkdtemp(prefix="grognard-load-"))
    rng = random.Random(1)
    refusals: list[str] = []
    with ServerProcess(folder) as server:
        specs = [6] + [1] * extra  # 24 players in the big game; 4 in each of the others
        sources = [f"127.0.0.{k + 2}" for k in range(len(specs))] + [f"127.0.1.{k + 2}" for k in range(skirmish)]
        made = await asyncio.gather(
            *(make_game(server, g, source) for g, source in zip(specs, sources, strict=False)),
            *(make_skirmish(server, source) for source in sources[len(specs) :]),
        )
        kinds = ["omaha"] * len(specs) + ["skirmish"] * skirmish
        games = [Game(code, len(tokens), kind) for (code, _, tokens), kind in zip(made, kinds, strict=True)]
        stop = time.monotonic() + seconds
        tasks = [
            asyncio.create_task(
                Player(game, think, rng, refusals).play(f"{server.ws_url}/ws/{game.code}", token, stop, source)
            )
            for game, source, (_, _, tokens) in zip(games, sources, made, strict=True)
            for token in tokens
        ]
        await asyncio.sleep(0.5)
        assert server.proc is not None
        process = psutil.Process(server.proc.pid)
        cpu0 = cpu_seconds(process)
        spy = start_profiler(process.pid, seconds, profile) if profile is not None else None
        await asyncio.gather(
            *(start(server, code, host, source) for (code, host, _), source in zip(made, sources, strict=True))
        )
        await asyncio.gather(*tasks)
        cpu1 = cpu_seconds(process)
        if spy is not None:
            await asyncio.to_thread(spy.wait)
    print(
        f"{sum(g.clients for g in games)} players in {len(games)} games for {seconds:g} s on loopback, "
        f"think time 0-{2 * think:g} s"
    )
    groups = [("the 24-player game", games[:1])]
    if extra:
        groups.append((f"the {extra} other games", games[1 : 1 + extra]))
    if skirmish:
        groups.append((f"the {skirmish} skirmish rooms", games[1 + extra :]))
    for label, chosen in groups:
        seen = [t for g in chosen for t in by_all(g.submitted, g.seen, g.last_seen, g.clients)]
        drawn = [t for g in chosen for t in by_all(g.submitted, g.drawn, g.last_drawn, g.clients)]
        print(f"{label}: submission to every client seeing its events: {quantiles(seen)}")
        print(f"{label}: submission to every client's state showing it: {quantiles(drawn)}")
        print(f"{label}: submission to the acknowledgement: {quantiles([a for g in chosen for a in g.ack])}")
    big = games[0]
    phases = max(1, len(big.phases))
    print(
        f"the 24-player game: {big.sent / big.clients / phases / 1000:.1f} kB of JSON a page a phase "
        f"({big.wire / big.clients / phases / 1000:.1f} kB deflated), over {len(big.phases)} phases"
    )
    orders = sum(len(g.ack) for g in games)
    own, worker = (after - before for before, after in zip(cpu0, cpu1, strict=True))
    print(
        f"server CPU time per order: {own / max(1, orders) * 1000:.2f} ms ({own:.1f} s for {orders} orders); "
        f"the odds worker besides: {worker / max(1, orders) * 1000:.2f} ms an order ({worker:.1f} s); "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(f"refused actions (a page a moment old: a squad gone before the order came): {len(refusals)}")
    if profile is not None:
        profile_top(profile)


async def main(seconds: float, extra: int, think: float, skirmish: int, profile: str | None) -> None:
    print("== the 24-player game alone")
    await run(seconds, 0, think, 0, Path(f"{profile}-alone.txt") if profile else None)
    if extra or skirmish:
        print(f"== the 24-player game beside {extra} other games and {skirmish} skirmish rooms")
        await run(seconds, extra, think, skirmish, Path(f"{profile}-beside.txt") if profile else None)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--games", type=int, default=10, help="games besides the 24-player one")
    parser.add_argument("--skirmish", type=int, default=2, help="skirmish rooms (two people each) in the second run")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time of a player, seconds")
    parser.add_argument("--profile", help="sample the server with py-spy: PREFIX-alone.txt, PREFIX-beside.txt")
    args = parser.parse_args()
    asyncio.run(main(args.seconds, args.games, args.think, args.skirmish, args.profile))
