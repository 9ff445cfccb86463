"""Skirmish actions: small frozen values with a text form that parses back.

A move gives the path of the unit's first living figure (its leader): up to
two waypoints and the end point, in inches; every other figure keeps its
offset from him at each point. Orders for single figures follow after ``/``:
their own path (``to``), ``stay``, laying ``wire`` (two ends), setting
``traps`` (two points), opening or closing a door, or working on a bridge
(``build``, skirmish.86).

>>> move = parse_action("move A1 10,12 14,20 / A1.3 to 9,9 / A1.4 wire 3,4 5,4")
>>> move.path, move.orders[1].verb, move.orders[1].points
(((10.0, 12.0), (14.0, 20.0)), 'wire', ((3.0, 4.0), (5.0, 4.0)))
>>> str(parse_action("move E / E.1 build FB1"))
'move E / E.1 build FB1'
>>> str(move)
'move A1 10,12 14,20 / A1.3 to 9,9 / A1.4 wire 3,4 5,4'
>>> str(parse_action("hold A1"))
'hold A1'
>>> str(Fire("A1", "G2", (("A1.3", "G1.2"),)))
'fire A1 G2 / A1.3 G1.2'
>>> parse_action("fire A1 hold")
Fire(unit='A1', target=None, orders=(), wedges=())

A MG gunner or flame thrower fires a wedge (skirmish.16): his order gives its
heading in degrees (counterclockwise from east: 0 east, 90 north, 180 west,
-90 south) or a point to aim it at; without one, he aims it at the man of the
unit's target he would have fired at.

>>> fire = parse_action("fire A1 G / A1.3 wedge 90 / A1.4 wedge 24,30.5")
>>> fire.wedges
(WedgeOrder(figure='A1.3', heading=90.0, at=None), WedgeOrder(figure='A1.4', heading=None, at=(24.0, 30.5)))
>>> str(fire)
'fire A1 G / A1.3 wedge 90 / A1.4 wedge 24,30.5'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from grognard.core.errors import ParseError
from grognard.core.geometry import points_joined, read_measure, write_measure
from grognard.core.numbers import read_float

XY = tuple[float, float]

_UNIT = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")
_FIGURE = re.compile(r"^[A-Za-z][A-Za-z0-9]*\.[1-9][0-9]*$")
_DOOR = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]*$")
VERBS = ("to", "stay", "wire", "traps", "open", "close", "build", "up", "down", "ladder", "climb", "push")
NAMED_VERBS = ("up", "climb", "push")  # orders naming a castle wall (up) or a ladder (climb, push)


def fmt_point(point: XY) -> str:
    return f"{write_measure(point[0])},{write_measure(point[1])}"


@dataclass(frozen=True, slots=True)
class Order:
    """One figure's own order within a unit's move (skirmish.21, 63-65; ``build BRIDGE``: skirmish.86).

    Castles (skirmish.76-83): ``up WALL`` (onto a castle wall at its corner
    within 1"), ``down X,Y`` (off the wall at a corner, to a point within 1" of
    it), ``ladder X,Y [X,Y]`` (raise a ladder whose top is X,Y on a wall's
    line, from where he stands or from the second point, walked first in half
    a move), ``climb LADDER``, ``push LADDER``.

    >>> str(parse_action("move A / A.1 ladder 20,30 19,28 / A.2 climb L1 / A.3 up W"))
    'move A / A.1 ladder 20,30 19,28 / A.2 climb L1 / A.3 up W'
    """

    figure: str
    verb: str
    points: tuple[XY, ...] = ()
    door: str | None = None
    bridge: str | None = None
    name: str | None = None  # the wall (up) or the ladder (climb, push) the order names

    def __str__(self) -> str:
        if self.verb in NAMED_VERBS:
            return f"{self.figure} {self.verb} {self.name}"
        if self.verb == "build":
            return f"{self.figure} build {self.bridge}"
        if self.verb in ("open", "close"):
            return f"{self.figure} {self.verb} {self.door}"
        if self.verb == "stay":
            return f"{self.figure} stay"
        return f"{self.figure} {self.verb} " + " ".join(fmt_point(p) for p in self.points)

    def to_json(self) -> dict[str, Any]:
        out = {"figure": self.figure, "verb": self.verb, "points": [list(p) for p in self.points], "door": self.door}
        if self.bridge is not None:
            out["bridge"] = self.bridge
        if self.name is not None:
            out["name"] = self.name
        return out


@dataclass(frozen=True, slots=True)
class Turn:
    """A crew turning its artillery piece (skirmish.55): to a ``heading`` in degrees (counter-clockwise from
    east) or to face a point ``at`` (inches). The crew's whole move; the piece does not fire that turn.

    >>> str(parse_action("turn A gun1 -90"))
    'turn A GUN1 -90'
    >>> parse_action("turn A GUN1 30,40").turn
    Turn(piece='GUN1', heading=None, at=(30.0, 40.0))
    """

    piece: str
    heading: float | None = None
    at: XY | None = None

    def __str__(self) -> str:
        if self.at is not None:
            return f"{self.piece} {fmt_point(self.at)}"
        return f"{self.piece} {write_measure(self.heading or 0.0)}"

    def to_json(self) -> dict[str, Any]:
        return {"piece": self.piece, "heading": self.heading, "at": list(self.at) if self.at is not None else None}


@dataclass(frozen=True, slots=True)
class Move:
    """A unit's move: the leader's path (``()``: the unit holds) and single figures' orders (skirmish.21);
    or, with ``turn``, the unit turns the piece it serves and does nothing else (skirmish.55)."""

    unit: str
    path: tuple[XY, ...] = ()
    orders: tuple[Order, ...] = ()
    turn: Turn | None = None

    def __str__(self) -> str:
        if self.turn is not None:
            return f"turn {self.unit} {self.turn}"
        if not self.path and not self.orders:
            return f"hold {self.unit}"
        head = f"move {self.unit}" + "".join(f" {fmt_point(p)}" for p in self.path)
        return " / ".join([head, *(str(o) for o in self.orders)])

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "move",
            "unit": self.unit,
            "path": [list(p) for p in self.path],
            "orders": [o.to_json() for o in self.orders],
            **({"turn": self.turn.to_json()} if self.turn is not None else {}),
        }


@dataclass(frozen=True, slots=True)
class WedgeOrder:
    """A MG gunner's or flame thrower's wedge (skirmish.16): a ``heading`` in degrees, or a point ``at`` to aim at.

    Headings are counterclockwise from east (0 east, 90 north), any finite
    number (the game folds it into (-180, 180]); exactly one of the two is given.
    """

    figure: str
    heading: float | None = None
    at: XY | None = None

    def __str__(self) -> str:
        aim = fmt_point(self.at) if self.at is not None else write_measure(self.heading or 0.0)
        return f"{self.figure} wedge {aim}"

    def to_json(self) -> dict[str, Any]:
        return {"figure": self.figure, "heading": self.heading, "at": list(self.at) if self.at is not None else None}


@dataclass(frozen=True, slots=True)
class Fire:
    """A unit's fire: at a unit (``None``: hold fire), with single figures' own targets (skirmish.30).

    An order's target is a figure (``G1.2``), a unit (``G1``) or ``hold``;
    ``wedges`` give MG gunners and flame throwers their wedges (skirmish.16).
    """

    unit: str
    target: str | None
    orders: tuple[tuple[str, str], ...] = ()
    wedges: tuple[WedgeOrder, ...] = ()

    def __str__(self) -> str:
        head = f"fire {self.unit} {self.target or 'hold'}"
        return " / ".join([head, *(f"{f} {t}" for f, t in self.orders), *(str(w) for w in self.wedges)])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "fire",
            "unit": self.unit,
            "target": self.target,
            "orders": [list(o) for o in self.orders],
        }
        if self.wedges:
            out["wedges"] = [w.to_json() for w in self.wedges]
        return out


@dataclass(frozen=True, slots=True)
class Choice:
    """A melee group's secret choice when both sides missed: ``stay`` or ``retreat`` (skirmish.66, 68)."""

    group: str
    choice: str

    def __str__(self) -> str:
        return f"melee {self.group} {self.choice}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "melee", "group": self.group, "choice": self.choice}


