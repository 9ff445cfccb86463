"""Castles and storming: walls, corners, ladders (skirmish.74-85).

The seed's CASTLE and STORMING sections. Conventions as the rule set's
(inches, origin south-west, a figure is the centre of its 1" base).

- A man stands **on a castle wall** (``Figure.on_wall``, a section id) when his
  centre is on its top (the wall's line, 1" wide). He walks along the tops of
  standing sections; he gets on or off only at a **corner** (a point of the
  wall's line), within ``castle.corner_reach`` (1") of it (skirmish.76), as
  his move (``up WALL``, ``down X,Y``), or up a ladder.
- Men on a wall, men on ladders and men on the ground are at three levels:
  bases touch (melee) only at one level, or between a wall and a ladder
  (:func:`levels_meet`).
- A **ladder** (``state.ladders``) is raised by a man on the ground in half his
  move, its top on a wall's line within 1" of him (skirmish.78); at most 2 men
  a move go onto it, and men on it do not fire (skirmish.79). The next turn
  they stand at its top (0.5" outside the wall) and fight the defenders whose
  bases touch them, with no attack advantage and at most 2 a side
  (skirmish.80, 85); those who are not in a melee at the end of that melee
  phase go onto the wall (skirmish.81). While a man of theirs holds the wall
  within 1" of the top, others who climb step onto the wall at once (skirmish.82).
- Men on the wall within 1" of an enemy ladder's top try once a turn to push
  it off: two men, each rolling a d6, any 1 or 2 and it falls; one man alone
  cannot push (skirmish.83, S9; the option ``ladder_push = "one_die"`` lets one
  man push with one die); each man on it survives on 4-6 and stands at its
  foot (skirmish.84).
"""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import LineString, Point
from shapely.ops import unary_union

from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, at_most, snap
from grognard.rulesets.skirmish import mechanics as MX
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import paths as PA
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import structures as ST
from grognard.rulesets.skirmish.actions import XY, Move, Order
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.state import Figure, Ladder
from grognard.rulesets.skirmish.terrain import CASTLE_WALL_THICKNESS, CastleWall

CASTLE_VERBS = ("up", "down", "ladder", "climb", "push")
GROWN_TOPS_KEPT = 256  # sets of standing wall sections whose grown tops are kept (each a small polygon)
GROUND, WALL, LADDER = "ground", "wall", "ladder"


# ------------------------------------------------------------------ setup and lookups
def setup_castle(ctx: Context) -> None:
    """Wall sections at their points; a man set up on a wall's top stands on it."""
    s = ctx.state
    s.walls = {sid: sec.storey.points for sid, sec in ST.wall_sections(ctx).items()}
    for f in s.figures.values():
        if f.on_table:
            f.on_wall = ST.wall_section_at(ctx, f.x, f.y)


def castle_wall(ctx: Context, ident: str) -> CastleWall | None:
    return next((w for w in ctx.base_terrain.walls if w.id == ident), None)


def level(ctx: Context, f: Figure) -> str:
    """``wall``, ``ladder`` or ``ground``: where the man fights from."""
    return LADDER if f.on_ladder is not None else WALL if f.on_wall is not None else GROUND


def levels_meet(ctx: Context, a: Figure, b: Figure) -> bool:
    """Men at these levels can touch bases: the same level, or a wall's top and a ladder at it; a man who went
    onto a ladder this turn touches nobody yet."""
    for f in (a, b):
        ladder = ctx.state.ladders.get(f.on_ladder or "")
        if ladder is not None and ladder.climbed.get(f.id) == ctx.state.turn:
            return False  # he is still climbing: he reaches the top next turn (skirmish.79-80)
    la, lb = level(ctx, a), level(ctx, b)
    return la == lb or {la, lb} == {WALL, LADDER}


def ladder_men(ctx: Context, ladder: Ladder) -> list[Figure]:
    return sorted((f for f in ctx.state.figures.values() if f.alive and f.on_ladder == ladder.id), key=lambda f: f.id)


