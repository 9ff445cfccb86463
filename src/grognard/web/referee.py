"""Referee mode in the web: the table's dice typed on the host page, each roll kept once acknowledged.

An action that needs a roll is tried with :class:`RefereeDice`; at the first roll not yet typed it
raises :class:`NeedDice` (``apply`` restores the state), the host is asked for it
(:attr:`Referee.request`, shown on the host page), and the action is tried again with the rolls so
far. Each roll typed is stored in the room's ``meta["typed"]`` (``{"what": the attempt, "rolls":
[{"purpose", "sides", "values"}]}``) before its ``ack``; a restarted room finishes the same attempt
with those rolls and asks only for the rest. ``what`` names the attempt: ``{"at": record line,
"setup": True}`` for a game's setup, ``{"at", "seat", "action", "player", "client"}`` for an order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from grognard.core.dice import check_values
from grognard.core.engine import Event
from grognard.core.errors import DiceError
from grognard.core.words import possessive
from grognard.web.messages import DiceRequest, KeptRoll, RefusalCode
from grognard.web.protocol import Refused


class NeedDice(Exception):
    """The referee has not typed this roll yet (raised inside ``apply``, which restores the state)."""

    def __init__(self, n: int, sides: int, purpose: str) -> None:
        super().__init__(purpose)
        self.n, self.sides, self.purpose = n, sides, purpose


class RefereeDice:
    """Manual dice for the web: serves the rolls typed so far for the current attempt, then asks."""

    def __init__(self) -> None:
        self.supplied: list[list[int]] = []
        self.used = 0

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[int]:
        if n == 0:
            return []
        if self.used < len(self.supplied):
            values = self.supplied[self.used]
            self.used += 1
            if check_values(values, n, sides) is not None:
                raise DiceError(f"typed roll for {purpose!r} does not fit {n}d{sides}")
            return list(values)
        raise NeedDice(n, sides, purpose)


class _Room(Protocol):
    """What the referee needs of its room: the stored meta, a way to store it, and the pages."""

    meta: dict[str, Any]
    recent: Any

    async def _save_meta(self) -> None: ...

    def touch(self) -> None: ...


class Referee:
    """The roll asked of the host now (``request``, or None), and the rolls typed for the attempt."""

    def __init__(self, room: _Room) -> None:
        self.room = room
        self.request: DiceRequest | None = None
        self._future: asyncio.Future[list[int]] | None = None
        self._typing: dict[str, Any] | None = None  # the attempt whose dice are being asked for
        self._taking = False  # a typed roll is being stored

    async def run(self, dice: RefereeDice, attempt: Callable[[], Any], what: dict[str, Any]) -> Any:
        """Run ``attempt`` with ``dice``, asking the host for each roll it needs, until it completes.

        Rolls stored for the same ``what`` (before a restart) are used first. If ``attempt``
        raises (the order failed), its stored rolls are dropped, said so, and the error goes on.
        """
        meta = self.room.meta
        dice.supplied = []
        typed = meta.get("typed")
        if typed is not None:
            if typed["what"] == what:
                dice.supplied = [list(roll["values"]) for roll in typed["rolls"]]
            else:
                await self.drop("something else was done first")
        self._typing = what
        try:
            while True:
                dice.used = 0
                try:
                    return attempt()
                except NeedDice as need:
                    dice.supplied.append(await self._ask(need))
        except Exception as exc:  # the order failed: its typed rolls are for nothing now
            if meta.get("typed") is not None:
                await self.drop(f"the order failed ({exc})")
            raise
        finally:
            self._typing = None

    def typed_so_far(self) -> list[dict[str, Any]]:
        """The rolls typed and stored for the attempt now asking: ``[{"purpose", "sides", "values"}]``."""
        typed = self.room.meta.get("typed")
        if typed is None or self._typing is None or typed["what"] != self._typing:
            return []
        return list(typed["rolls"])

    async def drop(self, reason: str) -> None:
        """Forget the stored rolls (they cannot be used), saying so on every page."""
        typed = self.room.meta.pop("typed", None)
        if typed is None:
            return
        rolls = "; ".join(f"{roll['purpose']}: {' '.join(map(str, roll['values']))}" for roll in typed["rolls"])
        text = f"the referee's dice typed for {describe(typed['what'])} were not used ({reason}): {rolls}"
        self.room.recent.append((Event("typed_dice_dropped", {}), {"i": -1, "text": text}))
        await self.room._save_meta()
        self.room.touch()

    async def _ask(self, need: NeedDice) -> list[int]:
        self._future = asyncio.get_running_loop().create_future()
        kept: list[KeptRoll] = [{"purpose": roll["purpose"], "values": roll["values"]} for roll in self.typed_so_far()]
        self.request = {
            "n": need.n,
            "sides": need.sides,
            "purpose": need.purpose,
            "problem": None,
            "for": describe(self._typing),
            "kept": kept,  # the rolls of this attempt typed already (kept through a restart)
        }
        self.room.touch()
        try:
            return await self._future
        finally:
            self.request = None
            self._future = None
            self._taking = False

    async def supply(self, values: list[int]) -> None:
        """The host typed a roll: refused unless it can be the roll asked for; stored, then used.

        Returns once the roll is committed to the database (so its ``ack`` can go): a
        restarted server finishes the attempt with it. Raises :class:`Refused` (``no_roll``:
        nothing is asked now; ``dice``: the values cannot be that roll), changing nothing.
        """
        request, future, meta = self.request, self._future, self.room.meta
        if request is None or future is None or future.done() or self._taking:
            raise Refused(RefusalCode.NO_ROLL, "no roll is being asked for now")
        problem = check_values(values, request["n"], request["sides"])
        if problem is not None:
            request["problem"] = problem
            self.room.touch()
            raise Refused(RefusalCode.DICE, f"{problem}; type the roll again")  # the page says "Refused: "
        before = meta.get("typed")
        roll = {"purpose": request["purpose"], "sides": request["sides"], "values": list(values)}
        meta["typed"] = {"what": self._typing, "rolls": [*self.typed_so_far(), roll]}
        self._taking = True  # a second answer to the same request, while this one is stored: refused
        try:
            await self.room._save_meta()
        except Exception:
            if before is None:
                meta.pop("typed", None)
            else:
                meta["typed"] = before
            self._taking = False
            raise
        if not future.done():
            future.set_result(list(values))

    def stop(self, code: RefusalCode, reason: str) -> None:
        """The roll asked for is asked no more (the host ended the game): the order waiting for it is refused
        with ``reason``, its typed rolls dropped, and the actor goes on."""
        if self._future is not None and not self._future.done():
            self._future.set_exception(Refused(code, reason))

    def cancel(self) -> None:
        """The room is closing: the roll asked for is asked no more."""
        if self._future is not None and not self._future.done():
            self._future.cancel()


def describe(what: dict[str, Any] | None) -> str:
    """What a roll is for, as the referee reads it (the seat, never the order: it may be a secret)."""
    if what is None:
        return ""
    if what.get("setup"):
        return "the game's setup"
    return f"{possessive(str(what.get('seat')))} order"
