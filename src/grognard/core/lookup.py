"""Which pending decision an action answers: the one lookup the engine and the web server share.

``Game.find_decision(seat, action)`` is ``find_decision(game, [seat], action)``; the server asks it for the
seats a player holds (``web/room``), and names its refusals by the kind of exception: ``NotOwed`` (the
action names a decision another seat owes, one nobody owes, or the seats owe nothing it could answer)
or the refusal of the decision's space (an ``IllegalAction`` naming the rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from grognard.core.errors import IllegalAction

if TYPE_CHECKING:
    from grognard.core.engine import Decision, Game


class NotOwed(IllegalAction):
    """None of the seats asked owes a decision the action answers now. ``owner``: the decision the action names,
    when another seat owes it (else None)."""

    def __init__(self, message: str, owner: Decision | None = None) -> None:
        super().__init__(message)
        self.owner = owner


def find_decision(game: Game, seats: Sequence[str], action: Any) -> Decision:
    """The pending decision of one of ``seats`` that ``action`` answers: the one it names (``decision_id``),
    else the first of theirs whose space takes it (in ``pending`` order).

    Raises ``NotOwed`` when the game is over, the decision named is owed by another seat or by none, or the
    seats owe nothing; else the first refusal of the spaces tried (the state is never changed).

    >>> from grognard.core.dice import SeededDice
    >>> from grognard.rulesets import get
    >>> game = get("b17").create({}, SeededDice(1), None)
    >>> seat = game.pending()[0].seat
    >>> find_decision(game, [seat], game.pending()[0].space.candidates(1)[0]).seat == seat
    True
    """
    problem: IllegalAction | None = None
    for decision in owed(game, seats, action):
        try:
            decision.space.check(action)
            return decision
        except IllegalAction as exc:
            problem = problem or exc
    assert problem is not None
    raise problem


def owed(game: Game, seats: Sequence[str], action: Any) -> list[Decision]:
    """The pending decisions of ``seats`` that ``action`` may answer, in ``pending`` order: the one it names
    (``decision_id``), else all of theirs. Raises ``NotOwed`` as ``find_decision`` does."""
    pending = game.pending()
    who = seats[0] if len(seats) == 1 else "your seats"
    if game.is_over:
        raise NotOwed(f"{action}: the game is over")
    key = game.decision_id(action)
    owner = next((d for d in pending if d.id == key), None) if key is not None else None
    if owner is not None and owner.seat not in seats:
        raise NotOwed(f"{action}: {key!r} is owed by {owner.seat}, not {who}", owner)
    if key is not None and owner is None:
        if (absent := game.missing(action)) is not None:
            raise NotOwed(absent)
        theirs = ", ".join(d.id for d in pending if d.seat in seats) or "nothing"
        raise NotOwed(f"{action}: {key!r} is not owed now; {who} owes {theirs}")
    owing = [owner] if owner is not None else [d for d in pending if d.seat in seats]
    if not owing:
        waiting = ", ".join(sorted({d.seat for d in pending}))
        raise NotOwed(f"{action}: {who!r} owes no decision now (waiting for {waiting})")
    return owing
