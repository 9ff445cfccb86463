"""The web server: FastAPI routes, the WebSocket play, rate limits, the pages.

``create_app(db_url)`` makes the application; ``grognard serve`` runs it on
uvicorn. At start-up every stored game is rebuilt from its record.

Who may do what: the host's token (given once, when the game is made) for host
commands; a player's token (given once, at join) for that player's seats only;
the projector sees what a spectator may. Tokens come from ``secrets`` and only
their SHA-256 is stored. Every message is a pydantic model (type, size, range);
WebSocket messages and joins are rate-limited; a WebSocket whose ``Origin`` is
not this server is refused.

Nobody with the room code alone can lock a class out: a page is let in or not once its
hello says who it is. The host and every player with a token always get in (a fifth page
of one token closes its oldest); a projector page opened from the host page's link (its
projector token) likewise; projector pages with the room code alone share ``MAX_SPECTATORS``
places. Before its hello, a page's socket waits only a few seconds, and a page showing its token at
the handshake is never refused for the sockets of others that never said hello (``doors.py``).
Request bodies are limited on the bytes read (``guard.Guard``), WebSocket messages
by uvicorn's ``ws_max_size`` (``serve.WS_MAX_SIZE``).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import secrets
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from html import escape
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.websockets import WebSocketState

from grognard import __version__, rulesets
from grognard.core.engine import Event
from grognard.core.errors import GrognardError
from grognard.core.options import check_offered
from grognard.core.record import readable_by
from grognard.terminal import parse_dice
from grognard.web import doors, faces, odds, pages, replays
from grognard.web import retention as retention_
from grognard.web.guard import Bucket, CodeGate, Codes, Guard, Limits
from grognard.web.odds import CLASS_FROM, CLASS_SHOWN, SOLO_FROM, SOLO_SHOWN
from grognard.web.patch import Sent
from grognard.web.protocol import (
    HOST_OPS,
    MAX_BODY,
    MAX_MESSAGE,
    MAX_UPLOAD,
    PLAYER_OPS,
    Act,
    CreateRoom,
    Dice,
    Hello,
    Join,
    Preview,
    Resync,
    client_message,
    first_problem,
)
from grognard.web.room import Refused, Room
from grognard.web.store import InOrder, Store

log = logging.getLogger("grognard.web")

GAME_OPS = {"undo", "dice_mode"}  # host commands that change the game itself
MAX_PAGES_EACH = 4  # pages one player, the host or the projector link keep open on a game: a 5th closes the oldest
MAX_SPECTATORS = 8  # projector pages without the projector token (opened from the room code alone), on one game
STATE_INTERVAL = 0.05  # seconds between two states sent to one page (events and answers go at once)


class Server:
    """The rooms and the database; one worker thread runs the database calls in order."""

    def __init__(self, db_url: str, join_url: str | None = None, retention: float = retention_.DEFAULT_DAYS) -> None:
        self.store = Store(db_url)
        self.retention = retention  # days a game is kept (retention.py); a host may choose fewer
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

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.db.run(fn, *args)

    async def load(self) -> None:
        await retention_.sweep(self)  # the games past their time are deleted, never rebuilt
        self.sweeper = asyncio.get_running_loop().create_task(retention_.sweep_forever(self))
        for room_id, code, ruleset_name, meta, record in await self.run(self.store.load):
            try:
                room = Room.load(self.store, self.run, room_id, code, rulesets.get(ruleset_name), meta, record)
                room.retention_most = self.retention
            except GrognardError as exc:
                log.error("room %s cannot be rebuilt from its record: %s", code, exc)
                continue
            room.start()
            self.rooms[code] = room
        log.info("%d games loaded", len(self.rooms))

    def room(self, code: str) -> Room:
        room = self.rooms.get(code.upper())
        if room is None or room.closed:
            raise Refused("no_room", "no game has this room code")
        return room

    async def close(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
        for room in self.rooms.values():
            if room.task is not None:
                room.task.cancel()
        odds.shutdown()
        self.db.close()
        self.store.close()


def _client(request: Request | WebSocket) -> str:
    return request.client.host if request.client else "?"


def _refusal(code: str, message: str, status: int = 400, retry: int | None = None) -> JSONResponse:
    """A refused request: ``{"type": "refused", "code", "message"}`` (and ``retry``: seconds to wait, with
    ``Retry-After``, when trying again by itself is the right thing for a page to do)."""
    if retry is None:
        return JSONResponse({"type": "refused", "code": code, "message": message}, status_code=status)
    body = {"type": "refused", "code": code, "message": message, "retry": retry}
    return JSONResponse(body, status_code=status, headers={"Retry-After": str(retry)})


class Conn:
    """One page's WebSocket: messages queue up and a sender task writes them, state last and coalesced.

    The page is sent its whole state once (at connection, or when it asks with ``resync``), then
    only what changed (``patch``, see ``grognard.web.patch``)."""

    def __init__(self, ws: WebSocket, room: Room, role: str, player: str | None, who: str = "") -> None:
        self.ws, self.room, self.role, self.player = ws, room, role, player
        self.who = who or f"{role}:{player or ''}"  # whose page: "host:", "player:p3", "projector:" or "spectator:"
        self.opened = time.monotonic()
        self.out: list[dict[str, Any]] = []
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

    def send(self, message: dict[str, Any]) -> None:
        self.out.append(message)
        self.wake.set()

    def tell_events(self, items: list[dict[str, Any]], step: int) -> None:
        """The events of record line ``step`` this page may see (sent even when none: the step is news)."""
        self.send({"type": "events", "step": step, "events": items})

    def dirty(self) -> None:
        self._dirty = True
        self.wake.set()

    def kick(self, reason: str) -> None:
        self.send({"type": "bye", "message": reason})
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


def state_message(room: Room, conn: Conn) -> dict[str, Any]:
    """Everything a page shows, for its role and seats: never what the rules hide from them, nor the seed."""
    ruleset, game, meta = room.ruleset, room.game, room.meta
    seats = conn.seats() if conn.role == "player" else []
    mine = {s for s in seats if room.controller(s) == ("player", conn.player)}
    seat = seats[0] if seats else None
    names = {pid: p["name"] for pid, p in meta["players"].items()}
    online = {c.player for c in room.conns if c.role == "player"}
    pending = room.memo("pending", game.pending, keep=False) if game is not None else []
    owing = {d.seat for d in pending}
    shared = frozenset(mine)
    commands = room.memo("commands", lambda: faces.commands(ruleset, game)) if game is not None else {}
    out: dict[str, Any] = {
        "type": "state",
        "version": room.version,
        "code": room.code,
        "title": ruleset.title,
        "ruleset": ruleset.name,
        "status": meta["status"],
        "paused": meta["paused"],
        "locked": bool(meta.get("locked")),
        "dice": meta["dice"],
        "ready": game is not None,
        "step": room.writer.steps if room.writer is not None and game is not None else 0,
        "timer": {
            "seconds": meta["timer"],
            "on_timeout": meta["on_timeout"],
            "left": max(0.0, room.deadline - time.time()) if room.deadline else None,
        },
        "seats": [
            {
                "seat": s,
                "side": room.side_of(s),
                "player": names.get(entry["player"]) if entry["player"] else None,
                "player_id": entry["player"] if conn.role == "host" else None,
                "bot": (lambda c: c[1] if c[0] == "bot" else None)(room.controller(s)),
                "online": entry["player"] in online,
                "owes": s in owing,
                "yours": s in mine,
                **({"commands": commands[s]} if s in commands else {}),
            }
            for s, entry in meta["seats"].items()
        ],
        "events": [item for event, item in list(room.recent)[-30:] if conn.may_see(event)],
    }
    if game is not None:
        out.update(
            turn=game.turn,
            phase=room.memo("phase", lambda: faces.phase(ruleset, game)),
            sides=list(ruleset.sides),
            tables=room.memo_like(
                ("tables", shared, seat),
                lambda: faces.tables(ruleset, game, mine, seat),
                ("tables", frozenset(), None),
                lambda: faces.tables(ruleset, game, (), None),
            ),
            figures=room.memo(
                "figures", lambda: [[label, str(value)] for label, value in faces.figures(ruleset, game)]
            ),
            result=game.result.to_json() if game.result is not None else None,
        )
        room.odds_moved()  # at a new turn (or a game just loaded) its estimate begins, off the actor
        if room.odds_shown(conn.who.split(":")[0]):  # the host's choice: a page not shown it is sent none
            odds_seat = seat if conn.role == "player" else None  # a seat's own estimate; others the public one
            out["odds"] = room.odds.for_page(odds_seat, with_curve=conn.role == "projector")
        if ruleset.face is not None:  # the page draws the table from the scene (static/table.js)
            out["scene"] = room.memo_like(
                ("scene", shared, seat),
                lambda: faces.scene(ruleset, game, mine, seat),
                ("scene", frozenset(), None),
                lambda: faces.scene(ruleset, game, (), None),
            )
        else:  # the server's picture of a rule set without a face
            out["svg"] = room.svg(seat)
        if meta["status"] in ("over", "ended") and ruleset.summary is not None:
            summary = ruleset.summary
            out["summary"] = room.memo("summary", lambda: [[label, str(value)] for label, value in summary(game)])
    elif ruleset.face is not None and room.writer is not None:  # the referee types the setup: its ground meanwhile
        embedded = room.writer.lines[0].get("embedded")
        out.update(
            sides=list(ruleset.sides),
            scene=room.memo("ground", lambda: faces.ground(ruleset, meta["options"], embedded)),
        )
    if conn.role == "player":
        out["you"] = {"id": conn.player, "name": names.get(conn.player or "", ""), "seats": seats}
        decisions = []
        if game is not None and meta["status"] == "playing" and not meta["paused"]:
            decisions = [
                room.memo(("decision", d.seat, d.id), functools.partial(faces.decision_json, ruleset, game, d))
                for d in pending
                if d.seat in mine
            ]
        out["decisions"] = decisions
    if conn.role == "host":
        out["host"] = {
            "players": [
                {"id": pid, "name": p["name"], "seats": room.seats_of(pid), "online": pid in online}
                for pid, p in meta["players"].items()
            ],
            # copies: the page's last state is kept (grognard.web.patch) and these change in place
            "dice_request": json.loads(json.dumps(room.dice_request)),
            "bots": list(ruleset.bots),
            "sides": list(ruleset.sides),
            "bot_names": dict(meta["bot_names"]),
            "fill_bots": meta["fill_bots"],
            "retention_days": retention_.room_days(meta, conn.ws.app.state.server.retention),
            "retention_most": conn.ws.app.state.server.retention,
            "expires": retention_.expires(meta, conn.ws.app.state.server.retention),
            "odds_shown": meta.get("odds_shown", CLASS_SHOWN),
            "odds_from": meta.get("odds_from", CLASS_FROM),
            "join_url": conn.ws.app.state.server.join_url or "",
            "projector_url": f"/projector/{room.code}#{room.projector_token()}",
            "steps": room.writer.steps if room.writer is not None and game is not None else 0,
            "stands": room.stands(),  # why the last action may not be taken back (its dice, a reveal), or None
        }
    return out


def create_app(
    db_url: str,
    *,
    join_url: str | None = None,
    allowed_origins: tuple[str, ...] = (),
    retention: float = retention_.DEFAULT_DAYS,
) -> FastAPI:
    """The grognard web application over the database at ``db_url``; games kept ``retention`` days."""
    server = Server(db_url, join_url, retention)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        await server.load()
        yield
        await server.close()

    app = FastAPI(
        title="grognard", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.state.server = server
    static = resources.files("grognard.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    app.add_middleware(CodeGate, codes=server.codes)
    # every route: the bytes actually read (an uploaded game record may be larger), the security headers
    app.add_middleware(
        Guard, limit=MAX_BODY, wider={"/api/replays": replays.MAX_RECORD, "/api/rooms": MAX_BODY + 4 * MAX_UPLOAD}
    )

    @app.exception_handler(Refused)
    async def refused(_request: Request, exc: Refused) -> JSONResponse:
        status = 404 if exc.code == "no_room" else 403 if exc.code in ("host_only", "bad_token", "locked") else 409
        return _refusal(exc.code, str(exc), status)

    @app.exception_handler(GrognardError)
    async def grognard_error(_request: Request, exc: GrognardError) -> JSONResponse:
        return _refusal(exc.code, str(exc), 400)

    @app.exception_handler(ValidationError)
    async def invalid(_request: Request, exc: ValidationError) -> JSONResponse:
        return _refusal("malformed", first_problem(exc), 422)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return _refusal("malformed", first_problem(exc), 422)  # a path part (a step, a plot's name) not as typed

    # ------------------------------------------------------------------ API
    @app.get("/api/rulesets")
    async def list_rulesets() -> Any:
        out = []
        for name in rulesets.names():
            r = rulesets.get(name)
            out.append(
                {
                    "name": r.name,
                    "title": r.title,
                    "sides": list(r.sides),
                    "bots": list(r.bots),
                    "options": [
                        {
                            "name": s.name,
                            "kind": s.kind.__name__,
                            "default": s.default,
                            "help": s.help,
                            "values": s.describe_values(),
                            "offered": [value for value, _ in s.offered],
                        }
                        for s in r.options
                    ],
                }
            )
        return out

    @app.post("/api/rooms")
    async def create_room(request: Request) -> Any:
        if not server.creates.take(_client(request)):
            return _refusal("rate", "too many games made from this address; wait a minute", 429)
        body = CreateRoom.model_validate_json(await request.body())
        ruleset = rulesets.get(body.ruleset)
        given: dict[str, Any] = dict(body.options)
        embedded = None
        if body.upload is not None:  # one's own file, checked whole before anything is made
            if ruleset.upload is None:
                return _refusal("no_upload", f"upload: the {ruleset.name} rules take no file of one's own")
            given.pop(ruleset.upload_option, None)
            check_offered(ruleset.options, given)
            uploaded, embedded = ruleset.upload(body.upload.name, body.upload.text)
            given.update(uploaded)
        else:
            check_offered(ruleset.options, given)  # a scenario shipped, never a file on the server named
        solo = body.solo
        if solo is not None:  # checked before anything is made: a refused solo game leaves no room behind
            if solo.side is None or solo.side not in ruleset.sides:
                what = "solo.side: none given;" if solo.side is None else f"solo.side {solo.side!r}:"
                return _refusal("bad_side", f"{what} pick a side: {', '.join(ruleset.sides)}")
            if body.dice != "seeded":
                return _refusal("solo_dice", "dice: a solo game rolls the computer's dice (referee mode needs a host)")
        host_token = secrets.token_urlsafe(24)
        room = await Room.create(server.store, ruleset, given, body.dice, host_token, server.run, embedded)
        room.retention_most = server.retention
        server.rooms[room.code] = room
        server.codes.note(_client(request), room.code)  # the host's own pages never count as codes tried
        made: dict[str, Any] = {
            "code": room.code,
            "host_token": host_token,
            "host_url": f"/host/{room.code}#{host_token}",
        }
        if solo is not None:  # seated on the side picked, bots on the rest (fill_bots), started
            room.meta.update(odds_shown=SOLO_SHOWN, odds_from=SOLO_FROM)  # who is winning: the player's own
            player, token = await room.join(solo.name, solo.side)
            await room.call(room.host_op, "start")
            made.update(player=player, token=token, seats=room.seats_of(player), play_url=f"/play/{room.code}")
        return made

    @app.post("/api/rooms/{code}/join")
    async def join(code: str, request: Request) -> Any:
        who = _client(request)
        room = server.room(code)  # how many different codes one address or browser may try: guard.CodeGate
        if not server.joins.take(who):
            wait = server.joins.wait(who)
            return _refusal("rate", "many are joining at once: wait a moment", 429, retry=wait)
        body = Join.model_validate_json(await request.body())
        if body.side is not None and body.side not in room.ruleset.sides:
            return _refusal("bad_side", f"no side {body.side!r}; sides: {', '.join(room.ruleset.sides)}")
        player, token = await room.join(body.name, body.side)  # not queued: a join never waits for dice
        return {"player": player, "token": token, "seats": room.seats_of(player), "play_url": f"/play/{room.code}"}

    @app.get("/api/rooms/{code}/record")
    async def record(code: str, x_host_token: str = Header("")) -> Any:
        room = server.room(code)
        if not x_host_token or not room.is_host(x_host_token):
            raise Refused("host_only", "only the host may download the record")
        if room.meta["status"] not in ("over", "ended"):
            raise Refused("not_over", "the record (with its dice seed) is given once the game is over")
        assert room.writer is not None
        # the host reads as a spectator: a secret choice never revealed (a game ended during one) stays sealed
        lines = readable_by(room.writer.lines, None)
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
        return PlainTextResponse(
            text,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="grognard-{room.code}.jsonl"'},
        )

    @app.get("/api/rooms/{code}/debrief")
    async def debrief(code: str) -> Any:
        """After the end: the game's figures beside a Monte Carlo run of its options, with the analysis plots."""
        room = server.room(code)
        if room.meta["status"] not in ("over", "ended"):
            raise Refused("not_over", "the debrief comes once the game is over")
        if room.debrief is None:
            from grognard.web.debrief import debrief as make

            room.debrief = await asyncio.get_running_loop().run_in_executor(
                None, make, room.ruleset.name, room.meta["options"], int(room.meta["bot_seed"])
            )
        from grognard.web.debrief import PLOTS

        return {
            "lines": room.debrief["lines"],
            "plots": [
                {"url": f"/api/rooms/{room.code}/debrief/{name}.png", "alt": PLOTS[name]}
                for name in room.debrief["plots"]
            ],
        }

    @app.get("/api/rooms/{code}/debrief/{name}.png")
    async def debrief_plot(code: str, name: str) -> Any:
        room = server.room(code)
        if room.debrief is None or name not in room.debrief["plots"]:
            raise Refused("no_plot", "no such plot")
        return Response(room.debrief["plots"][name], media_type="image/png")

    @app.delete("/api/rooms/{code}")
    async def delete_room(code: str, x_host_token: str = Header("")) -> Any:
        room = server.room(code)
        if not x_host_token or not room.is_host(x_host_token):
            raise Refused("host_only", "only the host may delete the game")
        room.close()  # at once, a game under way too: its pages closed, nothing of it kept
        del server.rooms[room.code]
        await server.run(server.store.delete_room, room.id)
        return {"deleted": room.code}

    replays.add_routes(app, server)  # the replay viewer: a room's record or an uploaded one, step by step

    # ------------------------------------------------------------------ pages
    @app.get("/", response_class=HTMLResponse)
    async def index() -> Any:
        return pages.index([(n, rulesets.get(n)) for n in rulesets.names()])

    @app.get("/favicon.ico")
    async def favicon() -> Any:
        return Response(status_code=204)

    @app.get("/host/{code}", response_class=HTMLResponse)
    async def host_page(code: str) -> Any:
        return pages.room_page("host", server.room(code))

    @app.get("/play/{code}", response_class=HTMLResponse)
    async def play_page(code: str) -> Any:
        return pages.room_page("player", server.room(code))

    @app.get("/projector/{code}", response_class=HTMLResponse)
    async def projector_page(code: str, request: Request) -> Any:
        return pages.room_page("projector", server.room(code), join_base(request))

    @app.get("/qr/{code}.svg")
    async def qr(code: str, request: Request) -> Any:
        room = server.room(code)
        return Response(pages.qr_svg(f"{join_base(request)}/play/{room.code}"), media_type="image/svg+xml")

    def join_base(request: Request) -> str:
        """The address players reach this server at: ``--lan``'s, else the one this page was asked at."""
        return (server.join_url or str(request.base_url)).rstrip("/")

    # ------------------------------------------------------------------ WebSocket
    @app.websocket("/ws/{code}")
    async def play(ws: WebSocket, code: str) -> None:
        origin = ws.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != ws.headers.get("host") and origin not in allowed_origins:
            await ws.close(code=1008, reason="origin refused")
            return
        room = server.rooms.get(code.upper())
        if room is None or room.closed:
            await ws.close(code=1008, reason="no game has this room code")
            return
        ticket = server.doors.enter(room.code, _client(ws), doors.vouched(ws, room.whose_token))
        if ticket is None:
            await doors.refuse(ws, "too many pages of this game opening at once without a token: wait a moment")
            return
        try:
            await ws.accept(subprotocol=doors.answer_protocol(ws))
            first = await doors.first_message(ws, ticket)
        except (WebSocketDisconnect, OSError):
            return  # gone during the handshake
        finally:
            server.doors.leave(ticket)
        try:
            hello = client_message.validate_json(first) if first is not None and len(first) <= MAX_MESSAGE else None
        except ValidationError:
            hello = None
        if ticket.pushed_out.is_set():
            await _close(ws, "opened on another page")
            return
        if hello is None or hello.type != "hello":
            await _close(ws, "the first message must be hello")
            return
        refusal, player, who = admit(room, hello)
        if refusal is not None:
            await _close(ws, refusal)
            return
        conn = Conn(ws, room, hello.role, player, who)
        room.conns.add(conn)
        room.touch()
        sender = asyncio.get_running_loop().create_task(_quietly(conn.sender()))
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    _refuse(conn, "malformed", "messages are JSON text, not binary", None)
                else:
                    await handle(room, conn, text)
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

    async def handle(room: Room, conn: Conn, text: str) -> None:
        n = None
        try:
            if not conn.bucket.take():
                raise Refused("rate", "too many messages: slow down")
            if len(text) > MAX_MESSAGE:
                raise Refused("too_big", f"a message has at most {MAX_MESSAGE} characters")
            message = client_message.validate_json(text)
            n = getattr(message, "n", None)
            kind = message.type
            if kind == "ping":
                conn.send({"type": "pong"})
                return
            if isinstance(message, Resync):
                conn.resync()
                return
            if kind in HOST_OPS and conn.role != "host":
                raise Refused("host_only", "only the host may do that")
            if kind in PLAYER_OPS and conn.role != "player":
                raise Refused("players_only", "only a player may do that")
            if isinstance(message, Hello):
                raise Refused("again", "already said hello")
            if isinstance(message, Act):
                assert conn.player is not None
                action, client = message.action, message.client
                future = room.submit(room.act, conn.player, message.seat, action, client)
                answer(
                    conn,
                    future,
                    n,
                    lambda step: {"type": "ack", "n": n, "action": action, "step": step, "client": client},
                    client,
                )
            elif isinstance(message, Preview):
                assert conn.player is not None
                conn.send({"type": "preview", "n": n, **room.preview(conn.player, message.action)})
            elif isinstance(message, Dice):
                request = room.dice_request
                values = parse_dice(message.values, request["sides"] if request else 6)
                await room.supply_dice(values)  # outside the queue (the actor waits for it); stored before the ack
                conn.send({"type": "ack", "n": None, "dice": values})
            elif kind in GAME_OPS:  # they change the game: in the actor's order
                args = message.model_dump(exclude={"type"})
                future = room.submit(room.host_op, kind, **args)
                answer(conn, future, None, lambda _: {"type": "ack", "n": None, "op": kind})
            else:  # seats, players, settings: at once, even while the actor waits for the referee's dice
                await room.host_op(kind, **message.model_dump(exclude={"type"}))
                room.kick()
                conn.send({"type": "ack", "n": None, "op": kind})
            conn.refusals = 0
        except ValidationError as exc:
            _refuse(conn, "malformed", first_problem(exc), n)
        except Refused as exc:
            # an order refused for the rate names its client id: the page keeps it and sends it again
            _refuse(conn, exc.code, str(exc), n, _client_id(text) if exc.code == "rate" else None)
        except GrognardError as exc:
            _refuse(conn, exc.code, str(exc), n)
        except Exception:
            log.exception("room %s: a message failed", room.code)
            _refuse(conn, "server_error", "the server could not do that", n)

    def answer(
        conn: Conn, future: asyncio.Future[Any], n: Any, ok: Callable[[Any], dict[str, Any]], client: Any = None
    ) -> None:
        """Answer a queued request when the actor has done it; the connection reads on meanwhile
        (the host's next message may be the very roll the actor waits for). A refusal of an
        order names its ``client`` id, so the page knows which order of its outbox it answers."""

        async def wait() -> None:
            try:
                conn.send(ok(await future))
            except Refused as exc:
                _refuse(conn, exc.code, str(exc), n, client)
            except GrognardError as exc:
                _refuse(conn, exc.code, str(exc), n, client)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("room %s: a request failed", conn.room.code)
                _refuse(conn, "server_error", "the server could not do that", n, client)

        task = asyncio.get_running_loop().create_task(wait())
        conn.waiting.add(task)
        task.add_done_callback(conn.waiting.discard)

    def _refuse(conn: Conn, code: str, message: str, n: Any, client: Any = None) -> None:
        conn.refusals += 1
        refusal = {"type": "refused", "code": code, "message": message, "n": n}
        if client is not None:
            refusal["client"] = client
        conn.send(refusal)
        if conn.refusals > 200:
            conn.kick("too many refused messages")

    return app


async def _quietly(job: Any) -> None:
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


async def _close(ws: WebSocket, reason: str) -> None:
    if ws.client_state == WebSocketState.CONNECTED:
        await ws.send_text(json.dumps({"type": "bye", "message": reason}))
        await ws.close(code=1008, reason=reason)


def _client_id(text: str) -> str | None:
    """The client id of an order not read yet (refused before its checks), if it has a well-formed one."""
    if len(text) > MAX_MESSAGE:
        return None
    try:
        client = json.loads(text).get("client")
        return Act.model_validate({"type": "act", "action": "x", "client": client}).client if client else None
    except (ValueError, AttributeError, ValidationError):
        return None


def escape_name(name: str) -> str:
    return escape(name, quote=True)
