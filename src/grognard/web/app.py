"""The web server: ``create_app(db_url)`` makes the FastAPI application; ``grognard serve`` runs it on uvicorn.

Its routes are in ``web/routes/`` by area (``rooms``: the games' API; ``pages``: the HTML pages; ``replays``:
the replay viewer; ``play``: the WebSocket, one ``session.Session`` a page), each an ``APIRouter`` taking the
server, the room of a code and the host's check as dependencies (``deps.py``). At start-up every stored game
is rebuilt from its record (``server.Server``).

Who may do what: the host's token (given once, when the game is made) for host commands; a player's token
(given once, at join) for that player's seats only; the projector sees what a spectator may. Tokens come
from ``secrets`` and only their SHA-256 is stored. Every message is a pydantic model (type, size, range);
WebSocket messages and joins are rate-limited; a WebSocket whose ``Origin`` is not this server is refused
(``session.py``). Request bodies are limited on the bytes read (``guard.Guard``), WebSocket messages by
uvicorn's ``ws_max_size`` (``serve.WS_MAX_SIZE``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from grognard import __version__
from grognard.core.errors import GrognardError
from grognard.web import replays
from grognard.web import retention as retention_
from grognard.web.guard import CodeGate, Guard
from grognard.web.messages import RefusalCode, refusal, refusal_code
from grognard.web.odds import PLAYOUTS
from grognard.web.protocol import MAX_BODY, MAX_UPLOAD, Refused, first_problem
from grognard.web.routes import editor, pages, play, rooms, trials
from grognard.web.routes import replays as replay_routes
from grognard.web.server import Server

REFUSED_STATUS = {
    RefusalCode.NO_ROOM: 404,
    RefusalCode.HOST_ONLY: 403,
    RefusalCode.BAD_TOKEN: 403,
    RefusalCode.LOCKED: 403,
    RefusalCode.NO_RUN: 404,
    RefusalCode.NO_UPLOAD: 400,
    RefusalCode.RATE: 429,
}


def create_app(
    db_url: str,
    *,
    join_url: str | None = None,
    allowed_origins: tuple[str, ...] = (),
    retention: float = retention_.DEFAULT_DAYS,
    odds_playouts: int = PLAYOUTS,
) -> FastAPI:
    """The grognard web application over the database at ``db_url``; games kept ``retention`` days, each
    estimate of who is winning ``odds_playouts`` games a seat."""
    server = Server(db_url, join_url, retention, odds_playouts)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await server.load()
        yield
        await server.close()

    app = FastAPI(
        title="grognard", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.state.server = server
    app.state.replays = replay_routes.Replays()
    app.state.allowed_origins = allowed_origins
    static = resources.files("grognard.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    app.add_middleware(CodeGate, codes=server.codes)
    # every route: the bytes actually read (an uploaded game record may be larger), the security headers
    with_file = {path: MAX_BODY + 4 * MAX_UPLOAD for path in ("/api/rooms", *trials.PATHS)}
    app.add_middleware(
        Guard, limit=MAX_BODY, wider={"/api/replays": replays.MAX_RECORD, **with_file, **editor.wide_paths()}
    )
    for refused in (Refused, GrognardError, ValidationError, RequestValidationError):
        app.add_exception_handler(refused, refused_answer)
    for router in (rooms.router, replay_routes.router, trials.router, pages.router, play.router, editor.router):
        app.include_router(router)
    return app


async def refused_answer(_request: Request, exc: Exception) -> JSONResponse:
    """A request refused by the room (``Refused``), the rules (``GrognardError``), or for its shape (a message
    or a path part, a step or a plot's name, not as typed: ``malformed``): its code and one line."""
    if isinstance(exc, ValidationError | RequestValidationError):
        return refusal(RefusalCode.MALFORMED, first_problem(exc), 422)
    if isinstance(exc, Refused):
        code = refusal_code(exc.code)
        return refusal(code, str(exc), REFUSED_STATUS.get(code, 409))  # any other refusal of the room: 409
    assert isinstance(exc, GrognardError)
    return refusal(refusal_code(exc.code), str(exc), 400)
