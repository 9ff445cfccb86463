"""The orders the search bot weighs at a skirmish decision (``Analysis.search_candidates``): few and different.

A unit's move: hold; a charge when one is open (``bots_charge.charge_move``, whatever
its odds); the moves to the ``COVER_SPOTS`` cover spots within a move that
gain the most ground toward the unit's aim (for the attacker: the objective or
the nearest enemy, ``bots.aim_point``; for the defender: the spots nearest it,
covered from the nearest enemy first); a full move straight at the aim; a full
move back toward its own table edge; then the space's own candidates (the
objectives, the nearest enemy, inward). Moves other than the charge stop short
of contact (``bots.short_of_contact``), as the doctrine's do. Units off the
table, in melee or aboard, gun crews and engineers: the space's candidates
(the doctrine's own order is weighed first by the search in any case).

Fire: each enemy unit in sight, and hold (the space's candidates; the
doctrine's order, with its MGs' wedges, comes first). Burst templates: the
space's aims and hold. Melee: stay and retreat. Every candidate is legal;
none repeats another.
"""

from __future__ import annotations

import math
from typing import Any

from grognard.core.engine import Decision
from grognard.rulesets.skirmish import bots as B
from grognard.rulesets.skirmish import bots_charge as BC
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish.actions import Move
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.moving import MoveSpace

COVER_SPOTS = 3  # cover spots weighed per move
BACK = {"south": (0.0, -1.0), "north": (0.0, 1.0), "west": (-1.0, 0.0), "east": (1.0, 0.0)}


def search_candidates(game: SkirmishGame, decision: Decision, k: int = 16) -> list[Any]:
    """At most ``k`` legal candidates for ``decision``."""
    space = decision.space
    if isinstance(space, MoveSpace):
        return move_candidates(game, space, k)
    return list(space.candidates(k))


def move_candidates(game: SkirmishGame, space: MoveSpace, k: int = 16) -> list[Move]:
    """The unit's moves of the module's docstring, in that order."""
    ctx = game.ctx
    men = M.living(ctx, space.unit)
    leader = men[0]
    side = leader.side
    busy = any(f.id in ctx.state.engaged or f.aboard is not None for f in men)
    crew = any(p.crew == space.unit for p in ctx.state.pieces.values())
    if M.waiting(ctx, M.unit(ctx, space.unit)) or busy or crew or not leader.on_table:
        return list(space.candidates(k))
    out: list[Move] = [space.hold()]
    charge = BC.charge_move(ctx, space)
    if charge is not None:
        out.append(charge)
    here = (leader.x, leader.y)
    reach = M.allowance(ctx, leader)
    aim = B.aim_point(ctx, side, leader)
    spots = [p for p in B.cover_spots(ctx, side) if 0.5 < math.dist(p, here) <= reach]
    if side == ctx.scenario.spec.victory.attacker and aim is not None:
        spots.sort(key=lambda p: (math.dist(p, aim), p))
    else:
        spots.sort(key=lambda p: (not B.covered_from_enemy(ctx, p[0], p[1], side), math.dist(p, here), p))
    goals = spots[:COVER_SPOTS]
    if aim is not None and math.dist(aim, here) > 0.5:
        d = math.dist(aim, here)
        t = min(1.0, reach / d)
        goals.append((here[0] + t * (aim[0] - here[0]), here[1] + t * (aim[1] - here[1])))
    edge = next(s.edge for s in ctx.scenario.spec.sides if s.id == side)
    bx, by = BACK[edge]
    goals.append((here[0] + bx * reach, here[1] + by * reach))
    for x, y in goals:
        move = space.toward(x, y)
        if move is not None and move.path:
            out.append(B.short_of_contact(ctx, space, move))
    out += space.candidates(k)
    seen: list[Move] = []
    for move in out:
        if move not in seen and space.contains(move):
            seen.append(move)
    return seen[:k]
