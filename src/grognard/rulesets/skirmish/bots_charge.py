"""The skirmish doctrine's charge and melee choices (``bots``' "Melee" paragraph): a unit charges when the exact
odds of the melee favour it, each man with an enemy within his move running until their bases touch; a melee
group stays when the next round's exact odds are even or better for its side, and otherwise retreats.
Apart from ``bots`` for its length; ``bots`` reads these names back for its callers."""

from __future__ import annotations

import math
from fractions import Fraction

from grognard.core.geometry import TOLERANCE, snap
from grognard.rulesets.skirmish import mechanics as MX
from grognard.rulesets.skirmish import melee as ME
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import moving as MV
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.actions import Choice, Move, Order
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.moving import MoveSpace
from grognard.rulesets.skirmish.state import Figure

XY = tuple[float, float]
BESIDE = 61.0  # degrees round an enemy between two men charging him (a chord of 1.015 bases: apart after rounding)
CHARGE_RATIO = 1.0  # charge when the first round's expected enemy dead are at least this times ours
STAY_RATIO = 1.0  # stay in a melee when the next round's expected enemy dead are at least this times ours
ODDS_CAP = 8  # men a side the doctrine's melee odds count (a bigger melee is valued as 8 against 8)


def melee_odds(attackers: int, defenders: int, *, first: bool) -> tuple[Fraction, Fraction]:
    """Exact expected (attackers dead, defenders dead) of a melee round (``rules.MeleeRound``, icepool);
    groups over ``ODDS_CAP`` men a side are counted as ``ODDS_CAP`` (the odds of a big melee, roughly)."""
    return MX.MeleeRound(min(attackers, ODDS_CAP), min(defenders, ODDS_CAP), first=first).expected()


def charge_move(ctx: Context, space: MoveSpace, ratio: float | None = None) -> Move | None:
    """A charge into the enemy within a move when the exact odds of the melee favour it; else None.

    Each man with an enemy within his move runs until his base touches one, clear of his friends' bases
    (``_touching_spot``; the enemies shared out one to one as far as they go); the others follow the leader.
    The melee it makes is valued with ``rules.MeleeRound``: our men who would touch against the enemies they
    touch and, when the enemy moves after us, the enemies within a move of those who could join. The charge
    goes in when the first round's expected enemy dead are at least our expected dead (the attacker's
    advantage makes that so at up to about one to two).
    """
    men = M.living(ctx, space.unit)
    leader = men[0]
    if not leader.on_table:
        return None
    base = ctx.tables.sight.base.value
    side = leader.side
    foes = M.enemies(ctx, side)
    if not foes:
        return None
    load: dict[str, int] = {}
    orders: list[Order] = []
    within: dict[str, list[Figure]] = {}  # each man's enemies within his move and a base (in the enemies' order)
    for f in men:
        reach = M.allowance(ctx, f) + base
        close = within_reach(foes, f, reach)
        if close:
            within[f.id] = close
    taken = friends_at(ctx, side, set(within))  # those who do not charge stay where they are (skirmish.10)
    for f in men:
        close = within.get(f.id, [])
        if not close:
            continue
        target = min(close, key=lambda e: (load.get(e.id, 0), math.dist((e.x, e.y), (f.x, f.y)), e.id))
        end = _touching_spot(ctx, f, target, foes, taken)
        if end is None:
            continue
        load[target.id] = load.get(target.id, 0) + 1
        taken.append(end)
        orders.append(Order(f.id, "to", (end,)))
    if not orders:
        return None
    chosen: Move | None = None
    lead = next((o for o in orders if o.figure == leader.id), None)
    tries = []
    if lead is not None:
        tries.append(Move(space.unit, lead.points, tuple(o for o in orders if o.figure != leader.id)))
    tries.append(Move(space.unit, (), tuple(orders)))
    tries += [Move(space.unit, (), (o,)) for o in orders]
    for move in tries:
        if space.contains(move):
            chosen = move
            break
    if chosen is None:
        return None
    ends = {fid: path[-1] for fid, path in MV.plan_move(ctx, chosen).items()}
    ours = [fid for fid, end in ends.items() if any(R.in_contact(end, (e.x, e.y), base) for e in foes)]
    touched = {e.id for e in foes for end in ends.values() if R.in_contact(end, (e.x, e.y), base)}
    if not ours:
        return None
    theirs = set(touched)
    if ctx.state.order[0] == side:  # the enemy moves after us: his men within a move may join
        for e in foes:
            if e.id in touched:
                continue
            reach = M.allowance(ctx, e) + base
            if any(math.hypot(e.x - t.x, e.y - t.y) <= reach for t in foes if t.id in touched):
                theirs.add(e.id)
    our_dead, their_dead = melee_odds(len(ours), len(theirs), first=True)
    return chosen if their_dead >= (CHARGE_RATIO if ratio is None else ratio) * our_dead else None


