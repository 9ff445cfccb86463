"""The skirmish doctrine bot: advance from cover to cover, fire at the most valuable target in range.

Moving: an attacking unit (the scenario's attacker) heads for the objective
(or the nearest enemy when there is none) by way of cover: of the cover spots
(inside woods, bushes and rocks; just behind walls, boulders and sandbags on
its own side) that bring it nearer, it takes the one that gains the most
ground within one move, or heads for the nearest such spot; with no cover
left ahead it goes straight on. A defending unit holds where it has cover from
the nearest enemy and otherwise goes to the nearest cover it can reach.
Units off the table come straight on. Every move is the furthest legal one
along the chosen line (the move space's own search), so the bot never
blunders into contact or past its allowance.

Melee: a unit charges (its leader runs until his base touches the nearest
enemy within a move) when the odds favour it: its living men are at least
``ASSAULT_ODDS`` times the enemy men near that enemy (within a move of him),
who could join the melee. A unit with a man in melee holds. When both sides
of a melee miss, a group stays when its side has at least as many living men
in that melee as the enemy, and otherwise retreats.

Vehicles: an attacker's vehicle drives for the objective by the furthest
legal drive straight at it or up to 60 degrees either side (whichever ends
nearest), and once within ``UNLOAD_AT`` inches of it drops its passengers
(every unit aboard but the driver's and the MG gunner's), driving half a move
on first if it can; a defender's vehicles stay put. A unit with a man aboard
a vehicle holds (it rides).

Fire: each unit fires at the enemy unit where its men's dice are worth the
most: the chance each man kills (hit, then a failed survival roll) times the
value of his target (a MG gunner 3, a SMG 1.5, a rifle 1, a pistol 0.8;
officers half as much again).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from shapely.geometry import Point, Polygon

from grognard.core.engine import Decision
from grognard.core.geometry import snap
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.actions import Choice, Drive, Fire, Move, Order
from grognard.rulesets.skirmish.driving import DriveSpace
from grognard.rulesets.skirmish.game import FireSpace, MoveSpace, SkirmishGame, figure_value
from grognard.rulesets.skirmish.state import Figure, FireOrder

XY = tuple[float, float]
STAND_OFF = 0.6  # inches behind a wall or boulder where a man takes cover
UNLOAD_AT = 8.0  # inches from the objective where a vehicle drops its passengers
ASSAULT_ODDS = 1.5  # charge when our men are at least this many times the enemy men who could join the melee


def charge_move(game: SkirmishGame, space: MoveSpace) -> Move | None:
    """A charge by the unit's leader into the nearest enemy within a move, when the odds favour it; else None."""
    men = game.living(space.unit)
    leader = men[0]
    if not leader.on_table:
        return None
    base = game.tables.sight.base.value
    reach = game.allowance(leader)
    side = leader.side

    def dist(e: Figure) -> float:
        return math.hypot(e.x - leader.x, e.y - leader.y)

    foes = game.enemies(side)
    close = [e for e in foes if dist(e) <= reach + base]
    if not close:
        return None
    target = min(close, key=lambda e: (dist(e), e.id))
    joining = [e for e in foes if math.hypot(e.x - target.x, e.y - target.y) <= reach + base]
    if len(men) < ASSAULT_ODDS * len(joining):
        return None
    d = dist(target)
    t = (d - base) / d
    goal = (snap(leader.x + t * (target.x - leader.x)), snap(leader.y + t * (target.y - leader.y)))
    for move in (Move(space.unit, (goal,)), Move(space.unit, (), (Order(leader.id, "to", (goal,)),))):
        if space.legal(move):
            return move
    return None


def touches(game: SkirmishGame, move: Move) -> bool:
    """Some man of the unit would end ``move`` with his base touching an enemy's."""
    base = game.tables.sight.base.value
    foes = game.enemies(game.unit(move.unit).side)
    ends = [p[-1] for p in game.plan_move(move).values()]
    return any(R.in_contact(end, (e.x, e.y), base) for end in ends for e in foes)


def short_of_contact(game: SkirmishGame, space: MoveSpace, move: Move) -> Move:
    """``move``, or the furthest part of the leader's straight line that stops short of contact (else hold)."""
    if not move.path or not touches(game, move):
        return move
    leader = game.living(space.unit)[0]
    x, y = move.path[-1]
    for k in range(1, 8):
        t = 1 - k / 8
        shorter = Move(space.unit, ((snap(leader.x + t * (x - leader.x)), snap(leader.y + t * (y - leader.y))),))
        if space.legal(shorter) and not touches(game, shorter):
            return shorter
    return space.hold()