def standing_tops(ctx: Context) -> Any:
    """The union of the tops of the castle wall sections with points left (where men walk on walls)."""
    tops = [sec.shape for sid, sec in ST.wall_sections(ctx).items() if ctx.state.walls[sid] > 0]
    return unary_union(tops) if tops else None


def _grown_tops(ctx: Context) -> Any:
    """``standing_tops`` grown by the tolerance, kept while the same sections stand."""
    up = tuple(sid for sid in ST.wall_sections(ctx) if ctx.state.walls[sid] > 0)
    kept: dict[tuple[str, ...], Any] = ctx.bot_cache.setdefault("grown tops", {})
    if up not in kept:
        if len(kept) >= GROWN_TOPS_KEPT:
            kept.clear()  # the walls fall in other orders game after game: keep the store bounded
        tops = standing_tops(ctx)
        kept[up] = None if tops is None else tops.buffer(TOLERANCE)
    return kept[up]


def on_a_top(ctx: Context, x: float, y: float) -> str | None:
    """The standing wall section whose top holds (x, y), if any (not where a door is)."""
    sid = ST.wall_section_at(ctx, x, y)
    if sid is None or ctx.state.walls[sid] <= 0:
        return None
    for w in ctx.base_terrain.walls:
        for door in w.openings:
            if math.hypot(x - door.at[0], y - door.at[1]) <= door.width / 2 + TOLERANCE:
                return None
    return sid


def holds_top(ctx: Context, ladder: Ladder) -> bool:
    """A man of the ladder's side stands on the wall within ``ladder_reach`` of its top (skirmish.82)."""
    reach = ctx.tables.castle.ladder_reach.value
    return any(
        f.alive
        and f.side == ladder.side
        and f.on_wall is not None
        and math.hypot(f.x - ladder.top[0], f.y - ladder.top[1]) <= reach + TOLERANCE
        for f in ctx.state.figures.values()
    )


def _top_spot(ctx: Context, ladder: Ladder, k: int, *, on_wall: bool) -> XY:
    """Where the k-th man stands at a ladder's top: on the wall's line beside the top, or on the ladder
    0.5" outside the wall (two men side by side, 0.5" apart)."""
    sec = ST.wall_sections(ctx)[ladder.section]
    line = sec.line
    at = line.project(Point(ladder.top))
    if on_wall:
        step = [0.0, 1.0, -1.0, 2.0, -2.0][k % 5]
        p = line.interpolate(min(max(at + step, 0.0), line.length))
        return (snap(p.x), snap(p.y))
    a = line.interpolate(max(at - 0.25, 0.0))
    b = line.interpolate(min(at + 0.25, line.length))
    along = (b.x - a.x, b.y - a.y)
    n = math.hypot(*along) or 1.0
    ux, uy = along[0] / n, along[1] / n
    fx, fy = ladder.foot[0] - ladder.top[0], ladder.foot[1] - ladder.top[1]
    d = math.hypot(fx, fy) or 1.0
    out = CASTLE_WALL_THICKNESS / 2
    side = -0.25 if k % 2 == 0 else 0.25
    return (
        snap(ladder.top[0] + fx / d * out + ux * side),
        snap(ladder.top[1] + fy / d * out + uy * side),
    )


def free_top_spot(ctx: Context, ladder: Ladder, f: Figure) -> XY | None:
    """Where ``f`` steps onto the wall from ``ladder``: the first of the spots at its top, then 1" and 2" either
    side along the wall, whose base lies clear of every other man's on a wall, friend or foe (men keep their
    bases apart, skirmish.10); None when all five are taken."""
    base = ctx.tables.sight.base.value
    others = [(g.x, g.y) for g in ctx.state.figures.values() if g.alive and g.on_wall is not None and g.id != f.id]
    for k in range(5):
        spot = _top_spot(ctx, ladder, k, on_wall=True)
        if not any(R.overlaps(spot, at, base) for at in others):
            return spot
    return None


def plan_castle_path(ctx: Context, f: Figure, order: Order | None) -> list[XY] | None:
    """A ladder order's walk to where he raises it (the second point), if any."""
    if order is not None and order.verb == "ladder" and len(order.points) == 2:
        x, y = order.points[1]
        return [(f.x, f.y), (snap(x), snap(y))]
    return None


