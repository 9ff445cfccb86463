"""The skirmish game state: figures, units, doors, works laid during play, the turn.

Conventions as in ``scenario`` (inches; origin south-west; a figure is the
centre of its 1" base). Positions are stored rounded to 0.01".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grognard.core.engine import Result


@dataclass(slots=True)
class Figure:
    """One man: ``id`` is ``UNIT.N``; ``hits`` counts the hits of this turn (skirmish.7)."""

    id: str
    unit: str
    side: str
    type: str
    weapon: str
    x: float
    y: float
    alive: bool = True
    on_table: bool = True
    hits: int = 0
    wounds: int = 0
    river_paid: bool = False
    aboard: str | None = None  # the vehicle he rides in or on (skirmish.61)
    on_wall: str | None = None  # the castle wall section he stands on (skirmish.74, 76)
    on_ladder: str | None = None  # the ladder he is on (skirmish.79-84)

    def copy(self) -> Figure:
        return Figure(
            self.id,
            self.unit,
            self.side,
            self.type,
            self.weapon,
            self.x,
            self.y,
            self.alive,
            self.on_table,
            self.hits,
            self.wounds,
            self.river_paid,
            self.aboard,
            self.on_wall,
            self.on_ladder,
        )

    def to_json(self) -> dict[str, Any]:
        out = {
            "id": self.id,
            "unit": self.unit,
            "side": self.side,
            "type": self.type,
            "weapon": self.weapon,
            "x": self.x,
            "y": self.y,
            "alive": self.alive,
            "on_table": self.on_table,
            "hits": self.hits,
            "wounds": self.wounds,
            "river_paid": self.river_paid,
        }
        if self.aboard is not None:
            out["aboard"] = self.aboard
        if self.on_wall is not None:
            out["on_wall"] = self.on_wall
        if self.on_ladder is not None:
            out["on_ladder"] = self.on_ladder
        return out


@dataclass(slots=True)
class Unit:
    """A unit: its side, the move it may enter on (0: on the table), its figures' ids."""

    id: str
    side: str
    name: str
    enters: int
    figures: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "side": self.side, "name": self.name, "enters": self.enters, "figures": self.figures}


@dataclass(slots=True)
class Door:
    """A door's state: open or closed, and the turns it last changed and was last passed (skirmish.65)."""

    id: str
    open: bool
    changed: int = 0
    passed: int = 0
    blown: bool = False  # blown off by a 1 from artillery (skirmish.77): open for good

    def copy(self) -> Door:
        return Door(self.id, self.open, self.changed, self.passed, self.blown)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "open": self.open, "changed": self.changed, "passed": self.passed, "blown": self.blown}


@dataclass(slots=True)
class Bridge:
    """A bridge's state: its points, whether it is built and the man-moves put into it so far (skirmish.86-89);
    ``crossed`` (side -> men) and ``builders`` count this turn's crossings and workers."""

    id: str
    points: int
    built: bool = True
    work: int = 0
    crossed: dict[str, int] = field(default_factory=dict)
    builders: int = 0

    def copy(self) -> Bridge:
        return Bridge(self.id, self.points, self.built, self.work, dict(self.crossed), self.builders)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "points": self.points,
            "built": self.built,
            "work": self.work,
            "crossed": dict(sorted(self.crossed.items())),
            "builders": self.builders,
        }


@dataclass(slots=True)
class Vehicle:
    """A vehicle (skirmish.23): its centre and heading (degrees), who is aboard (in order: the first living
    man drives, the next mans its MG), and the turn it last loaded or unloaded men."""

    id: str
    kind: str
    side: str
    name: str
    x: float
    y: float
    heading: float
    weapons: tuple[str, ...]
    aboard: list[str]
    river_paid: bool = False
    armoured: bool = False

    def copy(self) -> Vehicle:
        return Vehicle(
            self.id,
            self.kind,
            self.side,
            self.name,
            self.x,
            self.y,
            self.heading,
            self.weapons,
            list(self.aboard),
            self.river_paid,
            self.armoured,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "side": self.side,
            "name": self.name,
            "x": self.x,
            "y": self.y,
            "heading": self.heading,
            "weapons": list(self.weapons),
            "aboard": list(self.aboard),
            "river_paid": self.river_paid,
            "armoured": self.armoured,
        }


@dataclass(slots=True)
class Ladder:
    """A scaling ladder (skirmish.78-84): raised by ``side`` on turn ``raised`` with its ``foot`` on the ground
    and its ``top`` on the line of castle wall section ``section`` (inches); ``climbed``: man -> the turn he
    went onto it; ``pushed``: the last turn the defenders tried to push it off (one try a turn, S9)."""

    id: str
    side: str
    section: str
    foot: tuple[float, float]
    top: tuple[float, float]
    raised: int
    climbed: dict[str, int] = field(default_factory=dict)
    pushed: int = 0

    def copy(self) -> Ladder:
        return Ladder(
            self.id, self.side, self.section, self.foot, self.top, self.raised, dict(self.climbed), self.pushed
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "section": self.section,
            "foot": list(self.foot),
            "top": list(self.top),
            "raised": self.raised,
            "climbed": dict(sorted(self.climbed.items())),
            "pushed": self.pushed,
        }


