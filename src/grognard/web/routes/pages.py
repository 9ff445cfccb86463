"""The HTML pages: the front page, a room's host, player and projector pages, its join QR code."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from grognard import rulesets
from grognard.web import pages
from grognard.web.deps import RoomDep, ServerDep
from grognard.web.server import Server

router = APIRouter()


def join_base(server: Server, request: Request) -> str:
    """The address players reach this server at: ``--lan``'s, else the one this page was asked at."""
    return (server.join_url or str(request.base_url)).rstrip("/")


@router.get("/", response_class=HTMLResponse)
async def index() -> Any:
    return pages.index([(n, rulesets.get(n)) for n in rulesets.names()])


@router.get("/favicon.ico")
async def favicon() -> Any:
    return Response(status_code=204)


@router.get("/host/{code}", response_class=HTMLResponse)
async def host_page(room: RoomDep) -> Any:
    return pages.room_page("host", room)


@router.get("/play/{code}", response_class=HTMLResponse)
async def play_page(room: RoomDep) -> Any:
    return pages.room_page("player", room)


@router.get("/projector/{code}", response_class=HTMLResponse)
async def projector_page(room: RoomDep, request: Request, server: ServerDep) -> Any:
    return pages.room_page("projector", room, join_base(server, request))


@router.get("/qr/{code}.svg")
async def qr(room: RoomDep, request: Request, server: ServerDep) -> Any:
    return Response(pages.qr_svg(f"{join_base(server, request)}/play/{room.code}"), media_type="image/svg+xml")