def melee_choice(game: SkirmishGame, group: str) -> Choice:
    """Stay when the group's side has at least as many living men in its melee as the enemy; else retreat."""
    s = game.state
    men = s.groups[group]
    side = s.figures[men[0]].side
    melee = next((m for m in game.melees() if men[0] in m), men)
    ours = sum(1 for f in melee if s.figures[f].side == side and s.figures[f].alive)
    theirs = sum(1 for f in melee if s.figures[f].side != side and s.figures[f].alive)
    return Choice(group, "stay" if ours >= theirs else "retreat")


def kill_chance(game: SkirmishGame, shot: FireOrder) -> float:
    """The chance one die kills: it hits, and the man fails his survival roll."""
    hit = sum(1 for face in range(1, 7) if face + shot.shift >= shot.hit_on) / 6
    survive = sum(1 for face in range(1, 7) if face >= game.tables.survive_on(shot.attack)) / 6
    return hit * (1 - survive)


def fire_order(game: SkirmishGame, unit: str) -> Fire:
    """The doctrine's fire order for ``unit``: the enemy unit its dice are worth most against, or hold."""
    table = game.shot_table()
    worth: dict[str, float] = {}
    for f in game.living(unit):
        best: dict[str, float] = {}
        for target, shot in table.get(f.id, {}).items():
            if isinstance(shot, FireOrder):
                aim = game.state.figures[target]
                value = kill_chance(game, shot) * figure_value(aim)
                best[aim.unit] = max(best.get(aim.unit, 0.0), value)
        for target_unit, value in best.items():
            worth[target_unit] = worth.get(target_unit, 0.0) + value
    if not worth:
        return Fire(unit, None)
    target = max(sorted(worth), key=lambda u: worth[u])
    return Fire(unit, target)


def cover_spots(game: SkirmishGame, side: str) -> list[XY]:
    """Places a man of ``side`` finds cover (cached per game and side)."""
    cache: dict[str, list[XY]] = game.__dict__.setdefault("_cover_spots", {})
    if side in cache:
        return cache[side]
    terrain = game.base_terrain
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
    edge = next(s.edge for s in game.scenario.spec.sides if s.id == side)
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


def aim_point(game: SkirmishGame, side: str, leader: Figure) -> XY | None:
    """Where an attacker heads: the nearest objective's centre, else the nearest enemy."""
    spec = game.scenario.spec
    if side == spec.victory.attacker and spec.victory.objectives:
        centres = []
        for objective in spec.objectives:
            if objective.id in spec.victory.objectives:
                c = Polygon(objective.shape).centroid
                centres.append((c.x, c.y))
        return min(centres, key=lambda p: math.hypot(p[0] - leader.x, p[1] - leader.y))
    enemies = game.enemies(side)
    if not enemies:
        return None
    near = min(enemies, key=lambda e: math.hypot(e.x - leader.x, e.y - leader.y))
    return (near.x, near.y)


def covered_from_enemy(game: SkirmishGame, x: float, y: float, side: str) -> bool:
    """A man at (x, y) has cover from the nearest enemy."""
    enemies = game.enemies(side)
    if not enemies:
        return True
    near = min(enemies, key=lambda e: math.hypot(e.x - x, e.y - y))
    return R.cover(game.terrain, (near.x, near.y), (x, y), "small_arms") is not None


def move_order(game: SkirmishGame, space: MoveSpace) -> Move:
    """The doctrine's move for the unit of ``space``."""
    unit = game.unit(space.unit)
    men = game.living(space.unit)
    leader = men[0]
    side = unit.side
    reach = game.allowance(leader)
    if game.waiting(unit):
        edge = next(s.edge for s in game.scenario.spec.sides if s.id == side)
        inward = {"south": (0, 1), "north": (0, -1), "west": (1, 0), "east": (-1, 0)}[edge]
        move = space.toward(leader.x + inward[0] * reach, leader.y + inward[1] * reach)
        return move if move is not None else space.candidates(1)[0]
    if any(f.id in game.state.engaged or f.aboard is not None for f in men):
        return space.hold()
    charge = charge_move(game, space)
    if charge is not None:
        return charge
    return short_of_contact(game, space, _advance_order(game, space))


