"""The skirmish game: setup from a scenario, the turn (RULINGS S0), moving, fire, artillery, melee, victory.

A turn (skirmish.10): a d6 each for initiative (ties roll again; a scenario may
fix the first mover); the winner's units move (one decision per unit), then
the other side's; then every unit that can fire gives its fire order (both
sides at once) and all fire is resolved together, casualties removed after
every shot is rolled; then melee (skirmish.66-70): men whose bases touch an
enemy's fight in rounds until one side of the melee is gone or both sides miss,
when each group of at most 10 men secretly chooses to stay or retreat (the
core's commit/reveal: ``secret_group``, ``resolve_secret``). Victory is
checked at the end of each turn (skirmish.20).

Artillery (skirmish.12-15, 29, 31, 71, 72): in the fire phase each piece
with enough of its crew at it, and each man with a mortar or bazooka, owes a
burst order (``BurstSpace``): a template laid at a point the player chooses.
With all other fire, each ordered burst rolls its ranging shot; a landed one
fires for effect on every man whose base touches it (``structures`` decides
over-the-top cover and damage to buildings). A gun crew beaten in part must
attack the winners in the same turn; a piece is served by one unit only.

Conventions: see ``scenario`` (inches, origin south-west, a figure is its
base's centre). Seats are ``Allies`` and ``Axis``, one per side.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from shapely.geometry import LineString, Point, Polygon

from grognard.core.dice import DiceSource
from grognard.core.engine import ActionSpace, Decision, FiniteSpace, Game, Result
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, at_most, snap, snap_angle
from grognard.rulesets.skirmish import castles as CA
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish import drops as DP
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import shelling as SH
from grognard.rulesets.skirmish import structures as ST
from grognard.rulesets.skirmish.actions import XY, Burst, Choice, Drive, Fire, Move, Order, WedgeOrder
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.driving import DriveSpace
from grognard.rulesets.skirmish.scenario import Scenario, load_scenario
from grognard.rulesets.skirmish.state import (
    Bridge,
    BurstOrder,
    Door,
    Figure,
    FireOrder,
    Piece,
    SkirmishState,
    Unit,
    WedgeFire,
)
from grognard.rulesets.skirmish.tables import FIRES_IN_PART_1, TEMPLATE_ATTACKS, WEDGE_ATTACKS, Tables
from grognard.rulesets.skirmish.terrain import Terrain, terrain_json

SIDES = ("allies", "axis")
SEATS = {"allies": "Allies", "axis": "Axis"}
CHARGE_SHARE = 0.25  # how often a sampled move (the random bot's) is a charge into contact, when an enemy is in reach
WEAPON_VALUE = {"mg": 3.0, "smg": 1.5, "rifle": 1.0, "pistol": 0.8}  # the doctrine's "most valuable target"
TYPE_VALUE = {"officer": 1.5, "cavalry": 1.2}


def other(side: str) -> str:
    return "axis" if side == "allies" else "allies"


def figure_value(figure: Figure) -> float:
    """How much the doctrine bots want a figure dead: by weapon, more for officers and cavalry."""
    return WEAPON_VALUE.get(figure.weapon, 2.0) * TYPE_VALUE.get(figure.type, 1.0)


class SkirmishGame(Game):
    """A skirmish game. ``options`` are resolved (``scenario``, ``turn_limit``)."""

    ruleset = "skirmish"
    sides = SIDES

    def __init__(self, options: Mapping[str, Any], dice: DiceSource, scenario: Scenario | None = None) -> None:
        self.ctx = Context(scenario if scenario is not None else load_scenario(str(options["scenario"])), self)
        super().__init__(dice)
        spec = self.scenario.spec
        figures: dict[str, Figure] = {}
        units: dict[str, Unit] = {}
        drops = {d.unit.upper(): d.move for d in spec.drops}
        for unit in spec.units:
            enters = drops.get(unit.id.upper(), unit.enters)
            ids = []
            for n, fig in enumerate(unit.figures, 1):
                fid = f"{unit.id.upper()}.{n}"
                ids.append(fid)
                figures[fid] = Figure(
                    fid,
                    unit.id.upper(),
                    unit.side,
                    fig.type,
                    fig.weapon,
                    snap(fig.at[0]),
                    snap(fig.at[1]),
                    on_table=enters == 0,
                )
            units[unit.id.upper()] = Unit(unit.id.upper(), unit.side, unit.name, enters, ids)
        doors = {o.id: Door(o.id, o.open) for o in self.base_terrain.openings.values() if o.door}
        limit = options.get("turn_limit") or spec.victory.turn_limit
        state = SkirmishState(dict(options), figures, units, doors)
        state.sections = {
            sec.id: [st.points for st in sec.storeys] for b in self.base_terrain.buildings for sec in b.sections
        }
        state.bridges = {b.id: Bridge(b.id, b.points, b.built) for b in self.base_terrain.bridges}
        state.pieces = {
            p.id.upper(): Piece(p.id.upper(), p.weapon, snap(p.at[0]), snap(p.at[1]), p.heading, p.crew.upper())
            for p in spec.pieces
        }
        state.stats = {
            "turn_limit": int(limit),
            "losses": dict.fromkeys(SIDES, 0),
            "wounds": dict.fromkeys(SIDES, 0),
            "shots": dict.fromkeys(SIDES, 0),
            "hits": dict.fromkeys(SIDES, 0),
            "first_blood": None,
            "melees": 0,
            "first_melee": None,
            "melee_rounds": 0,
            "melee_dead": dict.fromkeys(SIDES, 0),
            "scenario_sha256": self.scenario.digest,
        }
        self.state = state
        DV.setup_vehicles(self.ctx)
        CA.setup_castle(self.ctx)
        self.emit(
            "setup",
            scenario=spec.name,
            title=spec.title,
            tables=self.tables.name,
            scenario_sha256=self.scenario.digest,
            sides={s.id: s.name for s in spec.sides},
            units=len(units),
            figures=len(figures),
            turn_limit=int(limit),
        )
        self._begin_turn()

    # ------------------------------------------------------------------ protocol
    def seats(self) -> tuple[str, ...]:
        return (SEATS["allies"], SEATS["axis"])

    def side_of(self, seat: str) -> str:
        for side, name in SEATS.items():
            if name == seat:
                return side
        raise IllegalAction(f"no seat {seat!r} in this game")

    @property
    def result(self) -> Result | None:
        return self.state.outcome

    @property
    def turn(self) -> int:
        return self.state.turn

    def _resign(self, seat: str) -> None:
        side = self.side_of(seat)
        self.emit("resigned", seat=seat, side=side)
        self._finish(Result("win", other(side), self.state.turn, f"{seat} resigned", self.scores()))

    def state_json(self) -> dict[str, Any]:
        return self.state.to_json()

    def copy_state(self) -> SkirmishState:
        return self.state.copy()

    @property
    def state(self) -> SkirmishState:
        return self.ctx.state

    @state.setter
    def state(self, value: SkirmishState | None) -> None:
        if value is not None:
            self.ctx.state = value

    def clone(self) -> SkirmishGame:
        """An independent copy sharing the dice source, with a context of its own."""
        other = copy.copy(self)
        other.ctx = self.ctx.bind(other, self.copy_state())
        other.sealed = copy.deepcopy(self.sealed)
        other._events = []
        other._pending = None
        other.listener = None
        return other

    # the context's, while the phases move out (transition)
    @property
    def scenario(self) -> Scenario:
        return self.ctx.scenario

    @property
    def tables(self) -> Tables:
        return self.ctx.tables

    @property
    def base_terrain(self) -> Terrain:
        return self.ctx.base_terrain

    @property
    def templates(self) -> dict[str, tuple[str, tuple[XY, ...]]]:
        return self.ctx.templates

    @property
    def railway(self) -> str | None:
        return self.ctx.railway

    @railway.setter
    def railway(self, value: str | None) -> None:
        self.ctx.railway = value

    def view(self, seat: str | None) -> dict[str, Any]:
        """Part 1 hides nothing: every seat sees the whole table (part 2's secret choices will be filtered)."""
        full = self.state.to_json()
        full.pop("done")
        full["seat"] = seat
        full["side"] = self.side_of(seat) if seat in self.seats() else None
        full["pending"] = [{"id": d.id, "seat": d.seat, "prompt": d.prompt} for d in self.pending()]
        full["scenario"] = {
            "name": self.scenario.spec.name,
            "title": self.scenario.spec.title,
            "sides": {s.id: {"name": s.name, "edge": s.edge} for s in self.scenario.spec.sides},
            "objectives": [
                {"id": o.id, "name": o.name, "shape": [list(p) for p in o.shape]} for o in self.scenario.spec.objectives
            ],
            "source": self.scenario.source,
        }
        if self.ctx.terrain_json is None:
            self.ctx.terrain_json = terrain_json(self.base_terrain)
        full["terrain"] = self.ctx.terrain_json
        full["structures"] = {
            "sections": {
                sid: {"points": list(points), "state": ST.state_of(self.ctx, sid)}
                for sid, points in sorted(self.state.sections.items())
            },
            "bridges": {
                bid: {
                    "points": b.points,
                    "standing": bid in ST.standing(self.ctx),
                    "text": ST.describe_bridge(self.ctx, bid),
                }
                for bid, b in sorted(self.state.bridges.items())
            },
            "walls": {
                sid: {"points": points, "state": ST.wall_state(self.ctx, sid)}
                for sid, points in sorted(self.state.walls.items())
            },
        }
        full["ladders"] = [
            {**lad.to_json(), "men": [f.id for f in CA.ladder_men(self.ctx, lad)]}
            for _, lad in sorted(self.state.ladders.items())
        ]
        for wedge in full["wedges"]:
            wedge["outline"] = self.wedge_outline(wedge)
        for piece in full["pieces"]:  # its firing arc, degrees either side of its heading (skirmish.55)
            piece["arc"] = self.tables.artillery[piece["weapon"]].arc
        for laid in full["landed"]:  # the templates laid this turn, as drawn (never stored: shapely's floats)
            shape = R.burst_shape(self.templates[laid["template"]][1], tuple(laid["at"]), laid["angle"])
            laid["shape"] = [[round(x, 2), round(y, 2)] for x, y in shape.exterior.coords]
        full.update(DV.vehicles_view(self.ctx))
        for fig in full["figures"]:  # a man firing another weapon than his own (a vehicle's MG): what he fires
            fires = M.weapon_of(self.ctx, self.state.figures[fig["id"]])
            if fires != fig["weapon"]:
                fig["fires"] = fires
        zones = DP.drop_zones(self.ctx)
        if zones:
            full["drop_zones"] = zones
        return full

    def wedge_outline(self, wedge: Mapping[str, Any]) -> list[list[float]]:
        """A wedge's outline over the table's hills, cut at the table's edges (inches; for pictures)."""
        outline = R.wedge_outline(self.terrain, tuple(wedge["at"]), wedge["heading"], wedge["angle"], wedge["reach"])
        table = Polygon(
            [(0, 0), (self.terrain.width, 0), (self.terrain.width, self.terrain.depth), (0, self.terrain.depth)]
        )
        cut = Polygon(outline).intersection(table)
        points = list(cut.exterior.coords)[:-1] if isinstance(cut, Polygon) and not cut.is_empty else outline
        return [[round(x, 2), round(y, 2)] for x, y in points]

    def decision_id(self, action: Any) -> str | None:
        if isinstance(action, Move):
            return f"move {action.unit}"
        if isinstance(action, Fire):
            return f"fire {action.unit}"
        if isinstance(action, Choice):
            return f"melee {action.group}"
        if isinstance(action, Burst):
            return f"burst {action.by}"
        if isinstance(action, Drive):
            return f"drive {action.vehicle}"
        return None

    # ------------------------------------------------------------------ lookups
    @property
    def terrain(self) -> Terrain:
        return self.ctx.terrain

    def structures_changed(self) -> None:
        self.ctx.structures_changed()

    def seat(self, side: str) -> str:
        return SEATS[side]

    # ------------------------------------------------------------------ decisions
    def _decisions(self) -> tuple[Decision, ...]:
        s = self.state
        out: list[Decision] = []
        if s.phase.startswith("move:"):
            side = s.phase.split(":", 1)[1]
            for label, unit in sorted(s.units.items()):
                if unit.side != side or f"move {label}" in s.done or not M.living(self.ctx, label):
                    continue
                if (M.waiting(self.ctx, unit) and unit.enters > s.turn) or M.just_dropped(self.ctx, label):
                    continue
                out.append(
                    Decision(
                        f"move {label}",
                        SEATS[side],
                        f"{label} ({len(M.living(self.ctx, label))} men): move",
                        MoveSpace(self, label),
                    )
                )
            for label, v in sorted(s.vehicles.items()):
                if v.side == side and f"drive {label}" not in s.done and DV.may_drive(self.ctx, v):
                    out.append(
                        Decision(
                            f"drive {label}", SEATS[side], f"{label} ({v.kind}): drive", DriveSpace(self.ctx, label)
                        )
                    )
        elif s.phase == "melee":
            for group, men in sorted(s.groups.items()):
                side = s.figures[men[0]].side
                out.append(
                    Decision(
                        f"melee {group}",
                        SEATS[side],
                        f"melee group {group} ({', '.join(men)}): stay or retreat, in secret",
                        FiniteSpace([Choice(group, c) for c in ("stay", "retreat")], "skirmish.66", "melee choice"),
                        secret_group=f"melee {s.turn}",
                    )
                )
        elif s.phase == "fire":
            shots = self.shot_table()
            for label, unit in sorted(s.units.items()):
                if f"fire {label}" in s.done:
                    continue
                if any(isinstance(o, FireOrder) for f in unit.figures for o in shots.get(f, {}).values()):
                    out.append(
                        Decision(
                            f"fire {label}",
                            SEATS[unit.side],
                            f"{label} ({len(M.living(self.ctx, label))} men): fire",
                            FireSpace(self, label),
                        )
                    )
            for by, side in self.burst_firers():
                if f"burst {by}" in s.done:
                    continue
                weapon = self.burst_weapon(by)
                out.append(
                    Decision(
                        f"burst {by}",
                        SEATS[side],
                        f"{by} ({weapon.replace('_', ' ')}): lay a burst template or hold",
                        BurstSpace(self, by),
                    )
                )
        return tuple(out)

    def _apply(self, decision: Decision, action: Any) -> None:
        s = self.state
        s.done.add(decision.id)
        if isinstance(action, Move):
            self._move(action)
            self._note_charges(action.unit)
        elif isinstance(action, Drive):
            DV.drive(self.ctx, action)
        elif isinstance(action, Fire):
            self._fire_order(action)
        elif isinstance(action, Burst):
            self._burst_order(action, self.side_of(decision.seat))
        self.ctx.shot_cache = None
        self._advance()

    # ------------------------------------------------------------------ the turn
    def _advance(self) -> None:
        s = self.state
        while s.outcome is None:
            if self._decisions():
                return
            if s.phase.startswith("move:"):
                side = s.phase.split(":", 1)[1]
                if side == s.order[0]:
                    s.phase, s.done = f"move:{s.order[1]}", set()
                else:
                    s.phase, s.done = "fire", set()
                    s.wedges = []  # the last turn's wedges stay on the table until this fire
                    s.landed = []  # last turn's templates come off the table
                    self._crew_pieces()
                    self.ctx.shot_cache = None
            elif s.phase == "fire":
                self._resolve_fire()
                s.phase, s.done = "melee", set()
                self._melee()
            elif s.phase == "melee":
                self._end_turn()
                if s.outcome is None:
                    self._begin_turn()

    def _begin_turn(self) -> None:
        s = self.state
        s.turn += 1
        for f in s.figures.values():
            f.hits = 0
        for b in s.bridges.values():
            b.crossed, b.builders = {}, 0
        s.walked = {}
        self.emit("turn", turn=s.turn)
        CA.ladders_up(self.ctx)
        DV.run_train(self.ctx)
        DP.drop_paratroops(self.ctx)
        first = self.scenario.spec.first_mover
        if first == "initiative":
            first, a, b, ties = R.INITIATIVE.roll(self, "initiative: allies, axis (the higher moves first)")
            self.emit("initiative", allies=a, axis=b, first=first, ties=ties)
        else:
            self.emit("initiative", first=first, fixed=True)
        s.order = (first, other(first))
        s.phase, s.done = f"move:{first}", set()
        self.ctx.shot_cache = None

    def _end_turn(self) -> None:
        s = self.state
        spec = self.scenario.spec
        total = {side: sum(1 for f in s.figures.values() if f.side == side) for side in SIDES}
        alive = {side: sum(1 for f in s.figures.values() if f.side == side and f.alive) for side in SIDES}
        broken = []
        for side_spec in spec.sides:
            side = side_spec.id
            lost = total[side] - alive[side]
            if alive[side] == 0 or (total[side] and lost / total[side] >= side_spec.breaks_at - 1e-9):
                broken.append(side)
        if len(broken) == 2:
            self._finish(Result("draw", None, s.turn, "both sides broke in the same turn", self.scores()))
            return
        if broken:
            side = broken[0]
            why = "has no men left" if alive[side] == 0 else f"lost {total[side] - alive[side]} of {total[side]} men"
            self._finish(Result("win", other(side), s.turn, f"{side} {why}", self.scores()))
            return
        attacker = spec.victory.attacker
        if spec.victory.objectives and all(self.holds(attacker, o) for o in spec.victory.objectives):
            self._finish(
                Result("win", attacker, s.turn, f"{attacker} hold {', '.join(spec.victory.objectives)}", self.scores())
            )
            return
        if s.turn >= s.stats["turn_limit"]:
            at_limit = spec.victory.at_limit
            reason = f"the turn limit ({s.stats['turn_limit']}) is reached"
            if at_limit == "defender":
                self._finish(Result("win", other(attacker), s.turn, reason, self.scores()))
            elif at_limit == "draw":
                self._finish(Result("draw", None, s.turn, reason, self.scores()))
            else:
                self._finish(Result("unfinished", None, s.turn, reason, self.scores()))

    def holds(self, side: str, objective: str) -> bool:
        """``side`` has a living man inside the objective and the enemy has none (skirmish.20)."""
        spec = next(o for o in self.scenario.spec.objectives if o.id == objective)
        shape = Polygon(spec.shape)
        ours = theirs = False
        for f in self.state.figures.values():
            if f.alive and f.on_table and shape.covers(Point(f.x, f.y)):
                if f.side == side:
                    ours = True
                else:
                    theirs = True
        return ours and not theirs

    def scores(self) -> dict[str, Any]:
        s = self.state
        return {
            "allies_lost": s.stats["losses"]["allies"],
            "axis_lost": s.stats["losses"]["axis"],
            "allies_left": sum(1 for f in s.figures.values() if f.side == "allies" and f.alive),
            "axis_left": sum(1 for f in s.figures.values() if f.side == "axis" and f.alive),
        }

    def _finish(self, result: Result) -> None:
        self.state.outcome = result
        self.state.phase = "over"
        self.emit("game_over", **result.to_json())

    # ------------------------------------------------------------------ moving
    def plan_move(self, action: Move) -> dict[str, list[XY]]:
        """Each living figure's path (start first) under ``action``; raises IllegalAction (skirmish.21, 45)."""
        s = self.state
        unit = M.unit(self.ctx, action.unit)
        men = M.living(self.ctx, action.unit)
        if not men:
            raise IllegalAction(f"{action}: unit {unit.id} has no men left", "skirmish.21")
        ids = {f.id for f in men}
        orders = {o.figure: o for o in action.orders}
        for order in action.orders:
            if order.figure not in ids:
                raise IllegalAction(f"{action}: {order.figure} is not a living man of {unit.id}", "skirmish.21")
        waiting = M.waiting(self.ctx, unit)
        if waiting and unit.enters > s.turn:
            raise IllegalAction(f"{action}: {unit.id} comes on from move {unit.enters}", "skirmish.45")
        leader = men[0]
        paths: dict[str, list[XY]] = {}
        for f in men:
            start = (f.x, f.y)
            order = orders.get(f.id)
            walk = CA.plan_castle_path(self.ctx, f, order)
            if walk is not None:
                paths[f.id] = walk
            elif order is not None:
                if order.verb == "to":
                    paths[f.id] = [start, *((snap(x), snap(y)) for x, y in order.points)]
                else:
                    paths[f.id] = [start]
            elif f.on_ladder is not None:
                paths[f.id] = [start]  # a man on a ladder goes where it takes him (skirmish.79)
            elif action.path:
                dx, dy = f.x - leader.x, f.y - leader.y
                paths[f.id] = [start, *((snap(x + dx), snap(y + dy)) for x, y in action.path)]
            else:
                paths[f.id] = [start]
        if waiting:
            moving = [fid for fid, p in paths.items() if len(p) > 1]
            if moving and len(moving) != len(men):
                raise IllegalAction(f"{action}: a unit comes onto the table whole", "skirmish.45")
            if any(o.verb != "to" for o in action.orders):
                raise IllegalAction(f"{action}: men off the table can only come on", "skirmish.45")
            if not moving:
                self._check_hold_off(action, unit)
        return paths

    def plan_turn(self, action: Move) -> float:
        """The heading (degrees) ``action``'s crew turns its piece to (skirmish.55); raises IllegalAction
        naming the rule: the piece must be the unit's to serve, unhitched, with its minimum crew at it, and
        the turn is the crew's whole move."""
        s = self.state
        turn = action.turn
        assert turn is not None
        if action.path or action.orders:
            raise IllegalAction(f"{action}: turning a piece is the crew's whole move", "skirmish.55")
        unit = M.unit(self.ctx, action.unit)
        piece = s.pieces.get(turn.piece)
        if piece is None:
            raise IllegalAction(f"{action}: no piece {turn.piece!r} in this game", "skirmish.55")
        if piece.crew != unit.id:
            served = f"served by {piece.crew}" if piece.crew else "without a crew"
            raise IllegalAction(f"{action}: piece {piece.id} is {served}, not {unit.id}'s to turn", "skirmish.72")
        if piece.hitched is not None:
            raise IllegalAction(
                f"{action}: piece {piece.id} is hitched to {piece.hitched}: unhitch it to turn it", "skirmish.61"
            )
        short = M.crew_short(self.ctx, piece)
        if short is not None:
            raise IllegalAction(f"{action}: {short[1]} to turn it", short[0])
        if turn.at is not None:
            at = (snap(turn.at[0]), snap(turn.at[1]))
            if math.hypot(at[0] - piece.x, at[1] - piece.y) <= TOLERANCE:
                raise IllegalAction(f"{action}: the point to face is the piece's own place", "skirmish.55")
            return R.bearing((piece.x, piece.y), at)
        return snap_angle(turn.heading or 0.0)

    def _check_hold_off(self, action: Move, unit: Unit) -> None:
        """At least half the army (by units) comes on in the first move (skirmish.45)."""
        s = self.state
        if s.turn != 1:
            return
        army = [u for u in s.units.values() if u.side == unit.side and u.enters <= 1]
        need = math.ceil(len(army) / 2)
        may_stay = len(army) - need
        if s.held_off.get(unit.side, 0) + 1 > may_stay:
            raise IllegalAction(
                f"{action}: at least {need} of the {len(army)} units must be on the table after the first move",
                "skirmish.45",
            )

    def check_move(self, action: Move) -> dict[str, tuple[list[XY], R.PathMeasure]]:
        """Check ``action`` whole against the rules; returns each man's path and its measure.

        Raises :class:`IllegalAction` naming the rule for the first problem found.
        """
        s = self.state
        if action.turn is not None:
            self.plan_turn(action)
        paths = self.plan_move(action)
        terrain = self.terrain
        orders = {o.figure: o for o in action.orders}
        opened = M.open_doors(self.ctx)
        changed_now: set[str] = set()
        for order in action.orders:
            if order.verb in ("open", "close"):
                changed_now.add(self._check_door(action, order))
            elif order.verb == "wire":
                self._check_wire(action, order)
            elif order.verb == "traps":
                self._check_traps(action, order)
        self._check_build(action)
        enemies = M.enemies(self.ctx, M.unit(self.ctx, action.unit).side)
        base = self.tables.sight.base.value
        out: dict[str, tuple[list[XY], R.PathMeasure]] = {}
        for fid, path in paths.items():
            f = s.figures[fid]
            if len(path) < 2:
                out[fid] = (path, R.PathMeasure(0.0, 0.0))
                continue
            if len(path) > 4:
                raise IllegalAction(f"{action}: {fid}'s path has more than two waypoints", "skirmish.21")
            if f.aboard is not None:
                DV.check_foot_path(self.ctx, action, f, path, 0.0)  # he rides: refused at once (skirmish.61)
            if fid in s.engaged:
                raise IllegalAction(
                    f"{action}: {fid} is in a melee: he leaves it only by retreating when both sides miss",
                    "skirmish.68",
                )
            for enemy in enemies:
                if R.path_near(path, (enemy.x, enemy.y), base):
                    raise IllegalAction(
                        f"{action}: {fid} would pass onto or through {enemy.id}'s base "
                        "(he may charge only until the bases touch)",
                        "skirmish.10",
                    )
            allowance = M.allowance(self.ctx, f)
            for x, y in path[1:] if f.on_table else path[-1:]:
                if not terrain.on_table(x, y):
                    raise IllegalAction(f"{action}: {fid} would leave the table at ({x:g}, {y:g})", "skirmish.2")
            if f.on_wall is not None or f.on_ladder is not None:
                measure = CA.check_wall_path(self.ctx, action, f, path)
            else:
                measure = R.measure_path(terrain, path, allowance, river_paid=f.river_paid, open_doors=opened)
                if measure.problem is None:
                    CA.check_ground_end(self.ctx, action, f, path)
            if measure.problem is not None:
                rule, why = measure.problem
                raise IllegalAction(f"{action}: {fid}: {why}", rule)
            DV.check_foot_path(self.ctx, action, f, path, measure.cost)
            if not at_most(measure.cost, allowance):
                raise IllegalAction(
                    f"{action}: {fid}'s path costs {measure.describe()}, more than his {allowance:g}\" move",
                    _cost_rule(measure, f.type, allowance),
                )
            for door in measure.doors:
                if s.doors[door].changed == s.turn or door in changed_now:
                    raise IllegalAction(
                        f"{action}: {fid} cannot pass door {door}: it was opened or closed this turn", "skirmish.65"
                    )
            if f.weapon in R.HEAVY_IN_POND and not terrain.pond.is_empty:
                if LineString(path).intersection(terrain.pond).length > TOLERANCE:
                    raise IllegalAction(
                        f"{action}: {fid} carries a {f.weapon}: it may not go into a pond or bay", "skirmish.53"
                    )
            out[fid] = (path, measure)
        self._check_crossings(action, out)
        CA.check_castle_orders(self.ctx, action, out)
        if orders and any(o.verb in ("open", "close") for o in orders.values()):
            passed = {d for _, m in out.values() for d in m.doors}
            clash = passed & changed_now
            if clash:
                raise IllegalAction(
                    f"{action}: door {sorted(clash)[0]} cannot be opened or closed and passed in one turn",
                    "skirmish.65",
                )
        return out

    def _check_door(self, action: Move, order: Order) -> str:
        s = self.state
        door = s.doors.get(order.door or "")
        if door is None:
            raise IllegalAction(
                f"{action}: no door {order.door!r} (doors: {', '.join(s.doors) or 'none'})", "skirmish.65"
            )
        f = s.figures[order.figure]
        opening = self.terrain.openings[door.id]
        reach = self.tables.sight.opening_reach.value
        if math.hypot(f.x - opening.at[0], f.y - opening.at[1]) > reach + TOLERANCE:
            raise IllegalAction(f'{action}: {f.id} is not within {reach:g}" of door {door.id}', "skirmish.65")
        if door.blown:
            raise IllegalAction(f"{action}: door {door.id} was blown off (skirmish.77): it stays open", "skirmish.77")
        if (order.verb == "open") == door.open:
            raise IllegalAction(
                f"{action}: door {door.id} is already {'open' if door.open else 'closed'}", "skirmish.65"
            )
        if door.passed == s.turn:
            raise IllegalAction(
                f"{action}: troops passed door {door.id} this turn: it cannot be opened or closed now", "skirmish.65"
            )
        if door.changed == s.turn:
            raise IllegalAction(f"{action}: door {door.id} was already opened or closed this turn", "skirmish.65")
        return door.id

    def _reach_check(self, action: Move, order: Order, rule: str) -> None:
        """Works go on the table within ``engineering.reach`` of the man: each trap, or the wire's line."""
        f = self.state.figures[order.figure]
        reach = self.tables.engineering.reach.value
        for x, y in order.points:
            if not self.terrain.on_table(x, y):
                raise IllegalAction(f"{action}: ({x:g}, {y:g}) is off the table", rule)
        if order.verb == "wire":
            gap = LineString(order.points).distance(Point(f.x, f.y))
            if gap > reach + TOLERANCE:
                raise IllegalAction(f'{action}: the wire is {gap:.2f}" from {f.id}, more than {reach:g}"', rule)
            return
        for x, y in order.points:
            if math.hypot(x - f.x, y - f.y) > reach + TOLERANCE:
                raise IllegalAction(f'{action}: ({x:g}, {y:g}) is more than {reach:g}" from {f.id}', rule)

    def _check_wire(self, action: Move, order: Order) -> None:
        (x0, y0), (x1, y1) = order.points
        most = self.tables.engineering.wire_per_move.value
        length = math.hypot(x1 - x0, y1 - y0)
        if length <= TOLERANCE:
            raise IllegalAction(f"{action}: the wire has no length", "skirmish.64")
        if not at_most(length, most):
            raise IllegalAction(
                f'{action}: {length:.2f}" of wire; one man lays at most {most:g}" a move', "skirmish.64"
            )
        self._reach_check(action, order, "skirmish.64")

    def _check_build(self, action: Move) -> None:
        """Men at work on a bridge not yet built: within reach of its site, at most 10 a bridge a move (S10)."""
        s = self.state
        sites = ST.bridge_sites(self.ctx)
        reach = self.tables.engineering.reach.value
        most = int(self.tables.bridges.most_builders.value)
        work = [o for o in action.orders if o.verb == "build"]
        for name in sorted({o.bridge or "" for o in work}):
            at_work = s.bridges[name].builders if name in s.bridges else 0
            count = sum(1 for o in work if o.bridge == name)
            if at_work + count > most:
                raise IllegalAction(
                    f"{action}: at most {most} men work on bridge {name} in a move "
                    f"({at_work} already at work this move, {count} more ordered)",
                    "skirmish.86",
                )
        for order in work:
            bridge = s.bridges.get(order.bridge or "")
            if bridge is None:
                raise IllegalAction(
                    f"{action}: no bridge {order.bridge!r} (bridges: {', '.join(sorted(s.bridges)) or 'none'})",
                    "skirmish.86",
                )
            if bridge.built:
                raise IllegalAction(f"{action}: bridge {bridge.id} is already built", "skirmish.86")
            f = s.figures[order.figure]
            gap = sites[bridge.id].deck.distance(Point(f.x, f.y))
            if not f.on_table or gap > reach + TOLERANCE:
                raise IllegalAction(
                    f'{action}: {f.id} is {gap:.2f}" from bridge {bridge.id}\'s site, more than {reach:g}"',
                    "skirmish.86",
                )

    def bridges_used(self, path: list[XY]) -> list[str]:
        """The standing bridges a path sets foot on (its line meets the deck)."""
        if len(path) < 2:
            return []
        line = LineString(path)
        sites = ST.bridge_sites(self.ctx)
        return [bid for bid in sorted(ST.standing(self.ctx)) if line.intersects(sites[bid].deck)]

    def _check_crossings(self, action: Move, paths: dict[str, tuple[list[XY], R.PathMeasure]]) -> None:
        """Men abreast: at most abreast x ranks_per_move men of a side cross a bridge in a turn (skirmish.88-89)."""
        s = self.state
        side = M.unit(self.ctx, action.unit).side
        count: dict[str, int] = {}
        for path, _ in paths.values():
            for bid in self.bridges_used(path):
                count[bid] = count.get(bid, 0) + 1
        sites = ST.bridge_sites(self.ctx)
        for bid, n in sorted(count.items()):
            most = ST.bridge_capacity(self.ctx, bid)
            done = s.bridges[bid].crossed.get(side, 0)
            if done + n > most:
                rule = "skirmish.89" if sites[bid].type == "foot" else "skirmish.88"
                raise IllegalAction(
                    f"{action}: {ST.describe_bridge(self.ctx, bid)} takes {most} men of a side a turn; "
                    f"{done} have crossed, {n} more would make {done + n}",
                    rule,
                )

    def _check_traps(self, action: Move, order: Order) -> None:
        (x0, y0), (x1, y1) = order.points
        spacing = self.tables.engineering.trap_spacing.value
        gap = math.hypot(x1 - x0, y1 - y0)
        if abs(gap - spacing) > TOLERANCE:
            raise IllegalAction(f'{action}: the two tank traps stand {spacing:g}" apart, not {gap:.2f}"', "skirmish.63")
        self._reach_check(action, order, "skirmish.63")

    def _move(self, action: Move) -> None:
        s = self.state
        checked = self.check_move(action)
        unit = M.unit(self.ctx, action.unit)
        terrain = self.terrain
        waiting = M.waiting(self.ctx, unit)
        moved = []
        if action.turn is not None:
            piece = s.pieces[action.turn.piece]
            piece.heading = self.plan_turn(action)
            piece.turned = s.turn
            for f in M.living(self.ctx, unit.id):  # the turn is their whole move (skirmish.55, 61)
                s.walked[f.id] = M.allowance(self.ctx, f)
            self.emit("piece_turned", piece=piece.id, crew=unit.id, heading=piece.heading)
            return
        for order in action.orders:
            if order.verb in ("open", "close"):
                door = s.doors[order.door or ""]
                door.open = order.verb == "open"
                door.changed = s.turn
                self.emit("door", figure=order.figure, door=door.id, open=door.open)
            elif order.verb == "wire":
                a, b = ((snap(x), snap(y)) for x, y in order.points)
                s.wires = (*s.wires, (a, b))
                self.emit("wire_laid", figure=order.figure, line=[list(a), list(b)])
            elif order.verb == "traps":
                a, b = ((snap(x), snap(y)) for x, y in order.points)
                s.traps = (*s.traps, a, b)
                self.emit("traps_set", figure=order.figure, at=[list(a), list(b)])
            elif order.verb == "build":
                self._build(order)
        for fid, (path, measure) in checked.items():
            f = s.figures[fid]
            if len(path) < 2:
                continue
            x, y = path[-1]
            entered_river = measure.rivers > 0
            f.x, f.y = x, y
            f.on_table = True
            if f.on_wall is not None:
                f.on_wall = CA.on_a_top(self.ctx, x, y) or f.on_wall
            s.walked[fid] = round(s.walked.get(fid, 0.0) + measure.cost, 2)
            f.river_paid = terrain.in_river(x, y) and (f.river_paid or entered_river)
            for door in measure.doors:
                s.doors[door].passed = s.turn
            for bid in self.bridges_used(path):
                crossed = s.bridges[bid].crossed
                crossed[f.side] = crossed.get(f.side, 0) + 1
            moved.append({"figure": fid, "to": [x, y], "cost": round(measure.cost, 2)})
        CA.castle_orders(self.ctx, action)
        if waiting and not moved:
            s.held_off[unit.side] = s.held_off.get(unit.side, 0) + (1 if s.turn == 1 else 0)
            self.emit("waits", unit=unit.id)
        elif moved:
            self.emit("moved", unit=unit.id, figures=moved, entered=waiting)
        elif not action.orders:
            self.emit("holds", unit=unit.id)

    def _build(self, order: Order) -> None:
        """One man-move of work on a bridge; at ``man_moves`` it is built, whole (skirmish.86, S10)."""
        bridge = self.state.bridges[order.bridge or ""]
        bridge.work += 1
        bridge.builders += 1
        need = int(self.tables.bridges.man_moves.value)
        self.emit("bridge_work", figure=order.figure, bridge=bridge.id, work=bridge.work, of=need)
        if bridge.work >= need:
            bridge.built = True
            bridge.points = self.tables.bridges.types[ST.bridge_sites(self.ctx)[bridge.id].type].points
            self.emit("bridge_built", bridge=bridge.id, points=bridge.points)
            self.structures_changed()

    # ------------------------------------------------------------------ fire
    def can_fire(self, f: Figure) -> tuple[str, str] | None:
        """Why ``f`` may not fire now (rule, why), or None (skirmish.47, 52, 12 and 16 for part 3's weapons)."""
        if not f.alive or not f.on_table:
            return ("skirmish.30", f"{f.id} is not on the table")
        if M.just_dropped(self.ctx, f.unit):
            return ("skirmish.26", f"{f.id} came down by parachute this move: he acts from the next")
        if f.aboard is not None:
            v = self.state.vehicles[f.aboard]
            driver = M.driver(self.ctx, v)
            if driver is not None and driver.id == f.id:
                if "mg" in v.weapons and M.gunner(self.ctx, v) is None:
                    return ("skirmish.60", f"{f.id} drives {v.id}: its MG needs a man besides the driver")
                return ("skirmish.57", f"{f.id} drives {v.id} and does not fire")
        if f.on_ladder is not None:
            return ("skirmish.79", f"{f.id} is on ladder {f.on_ladder}: men on a ladder do not fire")
        if f.aboard is not None:
            v = self.state.vehicles[f.aboard]
            gun = M.tank_gun(self.ctx, v)
            if gun is not None and M.manned(self.ctx, v).get(gun) == f:
                return ("skirmish.31", f"{f.id} lays {v.id}'s {gun.replace('_', ' ')}: give it a burst order")
        weapon = M.weapon_of(self.ctx, f)
        kind = self.tables.attack(weapon)
        if kind in TEMPLATE_ATTACKS:
            return ("skirmish.12", f"{f.id}'s {weapon} fires a burst template: give it a burst order")
        if kind not in FIRES_IN_PART_1 and kind not in WEDGE_ATTACKS:
            return ("skirmish.16", f"{f.id}'s {weapon} has no way to fire in these tables")
        serves = M.serving(self.ctx, f)
        if serves is not None:
            return ("skirmish.31", f"{f.id} serves piece {serves} and fires it, not his {weapon}")
        terrain = self.terrain
        if f.aboard is not None:
            return None  # he rides: the river or pond is the vehicle's (skirmish.49, 50)
        if terrain.in_river(f.x, f.y):
            return ("skirmish.47", f"{f.id} is in the river and cannot fire")
        if terrain.in_pond(f.x, f.y):
            return ("skirmish.52", f"{f.id} is swimming and cannot fire")
        return None

    def shot(self, shooter: Figure, target: Figure) -> FireOrder | tuple[str, str]:
        """The shot ``shooter`` would fire at ``target`` now, or why not (rule, why) (skirmish.11, 24, 30-34)."""
        if target.side == shooter.side:
            return ("skirmish.30", f"{target.id} is on the same side")
        if not target.alive or not target.on_table:
            return ("skirmish.30", f"{target.id} is not on the table")
        terrain = self.terrain
        a, b = (shooter.x, shooter.y), (target.x, target.y)
        blocked = R.line_of_sight(terrain, a, b, M.open_doors(self.ctx))
        if blocked is not None:
            return ("skirmish.11", f"{shooter.id} cannot see {target.id}: {blocked} is in the way")
        distance = R.effective_range(terrain, a, b)
        weapon = M.weapon_of(self.ctx, shooter)
        band = self.tables.band_index(weapon, distance)
        if band is None:
            reach = self.tables.max_range(weapon)
            return ("skirmish.24", f'{target.id} is {distance:.2f}" away, beyond the {weapon}\'s {reach:g}"')
        attack = self.tables.attack(weapon)
        covered = R.cover(terrain, a, b, attack)
        _, hit_on, shift = R.shot_numbers(self.tables, weapon, target.type, distance, covered is not None)
        return FireOrder(shooter.id, target.id, attack, band, hit_on, shift, covered is not None, round(distance, 2))

    def shot_table(self) -> dict[str, dict[str, FireOrder | tuple[str, str]]]:
        """Every man's possible shots now: shooter -> target -> FireOrder or (rule, why). Cached until a change."""
        s = self.state
        key = (
            s.turn,
            s.phase,
            tuple((f.x, f.y, f.alive, f.on_table) for f in s.figures.values()),
            tuple(d.open for d in s.doors.values()),
            s.wires,
            s.traps,
            tuple(tuple(p) for p in s.sections.values()),
            tuple((b.built, b.points) for b in s.bridges.values()),
            tuple(p.crew for p in s.pieces.values()),
            self.ctx.moving_key(),
        )
        if self.ctx.shot_cache is not None and self.ctx.shot_cache[0] == key:
            return self.ctx.shot_cache[1]
        table: dict[str, dict[str, FireOrder | tuple[str, str]]] = {}
        targets = [f for f in s.figures.values() if f.alive and f.on_table]
        for shooter in targets:
            why = self.can_fire(shooter)
            if why is not None:
                table[shooter.id] = {}
                continue
            reach = self.tables.max_range(M.weapon_of(self.ctx, shooter)) + 2 * max(
                (h.height for h in self.terrain.hills), default=0
            )
            row: dict[str, FireOrder | tuple[str, str]] = {}
            for target in targets:
                if target.side == shooter.side:
                    continue
                if math.hypot(target.x - shooter.x, target.y - shooter.y) > reach * 2 + 1:
                    continue
                row[target.id] = self.shot(shooter, target)
            table[shooter.id] = row
        self.ctx.shot_cache = (key, table)
        return table

    def wedge(self, gunner: Figure, heading: float) -> tuple[WedgeFire, list[FireOrder]]:
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
        heading = snap_angle(heading)
        tables, terrain = self.tables, self.terrain
        weapon = M.weapon_of(self.ctx, gunner)
        angle = tables.wedge.angle.value
        reach = tables.max_range(weapon)
        base = tables.sight.base.value
        attack = tables.attack(weapon)
        bands = tables.weapons[weapon].bands
        apex = (gunner.x, gunner.y)
        longest = (
            reach + max((h.height for h in terrain.hills), default=0.0) * tables.hills.range_downhill_per_inch.value
        )
        record = WedgeFire(gunner.id, gunner.unit, weapon, apex, heading, angle, reach, self.state.turn)
        shots: list[FireOrder] = []
        opened = M.open_doors(self.ctx)
        for f in sorted(self.state.figures.values(), key=lambda g: g.id):
            if f.id == gunner.id or not f.alive or not f.on_table:
                continue
            if gunner.aboard is not None and f.aboard == gunner.aboard:
                continue  # the vehicle's MG fires out of it, not into the men it carries (skirmish.60 reading)
            at = (f.x, f.y)
            if math.hypot(f.x - apex[0], f.y - apex[1]) > longest + base:
                continue
            if not R.under_wedge(terrain, apex, heading, angle, reach, at, base):
                continue
            if R.line_of_sight(terrain, apex, at, opened) is not None:
                record.unseen.append(f.id)
                continue
            distance = R.effective_range(terrain, apex, at)
            band = tables.band_index(weapon, distance)
            band = len(bands) - 1 if band is None else band
            covered = R.cover(terrain, apex, at, attack) is not None
            shift = tables.men[f.type].hit_shift - (1 if covered else 0)
            shots.append(
                FireOrder(gunner.id, f.id, attack, band, bands[band].hit_on, shift, covered, round(distance, 2))
            )
            record.men.append(f.id)
        return record, shots

    def _check_wedges(self, action: Fire, ids: set[str], orders: Mapping[str, str]) -> dict[str, float]:
        """Each wedge order's heading (degrees); raises IllegalAction for a bad one (skirmish.16, 30)."""
        s = self.state
        out: dict[str, float] = {}
        for w in action.wedges:
            if w.figure not in ids:
                raise IllegalAction(f"{action}: {w.figure} is not a living man of {action.unit}", "skirmish.30")
            if w.figure in orders or w.figure in out:
                raise IllegalAction(f"{action}: {w.figure} is given two targets", "skirmish.30")
            f = s.figures[w.figure]
            why = self.can_fire(f)  # first: a driver or a man in a river fires nothing at all
            if why is not None:
                raise IllegalAction(f"{action}: {why[1]}", why[0])
            weapon = M.weapon_of(self.ctx, f)
            if not self.tables.fires_wedge(weapon):
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

    def plan_fire(self, action: Fire) -> list[FireOrder]:
        """The shots of ``action``, one per man who fires and one per man under a wedge; raises IllegalAction
        (skirmish.4, 11, 16, 24, 30)."""
        return self.plan_fire_and_wedges(action)[0]

    def plan_fire_and_wedges(self, action: Fire) -> tuple[list[FireOrder], list[WedgeFire]]:
        """The shots of ``action`` and the wedges its MGs and flame throwers fire; raises IllegalAction.

        A man with a wedge weapon fires his wedge at his order's heading or
        point; without one, at the man of his target he would have fired at
        (the bearing to him). Wedge shots count in the spread of the unit's
        fire like any others (skirmish.16, 30).
        """
        s = self.state
        unit = M.unit(self.ctx, action.unit)
        men = M.living(self.ctx, action.unit)
        ids = {f.id for f in men}
        table = self.shot_table()
        orders = dict(action.orders)
        for fid in orders:
            if fid not in ids:
                raise IllegalAction(f"{action}: {fid} is not a living man of {unit.id}", "skirmish.30")
        if action.target is not None:
            target_unit = s.units.get(action.target)
            if target_unit is None or target_unit.side == unit.side:
                raise IllegalAction(f"{action}: {action.target} is not an enemy unit", "skirmish.30")
        headings = self._check_wedges(action, ids, orders)
        shots: list[FireOrder] = []
        wedges: list[WedgeFire] = []
        load: dict[str, int] = {}

        def fire_wedge(f: Figure, heading: float) -> None:
            record, hits = self.wedge(f, heading)
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
            why = self.can_fire(f)
            if why is not None:
                if explicit:
                    raise IllegalAction(f"{action}: {why[1]}", why[0])
                continue
            row = table.get(f.id, {})
            if "." in aim:
                target = s.figures.get(aim)
                if target is None:
                    raise IllegalAction(f"{action}: no figure {aim}", "skirmish.30")
                shot = row.get(aim) or self.shot(f, target)
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
            if self.tables.fires_wedge(M.weapon_of(self.ctx, f)):
                aimed = s.figures[shot.target]
                fire_wedge(f, R.bearing((f.x, f.y), (aimed.x, aimed.y)))
                continue
            shots.append(shot)
            load[shot.target] = load.get(shot.target, 0) + 1
        if action.target is not None and not any(o.target in s.units[action.target].figures for o in shots):
            reasons = [
                o
                for f in men
                for t in s.units[action.target].figures
                if isinstance(o := table.get(f.id, {}).get(t), tuple)
            ]
            rule, why_not = (
                reasons[0] if reasons else ("skirmish.30", f"no man of {unit.id} can fire at {action.target}")
            )
            raise IllegalAction(f"{action}: no man of {unit.id} can fire at {action.target} ({why_not})", rule)
        return shots, wedges

    def _fire_order(self, action: Fire) -> None:
        shots, wedges = self.plan_fire_and_wedges(action)
        s = self.state
        s.fire[action.unit] = shots
        s.wedges.extend(wedges)
        for w in wedges:
            side = s.units[action.unit].side
            self.emit(
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
            self.emit(
                "fire_order",
                unit=action.unit,
                men=len({o.shooter for o in shots} | {w.gunner for w in wedges}),
                dice=len(shots),
                targets=targets,
            )
        else:
            self.emit("holds_fire", unit=action.unit)

    def _resolve_fire(self) -> None:
        """All fire at once: every die rolled, then hits counted and survival rolled (skirmish.4-7, S0, S5)."""
        s = self.state
        new_hits: dict[str, int] = {}
        attack_of: dict[str, str] = {}
        for unit_id, shots in sorted(s.fire.items()):
            side = s.units[unit_id].side
            groups: dict[tuple[str, int, int, bool, int], list[float]] = {}
            for o in shots:
                groups.setdefault((o.target, o.hit_on, o.shift, o.cover, o.band), []).append(o.range)
            for (target, hit_on, shift, covered, band), ranges in groups.items():
                n = len(ranges)
                mechanic = R.Shots(n, hit_on, shift)
                span = f"{min(ranges):g}" if min(ranges) == max(ranges) else f"{min(ranges):g}-{max(ranges):g}"
                purpose = (
                    f'{unit_id} fires {n} {"die" if n == 1 else "dice"} at {target}: {span}" '
                    f"(band {band + 1}), hits on {hit_on}+"
                    + (f", die {shift:+d}" if shift else "")
                    + (" (cover)" if covered else "")
                )
                hits = mechanic.roll(self, purpose)
                s.stats["shots"][side] += n
                s.stats["hits"][side] += hits
                self.emit(
                    "shots", unit=unit_id, target=target, dice=n, hit_on=hit_on, shift=shift, cover=covered, hits=hits
                )
                if hits:
                    new_hits[target] = new_hits.get(target, 0) + hits
                    attack_of[target] = next(o.attack for o in shots if o.target == target)
        s.fire = {}
        self._resolve_bursts(new_hits, attack_of)
        for fid in sorted(new_hits):
            f = s.figures[fid]
            if not f.alive:  # a section the shells brought down fell on him first (skirmish.18)
                continue
            f.hits += new_hits[fid]
            if f.hits >= 2:
                M.kill(self.ctx, f, f"hit {f.hits} times this turn")
                continue
            survive = self.tables.survive_on(attack_of[fid])
            if R.Survival(survive).roll(self, f"{fid} is hit: survives on {survive}+"):
                f.wounds += 1
                s.stats["wounds"][f.side] += 1
                self.emit("wounded", figure=fid)
            else:
                M.kill(self.ctx, f, "failed his survival roll")

    # ------------------------------------------------------------------ artillery (skirmish.12-15, 29, 31, 72)
    def _crew_pieces(self) -> None:
        """At the start of the fire phase (a piece is abandoned when the last man of its crew dies): an abandoned
        piece is taken by the one unit whose men stand within reach of it, if all of them are of one side
        (no mixed crews, skirmish.72: the unit with most men there takes it, the lower name on a tie)."""
        s = self.state
        for piece in sorted(s.pieces.values(), key=lambda p: p.id):
            if piece.crew is not None:
                continue
            reach = self.tables.artillery[piece.weapon].reach
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
            self.emit("piece_taken", piece=piece.id, crew=taker, side=s.units[taker].side)

    def burst_weapon(self, by: str) -> str:
        """The burst weapon fired by ``by``: a piece's, a tank's gun, or a man's mortar or bazooka (``weapon_of``)."""
        if by in self.state.pieces:
            return str(self.state.pieces[by].weapon)
        if by in self.state.vehicles:
            return str(M.tank_gun(self.ctx, self.state.vehicles[by]))
        return M.weapon_of(self.ctx, self.state.figures[by])

    def burst_firers(self) -> list[tuple[str, str]]:
        """(piece or man, side) of everything that may lay a burst template now, in name order."""
        s = self.state
        out: list[tuple[str, str]] = []
        for pid, piece in sorted(s.pieces.items()):
            if piece.crew is not None and M.piece_ready(self.ctx, piece) is None:
                out.append((pid, s.units[piece.crew].side))
        for vid, v in sorted(s.vehicles.items()):
            gun = M.tank_gun(self.ctx, v)
            if gun is not None and M.manned(self.ctx, v).get(gun) is not None:
                out.append((vid, v.side))
        for fid, f in sorted(s.figures.items()):
            if M.weapon_of(self.ctx, f) in self.tables.artillery and self._man_burst_problem(f) is None:
                out.append((fid, f.side))
        return out

    def _man_burst_problem(self, f: Figure) -> tuple[str, str] | None:
        if not f.alive or not f.on_table:
            return ("skirmish.12", f"{f.id} is not on the table")
        if f.aboard is not None:
            driver = M.driver(self.ctx, self.state.vehicles[f.aboard])
            if driver is not None and driver.id == f.id:
                return ("skirmish.57", f"{f.id} drives {f.aboard} and does not fire")
            return None  # he rides: the river or pond is the vehicle's (skirmish.49, 50)
        if self.terrain.in_river(f.x, f.y):
            return ("skirmish.47", f"{f.id} is in the river and cannot fire")
        if self.terrain.in_pond(f.x, f.y):
            return ("skirmish.52", f"{f.id} is swimming and cannot fire")
        return None

    def template_shape(self, weapon: str, name: str | None) -> tuple[str, tuple[XY, ...]] | None:
        """(id, corners) of the template ``name`` of ``weapon``'s burst class (default: its first), or None."""
        cls = self.tables.artillery[weapon].burst
        if name is None:
            name = next(tid for tid, (c, _) in self.templates.items() if c == cls)
        found = self.templates.get(name)
        if found is None or found[0] != cls:
            return None
        return name, found[1]

    def plan_burst(self, side: str, action: Burst) -> BurstOrder | None:
        """The burst order of ``action`` by ``side`` (None: holds fire); raises IllegalAction naming the rule
        (skirmish.11 sight, 12 who fires, 13 once a turn, 15 template, 29 range, 31 crew, 72 no mixed crews).

        The landing point is stored to 0.01"; the range is measured from the piece's (or man's) centre to
        it, adjusted up or down hill (skirmish.29).
        """
        s = self.state
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
            why = M.piece_ready(self.ctx, piece)
            if why is not None:
                raise IllegalAction(f"{action}: {why[1]}", why[0])
            origin: XY = (piece.x, piece.y)
        elif by in s.vehicles:
            v = s.vehicles[by]
            gun = M.tank_gun(self.ctx, v)
            if gun is None:
                raise IllegalAction(f"{action}: {by} ({v.kind}) carries no gun", "skirmish.12")
            if v.side != side:
                raise IllegalAction(f"{action}: {by} is not a vehicle of the {side}", "skirmish.12")
            if M.manned(self.ctx, v).get(gun) is None:
                need = max(1, round(self.tables.vehicles.weapon_crew.value))
                raise IllegalAction(
                    f"{action}: {by}'s {gun.replace('_', ' ')} needs {need} man besides the driver aboard",
                    "skirmish.31",
                )
            origin = (v.x, v.y)
        elif by in s.figures:
            f = s.figures[by]
            if f.side != side:
                raise IllegalAction(f"{action}: {by} is not a man of the {side}", "skirmish.12")
            weapon = M.weapon_of(self.ctx, f)
            if weapon not in self.tables.artillery:
                raise IllegalAction(
                    f"{action}: {by}'s {weapon.replace('_', ' ')} fires no burst template", "skirmish.12"
                )
            why = self._man_burst_problem(f)
            if why is not None:
                raise IllegalAction(f"{action}: {why[1]}", why[0])
            origin = (f.x, f.y)
        else:
            raise IllegalAction(f"{action}: no piece or man {by!r} in this game", "skirmish.12")
        if by in s.bursts:
            raise IllegalAction(f"{action}: {by} has already fired this turn", "skirmish.13")
        if action.at is None:
            return None
        weapon = self.burst_weapon(by)
        entry = self.tables.artillery[weapon]
        at = (snap(action.at[0]), snap(action.at[1]))
        if not self.terrain.on_table(*at):
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
        shape = self.template_shape(weapon, action.template)
        if shape is None:
            own = sorted(t for t, (c, _) in self.templates.items() if c == entry.burst)
            raise IllegalAction(
                f"{action}: {action.template!r} is not a {entry.burst} template ({', '.join(own)})", "skirmish.15"
            )
        distance = R.effective_range(self.terrain, origin, at)
        band = self.tables.burst_band(weapon, distance)
        if band is None:
            raise IllegalAction(
                f'{action}: the aim point is {distance:.2f}" away, beyond the {weapon}\'s {entry.bands[-1].to:g}"',
                "skirmish.29",
            )
        opened = M.open_doors(self.ctx)
        if entry.indirect:
            if not any(
                R.line_of_sight(self.terrain, (g.x, g.y), at, opened) is None
                for g in s.figures.values()
                if g.side == side and g.alive and g.on_table
            ):
                raise IllegalAction(
                    f"{action}: no man of the {side} sees ({at[0]:g}, {at[1]:g}): indirect fire needs an observer",
                    "skirmish.11",
                )
        else:
            blocked = R.line_of_sight(self.terrain, origin, at, opened)
            if blocked is not None:
                raise IllegalAction(
                    f"{action}: {by} cannot see ({at[0]:g}, {at[1]:g}): {blocked} is in the way (direct fire)",
                    "skirmish.11",
                )
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

    def burst_polygon(self, order: BurstOrder) -> Polygon:
        """The template of ``order`` as laid on the table (shapely; never stored)."""
        return R.burst_shape(self.templates[order.template][1], order.at, order.angle)

    def under(self, template: Polygon) -> list[Figure]:
        """Every living man on the table whose base touches ``template`` (skirmish.14), of either side."""
        base = self.tables.sight.base.value
        return [
            f
            for _, f in sorted(self.state.figures.items())
            if f.alive and f.on_table and R.under_template(template, (f.x, f.y), base)
        ]

    def _burst_order(self, action: Burst, side: str) -> None:
        order = self.plan_burst(side, action)
        if order is None:
            self.emit("holds_fire", unit=action.by)
            return
        self.state.bursts[action.by] = order
        self.emit(
            "burst_order",
            by=action.by,
            weapon=order.weapon,
            at=list(order.at),
            angle=order.angle,
            template=order.template,
            ranging=order.ranging,
            range=order.range,
        )

    def _resolve_bursts(self, new_hits: dict[str, int], attack_of: dict[str, str]) -> None:
        """Each burst ordered this turn: its ranging shot (skirmish.13); a miss takes the template away, a
        landing fires for effect on every man under it (skirmish.14): one die each, shifted by his type
        and by cover against that weapon (a man the structures cover is skipped); then ``structures.shell``."""
        s = self.state
        terrain = self.terrain
        for by, order in sorted(s.bursts.items()):
            landed, die = R.RangingShot(order.ranging).roll(
                self, f"{by}'s ranging shot at ({order.at[0]:g}, {order.at[1]:g}): lands on {order.ranging} or less"
            )
            record = {**order.to_json(), "die": die, "landed": landed}
            s.landed.append(record)
            if not landed:
                self.emit("burst_missed", by=by, die=die, ranging=order.ranging, at=list(order.at))
                continue
            template = self.burst_polygon(order)
            men = self.under(template)
            self.emit(
                "burst_lands", by=by, die=die, ranging=order.ranging, at=list(order.at), under=[f.id for f in men]
            )
            hit_men: list[str] = []
            for f in men:
                covered_by = ST.artillery_cover(self.ctx, f, order.at, order.weapon)
                if covered_by is not None:
                    self.emit("burst_covered", by=by, figure=f.id, why=covered_by)
                    continue
                source = order.at if self.tables.artillery[order.weapon].indirect else order.origin
                covered = R.cover(terrain, source, (f.x, f.y), order.attack)
                shift = self.tables.men[f.type].hit_shift - (1 if covered else 0)
                purpose = (
                    f"{by}'s {order.weapon.replace('_', ' ')} fires for effect on {f.id}: hits on {order.hit_on}+"
                    + (f", die {shift:+d}" if shift else "")
                    + (f" (cover: {covered})" if covered else "")
                )
                hit = R.Shots(1, order.hit_on, shift).roll(self, purpose)
                s.stats["shots"][order.side] += 1
                s.stats["hits"][order.side] += hit
                if hit:
                    hit_men.append(f.id)
                    new_hits[f.id] = new_hits.get(f.id, 0) + 1
                    attack_of[f.id] = order.attack
            record["hit"] = hit_men
            self.emit("burst_effect", by=by, hit=hit_men)
            SH.shell(self.ctx, template, order.at, order.weapon, die)
        s.bursts = {}

    # ------------------------------------------------------------------ melee (skirmish.66-70)
    def contacts(self) -> dict[str, set[str]]:
        """Each living man on the table -> the enemies whose bases touch his (skirmish.10)."""
        base = self.tables.sight.base.value
        men = sorted(
            (f for f in self.state.figures.values() if f.alive and f.on_table and f.aboard is None), key=lambda f: f.id
        )
        out: dict[str, set[str]] = {f.id: set() for f in men}
        for i, a in enumerate(men):
            for b in men[i + 1 :]:
                if a.side != b.side and R.in_contact((a.x, a.y), (b.x, b.y), base) and CA.levels_meet(self.ctx, a, b):
                    out[a.id].add(b.id)
                    out[b.id].add(a.id)
        return out

    def melees(self) -> list[list[str]]:
        """The melees now: the men linked by touching bases, each melee's men in order."""
        adj = self.contacts()
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

    def _note_charges(self, unit: str) -> None:
        """Men of ``unit`` now touching an enemy and not yet in a melee charged this turn: their side attacks."""
        s = self.state
        adj = self.contacts()
        for f in M.living(self.ctx, unit):
            if adj.get(f.id) and f.id not in s.engaged:
                s.charged.add(f.id)

    def melee_attacker(self, melee: list[str]) -> str:
        """The attacking side of a melee: its side so far, else the side that charged (both or neither: first mover)."""
        s = self.state
        for fid in melee:
            if fid in s.engaged:
                return s.engaged[fid]
        sides = {s.figures[f].side for f in melee if f in s.charged}
        return sides.pop() if len(sides) == 1 else s.order[0]

    def _melee(self) -> None:
        """Every melee fights its rounds; those where both sides missed form groups owing stay/retreat."""
        s = self.state
        melees = self.melees()
        in_melee = {f for m in melees for f in m}
        s.engaged = {f: side for f, side in s.engaged.items() if f in in_melee}
        s.groups = {}
        counters: list[tuple[str, list[str]]] = []
        for melee in melees:
            attacker = self.melee_attacker(melee)
            if self._fight(melee, attacker):
                self._group(melee, attacker)
                continue
            crew = self._crew_beaten(melee, attacker)
            if crew is not None:
                counters.append((crew, [f for f in melee if s.figures[f].alive]))
        for crew, winners in counters:  # the rest of a beaten gun crew must attack (skirmish.71)
            joined = self._crew_attacks(crew, winners)
            if not joined:
                continue
            found: list[str] | None = next((m for m in self.melees() if joined[0] in m), None)
            if found is not None and self._fight(found, s.units[crew].side):
                self._group(found, s.units[crew].side)
        s.charged = set()
        CA.ladder_winners(self.ctx, {f for f, foes in self.contacts().items() if foes})
        if s.groups:
            self.emit("melee_choice", groups={g: list(m) for g, m in sorted(s.groups.items())})

    def _group(self, melee: list[str], attacker: str) -> None:
        """Both sides missed: each side's men of ``melee`` form groups of at most 10 owing stay/retreat."""
        s = self.state
        for side in (attacker, other(attacker)):
            men = [f for f in melee if s.figures[f].side == side and s.figures[f].alive]
            for k in range(0, len(men), R.MELEE_GROUP):
                s.groups[f"M{len(s.groups) + 1}"] = men[k : k + R.MELEE_GROUP]

    def _crew_beaten(self, melee: list[str], attacker: str) -> str | None:
        """The crew unit of a piece whose men in ``melee`` the attacker has all killed, while more of that
        crew live outside it (the attacker won against part of the crew, skirmish.71); else None."""
        s = self.state
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
            if any(f.on_table and f.id not in melee for f in M.living(self.ctx, crew)):
                return str(crew)
        return None

    def contact_point(self, f: Figure, foe: Figure) -> XY | None:
        """Where ``f`` stands to touch ``foe``'s base by a legal move now: straight at him, else up to 90
        degrees round him either way (steps of 15), on the table, on no other base, within his move."""
        base = self.tables.sight.base.value
        dx, dy = f.x - foe.x, f.y - foe.y
        d = math.hypot(dx, dy)
        start = math.atan2(dy, dx) if d > TOLERANCE else 0.0
        allowance = M.allowance(self.ctx, f)
        terrain = self.terrain
        others = [g for g in self.state.figures.values() if g.alive and g.on_table and g.id not in (f.id, foe.id)]
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
            measure = R.measure_path(
                terrain, path, allowance, river_paid=f.river_paid, open_doors=M.open_doors(self.ctx)
            )
            if measure.problem is None and at_most(measure.cost, allowance):
                return end
        return None

    def _crew_attacks(self, crew: str, winners: list[str]) -> list[str]:
        """The rest of a beaten gun crew must attack the winners in the same turn (skirmish.71): the engine
        moves each man of it not yet in a melee into contact with the nearest winner he can reach by a
        legal move; those who cannot reach stay. Returns the men who joined."""
        s = self.state
        joined: list[str] = []
        busy = {f for m in self.melees() for f in m}
        for f in M.living(self.ctx, crew):
            if not f.on_table or f.id in busy:
                continue
            foes = sorted(
                (s.figures[w] for w in winners if s.figures[w].alive),
                key=lambda w: (math.hypot(w.x - f.x, w.y - f.y), w.id),
            )
            for foe in foes:
                end = self.contact_point(f, foe)
                if end is not None:
                    f.x, f.y = end
                    joined.append(f.id)
                    self.emit("crew_attacks", figure=f.id, at=foe.id, point=list(end))
                    break
            else:
                self.emit("crew_cannot_reach", figure=f.id)
        self.ctx.shot_cache = None
        return joined

    def _targets(self, strikers: list[str], foes: set[str], adj: dict[str, set[str]]) -> dict[str, str]:
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

    def _strike(self, striker: str, foe: str) -> bool:
        """One melee die of ``striker`` at ``foe``: hits on MELEE_HIT_ON+ with the foe's type shift."""
        target = self.state.figures[foe]
        shift = self.tables.men[target.type].hit_shift
        hit = R.Shots(1, R.MELEE_HIT_ON, shift).roll(self, f"melee: {striker} strikes at {foe} ({R.MELEE_HIT_ON}+)")
        side = self.state.figures[striker].side
        self.state.stats["shots"][side] += 1
        self.state.stats["hits"][side] += int(hit)
        self.emit("melee_strike", figure=striker, at=foe, hit=hit)
        return hit

    def _melee_hit(self, fid: str, *, survival: bool) -> bool:
        """A man hit in melee: dead outright, or a survival roll; returns whether he dies (skirmish.7, 69, 70)."""
        f = self.state.figures[fid]
        f.hits += 1
        if not survival:
            return True
        if f.hits >= 2:
            return True
        if R.Survival(R.MELEE_SURVIVE_ON).roll(self, f"{fid} is hit in melee: survives on {R.MELEE_SURVIVE_ON}+"):
            f.wounds += 1
            self.state.stats["wounds"][f.side] += 1
            self.emit("wounded", figure=fid)
            return False
        return True

    def _fight(self, melee: list[str], attacker: str) -> bool:
        """Fight the rounds of one melee; True when both sides missed (stay/retreat follows)."""
        s = self.state
        adj = self.contacts()
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
                self.emit("melee_over", men=melee)
                return False
            self.emit("melee_round", round=round_no, attacker=attacker, men=ours + theirs)
            s.stats["melee_rounds"] += 1
            dead: list[tuple[str, str]] = []
            hit_any = False
            aims = CA.wall_strikers(self.ctx, self._targets(ours, set(theirs), adj))
            killed: set[str] = set()
            for fid, foe in aims.items():
                if self._strike(fid, foe):
                    hit_any = True
                    if foe in killed:  # already dead this round
                        continue
                    if self._melee_hit(foe, survival=round_no > 1):  # a second hit this turn kills (skirmish.7)
                        dead.append((foe, "killed in melee"))
                        killed.add(foe)
            killed_now = {d for d, _ in dead}
            # the first round's dead do not strike back; in later rounds the dead fight before removal
            back = [f for f in theirs if round_no > 1 or f not in killed_now]
            replies = CA.wall_strikers(self.ctx, self._targets(back, set(ours), adj))
            for fid, foe in replies.items():
                if self._strike(fid, foe):
                    hit_any = True
                    if foe in killed:
                        continue
                    if self._melee_hit(foe, survival=True):
                        dead.append((foe, "killed in melee"))
                        killed.add(foe)
            for fid, why in dead:
                if s.figures[fid].alive:
                    M.kill(self.ctx, s.figures[fid], why)
                    s.engaged.pop(fid, None)
            if not hit_any:
                self.emit("melee_both_miss", men=ours + theirs)
                return True
            round_no += 1

    def resolve_secret(self, group: str, choices: Mapping[str, tuple[str, Any]]) -> None:
        """The stay/retreat choices, shown together: retreating groups make a full move away (skirmish.68)."""
        s = self.state
        picked = {action.group: action.choice for _, action in choices.values()}
        self.emit("melee_choices", choices=dict(sorted(picked.items())))
        adj = self.contacts()  # whom each man retreats from: the enemies touching him when the choices show
        foes = {f: sorted(adj.get(f, ())) for men in s.groups.values() for f in men}
        for gid, men in sorted(s.groups.items()):
            if picked.get(gid) == "retreat":
                for fid in men:
                    self._retreat(s.figures[fid], foes[fid])
        s.groups = {}
        in_melee = {f for m in self.melees() for f in m}
        s.engaged = {f: side for f, side in s.engaged.items() if f in in_melee}
        self.ctx.shot_cache = None
        self._advance()

    def retreat_point(self, f: Figure, away_from: list[str] | None = None) -> XY | None:
        """Where ``f`` retreats: a full move straight away from the enemies touching him (or ``away_from``),
        shortened to the furthest legal point (on the table, affordable, no base overlapped); None if none is."""
        if away_from is None:
            away_from = sorted(self.contacts().get(f.id, ()))
        foes = [self.state.figures[e] for e in away_from]
        if not foes:
            return None
        cx = sum(e.x for e in foes) / len(foes)
        cy = sum(e.y for e in foes) / len(foes)
        dx, dy = f.x - cx, f.y - cy
        d = math.hypot(dx, dy)
        if d <= TOLERANCE:
            d = 1.0
            edge = next(sp.edge for sp in self.scenario.spec.sides if sp.id == f.side)
            dx, dy = {"south": (0.0, -1.0), "north": (0.0, 1.0), "west": (-1.0, 0.0), "east": (1.0, 0.0)}[edge]
        ux, uy = dx / d, dy / d
        allowance = M.allowance(self.ctx, f)
        for k in range(12):
            reach = allowance * (1 - k / 12)
            end = (snap(f.x + ux * reach), snap(f.y + uy * reach))
            if self._retreat_ok(f, end, allowance):
                return end
        return None

    def _retreat_ok(self, f: Figure, end: XY, allowance: float) -> bool:
        base = self.tables.sight.base.value
        terrain = self.terrain
        if not terrain.on_table(*end):
            return False
        path = [(f.x, f.y), end]
        for g in self.state.figures.values():
            if g.id == f.id or not g.alive or not g.on_table:
                continue
            if R.overlaps(end, (g.x, g.y), base):
                return False
            if g.side != f.side and R.path_near(path, (g.x, g.y), base):
                return False
        measure = R.measure_path(terrain, path, allowance, river_paid=f.river_paid, open_doors=M.open_doors(self.ctx))
        return measure.problem is None and at_most(measure.cost, allowance)

    def _retreat(self, f: Figure, away_from: list[str]) -> None:
        if not f.alive:
            return
        ladder = self.state.ladders.get(f.on_ladder or "")
        if ladder is not None:  # a man on a ladder retreats down it, to its foot
            f.on_ladder = None
            f.x, f.y = ladder.foot
            self.state.engaged.pop(f.id, None)
            self.emit("retreats", figure=f.id, at=list(ladder.foot), down=ladder.id)
            return
        end = self.retreat_point(f, away_from)
        if end is None:
            self.emit("cannot_retreat", figure=f.id)
            return
        f.x, f.y = end
        self.state.engaged.pop(f.id, None)
        self.emit("retreats", figure=f.id, at=list(end))


def _cost_rule(measure: R.PathMeasure, man_type: str, allowance: float) -> str:
    """The rule a too-dear path breaks: his move itself when the inches walked alone exceed it, else the extra cost."""
    if not at_most(measure.length, allowance):
        return "skirmish.22" if man_type == "cavalry" else "skirmish.21"
    parts = {k: v for k, v in measure.parts.items() if v > 0}
    if parts.get("river"):
        return "skirmish.47"
    if parts.get("wire"):
        return "skirmish.51"
    if parts.get("pond"):
        return "skirmish.52"
    if parts.get("uphill") or parts.get("road") or parts.get("walls") or parts.get("boulders"):
        return "skirmish.3"
    return "skirmish.22" if man_type == "cavalry" else "skirmish.21"


# ---------------------------------------------------------------------- action spaces
class MoveSpace(ActionSpace[Move]):
    """Every legal move of a unit: a continuous space of paths (skirmish.21)."""

    def __init__(self, game: SkirmishGame, unit: str) -> None:
        self.game = game
        self.unit = unit

    def check(self, action: Any) -> None:
        if not isinstance(action, Move):
            raise IllegalAction(f"{action} is not a move", "skirmish.21")
        if action.unit != self.unit:
            raise IllegalAction(f"{action}: this decision is for unit {self.unit}", "skirmish.21")
        self.game.check_move(action)

    def toward(self, x: float, y: float, steps: int = 7) -> Move | None:
        """The furthest legal straight move of the whole unit toward (x, y) for its leader, if any."""
        men = M.living(self.game.ctx, self.unit)
        lx, ly = men[0].x, men[0].y
        full = Move(self.unit, ((snap(x), snap(y)),))
        if self.contains(full):
            return full
        lo, hi, best = 0.0, 1.0, None
        for _ in range(steps):
            mid = (lo + hi) / 2
            move = Move(self.unit, ((snap(lx + mid * (x - lx)), snap(ly + mid * (y - ly))),))
            if self.contains(move):
                lo, best = mid, move
            else:
                hi = mid
        return best

    def hold(self) -> Move:
        return Move(self.unit)

    def sample(self, rng: np.random.Generator) -> Move:
        game = self.game
        men = M.living(game.ctx, self.unit)
        leader = men[0]
        reach = M.allowance(game.ctx, leader)
        base = game.tables.sight.base.value
        close = [
            e for e in M.enemies(game.ctx, leader.side) if math.hypot(e.x - leader.x, e.y - leader.y) <= reach + base
        ]
        if leader.on_table and close and rng.random() < CHARGE_SHARE:  # a charge: the leader runs into contact
            foe = close[int(rng.integers(len(close)))]
            d = math.hypot(foe.x - leader.x, foe.y - leader.y)
            t = (d - base) / d if d > base else 0.0
            move = Move(
                self.unit, ((snap(leader.x + t * (foe.x - leader.x)), snap(leader.y + t * (foe.y - leader.y))),)
            )
            if move.path[0] != (leader.x, leader.y) and self.contains(move):
                return move
        for _ in range(6):
            angle = float(rng.uniform(0.0, 2 * math.pi))
            dist = float(rng.uniform(0.2, 1.0)) * reach
            x, y = leader.x + dist * math.cos(angle), leader.y + dist * math.sin(angle)
            move = Move(self.unit, ((snap(x), snap(y)),))
            if len(men) > 1 and leader.on_table and rng.random() < 0.3:
                move = Move(self.unit, move.path, (self._figure_order(rng, men[1:]),))
            if self.contains(move):
                return move
        options = self.candidates(4)
        return options[int(rng.integers(len(options)))]

    def _figure_order(self, rng: np.random.Generator, men: list[Figure]) -> Order:
        """A random single man's order: stay, his own short path, wire, tank traps, or a door near him."""
        f = men[int(rng.integers(len(men)))]
        walls = self.game.base_terrain.walls
        kind = int(rng.integers(9 if walls else 6))
        if kind >= 6:  # castles: raise a ladder at the nearest wall, climb or push a ladder, go up a wall
            return self._castle_order(rng, f, kind)
        if kind == 5:  # work on a bridge not yet built (refused, and so not chosen, unless he stands at its site)
            sites = sorted(b.id for b in self.game.state.bridges.values() if not b.built)
            if sites:
                return Order(f.id, "build", (), None, sites[int(rng.integers(len(sites)))])
            kind = 0
        angle = float(rng.uniform(0.0, 2 * math.pi))
        dx, dy = math.cos(angle), math.sin(angle)
        if kind == 0:
            return Order(f.id, "stay")
        if kind == 1:
            return Order(f.id, "to", ((snap(f.x + 2 * dx), snap(f.y + 2 * dy)),))
        if kind == 2:
            return Order(f.id, "wire", ((snap(f.x - dx), snap(f.y - dy)), (snap(f.x + dx), snap(f.y + dy))))
        if kind == 3:
            return Order(f.id, "traps", ((snap(f.x), snap(f.y)), (snap(f.x + dx), snap(f.y + dy))))
        doors = self.game.state.doors
        if doors:
            door = sorted(doors)[int(rng.integers(len(doors)))]
            return Order(f.id, "close" if doors[door].open else "open", (), door)
        return Order(f.id, "stay")

    def _castle_order(self, rng: np.random.Generator, f: Figure, kind: int) -> Order:
        """A random castle order for ``f`` (refused, and so not chosen, unless he stands where it is legal)."""
        game = self.game
        ladders = sorted(game.state.ladders)
        if kind == 6:
            here = Point(f.x, f.y)
            sec = min(ST.wall_sections(game.ctx).values(), key=lambda w: w.line.distance(here))
            top = sec.line.interpolate(sec.line.project(here))
            return Order(f.id, "ladder", ((snap(top.x), snap(top.y)),))
        if kind == 7 and ladders:
            return Order(f.id, "climb" if f.on_wall is None else "push", name=ladders[int(rng.integers(len(ladders)))])
        if f.on_wall is not None:
            return Order(
                f.id, "down", ((snap(f.x + float(rng.uniform(-1, 1))), snap(f.y + float(rng.uniform(-1, 1)))),)
            )
        walls = game.base_terrain.walls
        return Order(f.id, "up", name=walls[int(rng.integers(len(walls)))].id)

    def candidates(self, k: int = 16) -> list[Move]:
        game = self.game
        men = M.living(game.ctx, self.unit)
        leader = men[0]
        reach = M.allowance(game.ctx, leader)
        out: list[Move] = []
        if self.contains(self.hold()):
            out.append(self.hold())
        enemies = M.enemies(game.ctx, leader.side)
        spec = game.scenario.spec
        aims: list[XY] = []
        for objective in spec.objectives:
            xs = [p[0] for p in objective.shape]
            ys = [p[1] for p in objective.shape]
            aims.append((sum(xs) / len(xs), sum(ys) / len(ys)))
        if enemies:
            near = min(enemies, key=lambda e: math.hypot(e.x - leader.x, e.y - leader.y))
            aims.append((near.x, near.y))
        edge = next(s.edge for s in spec.sides if s.id == leader.side)
        inward = {"south": (0, 1), "north": (0, -1), "west": (1, 0), "east": (-1, 0)}[edge]
        aims.append((leader.x + inward[0] * reach, leader.y + inward[1] * reach))
        for ax, ay in aims:
            d = math.hypot(ax - leader.x, ay - leader.y)
            if d <= TOLERANCE:
                continue
            t = min(1.0, reach / d)
            move = self.toward(leader.x + t * (ax - leader.x), leader.y + t * (ay - leader.y))
            if move is not None and move not in out:
                out.append(move)
            if len(out) >= k:
                break
        if not out:
            for angle in range(0, 360, 45):
                move = self.toward(
                    leader.x + reach / 2 * math.cos(math.radians(angle)),
                    leader.y + reach / 2 * math.sin(math.radians(angle)),
                )
                if move is not None:
                    out.append(move)
                    break
        if not out:
            raise IllegalAction(f"unit {self.unit} has no legal move", "skirmish.21")
        return out[:k]


class FireSpace(ActionSpace[Fire]):
    """A unit's fire: at an enemy unit some of its men can see in range, or hold fire (skirmish.30)."""

    def __init__(self, game: SkirmishGame, unit: str) -> None:
        self.game = game
        self.unit = unit

    def check(self, action: Any) -> None:
        if not isinstance(action, Fire):
            raise IllegalAction(f"{action} is not a fire order", "skirmish.30")
        if action.unit != self.unit:
            raise IllegalAction(f"{action}: this decision is for unit {self.unit}", "skirmish.30")
        self.game.plan_fire(action)

    def targets(self) -> list[str]:
        """The enemy units some man of this unit can fire at."""
        game = self.game
        table = game.shot_table()
        out: set[str] = set()
        for f in M.living(game.ctx, self.unit):
            for target, shot in table.get(f.id, {}).items():
                if isinstance(shot, FireOrder):
                    out.add(game.state.figures[target].unit)
        return sorted(out)

    def gunners(self) -> list[Figure]:
        """The unit's men who may fire a wedge now: MGs and flame throwers not in a river or pond (skirmish.16)."""
        game = self.game
        return [
            f
            for f in M.living(game.ctx, self.unit)
            if game.tables.fires_wedge(M.weapon_of(game.ctx, f)) and game.can_fire(f) is None
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


class BurstSpace(ActionSpace[Burst]):
    """A piece's or a man's burst order: a landing point (inches) and a turn (degrees) of a template of
    its class, in range and seen (skirmish.11-15, 29), or hold fire: a continuous space."""

    def __init__(self, game: SkirmishGame, by: str) -> None:
        self.game = game
        self.by = by
        piece = game.state.pieces.get(by)
        if piece is not None and piece.crew is not None:
            self.side = game.state.units[piece.crew].side
        elif by in game.state.vehicles:
            self.side = game.state.vehicles[by].side
        elif by in game.state.figures:
            self.side = game.state.figures[by].side
        else:
            self.side = ""

    def check(self, action: Any) -> None:
        if not isinstance(action, Burst):
            raise IllegalAction(f"{action} is not a burst order", "skirmish.12")
        if action.by != self.by:
            raise IllegalAction(f"{action}: this decision is for {self.by}", "skirmish.12")
        self.game.plan_burst(self.side, action)

    def hold(self) -> Burst:
        return Burst(self.by, None)

    def aims(self) -> list[Burst]:
        """A template (its class's first shape, unturned) on each enemy man it may legally land on."""
        out = []
        for enemy in sorted(M.enemies(self.game.ctx, self.side), key=lambda e: e.id):
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
