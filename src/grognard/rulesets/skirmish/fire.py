"""The fire phase's small arms and wedges (skirmish.4-7, 11, 16, 24, 30-34, 47, 52, 60; RULINGS S0, S3-S5):
who may fire, the shot a man would fire at another (sight, range band, cover), MG and flame-thrower
wedges, fire orders, and all fire resolved at once.

Plain functions of the game's :class:`~.context.Context`. Every unit that can fire gives its order (both
sides at once); then every die is rolled, the artillery's ranging shots and fire for effect with them
(``artillery.resolve_bursts``), and casualties are removed after every shot is rolled. Conventions as
the rule set's: inches, origin south-west, a figure is the centre of its 1" base; headings in degrees,
0 east, counter-clockwise.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from grognard.core.engine import ActionSpace
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, snap_angle
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import mechanics as MX
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import sight as SG
from grognard.rulesets.skirmish.actions import Fire, WedgeOrder
from grognard.rulesets.skirmish.context import XY, Context, Passed, ShotTable
from grognard.rulesets.skirmish.options import six_hits_in_cover, wounds_last
from grognard.rulesets.skirmish.state import Figure, FireOrder, WedgeFire
from grognard.rulesets.skirmish.tables import FIRES_IN_PART_1, TEMPLATE_ATTACKS, WEDGE_ATTACKS
from grognard.rulesets.skirmish.terrain import Terrain


class FireSpace(ActionSpace[Fire]):
    """A unit's fire: at an enemy unit some of its men can see in range, or hold fire (skirmish.30)."""

    def __init__(self, ctx: Context, unit: str) -> None:
        self.ctx = ctx
        self.unit = unit

    def check(self, action: Any) -> None:
        if not isinstance(action, Fire):
            raise IllegalAction(f"{action} is not a fire order", "skirmish.30")
        if action.unit != self.unit:
            raise IllegalAction(f"{action}: this decision is for unit {self.unit}", "skirmish.30")
        if self.ctx.passed.get(self.ctx, action) is Passed:  # passed already at this moment: nothing to check again
            self.ctx.passed.put(self.ctx, action, plan_fire_and_wedges(self.ctx, action))

    def passed(self, action: Fire) -> tuple[list[FireOrder], list[WedgeFire]] | None:
        """What ``plan_fire_and_wedges`` gave for ``action`` when it was checked here and passed, on the state as
        it still is; else None."""
        found = self.ctx.passed.get(self.ctx, action)
        return None if found is Passed else cast(tuple[list[FireOrder], list[WedgeFire]], found)

    def targets(self) -> list[str]:
        """The enemy units some man of this unit can fire at."""
        ctx = self.ctx
        table = shot_table(ctx)
        out: set[str] = set()
        for f in M.living(ctx, self.unit):
            for target, shot in table.get(f.id, {}).items():
                if isinstance(shot, FireOrder):
                    out.add(ctx.state.figures[target].unit)
        return sorted(out)

    def gunners(self) -> list[Figure]:
        """The unit's men who may fire a wedge now: MGs and flame throwers not in a river or pond (skirmish.16)."""
        ctx = self.ctx
        return [
            f
            for f in M.living(ctx, self.unit)
            if ctx.tables.fires_wedge(M.weapon_of(ctx, f)) and can_fire(ctx, f) is None
        ]

    def sample(self, rng: np.random.Generator) -> Fire:
        """A candidate at random; half the time its MGs and flame throwers get wedges at random headings."""
        options = self.candidates()
        choice = options[int(rng.integers(len(options)))]
        gunners = self.gunners()
        if gunners and rng.random() < 0.5:
            wedges = tuple(WedgeOrder(f.id, snap_angle(float(rng.uniform(-180.0, 180.0)))) for f in gunners)
            for target in (choice.target, None):  # the wedges alone may miss the unit the order names
                aimed = Fire(self.unit, target, choice.orders, wedges)
                if self.contains(aimed):
                    return aimed
        return choice

    def candidates(self, k: int = 16) -> list[Fire]:
        out = [Fire(self.unit, t) for t in self.targets()]
        out.append(Fire(self.unit, None))
        return out[:k]


