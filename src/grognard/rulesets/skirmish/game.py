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
from collections.abc import Mapping
from typing import Any

from shapely.geometry import Point, Polygon

from grognard.core.dice import DiceSource
from grognard.core.engine import Decision, FiniteSpace, Game, Result
from grognard.core.errors import IllegalAction
from grognard.core.geometry import snap
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import castles as CA
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish import drops as DP
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import melee as ME
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import moving as MV
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import structures as ST
from grognard.rulesets.skirmish.actions import XY, Burst, Choice, Drive, Fire, Move
from grognard.rulesets.skirmish.artillery import BurstSpace
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.driving import DriveSpace
from grognard.rulesets.skirmish.fire import FireSpace
from grognard.rulesets.skirmish.moving import MoveSpace
from grognard.rulesets.skirmish.scenario import Scenario, load_scenario
from grognard.rulesets.skirmish.state import (
    Bridge,
    Door,
    Figure,
    FireOrder,
    Piece,
    SkirmishState,
    Unit,
)
from grognard.rulesets.skirmish.tables import Tables
from grognard.rulesets.skirmish.terrain import Terrain, terrain_json

SIDES = ("allies", "axis")
SEATS = {"allies": "Allies", "axis": "Axis"}
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
                        MoveSpace(self.ctx, label),
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
            shots = FI.shot_table(self.ctx)
            for label, unit in sorted(s.units.items()):
                if f"fire {label}" in s.done:
                    continue
                if any(isinstance(o, FireOrder) for f in unit.figures for o in shots.get(f, {}).values()):
                    out.append(
                        Decision(
                            f"fire {label}",
                            SEATS[unit.side],
                            f"{label} ({len(M.living(self.ctx, label))} men): fire",
                            FireSpace(self.ctx, label),
                        )
                    )
            for by, side in AR.burst_firers(self.ctx):
                if f"burst {by}" in s.done:
                    continue
                weapon = AR.burst_weapon(self.ctx, by)
                out.append(
                    Decision(
                        f"burst {by}",
                        SEATS[side],
                        f"{by} ({weapon.replace('_', ' ')}): lay a burst template or hold",
                        BurstSpace(self.ctx, by),
                    )
                )
        return tuple(out)

    def _apply(self, decision: Decision, action: Any) -> None:
        s = self.state
        s.done.add(decision.id)
        if isinstance(action, Move):
            MV.move(self.ctx, action)
            ME.note_charges(self.ctx, action.unit)
        elif isinstance(action, Drive):
            DV.drive(self.ctx, action)
        elif isinstance(action, Fire):
            FI.fire_order(self.ctx, action)
        elif isinstance(action, Burst):
            AR.burst_order(self.ctx, action, self.side_of(decision.seat))
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
                    AR.crew_pieces(self.ctx)
                    self.ctx.shot_cache = None
            elif s.phase == "fire":
                FI.resolve_fire(self.ctx)
                s.phase, s.done = "melee", set()
                ME.melee_phase(self.ctx)
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
    # ------------------------------------------------------------------ fire
    # ------------------------------------------------------------------ artillery (skirmish.12-15, 29, 31, 72)
    # ------------------------------------------------------------------ melee (skirmish.66-70)
    def resolve_secret(self, group: str, choices: Mapping[str, tuple[str, Any]]) -> None:
        """The stay/retreat choices, shown together (``melee.resolve_choices``); then the turn goes on."""
        ME.resolve_choices(self.ctx, choices)
        self._advance()
