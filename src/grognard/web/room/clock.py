"""A room's clock and bots: the seats the bots play answered one decision at a time between queued changes, and
the phase timer (when it runs out, every decision still owed by people is answered by a bot or 'hold')."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import numpy as np

from grognard.core.dice import BOTS, stream
from grognard.core.engine import Decision, Event
from grognard.core.reasons import reason_for, reason_json
from grognard.core.ruleset import Bot
from grognard.web.room.acting import Acting


class Clock(Acting):
    """The bots' moves and the phase timer."""

    def _bot(self, seat: str, name: str) -> Bot:
        step = self.writer.steps if self.writer is not None else 0
        rng = np.random.default_rng(stream(self.meta["bot_seed"], BOTS, step))
        bot = self.ruleset.bots[name](rng)
        plan = self.plans.get(self.game.side_of(seat)) if self.game is not None else None
        follow = getattr(bot, "follow", None)
        if plan is not None and callable(follow):  # a level that follows no plan plays as it does
            follow(plan)
        return bot

    async def _choose(self, seat: str, name: str, decision: Decision) -> tuple[Any, dict[str, Any] | None]:
        """The bot's action for ``decision`` and its reason (``core.reasons``: kept in the record, shown on
        the pages), both worked out on a worker thread."""
        game = self.game
        assert game is not None
        bot = self._bot(seat, name)

        def run() -> tuple[Any, dict[str, Any] | None]:
            action = bot.choose(game, decision)
            reason = reason_for(bot, game, decision, action)
            return action, reason_json(game, decision, reason) if reason is not None else None

        return await asyncio.get_running_loop().run_in_executor(None, run)

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
        action, reason = await self._choose(decision.seat, name, decision)
        await self._bots_move(decision, name, action, reason)

    async def _bots_move(
        self, decision: Decision, name: str, action: Any, reason: dict[str, Any] | None = None
    ) -> bool:
        """Apply the action bot ``name`` chose for ``decision``, unless the seat changed hands while it chose
        (a latecomer joined, the host gave it to a pupil or to another bot) or the game stopped: joins and
        the host's seat changes do not wait for the actor, so the seat's question is then left to its new
        player. Whether it was applied."""
        if not self._can_play() or self.controller(decision.seat) != ("bot", name):
            return False
        await self._step(decision.seat, action, reason=reason)
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
        return (game.turn, self.memo("phase key", lambda: game.view(None).get("phase")))  # the spectators' view

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
            held = hold_action(decision) if self.meta["on_timeout"] == "hold" else None
            action, reason = (held, None) if held is not None else await self._choose(decision.seat, bot, decision)
            self.recent.append((Event("timeout", {}), {"i": -1, "text": f"time ran out for {decision.seat}: {action}"}))
            await self._step(decision.seat, action, reason=reason)
        self._timer_key = None


def hold_action(decision: Decision) -> Any:
    """The action that does nothing, if the decision's menu has one ('hold ...', '... pass')."""
    for action in decision.space.candidates(64):
        text = str(action)
        if text.startswith("hold") or text.endswith(" pass"):
            return action
    return None
