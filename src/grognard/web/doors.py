"""Who may hold a room's WebSocket open before its hello, and for how long (nobody locked out by a script).

A page says who it is in its hello, the first message once its WebSocket is open; until then the socket
holds a file descriptor and a task for nothing. A class shares one address behind its school's router, so
a bound by address alone let one pupil's script (64 sockets that never say hello, opened again as they
time out) lock every new page of that address out, the host's included.

So a room page shows its token at the handshake too, as a WebSocket subprotocol (the one header a
browser's ``WebSocket`` may set; a URL's query would be written in access logs)::

    Sec-WebSocket-Protocol: grognard, grognard.t.<token>

and the server answers ``grognard``. A socket showing the host's, the projector link's or a player's
token of that room is *vouched for*: it is never counted with anyone else's sockets and never refused
for them. At most ``PER_TOKEN`` sockets of one token wait for their hello at once (one more closes the
oldest of them: a script holding a pupil's own token crowds out that pupil's waiting sockets only, and
his page, opened last, gets in), each for ``VOUCHED_WAIT`` seconds. A socket with no token of the room
(a projector page opened from the room code alone, a script) waits ``ANONYMOUS_WAIT`` seconds and is
one of at most ``PER_ROOM`` such sockets on a room and ``PER_ADDRESS`` from one address; past either it
is refused at the handshake (HTTP 429 with ``Retry-After``). The hello is still what lets a page in
(``app.admit``); the token at the handshake only decides whether it may wait for it.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Callable

from fastapi import WebSocket, WebSocketDisconnect

from grognard.web.messages import RefusalCode, refusal

SUBPROTOCOL = "grognard"  # what the server answers a page that offers it
TOKEN_PREFIX = "grognard.t."  # the offered subprotocol carrying the page's token
TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")  # host and player tokens (token_urlsafe), projector's (hex)

ANONYMOUS_WAIT = 3.0  # seconds a socket with no token of the room has to say hello (a page says it at once)
VOUCHED_WAIT = 10.0  # seconds a socket with a token of the room has
PER_ROOM = 16  # sockets with no token of the room, waiting for their hello on one room
PER_ADDRESS = 32  # the same, from one address (every room together)
PER_TOKEN = 4  # sockets of one token waiting for their hello (one more closes the oldest)


def offered_token(ws: WebSocket) -> str | None:
    """The token a page showed at the handshake (``grognard.t.<token>``), if well formed."""
    for protocol in ws.scope.get("subprotocols") or ():
        if protocol.startswith(TOKEN_PREFIX) and TOKEN.match(protocol[len(TOKEN_PREFIX) :]):
            return str(protocol[len(TOKEN_PREFIX) :])
    return None


def answer_protocol(ws: WebSocket) -> str | None:
    """The subprotocol to accept with: ``grognard`` when offered (a browser that offers subprotocols fails
    the connection unless one is chosen), else none."""
    return SUBPROTOCOL if SUBPROTOCOL in (ws.scope.get("subprotocols") or ()) else None


class Waiting:
    """One socket waiting for its hello: counted where it counts until :meth:`Doors.leave`."""

    def __init__(self, code: str, address: str, who: str | None) -> None:
        self.code, self.address, self.who = code, address, who
        self.pushed_out = asyncio.Event()  # set when a newer socket of the same token takes its place

    @property
    def wait(self) -> float:
        return VOUCHED_WAIT if self.who is not None else ANONYMOUS_WAIT


class Doors:
    """The sockets waiting for their hello, by room and address (no token) and by room and page (a token)."""

    def __init__(self) -> None:
        self.by_room: Counter[str] = Counter()
        self.by_address: Counter[str] = Counter()
        self.by_page: dict[tuple[str, str], list[Waiting]] = {}

    def enter(self, code: str, address: str, who: str | None) -> Waiting | None:
        """A socket may wait for its hello (its ticket), or not (``None``: refuse it at the handshake).

        ``who``: whose page the handshake's token names (``"host:"``, ``"player:p3"``, ``"projector:"``),
        ``None`` when it named no token of the room."""
        if who is None:
            if self.by_room[code] >= PER_ROOM or self.by_address[address] >= PER_ADDRESS:
                return None
            self.by_room[code] += 1
            self.by_address[address] += 1
            return Waiting(code, address, None)
        ticket = Waiting(code, address, who)
        same = self.by_page.setdefault((code, who), [])
        same.append(ticket)
        while len(same) > PER_TOKEN:
            same.pop(0).pushed_out.set()
        return ticket

    def leave(self, ticket: Waiting) -> None:
        """The socket said hello, went away or timed out: it no longer counts."""
        if ticket.who is None:
            for counter, key in ((self.by_room, ticket.code), (self.by_address, ticket.address)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]
            return
        same = self.by_page.get((ticket.code, ticket.who), [])
        if ticket in same:
            same.remove(ticket)
        if not same:
            self.by_page.pop((ticket.code, ticket.who), None)


async def first_message(ws: WebSocket, ticket: Waiting) -> str | None:
    """The socket's first text message, or ``None`` if it did not come in time, the socket went away, or
    a newer socket of the same token took its place."""
    receiving = asyncio.ensure_future(ws.receive_text())
    pushed = asyncio.ensure_future(ticket.pushed_out.wait())
    try:
        done, _ = await asyncio.wait({receiving, pushed}, timeout=ticket.wait, return_when=asyncio.FIRST_COMPLETED)
        if receiving in done:
            try:
                return receiving.result()
            except (WebSocketDisconnect, KeyError, RuntimeError):
                return None
        return None
    finally:
        for task in (receiving, pushed):
            if not task.done():
                task.cancel()


async def refuse(ws: WebSocket, why: str) -> None:
    """Refuse a socket at the handshake: HTTP 429 with ``Retry-After`` where the server can say it, else a close."""
    if "websocket.http.response" in ws.scope.get("extensions", {}):
        await ws.send_denial_response(refusal(RefusalCode.RATE, why, 429, retry=int(ANONYMOUS_WAIT) + 1))
    else:
        await ws.close(code=1008, reason=why)


def vouched(ws: WebSocket, whose: Callable[[str], str | None]) -> str | None:
    """Whose page the handshake's token names (``whose(token)``), or ``None``."""
    token = offered_token(ws)
    return whose(token) if token is not None else None