def check_wall_path(ctx: Context, action: Move, f: Figure, path: list[XY]) -> PA.PathMeasure:
    """A man on a wall walks along the tops of standing sections only (skirmish.76): inches walked."""
    if f.on_ladder is not None:
        raise IllegalAction(f"{action}: {f.id} is on ladder {f.on_ladder}: he goes where it takes him", "skirmish.79")
    tops = _grown_tops(ctx)
    line = LineString(path)
    if tops is None or not tops.covers(line):
        raise IllegalAction(
            f"{action}: {f.id} is on castle wall section {f.on_wall}: he walks along the wall's top and comes "
            "down only at a corner (down X,Y)",
            "skirmish.76",
        )
    return PA.PathMeasure(line.length, line.length)


def check_ground_end(ctx: Context, action: Move, f: Figure, path: list[XY]) -> None:
    """A man on the ground does not end his move on a wall's top: he goes up only at a corner (skirmish.76)."""
    end = path[-1]
    sid = on_a_top(ctx, *end)
    if sid is not None:
        raise IllegalAction(
            f"{action}: {f.id} would end on castle wall section {sid}: men go onto walls only at corners "
            "(up WALL) or up a ladder",
            "skirmish.76",
        )


def check_castle_orders(ctx: Context, action: Move, measured: dict[str, tuple[list[XY], PA.PathMeasure]]) -> None:
    """Every castle order of ``action`` (up, down, ladder, climb, push); raises IllegalAction naming the rule."""
    s = ctx.state
    c = ctx.tables.castle
    corner_reach = c.corner_reach.value
    climbers: dict[str, int] = {}
    pushers: dict[str, int] = {}
    for order in action.orders:
        if order.verb not in CASTLE_VERBS:
            continue
        f = s.figures[order.figure]
        if f.aboard is not None:
            raise IllegalAction(f"{action}: {f.id} rides {f.aboard}: he gets out first", "skirmish.61")
        if order.verb == "up":
            _check_up(ctx, action, f, order, corner_reach)
        elif order.verb == "down":
            _check_down(ctx, action, f, order, corner_reach)
        elif order.verb == "ladder":
            _check_ladder(ctx, action, f, order, measured)
        elif order.verb == "climb":
            ladder = _ladder(ctx, action, order)
            if f.on_wall is not None or f.on_ladder is not None:
                raise IllegalAction(f"{action}: {f.id} climbs a ladder from the ground", "skirmish.79")
            if ladder.side != f.side:
                raise IllegalAction(f"{action}: ladder {ladder.id} is the enemy's", "skirmish.79")
            reach = c.ladder_reach.value
            gap = math.hypot(f.x - ladder.foot[0], f.y - ladder.foot[1])
            if gap > reach + TOLERANCE:
                raise IllegalAction(
                    f'{action}: {f.id} is {gap:.2f}" from the foot of ladder {ladder.id}, more than {reach:g}"',
                    "skirmish.79",
                )
            climbers[ladder.id] = climbers.get(ladder.id, 0) + 1
            most = int(c.ladder_men.value)
            this_turn = sum(1 for t in ladder.climbed.values() if t == s.turn)
            on_it = len(ladder_men(ctx, ladder))
            if this_turn + climbers[ladder.id] > most or on_it + climbers[ladder.id] > most:
                raise IllegalAction(
                    f"{action}: {most} men a move go onto a ladder, and it holds {most} "
                    f"(ladder {ladder.id}: {on_it} on it, {this_turn} went on this move)",
                    "skirmish.79",
                )
        else:  # push
            ladder = _ladder(ctx, action, order)
            if ladder.side == f.side:
                raise IllegalAction(f"{action}: ladder {ladder.id} is his own side's", "skirmish.83")
            if f.on_wall is None:
                raise IllegalAction(f"{action}: {f.id} pushes a ladder off from the wall's top", "skirmish.83")
            reach = c.ladder_reach.value
            gap = math.hypot(f.x - ladder.top[0], f.y - ladder.top[1])
            if gap > reach + TOLERANCE:
                raise IllegalAction(
                    f'{action}: {f.id} is {gap:.2f}" from the top of ladder {ladder.id}, more than {reach:g}"',
                    "skirmish.83",
                )
            if ladder.pushed == s.turn:
                raise IllegalAction(
                    f"{action}: ladder {ladder.id} was already tried this turn (one try a turn, RULINGS S9)",
                    "skirmish.83",
                )
            pushers[ladder.id] = pushers.get(ladder.id, 0) + 1
            if pushers[ladder.id] > int(c.push_men.value):
                raise IllegalAction(f"{action}: at most {int(c.push_men.value)} men push a ladder off", "skirmish.83")
    most = int(c.push_men.value)
    if ctx.state.options.get("ladder_push", "two_men") == "two_men":
        for name, count in sorted(pushers.items()):
            if count < most:
                raise IllegalAction(
                    f"{action}: it takes {most} men on the wall to push ladder {name} off, each rolling a d6 "
                    "(RULINGS S9; the option ladder_push = one_die lets one man push with one die)",
                    "skirmish.83",
                )


