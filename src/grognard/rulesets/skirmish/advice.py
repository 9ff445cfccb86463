"""The skirmish's adviser (:class:`grognard.core.ruleset.Adviser`): what a person is offered and told of a
decision that needs the game (the words themselves: ``faces``; the situation and the board are the face's,
from the view: ``view_words``)."""

from __future__ import annotations

from typing import Any

from grognard.core.engine import Decision
from grognard.rulesets.skirmish import faces
from grognard.rulesets.skirmish.actions import SkirmishAction
from grognard.rulesets.skirmish.game import SkirmishGame

MENU = 12  # candidates listed for a decision of a continuous space (a move, a fire order)
FINITE = 60  # at most this many choices of a finite space are listed


class Advice:
    """What a person is offered and told of a skirmish decision."""

    def menu(self, game: SkirmishGame, decision: Decision) -> list[tuple[SkirmishAction, str]]:
        """Every choice of a finite space (at most ``FINITE``), else the space's ``candidates(MENU)``; each
        in its text form (the typed order and the face's controls say the rest)."""
        finite = getattr(decision.space, "actions", None)
        actions = list(finite[:FINITE]) if finite is not None else decision.space.candidates(MENU)
        return [(action, str(action)) for action in actions]

    def note(self, game: SkirmishGame, action: SkirmishAction) -> str:
        return faces.note(game, action)

    def odds(self, game: SkirmishGame, action: SkirmishAction) -> str | None:
        return faces.odds(game, action)

    def preview(self, game: SkirmishGame, seat: str, action: SkirmishAction) -> dict[str, Any]:
        return faces.preview(game, seat, action)
