"""The server's database: rooms and the lines of their game records (SQLAlchemy Core).

A room is one row (its code, rule set, state and a JSON ``meta``: players with
the hashes of their tokens, seats, settings); its game is the record's lines,
one row each, appended as the game goes and committed before anyone is told.
SQLite by default (WAL mode, synchronous FULL: a process killed at any moment,
or a power cut, keeps every committed line); any SQLAlchemy URL works
(PostgreSQL on a school server). A room and its lines are deleted once its
retention has passed (``delete_expired``; docs/privacy.md). The server runs
every storage call on one thread, in order (``InOrder``); the lines several
rooms append meanwhile are committed together.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

DAY = 86400.0  # seconds

metadata = MetaData()

rooms = Table(
    "grognard_rooms",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(16), unique=True, nullable=False),
    Column("ruleset", String(32), nullable=False),
    Column("created", Float, nullable=False),
    Column("meta", Text, nullable=False),
)

lines = Table(
    "grognard_lines",
    metadata,
    Column("room_id", Integer, primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("text", Text, nullable=False),
)

drafts = Table(  # the editor's tables being drawn: one a browser (the SHA-256 of its cookie) and rule set
    "grognard_drafts",
    metadata,
    Column("browser", String(64), primary_key=True),
    Column("ruleset", String(32), primary_key=True),
    Column("updated", Float, nullable=False),
    Column("data", Text, nullable=False),
)


def default_url() -> str:
    """An SQLite file in the user's data folder (platformdirs)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("grognard", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.sqlite3'}"