def _ladder(ctx: Context, action: Move, order: Order) -> Ladder:
    ladder = ctx.state.ladders.get(order.name or "")
    if ladder is None:
        have = ", ".join(sorted(ctx.state.ladders)) or "none"
        raise IllegalAction(f"{action}: no ladder {order.name!r} (ladders: {have})", "skirmish.78")
    return ladder


def _corner(ctx: Context, f: Figure, wall: CastleWall, reach: float) -> XY | None:
    best = min(wall.corners, key=lambda p: math.hypot(p[0] - f.x, p[1] - f.y))
    return best if math.hypot(best[0] - f.x, best[1] - f.y) <= reach + TOLERANCE else None


def _check_up(ctx: Context, action: Move, f: Figure, order: Order, reach: float) -> None:
    wall = castle_wall(ctx, order.name or "")
    if wall is None:
        names = ", ".join(w.id for w in ctx.base_terrain.walls) or "none"
        raise IllegalAction(f"{action}: no castle wall {order.name!r} (walls: {names})", "skirmish.76")
    if f.on_wall is not None or f.on_ladder is not None:
        raise IllegalAction(f"{action}: {f.id} is not on the ground", "skirmish.76")
    corner = _corner(ctx, f, wall, reach)
    if corner is None:
        raise IllegalAction(
            f'{action}: {f.id} is not within {reach:g}" of a corner of castle wall {wall.id}: men go onto '
            "walls only at corners",
            "skirmish.76",
        )
    if on_a_top(ctx, *corner) is None:
        raise IllegalAction(f"{action}: the wall at that corner has no points left", "skirmish.74")


def _check_down(ctx: Context, action: Move, f: Figure, order: Order, reach: float) -> None:
    if f.on_wall is None:
        raise IllegalAction(f"{action}: {f.id} is not on a castle wall", "skirmish.76")
    wall = castle_wall(ctx, ST.wall_sections(ctx)[f.on_wall].wall)
    assert wall is not None
    corner = _corner(ctx, f, wall, reach)
    if corner is None:
        raise IllegalAction(
            f'{action}: {f.id} is not within {reach:g}" of a corner of wall {wall.id}: men come off walls '
            "only at corners",
            "skirmish.76",
        )
    x, y = order.points[0]
    if math.hypot(x - corner[0], y - corner[1]) > reach + CASTLE_WALL_THICKNESS / 2 + TOLERANCE:
        raise IllegalAction(
            f'{action}: ({x:g}, {y:g}) is more than {reach:g}" beyond the corner ({corner[0]:g}, {corner[1]:g})',
            "skirmish.76",
        )
    if not ctx.terrain.on_table(x, y) or ST.wall_section_at(ctx, x, y) is not None:
        raise IllegalAction(f"{action}: ({x:g}, {y:g}) is not ground beside the wall", "skirmish.76")
    if ctx.terrain.building_at(x, y) is not None:
        raise IllegalAction(f"{action}: ({x:g}, {y:g}) is inside a building", "skirmish.76")