@dataclass
class FireOrder:
    """One man's shot, fixed when his unit's fire order is given: shooter, target, the die's numbers."""

    shooter: str
    target: str
    attack: str
    band: int
    hit_on: int
    shift: int
    cover: bool
    range: float

    def to_json(self) -> dict[str, Any]:
        return {
            "shooter": self.shooter,
            "target": self.target,
            "attack": self.attack,
            "band": self.band,
            "hit_on": self.hit_on,
            "shift": self.shift,
            "cover": self.cover,
            "range": self.range,
        }


@dataclass(slots=True)
class Piece:
    """An artillery piece (skirmish.12, 31, 72): where it stands, its heading (degrees, counter-clockwise
    from east), and ``crew``, the one unit that serves it (None: its crew is dead and nobody has taken it);
    ``turned``, the last turn its crew turned it (it cannot fire that turn: skirmish.55; 0: never);
    ``hitched``, the vehicle towing it (skirmish.61; None: it stands on its own and may fire)."""

    id: str
    weapon: str
    x: float
    y: float
    heading: float
    crew: str | None
    turned: int = 0
    hitched: str | None = None

    def copy(self) -> Piece:
        return Piece(self.id, self.weapon, self.x, self.y, self.heading, self.crew, self.turned, self.hitched)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "weapon": self.weapon,
            "x": self.x,
            "y": self.y,
            "heading": self.heading,
            "crew": self.crew,
            "turned": self.turned,
            "hitched": self.hitched,
        }


@dataclass(frozen=True, slots=True)
class BurstOrder:
    """A burst template ordered this turn (skirmish.12-15): who fires (a piece or a man), from where, the
    template laid (its shape, the point it lands on, its turn in degrees) and the numbers of its range band."""

    by: str
    side: str
    weapon: str
    attack: str
    origin: tuple[float, float]
    at: tuple[float, float]
    angle: float
    template: str
    band: int
    ranging: int
    hit_on: int
    range: float

    def to_json(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "side": self.side,
            "weapon": self.weapon,
            "attack": self.attack,
            "origin": list(self.origin),
            "at": list(self.at),
            "angle": self.angle,
            "template": self.template,
            "band": self.band,
            "ranging": self.ranging,
            "hit_on": self.hit_on,
            "range": self.range,
        }


@dataclass
class WedgeFire:
    """A MG's or flame thrower's wedge fired this turn (skirmish.16).

    ``at`` is the gunner's place, ``heading`` and ``angle`` in degrees (0 east,
    90 north), ``reach`` the flat pattern's length in inches, ``turn`` the
    turn it was fired (it stays drawn until the next fire); ``men`` are the
    men under it he can see (each gets one die), ``unseen`` those under it out
    of his sight (not fired on).
    """

    gunner: str
    unit: str
    weapon: str
    at: tuple[float, float]
    heading: float
    angle: float
    reach: float
    turn: int
    men: list[str] = field(default_factory=list)
    unseen: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "gunner": self.gunner,
            "unit": self.unit,
            "weapon": self.weapon,
            "at": list(self.at),
            "heading": self.heading,
            "angle": self.angle,
            "reach": self.reach,
            "turn": self.turn,
            "men": list(self.men),
            "unseen": list(self.unseen),
        }


