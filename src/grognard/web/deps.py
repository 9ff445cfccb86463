"""What the routes take as FastAPI dependencies (``Depends``): the server, a room by its code, the host's room.

A room not found (or deleted) is refused before the route runs (``no_room``, 404); a host command whose
``X-Host-Token`` header is missing or not the host's is refused (``host_only``, 403), naming what only
the host may do.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from grognard.web.messages import RefusalCode
from grognard.web.protocol import Refused
from grognard.web.room import Room
from grognard.web.server import Server


async def server_of(conn: HTTPConnection) -> Server:
    """The server the application was made with (``create_app``)."""
    server: Server = conn.app.state.server
    return server


ServerDep = Annotated[Server, Depends(server_of)]


async def room_of(code: str, server: ServerDep) -> Room:
    """The room of the path's ``code`` (``no_room`` if none has it)."""
    return server.room(code)


RoomDep = Annotated[Room, Depends(room_of)]


def host_only(what: str) -> Callable[..., Awaitable[Room]]:
    """A dependency: the path's room, if the request shows its host token (``only the host may {what}``)."""

    async def hosted(room: RoomDep, x_host_token: Annotated[str, Header()] = "") -> Room:
        if not x_host_token or not room.is_host(x_host_token):
            raise Refused(RefusalCode.HOST_ONLY, f"only the host may {what}")
        return room

    return hosted
