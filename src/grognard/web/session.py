"""A page's WebSocket session (``Session``): the door, the hello that says who the page is, then its messages.

Nobody with the room code alone can lock a class out: a page is let in or not once its hello says who
it is. The host and every player with a token always get in (a fifth page of one token closes its
oldest); a projector page opened from the host page's link (its projector token) likewise; projector
pages with the room code alone share ``MAX_SPECTATORS`` places. Before its hello, a page's socket waits
only a few seconds, and a page showing its token at the handshake is never refused for the sockets of
others that never said hello (``doors.py``). A WebSocket whose ``Origin`` is not this server is refused.

Every message is a pydantic model (``protocol.py``), rate-limited per page; each is answered (``ack``,
``preview``, ``pong``) or refused with a code and one line, its ``n`` (and an order's ``client`` id).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.websockets import WebSocketState

from grognard.core.errors import GrognardError
from grognard.terminal import parse_dice
from grognard.web import doors
from grognard.web.conn import Conn, quietly
from grognard.web.messages import (
    Acked,
    Bye,
    DiceTaken,
    OpDone,
    Outbound,
    Pong,
    PreviewAnswer,
    Refusal,
    RefusalCode,
    refusal_code,
)
from grognard.web.protocol import (
    HOST_OPS,
    MAX_MESSAGE,
    PLAYER_OPS,
    Act,
    ClientMessage,
    Dice,
    Hello,
    Preview,
    Refused,
    Resync,
    client_message,
    first_problem,
)
from grognard.web.room import Room
from grognard.web.server import Server, client_address

log = logging.getLogger("grognard.web")

GAME_OPS = {"undo", "dice_mode"}  # host commands that change the game itself
MAX_PAGES_EACH = 4  # pages one player, the host or the projector link keep open on a game: a 5th closes the oldest
MAX_SPECTATORS = 8  # projector pages without the projector token (opened from the room code alone), on one game
MAX_REFUSED = 200  # refusals in a row that close a page


class Session:
    """One page's WebSocket on one room, from the handshake to the close."""

    def __init__(self, ws: WebSocket, server: Server, allowed_origins: tuple[str, ...] = ()) -> None:
        self.ws, self.server, self.allowed_origins = ws, server, allowed_origins

    async def run(self, code: str) -> None:
        """Let the page in (or refuse it), then read its messages until it goes."""
        conn = await self._open(code)
        if conn is None:
            return
        room = conn.room
        room.conns.add(conn)
        room.touch()
        sender = asyncio.get_running_loop().create_task(quietly(conn.sender()))
        try:
            while True:
                frame = await self.ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    refuse(conn, RefusalCode.MALFORMED, "messages are JSON text, not binary", None)
                else:
                    await self.handle(conn, text)
                if sender.done():
                    break
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("room %s: connection failed", room.code)
        finally:
            room.conns.discard(conn)
            room.touch()
            sender.cancel()

    async def _open(self, code: str) -> Conn | None:
        """The handshake and the hello: the page's connection, or None (refused and closed, or gone)."""
        ws = self.ws
        origin = ws.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != ws.headers.get("host"):
            if origin not in self.allowed_origins:
                await ws.close(code=1008, reason="origin refused")
                return None
        room = self.server.find(code)
        if room is None:
            await ws.close(code=1008, reason="no game has this room code")
            return None
        ticket = self.server.doors.enter(room.code, client_address(ws), doors.vouched(ws, room.whose_token))
        if ticket is None:
            await doors.refuse(ws, "too many pages of this game opening at once without a token: wait a moment")
            return None
        try:
            await ws.accept(subprotocol=doors.answer_protocol(ws))
            first = await doors.first_message(ws, ticket)
        except (WebSocketDisconnect, OSError):
            return None  # gone during the handshake
        finally:
            self.server.doors.leave(ticket)
        if ticket.pushed_out.is_set():
            await close(ws, "opened on another page")
            return None
        hello = _hello(first)
        if hello is None:
            await close(ws, "the first message must be hello")
            return None
        refusal, player, who = admit(room, hello)
        if refusal is not None:
            await close(ws, refusal)
            return None
        return Conn(ws, room, hello.role, player, who)

    async def handle(self, conn: Conn, text: str) -> None:
        """One message of the page: done, queued for the room's actor, or refused (nothing changed)."""
        n = None
        try:
            if not conn.bucket.take():
                raise Refused(RefusalCode.RATE, "too many messages: slow down")
            if len(text) > MAX_MESSAGE:
                raise Refused(RefusalCode.TOO_BIG, f"a message has at most {MAX_MESSAGE} characters")
            message = client_message.validate_json(text)
            n = getattr(message, "n", None)
            await self._dispatch(conn, message, n)
            conn.refusals = 0
        except ValidationError as exc:
            refuse(conn, RefusalCode.MALFORMED, first_problem(exc), n)
        except Refused as exc:
            # an order refused for the rate names its client id: the page keeps it and sends it again
            refuse(conn, exc.code, str(exc), n, _client_id(text) if exc.code == RefusalCode.RATE else None)
        except GrognardError as exc:
            refuse(conn, refusal_code(exc.code), str(exc), n)
        except Exception:
            log.exception("room %s: a message failed", conn.room.code)
            refuse(conn, RefusalCode.SERVER_ERROR, "the server could not do that", n)

    async def _dispatch(self, conn: Conn, message: ClientMessage, n: Any) -> None:
        room, kind = conn.room, message.type
        if kind == "ping":
            conn.send(Pong())
            return
        if isinstance(message, Resync):
            conn.resync()
            return
        if kind in HOST_OPS and conn.role != "host":
            raise Refused(RefusalCode.HOST_ONLY, "only the host may do that")
        if kind in PLAYER_OPS and conn.role != "player":
            raise Refused(RefusalCode.PLAYERS_ONLY, "only a player may do that")
        if isinstance(message, Hello):
            raise Refused(RefusalCode.AGAIN, "already said hello")
        if isinstance(message, Act):
            assert conn.player is not None
            action, client = message.action, message.client
            future = room.submit(room.act, conn.player, message.seat, action, client)
            answer(
                conn,
                future,
                n,
                lambda step: Acked(n=n, action=action, step=step, client=client),
                client,
            )
        elif isinstance(message, Preview):
            assert conn.player is not None
            conn.send(PreviewAnswer(n=n, **room.preview(conn.player, message.action)))
        elif isinstance(message, Dice):
            request = room.dice_request
            values = parse_dice(message.values, request["sides"] if request else 6)
            await room.supply_dice(values)  # outside the queue (the actor waits for it); stored before the ack
            conn.send(DiceTaken(n=None, dice=values))
        elif kind in GAME_OPS:  # they change the game: in the actor's order
            future = room.submit(room.host_op, kind, **message.model_dump(exclude={"type"}))
            answer(conn, future, None, lambda _: OpDone(n=None, op=kind))
        else:  # seats, players, settings: at once, even while the actor waits for the referee's dice
            await room.host_op(kind, **message.model_dump(exclude={"type"}))
            room.kick()
            conn.send(OpDone(n=None, op=kind))