def _check_ladder(
    ctx: Context, action: Move, f: Figure, order: Order, measured: dict[str, tuple[list[XY], PA.PathMeasure]]
) -> None:
    c = ctx.tables.castle
    if f.on_wall is not None or f.on_ladder is not None:
        raise IllegalAction(f"{action}: {f.id} raises a ladder from the ground", "skirmish.78")
    path, measure = measured[f.id]
    half = c.ladder_share.value * M.allowance(ctx, f)
    if not at_most(measure.cost, half):
        raise IllegalAction(
            f'{action}: {f.id} walks {measure.cost:.2f}" before raising the ladder: raising it takes '
            f'half his move, so he walks at most {half:g}"',
            "skirmish.78",
        )
    foot = path[-1]
    x, y = order.points[0]
    sid = ST.wall_section_at(ctx, x, y)
    sec = ST.wall_sections(ctx).get(sid or "")
    if sec is None or sec.line.distance(Point(x, y)) > 0.05:
        raise IllegalAction(f"{action}: ({x:g}, {y:g}) is not on a castle wall's line", "skirmish.78")
    if ctx.state.walls[sec.id] <= 0:
        raise IllegalAction(f"{action}: wall section {sec.id} has no points left", "skirmish.74")
    reach = c.ladder_reach.value
    face = sec.shape.exterior.distance(Point(foot))
    if ST.wall_section_at(ctx, *foot) is not None or face > reach + TOLERANCE:
        raise IllegalAction(
            f'{action}: {f.id} raises it {face:.2f}" from the wall: a ladder goes up within {reach:g}" of it',
            "skirmish.78",
        )
    if math.hypot(foot[0] - x, foot[1] - y) > reach + CASTLE_WALL_THICKNESS / 2 + TOLERANCE:
        raise IllegalAction(
            f'{action}: its top ({x:g}, {y:g}) is not the wall just before him (within {reach:g}")',
            "skirmish.78",
        )


def castle_orders(ctx: Context, action: Move) -> None:
    """Carry out the castle orders of a checked move (after the men walked)."""
    s = ctx.state
    c = ctx.tables.castle
    pushes: dict[str, list[str]] = {}
    for order in action.orders:
        if order.verb not in CASTLE_VERBS:
            continue
        f = s.figures[order.figure]
        if order.verb == "up":
            wall = castle_wall(ctx, order.name or "")
            assert wall is not None
            corner = _corner(ctx, f, wall, c.corner_reach.value)
            assert corner is not None
            f.x, f.y = snap(corner[0]), snap(corner[1])
            f.on_wall = on_a_top(ctx, f.x, f.y)
            ctx.emit("onto_wall", figure=f.id, section=f.on_wall, at=[f.x, f.y])
        elif order.verb == "down":
            x, y = order.points[0]
            f.x, f.y = snap(x), snap(y)
            ctx.emit("off_wall", figure=f.id, section=f.on_wall, at=[f.x, f.y])
            f.on_wall = None
        elif order.verb == "ladder":
            x, y = order.points[0]
            sid = ST.wall_section_at(ctx, x, y)
            assert sid is not None
            s.ladders_raised += 1
            ladder = Ladder(f"L{s.ladders_raised}", f.side, sid, (f.x, f.y), (snap(x), snap(y)), s.turn)
            s.ladders[ladder.id] = ladder
            ctx.emit("ladder_raised", figure=f.id, ladder=ladder.id, section=sid, top=list(ladder.top))
        elif order.verb == "climb":
            ladder = s.ladders[order.name or ""]
            ladder.climbed[f.id] = s.turn
            spot = free_top_spot(ctx, ladder, f) if holds_top(ctx, ladder) else None
            if spot is not None:  # skirmish.82: a man of theirs holds the top: he follows onto the wall
                f.x, f.y = spot
                f.on_wall = ladder.section
                ctx.emit("follows_onto_wall", figure=f.id, ladder=ladder.id, section=ladder.section)
            else:
                f.on_ladder = ladder.id
                mid = ((ladder.foot[0] + ladder.top[0]) / 2, (ladder.foot[1] + ladder.top[1]) / 2)
                f.x, f.y = snap(mid[0]), snap(mid[1])
                ctx.emit("climbs", figure=f.id, ladder=ladder.id)
        else:
            pushes.setdefault(order.name or "", []).append(f.id)
    for name, men in sorted(pushes.items()):
        pushed = s.ladders.get(name)
        if pushed is None:
            continue
        pushed.pushed = s.turn
        on = int(c.push_on.value)
        falls = MX.PushOff(len(men), on).roll(
            ctx,
            f"{' and '.join(men)} push ladder {name} off: any {on} or less",
        )
        ctx.emit("push_off", ladder=name, men=men, falls=falls)
        if falls:
            ladder_falls(ctx, pushed, f"pushed off by {' and '.join(men)}")


