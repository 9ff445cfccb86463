"""The B-17 raid's ``beginner`` bots: a player in his first raids, who knows the moves but not yet the tricks.

Germans: each fighter still goes for the closest bomber (the seed's automaton, b17.23), but as a learner
does: it takes the first attack it finds that earns the +1 (head-on or from behind, b17.36), else the
first plain attack in range along its path, not minding the gunners it meets at the stop or the end nor
where its move leaves it (never off the table this move; the forced straight of its next move it
forgets, b17.25). With no attack in reach it flies straight at where the bomber is now, not where it
will be.

Americans: the bombers turn on the fighters to shoot at them: each gives up to ``CHASE`` inches of its
place in the box (or of its way to the target) to end its move with fighters under its guns (b17.43), so
the box comes apart and the raid takes longer under the fighters; none looks a move ahead for its bomb
run (it flies for the target's centre and bombs if a move happens to end with its whole fuselage over it,
b17.50). The gunners fire the pair they see first (nose and tail), whichever has the guns in range
(b17.45).

Deterministic for a seed: nothing here draws from the generator but the book's own fallbacks.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from grognard.core.engine import Decision
from grognard.core.reasons import Reason, acting
from grognard.rulesets.b17 import bots as B
from grognard.rulesets.b17 import hard as H
from grognard.rulesets.b17 import onepass as P
from grognard.rulesets.b17 import reckoning as K
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly, Guns
from grognard.rulesets.b17.attacks import _bonus_attacks, _score_attacks, generic_scored
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.spaces import FlySpace
from grognard.rulesets.b17.state import Aircraft

CHASE = 10.0  # inches of its place in the box (or of its way) a learner's bomber gives to turn on fighters


class BeginnerBot:
    """The ``beginner`` level of the B-17 raid for either side (the module's docstring)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.book = B.DoctrineBot(rng)

    def choose(self, game: B17Game, decision: Decision) -> Any:
        kind, _, label = decision.id.partition(" ")
        if kind == "guns":
            first: list[Guns] = list(decision.space.candidates(4))
            nose_tail = [g for g in first if g.pair == "nose-tail"]
            return (nose_tail or first)[0]
        if kind == "move":
            a = game.aircraft(label)
            plan = bomber_move(game, a, self.rng) if a.bomber else fighter_move(game, a)
            if plan is not None and decision.space.contains(plan):
                return plan
        return self.book.choose(game, decision)

    def explain(self, game: B17Game, decision: Decision, action: Any) -> Reason:
        """Why ``action`` (chosen for ``decision``, not yet applied): clause ``beginner`` (``reasons``)."""
        from grognard.rulesets.b17.reasons import beginner_reason, piece

        return acting(beginner_reason(game, decision, action), piece(action))


def fighter_move(game: B17Game, f: Aircraft) -> Fly | None:
    """A learner's fighter: the first attack with the +1 on the closest bomber, else the first attack in
    range along its path, whatever the guns; else straight at the bomber."""
    length = game.allowance(f)
    minimum = R.minimum_straight(f, length)
    closest = K.closest_bombers(game.state.options, f, game.flying_bombers())
    if not closest:
        return None
    target = closest[0]
    space = FlySpace(game, f.label, closest)
    bonus = _bonus_attacks(game, f, target, length, minimum)
    for plan, score in zip(bonus, _score_attacks(game, f, bonus, space), strict=True):
        if score is not None and not score[1] and not _leaves_now(game, f, plan):
            return plan
    for score, (straight, turn, at) in sorted(generic_scored(game, f, target, length, minimum, space), key=_stop):
        plan = Fly(f.label, straight, turn, target.label, at)
        if not score[0] or not _leaves_now(game, f, plan):  # the score's first flag is also the next move's
            return plan
    return _straight_at(game, f, target, length, minimum)


def _stop(item: tuple[Any, tuple[float, float, float]]) -> tuple[float, float, float]:
    """The first stop along the path first (a learner fires as soon as he can)."""
    straight, turn, at = item[1]
    return at, straight, turn


def _leaves_now(game: B17Game, f: Aircraft, plan: Fly) -> bool:
    """Whether the plan's path leaves the table this move (a learner sees that much)."""
    try:
        path, _, _ = FlySpace(game, f.label).resolve(plan)
    except Exception:
        return True
    return path.leaves_table_at() is not None


def _straight_at(game: B17Game, f: Aircraft, target: Aircraft, length: float, minimum: float) -> Fly:
    """The path whose end comes nearest the bomber as it is now (the book leads it), staying on the table."""
    ends = P.path_ends(f, length, minimum, P.FIGHTER_TURNS)
    leaves = ends["leaves"].tolist()
    best = min(
        range(len(ends["x"])),
        key=lambda i: (leaves[i], math.dist((ends["x"][i], ends["y"][i]), (target.x, target.y)), i),
    )
    return Fly(f.label, ends["straight"][best], ends["turn"][best])


def bomber_move(game: B17Game, a: Aircraft, rng: np.random.Generator) -> Fly | None:
    """A learner's bomber: of the book's moves (without the look ahead for the bomb run) within ``CHASE``
    inches of its best, the one that ends with the most fighters under its guns (``hard.bomber_move``)."""
    return H.bomber_move(game, a, rng, slack=CHASE, lookahead=False, weave=True)
