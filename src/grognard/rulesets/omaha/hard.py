"""Omaha's ``hard`` level: the book's plan, with what the book leaves to chance played well (docs/rules/omaha.md,
"The bots' levels").

Germans: the turn's fire all on one squad, the one furthest up the beach, as
the seed advises and the book plays; but the bunkers go into the two outer
sections of each German's three, leaving the middle one empty, so that no
bunker can be reached from its neighbour's cleared section and the middle
zone's squad has no bunker in front to shoot at (the book puts them behind
the most obstacles). Americans: the book's plan (rush the wall, shoot while
mostly whole, clear and assault when hurt), with two changes: a squad shoots
while it has 5 figures or more (the book: 7), and once at or past the wall it
goes the shortest way through the cleared sections of the band to the nearest
point in contact with the nearest bunker (``routes.best_move``), where the book
walks to fixed points and stops at each; from the wall it does so when that
bunker is at most one move away by that way.

Deterministic: the only randomness is the book's own tie-break of placements,
drawn from the generator the bot is given.
"""

from __future__ import annotations

from typing import Any

from grognard.core.engine import Decision
from grognard.core.geometry import TOLERANCE
from grognard.core.plans import sealed_reason
from grognard.core.reasons import Reason, acting
from grognard.rulesets.omaha import bots as book
from grognard.rulesets.omaha import routes
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Fight, Move
from grognard.rulesets.omaha.data import BEACH_MOVE, OBSTACLE_SECTION_WIDTH
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.state import Squad

STILL_SHOOTS = 5  # figures a squad at the wall needs to shoot rather than clear (the book: 7)


class HardBot(book.DoctrineBot):
    """Either side of Omaha at the ``hard`` level (the module's notes)."""

    def choose(self, game: OmahaGame, decision: Decision) -> Any:
        kind, _, label = decision.id.partition(" ")
        if kind == "orders":
            return orders(game, game.squad(label))
        if kind == "place":
            options = list(decision.space.candidates(3))
            return options[1]  # the outer two of the German's three sections (the space lists 1-2, 1-3, 2-3)
        return super().choose(game, decision)

    def explain(self, game: OmahaGame, decision: Decision, action: Any) -> Reason:
        """Why ``action``: its ``hard.*`` clause where it leaves the book, else the book's (``reasons``)."""
        from grognard.rulesets.omaha.reasons import hard_reason, piece

        if self.planned(decision):
            return acting(sealed_reason(action), piece(action))
        return acting(hard_reason(game, decision, action), piece(action))


def orders(game: OmahaGame, squad: Squad) -> Move | Fight:
    """The hard American's orders for one squad (the module's notes)."""
    state = game.state
    if R.past_wall(squad.y) and game.bunker_in_contact(squad) is not None:
        return Fight(squad.label, assault=squad.figures)
    active = game.active_bunkers()
    if active and not R.below_wall(squad.y):
        way, _, bunker = min(
            ((routes.way_to(state, squad.x, squad.y, ("bunker", b)), b.section, b) for b in active),
            key=lambda t: t[:2],
        )
        if way < routes.INF and (not R.at_wall(squad.y) or way <= BEACH_MOVE):
            move = routes.best_move(state, squad, ("bunker", bunker))
            if move is not None:
                return move
    if not active:
        move = _to_blocked_exit(game, squad)
        if move is not None:
            return move
    order = book.american_orders(game, squad)
    if (
        isinstance(order, Fight)
        and order.clear == squad.figures
        and STILL_SHOOTS <= squad.figures < book.MOSTLY_WHOLE
        and (bunker_in_front := game.bunker_in_front(squad)) is not None
        and bunker_in_front.active
    ):
        return Fight(squad.label, shoot=squad.figures)
    return order


def _to_blocked_exit(game: OmahaGame, squad: Squad) -> Move | None:
    """Every bunker knocked out: the shortest way to the wall in front of the nearest exit still blocked,
    unless the squad is at the wall in front of one already (there it clears); None when none is blocked."""
    state = game.state
    blocked = [
        R.exit_section(b.section, state) for b in state.bunkers.values() if not b.active and not game.exit_open(b)
    ]
    if not blocked or (R.at_wall(squad.y) and R.obstacle_section_at(state, squad.x) in blocked):
        return None
    width = OBSTACLE_SECTION_WIDTH
    goals = [min(max(squad.x, i * width + TOLERANCE), (i + 1) * width - 2 * TOLERANCE) for i in blocked]
    way, goal = min((routes.way_to(state, squad.x, squad.y, ("wall", gx)), gx) for gx in goals)
    if way == routes.INF:
        return None
    return routes.best_move(state, squad, ("wall", goal))