@dataclass
class SkirmishState:
    """Everything about a skirmish game; ``to_json`` is the full state the digest covers."""

    options: dict[str, Any]
    figures: dict[str, Figure]
    units: dict[str, Unit]
    doors: dict[str, Door]
    turn: int = 0
    phase: str = "setup"
    order: tuple[str, ...] = ()  # the sides in the order they move this turn
    done: set[str] = field(default_factory=set)
    fire: dict[str, list[FireOrder]] = field(default_factory=dict)  # unit -> its men's shots this turn
    wires: tuple[tuple[tuple[float, float], tuple[float, float]], ...] = ()
    traps: tuple[tuple[float, float], ...] = ()
    held_off: dict[str, int] = field(default_factory=dict)  # side -> units kept off the table in its first move
    stats: dict[str, Any] = field(default_factory=dict)
    outcome: Result | None = None
    charged: set[str] = field(default_factory=set)  # men who came into contact with an enemy this turn
    engaged: dict[str, str] = field(default_factory=dict)  # man in a melee -> the melee's attacking side
    groups: dict[str, list[str]] = field(default_factory=dict)  # melee group -> its men, owing stay/retreat
    sections: dict[str, list[int]] = field(default_factory=dict)  # building section -> its storeys' points (S7)
    bridges: dict[str, Bridge] = field(default_factory=dict)
    wedges: list[WedgeFire] = field(default_factory=list)  # the MG and flame thrower wedges of the last fire
    pieces: dict[str, Piece] = field(default_factory=dict)
    bursts: dict[str, BurstOrder] = field(default_factory=dict)  # piece or man -> his burst order this turn
    landed: list[dict[str, Any]] = field(default_factory=list)  # the templates laid this turn and their ranging dice
    vehicles: dict[str, Vehicle] = field(default_factory=dict)
    train: float | None = None  # inches the train's head has run along its railway; None: no train
    walked: dict[str, float] = field(default_factory=dict)  # man -> inches of move he spent this turn (skirmish.61)
    dropped: dict[str, int] = field(default_factory=dict)  # paratroop unit -> the move it came down (skirmish.26)
    chutes: list[dict[str, Any]] = field(default_factory=list)  # this move's paratroopers: aim, landing, fate
    walls: dict[str, int] = field(default_factory=dict)  # castle wall section -> its points (skirmish.74)
    ladders: dict[str, Ladder] = field(default_factory=dict)  # the ladders standing against walls
    ladders_raised: int = 0  # ladders raised so far (names L1, L2...)

    def copy(self) -> SkirmishState:
        return SkirmishState(
            options=self.options,
            figures={k: f.copy() for k, f in self.figures.items()},
            units=self.units,  # units never change after setup
            doors={k: d.copy() for k, d in self.doors.items()},
            turn=self.turn,
            phase=self.phase,
            order=self.order,
            done=set(self.done),
            fire={k: list(v) for k, v in self.fire.items()},
            wires=self.wires,
            traps=self.traps,
            held_off=dict(self.held_off),
            stats={k: (dict(v) if isinstance(v, dict) else v) for k, v in self.stats.items()},
            outcome=self.outcome,
            charged=set(self.charged),
            engaged=dict(self.engaged),
            groups={k: list(v) for k, v in self.groups.items()},
            sections={k: list(v) for k, v in self.sections.items()},
            bridges={k: b.copy() for k, b in self.bridges.items()},
            wedges=list(self.wedges),  # a wedge is never changed once fired
            pieces={k: p.copy() for k, p in self.pieces.items()},
            bursts=dict(self.bursts),
            landed=[dict(x) for x in self.landed],
            vehicles={k: v.copy() for k, v in self.vehicles.items()},
            train=self.train,
            walked=dict(self.walked),
            dropped=dict(self.dropped),
            chutes=[dict(c) for c in self.chutes],
            walls=dict(self.walls),
            ladders={k: lad.copy() for k, lad in self.ladders.items()},
            ladders_raised=self.ladders_raised,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options,
            "turn": self.turn,
            "phase": self.phase,
            "order": list(self.order),
            "figures": [f.to_json() for _, f in sorted(self.figures.items())],
            "units": [u.to_json() for _, u in sorted(self.units.items())],
            "doors": [d.to_json() for _, d in sorted(self.doors.items())],
            "done": sorted(self.done),
            "fire": {k: [o.to_json() for o in v] for k, v in sorted(self.fire.items())},
            "wires": [[list(a), list(b)] for a, b in self.wires],
            "traps": [list(t) for t in self.traps],
            "held_off": dict(sorted(self.held_off.items())),
            "stats": self.stats,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "charged": sorted(self.charged),
            "engaged": dict(sorted(self.engaged.items())),
            "groups": dict(sorted(self.groups.items())),
            "sections": dict(sorted(self.sections.items())),
            "bridges": [b.to_json() for _, b in sorted(self.bridges.items())],
            "wedges": [w.to_json() for w in self.wedges],
            "pieces": [p.to_json() for _, p in sorted(self.pieces.items())],
            "bursts": {k: o.to_json() for k, o in sorted(self.bursts.items())},
            "landed": [dict(x) for x in self.landed],
            **({"vehicles": [v.to_json() for _, v in sorted(self.vehicles.items())]} if self.vehicles else {}),
            **({"train": self.train} if self.train is not None else {}),
            **({"walked": dict(sorted(self.walked.items()))} if self.walked else {}),
            **({"dropped": dict(sorted(self.dropped.items()))} if self.dropped else {}),
            **({"chutes": [dict(c) for c in self.chutes]} if self.chutes else {}),
            **({"walls": dict(sorted(self.walls.items()))} if self.walls else {}),
            **({"ladders": [lad.to_json() for _, lad in sorted(self.ladders.items())]} if self.ladders_raised else {}),
        }

    def living(self, unit: str) -> list[Figure]:
        """The living figures of ``unit``, in figure order."""
        return [self.figures[f] for f in self.units[unit].figures if self.figures[f].alive]