@dataclass(frozen=True, slots=True)
class Burst:
    """A burst template's fire order (skirmish.12-15): ``by`` a piece (``GUN1``) or a man with a mortar or
    bazooka (``A.3``) lays its template with its landing point ``at`` (inches; ``None``: holds fire),
    turned ``angle`` degrees counter-clockwise, in the shape ``template`` (default: its class's first).

    >>> str(parse_action("burst gun1 20,30.5 45 heavy_b"))
    'burst GUN1 20,30.5 45 heavy_b'
    >>> parse_action("burst A.3 hold")
    Burst(by='A.3', at=None, angle=0.0, template=None)
    """

    by: str
    at: XY | None
    angle: float = 0.0
    template: str | None = None

    def __str__(self) -> str:
        if self.at is None:
            return f"burst {self.by} hold"
        text = f"burst {self.by} {fmt_point(self.at)}"
        if self.angle or self.template:
            text += f" {write_measure(self.angle)}"
        if self.template:
            text += f" {self.template}"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "burst",
            "by": self.by,
            "at": list(self.at) if self.at is not None else None,
            "angle": self.angle,
            "template": self.template,
        }


@dataclass(frozen=True, slots=True)
class Stop:
    """Men getting in (``load``) or out (``unload``) of a vehicle: figures (``A.1``) or whole units (``A``);
    or an artillery piece hitched to it (``hitch GUN1``) or unhitched (``unhitch GUN1``), its first name,
    with the men after it getting in or out in the same half move (skirmish.61).

    >>> parse_action("drive t1 hitch gun1 a then 10,4").before
    Stop(verb='hitch', men=('GUN1', 'A'))
    """

    verb: str
    men: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.verb} {' '.join(self.men)}"

    def to_json(self) -> dict[str, Any]:
        return {"verb": self.verb, "men": list(self.men)}


