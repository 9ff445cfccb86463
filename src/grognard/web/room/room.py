"""A room: one game, its players and seats, and the one actor that changes it (``Room``).

Every change goes through :meth:`Room.call`, which queues it for the room's actor task; the actor applies
changes one at a time, in order of arrival, and between them lets the bots answer, one decision at a time.
Bots choose on a worker thread while the actor waits, so the event loop keeps serving.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

from grognard.bots import ladder
from grognard.core import plans
from grognard.core.dice import SeededDice
from grognard.core.engine import Event
from grognard.core.errors import GrognardError
from grognard.core.record import RecordWriter, make_header
from grognard.core.ruleset import Ruleset
from grognard.web.messages import RefusalCode
from grognard.web.odds import CLASS_FROM, CLASS_SHOWN
from grognard.web.protocol import Refused
from grognard.web.retention import check_days
from grognard.web.room.base import DbRunner, dice_stream, log, token_hash
from grognard.web.room.clock import Clock
from grognard.web.store import Store

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


class Room(Clock):
    """One game in the server: seats and players (``seats``), acting on the game (``acting``), kept on disk
    (``disk``), its clock and bots (``clock``), and the actor that runs them in order."""

    @classmethod
    async def create(
        cls,
        store: Store,
        ruleset: Ruleset,
        given: dict[str, Any],
        dice: str,
        host_token: str,
        run: DbRunner,
        embedded: dict[str, Any] | None = None,
    ) -> Room:
        """A new room; ``embedded``: the files of one's own the game is made from (an uploaded scenario,
        ``ScenarioFiles.upload``), kept in the record's header so that it replays and resumes from them."""
        given = dict(given)
        plan = given.pop("plan", None)  # the bots', not the game's: never in the header (it is a secret)
        options = ruleset.resolve(given)
        probe = ruleset.create(options, SeededDice(0), embedded)
        seats = [[seat, probe.side_of(seat)] for seat in probe.seats()]
        # any side may be the bots' in a room: each side the option names commits to a plan (people ignore it)
        chosen = plans.choose(plan or None, plans.offered(ruleset, probe), ruleset.sides, flag="plan")
        seed = secrets.randbits(63) if dice == "seeded" else None
        meta: dict[str, Any] = {
            "status": "lobby",
            "paused": False,
            "dice": dice,
            "options": options,
            "host": token_hash(host_token),
            "bot_seed": secrets.randbits(63),
            "seed": seed,  # kept on the server only: no page is sent ``meta`` itself
            "players": {},
            "seats": {seat: {"player": None, "bot": None} for seat, _ in seats},
            "seat_sides": dict(seats),
            "fill_bots": True,
            "bot_names": {side: ruleset.default_bot for side in ruleset.sides},
            "timer": 0,
            "on_timeout": "bot",
            "odds_shown": CLASS_SHOWN,  # who sees who is winning (odds.shown_to), from turn odds_from
            "odds_from": CLASS_FROM,
            "next_player": 1,
            "created": time.time(),  # its retention counts from now (retention.py)
            "plans_chosen": chosen,  # side -> random or a plan's name, drawn at the setup (server only)
        }
        kept = {"embedded": embedded} if embedded else {}
        header = make_header(ruleset.name, ruleset.recorded(options), dice, seed, server="grognard serve", **kept)
        writer = RecordWriter(header)
        game = None
        followed: dict[str, plans.Plan] = {}
        if seed is not None:
            game = ruleset.create(options, SeededDice(dice_stream(seed)), embedded)
            writer.start(game, game.take_events())
            followed = plans.arm(ruleset, game, writer, chosen, meta["bot_seed"])
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
            if not await run(store.code_taken, code):
                break
        room_id = await run(store.create_room, code, ruleset.name, meta, writer.lines)
        room = cls(store, run, room_id, code, ruleset, meta)
        room.game, room.writer, room.plans = game, writer, followed
        if game is not None:
            room._note_events(game, [Event.from_json(e) for e in writer.lines[1]["events"]])
        room.start()
        return room

    @classmethod
    def load(
        cls,
        store: Store,
        run: DbRunner,
        room_id: int,
        code: str,
        ruleset: Ruleset,
        meta: dict[str, Any],
        record: list[dict[str, Any]],
    ) -> Room:
        """A room rebuilt from its record (every digest checked)."""
        room = cls(store, run, room_id, code, ruleset, meta)
        if len(record) >= 2:
            room._rebuild(record)
        else:
            room.writer = RecordWriter.resume(record)  # a referee's game still waiting for its setup's dice
        room._restored_deadline = meta.get("deadline")
        return room

    def start(self) -> None:
        """Start the actor (and, for a manual-dice room still without its setup, ask for it)."""
        self.task = asyncio.get_running_loop().create_task(self._actor(), name=f"room {self.code}")
        if self.game is None and self.meta["status"] != "ended":
            self.queue.put_nowait((self._setup, (), asyncio.get_running_loop().create_future()))
        else:
            self.queue.put_nowait((self._noop, (), asyncio.get_running_loop().create_future()))
            if self.meta.get("typed") is not None:  # an order stopped by a crash halfway through its dice
                self.queue.put_nowait((self._resume_typed, (), asyncio.get_running_loop().create_future()))

    async def _actor(self) -> None:
        """Apply queued changes in order; between them, one bot answer at a time (queued changes go first)."""
        while not self.closed:
            if self.queue.empty() and self._bot_turn() is not None:
                try:
                    await self._bot_step()
                except Refused:  # the host ended the game while the bot chose: nothing was applied
                    pass
                except Exception:
                    log.exception("room %s: a bot failed; pausing the game", self.code)
                    self.meta["paused"] = True
                    self.touch()
                self._keep_timer()
                continue
            fn, args, future = await self.queue.get()
            try:
                result = await fn(*args)
            except Exception as exc:  # handed to the caller
                if not isinstance(exc, GrognardError):
                    log.exception("room %s: %s failed", self.code, getattr(fn, "__name__", fn))
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(result)
            self._keep_timer()

    async def host_op(self, op: str, **args: Any) -> None:
        """A host's command (already validated for shape); refuses what cannot be done now (nothing changed)."""
        if op == "undo":
            if self.meta["status"] == "ended":
                why = "the host ended the game: its record is closed, nothing can be taken back"
                raise Refused(RefusalCode.ENDED, why)
            await self._undo()
            return
        if op == "end":
            await self._end()
            return
        commands: dict[str, Callable[[dict[str, Any]], None]] = {
            "assign": self._assign,
            "bot": self._set_bot,
            "rename": self._rename,
            "remove": self._remove_players,
            "remove_many": self._remove_players,
            "lock": self._lock,
            "start": self._start,
            "pause": self._pause,
            "settings": self._settings,
            "dice_mode": self._dice_mode,
        }
        command = commands.get(op)
        if command is None:  # pragma: no cover - the message models list every op
            raise Refused(RefusalCode.BAD_OP, f"unknown host command {op!r}")
        command(args)
        await self._save_meta()
        self.touch()

    def _lock(self, args: dict[str, Any]) -> None:
        self.meta["locked"] = bool(args["locked"])

    def _start(self, args: dict[str, Any]) -> None:
        if self.meta["status"] != "lobby":
            raise Refused(RefusalCode.STARTED, "the game has already started")
        self.meta["status"] = "playing"
        self.meta["paused"] = False
        self.meta["started_at"] = time.time()  # the after-action reports say how long the game was played

    def _pause(self, args: dict[str, Any]) -> None:
        meta = self.meta
        if meta["status"] != "playing":
            raise Refused(RefusalCode.NOT_PLAYING, "the game is not being played")
        meta["paused"] = bool(args["paused"])
        if meta["paused"]:
            self._cancel_timer()
        self._timer_key = None

    def _settings(self, args: dict[str, Any]) -> None:
        """The host's settings, each checked before any is applied: one refused changes nothing."""
        meta, names = self.meta, args.get("bot_names") or {}
        if args.get("retention_days") is not None:
            check_days(args["retention_days"], self.retention_most)
        for side, name in names.items():
            if side not in self.ruleset.sides:
                sides = ", ".join(self.ruleset.sides)
                raise Refused(RefusalCode.BAD_BOT, f"bot_names: no side {side!r}; sides: {sides}")
            if name not in self.ruleset.bots:
                raise Refused(RefusalCode.BAD_BOT, f"bot_names: {ladder.unknown_bot(self.ruleset, name)}")
        for key in ("fill_bots", "timer", "on_timeout", "odds_shown", "odds_from", "retention_days"):
            if args.get(key) is not None:
                meta[key] = args[key]
        meta["bot_names"].update(names)
        self.bots = {}
        self._timer_key = None

    def _dice_mode(self, args: dict[str, Any]) -> None:
        if self.game is None:
            raise Refused(RefusalCode.NOT_READY, "type the setup's dice first")
        self._switch_dice(args["mode"])

    def close(self, reason: str = "the game was deleted") -> None:
        self.closed = True
        self.odds.close()
        self._cancel_timer()
        self.asking.cancel()
        for conn in list(self.conns):
            conn.kick(reason)
        self.queue.put_nowait((self._noop, (), asyncio.get_running_loop().create_future()))
