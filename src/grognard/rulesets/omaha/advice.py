"""Omaha's adviser (:class:`grognard.core.ruleset.Adviser`): what a person is offered and told of a
decision, for the web pages and the terminal alike (the words themselves: ``faces`` and ``menu``)."""

from __future__ import annotations

from typing import Any

from grognard.core.engine import Decision
from grognard.rulesets.omaha import faces, view_words
from grognard.rulesets.omaha.actions import OmahaAction
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.menu import menu


class Advice:
    """What a person is offered and told of an Omaha decision."""

    def menu(self, game: OmahaGame, decision: Decision) -> list[tuple[OmahaAction, str]]:
        return menu(game, decision)

    def situation(self, game: OmahaGame, decision: Decision) -> list[str]:
        return view_words.situation(game.view(decision.seat), decision)

    def note(self, game: OmahaGame, action: OmahaAction) -> str:
        return faces.note(game, action)

    def odds(self, game: OmahaGame, action: OmahaAction) -> str | None:
        return faces.odds(game, action)

    def preview(self, game: OmahaGame, seat: str, action: OmahaAction) -> dict[str, Any]:
        return faces.preview(game, seat, action)

    def board(self, game: OmahaGame, seat: str | None) -> str:
        return view_words.board(game.view(seat))
