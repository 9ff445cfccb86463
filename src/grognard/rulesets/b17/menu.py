"""The choices a person is offered at a B-17 decision, each in words ("6.5\\" straight, then turn 10 degrees
left"), in the order of the decision's ``candidates``: every one legal, listed as the terminal lists them."""

from __future__ import annotations

from typing import Any

from grognard.core.engine import Decision
from grognard.rulesets.b17.actions import B17Action, Fly, Guns, PlaceBox
from grognard.rulesets.b17.data import PAIRS
from grognard.rulesets.b17.game import B17Game

MENU = 12  # choices listed per decision, as at the terminal


def menu(game: B17Game, decision: Decision) -> list[tuple[B17Action, str]]:
    """``decision``'s candidates, each ``(action, words)``."""
    return [(action, words(action)) for action in decision.space.candidates(MENU)]


def words(action: Any) -> str:
    """An order in a few words, for a menu."""
    if isinstance(action, Fly):
        if action.to is not None:
            text = f"Fly to ({action.to[0]:g}, {action.to[1]:g})"
        elif not action.turn:
            text = "Fly straight on"
        else:
            side = "left" if action.turn > 0 else "right"
            text = f'{action.straight:g}" straight, then turn {abs(action.turn):g} degrees {side}'
        if action.target is not None:
            text += f'; attack {action.target} {action.at:g}" along the path'
        return text
    if isinstance(action, Guns):
        guns = "nose and tail guns" if PAIRS[action.pair] == ("nose", "tail") else "two waist guns"
        return f"Fire the {guns} at {action.fighter}"
    if isinstance(action, PlaceBox):
        if not action.positions:
            return f"Place box {action.box}"
        x, y = action.positions[0]
        return f"Box {action.box} with its leader at ({x:g}, {y:g})"
    return str(action)
