"""Acting on a room's game: a player's order (``act``) and its preview, the host's take-back and end, the dice.

An applied action's record line (with its dice) is committed to the database before anyone is told (the
``ack``, the events, the new state). In referee mode the dice come from the host page: an action that needs
a roll is tried, stops at the first roll not yet typed (the state restored), asks the host for it, and is
tried again with the values so far (``referee.py``); after a restart, an order stopped halfway through its
dice is finished with the rolls stored, asking only for the rest (``_resume_typed``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from grognard.core import plans
from grognard.core.dice import SeededDice
from grognard.core.engine import Decision, Event, Game
from grognard.core.errors import GrognardError, IllegalAction
from grognard.core.lookup import NotOwed, find_decision, owed
from grognard.core.reasons import shown_why
from grognard.core.record import RecordWriter, dice_of
from grognard.core.takeback import stands
from grognard.web.messages import DiceRequest, RefusalCode
from grognard.web.protocol import Refused
from grognard.web.referee import RefereeDice
from grognard.web.room.base import copy_meta, dice_stream
from grognard.web.room.seats import Seats


class Acting(Seats):
    """What changes the game: orders, the referee's dice, the take-back, the end."""

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
            raise Refused(RefusalCode.NOT_READY, "the game is still being set up")
        if self.meta["status"] == "lobby":
            raise Refused(RefusalCode.NOT_STARTED, "the game has not started yet")
        if self.meta["status"] != "playing" or game.is_over:
            raise Refused(RefusalCode.OVER, "the game is over")
        if self.meta["paused"]:
            raise Refused(RefusalCode.PAUSED, "the game is paused by the host")
        mine = [s for s in self.seats_of(player) if self.controller(s) == ("player", player)]
        if not mine:
            raise Refused(RefusalCode.NO_SEAT, "you have no seat in this game")
        action = self.ruleset.parse_action(text)  # ParseError: refused as it stands
        if seat is not None and seat not in mine:
            raise Refused(RefusalCode.NOT_YOURS, f"{action}: the seat {seat!r} is not yours (yours: {', '.join(mine)})")
        decision = self._answered(game, mine, [seat] if seat is not None else mine, action)
        await self._step(decision.seat, action, player=player, client=client)
        return self._step_number()

    @staticmethod
    def _answered(game: Game, mine: list[str], seats: list[str], action: Any) -> Decision:
        """The decision of ``seats`` (of the player's ``mine``) that ``action`` answers (``core.lookup``), or
        the refusal: ``not_yours`` (another's), ``not_owed`` (they owe nothing), else the game's own words."""
        try:
            return find_decision(game, seats, action)
        except IllegalAction as exc:
            if isinstance(exc, NotOwed) and exc.owner is not None and exc.owner.seat not in mine:
                why = str(exc)
                try:  # the rule set's own words when it has them (the unit and its commander, say)
                    game.find_decision(seats[0], action)
                except IllegalAction as words:
                    why = str(words)
                raise Refused(RefusalCode.NOT_YOURS, why) from None
            if not any(d.seat in seats for d in game.pending()):
                raise Refused(RefusalCode.NOT_OWED, f"{action}: you owe no decision now") from None
            # the game's own refusal for the seat of the decision tried first: its words name more (a commander)
            first = next(d.seat for d in game.pending() if d.seat in seats)
            if not isinstance(exc, NotOwed):
                first = owed(game, seats, action)[0].seat  # the decision the action names, else the first owed
            game.find_decision(first, action)
            raise

    def preview(self, player: str, text: str) -> dict[str, Any]:
        """What ``text`` would do: legal or why not, a note and the exact odds (nothing changes)."""
        game = self.game
        if game is None:
            raise Refused(RefusalCode.NOT_READY, "the game is still being set up")
        action = self.ruleset.parse_action(text)
        try:
            decision = find_decision(game, self.seats_of(player), action)
        except NotOwed:
            return {"action": str(action), "legal": False, "problem": "you owe no decision this action answers"}
        except IllegalAction as exc:
            return {"action": str(action), "legal": False, "problem": str(exc)}
        adviser = self.ruleset.adviser
        note = adviser.note(game, action) if adviser is not None else ""
        odds = adviser.odds(game, action) if adviser is not None else None
        out = {"action": str(action), "legal": True, "note": note or "", "odds": odds or "no dice"}
        if adviser is not None and (self.ruleset.face is not None or self.ruleset.render is not None):
            # the order drawn in (its path, where it ends, what it meets): in inches for the page's table,
            # or the server's picture of a rule set without a face
            try:
                view = adviser.preview(game, decision.seat, action)
            except IllegalAction as exc:
                return {"action": str(action), "legal": False, "problem": str(exc)}
            if self.ruleset.face is not None:
                out["drawn"] = view.get("preview")
            elif self.ruleset.render is not None:
                out["svg"] = self.ruleset.render(view)
        return out

    async def _step(
        self,
        seat: str,
        action: Any,
        player: str | None = None,
        client: str | None = None,
        reason: dict[str, Any] | None = None,
    ) -> None:
        """Apply ``action`` for ``seat`` (its dice asked of the referee if need be), store it (with a bot's
        ``reason``), tell everyone."""
        game, writer = self.game, self.writer
        assert game is not None and writer is not None
        what = {"at": len(writer.lines), "seat": seat, "action": str(action), "player": player, "client": client}

        def attempt() -> list[Event]:
            if self.meta["status"] == "ended":  # ended while a bot chose or the referee rolled: nothing applied
                raise Refused(RefusalCode.OVER, "the host ended the game")
            if self.closed:  # deleted meanwhile: nothing of it is stored again
                raise Refused(RefusalCode.GONE, "this game was deleted")
            applied = game.apply(seat, action)
            self.committing = True  # in the same step of the event loop as the change itself
            self.changes += 1
            return applied

        events: list[Event] = await self._with_dice(attempt, what)
        writer.action(game, seat, action, events, reason)
        await self._commit_step(game, events, player, client, shown_why(seat, str(action), reason))

    def stands(self) -> str | None:
        """Why the last action may not be taken back (``its dice were rolled (fire B1 A1 by German 1: 4 dice)``),
        or None: an action is taken back until a die is rolled or a secret revealed (``core.takeback``)."""
        lines = self.writer.lines if self.writer is not None else []
        return stands(lines[-1:], seat=True) if self.game is not None and len(lines) > 2 else None

    async def _undo(self) -> None:
        assert self.writer is not None
        lines = self.writer.lines
        if self.game is None or len(lines) <= 2:
            raise Refused(RefusalCode.NOTHING, "there is no action to take back")
        if (why := self.stands()) is not None:
            raise Refused(RefusalCode.STANDS, f"that action stands: {why}")
        keep = lines[:-1]
        self._rebuild(keep)
        self.meta["orders"] = [order for order in self.meta.get("orders", []) if order[0] <= len(keep)]
        self.after = None  # the game goes on: its coach, if begun, gives up (web/reports.py)
        if self.meta["status"] == "over":
            self.meta["status"] = "playing"
        if self.meta["status"] == "playing":
            self.meta["paused"] = True  # else a bot would play the same move again at once
        self._cancel_timer()
        self._timer_key = None
        await self.run_db(self.store.truncate, self.id, len(keep), copy_meta(self.meta))
        self.recent.append((Event("taken_back", {}), {"i": -1, "text": "the host took back the last action"}))
        self.touch()

    async def _with_dice(self, attempt: Callable[[], Any], what: dict[str, Any]) -> Any:
        """Run ``attempt``; in referee mode, ask the host for each roll it needs (``Referee.run``)."""
        if self.referee is None:
            return attempt()
        return await self.asking.run(self.referee, attempt, what)

    @property
    def dice_request(self) -> DiceRequest | None:
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
            game.find_decision(seat, action)
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
        chosen = self.meta.get("plans_chosen") or {}
        self.plans = plans.arm(self.ruleset, game, self.writer, chosen, self.meta["bot_seed"])
        meta = copy_meta(self.meta) if self.meta.pop("typed", None) is not None else None
        await self._persist_fresh(1 + len(chosen), meta)
        self.game = game
        self.changes += 1
        self._publish(game, events)

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

    async def _end(self) -> None:
        """The host ends the game: from now on no order is applied (``_step`` checks), a roll asked of the
        referee is asked no more, and the record's end line is written in the actor's order (after a line
        being stored now)."""
        before = self.meta["status"]
        if before in ("over", "ended"):
            raise Refused(RefusalCode.OVER, "the game is already over")
        self.meta["status"] = "ended"
        self.meta["over_at"] = time.time()
        self._cancel_timer()
        self.asking.stop(RefusalCode.ENDED, "the host ended the game")
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
        kept = dict(writer.plans)
        writer.ending(game, "host", self.ruleset.rules.summary(game))  # the plans revealed after it
        fresh = 1 + len(kept)
        try:
            await self._persist_fresh(fresh, copy_meta(self.meta))
        except Exception:
            self.writer = RecordWriter.resume(writer.lines[:-fresh])
            self.writer.plans = kept
            raise
        self.recent.append((Event("ended", {}), {"i": -1, "text": f"the host ended the game on turn {game.turn}"}))
        self.changes += 1
        self.touch()
