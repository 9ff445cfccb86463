"""The server's rooms and database: what every route and WebSocket session shares (``app.state.server``).

At start-up (``Server.load``) every stored game is rebuilt from its record; the games past their time
are deleted first (``retention.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from starlette.requests import HTTPConnection

from grognard import rulesets
from grognard.core.errors import GrognardError
from grognard.web import doors, odds
from grognard.web import retention as retention_
from grognard.web.guard import Codes, Limits
from grognard.web.messages import RefusalCode
from grognard.web.odds import PLAYOUTS
from grognard.web.protocol import Refused
from grognard.web.room import Room
from grognard.web.store import InOrder, Store
from grognard.web.trials import Trials

log = logging.getLogger("grognard.web")


class Server:
    """The rooms and the database; one worker thread runs the database calls in order."""

    def __init__(
        self,
        db_url: str,
        join_url: str | None = None,
        retention: float = retention_.DEFAULT_DAYS,
        odds_playouts: int = PLAYOUTS,
    ) -> None:
        self.store = Store(db_url)
        self.retention = retention  # days a game is kept (retention.py); a host may choose fewer
        self.odds_playouts = odds_playouts  # each estimate's games a seat (odds.py)
        self.sweeper: asyncio.Task[None] | None = None
        self.rooms: dict[str, Room] = {}
        self.db = InOrder(self.store)  # one thread, in order; lines of several rooms committed together
        self.join_url = join_url
        # a classroom shares one address behind its router: 12 joins at once, then one a second (a class
        # of 28 joining together is in within 16 s, its pages retrying by themselves); one script filling
        # a room's seats gets 12 at once, then one a second, while the host locks the room
        self.joins = Limits(rate=1.0, burst=12)
        self.doors = doors.Doors()  # the WebSockets open that have not said hello yet (doors.py)
        # different room codes tried (guard.CodeGate): by address and browser id (one pupil's typos lock
        # out that browser only), and a looser ceiling by address behind it (a script making up browser ids)
        self.codes = Codes(by_address=Limits(rate=1.0, burst=60), by_browser=Limits(rate=0.2, burst=12))
        self.creates = Limits(rate=0.2, burst=30)
        self.trials = Trials()  # a scenario of one's own tested and balanced, in a worker process (trials.py)
        self.trial_asks = Limits(rate=0.5, burst=30)  # a class behind one address, each trying its own table

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.db.run(fn, *args)

    async def load(self) -> None:
        await retention_.sweep(self)  # the games past their time are deleted, never rebuilt
        self.sweeper = asyncio.get_running_loop().create_task(retention_.sweep_forever(self))
        for room_id, code, ruleset_name, meta, record in await self.run(self.store.load):
            try:
                room = Room.load(self.store, self.run, room_id, code, rulesets.get(ruleset_name), meta, record)
                room.retention_most = self.retention
                room.odds.playouts = self.odds_playouts
            except GrognardError as exc:
                log.error("room %s cannot be rebuilt from its record: %s", code, exc)
                continue
            room.start()
            self.rooms[code] = room
        log.info("%d games loaded", len(self.rooms))

    def room(self, code: str) -> Room:
        room = self.find(code)
        if room is None:
            raise Refused(RefusalCode.NO_ROOM, "no game has this room code")
        return room

    def find(self, code: str) -> Room | None:
        """The room of ``code`` (any case), or None: none has it, or it was deleted."""
        room = self.rooms.get(code.upper())
        return None if room is None or room.closed else room

    async def close(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
        for room in self.rooms.values():
            if room.task is not None:
                room.task.cancel()
        odds.shutdown()
        self.trials.close()
        self.db.close()
        self.store.close()


def client_address(request: HTTPConnection) -> str:
    """The address a request or a WebSocket came from ("?" when the server is not told)."""
    return request.client.host if request.client else "?"