def can_fire(ctx: Context, f: Figure, terrain: Terrain | None = None) -> tuple[str, str] | None:
    """Why ``f`` may not fire now (rule, why), or None (skirmish.47, 52, 12 and 16 for part 3's weapons);
    ``terrain``: ``ctx.terrain``, where the caller has it already."""
    if not f.alive or not f.on_table:
        return ("skirmish.30", f"{f.id} is not on the table")
    if M.just_dropped(ctx, f.unit):
        return ("skirmish.26", f"{f.id} came down by parachute this move: he acts from the next")
    if f.aboard is not None:
        v = ctx.state.vehicles[f.aboard]
        driver = M.driver(ctx, v)
        if driver is not None and driver.id == f.id:
            if "mg" in v.weapons and M.gunner(ctx, v) is None:
                return ("skirmish.60", f"{f.id} drives {v.id}: its MG needs a man besides the driver")
            return ("skirmish.57", f"{f.id} drives {v.id} and does not fire")
    if f.on_ladder is not None:
        return ("skirmish.79", f"{f.id} is on ladder {f.on_ladder}: men on a ladder do not fire")
    if f.aboard is not None:
        v = ctx.state.vehicles[f.aboard]
        gun = M.tank_gun(ctx, v)
        if gun is not None and M.manned(ctx, v).get(gun) == f:
            return ("skirmish.31", f"{f.id} lays {v.id}'s {gun.replace('_', ' ')}: give it a burst order")
    weapon = M.weapon_of(ctx, f)
    kind = ctx.tables.attack(weapon)
    if kind in TEMPLATE_ATTACKS:
        return ("skirmish.12", f"{f.id}'s {weapon} fires a burst template: give it a burst order")
    if kind not in FIRES_IN_PART_1 and kind not in WEDGE_ATTACKS:
        return ("skirmish.16", f"{f.id}'s {weapon} has no way to fire in these tables")
    serves = M.serving(ctx, f)
    if serves is not None:
        return ("skirmish.31", f"{f.id} serves piece {serves} and fires it, not his {weapon}")
    terrain = ctx.terrain if terrain is None else terrain
    if f.aboard is not None:
        return None  # he rides: the river or pond is the vehicle's (skirmish.49, 50)
    if terrain.in_river(f.x, f.y):
        return ("skirmish.47", f"{f.id} is in the river and cannot fire")
    if terrain.in_pond(f.x, f.y):
        return ("skirmish.52", f"{f.id} is swimming and cannot fire")
    return None


def shot_at(ctx: Context, shooter: Figure, target: Figure) -> FireOrder | tuple[str, str]:
    """The shot ``shooter`` would fire at ``target`` now, or why not (rule, why) (skirmish.11, 24, 30-34)."""
    terrain = ctx.terrain
    opened = frozenset(M.open_doors(ctx))
    return _shot(ctx, terrain, ctx.sight_memo(terrain), opened, shooter, M.weapon_of(ctx, shooter), target)


def _shot(
    ctx: Context,
    terrain: Terrain,
    memo: dict[Any, Any],
    opened: frozenset[str],
    shooter: Figure,
    weapon: str,
    target: Figure,
) -> FireOrder | tuple[str, str]:
    """:func:`shot_at` with what it looks up passed in: the terrain now, its sight memo, the open doors and
    the shooter's weapon (``shot_table`` works them out once for all its pairs)."""
    if target.side == shooter.side:
        return ("skirmish.30", f"{target.id} is on the same side")
    if not target.alive or not target.on_table:
        return ("skirmish.30", f"{target.id} is not on the table")
    a, b = (shooter.x, shooter.y), (target.x, target.y)
    key = ("sight", a, b, opened)
    blocked = memo.get(key, memo)
    if blocked is memo:
        SG.fill_sight(terrain, memo, [(a, b)], opened)
        blocked = memo[key]
    if blocked is not None:
        return ("skirmish.11", f"{shooter.id} cannot see {target.id}: {blocked} is in the way")
    distance = SG.effective_range(terrain, memo, a, b)
    tables = ctx.tables
    band = tables.band_index(weapon, distance)
    if band is None:
        reach = tables.max_range(weapon)
        return ("skirmish.24", f'{target.id} is {distance:.2f}" away, beyond the {weapon}\'s {reach:g}"')
    attack = tables.attack(weapon)
    covered = SG.cover(terrain, memo, a, b, attack)
    six = six_hits_in_cover(ctx.state.options)
    _, hit_on, shift = R.shot_numbers(tables, weapon, target.type, distance, covered is not None, six)
    return FireOrder(shooter.id, target.id, attack, band, hit_on, shift, covered is not None, round(distance, 2))


