"""Why the skirmish's bots chose what they chose (issue 31, item 2; ``grognard.core.reasons``).

Each function takes the game before the action and the action its bot chose, and names the clause of
docs/rules/skirmish.md that chose it (``skirmish.doctrine.*`` for the book's play as "Players" describes it,
the named clauses of "Doctrine clauses" for the levels and the book's later clauses: ``counter-attack``,
``aimed fire``, ``bold defender``, ``beginner``), the candidates it weighed with the doctrine's keys (the
worth of the unit's dice against each enemy unit, the melee's exact odds, the ground to the aim), and a line
in plain words. A move is told by the branch of ``bots.move_order`` it came from, in the same order.

A melee choice is secret until the reveal: its reason is the group's side's alone
(``core.reasons.reason_json``).
"""

from __future__ import annotations

import math
from typing import Any

from grognard.core.engine import Decision
from grognard.core.reasons import Reason, Weighed, short
from grognard.rulesets.skirmish import bots as B
from grognard.rulesets.skirmish import bots_charge as BC
from grognard.rulesets.skirmish import melee as ME
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish.actions import Burst, Choice, Drive, Fire, Move
from grognard.rulesets.skirmish.bots_fire import target_worth
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.moving import MoveSpace


def fire(ctx: Context, action: Fire, clause: str, words: str) -> Reason:
    """A unit's fire: the enemy units ranked by what its dice are worth against them (``bots_fire``)."""
    worth = target_worth(ctx, action.unit)
    ranked = sorted(worth, key=lambda u: (-worth[u], u))[:3]
    weighed = tuple(Weighed(u, f"worth {worth[u]:.2f} (kill chance x value)", u == action.target) for u in ranked)
    if action.target is None:
        return Reason(clause, f"{action}: no enemy in sight and reach", weighed)
    return Reason(clause, f"{action}: {words}", weighed)


def melee(ctx: Context, action: Choice) -> Reason:
    """A melee group's secret stay or retreat by the next round's exact odds (``bots_charge.melee_choice``)."""
    s = ctx.state
    men = s.groups[action.group]
    side = s.figures[men[0]].side
    melee_now = next((m for m in ME.melees_now(ctx) if men[0] in m), men)
    ours = sum(1 for f in melee_now if s.figures[f].side == side and s.figures[f].alive)
    theirs = sum(1 for f in melee_now if s.figures[f].side != side and s.figures[f].alive)
    if side == ME.melee_attacker(ctx, melee_now):
        our_dead, their_dead = BC.melee_odds(ours, theirs, first=False)
    else:
        their_dead, our_dead = BC.melee_odds(theirs, ours, first=False)
    figures = f"next round: {float(their_dead):.2f} of theirs dead against {float(our_dead):.2f} of ours"
    weighed = (
        Weighed("stay", figures, action.choice == "stay"),
        Weighed("retreat", f"stays only if theirs >= ours ({ours} against {theirs})", action.choice == "retreat"),
    )
    return Reason("skirmish.doctrine.melee-choice", f"{action}: {figures}", weighed)


def move(ctx: Context, space: MoveSpace, action: Move, *, bold: bool = False) -> Reason:
    """A unit's move by the branch of ``bots.move_order`` that makes it (``bold``: the hard defender's charge)."""
    unit = M.unit(ctx, space.unit)
    men = M.living(ctx, space.unit)
    side = unit.side
    attacker = side == ctx.scenario.spec.victory.attacker
    if M.waiting(ctx, unit):
        return Reason("skirmish.doctrine.come-on", f"{action}: comes on straight from its edge")
    if any(f.id in ctx.state.engaged or f.aboard is not None for f in men):
        return Reason("skirmish.doctrine.in-melee", f"{action}: a man in melee or aboard: the unit holds")
    if action.turn is not None or any(p.crew == space.unit for p in ctx.state.pieces.values()):
        if B.leave_building(ctx, space) != action:
            return Reason("skirmish.doctrine.gun-crew", f"{action}: the crew serves its piece (skirmish.31, 55)")
    if action.path or action.orders:
        if B.leave_building(ctx, space) == action:
            return Reason("skirmish.doctrine.leave-building", f"{action}: one shot could bring its section down")
        if B.build_order(ctx, space) == action:
            return Reason("skirmish.doctrine.engineers", f"{action}: engineers work on the bridge")
        if B.storm_order(ctx, space) == action:
            return Reason("skirmish.doctrine.storm", f"{action}: to the walls and ladders")
        if B.touches(ctx, action):
            clause = "bold defender" if bold and not attacker else "skirmish.doctrine.charge"
            odds = "at least 0.6 of ours" if clause == "bold defender" else "at least ours"
            return Reason(clause, f"{action}: charges: the first round's expected enemy dead are {odds}")
    leader = men[0]
    counter = B.counter_attacks(ctx, space.unit)
    if attacker or counter:
        aim = B.aim_point(ctx, side, leader, objective=counter)
        clause = "counter-attack" if counter else "skirmish.doctrine.cover-to-cover"
        if aim is None:
            return Reason(clause, f"{action}: nothing to go for")
        now = math.hypot(aim[0] - leader.x, aim[1] - leader.y)
        end = action.path[-1] if action.path else (leader.x, leader.y)
        then = math.hypot(aim[0] - end[0], aim[1] - end[1])
        goal = "the objective" if counter or ctx.scenario.spec.victory.objectives else "the nearest enemy"
        weighed = (Weighed("now", f"{short(now)} from {goal}"), Weighed(str(action), f"{short(then)} from it", True))
        return Reason(clause, f"{action}: toward {goal} by way of cover, {short(now)} to {short(then)}", weighed)
    covered = sum(1 for f in men if B.covered_from_enemy(ctx, f.x, f.y, side))
    share = f"{covered} of {len(men)} men in cover from the nearest enemy"
    weighed = (
        Weighed(
            "hold", f"while {math.ceil(B.HOLD_SHARE * len(men))} of {len(men)} or more have cover", not action.path
        ),
        Weighed("to the nearest cover", f"{covered} of {len(men)} have it now", bool(action.path)),
    )
    if not action.path:
        return Reason("skirmish.doctrine.defender-holds", f"{action}: holds: {share}", weighed)
    return Reason("skirmish.doctrine.take-cover", f"{action}: to the nearest cover: only {share}", weighed)


