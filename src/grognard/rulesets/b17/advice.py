"""The B-17 raid's adviser (:class:`grognard.core.ruleset.Adviser`): what a person is offered and told of a
decision that needs the game (the words themselves: ``faces`` and ``menu``; the situation and the board
are the face's, from the view: ``view_words``)."""

from __future__ import annotations

from typing import Any

from grognard.core.engine import Decision
from grognard.rulesets.b17 import faces
from grognard.rulesets.b17.actions import B17Action
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.menu import menu


class Advice:
    """What a person is offered and told of a B-17 decision."""

    def menu(self, game: B17Game, decision: Decision) -> list[tuple[B17Action, str]]:
        return menu(game, decision)

    def note(self, game: B17Game, action: B17Action) -> str:
        return faces.note(game, action)

    def odds(self, game: B17Game, action: B17Action) -> str | None:
        return faces.odds(game, action)

    def preview(self, game: B17Game, seat: str, action: B17Action) -> dict[str, Any]:
        return faces.preview(game, seat, action)
