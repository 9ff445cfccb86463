"""The skirmish's levels beside the book (``book.DoctrineBot``): ``beginner`` below it, ``hard`` above it.

``beginner`` plays the book's orders but as a person learning the game does
(docs/rules/skirmish.md, doctrine clause "beginner"): now and then a unit
hesitates and stays where it is (``HESITATE``); an attacker forgets cover and
walks straight at his aim, a defender steps out of his cover half a move
toward the nearest enemy (``FORGET_COVER``); a unit spreads its fire over whichever enemy unit it sees
first rather than the one its dice are worth most against, and a mortar or gun
drops its bomb on the first enemy man it sees (``SPREAD``). Every draw comes
from the bot's own seeded generator; everything else (melee, vehicles,
buildings, guns, bridges, ladders) is the book's.

``hard`` (doctrine clause "aimed fire") plays the book's orders but gives
every man of a unit that fires his own target (``aimed_fire``): man by man,
the enemy man where his die adds the most expected value killed, given every
shot his side has already given this turn. A man dies if hit twice in the turn,
or hit once and failing his survival roll (skirmish.6, 7), so a second die on
one man adds less than a first on another, and a man in the open is worth
more dice than one behind a wall; a man within a move of the objective is worth
up to twice as much (``NEAR_OBJECTIVE``: the attacker who would take it, the
defender who denies it). The book's own fire shares a unit's dice out evenly
over the men of the one enemy unit it picks, covered or not. Exact odds, no
dice rolled: a decision takes a few milliseconds. And the side that holds the
objective charges at bolder odds than the book's (clause "bold defender",
``DEFENDER_CHARGE``): the first round's advantage goes to whoever charges.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from shapely.geometry import Point, Polygon

from grognard.core.engine import Decision, Game
from grognard.core.plans import Plan, sealed_reason
from grognard.core.reasons import Reason, acting
from grognard.rulesets.skirmish import bots as B
from grognard.rulesets.skirmish import bots_charge as BC
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish.actions import Fire, Move
from grognard.rulesets.skirmish.artillery import BurstSpace
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.bots_fire import figure_value, fire_order
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.fire import FireSpace
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.moving import MoveSpace
from grognard.rulesets.skirmish.state import Figure, FireOrder

HESITATE = 0.25  # beginner: the share of a unit's ordinary moves it holds instead
FORGET_COVER = 0.5  # beginner: the share of its other ordinary moves made with no thought of cover
SPREAD = 0.5  # beginner: the share of fire orders and bursts at the first enemy seen rather than the best

DEFENDER_CHARGE = 0.6  # hard: the defender charges when the first round's enemy dead are this times ours
NEAR_OBJECTIVE = 1.0  # hard: a man within a move of the objective is worth up to this much more, dead


def routine(ctx: Context, space: MoveSpace) -> bool:
    """The unit's move is an ordinary one (the book's ``_advance_order`` or a charge would make it): on the
    table, not waiting to come on, in melee, aboard, at a gun, in a falling building, building or storming."""
    men = M.living(ctx, space.unit)
    if not men or not men[0].on_table or M.waiting(ctx, M.unit(ctx, space.unit)):
        return False
    if any(f.id in ctx.state.engaged or f.aboard is not None or f.on_wall or f.on_ladder for f in men):
        return False
    if any(p.crew == space.unit for p in ctx.state.pieces.values()):
        return False
    return B.leave_building(ctx, space) is None and B.build_order(ctx, space) is None and not ctx.base_terrain.walls


class BeginnerBot:
    """The book, played as a learner plays it (the module's docstring)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.book = DoctrineBot(rng)

    def choose(self, game: Game, decision: Decision) -> Any:
        assert isinstance(game, SkirmishGame), f"the skirmish beginner plays skirmish, not {game.ruleset}"
        space = decision.space
        ctx = game.ctx
        if isinstance(space, MoveSpace) and routine(ctx, space):
            return self.move(ctx, space)
        if isinstance(space, FireSpace) and self.rng.random() < SPREAD:
            targets = space.targets()
            if targets:
                return Fire(space.unit, targets[0])  # the first enemy unit seen (by its label), every man at it
        if isinstance(space, BurstSpace) and self.rng.random() < SPREAD:
            aims = space.aims()
            if aims:
                return aims[0]
        return self.book.choose(game, decision)

    def explain(self, game: Game, decision: Decision, action: Any) -> Reason:
        """Why ``action`` (chosen for ``decision``, not yet applied): its level's clause or the book's (``reasons``)."""
        from grognard.rulesets.skirmish.reasons import beginner_reason, piece

        assert isinstance(game, SkirmishGame)
        return acting(beginner_reason(game, decision, action), piece(action))

    def move(self, ctx: Context, space: MoveSpace) -> Move:
        book = B.move_order(ctx, space, self.rng)
        if self.rng.random() < HESITATE:
            return space.hold()
        if self.rng.random() >= FORGET_COVER or BC.charge_move(ctx, space) == book:
            return book
        men = M.living(ctx, space.unit)
        leader = men[0]
        if leader.side != ctx.scenario.spec.victory.attacker and not B.counter_attacks(ctx, space.unit):
            return self.step_out(ctx, space)
        aim = B.aim_point(ctx, leader.side, leader, objective=True)
        if aim is None:
            return book
        d = math.dist(aim, (leader.x, leader.y))
        if d <= 1.0:
            return book
        t = min(1.0, M.allowance(ctx, leader) / d)
        straight = space.toward(leader.x + t * (aim[0] - leader.x), leader.y + t * (aim[1] - leader.y))
        return B.short_of_contact(ctx, space, straight) if straight is not None and straight.path else book

    def step_out(self, ctx: Context, space: MoveSpace) -> Move:
        """A defender who forgets cover steps out toward the nearest enemy, half a move (short of contact)."""
        leader = M.living(ctx, space.unit)[0]
        foes = M.enemies(ctx, leader.side)
        if not foes:
            return space.hold()
        near = min(foes, key=lambda e: (math.dist((e.x, e.y), (leader.x, leader.y)), e.id))
        d = math.dist((near.x, near.y), (leader.x, leader.y))
        t = min(0.5, M.allowance(ctx, leader) / 2 / max(d, 1.0))
        out = space.toward(leader.x + t * (near.x - leader.x), leader.y + t * (near.y - leader.y))
        return B.short_of_contact(ctx, space, out) if out is not None and out.path else space.hold()


def hit_chance(shot: FireOrder) -> float:
    """The chance the shot's die hits (its face, shifted by cover, reaches its number)."""
    return sum(1 for face in range(1, 7) if face + shot.shift >= shot.hit_on) / 6


def worth(ctx: Context, man: Figure) -> float:
    """What killing ``man`` is worth to hard: the book's value (``figure_value``), raised by up to
    ``NEAR_OBJECTIVE`` times for a man within a move of the objective of the scenario's victory (the
    attacker who would take it, the defender who denies it), in full inside it."""
    value = figure_value(man)
    shapes = objective_shapes(ctx)
    if NEAR_OBJECTIVE and shapes:
        d = min(shape.distance(Point(man.x, man.y)) for shape in shapes)
        value *= 1 + NEAR_OBJECTIVE * max(0.0, 1 - d / max(M.allowance(ctx, man), 1.0))
    return value


def objective_shapes(ctx: Context) -> list[Polygon]:
    """The shapes of the objectives of the scenario's victory (kept per context)."""
    cache: dict[str, list[Polygon]] = ctx.bot_cache.setdefault("objective_shapes", {})
    if "shapes" not in cache:
        spec = ctx.scenario.spec
        cache["shapes"] = [Polygon(o.shape) for o in spec.objectives if o.id in spec.victory.objectives]
    return cache["shapes"]


def aimed_fire(ctx: Context, space: FireSpace, book: Fire) -> Fire:
    """The book's fire order with every man's own target (doctrine clause "aimed fire"): man by man, the
    enemy man where his die adds the most expected value killed, given every shot of his side already given
    this turn and this order's shots so far: a man dies if hit twice, or hit once and failing his survival
    roll (skirmish.6, 7), so a second die on one man is worth less than a die on a fresh man, and a man in
    the open more than one in cover. The book's wedges stand; the book's order when no man has a shot."""
    table = FI.shot_table(ctx)
    s = ctx.state
    side = M.unit(ctx, space.unit).side
    none: dict[str, float] = {}  # per enemy man: the chance of no hit, of exactly one hit, so far
    one: dict[str, float] = {}  # per enemy man: the chance of no hit, of exactly one hit, so far
    for unit, shots in s.fire.items():
        if s.units[unit].side == side:
            for shot in shots:
                p = hit_chance(shot)
                n0, n1 = none.get(shot.target, 1.0), one.get(shot.target, 0.0)
                none[shot.target], one[shot.target] = n0 * (1 - p), n1 * (1 - p) + n0 * p
    gunners = {w.figure for w in book.wedges} | {f for f, t in book.orders if t == "hold"}
    orders: list[tuple[str, str]] = list(book.orders)
    for f in M.living(ctx, space.unit):
        if f.id in gunners or ctx.tables.fires_wedge(M.weapon_of(ctx, f)):
            continue
        best: tuple[float, str] | None = None
        for target, offered in sorted(table.get(f.id, {}).items()):
            if not isinstance(offered, FireOrder):
                continue
            p = hit_chance(offered)
            survive = sum(1 for face in range(1, 7) if face >= ctx.tables.survive_on(offered.attack)) / 6
            n0, n1 = none.get(target, 1.0), one.get(target, 0.0)
            gain = worth(ctx, s.figures[target]) * (n0 * p + survive * (n1 - (n1 * (1 - p) + n0 * p)))
            if best is None or gain > best[0]:
                best = (gain, target)
        if best is None or best[0] <= 0:
            continue
        target = best[1]
        best_shot = table[f.id][target]
        assert isinstance(best_shot, FireOrder)
        p = hit_chance(best_shot)
        n0, n1 = none.get(target, 1.0), one.get(target, 0.0)
        none[target], one[target] = n0 * (1 - p), n1 * (1 - p) + n0 * p
        orders.append((f.id, target))
    if not orders:
        return book
    aimed = Fire(space.unit, book.target, tuple(orders), book.wedges)
    return aimed if space.contains(aimed) else book


class HardBot:
    """The book with aimed fire, its defender bolder in the charge (the module's docstring)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.book = DoctrineBot(rng)

    def follow(self, plan: Plan) -> None:
        """Move the side's units by ``plan``'s tasks, as the book does (``plans.py``)."""
        self.book.follow(plan)

    def choose(self, game: Game, decision: Decision) -> Any:
        assert isinstance(game, SkirmishGame), f"the skirmish hard bot plays skirmish, not {game.ruleset}"
        space = decision.space
        if isinstance(space, FireSpace):
            with game.ctx.still():  # its probes change nothing: the table now is worked out once (book.DoctrineBot)
                return aimed_fire(game.ctx, space, fire_order(game.ctx, space.unit))
        defends = game.side_of(decision.seat) != game.ctx.scenario.spec.victory.attacker
        self.book.charge_ratio = DEFENDER_CHARGE if defends else None
        return self.book.choose(game, decision)

    def explain(self, game: Game, decision: Decision, action: Any) -> Reason:
        """Why ``action`` (chosen for ``decision``, not yet applied): its level's clause or the book's (``reasons``)."""
        from grognard.rulesets.skirmish.reasons import hard_reason, piece

        assert isinstance(game, SkirmishGame)
        if self.book.plan is not None and isinstance(decision.space, MoveSpace):
            return acting(sealed_reason(action), piece(action))  # a move under a plan (core.plans)
        return acting(hard_reason(game, decision, action), piece(action))


__all__ = ["BeginnerBot", "HardBot"]
