"""What a landed shell does to the structures under its template: building sections, castle walls,
bridges and doors (skirmish.17-19, 74-77, 87, 90-91; RULINGS S7, S8, S11).

Plain functions of a :class:`~.context.Context`, called once for each landed burst by the artillery
phase (``artillery.resolve_bursts``) after its fire for effect. Conventions as the rule set's: inches,
origin south-west, a figure is the centre of its 1" base.
"""

from __future__ import annotations

from typing import Any

from shapely.geometry import Point, Polygon

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.skirmish import castles as CA
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish.context import XY, Context
from grognard.rulesets.skirmish.options import damage_carries, one_on_damage_die
from grognard.rulesets.skirmish.structures import (
    Damage,
    attack_of,
    bridge_sites,
    describe_bridge,
    sections,
    wall_sections,
    wall_state,
)
from grognard.rulesets.skirmish.terrain import ALL_DEAD, BridgeSite, Section, WallSection, storey_state, top_storey


def shell(ctx: Context, burst: Polygon, centre: XY, weapon: str, ranging_die: int) -> None:
    """A burst template ``burst`` (a shapely Polygon, inches) lands, centred at ``centre``, from ``weapon``.

    When the weapon's attack damages structures (the tables' ``damaged_by``,
    RULINGS S11: artillery and tank guns), each building section and standing
    bridge under the template (touching it counts) loses the total of 2d6
    points, each rolled apart. A section's damage falls on its top storey
    still standing and does not carry to the one below (S7, skirmish.91);
    when its last storey reaches ALL DEAD it collapses on everyone inside. A
    bridge at 0 is gone and the men on it fall into the river. "A 1 from
    artillery" (S8, skirmish.75, 77): when ``ranging_die`` is 1 (or, with the
    option ``artillery_one = damage_die``, when a section's own 2d6 show a 1)
    every door under the template (in that section) is blown off, open for
    good, and a cannon on a wall section costs it 5 points more. Emits an
    event for each change; raises ValueError for an unknown weapon or a
    ranging die off a d6.
    """
    if not 1 <= ranging_die <= 6:
        raise ValueError(f"ranging die {ranging_die}: a d6 shows 1 to 6")
    tables = ctx.tables
    attack = attack_of(tables, weapon)
    if attack not in tables.structures.damaged_by.attacks:
        ctx.emit("shell_no_damage", weapon=weapon, why=f"a {attack} does not damage structures (RULINGS S11)")
        return
    damage = Damage(int(tables.structures.dice.value))
    by_die = one_on_damage_die(ctx.state.options)
    ones = _shell_sections(ctx, burst, damage)  # the sections whose 2d6 showed a 1
    ones |= _shell_walls(ctx, burst, damage, lambda dice: 1 in dice if by_die else ranging_die == 1)
    _shell_bridges(ctx, burst, damage)
    if by_die or ranging_die == 1:
        _blow_doors(ctx, burst, ones if by_die else None)
    ctx.structures_changed()


def _shell_sections(ctx: Context, burst: Polygon, damage: Damage) -> set[str]:
    """Each building section under ``burst`` loses its 2d6 (S7, skirmish.17-18, 91); returns the ids of those
    whose dice showed a 1."""
    s = ctx.state
    ones: set[str] = set()
    for sid, sec in sorted(sections(ctx).items()):
        if not sec.shape.intersects(burst):
            continue
        points = s.sections[sid]
        n = top_storey(sec, points)
        if n is None:
            continue  # already collapsed
        storey = "second storey" if n == 1 else "first storey"
        dice = damage.rolled(ctx, f"shell on section {sid} ({storey}, {points[n]} points): 2d6 off")
        if 1 in dice:
            ones.add(sid)
        lost = sum(dice)
        carry = damage_carries(s.options)  # the option storey_damage = carries (RULINGS S7 read the other way)
        while n is not None and lost > 0:
            before = storey_state(sec.storeys[n], points[n])
            excess = max(0, lost - points[n])
            points[n] = max(0, points[n] - lost)  # S7: never below 0, no carry to the storey below
            after = storey_state(sec.storeys[n], points[n])
            ctx.emit(
                "structure_hit",
                section=sid,
                storey=n + 1,
                lost=lost - excess if carry else lost,  # at the ruling the event is as it was
                points=points[n],
                state=after,
                was=before,
            )
            if after == ALL_DEAD:
                if n == 0:
                    _collapse(ctx, sec)
                else:
                    ctx.emit("storey_gone", section=sid, storey=n + 1)
            n, lost = (n - 1, excess) if carry and n > 0 else (None, 0)
    return ones


