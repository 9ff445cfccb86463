"""B-17 actions: small frozen values with a text form that parses back.

>>> parse_action("fly F1 6 -30 attack B2 at 9.5")
Fly(aircraft='F1', straight=6.0, turn=-30.0, target='B2', at=9.5, to=None)
>>> str(parse_action("fly b3 3 90"))
'fly B3 3 90'
>>> parse_action("fly F2 to 40 30.5")
Fly(aircraft='F2', straight=None, turn=None, target=None, at=None, to=(40.0, 30.5))
>>> str(Guns("B2", "F1", "waists"))
'guns B2 F1 waists'
>>> parse_action(str(PlaceBox(1, ((14.5, 30.0), (10.0, 34.5), (10.0, 25.5), (6.9, 30.0)))))
PlaceBox(box=1, positions=((14.5, 30.0), (10.0, 34.5), (10.0, 25.5), (6.9, 30.0)))
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from grognard.core.errors import ParseError
from grognard.core.geometry import points_joined, points_split, read_measure, snap, write_measure
from grognard.core.numbers import is_count
from grognard.rulesets.b17.data import PAIRS

_AIRCRAFT = re.compile(r"^[BF][1-9][0-9]*$")


def _snap(value: Any) -> Any:
    """A measure as the game keeps it and its text writes it, to 0.01 (inch or degree): an action applies
    exactly what its record line will say, so a record of it replays. Anything else is left to be refused."""
    return snap(value) if isinstance(value, float) and math.isfinite(value) else value


@dataclass(frozen=True, slots=True)
class PlaceBox:
    """The Americans put box ``box`` (1, or 2 in the enlarged game) on the table (b17.12-b17.15).

    ``positions`` are the (x, y) centres, inches, of the leader, the bomber on the left, the bomber on
    the right and the last bomber; every bomber faces the target end (heading 0).
    """

    box: int
    positions: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "positions", tuple(tuple(_snap(v) for v in p) for p in self.positions))

    def __str__(self) -> str:
        return f"place {self.box} " + " ".join(f"{write_measure(x)},{write_measure(y)}" for x, y in self.positions)

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "box": self.box, "positions": [list(p) for p in self.positions]}


@dataclass(frozen=True, slots=True)
class Fly:
    """An aircraft's whole move (b17.24-b17.31): ``straight`` inches ahead, then a turn of ``turn`` degrees
    (+ left, - right), then on to the end of its move; or, with ``to``, the one such path that ends at
    that point. A fighter may stop ``at`` inches along the path to attack bomber ``target`` (b17.30)."""

    aircraft: str
    straight: float | None = None
    turn: float | None = None
    target: str | None = None
    at: float | None = None
    to: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        # the bots make thousands a raid: the three measures snapped without a loop over their names
        setattr_ = object.__setattr__
        if self.straight is not None:
            setattr_(self, "straight", _snap(self.straight))
        if self.turn is not None:
            setattr_(self, "turn", _snap(self.turn))
        if self.at is not None:
            setattr_(self, "at", _snap(self.at))
        if self.to is not None:
            object.__setattr__(self, "to", tuple(_snap(v) for v in self.to))

    def __str__(self) -> str:
        if self.to is not None:
            text = f"fly {self.aircraft} to {write_measure(self.to[0])} {write_measure(self.to[1])}"
        else:
            text = f"fly {self.aircraft} {write_measure(self.straight or 0.0)} {write_measure(self.turn or 0.0)}"
        if self.target is not None:
            text += f" attack {self.target} at {write_measure(self.at or 0.0)}"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "fly",
            "aircraft": self.aircraft,
            "straight": self.straight,
            "turn": self.turn,
            "target": self.target,
            "at": self.at,
            "to": list(self.to) if self.to is not None else None,
        }


@dataclass(frozen=True, slots=True)
class Guns:
    """Bomber ``bomber`` fires the pair ``pair`` (``nose-tail`` or ``waists``) at fighter ``fighter`` (b17.45)."""

    bomber: str
    fighter: str
    pair: str

    def __str__(self) -> str:
        return f"guns {self.bomber} {self.fighter} {self.pair}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "guns", "bomber": self.bomber, "fighter": self.fighter, "pair": self.pair}


B17Action = PlaceBox | Fly | Guns

USAGE = {
    "place": "place BOX X,Y X,Y X,Y X,Y  (leader, left, right, last; e.g. place 1 16,30 12.5,34.5 12.5,25.5 8.5,30)",
    "fly": "fly AIRCRAFT STRAIGHT TURN [attack BOMBER at INCHES]  (+ left, - right; e.g. fly F1 6 -30 attack B2 at 9)",
    "fly to": "fly AIRCRAFT to X Y [attack BOMBER at INCHES]  (the path that ends at X,Y)",
    "guns": "guns BOMBER FIGHTER nose-tail|waists",
}


def _label(text: str, what: str, line: str, first: str | None = None) -> str:
    label = text.upper()
    if not _AIRCRAFT.match(label) or (first is not None and label[0] != first):
        raise ParseError(f"{line!r}: {text!r} is not {what}")
    return label


def parse_action(text: str) -> B17Action:
    """The action written as ``text``; raises :class:`ParseError` quoting it and the usage."""
    line = " ".join(text.split())
    words = line.split(" ") if line else []
    if not words:
        raise ParseError("empty action; one of: " + "; ".join(USAGE.values()))
    verb, args = words[0].lower(), words[1:]
    if verb == "place" and args:  # points X,Y or X Y (the coordinate grammar of every rule set)
        args = [args[0], *points_joined(" ".join(args[1:])).split(" ")] if args[1:] else args
    elif verb == "fly":
        args = points_split(" ".join(args)).split(" ") if args else args
    if verb == "place":
        if len(args) < 2:
            raise ParseError(f"{line!r}: usage: {USAGE['place']}")
        if not is_count(args[0]):
            raise ParseError(f"{line!r}: box {args[0]!r} is not a box's number; usage: {USAGE['place']}")
        points = []
        for arg in args[1:]:
            x, sep, y = arg.partition(",")
            if not sep:
                raise ParseError(f"{line!r}: {arg!r} is not X,Y; usage: {USAGE['place']}")
            points.append((read_measure(x, "x", line), read_measure(y, "y", line)))
        return PlaceBox(int(args[0]), tuple(points))
    if verb == "guns":
        if len(args) != 3:
            raise ParseError(f"{line!r}: usage: {USAGE['guns']}")
        pair = args[2].lower()
        if pair not in PAIRS:
            raise ParseError(f"{line!r}: {args[2]!r} is not nose-tail or waists")
        return Guns(
            _label(args[0], "a bomber (B1, B2, ...)", line, "B"),
            _label(args[1], "a fighter (F1, ...)", line, "F"),
            pair,
        )
    if verb != "fly":
        raise ParseError(f"{line!r}: unknown action {words[0]!r}; one of: place, fly, guns")
    if not args:
        raise ParseError(f"{line!r}: usage: {USAGE['fly']}")
    aircraft = _label(args[0], "an aircraft (B1, F1, ...)", line)
    rest = args[1:]
    target = at = None
    lowered = [w.lower() for w in rest]
    if "attack" in lowered:
        k = lowered.index("attack")
        tail = rest[k:]
        if len(tail) != 4 or tail[2].lower() != "at":
            raise ParseError(f"{line!r}: write the attack as 'attack BOMBER at INCHES'")
        target = _label(tail[1], "a bomber (B1, B2, ...)", line, "B")
        at = read_measure(tail[3], "attack point", line)
        rest = rest[:k]
    if rest and rest[0].lower() == "to":
        if len(rest) != 3:
            raise ParseError(f"{line!r}: usage: {USAGE['fly to']}")
        return Fly(
            aircraft, None, None, target, at, (read_measure(rest[1], "x", line), read_measure(rest[2], "y", line))
        )
    if len(rest) != 2:
        raise ParseError(f"{line!r}: usage: {USAGE['fly']}")
    return Fly(aircraft, read_measure(rest[0], "straight", line), read_measure(rest[1], "turn", line), target, at)


def action_from_json(data: dict[str, Any]) -> B17Action:
    """The action of ``to_json`` output; raises :class:`ParseError` on a malformed one."""
    try:
        kind = data["type"]
        if kind == "place":
            return PlaceBox(int(data["box"]), tuple((float(x), float(y)) for x, y in data["positions"]))
        if kind == "fly":

            def num(key: str) -> float | None:
                return None if data.get(key) is None else float(data[key])

            to = data.get("to")
            return Fly(
                str(data["aircraft"]),
                num("straight"),
                num("turn"),
                data.get("target"),
                num("at"),
                (float(to[0]), float(to[1])) if to is not None else None,
            )
        if kind == "guns":
            return Guns(str(data["bomber"]), str(data["fighter"]), str(data["pair"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ParseError(f"malformed b17 action {data!r}: {exc}") from None
    raise ParseError(f"unknown b17 action type {data.get('type')!r}")