def shot_table(ctx: Context) -> dict[str, dict[str, FireOrder | tuple[str, str]]]:
    """Every man's possible shots now: shooter -> target -> FireOrder or (rule, why). Cached until a change
    (and read once while the state stands still, ``Context.still``)."""
    return cast(ShotTable, ctx.keep("shots", lambda: _shot_table(ctx)))


def shooters(ctx: Context) -> frozenset[str]:
    """The men with a shot at someone in ``shot_table`` now (worked out once for each table)."""
    table = shot_table(ctx)
    firing = ctx.firing
    if firing is None or firing[0] is not table:
        men = frozenset(f for f, row in table.items() if any(isinstance(o, FireOrder) for o in row.values()))
        firing = ctx.firing = (table, men)
    return firing[1]


_PLACE = operator.attrgetter("x", "y", "alive", "on_table")  # what of a man the table depends on, besides his kit
ROW_MARKS = 4096  # the most targets' places a shooter's kept shots hold (``_shot_table``) before starting afresh


def _table_key(ctx: Context) -> tuple[Any, ...]:
    """What a shot table is a function of, read from the state: the same key, the same table."""
    s = ctx.state
    return (
        s.turn,
        s.phase,
        tuple(map(_PLACE, s.figures.values())),
        tuple(d.open for d in s.doors.values()),
        s.wires,
        s.traps,
        tuple(tuple(p) for p in s.sections.values()),
        tuple((b.built, b.points) for b in s.bridges.values()),
        tuple(p.crew for p in s.pieces.values()),
        ctx.moving_key(),
    )


def _shot_table(ctx: Context) -> ShotTable:
    key = _table_key(ctx)
    if ctx.shot_cache is not None and ctx.shot_cache[0] == key:
        return ctx.shot_cache[1]
    s = ctx.state
    table: dict[str, dict[str, FireOrder | tuple[str, str]]] = {}
    targets = [f for f in s.figures.values() if f.alive and f.on_table]
    terrain = ctx.terrain
    memo = ctx.sight_memo(terrain)
    opened = frozenset(M.open_doors(ctx))
    climb = 2 * max((h.height for h in terrain.hills), default=0)
    # each pair's shot is a pure function of the terrain object, the doors open, the two men (their places, the
    # shooter's weapon, the target's type) and the option cover_six: kept in the terrain's memo, a dict for each
    # shooter's place and kit by each target's mark, so a pair of men neither of whom moved since the last table
    # (this game's or another's on this terrain) is looked up
    six = six_hits_in_cover(s.options)
    marked = [(t, (t.id, t.type, t.x, t.y)) for t in targets]
    missing: list[tuple[dict[Any, Any], Any, Figure, str, Figure]] = []  # (kept shots, mark, shooter, weapon, target)
    for shooter in targets:
        row: dict[str, FireOrder | tuple[str, str]] = {}
        table[shooter.id] = row
        if can_fire(ctx, shooter, terrain) is not None:
            continue
        weapon = M.weapon_of(ctx, shooter)
        far = (ctx.tables.max_range(weapon) + climb) * 2 + 1
        sid, sx, sy, side = shooter.id, shooter.x, shooter.y, shooter.side
        kept = memo.get(("shots", sid, weapon, sx, sy, opened, six))
        if kept is None or len(kept) > ROW_MARKS:
            kept = memo[("shots", sid, weapon, sx, sy, opened, six)] = {}
        for t, mark in marked:
            if t.side == side or math.hypot(t.x - sx, t.y - sy) > far:
                continue
            shot = kept.get(mark)
            if shot is None:
                missing.append((kept, mark, shooter, weapon, t))
                row[t.id] = ("", "")  # its place in the row, in the targets' order; worked out below
            else:
                row[t.id] = shot
    if missing:
        SG.fill_sight(terrain, memo, (((f.x, f.y), (t.x, t.y)) for _, _, f, _, t in missing), opened)
        for kept, mark, f, weapon, t in missing:
            table[f.id][t.id] = kept[mark] = _shot(ctx, terrain, memo, opened, f, weapon, t)
    ctx.shot_cache = (key, table)
    return table


