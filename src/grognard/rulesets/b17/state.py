"""The B-17 game state: the aircraft, the fighter elements, the turn and what is under way.

See ``geometry`` for the table's axes and the heading convention. Everything
here is plain data with a ``to_json`` (the digest covers it) and a fast ``copy``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grognard.core.engine import Result


@dataclass(slots=True)
class Aircraft:
    """A B-17 (``B1``...) or a fighter (``F1``...).

    ``status``: ``waiting`` (a fighter not yet entered), ``flying``, ``destroyed`` or ``left`` (off the
    table, RULINGS B18). ``damaged`` lists the damaged engines (1-based; each a damage point, a pipe
    cleaner of smoke). A bomber's ``slot`` is its place in its box (leader, left, right, last).
    """

    label: str
    kind: str  # "bomber" or "fighter"
    model: str  # "B-17", "Me-109", "FW-190"
    engines: int
    x: float = 0.0
    y: float = 0.0
    heading: float = 0.0
    damaged: list[int] = field(default_factory=list)
    status: str = "flying"
    box: int = 0
    slot: str = ""
    element: str = ""
    moves: int = 0  # moves flown (a fighter's first move depends on its altitude)
    bombed: bool = False
    flak_done: bool = False
    hits: int = 0
    broke_off: bool = False  # damaged by flak under the option flak_damage = breaks_off: drops no bombs (B6)

    @property
    def bomber(self) -> bool:
        return self.kind == "bomber"

    @property
    def flying(self) -> bool:
        return self.status == "flying"

    @property
    def damage(self) -> int:
        return len(self.damaged)

    def copy(self) -> Aircraft:
        return Aircraft(
            self.label,
            self.kind,
            self.model,
            self.engines,
            self.x,
            self.y,
            self.heading,
            list(self.damaged),
            self.status,
            self.box,
            self.slot,
            self.element,
            self.moves,
            self.bombed,
            self.flak_done,
            self.hits,
            self.broke_off,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "kind": self.kind,
            "model": self.model,
            "engines": self.engines,
            "x": self.x,
            "y": self.y,
            "heading": self.heading,
            "damaged": list(self.damaged),
            "status": self.status,
            "box": self.box,
            "slot": self.slot,
            "element": self.element,
            "moves": self.moves,
            "bombed": self.bombed,
            "flak_done": self.flak_done,
            "hits": self.hits,
            **({"broke_off": True} if self.broke_off else {}),  # only under the option (quiet: old digests hold)
        }


@dataclass(slots=True)
class Element:
    """A German element of two fighters (b17.6): on the table from ``entered`` (a turn), at ``altitude``."""

    label: str
    fighters: tuple[str, ...]
    entered: int | None = None
    hour: int | None = None
    altitude: str | None = None

    def copy(self) -> Element:
        return Element(self.label, self.fighters, self.entered, self.hour, self.altitude)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "fighters": list(self.fighters),
            "entered": self.entered,
            "hour": self.hour,
            "altitude": self.altitude,
        }


@dataclass
class B17State:
    """Everything about a B-17 game.

    ``phase``: ``setup`` (the boxes are placed), ``fighters``, ``bombers`` (each owes a move), ``over``.
    ``to_move``: aircraft still to move this phase. ``fire``: gunners' fire still to resolve, in order,
    each ``{"bomber", "fighter", "occasion"}``; ``guns_used``: per bomber, the gun positions that have
    fired this occasion. ``flight``: a fighter's move under way (stopped to attack, waiting for the
    defensive fire to end), or None.
    """

    options: dict[str, Any]
    aircraft: dict[str, Aircraft]
    elements: list[Element]
    boxes: int
    turn: int = 0
    phase: str = "setup"
    placed: list[int] = field(default_factory=list)
    to_move: list[str] = field(default_factory=list)
    fire: list[dict[str, Any]] = field(default_factory=list)
    guns_used: dict[str, list[str]] = field(default_factory=dict)
    flight: dict[str, Any] | None = None
    hits: int = 0
    stats: dict[str, Any] = field(default_factory=dict)
    outcome: Result | None = None

    def copy(self) -> B17State:
        return B17State(
            options=self.options,
            aircraft={k: a.copy() for k, a in self.aircraft.items()},
            elements=[e.copy() for e in self.elements],
            boxes=self.boxes,
            turn=self.turn,
            phase=self.phase,
            placed=list(self.placed),
            to_move=list(self.to_move),
            fire=[dict(f) for f in self.fire],
            guns_used={k: list(v) for k, v in self.guns_used.items()},
            flight=dict(self.flight) if self.flight is not None else None,
            hits=self.hits,
            stats=dict(self.stats),
            outcome=self.outcome,
        )

    def unplaced(self, a: Aircraft) -> bool:
        """A bomber whose box is not on the table yet (b17.8): at (0, 0) in the state, drawn and listed nowhere."""
        return a.bomber and a.box not in self.placed

    def bombers(self) -> list[Aircraft]:
        return [a for a in self.aircraft.values() if a.bomber]

    def fighters(self) -> list[Aircraft]:
        return [a for a in self.aircraft.values() if not a.bomber]

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options,
            "aircraft": [a.to_json() for a in self.aircraft.values()],
            "elements": [e.to_json() for e in self.elements],
            "boxes": self.boxes,
            "turn": self.turn,
            "phase": self.phase,
            "placed": list(self.placed),
            "to_move": list(self.to_move),
            "fire": [dict(f) for f in self.fire],
            "guns_used": {k: list(v) for k, v in sorted(self.guns_used.items())},
            "flight": dict(self.flight) if self.flight is not None else None,
            "hits": self.hits,
            "stats": dict(self.stats),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }
