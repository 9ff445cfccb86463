"""The skirmish doctrine bot's fire: what each enemy man is worth, the chance a die kills, where MGs and
flame throwers keep their wedges, which unit each unit fires at, and where burst templates go (the move,
melee and drive doctrine is ``bots``).

Fire: each unit fires at the enemy unit where its men's dice are worth the
most: the chance each man kills (hit, then a failed survival roll) times the
value of his target (a MG gunner 3, a SMG 1.5, a rifle 1, a pistol 0.8;
officers half as much again). Each MG gunner and flame thrower keeps his wedge
(skirmish.16) on the approaches: the heading whose wedge is worth the most now
(the same worth summed over the enemy men under it, less twice the worth of our
own men under it), tried along the bearing of each enemy he can fire on, with
each edge of the wedge on him, and between neighbours; when no wedge is worth
anything, the approach the enemy will come by (the bearing of the nearest enemy,
seen or not, else of the enemy's table edge), unless our own men stand under it,
when he holds.

Burst templates (pieces, mortars, bazookas): each lays its template where it
puts the most enemy value under it and none of its own men: it tries every
template shape of its class, turned in steps of 45 degrees, landing on each
enemy man and on the midpoint of each two enemy men closer than the template
is wide; of the legal placements it takes the best (on a tie the first found),
and holds fire when no placement catches an enemy without one of its own men.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import shapely

from grognard.core.geometry import TOLERANCE, snap, snap_angle
from grognard.rulesets.skirmish import aiming as AI
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.actions import Burst, Fire, WedgeOrder
from grognard.rulesets.skirmish.artillery import BurstSpace
from grognard.rulesets.skirmish.context import XY, Context
from grognard.rulesets.skirmish.fire import FireSpace
from grognard.rulesets.skirmish.state import Figure, FireOrder

WEAPON_VALUE = {"mg": 3.0, "smg": 1.5, "rifle": 1.0, "pistol": 0.8}  # the doctrine's "most valuable target"
NEAR_BEST = 0.75  # a burst placement worth this share of the best is as good a choice (doctrine "no fixed plan")
TYPE_VALUE = {"officer": 1.5, "cavalry": 1.2}


def figure_value(figure: Figure) -> float:
    """How much the doctrine bots want a figure dead: by weapon, more for officers and cavalry."""
    return WEAPON_VALUE.get(figure.weapon, 2.0) * TYPE_VALUE.get(figure.type, 1.0)


def kill_chance(ctx: Context, shot: FireOrder) -> float:
    """The chance one die kills: it hits, and the man fails his survival roll."""
    return _kill_chance(shot.shift, shot.hit_on, ctx.tables.survive_on(shot.attack))


@functools.lru_cache(maxsize=256)  # kept: a handful of (shift, hit on, survive on) in any game
def _kill_chance(shift: int, hit_on: int, survive_on: int) -> float:
    hit = sum(1 for face in range(1, 7) if face + shift >= hit_on) / 6
    survive = sum(1 for face in range(1, 7) if face >= survive_on) / 6
    return hit * (1 - survive)


EDGE_BEARING = {"south": -90.0, "north": 90.0, "west": 180.0, "east": 0.0}
FRIEND_WEIGHT = 2.0  # our own man under a wedge counts against it twice his worth


def wedge_worth(ctx: Context, gunner: Figure, heading: float) -> float:
    """What ``gunner``'s wedge at ``heading`` is worth: enemy men's kill chance x value, less our own twice over."""
    return _worth(ctx, gunner, FI.wedge(ctx, gunner, heading)[1])


def _worth(ctx: Context, gunner: Figure, shots: list[FireOrder]) -> float:
    """``wedge_worth`` of the wedge that fires ``shots``."""
    total = 0.0
    for o in shots:
        man = ctx.state.figures[o.target]
        value = kill_chance(ctx, o) * figure_value(man)
        total += value if man.side != gunner.side else -FRIEND_WEIGHT * value
    return total


def approach(ctx: Context, gunner: Figure) -> float:
    """The heading the enemy will come by: toward the nearest enemy (seen or not), else his table edge."""
    foes = M.enemies(ctx, gunner.side)
    if foes:
        near = min(foes, key=lambda e: (math.hypot(e.x - gunner.x, e.y - gunner.y), e.id))
        return R.bearing((gunner.x, gunner.y), (near.x, near.y))
    edge = next(s.edge for s in ctx.scenario.spec.sides if s.id != gunner.side)
    return EDGE_BEARING[edge]


def wedge_heading(ctx: Context, gunner: Figure) -> float:
    """The doctrine's heading (degrees) for ``gunner``'s wedge: the most worth now, else the approach."""
    return _heading_and_worth(ctx, gunner)[0]


def _heading_and_worth(ctx: Context, gunner: Figure) -> tuple[float, float | None]:
    """``wedge_heading`` and its wedge's worth (``wedge_worth``) when it was worked out on the way (else None)."""
    apex = (gunner.x, gunner.y)
    half = ctx.tables.wedge.angle.value / 2
    row = FI.shot_table(ctx).get(gunner.id, {})
    seen = sorted(
        {
            R.bearing(apex, (ctx.state.figures[t].x, ctx.state.figures[t].y))
            for t, o in row.items()
            if isinstance(o, FireOrder)
        }
    )
    tries: set[float] = set()
    for b in seen:
        tries |= {b, snap_angle(b - half + 0.5), snap_angle(b + half - 0.5)}
    for a, b in itertools.pairwise([*seen, *(s + 360.0 for s in seen[:1])]):
        if b - a <= 2 * half:
            tries.add(snap_angle((a + b) / 2))
    if tries:
        headings = sorted(tries)
        _, dice, rows = FI.wedge_rows(ctx, gunner, headings)
        # each man's share of ``_worth``, whatever the heading (his die is), added in the same order
        shares = [0.0 if die is None else _worth(ctx, gunner, [FireOrder(*die)]) for die in dice]
        sighted = [die is not None for die in dice]
        worth: dict[float, float] = {}
        for h, under in zip(headings, rows, strict=True):
            total = 0.0
            for k in under:
                if sighted[k]:
                    total += shares[k]
            worth[h] = total
        best = max(worth, key=lambda h: worth[h])
        if worth[best] > 0:
            return best, worth[best]
    return approach(ctx, gunner), None


def fire_order(ctx: Context, unit: str) -> Fire:
    """The doctrine's fire order for ``unit``: the enemy unit its dice are worth most against (or hold), and a
    wedge heading for each of its MGs and flame throwers (``wedge_heading``)."""
    order = _target_order(ctx, unit)
    wedges: list[WedgeOrder] = []
    holds: list[tuple[str, str]] = []
    for gunner in FireSpace(ctx, unit).gunners():
        heading, worth = _heading_and_worth(ctx, gunner)
        if (wedge_worth(ctx, gunner, heading) if worth is None else worth) < 0:
            holds.append((gunner.id, "hold"))  # our own men stand under the approach
        else:
            wedges.append(WedgeOrder(gunner.id, heading))
    if not wedges and not holds:
        return order
    aimed = Fire(unit, order.target, tuple(holds), tuple(wedges))
    return aimed if FireSpace(ctx, unit).contains(aimed) else order


def _target_order(ctx: Context, unit: str) -> Fire:
    """The enemy unit the unit's dice are worth most against, or hold."""
    worth = target_worth(ctx, unit)
    if not worth:
        return Fire(unit, None)
    target = max(sorted(worth), key=lambda u: worth[u])
    return Fire(unit, target)


def target_worth(ctx: Context, unit: str) -> dict[str, float]:
    """What ``unit``'s dice are worth against each enemy unit it may fire at: for each of its men, his best
    shot's kill chance times the target man's value (``figure_value``), summed over the men."""
    table = FI.shot_table(ctx)
    worth: dict[str, float] = {}
    for f in M.living(ctx, unit):
        best: dict[str, float] = {}
        for target, shot in table.get(f.id, {}).items():
            if isinstance(shot, FireOrder):
                aim = ctx.state.figures[target]
                value = kill_chance(ctx, shot) * figure_value(aim)
                best[aim.unit] = max(best.get(aim.unit, 0.0), value)
        for target_unit, value in best.items():
            worth[target_unit] = worth.get(target_unit, 0.0) + value
    return worth


def burst_order(ctx: Context, space: BurstSpace, rng: np.random.Generator | None = None) -> Burst:
    """The doctrine's burst order: the legal placement with the most enemy value under the template and
    none of its own men (see the module's docstring), or hold fire; with ``rng`` (the bot's stream), the
    placements worth at least ``NEAR_BEST`` of the best are tried first in an order drawn from it (doctrine
    clause "no fixed plan")."""
    s = ctx.state
    weapon = AR.burst_weapon(ctx, space.by)
    entry = ctx.tables.artillery[weapon]
    across = ctx.tables.burst[entry.burst].across
    enemies = sorted(M.enemies(ctx, space.side), key=lambda e: e.id)
    ours = [f for f in s.figures.values() if f.side == space.side and f.alive and f.on_table]
    base = ctx.tables.sight.base.value
    aims: list[XY] = [(e.x, e.y) for e in enemies]
    for i, a in enumerate(enemies):
        for b in enemies[i + 1 :]:
            if math.hypot(a.x - b.x, a.y - b.y) < across:
                aims.append((snap((a.x + b.x) / 2), snap((a.y + b.y) / 2)))
    aims = list(dict.fromkeys(aims))
    # in range and seen (BurstSpace.contains of each aim: its measures over arrays, then the sight of those in
    # range, all at once; plan_burst reads it again from the memo)
    aims = [at for at, ok in zip(aims, AI.landings(ctx, space.side, space.by, aims), strict=True) if ok]
    shapes = sorted(tid for tid, (cls, _) in ctx.templates.items() if cls == entry.burst)
    # every placement at once (rules.under_template of every man under every laid template, over arrays)
    turns = [float(angle) for angle in range(0, 360, 45)]
    tries = [(at, tid, angle) for at in aims for tid in shapes for angle in turns]
    men = [(f.x, f.y) for f in ours] + [(e.x, e.y) for e in enemies]
    under = men_under(ctx, aims, shapes, turns, men, base / 2 + TOLERANCE)
    ours_under = np.asarray(under[:, : len(ours)].any(axis=1))
    theirs_under = under[:, len(ours) :]
    worths = [figure_value(e) for e in enemies]
    under_worth = _worth_under(theirs_under, worths)
    order = best_first(ours_under, theirs_under, worths, under_worth)
    if rng is not None and order:
        value = under_worth[order].tolist()
        near = sum(1 for v in value if v >= NEAR_BEST * value[0])
        order = [order[j] for j in rng.permutation(near).tolist()] + order[near:]
    for i in order:
        at, tid, angle = tries[i]
        burst = Burst(space.by, at, angle, tid)
        if space.contains(burst):
            return burst
    return space.hold()


def best_first(ours: np.ndarray, theirs: np.ndarray, worth: list[float], under: np.ndarray | None = None) -> list[int]:
    """The placements worth trying, best first: those with none of our men under them (``ours``, one bool a
    placement) and enemy worth under them (``theirs``, placements x enemies; ``worth``, each enemy's), by
    that worth (added in the enemies' order: ``_worth_under``, or ``under`` when given) from the most, the
    first found first on a tie."""
    value = _worth_under(theirs, worth) if under is None else under
    # in order, the placements with none of ours and worth under them (every other one is spoilt or worth 0)
    kept = np.flatnonzero(~ours & (value > 0))
    best: list[int] = kept[np.argsort(-value[kept], kind="stable")].tolist()  # stable: found first on a tie
    return best


def _worth_under(theirs: np.ndarray, worth: list[float]) -> np.ndarray:
    """Each placement's enemy worth under it (``theirs``, placements x enemies), added in the enemies' order
    as ``sum`` adds them: a running sum left to right (``np.cumsum`` adds in order; a 0.0 for each man not
    under it changes no sum), its last column."""
    if theirs.size == 0:
        return np.zeros(len(theirs), dtype=float)
    return np.cumsum(np.where(theirs, np.asarray(worth, dtype=float), 0.0), axis=1)[:, -1]


