"""The book's bot of the skirmish: the doctrine of ``bots`` (its clauses in docs/rules/skirmish.md's doctrine
section) playing either side, and saying why it chose each order (``reasons``). Apart from ``bots`` so that the
doctrine's functions, which ``reasons`` reads, do not import the reasons back."""

from __future__ import annotations

from typing import Any

import numpy as np

from grognard.core.engine import Decision, Game
from grognard.core.plans import Plan, sealed_reason
from grognard.core.reasons import Reason, acting
from grognard.rulesets.skirmish.artillery import BurstSpace
from grognard.rulesets.skirmish.bots import move_order
from grognard.rulesets.skirmish.bots_charge import melee_choice
from grognard.rulesets.skirmish.bots_drive import drive_order
from grognard.rulesets.skirmish.bots_fire import burst_order, fire_order
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.driving import DriveSpace
from grognard.rulesets.skirmish.fire import FireSpace
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.moving import MoveSpace
from grognard.rulesets.skirmish.reasons import book_reason, piece

__all__ = ["DoctrineBot"]


class DoctrineBot:
    """Plays either side of a skirmish by the doctrine above; ``rng`` (the bot's seeded stream) draws among
    waypoints and burst placements as good as the best, so no two games follow one fixed plan."""

    def __init__(self, rng: np.random.Generator, charge_ratio: float | None = None) -> None:
        self.rng = rng
        self.charge_ratio = charge_ratio  # None: CHARGE_RATIO, the book's
        self.plan: Plan | None = None  # the side's plan (the scenario's [[plans]]), when it follows one

    def follow(self, plan: Plan) -> None:
        """Give the side's units the tasks of ``plan`` (``plans.py``) for the rest of the game."""
        self.plan = plan

    def choose(self, game: Game, decision: Decision) -> Any:
        assert isinstance(game, SkirmishGame), f"the skirmish doctrine plays skirmish, not {game.ruleset}"
        with game.ctx.still():  # the doctrine probes legality, changing nothing: the table now is worked out once
            return self._choose(game.ctx, decision)

    def _choose(self, ctx: Context, decision: Decision) -> Any:
        space = decision.space
        if isinstance(space, MoveSpace):
            return move_order(ctx, space, self.rng, self.charge_ratio, self.plan)
        if isinstance(space, FireSpace):
            return fire_order(ctx, space.unit)
        if isinstance(space, BurstSpace):
            return burst_order(ctx, space, self.rng)
        if isinstance(space, DriveSpace):
            return drive_order(ctx, space)
        if decision.id.startswith("melee "):
            return melee_choice(ctx, decision.id.split()[1])
        return space.sample(self.rng)

    def explain(self, game: Game, decision: Decision, action: Any) -> Reason:
        """Why ``action`` (chosen for ``decision``, not yet applied): the doctrine's clause (``reasons``)."""
        assert isinstance(game, SkirmishGame)
        if self.plan is not None and isinstance(decision.space, MoveSpace):
            return acting(sealed_reason(action), piece(action))  # a move under a plan (core.plans)
        return acting(book_reason(game, decision, action), piece(action))