@dataclass(frozen=True, slots=True)
class Drive:
    """A vehicle's move (skirmish.23, 61): its centre's path (``()``: it stays), with men loading or
    unloading ``before`` and/or ``after`` it, each costing half the vehicle's move.

    >>> str(Drive("T1", ((10.0, 4.0),), after=Stop("unload", ("A",))))
    'drive T1 10,4 then unload A'
    >>> parse_action("drive t1 load a.1 a.2 then 10,4 12,8")
    Drive(vehicle='T1', path=((10.0, 4.0), (12.0, 8.0)), before=Stop(verb='load', men=('A.1', 'A.2')), after=None)
    """

    vehicle: str
    path: tuple[XY, ...] = ()
    before: Stop | None = None
    after: Stop | None = None

    def __str__(self) -> str:
        parts = []
        if self.before is not None:
            parts.append(str(self.before))
        if self.path or (self.after is not None and self.before is None):
            parts.append(" ".join(fmt_point(p) for p in self.path))
        if self.after is not None:
            parts.append(str(self.after))
        text = " then ".join(parts).strip()
        return f"drive {self.vehicle}" + (f" {text}" if text else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "drive",
            "vehicle": self.vehicle,
            "path": [list(p) for p in self.path],
            "before": self.before.to_json() if self.before else None,
            "after": self.after.to_json() if self.after else None,
        }


SkirmishAction = Move | Fire | Choice | Burst | Drive
CHOICES = ("stay", "retreat")

