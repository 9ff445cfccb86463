"""The melee phase (skirmish.66-71, 80-85; RULINGS S6, S13): men whose bases touch an enemy's fight in
rounds until one side of the melee is gone or both sides miss, when each group of at most 10 men
secretly chooses to stay or retreat; the rest of a beaten gun crew must attack the winners.

Plain functions of the game's :class:`~.context.Context`; the secret stay/retreat is the core's
commit/reveal (the game's ``secret_group`` decisions), resolved by :func:`resolve_choices`.
Conventions as the rule set's: inches, origin south-west, a figure is the centre of its 1" base.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from grognard.core.geometry import TOLERANCE, at_most, snap
from grognard.rulesets.skirmish import castles as CA
from grognard.rulesets.skirmish import mechanics as MX
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import paths as PA
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.actions import XY
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.men import other
from grognard.rulesets.skirmish.options import wounds_last
from grognard.rulesets.skirmish.state import Figure


def contacts(ctx: Context) -> dict[str, set[str]]:
    """Each living man on the table -> the enemies whose bases touch his (skirmish.10)."""
    base = ctx.tables.sight.base.value
    men = sorted(
        (f for f in ctx.state.figures.values() if f.alive and f.on_table and f.aboard is None), key=lambda f: f.id
    )
    out: dict[str, set[str]] = {f.id: set() for f in men}
    reach = base + TOLERANCE + 1e-9  # farther apart than this along x or y: surely not in contact (a short cut)
    for i, a in enumerate(men):
        ax, ay, side = a.x, a.y, a.side
        for b in men[i + 1 :]:
            if b.side == side or abs(b.x - ax) > reach or abs(b.y - ay) > reach:
                continue
            if R.in_contact((ax, ay), (b.x, b.y), base) and CA.levels_meet(ctx, a, b):
                out[a.id].add(b.id)
                out[b.id].add(a.id)
    return out


def melees_now(ctx: Context) -> list[list[str]]:
    """The melees now: the men linked by touching bases, each melee's men in order."""
    adj = contacts(ctx)
    seen: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(adj):
        if start in seen or not adj[start]:
            continue
        todo, group = [start], set()
        while todo:
            fid = todo.pop()
            if fid in group:
                continue
            group.add(fid)
            todo.extend(adj[fid] - group)
        seen |= group
        out.append(sorted(group))
    return out


def in_contact_now(ctx: Context, f: Figure) -> bool:
    """``f`` has an enemy in ``contacts(ctx)`` (his base touches an enemy's, at a level they meet): the same
    tests of him against every enemy, without the rest of the table's pairs."""
    if not (f.alive and f.on_table and f.aboard is None):
        return False
    base = ctx.tables.sight.base.value
    reach = base + TOLERANCE + 1e-9  # as contacts: farther apart along x or y, surely not in contact
    fx, fy, side = f.x, f.y, f.side
    for e in ctx.state.figures.values():
        if e.side == side or not (e.alive and e.on_table and e.aboard is None):
            continue
        if abs(e.x - fx) > reach or abs(e.y - fy) > reach:
            continue
        # contacts tests each pair in the order of the men's ids, the first as a
        a, b = (f, e) if f.id < e.id else (e, f)
        if R.in_contact((a.x, a.y), (b.x, b.y), base) and CA.levels_meet(ctx, a, b):
            return True
    return False


def note_charges(ctx: Context, unit: str) -> None:
    """Men of ``unit`` now touching an enemy and not yet in a melee charged this turn: their side attacks."""
    s = ctx.state
    for f in M.living(ctx, unit):
        if f.id not in s.engaged and in_contact_now(ctx, f):
            s.charged.add(f.id)


def melee_attacker(ctx: Context, melee: list[str]) -> str:
    """The attacking side of a melee: its side so far, else the side that charged (both or neither: first mover)."""
    s = ctx.state
    for fid in melee:
        if fid in s.engaged:
            return s.engaged[fid]
    sides = {s.figures[f].side for f in melee if f in s.charged}
    return sides.pop() if len(sides) == 1 else s.order[0]


