"""Omaha's ``beginner`` level: the book's plan as a pupil in his first game plays it (docs/rules/omaha.md,
"The bots' levels").

Germans: each bunker fires at the squad nearest to it and the artillery at the
biggest squad it may hit, so the turn's fire is spread over several squads
(the seed's advice is to concentrate it on one); the bunkers go into two
sections picked at random. Americans: every squad wades straight up its own
lane to the wall (it never goes sideways to follow a neighbour through a
cleared section); at the wall it shoots at a bunker in front with every
figure, however many it has lost, and with no bunker to shoot at it hesitates:
only half the squad works at the obstacles, the rest keep their heads down.
Past the wall it plays as the book does (it assaults what it touches).

Every choice is legal by construction and the only randomness (the placement)
comes from the generator the bot is given, so a game replays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from grognard.core.engine import Decision
from grognard.core.reasons import Reason, acting
from grognard.rulesets.omaha import bots as book
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move
from grognard.rulesets.omaha.data import WALL_Y
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.state import Squad

SHAKEN = 6  # figures left (of 12) at or under which a learner's squad at the wall takes cover and does nothing


class BeginnerBot:
    """Either side of Omaha as a learner plays it (the module's notes); ``rng`` places the bunkers."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, game: OmahaGame, decision: Decision) -> Any:
        kind, _, label = decision.id.partition(" ")
        if kind == "orders":
            return orders(game, game.squad(label))
        if kind == "fire":
            return BunkerFire(label, nearest_squad(game, label))
        if kind == "artillery":
            return Artillery(label, biggest_squad(game))
        if kind == "place":
            options = list(decision.space.candidates(3))
            return options[int(self.rng.integers(len(options)))]
        return decision.space.sample(self.rng)

    def explain(self, game: OmahaGame, decision: Decision, action: Any) -> Reason:
        """Why ``action``: its ``beginner.*`` clause where it leaves the book, else the book's (``reasons``)."""
        from grognard.rulesets.omaha.reasons import beginner_reason, piece

        return acting(beginner_reason(game, decision, action), piece(action))


def nearest_squad(game: OmahaGame, bunker_label: str) -> str | None:
    """The squad a bunker may fire at nearest to it (ties: the lower number): no thought of the whole beach."""
    bunker = next(b for b in game.state.bunkers.values() if b.label == bunker_label)
    targets = set(game.fire_targets())
    best: tuple[float, str] | None = None
    for player in game.state.americans:
        squad = player.squad
        if squad is None or squad.label not in targets:
            continue
        gap = R.bunker_distance(squad.x, squad.y, bunker)
        if best is None or gap < best[0]:
            best = (gap, squad.label)
    return None if best is None else best[1]


def biggest_squad(game: OmahaGame) -> str | None:
    """The squad with the most figures the artillery may hit (ties: the lower number): the biggest group."""
    best: Squad | None = None
    for label in game.strike_targets():
        squad = game.squad(label)
        if best is None or squad.figures > best.figures:
            best = squad
    return None if best is None else best.label


def orders(game: OmahaGame, squad: Squad) -> Move | Fight:
    """A learner's orders for one squad (the module's notes)."""
    if R.below_wall(squad.y):
        return Move(squad.label, *R.reach(game.state, squad, squad.x, WALL_Y))  # straight up its own lane
    if R.at_wall(squad.y):
        if squad.figures <= SHAKEN:
            return Fight(squad.label)  # pinned at the wall: it takes cover and does nothing
        bunker = game.bunker_in_front(squad)
        if bunker is not None and bunker.active:
            return Fight(squad.label, shoot=squad.figures)
        if game.obstacles_in_front(squad):
            return Fight(squad.label, clear=(squad.figures + 1) // 2)
    return book.american_orders(game, squad)
