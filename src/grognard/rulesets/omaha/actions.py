"""Omaha actions: small frozen values with a text form that parses back.

>>> parse_action("move A7 12.5 -2")
Move(squad='A7', x=12.5, y=-2.0)
>>> str(Fight("A3", shoot=8, clear=4))
'fight A3 shoot=8 clear=4'
>>> parse_action(str(Fight("A3", shoot=8, clear=4))) == Fight("A3", shoot=8, clear=4)
True
>>> parse_action("fire B3 pass")
BunkerFire(bunker='B3', target=None)
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from grognard.core.errors import ParseError
from grognard.core.geometry import points_split, read_measure, write_measure
from grognard.core.numbers import is_count

_SQUAD = re.compile(r"^A[1-9][0-9]*$")
_GERMAN = re.compile(r"^G[1-9][0-9]*$")
_BUNKER = re.compile(r"^B[1-9][0-9]*$")


@dataclass(frozen=True, slots=True)
class Move:
    """The whole squad moves to ``(x, y)`` inches (omaha.13, omaha.14)."""

    squad: str
    x: float
    y: float

    def __str__(self) -> str:
        return f"move {self.squad} {write_measure(self.x)} {write_measure(self.y)}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "move", **asdict(self)}


@dataclass(frozen=True, slots=True)
class Fight:
    """The squad's figures shoot, clear obstacles or assault; the rest hold (omaha.13, 16-18).

    All zeros is ``hold``: the squad does nothing this turn.
    """

    squad: str
    shoot: int = 0
    clear: int = 0
    assault: int = 0

    def __str__(self) -> str:
        counts = (("shoot", self.shoot), ("clear", self.clear), ("assault", self.assault))
        parts = [f"{name}={n}" for name, n in counts if n]
        return f"fight {self.squad} {' '.join(parts)}" if parts else f"hold {self.squad}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "fight", **asdict(self)}


@dataclass(frozen=True, slots=True)
class PlaceBunkers:
    """A German player puts his two bunkers in two of his three sections (omaha.9); sections 1-based."""

    german: str
    sections: tuple[int, int]

    def __str__(self) -> str:
        return f"place {self.german} {self.sections[0]} {self.sections[1]}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "german": self.german, "sections": list(self.sections)}


@dataclass(frozen=True, slots=True)
class BunkerFire:
    """Bunker ``bunker`` fires at squad ``target``, or holds fire with ``None`` (omaha.19)."""

    bunker: str
    target: str | None

    def __str__(self) -> str:
        return f"fire {self.bunker} {self.target or 'pass'}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "fire", **asdict(self)}


@dataclass(frozen=True, slots=True)
class Artillery:
    """German player ``german`` calls his artillery strike on ``target``, or passes with ``None`` (omaha.22)."""

    german: str
    target: str | None

    def __str__(self) -> str:
        return f"artillery {self.german} {self.target or 'pass'}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "artillery", **asdict(self)}


OmahaAction = Move | Fight | PlaceBunkers | BunkerFire | Artillery

USAGE = {
    "move": "move SQUAD X Y  (e.g. move A7 12 -2.5)",
    "fight": "fight SQUAD [shoot=N] [clear=N] [assault=N]",
    "hold": "hold SQUAD",
    "place": "place GERMAN SECTION SECTION  (e.g. place G1 1 3)",
    "fire": "fire BUNKER SQUAD|pass  (e.g. fire B3 A7)",
    "artillery": "artillery GERMAN SQUAD|pass  (e.g. artillery G2 A7)",
}


def _label(text: str, pattern: re.Pattern[str], what: str, line: str) -> str:
    label = text.upper()
    if not pattern.match(label):
        raise ParseError(f"{line!r}: {text!r} is not a {what}")
    return label


def _number(text: str, what: str, line: str) -> float:
    return read_measure(text, what, line, "a number of inches")


def _count(text: str, what: str, line: str, kind: str = "a count of figures") -> int:
    if not is_count(text):
        raise ParseError(f"{line!r}: {what} {text!r} is not {kind}")
    return int(text)


def parse_action(text: str) -> OmahaAction:
    """The action written as ``text``; raises :class:`ParseError` quoting it and the usage.

    A point is ``X Y`` or ``X,Y`` (the coordinate grammar of every rule set, ``points_split``).
    """
    line = " ".join(text.split())
    words = points_split(line).split(" ") if line else []
    if not words:
        raise ParseError("empty action; one of: " + "; ".join(USAGE.values()))
    verb, args = words[0].lower(), words[1:]
    if verb not in USAGE:
        raise ParseError(f"{line!r}: unknown action {words[0]!r}; one of: {', '.join(USAGE)}")
    if verb == "move":
        if len(args) != 3:
            raise ParseError(f"{line!r}: usage: {USAGE['move']}")
        return Move(
            _label(args[0], _SQUAD, "squad (A1, A2, ...)", line),
            _number(args[1], "x", line),
            _number(args[2], "y", line),
        )
    if verb in ("fight", "hold"):
        if not args:
            raise ParseError(f"{line!r}: usage: {USAGE[verb]}")
        squad = _label(args[0], _SQUAD, "squad (A1, A2, ...)", line)
        if verb == "hold":
            if len(args) != 1:
                raise ParseError(f"{line!r}: usage: {USAGE['hold']}")
            return Fight(squad)
        counts = {"shoot": 0, "clear": 0, "assault": 0}
        for arg in args[1:]:
            name, sep, value = arg.partition("=")
            name = name.lower()
            if not sep or name not in counts:
                raise ParseError(f"{line!r}: {arg!r} is not shoot=N, clear=N or assault=N")
            counts[name] = _count(value, name, line)
        return Fight(squad, **counts)
    if verb == "place":
        if len(args) != 3:
            raise ParseError(f"{line!r}: usage: {USAGE['place']}")
        german = _label(args[0], _GERMAN, "German player (G1, G2, ...)", line)
        a, b = (_count(x, "section", line, "a section number") for x in args[1:])
        return PlaceBunkers(german, (min(a, b), max(a, b)))
    if len(args) != 2:
        raise ParseError(f"{line!r}: usage: {USAGE[verb]}")
    target = None if args[1].lower() == "pass" else _label(args[1], _SQUAD, "squad (A1, A2, ...) or pass", line)
    if verb == "fire":
        return BunkerFire(_label(args[0], _BUNKER, "bunker (B1, B2, ...)", line), target)
    return Artillery(_label(args[0], _GERMAN, "German player (G1, G2, ...)", line), target)


def action_from_json(data: dict[str, Any]) -> OmahaAction:
    """The action of ``to_json`` output; raises :class:`ParseError` on a malformed one."""
    try:
        kind = data["type"]
        if kind == "move":
            return Move(str(data["squad"]), float(data["x"]), float(data["y"]))
        if kind == "fight":
            return Fight(str(data["squad"]), int(data["shoot"]), int(data["clear"]), int(data["assault"]))
        if kind == "place":
            a, b = data["sections"]
            return PlaceBunkers(str(data["german"]), (int(a), int(b)))
        if kind == "fire":
            return BunkerFire(str(data["bunker"]), data["target"])
        if kind == "artillery":
            return Artillery(str(data["german"]), data["target"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ParseError(f"malformed omaha action {data!r}: {exc}") from None
    raise ParseError(f"unknown omaha action type {data.get('type')!r}")