def _shell_walls(ctx: Context, burst: Polygon, damage: Damage, hit_by_one: Any) -> set[str]:
    """Each castle wall section under ``burst`` loses its 2d6, and 5 more with a cannon on it when ``hit_by_one``
    (of the section's dice) holds (skirmish.74-75, S8); returns the ids of those whose dice showed a 1."""
    s = ctx.state
    ones: set[str] = set()
    for sid, wsec in sorted(wall_sections(ctx).items()):
        if not wsec.shape.intersects(burst) or s.walls[sid] <= 0:
            continue
        dice = damage.rolled(ctx, f"shell on castle wall section {sid} ({s.walls[sid]} points): 2d6 off")
        if 1 in dice:
            ones.add(sid)
        lost = sum(dice)
        if hit_by_one(dice):
            cannons = [p.id for p in sorted(s.pieces.values(), key=lambda p: p.id) if _cannon_on(ctx, p, wsec, burst)]
            if cannons:
                extra = int(ctx.tables.castle.cannon_loss.value)
                lost += extra
                ctx.emit("cannon_hit", section=sid, pieces=cannons, extra=extra)
        _wall_loses(ctx, sid, lost)
    return ones


def _shell_bridges(ctx: Context, burst: Polygon, damage: Damage) -> None:
    """Each standing bridge under ``burst`` loses its 2d6; at 0 it is gone (skirmish.19, 87-89)."""
    s = ctx.state
    for bid, site in sorted(bridge_sites(ctx).items()):
        b = s.bridges[bid]
        if not b.built or b.points <= 0 or not site.deck.intersects(burst):
            continue
        lost = damage.roll(ctx, f"shell on bridge {bid} ({b.points} points): 2d6 off")
        b.points = max(0, b.points - lost)
        ctx.emit("bridge_hit", bridge=bid, lost=lost, points=b.points, state=describe_bridge(ctx, bid))
        if b.points == 0:
            _bridge_gone(ctx, site)


def _blow_doors(ctx: Context, burst: Polygon, ones: set[str] | None) -> None:
    """Every door under ``burst`` is blown off (skirmish.77): all of them (the ranging die's 1, S8), or with
    ``ones`` only those whose own section (``door_section``) is in it (its 2d6 showed a 1)."""
    for door in sorted(ctx.state.doors.values(), key=lambda d: d.id):
        opening = ctx.base_terrain.openings[door.id]
        if door.blown or not Point(opening.at).buffer(opening.width / 2).intersects(burst):
            continue
        if ones is not None and door_section(ctx, door.id) not in ones:
            continue
        door.blown, door.open = True, True
        ctx.emit("door_blown", door=door.id)


def door_section(ctx: Context, door: str) -> str | None:
    """The section a door opens in: of its building's sections, or its castle wall's, the first (by id) whose
    outline (a wall section's line) passes within the tolerance of the door's centre; None if none does."""
    opening = ctx.base_terrain.openings[door]
    at = Point(opening.at)
    for sid, sec in sorted(sections(ctx).items()):
        if sec.building == opening.building and sec.shape.exterior.distance(at) <= TOLERANCE:
            return sid
    for sid, wsec in sorted(wall_sections(ctx).items()):
        if wsec.wall == opening.building and wsec.line.distance(at) <= TOLERANCE:
            return sid
    return None


def _cannon_on(ctx: Context, piece: Any, section: WallSection, burst: Polygon) -> bool:
    """The piece stands on ``section``'s top and under the template (skirmish.75)."""
    where = Point(piece.x, piece.y)
    return bool(section.shape.covers(where) and burst.intersects(where.buffer(0.5)))


def _wall_loses(ctx: Context, section: str, lost: int) -> None:
    """Castle wall ``section`` loses ``lost`` points (never below 0, S7); at 0 every man on it is gone
    (skirmish.74); a ladder against it falls, its men surviving on 4-6 as from a pushed ladder (skirmish.84)."""
    s = ctx.state
    before = wall_state(ctx, section)
    s.walls[section] = max(0, s.walls[section] - lost)
    after = wall_state(ctx, section)
    ctx.emit("wall_hit", section=section, lost=lost, points=s.walls[section], state=after, was=before)
    if s.walls[section] > 0:
        return
    ctx.emit("wall_section_gone", section=section)
    for f in sorted(s.figures.values(), key=lambda f: f.id):
        if f.alive and f.on_wall == section:
            M.kill(ctx, f, f"wall section {section} fell with him on it (skirmish.74)")
    for ladder in sorted(s.ladders.values(), key=lambda lad: lad.id):
        if ladder.section == section:
            CA.ladder_falls(ctx, ladder, f"wall section {section} is gone")


def _collapse(ctx: Context, section: Section) -> None:
    """ALL DEAD: the section falls on everyone inside it (skirmish.18)."""
    ctx.emit("section_collapses", section=section.id)
    for f in sorted(ctx.state.figures.values(), key=lambda f: f.id):
        if f.alive and f.on_table and section.shape.covers(Point(f.x, f.y)):
            M.kill(ctx, f, f"section {section.id} collapsed on him")


def _bridge_gone(ctx: Context, site: BridgeSite) -> None:
    """At 0 the bridge is gone: the men on it fall into the river (and stand in it, as if they had waded in)."""
    ctx.emit("bridge_gone", bridge=site.id)
    for f in sorted(ctx.state.figures.values(), key=lambda f: f.id):
        if f.alive and f.on_table and site.deck.covers(Point(f.x, f.y)):
            f.river_paid = True
            ctx.emit("falls_in_river", figure=f.id, bridge=site.id)