def wedge(ctx: Context, gunner: Figure, heading: float) -> tuple[WedgeFire, list[FireOrder]]:
    """``gunner``'s wedge at ``heading`` (degrees, 0 east, 90 north) and one shot at each man it fires on.

    The wedge (skirmish.16) is ``wedge.angle`` degrees wide and as long as
    the weapon's last band, adjusted for each man's height as his range is
    (``rules.wedge_length``). Every living man on the table but the gunner,
    friend or foe, whose base is inside or touches it and whom the gunner can
    see gets one die of the weapon's effect for his range band (a man whose
    base reaches past the last band, the last band's), less one where the
    cover table covers him against this attack (nothing does against flame
    throwers, skirmish.33-34). Men under it out of sight are listed, not fired on.
    The weapon is the one the gunner fires (``weapon_of``): a vehicle's MG
    fires from the vehicle's centre, and not on the men aboard it (skirmish.60).
    """
    return wedges(ctx, gunner, [heading])[0]


def wedges(ctx: Context, gunner: Figure, headings: Sequence[float]) -> list[tuple[WedgeFire, list[FireOrder]]]:
    """:func:`wedge` at each of ``headings`` (degrees), in order; the men who could be under any of them are
    found once (the doctrine weighs many headings of one gunner's wedge)."""
    weapon = M.weapon_of(ctx, gunner)
    angle = ctx.tables.wedge.angle.value
    reach = ctx.tables.max_range(weapon)
    apex = (gunner.x, gunner.y)
    men, dice, rows = wedge_rows(ctx, gunner, headings)
    out: list[tuple[WedgeFire, list[FireOrder]]] = []
    for heading, row in zip(headings, rows, strict=True):
        record = WedgeFire(gunner.id, gunner.unit, weapon, apex, snap_angle(heading), angle, reach, ctx.state.turn)
        shots: list[FireOrder] = []
        for k in row:
            die = dice[k]
            if die is None:
                record.unseen.append(men[k].id)
                continue
            shots.append(FireOrder(*die))  # each wedge its own
            record.men.append(men[k].id)
        out.append((record, shots))
    return out


def wedge_rows(
    ctx: Context, gunner: Figure, headings: Sequence[float]
) -> tuple[list[Figure], list[tuple[Any, ...] | None], list[list[int]]]:
    """The men who could be under a wedge of ``gunner`` at any of ``headings``; the die each man under one
    would get (``FireOrder``'s fields; None: out of sight; worked out only for the men under one); and for
    each heading, the men under its wedge (``rules.under_wedge``), by their place in that list, in order.
    While the state stands still (``Context.keep_for``) the men within reach and their wedge lengths, and each
    man's die, are worked out once for the gunner (the doctrine weighs his headings, the check fires one)."""
    terrain = ctx.terrain
    weapon = M.weapon_of(ctx, gunner)
    angle = ctx.tables.wedge.angle.value
    reach = ctx.tables.max_range(weapon)
    base = ctx.tables.sight.base.value
    apex = (gunner.x, gunner.y)
    men, lengths = ctx.keep_for("wedge men", (gunner.id, weapon), lambda: _wedge_men(ctx, gunner, weapon))
    if len(headings) > 1:  # a man past the wedge's length for his height is under none (rules.under_wedge's test)
        keep = [_within_length(apex, (f.x, f.y), length, base) for f, length in zip(men, lengths, strict=True)]
        men = list(itertools.compress(men, keep))
        lengths = list(itertools.compress(lengths, keep))
    where = np.array([(f.x, f.y) for f in men], dtype=float).reshape(-1, 2)
    reaches = np.array(lengths, dtype=float)
    snapped = [snap_angle(heading) for heading in headings]
    column = np.array(snapped, dtype=float).reshape(-1, 1)  # every heading (rows) against every man (columns)
    near = ~surely_aside(apex, column, angle, where, base).reshape(len(snapped), len(men))
    under = near & surely_under(apex, column, angle, where, reaches, base).reshape(len(snapped), len(men))
    for h, k in zip(*(near & ~under).nonzero(), strict=True):  # neither surely aside nor surely under: the rule
        f = men[k]
        under[h, k] = R.under_wedge(terrain, apex, snapped[h], angle, reach, (f.x, f.y), base)
    rows: list[list[int]] = [[] for _ in snapped]
    for h, k in zip(*under.nonzero(), strict=True):  # in order: by heading, then by man
        rows[h].append(k)
    dice: list[tuple[Any, ...] | None] = [None] * len(men)  # a man's die, the same whatever the heading
    seen = (frozenset(M.open_doors(ctx)), six_hits_in_cover(ctx.state.options))
    hit = under.any(axis=0).nonzero()[0].tolist()
    SG.fill_sight(terrain, ctx.sight_memo(terrain), [(apex, (men[k].x, men[k].y)) for k in hit], seen[0])  # at once
    for k in hit:
        die = functools.partial(_die_if_seen, ctx, gunner, men[k], weapon, *seen)
        dice[k] = ctx.keep_for("wedge die", (gunner.id, weapon, men[k].id), die)
    return men, dice, rows