USAGE = {
    "move": "move UNIT X,Y [X,Y [X,Y]] [/ FIG to X,Y.. | stay | wire X,Y X,Y | traps X,Y X,Y | open DOOR | close DOOR"
    " | build BRIDGE | up WALL | down X,Y | ladder X,Y [X,Y] | climb LADDER | push LADDER]",
    "hold": "hold UNIT",
    "turn": "turn UNIT PIECE HEADING|X,Y",
    "fire": "fire UNIT TARGET_UNIT|hold [/ FIG TARGET_FIGURE|TARGET_UNIT|hold | FIG wedge HEADING|X,Y]",
    "melee": "melee GROUP stay|retreat",
    "burst": "burst PIECE|FIG X,Y|hold [ANGLE [TEMPLATE]]",
    "drive": "drive VEHICLE [load|unload MEN.. | hitch|unhitch PIECE [MEN..] then] [X,Y [X,Y [X,Y]]]"
    " [then load|unload MEN.. | hitch|unhitch PIECE [MEN..]]",
}
_TEMPLATE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def _drive(line: str, words: list[str]) -> Drive:
    """``drive V ...``: segments split by ``then``, each a path or a stop (see :class:`Drive`)."""
    vehicle = _name(words[1], _UNIT, "vehicle", line)
    text = " ".join(words[2:])
    segments = [seg.strip() for seg in re.split(r"\bthen\b", text)] if text else []
    path: tuple[XY, ...] = ()
    stops: list[tuple[bool, Stop]] = []  # (after the path?, stop)
    seen_path = False
    for seg in segments:
        parts = seg.split()
        if parts and parts[0].lower() in ("load", "unload", "hitch", "unhitch"):
            if len(parts) < 2:
                raise ParseError(
                    f"{line!r}: {parts[0]} names the men (figures A.1 or units A), a hitch the piece first"
                )
            men = []
            for word in parts[1:]:
                if _FIGURE.match(word) or _UNIT.match(word):
                    if word.upper() in men:
                        raise ParseError(f"{line!r}: {word.upper()} is named twice in one {parts[0].lower()}")
                    men.append(word.upper())
                else:
                    raise ParseError(f"{line!r}: {word!r} is not a figure (A.1) or a unit (A)")
            stops.append((seen_path, Stop(parts[0].lower(), tuple(men))))
        else:
            if seen_path:
                raise ParseError(f"{line!r}: a drive has one path; usage: {USAGE['drive']}")
            seen_path = True
            path = tuple(_point(w, line) for w in parts)
            if len(path) > 3:
                raise ParseError(f"{line!r}: a path is at most two waypoints and the end")
    if len(stops) > 2:
        raise ParseError(f"{line!r}: at most one stop before the path and one after; usage: {USAGE['drive']}")
    before = next((st for after, st in stops if not after), None)
    afters = [st for after, st in stops if after]
    if not seen_path and len(stops) == 2:
        afters = [stops[1][1]]
    if len(afters) > 1 or (seen_path and len([1 for a, _ in stops if not a]) > 1):
        raise ParseError(f"{line!r}: at most one stop before the path and one after; usage: {USAGE['drive']}")
    return Drive(vehicle, path, before, afters[0] if afters else None)


def _point(text: str, line: str) -> XY:
    parts = text.split(",")
    if len(parts) != 2:
        raise ParseError(f"{line!r}: {text!r} is not a point X,Y in inches")
    x, y = read_float(parts[0]), read_float(parts[1])
    if x is None or y is None:
        raise ParseError(f"{line!r}: {text!r} is not a point X,Y in inches")
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ParseError(f"{line!r}: {text!r} is not a finite point")
    return (x, y)


def _name(text: str, pattern: re.Pattern[str], what: str, line: str) -> str:
    if not pattern.match(text):
        raise ParseError(f"{line!r}: {text!r} is not a {what}")
    return text.upper()


def _order(words: list[str], line: str) -> Order:
    if len(words) < 2:
        raise ParseError(
            f"{line!r}: a figure's order is FIG to X,Y.. | stay | wire | traps | open DOOR | close DOOR | build BRIDGE"
            " | up WALL | down X,Y | ladder X,Y [X,Y] | climb LADDER | push LADDER"
        )
    figure = _name(words[0], _FIGURE, "figure (A1.3)", line)
    verb = words[1].lower()
    rest = words[2:]
    if verb not in VERBS:
        raise ParseError(f"{line!r}: {words[1]!r} is not one of {', '.join(VERBS)}")
    if verb == "stay":
        if rest:
            raise ParseError(f"{line!r}: 'stay' takes nothing after it")
        return Order(figure, verb)
    if verb in ("open", "close"):
        if len(rest) != 1 or not _DOOR.match(rest[0]):
            raise ParseError(f"{line!r}: {verb} takes one door")
        return Order(figure, verb, (), rest[0])
    if verb == "build":
        if len(rest) != 1 or not _DOOR.match(rest[0]):
            raise ParseError(f"{line!r}: build takes one bridge")
        return Order(figure, verb, (), None, rest[0])
    if verb in NAMED_VERBS:
        if len(rest) != 1 or not _DOOR.match(rest[0]):
            what = "castle wall" if verb == "up" else "ladder"
            raise ParseError(f"{line!r}: {verb} takes one {what}")
        return Order(figure, verb, (), name=rest[0].upper() if verb != "up" else rest[0])
    points = tuple(_point(w, line) for w in rest)
    if verb == "down" and len(points) != 1:
        raise ParseError(f"{line!r}: down takes one point X,Y (where he steps off the wall)")
    if verb == "ladder" and not 1 <= len(points) <= 2:
        raise ParseError(f"{line!r}: ladder takes its top X,Y on the wall and, if he walks first, where he raises it")
    if verb == "to" and not 1 <= len(points) <= 3:
        raise ParseError(f"{line!r}: a path is 1 to 3 points (at most two waypoints and the end)")
    if verb in ("wire", "traps") and len(points) != 2:
        raise ParseError(f"{line!r}: {verb} takes two points")
    return Order(figure, verb, points)