def melee_phase(ctx: Context) -> None:
    """Every melee fights its rounds; those where both sides missed form groups owing stay/retreat."""
    s = ctx.state
    melees = melees_now(ctx)
    in_melee = {f for m in melees for f in m}
    s.engaged = {f: side for f, side in s.engaged.items() if f in in_melee}
    s.groups = {}
    counters: list[tuple[str, list[str]]] = []
    for melee in melees:
        attacker = melee_attacker(ctx, melee)
        if fight(ctx, melee, attacker):
            _group(ctx, melee, attacker)
            continue
        crew = _crew_beaten(ctx, melee, attacker)
        if crew is not None:
            counters.append((crew, [f for f in melee if s.figures[f].alive]))
    for crew, winners in counters:  # the rest of a beaten gun crew must attack (skirmish.71)
        joined = _crew_attacks(ctx, crew, winners)
        if not joined:
            continue
        found: list[str] | None = next((m for m in melees_now(ctx) if joined[0] in m), None)
        if found is not None and fight(ctx, found, s.units[crew].side):
            _group(ctx, found, s.units[crew].side)
    s.charged = set()
    CA.ladder_winners(ctx, {f for f, foes in contacts(ctx).items() if foes})
    if s.groups:
        ctx.emit("melee_choice", groups={g: list(m) for g, m in sorted(s.groups.items())})


def _group(ctx: Context, melee: list[str], attacker: str) -> None:
    """Both sides missed: each side's men of ``melee`` form groups of at most 10 owing stay/retreat."""
    s = ctx.state
    for side in (attacker, other(attacker)):
        men = [f for f in melee if s.figures[f].side == side and s.figures[f].alive]
        for k in range(0, len(men), MX.MELEE_GROUP):
            s.groups[f"M{len(s.groups) + 1}"] = men[k : k + MX.MELEE_GROUP]


def _crew_beaten(ctx: Context, melee: list[str], attacker: str) -> str | None:
    """The crew unit of a piece whose men in ``melee`` the attacker has all killed, while more of that
    crew live outside it (the attacker won against part of the crew, skirmish.71); else None."""
    s = ctx.state
    crews = sorted({p.crew for p in s.pieces.values() if p.crew is not None})
    winners = [f for f in melee if s.figures[f].alive and s.figures[f].side == attacker]
    if not winners:
        return None
    for crew in crews:
        unit = s.units[crew]
        if unit.side == attacker:
            continue
        fought = [f for f in melee if s.figures[f].unit == crew]
        if not fought or any(s.figures[f].alive for f in melee if s.figures[f].side != attacker):
            continue
        if any(f.on_table and f.id not in melee for f in M.living(ctx, crew)):
            return str(crew)
    return None


def contact_point(ctx: Context, f: Figure, foe: Figure) -> XY | None:
    """Where ``f`` stands to touch ``foe``'s base by a legal move now: straight at him, else up to 90
    degrees round him either way (steps of 15), on the table, on no other base, within his move."""
    base = ctx.tables.sight.base.value
    dx, dy = f.x - foe.x, f.y - foe.y
    d = math.hypot(dx, dy)
    start = math.atan2(dy, dx) if d > TOLERANCE else 0.0
    allowance = M.allowance(ctx, f)
    terrain = ctx.terrain
    others = [g for g in ctx.state.figures.values() if g.alive and g.on_table and g.id not in (f.id, foe.id)]
    for step in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6):
        angle = start + math.radians(15 * step)
        end = (snap(foe.x + base * math.cos(angle)), snap(foe.y + base * math.sin(angle)))
        if not R.in_contact(end, (foe.x, foe.y), base) or not terrain.on_table(*end):
            continue
        path = [(f.x, f.y), end]
        if any(R.overlaps(end, (g.x, g.y), base) for g in others):
            continue
        if any(g.side != f.side and R.path_near(path, (g.x, g.y), base) for g in others):
            continue
        measure = PA.measure_path(terrain, path, allowance, river_paid=f.river_paid, open_doors=M.open_doors(ctx))
        if measure.problem is None and at_most(measure.cost, allowance):
            return end
    return None


def _crew_attacks(ctx: Context, crew: str, winners: list[str]) -> list[str]:
    """The rest of a beaten gun crew must attack the winners in the same turn (skirmish.71): the engine
    moves each man of it not yet in a melee into contact with the nearest winner he can reach by a
    legal move; those who cannot reach stay. Returns the men who joined."""
    s = ctx.state
    joined: list[str] = []
    busy = {f for m in melees_now(ctx) for f in m}
    for f in M.living(ctx, crew):
        if not f.on_table or f.id in busy:
            continue
        foes = sorted(
            (s.figures[w] for w in winners if s.figures[w].alive),
            key=lambda w: (math.hypot(w.x - f.x, w.y - f.y), w.id),
        )
        for foe in foes:
            end = contact_point(ctx, f, foe)
            if end is not None:
                f.x, f.y = end
                joined.append(f.id)
                ctx.emit("crew_attacks", figure=f.id, at=foe.id, point=list(end))
                break
        else:
            ctx.emit("crew_cannot_reach", figure=f.id)
    ctx.shot_cache = None
    return joined