def _wedge_men(ctx: Context, gunner: Figure, weapon: str) -> tuple[list[Figure], list[float]]:
    """The living men on the table, by id, whom ``gunner``'s wedge could reach at some heading (within its
    longest length, downhill, and a base), but the men aboard his own vehicle (the vehicle's MG fires out of it,
    not into the men it carries: skirmish.60 reading); and each one's wedge length (``rules.wedge_length``)."""
    tables, terrain = ctx.tables, ctx.terrain
    reach = tables.max_range(weapon)
    base = tables.sight.base.value
    apex = (gunner.x, gunner.y)
    longest = reach + max((h.height for h in terrain.hills), default=0.0) * tables.hills.range_downhill_per_inch.value
    men = [
        f
        for f in sorted(ctx.state.figures.values(), key=lambda g: g.id)
        if f.id != gunner.id
        and f.alive
        and f.on_table
        and not (gunner.aboard is not None and f.aboard == gunner.aboard)
        and math.hypot(f.x - apex[0], f.y - apex[1]) <= longest + base
    ]
    return men, [R.wedge_length(terrain, apex, (f.x, f.y), reach) for f in men]  # whatever the heading


def _die_if_seen(
    ctx: Context, gunner: Figure, f: Figure, weapon: str, opened: frozenset[str], six: bool
) -> tuple[Any, ...] | None:
    """The die ``gunner``'s wedge throws at ``f`` (``_wedge_die``), or None when he is out of sight (the doors
    ``opened``)."""
    terrain = ctx.terrain
    memo = ctx.sight_memo(terrain)
    key = ("sight", (gunner.x, gunner.y), (f.x, f.y), opened)
    if key not in memo:
        SG.fill_sight(terrain, memo, [((gunner.x, gunner.y), (f.x, f.y))], opened)
    return None if memo[key] is not None else _wedge_die(ctx, terrain, memo, gunner, f, weapon, six)


def _within_length(apex: XY, at: XY, length: float, base: float) -> bool:
    """``rules.under_wedge``'s tests that do not turn with the wedge, as it makes them: a man at ``at`` farther
    from ``apex`` than the wedge's ``length`` for his height (``rules.wedge_length``; by more than touching),
    or with no wedge at all there, is under it at no heading."""
    touch = base / 2 + TOLERANCE
    return length > TOLERANCE and not math.hypot(at[0] - apex[0], at[1] - apex[1]) > length + touch


def surely_under(
    apex: XY, heading: float | np.ndarray, angle: float, xy: np.ndarray, lengths: np.ndarray, base: float
) -> np.ndarray:
    """For men at the points ``xy`` (n x 2, inches) with the wedge's ``lengths`` for their heights
    (``rules.wedge_length``): True where ``rules.under_wedge`` surely answers True: within the wedge's angle
    and its length for him (or touching its arc), there being a wedge there at all; worked out over arrays,
    with margins (1e-6 degree, 1e-6") far wider than numpy's rounding differs from math's. False for every
    other man: he goes through ``under_wedge`` itself. ``heading``: one, or a column of them (a row for each)."""
    touch = base / 2 + TOLERANCE
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    if len(xy) == 0:
        return np.zeros(np.broadcast_shapes(np.shape(heading), (0,)), dtype=bool)
    dx, dy = xy[:, 0] - apex[0], xy[:, 1] - apex[1]
    d = np.hypot(dx, dy)
    off = np.abs(np.remainder(np.degrees(np.arctan2(dy, dx)) - heading + 180.0, 360.0) - 180.0)
    length = np.asarray(lengths, dtype=float)
    return np.asarray((off < angle / 2 - 1e-6) & (length > TOLERANCE) & (d < length + touch - 1e-6), dtype=bool)


