"""A room: one game, its players and seats, and the one actor that changes it.

Every change goes through :meth:`Room.call`, which queues it for the room's
actor task; the actor applies changes one at a time, in order of arrival.
An applied action's record line (with its dice) is committed to the database
before anyone is told (the ``ack``, the events, the new state). Bots choose
on a worker thread while the actor waits, so the event loop keeps serving.
In referee mode the dice come from the host page: an action that needs a
roll is tried, stops at the first roll not yet typed (the state restored),
asks the host for it, and is tried again with the values so far (``referee.py``).

What the server has acknowledged survives a crash (kill -9) as well as the
record does: each roll the referee typed is stored in ``meta["typed"]``
(with the order it is for) before its ``ack``, and a restarted room finishes
that order with those rolls, asking only for the rest; the client id of each
player's order is stored in ``meta["sent"]`` in the same transaction as its
record line, so an order sent again is answered with its first ``ack`` and
applied once; the phase timer's deadline (wall-clock) is in ``meta["deadline"]``.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import numpy as np

from grognard import rulesets
from grognard.bots import ladder
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.engine import Decision, Event, Game, canonical_json
from grognard.core.errors import GrognardError, IllegalAction
from grognard.core.record import RecordWriter, dice_of, make_header, replay
from grognard.core.ruleset import Bot, Ruleset
from grognard.core.takeback import stands
from grognard.web import faces
from grognard.web.odds import CLASS_FROM, CLASS_SHOWN, LiveOdds, odds_seed, shown_to
from grognard.web.patch import keep_same
from grognard.web.protocol import Refused as Refused  # where the pages and tests have always found it
from grognard.web.referee import Referee, RefereeDice
from grognard.web.retention import DEFAULT_DAYS, check_days
from grognard.web.store import Store

log = logging.getLogger("grognard.web")

RECENT = 40  # events kept for the pages
SENT_KEPT = 16  # client ids of applied orders kept for each player (a page resends only those not answered)
DbRunner = Callable[..., Awaitable[Any]]  # (storage call, *args) -> its result, on the database thread
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def dice_stream(seed: int) -> np.random.SeedSequence:
    """The dice stream of a seeded game (as ``grognard play``: child 0 of the seed)."""
    return stream(seed, DICE)


class Room:
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
        self.recent: deque[tuple[Event, dict[str, Any]]] = deque(maxlen=RECENT)
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
        self.retention_most = DEFAULT_DAYS  # the server's days (retention.py): a host may choose fewer
        self.odds = LiveOdds(odds_seed(code))  # who is winning, off the actor (odds.py)
        self.odds.on_ready = self.touch

    # ------------------------------------------------------------------ making and loading
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
        ``Ruleset.upload``), kept in the record's header so that it replays and resumes from them."""
        options = ruleset.resolve(given)
        probe = ruleset.create(options, SeededDice(0), embedded)
        seats = [[seat, probe.side_of(seat)] for seat in probe.seats()]
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
        }
        kept = {"embedded": embedded} if embedded else {}
        header = make_header(ruleset.name, ruleset.recorded(options), dice, seed, server="grognard serve", **kept)
        writer = RecordWriter(header)
        game = None
        if seed is not None:
            game = ruleset.create(options, SeededDice(dice_stream(seed)), embedded)
            writer.start(game, game.take_events())
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
            if not await run(store.code_taken, code):
                break
        room_id = await run(store.create_room, code, ruleset.name, meta, writer.lines)
        room = cls(store, run, room_id, code, ruleset, meta)
        room.game, room.writer = game, writer
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

    def _rebuild(self, record: list[dict[str, Any]]) -> None:
        rebuilt = replay(record, rulesets.get)
        game = rebuilt.game
        if self.meta["dice"] == "seeded":
            game.dice = SeededDice(dice_stream(self._seed(rebuilt.header)), skip=rebuilt.dice_drawn)
        else:
            self.referee = self.referee or RefereeDice()
            game.dice = self.referee
        self.game = game
        self.writer = RecordWriter.resume(rebuilt.used)
        self.recent.clear()
        for index, line in enumerate(rebuilt.used[1:], 1):
            if index < len(rebuilt.used) - RECENT:
                continue
            self._note_events(game, [Event.from_json(e) for e in line.get("events", [])])
        self.bots = {}
        self.version += 1
        self.changes += 1

    def _seed(self, header: dict[str, Any]) -> int:
        """The seed of the game's seeded dice (a game begun with typed dice gets one when it switches)."""
        seed = self.meta.get("seed", header.get("seed"))
        if seed is None:
            seed = self.meta["seed"] = secrets.randbits(63)
        return int(seed)

    def _switch_dice(self, mode: str) -> None:
        """Referee mode on (the host types every roll) or off (the server rolls, going on from the record)."""
        self.meta["dice"] = mode
        game = self.game
        if mode == "manual":
            self.referee = self.referee or RefereeDice()
            if game is not None:
                game.dice = self.referee
            return
        self.referee = None
        if game is not None and self.writer is not None:
            drawn: dict[int, int] = {}
            for line in self.writer.lines[1:]:
                for _, sides, values in dice_of(line.get("events", [])):
                    drawn[sides] = drawn.get(sides, 0) + len(values)
            game.dice = SeededDice(dice_stream(self._seed(self.writer.lines[0])), skip=drawn)

    def start(self) -> None:
        """Start the actor (and, for a manual-dice room still without its setup, ask for it)."""
        self.task = asyncio.get_running_loop().create_task(self._actor(), name=f"room {self.code}")
        if self.game is None and self.meta["status"] != "ended":
            self.queue.put_nowait((self._setup, (), asyncio.get_running_loop().create_future()))
        else:
            self.queue.put_nowait((self._noop, (), asyncio.get_running_loop().create_future()))
            if self.meta.get("typed") is not None:  # an order stopped by a crash halfway through its dice
                self.queue.put_nowait((self._resume_typed, (), asyncio.get_running_loop().create_future()))

    # ------------------------------------------------------------------ the actor
    def submit(self, fn: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> asyncio.Future[Any]:
        """Queue ``fn(*args, **kwargs)`` for the actor; the future of its result, in order of submission."""
        if self.closed:
            raise Refused("gone", "this game was deleted")
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
            raise Refused("gone", "this game was deleted")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.queue.put((functools.partial(fn, *args, **kwargs), (), future))
        return await future

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

    async def _noop(self) -> None:
        return None

    # ------------------------------------------------------------------ dice
    async def _with_dice(self, attempt: Callable[[], Any], what: dict[str, Any]) -> Any:
        """Run ``attempt``; in referee mode, ask the host for each roll it needs (``Referee.run``)."""
        if self.referee is None:
            return attempt()
        return await self.asking.run(self.referee, attempt, what)

    @property
    def dice_request(self) -> dict[str, Any] | None:
        """The roll asked of the host now: ``{"n", "sides", "purpose", "problem", "for", "kept"}``."""
        return self.asking.request

    async def supply_dice(self, values: list[int]) -> None:
        """The host typed a roll: stored, then used (``Referee.supply``; raises ``Refused``)."""
        await self.asking.supply(values)

    async def _resume_typed(self) -> None:
        """After a restart: the order the referee had begun to roll for, finished with the stored rolls."""
        typed = self.meta.get("typed")
        game, writer = self.game, self.writer
        if typed is None or game is None or writer is None:
            return
        what = typed["what"]
        if self.referee is None or what.get("setup") or what.get("at") != len(writer.lines):
            await self.asking.drop("the game moved on")
            return
        if self.meta["status"] != "playing" or game.is_over:
            await self.asking.drop("the game is not being played")
            return
        seat = str(what["seat"])
        try:
            action = self.ruleset.parse_action(what["action"])
            key = game.decision_id(action)
            owing = [d for d in game.pending() if d.seat == seat and (key is None or d.id == key)]
            if not owing:
                raise IllegalAction(f"{seat} owes no decision now")
            owing[0].space.check(action)
        except GrognardError as exc:
            await self.asking.drop(f"the order is not possible now: {exc}")
            return
        await self._step(seat, action, player=what.get("player"), client=what.get("client"))

    async def _setup(self) -> None:
        """A manual-dice game's setup, its rolls typed by the referee."""
        assert self.referee is not None and self.writer is not None
        options = self.meta["options"]
        referee = self.referee
        what = {"at": len(self.writer.lines), "setup": True}
        embedded = self.writer.lines[0].get("embedded")
        game: Game = await self._with_dice(lambda: self.ruleset.create(options, referee, embedded), what)
        events = game.take_events()
        self.writer.start(game, events)
        meta = _copy(self.meta) if self.meta.pop("typed", None) is not None else None
        await self._persist(self.writer.lines[-1], meta)
        self.game = game
        self.changes += 1
        self._publish(game, events)

    # ------------------------------------------------------------------ seats and players
    def controller(self, seat: str) -> tuple[str, str | None]:
        """Who plays ``seat`` now: ``("player", id)``, ``("bot", name)`` or ``("empty", None)``."""
        entry = self.meta["seats"].get(seat) or {}
        if entry.get("player"):
            return "player", entry["player"]
        if entry.get("bot"):
            return "bot", entry["bot"]
        if self.meta["fill_bots"] and self.meta["status"] != "lobby":
            return "bot", self.meta["bot_names"].get(self.side_of(seat), self.ruleset.default_bot)
        return "empty", None

    def side_of(self, seat: str) -> str:
        if self.game is not None:
            try:
                return self.game.side_of(seat)
            except GrognardError:
                pass
        return str(self.meta["seat_sides"].get(seat, ""))

    def seats_of(self, player: str | None) -> list[str]:
        if player is None:
            return []
        return [seat for seat, entry in self.meta["seats"].items() if entry.get("player") == player]

    def player_by_token(self, token: str) -> str | None:
        digest = token_hash(token)
        for pid, player in self.meta["players"].items():
            if secrets.compare_digest(player["token"], digest):
                return str(pid)
        return None

    def is_host(self, token: str) -> bool:
        return secrets.compare_digest(self.meta["host"], token_hash(token))

    def whose_token(self, token: str) -> str | None:
        """Whose page ``token`` opens on this game: ``"host:"``, ``"player:p3"``, ``"projector:"``, or ``None``."""
        if self.is_host(token):
            return "host:"
        player = self.player_by_token(token)
        if player is not None:
            return f"player:{player}"
        return "projector:" if self.is_projector(token) else None

    def projector_token(self) -> str:
        """The token of the host page's projector link: it lets a projector page in past the spectators'
        limit and nothing else (32 hex digits, derived from the host token's hash: nothing more is stored)."""
        return hmac.new(self.meta["host"].encode(), f"projector {self.code}".encode(), hashlib.sha256).hexdigest()[:32]

    def is_projector(self, token: str) -> bool:
        return secrets.compare_digest(self.projector_token(), token)

    async def _save_meta(self) -> None:
        await self.run_db(self.store.save_meta, self.id, _copy(self.meta))

    async def join(self, name: str, side: str | None) -> tuple[str, str]:
        """A new player: (player id, token); takes the first free seat of ``side`` (any side: None)."""
        if self.meta["status"] in ("over", "ended"):
            raise Refused("over", "this game is over")
        if self.meta.get("locked"):
            raise Refused("locked", "the host has locked this room: nobody new may join (ask the host)")
        if len(self.meta["players"]) >= 4 * max(1, len(self.meta["seats"])):
            raise Refused("full", "this room has too many players")
        self._name_free(name)
        token = secrets.token_urlsafe(24)
        pid = f"p{self.meta['next_player']}"
        self.meta["next_player"] += 1
        self.meta["players"][pid] = {"name": name, "token": token_hash(token)}
        for seat, entry in self.meta["seats"].items():
            if entry["player"] is None and entry["bot"] is None and (side is None or self.side_of(seat) == side):
                entry["player"] = pid
                break
        await self._save_meta()
        self.touch()
        return pid, token

    def _name_free(self, name: str, but: str | None = None) -> None:
        """Refuse ``name`` if a player of this room (other than ``but``) goes by it already, whatever its
        case: two pupils called "Sam" on the host's list and the projector could not be told apart."""
        taken = name.casefold()
        if any(pid != but and entry["name"].casefold() == taken for pid, entry in self.meta["players"].items()):
            raise Refused(
                "name_taken",
                f"the name {name!r} is taken in this game: add an initial or a number "
                "(if it was you on another device, the host can remove the old one)",
            )

    def _remove(self, pid: str) -> None:
        """Player ``pid`` leaves: his seats are free, his pages closed, his token no longer works."""
        self.meta["players"].pop(pid, None)
        for entry in self.meta["seats"].values():
            if entry["player"] == pid:
                entry["player"] = None
        for conn in list(self.conns):
            if conn.player == pid:
                conn.kick("removed by the host")

    async def host_op(self, op: str, **args: Any) -> None:
        """A host's command (already validated for shape); refuses what cannot be done now."""
        meta = self.meta
        seats = meta["seats"]
        if op == "assign":
            seat, player = args["seat"], args.get("player")
            if seat not in seats:
                raise Refused("bad_seat", f"no seat {seat!r} in this game")
            if player is not None and player not in meta["players"]:
                raise Refused("bad_player", "no such player")
            seats[seat] = {"player": player, "bot": None}
        elif op == "bot":
            seat, bot = args["seat"], args.get("bot")
            if seat not in seats:
                raise Refused("bad_seat", f"no seat {seat!r} in this game")
            if bot is not None and bot not in self.ruleset.bots:
                raise Refused("bad_bot", f"bot: {ladder.unknown_bot(self.ruleset, bot)}")
            seats[seat] = {"player": None, "bot": bot}
            self.bots.pop(seat, None)
        elif op == "rename":
            player = meta["players"].get(args["player"])
            if player is None:
                raise Refused("bad_player", "no such player")
            self._name_free(args["name"], but=args["player"])
            player["name"] = args["name"]
        elif op in ("remove", "remove_many"):
            pids = args["players"] if op == "remove_many" else [args["player"]]
            unknown = [pid for pid in pids if pid not in meta["players"]]
            if unknown:  # checked first: a refused removal removes nobody
                raise Refused("bad_player", f"no such player: {', '.join(unknown[:5])}")
            for pid in pids:
                self._remove(pid)
        elif op == "lock":
            meta["locked"] = bool(args["locked"])
        elif op == "start":
            if meta["status"] != "lobby":
                raise Refused("started", "the game has already started")
            meta["status"] = "playing"
            meta["paused"] = False
        elif op == "pause":
            if meta["status"] != "playing":
                raise Refused("not_playing", "the game is not being played")
            meta["paused"] = bool(args["paused"])
            if meta["paused"]:
                self._cancel_timer()
            self._timer_key = None
        elif op == "settings":
            if args.get("retention_days") is not None:
                check_days(args["retention_days"], self.retention_most)
            for key in ("fill_bots", "timer", "on_timeout", "odds_shown", "odds_from", "retention_days"):
                if args.get(key) is not None:
                    meta[key] = args[key]
            for side, name in (args.get("bot_names") or {}).items():
                if side not in self.ruleset.sides:
                    raise Refused("bad_bot", f"bot_names: no side {side!r}; sides: {', '.join(self.ruleset.sides)}")
                if name not in self.ruleset.bots:
                    raise Refused("bad_bot", f"bot_names: {ladder.unknown_bot(self.ruleset, name)}")
                meta["bot_names"][side] = name
            self.bots = {}
            self._timer_key = None
        elif op == "dice_mode":
            if self.game is None:
                raise Refused("not_ready", "type the setup's dice first")
            self._switch_dice(args["mode"])
        elif op == "undo":
            if meta["status"] == "ended":
                raise Refused("ended", "the host ended the game: its record is closed, nothing can be taken back")
            await self._undo()
            return
        elif op == "end":
            await self._end()
            return
        else:  # pragma: no cover - the message models list every op
            raise Refused("bad_op", f"unknown host command {op!r}")
        await self._save_meta()
        self.touch()

    async def _end(self) -> None:
        """The host ends the game: from now on no order is applied (``_step`` checks), a roll asked of the
        referee is asked no more, and the record's end line is written in the actor's order (after a line
        being stored now)."""
        before = self.meta["status"]
        if before in ("over", "ended"):
            raise Refused("over", "the game is already over")
        self.meta["status"] = "ended"
        self._cancel_timer()
        self.asking.stop("ended", "the host ended the game")
        try:
            await self.call(self._write_end)
        except Exception:
            self.meta["status"] = before
            self.touch()
            raise

    async def _write_end(self) -> None:
        """The end line (who, when, the turn, the figures as they stand) stored with the meta in one transaction;
        a game with no record yet (a referee's setup still untyped) or over by its rules keeps its record as it is."""
        game, writer = self.game, self.writer
        if game is None or writer is None or game.is_over:
            if game is not None and game.is_over:
                self.meta["status"] = "over"
            await self._save_meta()
            self.touch()
            return
        summary = self.ruleset.summary
        standing = summary(game) if summary is not None else faces.figures(self.ruleset, game)
        writer.ending(game, "host", standing)
        try:
            await self._persist(writer.lines[-1], _copy(self.meta))
        except Exception:
            self.writer = RecordWriter.resume(writer.lines[:-1])
            raise
        self.recent.append((Event("ended", {}), {"i": -1, "text": f"the host ended the game on turn {game.turn}"}))
        self.changes += 1
        self.touch()

    # ------------------------------------------------------------------ acting
    async def act(self, player: str, seat: str | None, text: str, client: str | None = None) -> int:
        """``player`` submits the action written ``text`` (for ``seat``, or the seat owing it).

        Returns the record line's step. ``client`` is the page's id for this order: an order
        whose id was applied already (the page did not hear the answer, and sent it again)
        changes nothing and returns the step it was given then.
        """
        if client is not None:
            done = self.meta.get("sent", {}).get(player, {}).get(client)
            if done is not None:
                return int(done)
        game = self.game
        if game is None:
            raise Refused("not_ready", "the game is still being set up")
        if self.meta["status"] == "lobby":
            raise Refused("not_started", "the game has not started yet")
        if self.meta["status"] != "playing" or game.is_over:
            raise Refused("over", "the game is over")
        if self.meta["paused"]:
            raise Refused("paused", "the game is paused by the host")
        mine = [s for s in self.seats_of(player) if self.controller(s) == ("player", player)]
        if not mine:
            raise Refused("no_seat", "you have no seat in this game")
        action = self.ruleset.parse_action(text)  # ParseError: refused as it stands
        if seat is not None and seat not in mine:
            raise Refused("not_yours", f"{action}: the seat {seat!r} is not yours (yours: {', '.join(mine)})")
        key = game.decision_id(action)
        owing = [d for d in game.pending() if d.seat in mine and (seat is None or d.seat == seat)]
        if key is not None:
            owner = next((d for d in game.pending() if d.id == key), None)
            if owner is not None and owner.seat not in mine:
                why = f"{action}: {key!r} is owed by {owner.seat}, not by you"
                try:  # the rule set's own words when it has them (the unit and its commander, say)
                    game.find_decision(seat if seat in mine else mine[0], action)
                except IllegalAction as exc:
                    why = str(exc)
                raise Refused("not_yours", why)
            owing = [d for d in owing if d.id == key] or owing
        if not owing:
            raise Refused("not_owed", f"{action}: you owe no decision now")
        problem: GrognardError | None = None
        for decision in owing:
            try:
                decision.space.check(action)
            except IllegalAction as exc:
                problem = problem or exc
                continue
            await self._step(decision.seat, action, player=player, client=client)
            return self._step_number()
        assert problem is not None
        game.find_decision(owing[0].seat, action)  # raises the game's own refusal: its words name more (a commander)
        raise problem

    def preview(self, player: str, text: str) -> dict[str, Any]:
        """What ``text`` would do: legal or why not, a note and the exact odds (nothing changes)."""
        game = self.game
        if game is None:
            raise Refused("not_ready", "the game is still being set up")
        action = self.ruleset.parse_action(text)
        mine = set(self.seats_of(player))
        key = game.decision_id(action)
        owing = [d for d in game.pending() if d.seat in mine and (key is None or d.id == key)]
        if not owing:
            return {"action": str(action), "legal": False, "problem": "you owe no decision this action answers"}
        try:
            owing[0].space.check(action)
        except IllegalAction as exc:
            return {"action": str(action), "legal": False, "problem": str(exc)}
        note = self.ruleset.note(game, action) if self.ruleset.note is not None else ""
        odds = self.ruleset.odds(game, action) if self.ruleset.odds is not None else None
        out = {"action": str(action), "legal": True, "note": note or "", "odds": odds or "no dice"}
        if self.ruleset.preview is not None and (self.ruleset.face is not None or self.ruleset.render is not None):
            # the order drawn in (its path, where it ends, what it meets): in inches for the page's table,
            # or the server's picture of a rule set without a face
            try:
                view = self.ruleset.preview(game, owing[0].seat, action)
            except IllegalAction as exc:
                return {"action": str(action), "legal": False, "problem": str(exc)}
            if self.ruleset.face is not None:
                out["drawn"] = view.get("preview")
            elif self.ruleset.render is not None:
                out["svg"] = self.ruleset.render(view)
        return out

    async def _step(self, seat: str, action: Any, player: str | None = None, client: str | None = None) -> None:
        """Apply ``action`` for ``seat`` (its dice asked of the referee if need be), store it, tell everyone."""
        game, writer = self.game, self.writer
        assert game is not None and writer is not None
        what = {"at": len(writer.lines), "seat": seat, "action": str(action), "player": player, "client": client}

        def attempt() -> list[Event]:
            if self.meta["status"] == "ended":  # ended while a bot chose or the referee rolled: nothing applied
                raise Refused("over", "the host ended the game")
            if self.closed:  # deleted meanwhile: nothing of it is stored again
                raise Refused("gone", "this game was deleted")
            applied = game.apply(seat, action)
            self.committing = True  # in the same step of the event loop as the change itself
            self.changes += 1
            return applied

        events: list[Event] = await self._with_dice(attempt, what)
        writer.action(game, seat, action, events)
        await self._commit_step(game, events, player, client)

    async def _commit_step(
        self, game: Game, events: list[Event], player: str | None = None, client: str | None = None
    ) -> None:
        """Store the line just written (with the meta it changes, in one transaction), then publish."""
        assert self.writer is not None
        changed = self.meta.pop("typed", None) is not None  # the rolls are in the line now
        if game.is_over:
            self.meta["status"] = "over"
            self._cancel_timer()
            changed = True
        sent: dict[str, int] | None = None
        if player is not None and client is not None:
            sent = self.meta.setdefault("sent", {}).setdefault(player, {})
            sent[client] = self.writer.steps
            while len(sent) > SENT_KEPT:
                del sent[next(iter(sent))]
            changed = True
        meta = _copy(self.meta) if changed else None
        try:
            await self._persist(self.writer.lines[-1], meta)
        except Exception:
            log.exception("room %s: could not store a line; taking it back", self.code)
            if sent is not None and client is not None:
                sent.pop(client, None)
            self._rebuild(self.writer.lines[:-1])
            self.committing = False
            self.touch()
            raise
        finally:
            self.committing = False
        self._publish(game, events)

    async def _persist(self, line: dict[str, Any], meta: dict[str, Any] | None = None) -> None:
        assert self.writer is not None
        if self.closed:  # deleted (by its host, or its time was over): nothing of it is stored again
            raise Refused("gone", "this game was deleted")
        await self.run_db(self.store.append, self.id, len(self.writer.lines) - 1, line, meta)

    def stands(self) -> str | None:
        """Why the last action may not be taken back (``its dice were rolled (fire B1 A1 by German 1: 4 dice)``),
        or None: an action is taken back until a die is rolled or a secret revealed (``core.takeback``)."""
        lines = self.writer.lines if self.writer is not None else []
        return stands(lines[-1:], seat=True) if self.game is not None and len(lines) > 2 else None

    async def _undo(self) -> None:
        assert self.writer is not None
        lines = self.writer.lines
        if self.game is None or len(lines) <= 2:
            raise Refused("nothing", "there is no action to take back")
        if (why := self.stands()) is not None:
            raise Refused("stands", f"that action stands: {why}")
        keep = lines[:-1]
        self._rebuild(keep)
        if self.meta["status"] == "over":
            self.meta["status"] = "playing"
        if self.meta["status"] == "playing":
            self.meta["paused"] = True  # else a bot would play the same move again at once
        self._cancel_timer()
        self._timer_key = None
        await self.run_db(self.store.truncate, self.id, len(keep), _copy(self.meta))
        self.recent.append((Event("taken_back", {}), {"i": -1, "text": "the host took back the last action"}))
        self.touch()

    # ------------------------------------------------------------------ bots and the phase timer
    def _bot(self, seat: str, name: str) -> Bot:
        step = self.writer.steps if self.writer is not None else 0
        rng = np.random.default_rng(stream(self.meta["bot_seed"], BOTS, step))
        bot = self.ruleset.bots[name](rng)
        return bot

    async def _choose(self, seat: str, name: str, decision: Decision) -> Any:
        game = self.game
        assert game is not None
        bot = self._bot(seat, name)
        return await asyncio.get_running_loop().run_in_executor(None, bot.choose, game, decision)

    def _bot_turn(self) -> tuple[Decision, str] | None:
        """The first decision owed now by a bot's seat, and the bot's name (None: no bot owes one)."""
        if not self._can_play():
            return None
        assert self.game is not None
        for decision in self.game.pending():
            kind, name = self.controller(decision.seat)
            if kind == "bot":
                return decision, str(name)
        return None

    async def _bot_step(self) -> None:
        turn = self._bot_turn()
        if turn is None:
            return
        decision, name = turn
        action = await self._choose(decision.seat, name, decision)
        await self._bots_move(decision, name, action)

    async def _bots_move(self, decision: Decision, name: str, action: Any) -> bool:
        """Apply the action bot ``name`` chose for ``decision``, unless the seat changed hands while it chose
        (a latecomer joined, the host gave it to a pupil or to another bot) or the game stopped: joins and
        the host's seat changes do not wait for the actor, so the seat's question is then left to its new
        player. Whether it was applied."""
        if not self._can_play() or self.controller(decision.seat) != ("bot", name):
            return False
        await self._step(decision.seat, action)
        return True

    def _can_play(self) -> bool:
        return (
            self.game is not None
            and not self.game.is_over
            and self.meta["status"] == "playing"
            and not self.meta["paused"]
            and not self.closed
        )

    def _phase_key(self) -> Any:
        game = self.game
        assert game is not None
        return (game.turn, getattr(getattr(game, "state", None), "phase", None))

    def _keep_timer(self) -> None:
        if not self._can_play() or not self.meta["timer"]:
            self._cancel_timer()
            self._timer_key = None
            return
        assert self.game is not None
        people = [d for d in self.game.pending() if self.controller(d.seat)[0] != "bot"]
        if not people:
            self._cancel_timer()
            self._timer_key = None
            return
        key = self._phase_key()
        if key == self._timer_key:
            return
        restored, self._restored_deadline = self._restored_deadline, None
        self._cancel_timer()
        self._timer_key = key
        seconds = float(self.meta["timer"])
        stored: dict[str, Any] = {"at": time.time() + seconds, "phase": repr(key), "seconds": seconds}
        if restored is not None and restored.get("phase") == stored["phase"] and restored.get("seconds") == seconds:
            stored = restored  # the same phase as before a restart: the same deadline, not a fresh one
        self.deadline = float(stored["at"])
        self.meta["deadline"] = stored
        if stored is not restored:
            self._save_soon()
        left = max(0.0, self.deadline - time.time())
        self._timer_task = asyncio.get_running_loop().create_task(self._ring(key, left))
        self.touch()

    def _cancel_timer(self) -> None:
        if self._timer_task is not None and self._timer_task is not asyncio.current_task():
            self._timer_task.cancel()
        self._timer_task = None
        self.deadline = None
        self.meta.pop("deadline", None)

    def _save_soon(self) -> None:
        """Store the meta without waiting for it (the database thread keeps the order of every write)."""

        async def save() -> None:
            try:
                await self._save_meta()
            except Exception:
                log.exception("room %s: could not store the meta", self.code)

        task = asyncio.get_running_loop().create_task(save())
        self._saves.add(task)
        task.add_done_callback(self._saves.discard)

    async def _ring(self, key: Any, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self._timer_task = None
        await self.call(self._timeout, key)

    async def _timeout(self, key: Any) -> None:
        """The phase timer ran out: every decision still owed by people is answered by a bot or 'hold'."""
        if not self._can_play() or key != self._timer_key:
            return
        self.deadline = None
        assert self.game is not None
        while self._can_play() and self._phase_key() == key:
            owed = [d for d in self.game.pending() if self.controller(d.seat)[0] != "bot"]
            if not owed:
                break
            decision = owed[0]
            side = self.side_of(decision.seat)
            bot = self.meta["bot_names"].get(side, self.ruleset.default_bot)
            if self.meta["on_timeout"] == "hold":
                action = hold_action(decision) or await self._choose(decision.seat, bot, decision)
            else:
                action = await self._choose(decision.seat, bot, decision)
            self.recent.append((Event("timeout", {}), {"i": -1, "text": f"time ran out for {decision.seat}: {action}"}))
            await self._step(decision.seat, action)
        self._timer_key = None

    # ------------------------------------------------------------------ telling the pages
    def _note_events(self, game: Game, events: list[Event]) -> list[tuple[Event, dict[str, Any]]]:
        out = []
        for event in events:
            shown = faces.event_json(self.ruleset, event, self.version)
            if shown is not None:
                out.append((event, shown))
        self.recent.extend(out)
        return out

    def _publish(self, game: Game, events: list[Event]) -> None:
        """Tell every page the new events it may see, and that its state changed."""
        shown = self._note_events(game, events)
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
        assert self.game is not None and self.ruleset.render is not None
        view = dict(self.game.view(seat), seat=None, side=None)
        key = ("picture", canonical_json(view))
        return str(self.memo(key, lambda: self.ruleset.render(view)))  # type: ignore[misc]

    def close(self, reason: str = "the game was deleted") -> None:
        self.closed = True
        self.odds.close()
        self._cancel_timer()
        self.asking.cancel()
        for conn in list(self.conns):
            conn.kick(reason)
        self.queue.put_nowait((self._noop, (), asyncio.get_running_loop().create_future()))


def hold_action(decision: Decision) -> Any:
    """The action that does nothing, if the decision's menu has one ('hold ...', '... pass')."""
    for action in decision.space.candidates(64):
        text = str(action)
        if text.startswith("hold") or text.endswith(" pass"):
            return action
    return None


def _copy(meta: dict[str, Any]) -> dict[str, Any]:
    import json

    out: dict[str, Any] = json.loads(json.dumps(meta))
    return out