def _advance_order(game: SkirmishGame, space: MoveSpace) -> Move:
    """The doctrine's move by way of cover (no charge): see the module's docstring."""
    men = game.living(space.unit)
    leader = men[0]
    side = leader.side
    reach = game.allowance(leader)
    attacker = side == game.scenario.spec.victory.attacker
    here = (leader.x, leader.y)
    if not attacker:
        covered = sum(1 for f in men if covered_from_enemy(game, f.x, f.y, side))
        if not game.enemies(side) or 2 * covered >= len(men):
            return space.hold()
        spots = sorted(cover_spots(game, side), key=lambda p: math.hypot(p[0] - here[0], p[1] - here[1]))
        for spot in spots[:6]:
            if math.hypot(spot[0] - here[0], spot[1] - here[1]) <= reach:
                move = space.toward(*spot)
                if move is not None and move.path and _gain(move, here) > 0.5:
                    return move
        return space.hold()
    aim = aim_point(game, side, leader)
    if aim is None:
        return space.hold()
    now = math.hypot(aim[0] - here[0], aim[1] - here[1])
    if now <= 1.0:
        return space.hold()
    ahead = [p for p in cover_spots(game, side) if math.hypot(aim[0] - p[0], aim[1] - p[1]) < now - 2.0]
    near = [p for p in ahead if math.hypot(p[0] - here[0], p[1] - here[1]) <= reach]
    if near:
        goal = min(near, key=lambda p: math.hypot(aim[0] - p[0], aim[1] - p[1]))
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


def drive_order(game: SkirmishGame, space: DriveSpace) -> Drive:
    """The doctrine's drive for the vehicle of ``space`` (see the module's docstring)."""
    v = game.state.vehicles[space.vehicle]
    spec = game.scenario.spec
    if v.side != spec.victory.attacker or not spec.victory.objectives:
        return space.hold()
    shapes = [Polygon(o.shape) for o in spec.objectives if o.id in spec.victory.objectives]
    here = Point(v.x, v.y)
    target = min(shapes, key=lambda sh: sh.distance(here))
    c = target.centroid
    aim = (c.x, c.y)
    stop = space.unload_all()
    move = game.tables.vehicles.kind(v.kind).move
    if stop is not None and target.distance(here) <= UNLOAD_AT:
        best = _best_drive(game, space, aim, move / 2, stop)
        if best is not None:
            return best
        dropping = Drive(space.vehicle, (), stop)
        return dropping if space.legal(dropping) else space.hold()
    if target.contains(here) and stop is None:
        return space.hold()
    best = _best_drive(game, space, aim, move, None)
    return best if best is not None else space.hold()


def _best_drive(game: SkirmishGame, space: DriveSpace, aim: XY, reach: float, after: Any) -> Drive | None:
    """The legal straight drive, at the aim or up to 60 degrees off it, that ends nearest the aim."""
    v = game.state.vehicles[space.vehicle]
    base = math.atan2(aim[1] - v.y, aim[0] - v.x)
    d = math.hypot(aim[0] - v.x, aim[1] - v.y)
    best: tuple[float, Drive] | None = None
    for off in (0, 20, -20, 40, -40, 60, -60):
        a = base + math.radians(off)
        r = min(reach, d) if off == 0 else reach
        drive = space.toward(v.x + r * math.cos(a), v.y + r * math.sin(a), after=after, steps=5)
        if drive is None or not drive.path:
            continue
        x, y = drive.path[-1]
        left = math.hypot(aim[0] - x, aim[1] - y)
        if left < d - 0.5 and (best is None or left < best[0]):
            best = (left, drive)
        if off == 0 and best is not None and math.hypot(x - v.x, y - v.y) >= r - 0.5:
            break  # straight at it went the whole way
    return best[1] if best is not None else None


def _gain(move: Move, here: XY) -> float:
    x, y = move.path[-1]
    return math.hypot(x - here[0], y - here[1])


class DoctrineBot:
    """Plays either side of a skirmish by the doctrine above; ``rng`` is kept for ties to come."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, game: SkirmishGame, decision: Decision) -> Any:  # type: ignore[override]
        space = decision.space
        if isinstance(space, MoveSpace):
            return move_order(game, space)
        if isinstance(space, FireSpace):
            return fire_order(game, space.unit)
        if isinstance(space, DriveSpace):
            return drive_order(game, space)
        if decision.id.startswith("melee "):
            return melee_choice(game, decision.id.split()[1])
        return space.sample(self.rng)