def admit(room: Room, hello: Hello) -> tuple[str | None, str | None, str]:
    """Who a page is, from its hello: (the reason it is refused or None, its player id, whose page).

    The host and every player with a token always get in (a fifth page of one token closes its
    oldest); projector pages with the host page's projector token likewise; projector pages with
    the room code alone share ``MAX_SPECTATORS`` places, so they can never crowd out the class."""
    player = None
    if hello.role == "host":
        if hello.token is None or not room.is_host(hello.token):
            return "wrong host token", None, ""
        who = "host:"
    elif hello.role == "player":
        player = room.player_by_token(hello.token) if hello.token else None
        if player is None:
            return "wrong player token: join the game again", None, ""
        who = f"player:{player}"
    elif hello.token is not None:
        if not room.is_projector(hello.token):
            return "wrong projector token: open the projector page from the host page", None, ""
        who = "projector:"
    else:
        if sum(c.who == "spectator:" for c in room.conns) >= MAX_SPECTATORS:
            return "too many projector pages on this game: open the projector page from the host page", None, ""
        return None, None, "spectator:"
    same = sorted((c for c in room.conns if c.who == who and c.closing is None), key=lambda c: c.opened)
    for old in same[: max(0, len(same) - MAX_PAGES_EACH + 1)]:
        old.kick("opened on another page")
    return None, player, who


def answer(
    conn: Conn, future: asyncio.Future[Any], n: int | None, ok: Callable[[Any], Outbound], client: str | None = None
) -> None:
    """Answer a queued request when the actor has done it; the connection reads on meanwhile
    (the host's next message may be the very roll the actor waits for). A refusal of an
    order names its ``client`` id, so the page knows which order of its outbox it answers."""

    async def wait() -> None:
        try:
            conn.send(ok(await future))
        except Refused as exc:
            refuse(conn, exc.code, str(exc), n, client)
        except GrognardError as exc:
            refuse(conn, refusal_code(exc.code), str(exc), n, client)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: a request failed", conn.room.code)
            refuse(conn, RefusalCode.SERVER_ERROR, "the server could not do that", n, client)

    task = asyncio.get_running_loop().create_task(wait())
    conn.waiting.add(task)
    task.add_done_callback(conn.waiting.discard)


def refuse(conn: Conn, code: RefusalCode, message: str, n: int | None, client: str | None = None) -> None:
    """Tell the page its message was refused (``code``, one line); too many in a row close it."""
    conn.refusals += 1
    if client is None:
        conn.send(Refusal(code=code, message=message, n=n))
    else:
        conn.send(Refusal(code=code, message=message, n=n, client=client))
    if conn.refusals > MAX_REFUSED:
        conn.kick("too many refused messages")


async def close(ws: WebSocket, reason: str) -> None:
    """Say goodbye (``bye``, the reason) and close a page let in no further."""
    if ws.client_state == WebSocketState.CONNECTED:
        await ws.send_text(json.dumps(Bye(message=reason).out()))
        await ws.close(code=1008, reason=reason)


def _hello(first: str | None) -> Hello | None:
    """The page's first message, if it is a well-formed hello."""
    try:
        hello = client_message.validate_json(first) if first is not None and len(first) <= MAX_MESSAGE else None
    except ValidationError:
        return None
    return hello if isinstance(hello, Hello) else None


def _client_id(text: str) -> str | None:
    """The client id of an order not read yet (refused before its checks), if it has a well-formed one."""
    if len(text) > MAX_MESSAGE:
        return None
    try:
        client = json.loads(text).get("client")
        return Act.model_validate({"type": "act", "action": "x", "client": client}).client if client else None
    except (ValueError, AttributeError, ValidationError):
        return None
