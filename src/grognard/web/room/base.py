"""A room's ground floor (``RoomBase``): what a room holds, its actor's queue, and telling its pages.

Every change goes through the room's actor (``submit``, ``call``: queued, applied one at a time in order
of arrival, ``room.Room._actor``). What the pages show is worked out once per change of the game for every
page that shares it (``memo``), and each page is told the events it may see (``_publish``).
The concerns above it, each a module of this package: keeping it on disk (``disk``), seats and players
(``seats``), acting on the game (``acting``), the clock and the bots (``clock``), the room itself (``room``).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import numpy as np

from grognard.core.dice import DICE, stream
from grognard.core.engine import Event, Game, canonical_json
from grognard.core.plans import Plan
from grognard.core.record import RecordWriter
from grognard.core.ruleset import Bot, Ruleset
from grognard.web import faces
from grognard.web.messages import EventItem, RefusalCode
from grognard.web.odds import CLASS_FROM, CLASS_SHOWN, LiveOdds, odds_seed, shown_to
from grognard.web.patch import keep_same
from grognard.web.protocol import Refused
from grognard.web.referee import Referee, RefereeDice
from grognard.web.retention import DEFAULT_DAYS
from grognard.web.store import Store

log = logging.getLogger("grognard.web")

RECENT = 40  # events kept for the pages
DbRunner = Callable[..., Awaitable[Any]]  # (storage call, *args) -> its result, on the database thread


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def dice_stream(seed: int) -> np.random.SeedSequence:
    """The dice stream of a seeded game (as ``grognard play``: child 0 of the seed)."""
    return stream(seed, DICE)


def copy_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """A copy of the meta to store (its JSON, read back): what changes in place later is not changed in it."""
    out: dict[str, Any] = json.loads(json.dumps(meta))
    return out


class RoomBase(ABC):
    """One game in the server. ``meta`` is what the database keeps beside the record."""

    def __init__(
        self, store: Store, run: DbRunner, room_id: int, code: str, ruleset: Ruleset, meta: dict[str, Any]
    ) -> None:
        self.store = store
        self.run_db = run  # runs a storage call on the server's database thread
        self.id = room_id
        self.code = code
        self.ruleset = ruleset
        self.meta = meta
        self.game: Game | None = None
        self.writer: RecordWriter | None = None
        self.referee: RefereeDice | None = RefereeDice() if meta["dice"] == "manual" else None
        self.recent: deque[tuple[Event, EventItem]] = deque(maxlen=RECENT)
        self.whys: dict[str, dict[str, Any]] = {}  # each piece's latest bot reason (a tap on it shows it)
        self.version = 0
        self.conns: set[Any] = set()
        # True from the moment an action changes the game until its record line is stored: no page
        # is sent a state then, so nobody sees what a crash could still take back
        self.committing = False
        self.queue: asyncio.Queue[tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], asyncio.Future[Any]]] = (
            asyncio.Queue()
        )
        self.task: asyncio.Task[None] | None = None
        self.bots: dict[str, Bot] = {}
        self.plans: dict[str, Plan] = {}  # side -> the plan its bots follow (core.plans), secret until the end
        self.asking = Referee(self)  # the roll asked of the host now, and the rolls typed (referee.py)
        self.deadline: float | None = None
        self._restored_deadline: dict[str, Any] | None = None  # the stored phase timer, until the actor resumes it
        self._saves: set[asyncio.Task[None]] = set()
        self._timer_key: Any = None
        self._timer_task: asyncio.Task[None] | None = None
        # what every page's state is made of, worked out once per change of the game (``changes``):
        # decisions with their odds, tables, the picture of each view (see ``memo``)
        self.changes = 0
        self._memo: dict[Any, Any] = {}
        self._memo_before: dict[Any, Any] = {}  # the memo before the game's last change (``memo``'s ``keep``)
        self._memo_at = -1
        self.closed = False
        self.debrief: dict[str, Any] | None = None
        self.after: Any = None  # the coach and reports of the game once over (web/reports.AfterAction)
        self.heading: str | None = None  # the game's own name (Face.heading), worked out once
        self.retention_most = DEFAULT_DAYS  # the server's days (retention.py): a host may choose fewer
        self.odds = LiveOdds(odds_seed(code))  # who is winning, off the actor (odds.py)
        self.odds.on_ready = self.touch

    def submit(self, fn: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> asyncio.Future[Any]:
        """Queue ``fn(*args, **kwargs)`` for the actor; the future of its result, in order of submission."""
        if self.closed:
            raise Refused(RefusalCode.GONE, "this game was deleted")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((functools.partial(fn, *args, **kwargs), (), future))
        return future

    def kick(self) -> None:
        """Wake the actor (a setting changed: bots may have something to do)."""
        if not self.closed:
            self.queue.put_nowait((self._noop, (), asyncio.get_running_loop().create_future()))

    async def call(self, fn: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> Any:
        """Queue ``fn(*args, **kwargs)`` for the actor and wait for its result (or its exception)."""
        if self.closed:
            raise Refused(RefusalCode.GONE, "this game was deleted")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.queue.put((functools.partial(fn, *args, **kwargs), (), future))
        return await future

    async def _noop(self) -> None:
        return None

    def _note_events(
        self, game: Game, events: list[Event], why: dict[str, Any] | None = None
    ) -> list[tuple[Event, EventItem]]:
        """The events the pages show, kept among the recent; a bot's reason (``why``, :func:`shown_why`) goes
        with its first line every page sees (a line of its own when none), and is kept as its piece's latest."""
        out = []
        for event in events:
            shown = faces.event_json(self.ruleset, event, self.version)
            if shown is not None:
                out.append((event, shown))
        if why is not None:
            first = next((item for event, item in out if event.to is None), None)
            if first is None:
                first = {"i": self.version, "text": f"{why['seat']}: {why['action']}", "kind": "bot_order"}
                out.append((Event("bot_order", {}), first))
            first["why"] = why
            if why.get("piece"):
                self.whys[str(why["piece"])] = why
        self.recent.extend(out)
        return out

    def _publish(self, game: Game, events: list[Event], why: dict[str, Any] | None = None) -> None:
        """Tell every page the new events it may see (a bot's reason with them), and that its state changed."""
        shown = self._note_events(game, events, why)
        self.version += 1
        self.odds_moved()
        for conn in list(self.conns):
            conn.tell_events([item for event, item in shown if conn.may_see(event)], self._step_number())
            conn.dirty()

    def _step_number(self) -> int:
        """The record line just written: 0 for the start line, then 1, 2, ... for each action."""
        return self.writer.steps if self.writer is not None else 0

    def touch(self) -> None:
        """Something changed that the pages show (not the game): send every page its state again."""
        self.version += 1
        for conn in list(self.conns):
            conn.dirty()

    def odds_shown(self, page: str) -> bool:
        """Whether ``page`` (a page's kind: "host", "projector", "spectator", "player") is shown who is winning
        now, by the host's setting (``odds.shown_to``; a room made before the setting: a class's default)."""
        game = self.game
        if game is None:
            return False
        meta = self.meta
        shown, start = meta.get("odds_shown", CLASS_SHOWN), int(meta.get("odds_from", CLASS_FROM))
        return shown_to(page, shown, start, game.turn, game.is_over or meta["status"] in ("over", "ended"))

    def odds_moved(self) -> None:
        """The game changed: a new estimate is asked for if somebody may see it (none is worked out for nobody)."""
        if self.game is not None and self.odds_shown("host"):
            self.odds.moved(self.game)

    def memo(self, key: Any, make: Callable[[], Any], keep: bool = True) -> Any:
        """``make()``, worked out once for every page until the game changes (``changes``): the parts
        of the state that many pages share (a decision's menu and odds, the tables, a seat's picture).

        ``keep`` (a JSON value): what did not change since the value of ``key`` before the game's last
        change is given as the very object it was then (``patch.keep_same``, equal as Python values: each
        part is made by one function of the game, which gives a field one type): each page's next patch
        finds it unchanged at once, and the change of what did change is worked out once for all."""
        if self._memo_at != self.changes:
            self._memo_before = self._memo
            self._memo, self._memo_at = {}, self.changes
        try:
            return self._memo[key]
        except KeyError:
            value = make()
            if keep and key in self._memo_before:
                value = keep_same(value, self._memo_before[key], strict=False)
            self._memo[key] = value
            return value

    def memo_like(self, key: Any, make: Callable[[], Any], like: Any, make_like: Callable[[], Any]) -> Any:
        """``memo(key, make)``, each part of it equal to the same part of ``memo(like, make_like)`` given as
        that very object: one page's table and the spectators' share all but the rings of the page's own
        units, so the change of what they share is worked out once for every page (``patch.change``)."""
        return self.memo(key, lambda: keep_same(make(), self.memo(like, make_like), strict=False))

    def svg(self, seat: str | None) -> str:
        """The picture of what ``seat`` sees: drawn once for every seat whose view is the same
        (in a game that hides nothing, all of them), the seat's own units marked by the page (``faces.marks``)."""
        if self.game is None or self.ruleset.render is None:
            return ""
        return str(self.memo(("svg", seat), lambda: self._draw(seat)))

    def _draw(self, seat: str | None) -> str:
        render = self.ruleset.render
        assert self.game is not None and render is not None
        view = dict(self.game.view(seat), seat=None, side=None)
        key = ("picture", canonical_json(view))
        return str(self.memo(key, lambda: render(view)))

    @abstractmethod
    async def _save_meta(self) -> None:
        """Store the meta (``disk.Disk``)."""

    @abstractmethod
    def _cancel_timer(self) -> None:
        """Stop the phase timer (``clock.Clock``)."""
