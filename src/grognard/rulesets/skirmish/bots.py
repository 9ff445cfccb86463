"""The skirmish doctrine bot: advance from cover to cover, fire at the most valuable target in range.

Moving: an attacking unit (the scenario's attacker) heads for the objective
(or the nearest enemy when there is none) by way of cover: of the cover spots
(inside woods, bushes and rocks; just behind walls, boulders and sandbags on
its own side) that bring it nearer, it takes the one that gains the most
ground within one move, or heads for the nearest such spot; with no cover
left ahead it goes straight on. A defending unit holds where it has cover from
the nearest enemy and otherwise goes to the nearest cover it can reach.
Units off the table come straight on. Men in a building section that one
shot (2d6) would bring down with a chance of 1/6 or more leave it first, by the
nearest open door (or open a closed one), whatever else the unit does. A unit
of engineers at a bridge site not yet built works on it (those within reach of
it; the others wait). Every move is the furthest legal one
along the chosen line (the move space's own search), so the bot never
blunders into contact or past its allowance.

Melee: a unit charges (each man with an enemy within his move runs until
their bases touch) when the exact odds of the melee favour it: the first
round (``rules.MeleeRound``, icepool) of the men who would touch against the
enemies they touch, and those who could join, kills at least as many of the
enemy as of ours, on average. A unit with a man in melee holds. When both
sides of a melee miss, a group stays when the next round's exact odds are
even or better for its side, and otherwise retreats.

Vehicles: an attacker's vehicle drives for the objective by the furthest
legal drive straight at it or up to 60 degrees either side (whichever ends
nearest), and once within ``bots_drive.UNLOAD_AT`` inches of it drops its passengers
(every unit aboard but the driver's and the MG gunner's), driving half a move
on first if it can; a defender's vehicles stay put. A unit with a man aboard
a vehicle holds (it rides).

A gun crew that can fire its piece stays at it (it moves only to leave a
building about to fall); when no enemy in the piece's range stands inside its
arc, the crew turns it to face the nearest one that does stand in range
(skirmish.55); a crew short of its unhitched piece walks to it. Tanks lay
their guns' templates the same way. A vehicle towing a piece unhitches it,
with its crew, where it would drop its passengers.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from shapely.geometry import Point, Polygon

from grognard.core.geometry import snap
from grognard.core.memo import kept_in
from grognard.core.plans import Plan
from grognard.rulesets.skirmish import castles as CA
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import moving as MV
from grognard.rulesets.skirmish import plans as PL
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import sight as SG
from grognard.rulesets.skirmish import structures as ST
from grognard.rulesets.skirmish.actions import Move, Order, Turn
from grognard.rulesets.skirmish.bots_charge import (  # noqa: F401 (the doctrine's charge, read here by its callers)
    BESIDE,
    CHARGE_RATIO,
    ODDS_CAP,
    STAY_RATIO,
    _touching_spot,
    charge_move,
    friends_at,
    melee_choice,
    melee_odds,
    within_reach,
)
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.moving import MoveSpace
from grognard.rulesets.skirmish.state import Figure

XY = tuple[float, float]
STAND_OFF = 0.6  # inches behind a wall or boulder where a man takes cover
LEAVE_AT = Fraction(1, 6)  # leave a building section when one shot (2d6) would bring it down this often or more
WAYPOINT_SLACK = 1.5  # inches: cover spots this much farther from the aim than the best are as good a waypoint
HOLD_SHARE = 0.5  # a defender holds while at least this share of his men have cover
HOME = 2.0  # inches from the objective within which a counter-attack force has arrived and holds as a defender


def in_danger(ctx: Context, f: Figure) -> str | None:
    """The section ``f`` stands in when one shot would bring it down with chance ``LEAVE_AT`` or more (exact 2d6).
    The section holding a point is kept in the terrain's memo, and a section's verdict while the state stands
    still (it reads the section's points alone)."""
    terrain = ctx.terrain
    if terrain.building_at(f.x, f.y) is None:
        return None  # in no building, so in no section (section_at asks the buildings first); kept by point
    section = kept_in(ctx.sight_memo(terrain), ("section at", f.x, f.y), lambda: terrain.section_at(f.x, f.y))
    if section is None:
        return None
    sid: str = section.id
    found: str | None = ctx.keep_for("in danger", sid, lambda: _falls(ctx, sid))
    return found


def _falls(ctx: Context, section: str) -> str | None:
    """``section`` when one shot would bring it down with chance ``LEAVE_AT`` or more, and it stands; else None."""
    if ST.state_of(ctx, section) == "all dead":
        return None
    return section if ST.collapse_chance(ctx, section) >= LEAVE_AT else None


def _door_sides(ctx: Context, door: str) -> tuple[XY, XY]:
    """Points 0.6" inside and outside a door, square to its wall."""
    opening = ctx.base_terrain.openings[door]
    building = next(b for b in ctx.base_terrain.buildings if b.id == opening.building)
    wall = building.shape.exterior
    at = wall.project(Point(opening.at))
    a, b = wall.interpolate(max(0.0, at - 0.1)), wall.interpolate(min(wall.length, at + 0.1))
    dx, dy = b.x - a.x, b.y - a.y
    d = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / d * 0.6, dx / d * 0.6
    one = (snap(opening.at[0] + nx), snap(opening.at[1] + ny))
    two = (snap(opening.at[0] - nx), snap(opening.at[1] - ny))
    return (one, two) if building.shape.covers(Point(one)) else (two, one)


def leave_building(ctx: Context, space: MoveSpace) -> Move | None:
    """Men in a section likely to collapse under the next shot go out by the nearest open door (or open it).

    The doctrine: "it's a good idea to get out before this stage" (skirmish.18). None when no man is in danger.
    """
    men = [f for f in M.living(ctx, space.unit) if f.on_table and in_danger(ctx, f)]
    if not men:
        return None
    orders: list[Order] = []
    opening_now: set[str] = set()
    for f in men:
        building = ctx.terrain.building_at(f.x, f.y)
        if building is None:
            continue
        doors = sorted(
            (o for o in building.openings if o.door),
            key=lambda o: math.hypot(o.at[0] - f.x, o.at[1] - f.y),
        )
        for door in doors:
            inside, outside = _door_sides(ctx, door.id)
            if ctx.state.doors[door.id].open:
                order = Order(f.id, "to", (inside, outside))
                if space.contains(Move(space.unit, (), (order,))):
                    orders.append(order)
                    break
            elif door.id not in opening_now and space.contains(
                Move(space.unit, (), (Order(f.id, "open", (), door.id),))
            ):
                orders.append(Order(f.id, "open", (), door.id))
                opening_now.add(door.id)
                break
    while orders:
        move = Move(space.unit, (), tuple(orders))
        if space.contains(move):
            return move
        orders.pop()
    return None


def build_order(ctx: Context, space: MoveSpace) -> Move | None:
    """Engineers (a unit of men of type ``engineer``) at a bridge site not yet built work on it (skirmish.86)."""
    men = M.living(ctx, space.unit)
    if not men or any(f.type != "engineer" or not f.on_table for f in men):
        return None
    reach = ctx.tables.engineering.reach.value
    most = int(ctx.tables.bridges.most_builders.value)
    for bid, site in sorted(ST.bridge_sites(ctx).items()):
        bridge = ctx.state.bridges[bid]
        if bridge.built:
            continue
        near = [f for f in men if site.deck.distance(Point(f.x, f.y)) <= reach][: most - bridge.builders]
        if not near:
            continue
        move = Move(space.unit, (), tuple(Order(f.id, "build", (), None, bid) for f in near))
        if space.contains(move):
            return move
    return None


def storm_order(ctx: Context, space: MoveSpace) -> Move | None:
    """Storming (skirmish.78-83): defenders on a wall push off the enemy ladders at their feet; the attacker's
    men climb their ladders, raise one where they stand within 1" of a wall, or close on the nearest wall."""
    walls = ctx.base_terrain.walls
    if not walls:
        return None
    men = [f for f in M.living(ctx, space.unit) if f.on_table and f.aboard is None]
    if not men:
        return None
    c = ctx.tables.castle
    reach = c.ladder_reach.value
    s = ctx.state
    side = men[0].side
    orders: list[Order] = []
    used: set[str] = set()
    for ladder in sorted(s.ladders.values(), key=lambda lad: lad.id):
        if ladder.side != side and ladder.pushed != s.turn:
            at_top = [
                f for f in men
                if f.on_wall is not None and math.hypot(f.x - ladder.top[0], f.y - ladder.top[1]) <= reach
            ][: int(c.push_men.value)]  # fmt: skip
            orders += [Order(f.id, "push", name=ladder.id) for f in at_top]
            used |= {f.id for f in at_top}
    if side == ctx.scenario.spec.victory.attacker:
        for ladder in sorted(s.ladders.values(), key=lambda lad: lad.id):
            if ladder.side != side:
                continue
            room = int(c.ladder_men.value) - len(CA.ladder_men(ctx, ladder))
            room = min(room, int(c.ladder_men.value) - sum(1 for t in ladder.climbed.values() if t == s.turn))
            near = [
                f for f in men
                if f.id not in used and f.on_wall is None and f.on_ladder is None
                and math.hypot(f.x - ladder.foot[0], f.y - ladder.foot[1]) <= reach
            ][: max(room, 0)]  # fmt: skip
            orders += [Order(f.id, "climb", name=ladder.id) for f in near]
            used |= {f.id for f in near}
        if not any(lad.side == side for lad in s.ladders.values()):
            for f in men:
                if f.id in used or f.on_wall is not None or f.on_ladder is not None:
                    continue
                for sid, sec in sorted(ST.wall_sections(ctx).items()):
                    if s.walls[sid] <= 0 or sec.shape.exterior.distance(Point(f.x, f.y)) > reach:
                        continue
                    top = sec.line.interpolate(sec.line.project(Point(f.x, f.y)))
                    orders.append(Order(f.id, "ladder", ((snap(top.x), snap(top.y)),)))
                    used.add(f.id)
                    break
                if orders and orders[-1].verb == "ladder":
                    break
    if orders:
        move = Move(space.unit, (), tuple(orders))
        if space.contains(move):
            return move
        for order in orders:  # one at a time, when together they are refused
            move = Move(space.unit, (), (order,))
            if space.contains(move):
                return move
    if side != ctx.scenario.spec.victory.attacker or any(f.on_wall or f.on_ladder for f in men):
        return None
    leader = men[0]
    here = Point(leader.x, leader.y)
    best = None
    for sid, sec in sorted(ST.wall_sections(ctx).items()):
        if s.walls[sid] <= 0:
            continue
        gap = sec.shape.exterior.distance(here)
        if gap <= M.allowance(ctx, leader) + reach and (best is None or gap < best[0]):
            best = (gap, sec)
    if best is None or best[0] <= reach:
        return None
    sec = best[1]
    top = sec.line.interpolate(sec.line.project(here))
    d = math.hypot(leader.x - top.x, leader.y - top.y) or 1.0
    off = 0.5 + 0.7  # half the wall's top and most of the ladder's reach
    return space.toward(top.x + (leader.x - top.x) / d * off, top.y + (leader.y - top.y) / d * off)


def touches(ctx: Context, move: Move) -> bool:
    """Some man of the unit would end ``move`` with his base touching an enemy's."""
    base = ctx.tables.sight.base.value
    foes = M.enemies(ctx, M.unit(ctx, move.unit).side)
    ends = [p[-1] for p in MV.plan_move(ctx, move).values()]
    return any(R.in_contact(end, (e.x, e.y), base) for end in ends for e in foes)


def short_of_contact(ctx: Context, space: MoveSpace, move: Move) -> Move:
    """``move``, or the furthest part of the leader's straight line that stops short of contact (else hold)."""
    if not move.path or not touches(ctx, move):
        return move
    leader = M.living(ctx, space.unit)[0]
    x, y = move.path[-1]
    for k in range(1, 8):
        t = 1 - k / 8
        shorter = Move(space.unit, ((snap(leader.x + t * (x - leader.x)), snap(leader.y + t * (y - leader.y))),))
        if space.contains(shorter) and not touches(ctx, shorter):
            return shorter
    return space.hold()


def cover_spots(ctx: Context, side: str) -> list[XY]:
    """Places a man of ``side`` finds cover (cached per ctx and side)."""
    cache: dict[str, list[XY]] = ctx.bot_cache.setdefault("cover_spots", {})
    if side in cache:
        return cache[side]
    terrain = ctx.base_terrain
    spots: list[XY] = []
    for kind in ("woods", "bushes", "small_rocks"):
        for feature in terrain.by_kind(kind):
            shape = feature.shape
            if not isinstance(shape, Polygon):
                continue
            minx, miny, maxx, maxy = shape.bounds
            step = 2.0
            y = miny + step / 2
            while y < maxy:
                x = minx + step / 2
                while x < maxx:
                    if shape.contains(Point(x, y)):
                        spots.append((round(x, 2), round(y, 2)))
                    x += step
                y += step
            c = shape.representative_point()
            spots.append((round(c.x, 2), round(c.y, 2)))
    edge = next(s.edge for s in ctx.scenario.spec.sides if s.id == side)
    back = {"south": (0.0, -1.0), "north": (0.0, 1.0), "west": (-1.0, 0.0), "east": (1.0, 0.0)}[edge]
    for feature in terrain.blockers:
        minx, miny, maxx, maxy = feature.shape.bounds
        half = {"south": maxy - miny, "north": maxy - miny, "west": maxx - minx, "east": maxx - minx}[edge] / 2
        cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
        length = maxx - minx if back[0] == 0 else maxy - miny
        count = max(1, int(length // 2))
        for k in range(count):
            t = (k + 0.5) / count
            if back[0] == 0:
                x, y = minx + t * (maxx - minx), cy + back[1] * (half + STAND_OFF)
            else:
                x, y = cx + back[0] * (half + STAND_OFF), miny + t * (maxy - miny)
            if terrain.on_table(x, y):
                spots.append((round(x, 2), round(y, 2)))
    cache[side] = spots
    return spots


def counter_attacks(ctx: Context, label: str) -> bool:
    """The unit is the defender's counter-attack force on its way (doctrine clause "counter-attack"): it came
    on from its edge after the start (``enters`` >= 1) and its leader stands more than ``HOME`` inches from
    the nearest objective of the scenario's victory."""
    spec = ctx.scenario.spec
    unit = M.unit(ctx, label)
    if unit.side == spec.victory.attacker or unit.enters < 1 or not spec.victory.objectives:
        return False
    men = [f for f in M.living(ctx, label) if f.on_table]
    if not men:
        return False
    shapes: list[Polygon] | None = ctx.bot_cache.get("victory objectives")
    if shapes is None:  # made once a scenario
        shapes = ctx.bot_cache["victory objectives"] = [
            Polygon(o.shape) for o in spec.objectives if o.id in spec.victory.objectives
        ]
    here = Point(men[0].x, men[0].y)
    return min(shape.distance(here) for shape in shapes) > HOME


def aim_point(ctx: Context, side: str, leader: Figure, *, objective: bool = False, enemy: bool = False) -> XY | None:
    """Where an attacker (or, with ``objective``, a counter-attack) heads: the nearest objective's centre,
    else (or with ``enemy``, a plan's task) the nearest enemy."""
    spec = ctx.scenario.spec
    if (side == spec.victory.attacker or objective) and spec.victory.objectives and not enemy:
        centres = _objective_centres(ctx)
        return min(centres, key=lambda p: math.hypot(p[0] - leader.x, p[1] - leader.y))
    enemies = M.enemies(ctx, side)
    if not enemies:
        return None
    near = min(enemies, key=lambda e: math.hypot(e.x - leader.x, e.y - leader.y))
    return (near.x, near.y)


def _objective_centres(ctx: Context) -> list[XY]:
    """The centres of the objectives of the scenario's victory, in its order (kept for the scenario)."""
    found: list[XY] | None = ctx.bot_cache.get("objective centres")
    if found is None:
        spec = ctx.scenario.spec
        found = []
        for aim in spec.objectives:
            if aim.id in spec.victory.objectives:
                c = Polygon(aim.shape).centroid
                found.append((c.x, c.y))
        ctx.bot_cache["objective centres"] = found
    return found


def covered_from_enemy(ctx: Context, x: float, y: float, side: str) -> bool:
    """A man at (x, y) has cover from the nearest enemy (the enemies found once while the state stands still)."""
    enemies = MV.enemies_at(ctx, side)
    if not enemies:
        return True
    near, _, _ = min(enemies, key=lambda e: math.hypot(e[1] - x, e[2] - y))
    terrain = ctx.terrain  # rules.cover's answer, kept in the terrain's memo (sight.cover)
    return SG.cover(terrain, ctx.sight_memo(terrain), (near.x, near.y), (x, y), "small_arms") is not None


def move_order(
    ctx: Context,
    space: MoveSpace,
    rng: np.random.Generator | None = None,
    charge_ratio: float | None = None,
    plan: Plan | None = None,
) -> Move:
    """The doctrine's move for the unit of ``space`` (``rng``: the bot's stream, to vary its waypoints;
    ``charge_ratio``: the odds it charges at, ``CHARGE_RATIO`` unless given; ``plan``: the side's plan, whose
    task for the unit sets where it goes, ``plans.py``)."""
    unit = M.unit(ctx, space.unit)
    men = M.living(ctx, space.unit)
    leader = men[0]
    side = unit.side
    reach = M.allowance(ctx, leader)
    if M.waiting(ctx, unit):
        edge = next(s.edge for s in ctx.scenario.spec.sides if s.id == side)
        inward = {"south": (0, 1), "north": (0, -1), "west": (1, 0), "east": (-1, 0)}[edge]
        move = space.toward(leader.x + inward[0] * reach, leader.y + inward[1] * reach)
        return move if move is not None else space.candidates(1)[0]
    if any(f.id in ctx.state.engaged or f.aboard is not None for f in men):
        return space.hold()
    leave = leave_building(ctx, space)
    if leave is not None:
        return leave
    turn = turn_order(ctx, space)
    if turn is not None:
        return turn
    for piece in ctx.state.pieces.values():  # a crew left short of its unhitched piece goes to it
        if piece.crew == space.unit and piece.hitched is None and M.crew_short(ctx, piece) is not None:
            back = to_piece(ctx, space, piece)
            if back is not None:
                return back
    if any(p.crew == space.unit and M.piece_ready(ctx, p) is None for p in ctx.state.pieces.values()):
        return space.hold()  # a gun crew stays at its piece while it can fire it (skirmish.31)
    build = build_order(ctx, space)
    if build is not None:
        return build
    storm = storm_order(ctx, space)
    if storm is not None:
        return storm
    charge = charge_move(ctx, space, charge_ratio)
    if charge is not None:
        return charge
    return short_of_contact(ctx, space, _advance_order(ctx, space, rng, plan))


def turn_order(ctx: Context, space: MoveSpace) -> Move | None:
    """The crew of ``space`` turns its piece (skirmish.55) to face the nearest enemy in the piece's range when
    no enemy in range stands inside its arc; None when it need not (or cannot) turn."""
    for piece in sorted(ctx.state.pieces.values(), key=lambda p: p.id):
        if piece.crew != space.unit or piece.hitched is not None or M.crew_short(ctx, piece) is not None:
            continue
        arc = ctx.tables.artillery[piece.weapon].arc
        here = (piece.x, piece.y)
        in_range = [
            e
            for e in M.enemies(ctx, M.unit(ctx, space.unit).side)
            if ctx.tables.burst_band(piece.weapon, R.effective_range(ctx.terrain, here, (e.x, e.y))) is not None
        ]
        if arc is None or not in_range or any(R.off_arc(here, piece.heading, arc, (e.x, e.y)) == 0 for e in in_range):
            continue
        nearest = min(in_range, key=lambda e: (math.hypot(e.x - piece.x, e.y - piece.y), e.id))
        move = Move(space.unit, turn=Turn(piece.id, None, (nearest.x, nearest.y)))
        if space.contains(move):
            return move
    return None


def to_piece(ctx: Context, space: MoveSpace, piece: Any) -> Move | None:
    """Each man of the crew of ``space`` more than ``reach`` from ``piece`` walks toward it, to 0.9 of the reach
    from its centre (skirmish.31): on the straight line, or round the piece 30 degrees at a time to the first
    spot clear of his friends' bases (skirmish.10); None when that is not a legal move."""
    reach = ctx.tables.artillery[piece.weapon].reach
    base = ctx.tables.sight.base.value
    far = [
        f
        for f in M.living(ctx, space.unit)
        if math.hypot(f.x - piece.x, f.y - piece.y) > reach and f.on_table and f.aboard is None
    ]
    taken = friends_at(ctx, M.unit(ctx, space.unit).side, {f.id for f in far})
    orders = []
    for f in far:
        d = math.hypot(f.x - piece.x, f.y - piece.y)
        at = (snap(piece.x + (f.x - piece.x) * 0.9 * reach / d), snap(piece.y + (f.y - piece.y) * 0.9 * reach / d))
        straight = math.atan2(f.y - piece.y, f.x - piece.x)
        for k in (1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6):
            if not any(R.overlaps(at, spot, base) for spot in taken):
                break
            a = straight + math.radians(30 * k)
            at = (snap(piece.x + 0.9 * reach * math.cos(a)), snap(piece.y + 0.9 * reach * math.sin(a)))
        taken.append(at)
        orders.append(Order(f.id, "to", (at,)))
    move = Move(space.unit, (), tuple(orders))
    return move if orders and space.contains(move) else None


def _advance_order(
    ctx: Context, space: MoveSpace, rng: np.random.Generator | None = None, plan: Plan | None = None
) -> Move:
    """The doctrine's move by way of cover (no charge): see the module's docstring; a ``plan``'s task for the
    unit (``plans.py``) says whether it holds or goes, for what and by which flank."""
    men = M.living(ctx, space.unit)
    leader = men[0]
    side = leader.side
    reach = M.allowance(ctx, leader)
    task = PL.task_of(plan, space.unit)
    counter = counter_attacks(ctx, space.unit) if task is None else task.task == "objective"
    attacker = side == ctx.scenario.spec.victory.attacker or counter
    if task is not None:
        attacker = task.task != "hold"
    here = (leader.x, leader.y)
    if not attacker:
        covered = sum(1 for f in men if covered_from_enemy(ctx, f.x, f.y, side))
        if not M.enemies(ctx, side) or covered >= HOLD_SHARE * len(men):
            return space.hold()
        spots = sorted(cover_spots(ctx, side), key=lambda p: math.hypot(p[0] - here[0], p[1] - here[1]))
        for spot in spots[:6]:
            if math.hypot(spot[0] - here[0], spot[1] - here[1]) <= reach:
                move = space.toward(*spot)
                if move is not None and move.path and _gain(move, here) > 0.5:
                    return move
        return space.hold()
    aim = aim_point(ctx, side, leader, objective=counter, enemy=task is not None and task.task == "enemy")
    if aim is None:
        return space.hold()
    if task is not None:
        aim = PL.flank_aim(ctx.scenario.spec, here, aim, task.flank)
    now = math.hypot(aim[0] - here[0], aim[1] - here[1])
    if now <= 1.0:
        return space.hold()
    ahead = [p for p in cover_spots(ctx, side) if math.hypot(aim[0] - p[0], aim[1] - p[1]) < now - 2.0]
    near = [p for p in ahead if math.hypot(p[0] - here[0], p[1] - here[1]) <= reach]
    if near:
        goal = waypoint(near, aim, rng)
    elif ahead:
        goal = min(ahead, key=lambda p: math.hypot(p[0] - here[0], p[1] - here[1]))
    else:
        goal = aim
    dx, dy = goal[0] - here[0], goal[1] - here[1]
    d = math.hypot(dx, dy)
    if d > reach:
        goal = (here[0] + dx * reach / d, here[1] + dy * reach / d)
    move = space.toward(*goal)
    if move is None or not move.path:
        side_step = space.toward(
            here[0] + (aim[0] - here[0]) * min(1.0, reach / now), here[1] + (aim[1] - here[1]) * min(1.0, reach / now)
        )
        return side_step if side_step is not None else space.hold()
    return move


def waypoint(near: list[XY], aim: XY, rng: np.random.Generator | None) -> XY:
    """The cover spot an attacker makes for among ``near`` (those within his move, nearer the aim): the one
    nearest the aim; with ``rng``, one drawn from those within ``WAYPOINT_SLACK`` inches as near (doctrine
    clause "no fixed plan": a person does not take the very same spot every game)."""
    gap = {p: math.hypot(aim[0] - p[0], aim[1] - p[1]) for p in near}
    best = min(near, key=lambda p: (gap[p], p))
    if rng is None:
        return best
    close = sorted(p for p in near if gap[p] <= gap[best] + WAYPOINT_SLACK)
    return close[int(rng.integers(len(close)))] if len(close) > 1 else best


def _gain(move: Move, here: XY) -> float:
    return math.hypot(move.path[-1][0] - here[0], move.path[-1][1] - here[1])