def _burst(words: list[str], pieces: list[str], line: str) -> Burst:
    if len(words) < 3 or len(words) > 5 or len(pieces) > 1:
        raise ParseError(f"{line!r}: usage: {USAGE['burst']}")
    by = words[1]
    if not (_FIGURE.match(by) or _UNIT.match(by)):
        raise ParseError(f"{line!r}: {by!r} is not a piece (GUN1) or a man (A1.3)")
    by = by.upper()
    if words[2].lower() == "hold":
        if len(words) > 3:
            raise ParseError(f"{line!r}: 'hold' takes nothing after it")
        return Burst(by, None)
    at = _point(words[2], line)
    angle = 0.0
    if len(words) > 3:
        read = read_float(words[3])
        if read is None:
            raise ParseError(f"{line!r}: {words[3]!r} is not an angle in degrees")
        angle = read
        if not math.isfinite(angle):
            raise ParseError(f"{line!r}: {words[3]!r} is not a finite angle")
        angle = angle % 360.0
    template = None
    if len(words) > 4:
        if not _TEMPLATE.match(words[4]):
            raise ParseError(f"{line!r}: {words[4]!r} is not a template's name")
        template = words[4]
    return Burst(by, at, angle, template)


def parse_action(text: str) -> SkirmishAction:
    """The action written as ``text``; raises :class:`ParseError` quoting it and the usage.

    A point is ``X,Y`` or ``X Y`` (the coordinate grammar of every rule set, ``points_joined``).
    """
    line = points_joined(text)
    if not line:
        raise ParseError("empty action; one of: " + "; ".join(USAGE.values()))
    pieces = [p.strip() for p in line.split("/")]
    words = pieces[0].split(" ")
    verb = words[0].lower()
    if verb not in USAGE:
        raise ParseError(f"{line!r}: unknown action {words[0]!r}; one of: {', '.join(USAGE)}")
    if len(words) < 2:
        raise ParseError(f"{line!r}: usage: {USAGE[verb]}")
    if verb == "melee":
        if len(words) != 3 or len(pieces) > 1 or words[2].lower() not in CHOICES:
            raise ParseError(f"{line!r}: usage: {USAGE['melee']}")
        return Choice(_name(words[1], _UNIT, "melee group (M1)", line), words[2].lower())
    if verb == "burst":
        return _burst(words, pieces, line)
    if verb == "drive":
        if len(pieces) > 1:
            raise ParseError(f"{line!r}: usage: {USAGE['drive']}")
        return _drive(line, words)
    unit = _name(words[1], _UNIT, "unit", line)
    if verb == "turn":
        if len(words) != 4 or len(pieces) > 1:
            raise ParseError(f"{line!r}: usage: {USAGE['turn']}")
        piece = _name(words[2], _UNIT, "piece (GUN1)", line)
        if "," in words[3]:
            return Move(unit, turn=Turn(piece, None, _point(words[3], line)))
        heading = read_measure(words[3], "the piece's heading", line, "a heading in degrees or a point X,Y")
        return Move(unit, turn=Turn(piece, heading))
    if verb == "hold":
        if len(words) != 2 or len(pieces) > 1:
            raise ParseError(f"{line!r}: usage: {USAGE['hold']}")
        return Move(unit)
    if verb == "move":
        path = tuple(_point(w, line) for w in words[2:])
        if len(path) > 3:
            raise ParseError(f"{line!r}: a path is at most two waypoints and the end")
        orders = tuple(_order(p.split(" "), line) for p in pieces[1:])
        if len({o.figure for o in orders}) != len(orders):
            raise ParseError(f"{line!r}: a figure is given two orders")
        return Move(unit, path, orders)
    if len(words) != 3:
        raise ParseError(f"{line!r}: usage: {USAGE['fire']}")
    target = None if words[2].lower() == "hold" else _name(words[2], _UNIT, "unit or hold", line)
    fire_orders: list[tuple[str, str]] = []
    wedges: list[WedgeOrder] = []
    for piece in pieces[1:]:
        parts = piece.split(" ")
        if len(parts) == 3 and parts[1].lower() == "wedge":
            wedges.append(_wedge(_name(parts[0], _FIGURE, "figure (A1.3)", line), parts[2], line))
            continue
        if len(parts) != 2:
            raise ParseError(f"{line!r}: a figure's fire order is FIG TARGET|hold or FIG wedge HEADING|X,Y")
        figure = _name(parts[0], _FIGURE, "figure (A1.3)", line)
        aim = parts[1]
        if aim.lower() == "hold":
            aim = "hold"
        elif _FIGURE.match(aim) or _UNIT.match(aim):
            aim = aim.upper()
        else:
            raise ParseError(f"{line!r}: {aim!r} is not a figure, a unit or hold")
        fire_orders.append((figure, aim))
    named = [f for f, _ in fire_orders] + [w.figure for w in wedges]
    if len(set(named)) != len(named):
        raise ParseError(f"{line!r}: a figure is given two targets")
    return Fire(unit, target, tuple(fire_orders), tuple(wedges))