def book_reason(game: SkirmishGame, decision: Decision, action: Any) -> Reason:
    """The book's reason for ``action`` (``book.DoctrineBot``)."""
    ctx = game.ctx
    if isinstance(action, Move) and isinstance(decision.space, MoveSpace):
        return move(ctx, decision.space, action)
    if isinstance(action, Fire):
        return fire(ctx, action, "skirmish.doctrine.fire", "where its dice are worth most")
    if isinstance(action, Burst):
        if action.at is None:
            return Reason("skirmish.doctrine.burst", f"{action}: no placement catches an enemy")
        return Reason(
            "skirmish.doctrine.burst",
            f"{action}: the template where it puts the most enemy value and none of ours (one as good drawn: "
            "no fixed plan)",
        )
    if isinstance(action, Drive):
        v = ctx.state.vehicles[action.vehicle]
        if ctx.tables.vehicles.kind(v.kind).afloat:
            return Reason("skirmish.doctrine.landing-craft", f"{action}: steers for the landing beach and grounds")
        return Reason("skirmish.doctrine.vehicle", f"{action}: for the objective, or stays (a defender's)")
    if isinstance(action, Choice):
        return melee(ctx, action)
    return Reason("skirmish.random", f"{action}: drawn at random among the legal orders")


def hard_reason(game: SkirmishGame, decision: Decision, action: Any) -> Reason:
    """The ``hard`` level's reason: ``aimed fire`` and ``bold defender`` where it leaves the book."""
    if isinstance(action, Fire) and action.orders:
        return fire(game.ctx, action, "aimed fire", "each man at the enemy man where his die adds most")
    if isinstance(action, Move) and isinstance(decision.space, MoveSpace):
        return move(game.ctx, decision.space, action, bold=True)
    return book_reason(game, decision, action)


def beginner_reason(game: SkirmishGame, decision: Decision, action: Any) -> Reason:
    """The ``beginner`` level's reason: clause ``beginner`` where a learner's slip shows, else the book's."""
    ctx = game.ctx
    book = book_reason(game, decision, action)
    if isinstance(action, Fire) and action.target is not None and not action.orders:
        best = book.weighed[0].action if book.weighed else None
        if best is not None and best != action.target:
            return Reason("beginner", f"{action}: the first enemy unit it sees, not the one worth most", book.weighed)
    if (
        isinstance(action, Move)
        and not action.path
        and not action.orders
        and book.clause
        in (
            "skirmish.doctrine.cover-to-cover",
            "counter-attack",
        )
    ):
        return Reason("beginner", f"{action}: it hesitates where the book would go on")
    if isinstance(action, Move) and action.path and book.clause == "skirmish.doctrine.take-cover":
        end = action.path[-1]
        if not B.covered_from_enemy(ctx, end[0], end[1], M.unit(ctx, action.unit).side):
            return Reason("beginner", f"{action}: out of its cover toward the enemy, no thought of cover")
    return book


def piece(action: Any) -> str | None:
    """The unit that moves or fires, the man or piece that lays a burst, the vehicle that drives (a melee
    group names no piece on the table)."""
    if isinstance(action, (Move, Fire)):
        return action.unit
    if isinstance(action, Burst):
        return action.by
    if isinstance(action, Drive):
        return action.vehicle
    return None