class InOrder:
    """The storage calls of every room, run in the order they are asked on one worker thread: lines appended
    by several rooms while the thread was busy are committed in one transaction (one wait for the disk,
    not one each), and each caller still waits for its line to be committed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grognard-db")
        self.waiting: list[tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]]] = []
        self.draining: asyncio.Task[None] | None = None

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on the database thread, after every call asked before it; its result."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self.waiting.append((fn, args, future))
        if self.draining is None:
            self.draining = loop.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self.waiting:
                batch, self.waiting = self.waiting, []
                try:
                    results = await loop.run_in_executor(
                        self.thread, self.store.calls, [(fn, args) for fn, args, _ in batch]
                    )
                except asyncio.CancelledError:
                    for _, _, future in batch:
                        future.cancel()
                    raise
                except Exception as exc:  # the thread itself failed (shut down): every caller is told
                    results = [(False, exc)] * len(batch)
                for (_, _, future), (ok, value) in zip(batch, results, strict=True):
                    if future.done():
                        continue
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
        finally:
            self.draining = None

    def close(self) -> None:
        self.thread.shutdown(wait=True)


class Store:
    """Synchronous storage calls; the server runs them on one worker thread, in order."""

    def __init__(self, url: str) -> None:
        self.url = url
        sqlite = url.startswith("sqlite")
        self.engine: Engine = create_engine(
            url, connect_args={"check_same_thread": False} if sqlite else {}, pool_pre_ping=not sqlite
        )
        if sqlite:

            @event.listens_for(self.engine, "connect")
            def _pragmas(connection: Any, _record: Any) -> None:
                cursor = connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=FULL")  # each commit on disk before it is acknowledged
                cursor.execute("PRAGMA busy_timeout=5000")
                cursor.close()

        metadata.create_all(self.engine)

    def create_room(self, code: str, ruleset: str, meta: dict[str, Any], record: list[dict[str, Any]]) -> int:
        with self.engine.begin() as conn:
            made = float(meta.get("created", time.time()))
            key = conn.execute(
                insert(rooms).values(code=code, ruleset=ruleset, created=made, meta=json.dumps(meta))
            ).inserted_primary_key
            assert key is not None
            room_id = key[0]
            if record:
                conn.execute(
                    insert(lines),
                    [{"room_id": room_id, "n": n, "text": _dump(line)} for n, line in enumerate(record)],
                )
        return int(room_id)

    def code_taken(self, code: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(rooms.c.id).where(rooms.c.code == code)).first() is not None

    def append(self, room_id: int, n: int, line: dict[str, Any], meta: dict[str, Any] | None = None) -> None:
        """Line ``n`` of the room's record (and its meta, if given) in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(insert(lines).values(room_id=room_id, n=n, text=_dump(line)))
            if meta is not None:
                conn.execute(update(rooms).where(rooms.c.id == room_id).values(meta=json.dumps(meta)))

    def append_many(self, appends: list[tuple[Any, ...]]) -> None:
        """Several ``append`` calls' lines (of any rooms) in one transaction: one commit, one wait for the disk."""
        with self.engine.begin() as conn:
            for room_id, n, line, *rest in appends:
                conn.execute(insert(lines).values(room_id=room_id, n=n, text=_dump(line)))
                meta = rest[0] if rest else None
                if meta is not None:
                    conn.execute(update(rooms).where(rooms.c.id == room_id).values(meta=json.dumps(meta)))

    def calls(self, calls: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> list[tuple[bool, Any]]:
        """Storage calls in order, each ``(True, its result)`` or ``(False, its exception)``; consecutive
        ``append`` calls are committed together (``append_many``), or one by one if that fails (only the
        line at fault fails then)."""
        out: list[tuple[bool, Any]] = []
        k = 0
        while k < len(calls):
            run = k
            while run < len(calls) and calls[run][0] == self.append:
                run += 1
            if run - k > 1:
                try:
                    self.append_many([args for _, args in calls[k:run]])
                    out += [(True, None)] * (run - k)
                    k = run
                    continue
                except Exception:  # one line at fault: each alone, so that only it fails
                    pass
            fn, args = calls[k]
            try:
                out.append((True, fn(*args)))
            except Exception as exc:
                out.append((False, exc))
            k += 1
        return out

    def truncate(self, room_id: int, keep: int, meta: dict[str, Any] | None = None) -> None:
        """Keep only the first ``keep`` lines of the room's record (take back)."""
        with self.engine.begin() as conn:
            conn.execute(delete(lines).where(lines.c.room_id == room_id, lines.c.n >= keep))
            if meta is not None:
                conn.execute(update(rooms).where(rooms.c.id == room_id).values(meta=json.dumps(meta)))

    def save_meta(self, room_id: int, meta: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(rooms).where(rooms.c.id == room_id).values(meta=json.dumps(meta)))

    def delete_room(self, room_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(lines).where(lines.c.room_id == room_id))
            conn.execute(delete(rooms).where(rooms.c.id == room_id))

    def delete_expired(self, now: float, default_days: float) -> list[str]:
        """Delete every room (its record's lines with it) made more than its ``meta["retention_days"]`` (else
        ``default_days``) days before ``now``, and any line of a room no longer there; the codes deleted."""
        gone: list[tuple[int, str]] = []
        with self.engine.begin() as conn:
            for room_id, code, created, meta in conn.execute(
                select(rooms.c.id, rooms.c.code, rooms.c.created, rooms.c.meta)
            ):
                try:
                    days = float(json.loads(meta).get("retention_days", default_days))
                except (ValueError, TypeError, AttributeError):
                    days = default_days
                if created + days * DAY <= now:
                    gone.append((room_id, code))
            ids = [room_id for room_id, _ in gone]
            if ids:
                conn.execute(delete(lines).where(lines.c.room_id.in_(ids)))
                conn.execute(delete(rooms).where(rooms.c.id.in_(ids)))
            conn.execute(delete(lines).where(lines.c.room_id.not_in(select(rooms.c.id))))
            conn.execute(delete(drafts).where(drafts.c.updated + default_days * DAY <= now))  # tables left alone
        return [code for _, code in gone]

    def load(self) -> list[tuple[int, str, str, dict[str, Any], list[dict[str, Any]]]]:
        """Every room: (id, code, rule set, meta, record lines in order)."""
        out = []
        with self.engine.connect() as conn:
            for row in conn.execute(select(rooms).order_by(rooms.c.id)):
                record = [
                    json.loads(text)
                    for (text,) in conn.execute(
                        select(lines.c.text).where(lines.c.room_id == row.id).order_by(lines.c.n)
                    )
                ]
                out.append((row.id, row.code, row.ruleset, json.loads(row.meta), record))
        return out

    def save_draft(self, browser: str, ruleset: str, data: str) -> None:
        """The table ``browser`` is drawing in ``ruleset``'s editor (JSON text), kept in place of the last."""
        with self.engine.begin() as conn:
            where = (drafts.c.browser == browser) & (drafts.c.ruleset == ruleset)
            if conn.execute(select(drafts.c.browser).where(where)).first() is None:
                conn.execute(insert(drafts).values(browser=browser, ruleset=ruleset, updated=time.time(), data=data))
            else:
                conn.execute(update(drafts).where(where).values(updated=time.time(), data=data))

    def draft(self, browser: str, ruleset: str) -> str | None:
        """The table ``browser`` last kept in ``ruleset``'s editor (JSON text), or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(drafts.c.data).where((drafts.c.browser == browser) & (drafts.c.ruleset == ruleset))
            ).first()
        return None if row is None else str(row[0])

    def close(self) -> None:
        self.engine.dispose()


def _dump(line: dict[str, Any]) -> str:
    return json.dumps(line, separators=(",", ":"))
