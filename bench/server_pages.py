"""The server's CPU time for the pages of a 24-player Omaha room, in process, and its record's digest.

A room is made as ``grognard serve`` makes it (its seeds fixed by ``--seed``), 24 players join, and
``--orders`` orders are given in turn by the seats that owe them (a choice of each menu picked by the
order's number). After each, every page's state is made and its patch worked out and written as JSON,
as ``Conn.sender`` does, to a socket that drops it. It prints the process CPU time of the pages per order
(it does not depend on how loaded the machine is, nor on the network) and the digest of the record's last
line: two versions of the server that play the same give the same digest.

    python bench/server_pages.py [--orders 150] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from grognard import rulesets
from grognard.web import faces
from grognard.web.conn import Conn
from grognard.web.room import Room
from grognard.web.state import state_message
from grognard.web.store import Store


class Dropped:
    """A page's socket that drops what it is sent."""

    async def send_text(self, text: str) -> None:
        pass


async def main(orders: int, seed: int) -> None:
    secrets.randbits = lambda bits: seed  # type: ignore[assignment]  # the room's dice and bot seeds
    store = Store(f"sqlite:///{tempfile.mkdtemp(prefix='grognard-pages-')}/games.sqlite3")

    async def run(fn: Any, *args: Any) -> Any:
        return fn(*args)

    ruleset = rulesets.get("omaha")
    room = await Room.create(store, ruleset, {"germans": 6}, "seeded", "h" * 32, run)
    players = [await room.join(f"P{k}", None) for k in range(24)]
    await room.call(room.host_op, "settings", fill_bots=False)
    await room.call(room.host_op, "start")
    pages = [Conn(Dropped(), room, "player", pid) for pid, _ in players]  # type: ignore[arg-type]

    def send_states() -> None:
        for page in pages:
            message = page.sent.message(state_message(room, page))
            if message is not None:
                json.dumps(message, separators=(",", ":"))

    send_states()
    spent, played = 0.0, 0
    assert room.game is not None and room.writer is not None
    for n in range(orders):
        owed = room.game.pending()
        if not owed:
            break
        decision = owed[n % len(owed)]
        choices = faces.decision_json(ruleset, room.game, decision)["choices"]
        await room.act(str(room.controller(decision.seat)[1]), decision.seat, choices[(n * 7) % len(choices)]["text"])
        start = time.process_time()
        send_states()
        spent += time.process_time() - start
        played += 1
    print(f"{played} orders, 24 pages: {spent / max(1, played) * 1000:.2f} ms of CPU an order for the pages' states")
    print(f"the record: {len(room.writer.lines)} lines, last digest {room.writer.lines[-1].get('digest')}")
    room.close()
    store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--orders", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(main(args.orders, args.seed))
