"""The fire phase's burst templates (skirmish.12-15, 29, 31, 55, 71, 72; RULINGS S2, S3, S8, S11, S14):
pieces and their crews, tank guns, mortars and bazookas; the burst order, its ranging shot, and fire for
effect on every man under a landed template.

Plain functions of the game's :class:`~.context.Context`. In the fire phase each piece with enough of
its crew at it, each tank gun with a man to lay it, and each man with a mortar or bazooka owes a burst
order (:class:`BurstSpace`): a template laid at a point the player chooses. With all other fire, each
ordered burst rolls its ranging shot; a landed one fires for effect on every man whose base touches it
(``structures.artillery_cover`` decides over-the-top cover, ``shelling.shell`` the damage to
structures). Conventions as the rule set's: inches, origin south-west; angles in degrees.
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
from shapely.geometry import Polygon

from grognard.core.engine import ActionSpace
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, snap
from grognard.rulesets.skirmish import mechanics as MX
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import shelling as SH
from grognard.rulesets.skirmish import sight as SG
from grognard.rulesets.skirmish import structures as ST
from grognard.rulesets.skirmish.actions import XY, Burst
from grognard.rulesets.skirmish.context import Context, Passed
from grognard.rulesets.skirmish.options import burst_min_range, six_hits_in_cover
from grognard.rulesets.skirmish.state import BurstOrder, Figure
from grognard.rulesets.skirmish.terrain import Terrain


class BurstSpace(ActionSpace[Burst]):
    """A piece's or a man's burst order: a landing point (inches) and a turn (degrees) of a template of
    its class, in range and seen (skirmish.11-15, 29), or hold fire: a continuous space."""

    def __init__(self, ctx: Context, by: str) -> None:
        self.ctx = ctx
        self.by = by
        piece = ctx.state.pieces.get(by)
        if piece is not None and piece.crew is not None:
            self.side = ctx.state.units[piece.crew].side
        elif by in ctx.state.vehicles:
            self.side = ctx.state.vehicles[by].side
        elif by in ctx.state.figures:
            self.side = ctx.state.figures[by].side
        else:
            self.side = ""

    def check(self, action: Any) -> None:
        if not isinstance(action, Burst):
            raise IllegalAction(f"{action} is not a burst order", "skirmish.12")
        if action.by != self.by:
            raise IllegalAction(f"{action}: this decision is for {self.by}", "skirmish.12")
        if self.ctx.passed.get(self.ctx, action) is Passed:  # passed already at this moment: nothing to check again
            self.ctx.passed.put(self.ctx, action, (plan_burst(self.ctx, self.side, action),))

    def passed(self, action: Burst) -> tuple[BurstOrder | None] | None:
        """``(order,)``, the order ``plan_burst`` gave for ``action`` (None: it holds fire), when it was checked here
        and passed, on the state as it still is; else None."""
        found = self.ctx.passed.get(self.ctx, action)
        return None if found is Passed else cast(tuple[BurstOrder | None], found)

    def hold(self) -> Burst:
        return Burst(self.by, None)

    def aims(self) -> list[Burst]:
        """A template (its class's first shape, unturned) on each enemy man it may legally land on."""
        out = []
        for enemy in sorted(M.enemies(self.ctx, self.side), key=lambda e: e.id):
            burst = Burst(self.by, (enemy.x, enemy.y))
            if self.contains(burst):
                out.append(burst)
        return out

    def sample(self, rng: np.random.Generator) -> Burst:
        options = self.candidates()
        pick = options[int(rng.integers(len(options)))]
        if pick.at is None:
            return pick
        turned = Burst(self.by, pick.at, float(45 * int(rng.integers(8))))
        return turned if self.contains(turned) else pick

    def candidates(self, k: int = 16) -> list[Burst]:
        return [*self.aims()[: k - 1], self.hold()]


def crew_pieces(ctx: Context) -> None:
    """At the start of the fire phase (a piece is abandoned when the last man of its crew dies): an abandoned
    piece is taken by the one unit whose men stand within reach of it, if all of them are of one side
    (no mixed crews, skirmish.72: the unit with most men there takes it, the lower name on a tie)."""
    s = ctx.state
    for piece in sorted(s.pieces.values(), key=lambda p: p.id):
        if piece.crew is not None:
            continue
        reach = ctx.tables.artillery[piece.weapon].reach
        near = [
            f
            for f in s.figures.values()
            if f.alive and f.on_table and math.hypot(f.x - piece.x, f.y - piece.y) <= reach + TOLERANCE
        ]
        served = {c.crew for c in s.pieces.values() if c.crew is not None}
        near = [f for f in near if f.unit not in served]
        if not near or len({f.side for f in near}) > 1:
            continue
        count: dict[str, int] = {}
        for f in near:
            count[f.unit] = count.get(f.unit, 0) + 1
        taker = min(count, key=lambda u: (-count[u], u))
        piece.crew = taker
        ctx.emit("piece_taken", piece=piece.id, crew=taker, side=s.units[taker].side)


def burst_weapon(ctx: Context, by: str) -> str:
    """The burst weapon fired by ``by``: a piece's, a tank's gun, or a man's mortar or bazooka (``weapon_of``)."""
    if by in ctx.state.pieces:
        return str(ctx.state.pieces[by].weapon)
    if by in ctx.state.vehicles:
        return str(M.tank_gun(ctx, ctx.state.vehicles[by]))
    return M.weapon_of(ctx, ctx.state.figures[by])


def burst_firers(ctx: Context) -> list[tuple[str, str]]:
    """(piece or man, side) of everything that may lay a burst template now, in name order."""
    s = ctx.state
    out: list[tuple[str, str]] = []
    for pid, piece in sorted(s.pieces.items()):
        if piece.crew is not None and M.piece_ready(ctx, piece) is None:
            out.append((pid, s.units[piece.crew].side))
    for vid, v in sorted(s.vehicles.items()):
        gun = M.tank_gun(ctx, v)
        if gun is not None and M.manned(ctx, v).get(gun) is not None:
            out.append((vid, v.side))
    guns = ctx.tables.artillery
    mg = "mg" in guns  # ``weapon_of`` is a man's own weapon, or the vehicle's MG he mans: only those may be a burst's
    men = sorted((fid, f) for fid, f in s.figures.items() if mg or f.weapon in guns)
    terrain = ctx.terrain if men else None  # the terrain now, read once (each read outside ``Context.still`` costs)
    for fid, f in men:
        if M.weapon_of(ctx, f) in guns and _man_burst_problem(ctx, f, terrain) is None:
            out.append((fid, f.side))
    return out


def _man_burst_problem(ctx: Context, f: Figure, terrain: Terrain | None = None) -> tuple[str, str] | None:
    """Why the man ``f`` may not lay his burst template now (rule, why), or None (``terrain``: the terrain now,
    when read already)."""
    if not f.alive or not f.on_table:
        return ("skirmish.12", f"{f.id} is not on the table")
    if f.aboard is not None:
        driver = M.driver(ctx, ctx.state.vehicles[f.aboard])
        if driver is not None and driver.id == f.id:
            return ("skirmish.57", f"{f.id} drives {f.aboard} and does not fire")
        return None  # he rides: the river or pond is the vehicle's (skirmish.49, 50)
    if terrain is None:
        terrain = ctx.terrain
    if terrain.in_river(f.x, f.y):
        return ("skirmish.47", f"{f.id} is in the river and cannot fire")
    if terrain.in_pond(f.x, f.y):
        return ("skirmish.52", f"{f.id} is swimming and cannot fire")
    return None


def template_shape(ctx: Context, weapon: str, name: str | None) -> tuple[str, tuple[XY, ...]] | None:
    """(id, corners) of the template ``name`` of ``weapon``'s burst class (default: its first), or None."""
    cls = ctx.tables.artillery[weapon].burst
    if name is None:
        name = next(tid for tid, (c, _) in ctx.templates.items() if c == cls)
    found = ctx.templates.get(name)
    if found is None or found[0] != cls:
        return None
    return name, found[1]


def plan_burst(ctx: Context, side: str, action: Burst) -> BurstOrder | None:
    """The burst order of ``action`` by ``side`` (None: holds fire); raises IllegalAction naming the rule
    (skirmish.11 sight, 12 who fires, 13 once a turn, 15 template, 29 range, 31 crew, 72 no mixed crews).

    The landing point is stored to 0.01"; the range is measured from the piece's (or man's) centre to
    it, adjusted up or down hill (skirmish.29).
    """
    origin = _origin(ctx, side, action)
    if action.at is None:
        return None
    return _aimed(ctx, side, action, origin)


def _origin(ctx: Context, side: str, action: Burst) -> XY:
    """Where ``action``'s burst is fired from (its piece's, vehicle's or man's centre), checking all that does
    not depend on where it lands (skirmish.12, 13, 31, 72); raises IllegalAction naming the rule."""
    s = ctx.state
    by = action.by
    if by in s.pieces:
        piece = s.pieces[by]
        if piece.crew is None:
            raise IllegalAction(
                f"{action}: piece {by} has no crew: its crew is dead and nobody holds it", "skirmish.72"
            )
        crew_side = s.units[piece.crew].side
        if crew_side != side:
            raise IllegalAction(
                f"{action}: piece {by} is served by the {crew_side}' unit {piece.crew}: no mixed crews",
                "skirmish.72",
            )
        why = M.piece_ready(ctx, piece)
        if why is not None:
            raise IllegalAction(f"{action}: {why[1]}", why[0])
        origin: XY = (piece.x, piece.y)
    elif by in s.vehicles:
        v = s.vehicles[by]
        gun = M.tank_gun(ctx, v)
        if gun is None:
            raise IllegalAction(f"{action}: {by} ({v.kind}) carries no gun", "skirmish.12")
        if v.side != side:
            raise IllegalAction(f"{action}: {by} is not a vehicle of the {side}", "skirmish.12")
        if M.manned(ctx, v).get(gun) is None:
            need = max(1, round(ctx.tables.vehicles.weapon_crew.value))
            raise IllegalAction(
                f"{action}: {by}'s {gun.replace('_', ' ')} needs {need} man besides the driver aboard",
                "skirmish.31",
            )
        origin = (v.x, v.y)
    elif by in s.figures:
        f = s.figures[by]
        if f.side != side:
            raise IllegalAction(f"{action}: {by} is not a man of the {side}", "skirmish.12")
        weapon = M.weapon_of(ctx, f)
        if weapon not in ctx.tables.artillery:
            raise IllegalAction(f"{action}: {by}'s {weapon.replace('_', ' ')} fires no burst template", "skirmish.12")
        why = _man_burst_problem(ctx, f)
        if why is not None:
            raise IllegalAction(f"{action}: {why[1]}", why[0])
        origin = (f.x, f.y)
    else:
        raise IllegalAction(f"{action}: no piece or man {by!r} in this game", "skirmish.12")
    if by in s.bursts:
        raise IllegalAction(f"{action}: {by} has already fired this turn", "skirmish.13")
    return origin


def _aimed(ctx: Context, side: str, action: Burst, origin: XY) -> BurstOrder:
    """The burst order of ``action`` fired from ``origin`` (``_origin``), checking all that depends on where it
    lands (skirmish.11, 12, 15, 29, 55); raises IllegalAction naming the rule."""
    s = ctx.state
    by = action.by
    assert action.at is not None
    weapon = burst_weapon(ctx, by)
    entry = ctx.tables.artillery[weapon]
    at = (snap(action.at[0]), snap(action.at[1]))
    if not ctx.terrain.on_table(*at):
        raise IllegalAction(
            f"{action}: the template would land at ({at[0]:g}, {at[1]:g}), off the table", "skirmish.12"
        )
    if by in s.pieces and entry.arc is not None:
        piece = s.pieces[by]
        off = R.off_arc(origin, piece.heading, entry.arc, at)
        if off > 0:
            raise IllegalAction(
                f"{action}: ({at[0]:g}, {at[1]:g}) is {off:g} degrees outside piece {by}'s arc "
                f"({entry.arc:g} degrees either side of its heading {piece.heading:g}): its crew must turn it "
                "first, a turn's move",
                "skirmish.55",
            )
    shape = template_shape(ctx, weapon, action.template)
    if shape is None:
        own = sorted(t for t, (c, _) in ctx.templates.items() if c == entry.burst)
        raise IllegalAction(
            f"{action}: {action.template!r} is not a {entry.burst} template ({', '.join(own)})", "skirmish.15"
        )
    terrain = ctx.terrain
    memo = ctx.sight_memo(terrain)  # sight and range worked out through the memo (rules' own answers, kept)
    distance = SG.effective_range(terrain, memo, origin, at)
    band = ctx.tables.burst_band(weapon, distance)
    if band is None:
        raise IllegalAction(
            f'{action}: the aim point is {distance:.2f}" away, beyond the {weapon}\'s {entry.bands[-1].to:g}"',
            "skirmish.29",
        )
    opened: frozenset[str] = ctx.keep("open doors", lambda: frozenset(M.open_doors(ctx)))
    if entry.indirect:
        if not observed(ctx, side, [at])[0]:
            raise IllegalAction(
                f"{action}: no man of the {side} sees ({at[0]:g}, {at[1]:g}): indirect fire needs an observer",
                "skirmish.11",
            )
    else:
        SG.fill_sight(terrain, memo, [(origin, at)], opened)
        blocked = memo[("sight", origin, at, opened)]
        if blocked is not None:
            raise IllegalAction(
                f"{action}: {by} cannot see ({at[0]:g}, {at[1]:g}): {blocked} is in the way (direct fire)",
                "skirmish.11",
            )
    if _may_touch_own(ctx, by, at, shape[1]):
        _check_clear(ctx, action, origin, distance, R.burst_shape(shape[1], at, action.angle))
    else:  # no part of its own position lies within the template's reach of the aim point: only the range
        _check_min_range(action, distance, burst_min_range(ctx.state.options))
    index, numbers = band
    return BurstOrder(
        by,
        side,
        weapon,
        entry.kind,
        origin,
        at,
        action.angle,
        shape[0],
        index,
        numbers.ranging,
        numbers.hit_on,
        round(distance, 2),
    )


def own_position(ctx: Context, by: str, template: Polygon) -> list[str]:
    """What of ``by``'s own position the laid ``template`` touches (skirmish.12, RULINGS: a burst is never laid on
    its own firer): a piece and the men of its crew at it, a tank (its footprint) or the man with the mortar or
    bazooka, each touched as a man is by a template (his base within the tolerance, skirmish.14)."""
    s = ctx.state
    base = ctx.tables.sight.base.value
    if by in s.pieces:
        piece = s.pieces[by]
        hit = [f"piece {by}"] if R.under_template(template, (piece.x, piece.y), base) else []
        return hit + [f.id for f in M.crew_men(ctx, piece) if R.under_template(template, (f.x, f.y), base)]
    if by in s.vehicles:
        return [by] if template.distance(ctx.vehicle_shape(s.vehicles[by])) <= TOLERANCE else []
    f = s.figures[by]
    return [by] if R.under_template(template, (f.x, f.y), base) else []


def _may_touch_own(ctx: Context, by: str, at: XY, corners: tuple[XY, ...]) -> bool:
    """Some part of ``by``'s own position (``own_position``'s men, piece or tank) lies near enough ``at`` that
    a template of ``corners`` (about (0, 0), turned any way) laid there could touch it: every point of the
    template lies within its farthest corner's reach of ``at``, so a man whose centre is farther from ``at``
    than that reach and his touch (half a base and the tolerance), or a tank whose centre is farther than
    that reach, its half diagonal and the tolerance (by more than rounding), is surely not touched."""
    reach = max(math.hypot(x, y) for x, y in corners) + 1e-6
    spots, touch = ctx.keep(f"own position {by}", lambda: _own_spots(ctx, by))
    return any(math.hypot(x - at[0], y - at[1]) <= reach + touch for x, y in spots)


def _own_spots(ctx: Context, by: str) -> tuple[list[XY], float]:
    """The centres of ``by``'s own position (``own_position``'s) and how near a template reaches to touch one."""
    s = ctx.state
    if by in s.pieces:
        piece = s.pieces[by]
        spots = [(piece.x, piece.y), *((f.x, f.y) for f in M.crew_men(ctx, piece))]
    elif by in s.vehicles:
        v = s.vehicles[by]
        entry = ctx.tables.vehicles.kind(v.kind)
        return [(v.x, v.y)], math.hypot(entry.length, entry.width) / 2 + TOLERANCE
    else:
        f = s.figures[by]
        spots = [(f.x, f.y)]
    return spots, ctx.tables.sight.base.value / 2 + TOLERANCE


def _check_clear(ctx: Context, action: Burst, origin: XY, distance: float, template: Polygon) -> None:
    """Refuse a template laid on the firer's own position (``own_position``) or, with the option
    ``burst_min_range``, nearer than that many inches (skirmish.12); raises IllegalAction."""
    touched = own_position(ctx, action.by, template)
    if touched:
        raise IllegalAction(
            f"{action}: the template would touch {action.by}'s own position ({', '.join(touched)}): a piece, tank "
            "or man never lays its burst on itself or its crew",
            "skirmish.12",
        )
    _check_min_range(action, distance, burst_min_range(ctx.state.options))


def _check_min_range(action: Burst, distance: float, least: float) -> None:
    if distance < least - TOLERANCE:
        raise IllegalAction(
            f'{action}: the aim point is {distance:.2f}" away, nearer than the minimum range of {least:g}" '
            "(option burst_min_range)",
            "skirmish.12",
        )


def observed(ctx: Context, side: str, ats: list[XY]) -> list[bool]:
    """For each point of ``ats``: does a living man of ``side`` on the table see it (``sight.seen``, an observer for
    indirect fire, skirmish.11)? Each point's answer is kept while the state stands still (``Context.still``):
    the doctrine asks of all its aim points at once, then again of each as it checks the burst laid there."""
    s = ctx.state
    eyes: list[XY] = ctx.keep(
        f"eyes {side}", lambda: [(g.x, g.y) for g in s.figures.values() if g.side == side and g.alive and g.on_table]
    )
    opened: frozenset[str] = ctx.keep("open doors", lambda: frozenset(M.open_doors(ctx)))
    terrain = ctx.terrain
    memo = ctx.sight_memo(terrain)
    if ctx.kept is None:
        return SG.seen(terrain, memo, eyes, ats, opened)
    known: dict[XY, bool] = ctx.kept.setdefault(f"seen {side}", {})
    todo = [at for at in dict.fromkeys(ats) if at not in known]
    if todo:
        known.update(zip(todo, SG.seen(terrain, memo, eyes, todo, opened), strict=True))
    return [known[at] for at in ats]


def burst_polygon(ctx: Context, order: BurstOrder) -> Polygon:
    """The template of ``order`` as laid on the table (shapely; never stored)."""
    return R.burst_shape(ctx.templates[order.template][1], order.at, order.angle)


def under(ctx: Context, template: Polygon) -> list[Figure]:
    """Every living man on the table whose base touches ``template`` (skirmish.14), of either side."""
    base = ctx.tables.sight.base.value
    return [
        f
        for _, f in sorted(ctx.state.figures.items())
        if f.alive and f.on_table and R.under_template(template, (f.x, f.y), base)
    ]


def burst_order(ctx: Context, action: Burst, side: str, checked: tuple[BurstOrder | None] | None = None) -> None:
    """Record ``action``'s burst order for ``side``; ``checked``: ``(order,)``, what ``plan_burst`` gave for it on
    this very state (else it is worked out)."""
    order = plan_burst(ctx, side, action) if checked is None else checked[0]
    if order is None:
        ctx.emit("holds_fire", unit=action.by)
        return
    ctx.state.bursts[action.by] = order
    ctx.emit(
        "burst_order",
        by=action.by,
        weapon=order.weapon,
        at=list(order.at),
        angle=order.angle,
        template=order.template,
        ranging=order.ranging,
        range=order.range,
    )


def resolve_bursts(
    ctx: Context, new_hits: dict[str, int], attack_of: dict[str, str], fired: set[str] | frozenset[str] = frozenset()
) -> None:
    """Each burst ordered this turn: its ranging shot (skirmish.13); a miss takes the template away, a
    landing fires for effect on every man under it (skirmish.14): one die each, shifted by his type
    and by cover against that weapon (a man the structures cover is skipped: ``fired`` are the men who
    fired this turn, for doors and windows); then ``shelling.shell``."""
    s = ctx.state
    terrain = ctx.terrain
    for by, order in sorted(s.bursts.items()):
        landed, die = MX.RangingShot(order.ranging).roll(
            ctx, f"{by}'s ranging shot at ({order.at[0]:g}, {order.at[1]:g}): lands on {order.ranging} or less"
        )
        record = {**order.to_json(), "die": die, "landed": landed}
        s.landed.append(record)
        if not landed:
            ctx.emit("burst_missed", by=by, die=die, ranging=order.ranging, at=list(order.at))
            continue
        template = burst_polygon(ctx, order)
        men = under(ctx, template)
        ctx.emit("burst_lands", by=by, die=die, ranging=order.ranging, at=list(order.at), under=[f.id for f in men])
        hit_men: list[str] = []
        for f in men:
            covered_by = ST.artillery_cover(ctx, f, order.at, order.weapon, fired=f.id in fired)
            if covered_by is not None:
                ctx.emit("burst_covered", by=by, figure=f.id, why=covered_by)
                continue
            source = order.at if ctx.tables.artillery[order.weapon].indirect else order.origin
            covered = R.cover(terrain, source, (f.x, f.y), order.attack)
            type_shift = ctx.tables.men[f.type].hit_shift
            shift = type_shift + R.cover_shift(
                covered is not None, order.hit_on, type_shift, six_hits_in_cover(ctx.state.options)
            )
            purpose = (
                f"{by}'s {order.weapon.replace('_', ' ')} fires for effect on {f.id}: hits on {order.hit_on}+"
                + (f", die {shift:+d}" if shift else "")
                + (f" (cover: {covered})" if covered else "")
            )
            hit = MX.Shots(1, order.hit_on, shift).roll(ctx, purpose)
            s.stats["shots"][order.side] += 1
            s.stats["hits"][order.side] += hit
            if hit:
                hit_men.append(f.id)
                new_hits[f.id] = new_hits.get(f.id, 0) + 1
                attack_of[f.id] = order.attack
        record["hit"] = hit_men
        ctx.emit("burst_effect", by=by, hit=hit_men)
        SH.shell(ctx, template, order.at, order.weapon, die)
    s.bursts = {}