def _wedge(figure: str, aim: str, line: str) -> WedgeOrder:
    """``FIG wedge HEADING`` (degrees) or ``FIG wedge X,Y`` (a point to aim at), skirmish.16."""
    if "," in aim:
        return WedgeOrder(figure, None, _point(aim, line))
    return WedgeOrder(figure, read_measure(aim, "the wedge's heading", line, "a heading in degrees or a point X,Y"))


def action_from_json(data: dict[str, Any]) -> SkirmishAction:
    """The action of ``to_json`` output; raises :class:`ParseError` on a malformed one."""
    try:
        kind = data["type"]
        if kind == "move":
            orders = tuple(
                Order(
                    str(o["figure"]),
                    str(o["verb"]),
                    tuple((float(p[0]), float(p[1])) for p in o["points"]),
                    o.get("door"),
                    o.get("bridge"),
                    o.get("name"),
                )
                for o in data["orders"]
            )
            turn = None
            if data.get("turn") is not None:
                t = data["turn"]
                turn = Turn(
                    str(t["piece"]),
                    None if t.get("heading") is None else float(t["heading"]),
                    None if t.get("at") is None else (float(t["at"][0]), float(t["at"][1])),
                )
            return Move(str(data["unit"]), tuple((float(p[0]), float(p[1])) for p in data["path"]), orders, turn)
        if kind == "melee":
            return Choice(str(data["group"]), str(data["choice"]))
        if kind == "burst":
            at = data["at"]
            return Burst(
                str(data["by"]),
                (float(at[0]), float(at[1])) if at is not None else None,
                float(data.get("angle", 0.0)),
                data.get("template"),
            )
        if kind == "drive":
            stops = [
                Stop(str(st["verb"]), tuple(str(m) for m in st["men"])) if st else None
                for st in (data.get("before"), data.get("after"))
            ]
            path = tuple((float(p[0]), float(p[1])) for p in data["path"])
            return Drive(str(data["vehicle"]), path, stops[0], stops[1])
        if kind == "fire":
            wedges = tuple(
                WedgeOrder(
                    str(w["figure"]),
                    None if w.get("heading") is None else float(w["heading"]),
                    None if w.get("at") is None else (float(w["at"][0]), float(w["at"][1])),
                )
                for w in data.get("wedges", [])
            )
            return Fire(
                str(data["unit"]), data["target"], tuple((str(f), str(t)) for f, t in data.get("orders", [])), wedges
            )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ParseError(f"malformed skirmish action {data!r}: {exc}") from None
    raise ParseError(f"unknown skirmish action type {data.get('type')!r}")