def _targets(ctx: Context, strikers: list[str], foes: set[str], adj: dict[str, set[str]]) -> dict[str, str]:
    """Each striker's foe: one to one where possible, spare men joining a pair (RULINGS S13)."""
    load: dict[str, int] = {}
    out: dict[str, str] = {}
    for fid in strikers:
        touching = sorted(adj[fid] & foes)
        if not touching:
            continue
        foe = min(touching, key=lambda t: (load.get(t, 0), t))
        load[foe] = load.get(foe, 0) + 1
        out[fid] = foe
    return out


def _strike(ctx: Context, striker: str, foe: str) -> int:
    """One melee die of ``striker`` at ``foe`` (its hits, 0 or 1): hits on MELEE_HIT_ON+ with the foe's type's
    melee shift (the tables' ``[men.*] melee``: cavalry and gun crews +1, skirmish.69-70)."""
    target = ctx.state.figures[foe]
    shift = ctx.tables.men[target.type].melee
    hit = MX.Shots(1, MX.MELEE_HIT_ON, shift).roll(ctx, f"melee: {striker} strikes at {foe} ({MX.MELEE_HIT_ON}+)")
    side = ctx.state.figures[striker].side
    ctx.state.stats["shots"][side] += 1
    ctx.state.stats["hits"][side] += int(hit)
    ctx.emit("melee_strike", figure=striker, at=foe, hit=hit)
    return hit


def _melee_hit(ctx: Context, fid: str, *, survival: bool) -> bool:
    """A man hit in melee: dead outright, or a survival roll; returns whether he dies (skirmish.7, 69, 70)."""
    f = ctx.state.figures[fid]
    f.hits += 1
    if not survival:
        return True
    if f.hits >= 2 or (f.wounds and wounds_last(ctx.state.options)):  # the option wounds = last (S5 read the other way)
        return True
    if MX.Survival(MX.MELEE_SURVIVE_ON).roll(ctx, f"{fid} is hit in melee: survives on {MX.MELEE_SURVIVE_ON}+"):
        f.wounds += 1
        ctx.state.stats["wounds"][f.side] += 1
        ctx.emit("wounded", figure=fid)
        return False
    return True


def fight(ctx: Context, melee: list[str], attacker: str) -> bool:
    """Fight the rounds of one melee; True when both sides missed (stay/retreat follows)."""
    s = ctx.state
    adj = contacts(ctx)
    first = not any(f in s.engaged for f in melee)
    for fid in melee:
        s.engaged[fid] = attacker
    # skirmish.80: the men on a ladder fight with no attack advantage: the first round is as a later one
    ladder = any(s.figures[f].on_ladder is not None for f in melee)
    round_no = 1 if first and not ladder else 2
    if first:
        s.stats["melees"] += 1
        if s.stats["first_melee"] is None:
            s.stats["first_melee"] = s.turn
    while True:
        ours = [f for f in melee if s.figures[f].alive and s.figures[f].side == attacker and adj[f]]
        theirs = [f for f in melee if s.figures[f].alive and s.figures[f].side != attacker and adj[f]]
        ours = [f for f in ours if adj[f] & set(theirs)]
        theirs = [f for f in theirs if adj[f] & set(ours)]
        if not ours or not theirs:
            for fid in melee:
                s.engaged.pop(fid, None)
            ctx.emit("melee_over", men=melee)
            return False
        ctx.emit("melee_round", round=round_no, attacker=attacker, men=ours + theirs)
        s.stats["melee_rounds"] += 1
        dead: list[tuple[str, str]] = []
        hit_any = False
        aims = CA.wall_strikers(ctx, _targets(ctx, ours, set(theirs), adj))
        killed: set[str] = set()
        for fid, foe in aims.items():
            if _strike(ctx, fid, foe):
                hit_any = True
                if foe in killed:  # already dead this round
                    continue
                if _melee_hit(ctx, foe, survival=round_no > 1):  # a second hit this turn kills (skirmish.7)
                    dead.append((foe, "killed in melee"))
                    killed.add(foe)
        killed_now = {d for d, _ in dead}
        # the first round's dead do not strike back; in later rounds the dead fight before removal
        back = [f for f in theirs if round_no > 1 or f not in killed_now]
        replies = CA.wall_strikers(ctx, _targets(ctx, back, set(ours), adj))
        for fid, foe in replies.items():
            if _strike(ctx, fid, foe):
                hit_any = True
                if foe in killed:
                    continue
                if _melee_hit(ctx, foe, survival=True):
                    dead.append((foe, "killed in melee"))
                    killed.add(foe)
        for fid, why in dead:
            if s.figures[fid].alive:
                M.kill(ctx, s.figures[fid], why)
                s.engaged.pop(fid, None)
        if not hit_any:
            ctx.emit("melee_both_miss", men=ours + theirs)
            return True
        round_no += 1


