"""The moves the search bot weighs at a B-17 decision (``Analysis.search_candidates``): few and different.

A fighter: the doctrine's own best plan; then for each of the ``TARGETS``
bombers nearest its nose (not only the closest, which binds the doctrine,
b17.23, RULINGS B19) the attack that earns the +1 (head-on or from behind,
b17.36) meeting the fewest gunners, and the plain attack within 4" meeting the
fewest; then the doctrine's interception (no attack). A bomber: the doctrine's
first ``BOMBER_MOVES`` moves (hold the box, line up the run). Guns, boxes:
the space's own candidates (both gun pairs). Every candidate is legal; none
repeats another.
"""

from __future__ import annotations

from typing import Any

from grognard.core.engine import Decision
from grognard.rulesets.b17 import attacks as A
from grognard.rulesets.b17 import bots as B
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.spaces import FlySpace

TARGETS = 3  # bombers a fighter's candidate attacks go for, nearest first
BOMBER_MOVES = 4  # the doctrine's bomber moves weighed


def search_candidates(game: B17Game, decision: Decision, k: int = 16) -> list[Any]:
    """At most ``k`` legal candidates for ``decision``, the doctrine's first."""
    space = decision.space
    if not isinstance(space, FlySpace):
        return list(space.candidates(k))
    a = game.aircraft(space.aircraft.label)
    if a.bomber:
        out = list(B.bomber_plans(game, a, BOMBER_MOVES))
    else:
        out = fighter_candidates(game, space)
    seen: list[Any] = []
    for action in out:
        if action not in seen and space.contains(action):
            seen.append(action)
    return seen[:k] if seen else list(space.candidates(1))


def fighter_candidates(game: B17Game, space: FlySpace) -> list[Fly]:
    """The fighter's candidates of the module's docstring, in that order."""
    f = game.aircraft(space.aircraft.label)
    length = game.allowance(f)
    minimum = R.minimum_straight(f, length)
    doctrine = B.fighter_plans(game, f, 8)
    out: list[Fly] = doctrine[:1]
    bombers = sorted(
        game.flying_bombers(),
        key=lambda b: (R.attack_range(game.state.options, f, f.x, f.y, f.heading, b), b.label),
    )
    for bomber in bombers[:TARGETS]:
        bonus = A._bonus_attacks(game, f, bomber, length, minimum)
        generic = A._generic_attacks(game, f, bomber, length, minimum)
        for plans, plain_ok in ((bonus, False), (generic, True)):
            scored = [
                (score, plan)
                for plan, score in zip(plans, A._score_attacks(game, f, plans, space), strict=True)
                if score is not None and not score[0] and (plain_ok or not score[1])
            ]
            if scored:
                out.append(min(scored, key=lambda item: item[0])[1])
    out += [plan for plan in doctrine if plan.target is None][:1]
    return out