def men_under(
    ctx: Context, aims: list[XY], shapes: list[str], turns: list[float], men: list[XY], touch: float
) -> np.ndarray:
    """``rules.under_template(rules.burst_shape(template, at, angle), man, base)`` (``touch``: half a base and
    the tolerance) for every (landing point, template, turn), aims outermost and turns innermost as
    ``burst_order`` lists its tries (rows), and every man (columns). Over arrays, each man measured from the
    landing point: within ``touch`` of the disc the template holds about it (at every turn), he is under it;
    farther than ``touch`` beyond its farthest corner, he is not; between the two, he is measured against each
    turned template (the laid one moved back): to its edges, and inside it by the crossings of a ray. Each
    of those by more than rounding (``aiming.EDGE``); a man nearer ``touch`` from its edges outside it, or any
    man near a template that is not a valid polygon, is measured by shapely on the laid polygon itself, as the
    rule measures him."""
    width = len(shapes) * len(turns)
    out = np.zeros((len(aims) * width, len(men)), dtype=bool)
    if out.size == 0:
        return out
    ats = np.array(aims, dtype=float).reshape(-1, 2)
    xy = np.array(men, dtype=float).reshape(-1, 2)
    grid = out.reshape(len(aims), width, len(men))  # a view: aim, (template, turn), man
    local = xy[np.newaxis, :, :] - ats[:, np.newaxis, :]  # each man from each landing point
    apart = np.hypot(local[:, :, 0], local[:, :, 1])
    for k, tid in enumerate(shapes):
        inner, outer, rings, valid = _template_reach(ctx.templates[tid][1], tuple(turns))
        columns = np.arange(k * len(turns), (k + 1) * len(turns))
        sure = apart <= inner + touch - AI.EDGE
        grid[:, columns, :] = sure[:, np.newaxis, :]
        a, m = np.nonzero(~sure & (apart <= outer + touch + AI.EDGE))
        if a.size == 0:
            continue
        px, py = local[a, m, 0][:, np.newaxis, np.newaxis], local[a, m, 1][:, np.newaxis, np.newaxis]
        x0, y0, x1, y1 = rings[:, :-1, 0], rings[:, :-1, 1], rings[:, 1:, 0], rings[:, 1:, 1]  # turn x edge
        ex, ey = x1 - x0, y1 - y0
        span = ex * ex + ey * ey
        t = np.clip(((px - x0) * ex + (py - y0) * ey) / np.where(span > 0, span, 1.0), 0.0, 1.0)
        edge = np.hypot(x0 + t * ex - px, y0 + t * ey - py).min(axis=2)  # man x turn: to the nearest edge
        crosses = ((y0 > py) != (y1 > py)) & (px < x0 + (py - y0) * ex / np.where(ey != 0, ey, 1.0))
        inside = crosses.sum(axis=2) % 2 == 1
        under = inside | (edge <= touch)
        doubt = (~inside & (np.abs(edge - touch) <= AI.EDGE)) | ~valid[np.newaxis, :]
        for p, j in zip(*np.nonzero(doubt), strict=True):  # the rule's own measure, on the laid polygon
            laid = shapely.polygons(rings[j] + ats[a[p]])
            under[p, j] = shapely.distance(laid, shapely.points(xy[m[p]])) <= touch
        grid[a[:, np.newaxis], columns[np.newaxis, :], m[:, np.newaxis]] = under
    return out


@functools.lru_cache(maxsize=256)  # kept: a game's few templates, tried at the same turns again and again
def _template_reach(corners: tuple[XY, ...], turns: tuple[float, ...]) -> tuple[float, float, np.ndarray, np.ndarray]:
    """A template's (of ``corners``) reach about the point it lands on, at every turn: how far the disc it holds
    about that point reaches (-inf when it does not hold the point), how far its farthest corner lies, and its
    corners at each turn of ``turns`` (``rules.turned``, each ring closed) with whether each is a valid
    polygon."""
    laid = [R.turned(corners, angle) for angle in turns]
    valid = np.array([bool(shape.is_valid) for shape in laid], dtype=bool)
    shape = R.turned(corners, 0.0)
    centre = shapely.Point(0.0, 0.0)
    inner = float(shape.exterior.distance(centre)) if valid.all() and shape.contains(centre) else -math.inf
    rings = np.stack([shapely.get_coordinates(shape.exterior) for shape in laid])
    outer = float(np.hypot(rings[:, :, 0], rings[:, :, 1]).max())
    return inner, outer, rings, valid