def ladder_falls(ctx: Context, ladder: Ladder, why: str) -> None:
    """The ladder falls: each man on it survives on ``fall_survive`` (4) or more and stands at its foot
    (skirmish.84); the ladder is gone."""
    s = ctx.state
    need = int(ctx.tables.castle.fall_survive.value)
    ctx.emit("ladder_falls", ladder=ladder.id, why=why)
    for k, f in enumerate(ladder_men(ctx, ladder)):
        f.on_ladder = None
        lives = MX.Survival(need).roll(ctx, f"{f.id} falls with ladder {ladder.id}: survives on {need}+")
        fx, fy = ladder.foot[0] - ladder.top[0], ladder.foot[1] - ladder.top[1]
        d = math.hypot(fx, fy) or 1.0
        f.x, f.y = snap(ladder.foot[0] + fx / d * k), snap(ladder.foot[1] + fy / d * k)
        if lives:
            ctx.emit("survives_fall", figure=f.id)
        else:
            M.kill(ctx, f, f"fell with ladder {ladder.id} (skirmish.84)")
    del s.ladders[ladder.id]


def ladders_up(ctx: Context) -> None:
    """At a new turn the men who went onto a ladder before it stand at its top (skirmish.79-80)."""
    for ladder in sorted(ctx.state.ladders.values(), key=lambda lad: lad.id):
        for k, f in enumerate(ladder_men(ctx, ladder)):
            f.x, f.y = _top_spot(ctx, ladder, k, on_wall=False)


def ladder_winners(ctx: Context, in_melee: set[str]) -> None:
    """After the melees: ladder men at the top (climbed before this turn) who are in no melee now go onto
    the wall (skirmish.81: they won, or nobody stood against them)."""
    s = ctx.state
    for ladder in sorted(s.ladders.values(), key=lambda lad: lad.id):
        if s.walls.get(ladder.section, 0) <= 0:
            continue
        for f in ladder_men(ctx, ladder):
            if ladder.climbed.get(f.id, s.turn) >= s.turn or f.id in in_melee:
                continue
            spot = free_top_spot(ctx, ladder, f)
            if spot is None:
                continue  # no room on the wall beside the ladder's top: he waits on the ladder
            f.on_ladder = None
            f.on_wall = ladder.section
            f.x, f.y = spot
            ctx.emit("takes_wall", figure=f.id, ladder=ladder.id, section=ladder.section)


def wall_strikers(ctx: Context, aims: dict[str, str]) -> dict[str, str]:
    """On walls only ``wall_melee`` (2) men of a side strike at a time in each direction (skirmish.80, 85):
    a man on a wall or ladder strikes along the wall one way or the other, or between ladder and wall."""
    s = ctx.state
    most = int(ctx.tables.castle.wall_melee.value)
    count: dict[tuple[str, str], int] = {}
    out: dict[str, str] = {}
    for fid, foe in aims.items():
        f, g = s.figures[fid], s.figures[foe]
        if level(ctx, f) == GROUND:
            out[fid] = foe
            continue
        if LADDER in (level(ctx, f), level(ctx, g)):
            way = "ladder"
        else:
            sec = ST.wall_sections(ctx)[f.on_wall or ""]
            at, there = sec.line.project(Point(f.x, f.y)), sec.line.project(Point(g.x, g.y))
            way = "+" if there >= at else "-"
        key = (f.side, way)
        if count.get(key, 0) >= most:
            continue
        count[key] = count.get(key, 0) + 1
        out[fid] = foe
    return out
