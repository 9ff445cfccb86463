"""The WebSocket a page plays through: ``/ws/{code}``, one ``Session`` a page (``web/session.py``)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from grognard.web.deps import ServerDep
from grognard.web.session import Session

router = APIRouter()


@router.websocket("/ws/{code}")
async def play(ws: WebSocket, code: str, server: ServerDep) -> None:
    await Session(ws, server, ws.app.state.allowed_origins).run(code)
