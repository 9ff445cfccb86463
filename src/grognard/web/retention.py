"""How long the server keeps a game: each room and its record are deleted a number of days after it was made.

``grognard serve --retention DAYS`` sets the days (30 by default); a host may choose fewer for a room
(``meta["retention_days"]``, the host page's settings), never more. The rooms whose days have passed are
deleted when the server starts (before any is rebuilt) and then every ``interval`` seconds while it runs:
the room's pages are closed, and its row and every line of its record are deleted from the database
(``Store.delete_expired``). The host may also delete a room at once (``DELETE /api/rooms/{code}``).
What is stored and who can see it: docs/privacy.md.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from grognard.core.words import counted
from grognard.web.messages import RefusalCode
from grognard.web.protocol import Refused
from grognard.web.store import DAY

log = logging.getLogger("grognard.web")

DEFAULT_DAYS = 30.0


def interval(days: float) -> float:
    """Seconds between two sweeps: an hour, or a tenth of a shorter retention (at least a second)."""
    return min(3600.0, max(1.0, days * DAY / 10))


def room_days(meta: dict[str, Any], default: float) -> float:
    """The days a room is kept: its host's choice, else the server's."""
    return float(meta.get("retention_days", default))


def expires(meta: dict[str, Any], default: float) -> float | None:
    """When the room is deleted (seconds since the epoch), or None for a room whose making is not known."""
    made = meta.get("created")
    return None if made is None else float(made) + room_days(meta, default) * DAY


def check_days(days: int, most: float) -> None:
    """A host's choice of days: at most the server's (``Refused`` naming the setting otherwise)."""
    if days > most:
        raise Refused(
            RefusalCode.RETENTION,
            f"retention_days {days}: this server keeps a game at most {most:g} days (grognard serve --retention)",
        )


async def sweep(server: Any) -> list[str]:
    """Delete every room whose days have passed (closing its pages); the codes deleted."""
    codes: list[str] = await server.run(server.store.delete_expired, time.time(), server.retention)
    for code in codes:
        room = server.rooms.pop(code, None)
        if room is not None:
            room.close("the game was deleted: its time on this server is over")
    if codes:
        log.info("deleted %s past their retention", counted(len(codes), "game"))
    return codes


async def sweep_forever(server: Any) -> None:
    """Sweep every ``interval`` seconds until cancelled (a failed sweep is logged and tried again)."""
    while True:
        await asyncio.sleep(interval(server.retention))
        try:
            await sweep(server)
        except Exception:
            log.exception("the retention sweep failed")