def _wedge_die(
    ctx: Context, terrain: Terrain, memo: dict[Any, Any], gunner: Figure, f: Figure, weapon: str, six: bool
) -> tuple[Any, ...]:
    """The die ``gunner``'s wedge throws at ``f``, who is under it and in his sight (``wedges``): its
    ``FireOrder``'s fields, in order."""
    tables = ctx.tables
    apex, at = (gunner.x, gunner.y), (f.x, f.y)
    bands = tables.weapons[weapon].bands
    attack = tables.attack(weapon)
    distance = SG.effective_range(terrain, memo, apex, at)
    band = tables.band_index(weapon, distance)
    band = len(bands) - 1 if band is None else band
    covered = SG.cover(terrain, memo, apex, at, attack) is not None
    type_shift = tables.men[f.type].hit_shift
    shift = type_shift + R.cover_shift(covered, bands[band].hit_on, type_shift, six)
    return (gunner.id, f.id, attack, band, bands[band].hit_on, shift, covered, round(distance, 2))


def surely_aside(apex: XY, heading: float | np.ndarray, angle: float, xy: np.ndarray, base: float) -> np.ndarray:
    """For men at the points ``xy`` (n x 2, inches): True where ``rules.under_wedge`` surely answers False at its
    first test (out of the wedge's angle, and farther than half a base from both its edges' rays), worked out
    over arrays; the margins (1e-6 degree, 1e-5") are far wider than numpy's rounding differs from math's.
    False for every other man: he goes through ``under_wedge`` itself. ``heading``: one, or a column of them
    (a row for each)."""
    touch = base / 2 + TOLERANCE
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    if angle > 180.0 or len(xy) == 0:
        return np.zeros(np.broadcast_shapes(np.shape(heading), (len(xy),)), dtype=bool)
    dx, dy = xy[:, 0] - apex[0], xy[:, 1] - apex[1]
    d = np.hypot(dx, dy)
    off = np.abs(np.remainder(np.degrees(np.arctan2(dy, dx)) - heading + 180.0, 360.0) - 180.0)
    aside = off - angle / 2
    gap = np.where(aside < 90.0, d * np.sin(np.radians(np.minimum(aside, 90.0))), d)
    return np.asarray((aside > 1e-6) & (d > touch + 1e-9) & (gap > touch + 1e-5), dtype=bool)


def _check_wedges(ctx: Context, action: Fire, ids: set[str], orders: Mapping[str, str]) -> dict[str, float]:
    """Each wedge order's heading (degrees); raises IllegalAction for a bad one (skirmish.16, 30)."""
    s = ctx.state
    out: dict[str, float] = {}
    for w in action.wedges:
        if w.figure not in ids:
            raise IllegalAction(f"{action}: {w.figure} is not a living man of {action.unit}", "skirmish.30")
        if w.figure in orders or w.figure in out:
            raise IllegalAction(f"{action}: {w.figure} is given two targets", "skirmish.30")
        f = s.figures[w.figure]
        why = can_fire(ctx, f)  # first: a driver or a man in a river fires nothing at all
        if why is not None:
            raise IllegalAction(f"{action}: {why[1]}", why[0])
        weapon = M.weapon_of(ctx, f)
        if not ctx.tables.fires_wedge(weapon):
            raise IllegalAction(
                f"{action}: {f.id}'s {weapon.replace('_', ' ')} fires no wedge (MGs and flame throwers do)",
                "skirmish.16",
            )
        if (w.heading is None) == (w.at is None):
            raise IllegalAction(f"{action}: {f.id}'s wedge needs a heading or a point to aim at", "skirmish.16")
        if w.heading is not None:
            if not math.isfinite(w.heading):
                raise IllegalAction(f"{action}: {w.heading!r} is not a heading in degrees", "skirmish.16")
            out[f.id] = snap_angle(w.heading)
            continue
        assert w.at is not None
        if math.hypot(w.at[0] - f.x, w.at[1] - f.y) <= TOLERANCE:
            raise IllegalAction(
                f"{action}: {f.id}'s wedge is aimed at his own place ({f.x:g}, {f.y:g}): no heading", "skirmish.16"
            )
        out[f.id] = R.bearing((f.x, f.y), w.at)
    return out


