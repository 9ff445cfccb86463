"""The replay viewer's routes: a room's record or an uploaded one, step by step (``web/replays.py``).

``POST /api/replays?name=FILE`` (the record's text as the body, at most ``MAX_RECORD`` bytes):
``{"id", "url"}`` or a refusal with one line; ``GET /api/replays/{id}`` and ``/api/rooms/{code}/replay``:
the outline; ``.../{n}``: step ``n``; the pages ``/replays/{id}`` and ``/replay/{code}``.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.requests import HTTPConnection

from grognard.core.errors import RecordError
from grognard.web import pages
from grognard.web.deps import RoomDep
from grognard.web.guard import Limits
from grognard.web.messages import RefusalCode, refusal
from grognard.web.replays import Book, Shelf, file_name, outline, read, step
from grognard.web.room import Room
from grognard.web.server import client_address

router = APIRouter()


async def _off_loop(fn: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


class Replays:
    """The books kept (``Shelf``), the uploads' rate limit, and the rooms' records being replayed now."""

    def __init__(self) -> None:
        self.shelf = Shelf()
        self.uploads = Limits(rate=0.2, burst=12)
        self.building: dict[str, asyncio.Future[Book]] = {}  # a room's record being replayed: asked once, awaited

    async def room_book(self, room: Room, step: int | None = None) -> Book:
        """The room's record as it stands, replayed once for every page that asks (one book a room is kept:
        its latest). A game going on is replayed again for a page that opens the replay (the outline) after
        a new line, or asks for a ``step`` past the book's end; a step within the book kept is read from it
        while the record still begins with the lines it was read from (a take-back since: read again)."""
        written = list(room.writer.lines) if room.writer is not None and room.game is not None else []
        if len(written) < 2:
            raise RecordError("the game has not begun: there is nothing to replay yet")
        key = f"{len(written)}:{written[-1].get('digest')}"
        book = self.shelf.get("r:" + room.code)
        if book is not None and book.key == key:
            return book
        if book is not None and step is not None and step < book.steps:
            length, digest = book.key.split(":", 1)
            if len(written) >= int(length) and str(written[int(length) - 1].get("digest")) == digest:
                return book  # the lines it was read from are still the record's first: the step is as it was
        job = self.building.get(room.code + key)
        if job is None:
            job = asyncio.ensure_future(self._make(written, room.code, key))
            self.building[room.code + key] = job
            job.add_done_callback(lambda _: self.building.pop(room.code + key, None))
        return await asyncio.shield(job)  # a page gone away does not stop the others' replay

    async def _make(self, written: list[dict[str, Any]], code: str, key: str) -> Book:
        book: Book = await _off_loop(read, written, f"room {code}")
        book.key = key
        self.shelf.put("r:" + code, book)
        return book


async def replays_of(conn: HTTPConnection) -> Replays:
    replays: Replays = conn.app.state.replays
    return replays


ReplaysDep = Annotated[Replays, Depends(replays_of)]


def _missing() -> JSONResponse:
    message = "no replay has this address (an uploaded record is kept while the server runs: upload it again)"
    return refusal(RefusalCode.NO_REPLAY, message, 404)


@router.post("/api/replays")
async def upload(request: Request, replays: ReplaysDep, name: str = "") -> Any:
    if not replays.uploads.take(client_address(request)):
        return refusal(RefusalCode.RATE, "too many records uploaded from this address: wait a minute", 429)
    raw = await request.body()
    key = await _off_loop(replays.shelf.upload, raw, file_name(name))
    return {"id": key, "url": f"/replays/{key}"}


@router.get("/api/replays/{key}")
async def uploaded_outline(key: str, replays: ReplaysDep) -> Any:
    book = replays.shelf.get("u:" + key)
    return _missing() if book is None else outline(book)


@router.get("/api/replays/{key}/{n}")
async def uploaded_step(key: str, n: int, replays: ReplaysDep) -> Any:
    book = replays.shelf.get("u:" + key)
    return _missing() if book is None else step(book, n)


@router.get("/api/rooms/{code}/replay")
async def room_outline(room: RoomDep, replays: ReplaysDep) -> Any:
    return outline(await replays.room_book(room))


@router.get("/api/rooms/{code}/replay/{n}")
async def room_step(room: RoomDep, n: int, replays: ReplaysDep) -> Any:
    return step(await replays.room_book(room, n), n)


@router.get("/replay/{code}", response_class=HTMLResponse)
async def room_page(room: RoomDep) -> Any:
    return pages.replay_page(room.ruleset.title, f"replay of room {room.code}", f"/api/rooms/{room.code}/replay")


@router.get("/replays/{key}", response_class=HTMLResponse)
async def uploaded_page(key: str, replays: ReplaysDep) -> Any:
    book = replays.shelf.get("u:" + key)
    if book is None:
        return _missing()
    return pages.replay_page(book.ruleset.title, f"replay of {book.title}", f"/api/replays/{key}")
