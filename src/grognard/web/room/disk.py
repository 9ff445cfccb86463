"""Keeping a room on disk: each record line stored (with the meta it changes, in one transaction) before anyone
is told of it, the meta saved, and the game rebuilt from its record (at start-up, after a take-back, or when a
line could not be stored).

What the server has acknowledged survives a crash (kill -9) as well as the record does: each roll the referee
typed is stored in ``meta["typed"]`` (with the order it is for) before its ``ack``; the client id of each
player's order is stored in ``meta["sent"]`` in the same transaction as its record line, so an order sent
again is answered with its first ``ack`` and applied once; the phase timer's deadline is in ``meta["deadline"]``.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from grognard import rulesets
from grognard.core import plans
from grognard.core.dice import SeededDice
from grognard.core.engine import Event, Game
from grognard.core.reasons import shown_why
from grognard.core.record import RecordWriter, replay
from grognard.web.messages import RefusalCode
from grognard.web.protocol import Refused
from grognard.web.referee import RefereeDice
from grognard.web.room.base import RECENT, RoomBase, copy_meta, dice_stream, log

SENT_KEPT = 16  # client ids of applied orders kept for each player (a page resends only those not answered)


class Disk(RoomBase):
    """A room's record and meta in the database (``store.Store``, on the server's database thread)."""

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
        self.plans = plans.rearm(self.ruleset, game, self.writer, rebuilt.plans, self.meta["bot_seed"])
        self.recent.clear()
        self.whys.clear()
        for index, line in enumerate(rebuilt.used[1:], 1):
            if index < len(rebuilt.used) - RECENT:
                continue
            why = shown_why(str(line.get("seat")), str(line.get("action")), line.get("reason"))
            self._note_events(game, [Event.from_json(e) for e in line.get("events", [])], why)
        self.bots = {}
        self.version += 1
        self.changes += 1

    def _seed(self, header: dict[str, Any]) -> int:
        """The seed of the game's seeded dice (a game begun with typed dice gets one when it switches)."""
        seed = self.meta.get("seed", header.get("seed"))
        if seed is None:
            seed = self.meta["seed"] = secrets.randbits(63)
        return int(seed)

    async def _persist(self, line: dict[str, Any], meta: dict[str, Any] | None = None, n: int | None = None) -> None:
        """Line ``n`` of the record (the last by default) stored, with ``meta`` when given."""
        assert self.writer is not None
        if self.closed:  # deleted (by its host, or its time was over): nothing of it is stored again
            raise Refused(RefusalCode.GONE, "this game was deleted")
        at = len(self.writer.lines) - 1 if n is None else n
        await self.run_db(self.store.append, self.id, at, line, meta)

    def _fresh(self) -> int:
        """The lines the last step wrote: its own, and the plans revealed after it when it ended the game."""
        assert self.writer is not None
        lines, k = self.writer.lines, 1
        while k < len(lines) - 1 and lines[-k].get("type") == "reveal":
            k += 1
        return k

    async def _persist_fresh(self, count: int, meta: dict[str, Any] | None = None) -> None:
        """The last ``count`` lines stored, in order, ``meta`` with the last."""
        assert self.writer is not None
        lines = self.writer.lines
        for n in range(len(lines) - count, len(lines)):
            await self._persist(lines[n], meta if n == len(lines) - 1 else None, n)

    async def _save_meta(self) -> None:
        await self.run_db(self.store.save_meta, self.id, copy_meta(self.meta))

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

    async def _commit_step(
        self,
        game: Game,
        events: list[Event],
        player: str | None = None,
        client: str | None = None,
        why: dict[str, Any] | None = None,
    ) -> None:
        """Store the line just written (with the meta it changes, in one transaction), then publish."""
        assert self.writer is not None
        changed = self.meta.pop("typed", None) is not None  # the rolls are in the line now
        if game.is_over:
            self.meta["status"] = "over"
            self.meta["over_at"] = time.time()
            self._cancel_timer()
            changed = True
        fresh = self._fresh()  # the step's line, and the plans revealed after it if it ended the game
        if player is not None:  # whose order each line was: the coach and the reports are a person's
            self.meta.setdefault("orders", []).append([len(self.writer.lines) - fresh + 1, player])
            changed = True
        sent: dict[str, int] | None = None
        if player is not None and client is not None:
            sent = self.meta.setdefault("sent", {}).setdefault(player, {})
            sent[client] = self.writer.steps
            while len(sent) > SENT_KEPT:
                del sent[next(iter(sent))]
            changed = True
        meta = copy_meta(self.meta) if changed else None
        try:
            await self._persist_fresh(fresh, meta)
        except Exception:
            log.exception("room %s: could not store a line; taking it back", self.code)
            if sent is not None and client is not None:
                sent.pop(client, None)
            if player is not None:
                self.meta["orders"].pop()
            self._rebuild(self.writer.lines[:-fresh])
            self.committing = False
            self.touch()
            raise
        finally:
            self.committing = False
        self._publish(game, events, why)