def plan_fire(ctx: Context, action: Fire) -> list[FireOrder]:
    """The shots of ``action``, one per man who fires and one per man under a wedge; raises IllegalAction
    (skirmish.4, 11, 16, 24, 30)."""
    return plan_fire_and_wedges(ctx, action)[0]


def plan_fire_and_wedges(ctx: Context, action: Fire) -> tuple[list[FireOrder], list[WedgeFire]]:
    """The shots of ``action`` and the wedges its MGs and flame throwers fire; raises IllegalAction.

    A man with a wedge weapon fires his wedge at his order's heading or
    point; without one, at the man of his target he would have fired at
    (the bearing to him). Wedge shots count in the spread of the unit's
    fire like any others (skirmish.16, 30).
    """
    s = ctx.state
    unit = M.unit(ctx, action.unit)
    men = M.living(ctx, action.unit)
    ids = {f.id for f in men}
    table = shot_table(ctx)
    orders = dict(action.orders)
    for fid in orders:
        if fid not in ids:
            raise IllegalAction(f"{action}: {fid} is not a living man of {unit.id}", "skirmish.30")
    if action.target is not None:
        target_unit = s.units.get(action.target)
        if target_unit is None or target_unit.side == unit.side:
            raise IllegalAction(f"{action}: {action.target} is not an enemy unit", "skirmish.30")
    headings = _check_wedges(ctx, action, ids, orders)
    terrain = ctx.terrain  # read once, not once a man (it reads the state's structures to know it is the same)
    shots: list[FireOrder] = []
    wedges: list[WedgeFire] = []
    load: dict[str, int] = {}

    def fire_wedge(f: Figure, heading: float) -> None:
        record, hits = wedge(ctx, f, heading)
        wedges.append(record)
        shots.extend(hits)
        for o in hits:
            load[o.target] = load.get(o.target, 0) + 1

    for f in men:
        if f.id in headings:
            fire_wedge(f, headings[f.id])
            continue
        aim = orders.get(f.id, action.target)
        if aim is None or aim == "hold":
            continue
        explicit = f.id in orders
        why = can_fire(ctx, f, terrain)
        if why is not None:
            if explicit:
                raise IllegalAction(f"{action}: {why[1]}", why[0])
            continue
        row = table.get(f.id, {})
        if "." in aim:
            target = s.figures.get(aim)
            if target is None:
                raise IllegalAction(f"{action}: no figure {aim}", "skirmish.30")
            shot = row.get(aim) or shot_at(ctx, f, target)
            if not isinstance(shot, FireOrder):
                raise IllegalAction(f"{action}: {shot[1]}", shot[0])
        else:
            target_unit = s.units.get(aim)
            if target_unit is None or target_unit.side == unit.side:
                raise IllegalAction(f"{action}: {aim} is not an enemy unit", "skirmish.30")
            choices = [row.get(t) for t in target_unit.figures]
            possible = [c for c in choices if isinstance(c, FireOrder)]
            if not possible:
                if explicit:
                    reasons = [c for c in choices if isinstance(c, tuple)]
                    rule, why_not = reasons[0] if reasons else ("skirmish.30", f"no man of {aim} is on the table")
                    raise IllegalAction(f"{action}: {f.id} cannot fire at {aim}: {why_not}", rule)
                continue
            shot = min(possible, key=lambda o: (load.get(o.target, 0), o.range, o.target))
        if ctx.tables.fires_wedge(M.weapon_of(ctx, f)):
            aimed = s.figures[shot.target]
            fire_wedge(f, R.bearing((f.x, f.y), (aimed.x, aimed.y)))
            continue
        shots.append(shot)
        load[shot.target] = load.get(shot.target, 0) + 1
    if action.target is not None and not any(o.target in s.units[action.target].figures for o in shots):
        reasons = [
            o for f in men for t in s.units[action.target].figures if isinstance(o := table.get(f.id, {}).get(t), tuple)
        ]
        rule, why_not = reasons[0] if reasons else ("skirmish.30", f"no man of {unit.id} can fire at {action.target}")
        raise IllegalAction(f"{action}: no man of {unit.id} can fire at {action.target} ({why_not})", rule)
    return shots, wedges


