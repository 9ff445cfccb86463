"""One page's WebSocket connection as the room sees it: who it is, and what is sent to it.

Messages queue up and a sender task writes them, the state last and coalesced: the page is sent its
whole state once (at connection, or when it asks with ``resync``), then only what changed (``patch``,
see ``grognard.web.patch``), at most every ``STATE_INTERVAL`` seconds.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket, WebSocketDisconnect

from grognard.core.engine import Event
from grognard.web.guard import Bucket
from grognard.web.messages import Bye, EventItem, Events, Outbound
from grognard.web.patch import Sent
from grognard.web.state import state_message

if TYPE_CHECKING:
    from grognard.web.room import Room

log = logging.getLogger("grognard.web")

STATE_INTERVAL = 0.05  # seconds between two states sent to one page (events and answers go at once)


class Conn:
    """One page's WebSocket: messages queue up and a sender task writes them, state last and coalesced.

    The page is sent its whole state once (at connection, or when it asks with ``resync``), then
    only what changed (``patch``, see ``grognard.web.patch``)."""

    def __init__(self, ws: WebSocket, room: Room, role: str, player: str | None, who: str = "") -> None:
        self.ws, self.room, self.role, self.player = ws, room, role, player
        self.who = who or f"{role}:{player or ''}"  # whose page: "host:", "player:p3", "projector:" or "spectator:"
        self.opened = time.monotonic()
        self.out: list[dict[str, Any]] = []  # the JSON objects of the messages queued (``Outbound.out``)
        self._dirty = True
        self.wake = asyncio.Event()
        self.closing: str | None = None
        self.bucket = Bucket(rate=10.0, burst=30)
        self.refusals = 0
        self.waiting: set[asyncio.Task[None]] = set()
        self.sent = Sent()

    def resync(self) -> None:
        """Send the whole state next (the page asked: it lost track)."""
        self.sent.reset()
        self.dirty()

    def send(self, message: Outbound) -> None:
        self.out.append(message.out())
        self.wake.set()

    def tell_events(self, items: list[EventItem], step: int) -> None:
        """The events of record line ``step`` this page may see (sent even when none: the step is news)."""
        self.send(Events(step=step, events=items))

    def dirty(self) -> None:
        self._dirty = True
        self.wake.set()

    def kick(self, reason: str) -> None:
        self.send(Bye(message=reason))
        self.closing = reason
        self.wake.set()

    def seats(self) -> list[str]:
        return self.room.seats_of(self.player)

    def may_see(self, event: Event) -> bool:
        if event.to is None:
            return True
        return any(event.visible_to(seat) for seat in self.seats())

    async def sender(self) -> None:
        """Write queued messages at once; the state at most every STATE_INTERVAL seconds (the latest only)."""
        ws = self.ws
        last = 0.0
        while True:
            await self.wake.wait()
            self.wake.clear()
            messages, self.out = self.out, []
            for message in messages:
                await ws.send_text(json.dumps(message, separators=(",", ":")))
            if self.closing is not None:
                await ws.close(code=1008, reason=self.closing[:100])
                return
            if messages and self._dirty:  # every page's events go out first, then the states
                await asyncio.sleep(0)
                self.wake.set()
                continue
            if self._dirty and self.room.committing:
                continue  # the action's line is being stored: its state goes when it is (publish wakes us)
            if self._dirty:
                wait = last + STATE_INTERVAL - time.monotonic()
                if wait > 0:
                    try:
                        await asyncio.wait_for(self.wake.wait(), wait)
                    except TimeoutError:
                        pass
                    self.wake.set()
                    continue
                self._dirty = False
                last = time.monotonic()
                state = self.sent.message(state_message(self.room, self))  # whole, or a patch
                if state is not None:
                    await ws.send_text(json.dumps(state, separators=(",", ":")))


async def quietly(job: Any) -> None:
    """Run a page's sender; a page that went away mid-send is not an error."""
    try:
        await job
    except (WebSocketDisconnect, OSError):
        pass
    except RuntimeError as exc:  # starlette: a send after the close
        log.warning("a page's sender stopped: %s", exc)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("a page's sender failed")
