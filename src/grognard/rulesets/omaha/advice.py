"""Omaha's adviser (:class:`grognard.core.ruleset.Adviser`): what a person is offered and told of a
decision that needs the game (the words themselves: ``faces`` and ``menu``; the situation and the board
are the face's, from the view: ``view_words``)."""

from __future__ import annotations

from typing import Any

from grognard.core.engine import Decision
from grognard.rulesets.omaha import faces
from grognard.rulesets.omaha.actions import OmahaAction
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.menu import menu


class Advice:
    """What a person is offered and told of an Omaha decision."""

    def menu(self, game: OmahaGame, decision: Decision) -> list[tuple[OmahaAction, str]]:
        return menu(game, decision)

    def note(self, game: OmahaGame, action: OmahaAction) -> str:
        return faces.note(game, action)

    def odds(self, game: OmahaGame, action: OmahaAction) -> str | None:
        return faces.odds(game, action)

    def preview(self, game: OmahaGame, seat: str, action: OmahaAction) -> dict[str, Any]:
        return faces.preview(game, seat, action)