def fire_order(ctx: Context, action: Fire, checked: tuple[list[FireOrder], list[WedgeFire]] | None = None) -> None:
    """Record ``action``'s shots and wedges; ``checked``: what ``plan_fire_and_wedges`` gave for it on this very
    state (else it is worked out)."""
    shots, wedges = plan_fire_and_wedges(ctx, action) if checked is None else checked
    s = ctx.state
    s.fire[action.unit] = shots
    s.wedges.extend(wedges)
    for w in wedges:
        side = s.units[action.unit].side
        ctx.emit(
            "wedge",
            unit=action.unit,
            gunner=w.gunner,
            weapon=w.weapon,
            at=list(w.at),
            heading=w.heading,
            angle=w.angle,
            reach=w.reach,
            men=list(w.men),
            friends=[m for m in w.men if s.figures[m].side == side],
            unseen=list(w.unseen),
        )
    if shots or wedges:
        targets = sorted({o.target for o in shots})
        ctx.emit(
            "fire_order",
            unit=action.unit,
            men=len({o.shooter for o in shots} | {w.gunner for w in wedges}),
            dice=len(shots),
            targets=targets,
        )
    else:
        ctx.emit("holds_fire", unit=action.unit)


def fired_this_turn(ctx: Context) -> set[str]:
    """The men who fire in this turn's fire phase: a shot of a fire order, a wedge, or a burst order of his
    own (a mortar or bazooka); read from the orders before they are resolved (skirmish.39: men firing from
    doors and windows)."""
    s = ctx.state
    out = {o.shooter for shots in s.fire.values() for o in shots}
    out |= {w.gunner for w in s.wedges if w.turn == s.turn}
    out |= {by for by in s.bursts if by in s.figures}
    return out


def resolve_fire(ctx: Context) -> None:
    """All fire at once: every die rolled, then hits counted and survival rolled (skirmish.4-7, S0, S5)."""
    s = ctx.state
    new_hits: dict[str, int] = {}
    attack_of: dict[str, str] = {}
    for unit_id, shots in sorted(s.fire.items()):
        side = s.units[unit_id].side
        groups: dict[tuple[str, int, int, bool, int], list[float]] = {}
        for o in shots:
            groups.setdefault((o.target, o.hit_on, o.shift, o.cover, o.band), []).append(o.range)
        for (target, hit_on, shift, covered, band), ranges in groups.items():
            n = len(ranges)
            mechanic = MX.Shots(n, hit_on, shift)
            span = f"{min(ranges):g}" if min(ranges) == max(ranges) else f"{min(ranges):g}-{max(ranges):g}"
            purpose = (
                f'{unit_id} fires {n} {"die" if n == 1 else "dice"} at {target}: {span}" '
                f"(band {band + 1}), hits on {hit_on}+"
                + (f", die {shift:+d}" if shift else "")
                + (" (cover)" if covered else "")
            )
            hits = mechanic.roll(ctx, purpose)
            s.stats["shots"][side] += n
            s.stats["hits"][side] += hits
            ctx.emit("shots", unit=unit_id, target=target, dice=n, hit_on=hit_on, shift=shift, cover=covered, hits=hits)
            if hits:
                new_hits[target] = new_hits.get(target, 0) + hits
                attack_of[target] = next(o.attack for o in shots if o.target == target)
    fired = fired_this_turn(ctx)
    s.fire = {}
    AR.resolve_bursts(ctx, new_hits, attack_of, fired)
    for fid in sorted(new_hits):
        f = s.figures[fid]
        if not f.alive:  # a section the shells brought down fell on him first (skirmish.18)
            continue
        f.hits += new_hits[fid]
        if f.hits >= 2:
            M.kill(ctx, f, f"hit {f.hits} times this turn")
            continue
        if f.wounds and wounds_last(s.options):  # the option wounds = last (RULINGS S5 read the other way)
            M.kill(ctx, f, "hit again with a flesh wound (option wounds = last)")
            continue
        survive = ctx.tables.survive_on(attack_of[fid])
        if MX.Survival(survive).roll(ctx, f"{fid} is hit: survives on {survive}+"):
            f.wounds += 1
            s.stats["wounds"][f.side] += 1
            ctx.emit("wounded", figure=fid)
        else:
            M.kill(ctx, f, "failed his survival roll")