def retreat_point(ctx: Context, f: Figure, away_from: list[str] | None = None) -> XY | None:
    """Where ``f`` retreats: a full move straight away from the enemies touching him (or ``away_from``),
    shortened to the furthest legal point (on the table, affordable, no base overlapped); None if none is."""
    if away_from is None:
        away_from = sorted(contacts(ctx).get(f.id, ()))
    foes = [ctx.state.figures[e] for e in away_from]
    if not foes:
        return None
    cx = sum(e.x for e in foes) / len(foes)
    cy = sum(e.y for e in foes) / len(foes)
    dx, dy = f.x - cx, f.y - cy
    d = math.hypot(dx, dy)
    if d <= TOLERANCE:
        d = 1.0
        edge = next(sp.edge for sp in ctx.scenario.spec.sides if sp.id == f.side)
        dx, dy = {"south": (0.0, -1.0), "north": (0.0, 1.0), "west": (-1.0, 0.0), "east": (1.0, 0.0)}[edge]
    ux, uy = dx / d, dy / d
    allowance = M.allowance(ctx, f)
    for k in range(12):
        reach = allowance * (1 - k / 12)
        end = (snap(f.x + ux * reach), snap(f.y + uy * reach))
        if _retreat_ok(ctx, f, end, allowance):
            return end
    return None


def _retreat_ok(ctx: Context, f: Figure, end: XY, allowance: float) -> bool:
    base = ctx.tables.sight.base.value
    terrain = ctx.terrain
    if not terrain.on_table(*end):
        return False
    path = [(f.x, f.y), end]
    for g in ctx.state.figures.values():
        if g.id == f.id or not g.alive or not g.on_table:
            continue
        if R.overlaps(end, (g.x, g.y), base):
            return False
        if g.side != f.side and R.path_near(path, (g.x, g.y), base):
            return False
    measure = PA.measure_path(terrain, path, allowance, river_paid=f.river_paid, open_doors=M.open_doors(ctx))
    return measure.problem is None and at_most(measure.cost, allowance)


def _retreat(ctx: Context, f: Figure, away_from: list[str]) -> None:
    if not f.alive:
        return
    ladder = ctx.state.ladders.get(f.on_ladder or "")
    if ladder is not None:  # a man on a ladder retreats down it, to its foot
        f.on_ladder = None
        f.x, f.y = ladder.foot
        ctx.state.engaged.pop(f.id, None)
        ctx.emit("retreats", figure=f.id, at=list(ladder.foot), down=ladder.id)
        return
    end = retreat_point(ctx, f, away_from)
    if end is None:
        ctx.emit("cannot_retreat", figure=f.id)
        return
    f.x, f.y = end
    ctx.state.engaged.pop(f.id, None)
    ctx.emit("retreats", figure=f.id, at=list(end))


def resolve_choices(ctx: Context, choices: Mapping[str, tuple[str, Any]]) -> None:
    """The stay/retreat choices (decision id -> (seat, Choice)), shown together: retreating groups make a
    full move away (skirmish.68)."""
    s = ctx.state
    picked = {action.group: action.choice for _, action in choices.values()}
    ctx.emit("melee_choices", choices=dict(sorted(picked.items())))
    adj = contacts(ctx)  # whom each man retreats from: the enemies touching him when the choices show
    foes = {f: sorted(adj.get(f, ())) for men in s.groups.values() for f in men}
    for gid, men in sorted(s.groups.items()):
        if picked.get(gid) == "retreat":
            for fid in men:
                _retreat(ctx, s.figures[fid], foes[fid])
    s.groups = {}
    in_melee = {f for m in melees_now(ctx) for f in m}
    s.engaged = {f: side for f, side in s.engaged.items() if f in in_melee}
    ctx.shot_cache = None