def within_reach(foes: list[Figure], f: Figure, reach: float) -> list[Figure]:
    """The men of ``foes`` whose centres are at most ``reach`` from ``f``'s, in their order. One farther than
    that along an axis is farther in all (``math.dist`` is no less than either difference): not measured."""
    fx, fy = f.x, f.y
    return [
        e
        for e in foes
        if -reach <= e.x - fx <= reach and -reach <= e.y - fy <= reach and math.dist((e.x, e.y), (fx, fy)) <= reach
    ]


def friends_at(ctx: Context, side: str, leaving: set[str]) -> list[XY]:
    """Where the living men of ``side`` on the table and not aboard stand, but those in ``leaving``."""
    figures = ctx.state.figures.values()
    return [
        (f.x, f.y)
        for f in figures
        if f.side == side and f.alive and f.on_table and not f.aboard and f.id not in leaving
    ]


def _touching_spot(ctx: Context, f: Figure, target: Figure, foes: list[Figure], taken: list[XY]) -> XY | None:
    """Where ``f`` ends a charge on ``target``, bases touching: straight at him; else the nearest to ``f`` of
    the spots round the target ``BESIDE`` degrees either side of a friend touching it (packed) or of the
    straight spot. It lies clear of every spot in ``taken`` (men keep their bases apart, skirmish.10), on the
    table, his straight run to it within his move and onto no enemy's base; None when there is none, or
    when he stands on the target's own spot (no way to run at him)."""
    base = ctx.tables.sight.base.value
    d = math.dist((f.x, f.y), (target.x, target.y))
    if d <= TOLERANCE:
        return None
    t = (d - base) / d
    straight = (snap(f.x + t * (target.x - f.x)), snap(f.y + t * (target.y - f.y)))
    beside = math.radians(BESIDE)
    near = math.atan2(f.y - target.y, f.x - target.x)
    tx, ty = target.x, target.y
    reach = base + TOLERANCE  # a friend farther than this along one axis is not in contact (in_contact's hypot)
    touching = [
        math.atan2(y - ty, x - tx)
        for x, y in taken
        if -reach <= x - tx <= reach and -reach <= y - ty <= reach and R.in_contact((x, y), (tx, ty), base)
    ]
    around = {a + s * beside for a in touching for s in (1, -1)} | {near + k * beside for k in (1, -1, 2, -2)}
    spots = sorted(
        {(snap(target.x + base * math.cos(a)), snap(target.y + base * math.sin(a))) for a in around},
        key=lambda p: (math.hypot(p[0] - f.x, p[1] - f.y), p),
    )
    near = base - TOLERANCE + 1e-6  # a foe this far from the run's box along one axis is not near it
    for end in [straight, *spots]:
        if end is not straight and not ctx.terrain.on_table(*end):
            continue
        ex, ey = end
        if any(
            -base < x - ex < base and -base < y - ey < base and R.overlaps(end, (x, y), base) for x, y in taken
        ):  # a base or more apart along one axis: the bases do not overlap (overlaps' hypot is no less)
            continue
        if math.hypot(end[0] - f.x, end[1] - f.y) > M.allowance(ctx, f) + TOLERANCE:
            continue
        x0, x1 = (end[0], f.x) if end[0] < f.x else (f.x, end[0])
        y0, y1 = (end[1], f.y) if end[1] < f.y else (f.y, end[1])
        if any(
            not (x0 - e.x >= near or e.x - x1 >= near or y0 - e.y >= near or e.y - y1 >= near)
            and MV.path_near([(f.x, f.y), end], (e.x, e.y), base)
            for e in foes
        ):
            continue
        return end
    return None


def melee_choice(ctx: Context, group: str) -> Choice:
    """Stay when the next (later) round's exact odds favour the group's side or are even; else retreat.

    The later round (``rules.MeleeRound(first=False)``) of the living men of the group's melee, the side
    that attacked first: stay when the enemy's expected dead are at least ours.
    """
    s = ctx.state
    men = s.groups[group]
    side = s.figures[men[0]].side
    melee = next((m for m in ME.melees_now(ctx) if men[0] in m), men)
    attacker = ME.melee_attacker(ctx, melee)
    ours = sum(1 for f in melee if s.figures[f].side == side and s.figures[f].alive)
    theirs = sum(1 for f in melee if s.figures[f].side != side and s.figures[f].alive)
    if side == attacker:
        our_dead, their_dead = melee_odds(ours, theirs, first=False)
    else:
        their_dead, our_dead = melee_odds(theirs, ours, first=False)
    return Choice(group, "stay" if their_dead >= STAY_RATIO * our_dead else "retreat")
