"""Running a game with players: bots (or people behind the same interface) answer each decision."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grognard.core.engine import Decision, Event, Game, Result
from grognard.core.record import RecordWriter
from grognard.core.ruleset import Bot


def play_out(
    game: Game,
    player_for: Callable[[str], Bot],
    *,
    record: RecordWriter | None = None,
    on_step: Callable[[Decision, Any, list[Event]], None] | None = None,
    checked: bool = True,
    max_steps: int = 1_000_000,
) -> Result:
    """Play ``game`` to its end: the first pending decision is answered by ``player_for(seat)``.

    ``checked=False`` takes the fast path (the bots' actions came from the
    decision's own space). Raises ``RuntimeError`` if the game owes no decision
    but is not over (a rule-set bug), or runs past ``max_steps``.
    """
    if not checked and record is None and on_step is None:
        return game.play_bots(player_for, max_steps)
    for _ in range(max_steps):
        result = game.result
        if result is not None:
            return result
        pending = game.pending()
        if not pending:
            raise RuntimeError(f"{type(game).__name__} owes no decision but is not over")
        decision = pending[0]
        action = player_for(decision.seat).choose(game, decision)
        events = game.apply(decision.seat, action, checked=checked, decision=None if checked else decision)
        if record is not None:
            record.action(game, decision.seat, action, events)
        if on_step is not None:
            on_step(decision, action, events)
    raise RuntimeError(f"game not over after {max_steps} steps")
