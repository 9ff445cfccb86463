"""The Omaha game state: the beach, the squads, the bunkers, the turn.

Conventions (stated once, for the whole rule set):

- x runs along the beach from the left end, 0 to ``width`` inches
  (24" per German player: 8" per landing zone, three zones per German);
- y runs inland from the water line: negative in the water (down to
  ``-water``), 0 at the water line, 24 at the sea wall, 24-28 the obstacle
  band, then the bunker ground up to ``28 + ground``;
- a squad is one point (it moves as a group, RULINGS O8): where its figures
  stand; a bunker's front is 1" behind the band at the middle of its section
  and its footprint is 3" wide and 2" deep (the seed gives no size);
- positions are stored rounded to 0.01" (``grognard.core.geometry``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grognard.core.engine import Result


@dataclass(slots=True)
class Squad:
    """An American squad on the beach: ``figures`` left at ``(x, y)``; ``lost`` this turn."""

    label: str
    figures: int
    x: float
    y: float
    lost: int = 0
    landed: int = 0

    def copy(self) -> Squad:
        return Squad(self.label, self.figures, self.x, self.y, self.lost, self.landed)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "figures": self.figures,
            "x": self.x,
            "y": self.y,
            "lost": self.lost,
            "landed": self.landed,
        }


@dataclass(slots=True)
class American:
    """An American player: his zone, his squad (None while it waits in the landing craft)."""

    label: str
    seat: str
    zone: int
    squad: Squad | None = None
    landings: int = 0
    fresh_used: int = 0
    out: bool = False

    def copy(self) -> American:
        squad = self.squad.copy() if self.squad is not None else None
        return American(self.label, self.seat, self.zone, squad, self.landings, self.fresh_used, self.out)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "seat": self.seat,
            "zone": self.zone,
            "squad": self.squad.to_json() if self.squad else None,
            "landings": self.landings,
            "fresh_used": self.fresh_used,
            "out": self.out,
        }


@dataclass(slots=True)
class Bunker:
    """A German bunker in section ``section`` (0-based); ``status`` active, silenced or destroyed (O12)."""

    label: str
    section: int
    owner: str
    commander: str
    defenders: int
    status: str = "active"

    @property
    def active(self) -> bool:
        return self.status == "active"

    def copy(self) -> Bunker:
        return Bunker(self.label, self.section, self.owner, self.commander, self.defenders, self.status)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "section": self.section,
            "owner": self.owner,
            "commander": self.commander,
            "defenders": self.defenders,
            "status": self.status,
        }


@dataclass
class OmahaState:
    """Everything about an Omaha game; ``to_json`` is the full state the digest covers."""

    options: dict[str, Any]
    germans: int
    width: float
    americans: list[American]
    obstacles: list[int | None]
    turn: int = 0
    phase: str = "setup"
    bunkers: dict[int, Bunker] = field(default_factory=dict)
    placed: dict[str, tuple[int, int]] = field(default_factory=dict)
    done: set[str] = field(default_factory=set)
    seat_side: dict[str, str] = field(default_factory=dict)
    markers: tuple[dict[str, Any], ...] = ()  # replaced, never changed in place: copies share it
    exits_open: list[int] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    outcome: Result | None = None

    def copy(self) -> OmahaState:
        """An independent copy; markers and the outcome are never changed once made, so they are shared."""
        return OmahaState(
            options=self.options,
            germans=self.germans,
            width=self.width,
            americans=[a.copy() for a in self.americans],
            obstacles=list(self.obstacles),
            turn=self.turn,
            phase=self.phase,
            bunkers={k: b.copy() for k, b in self.bunkers.items()},
            placed=dict(self.placed),
            done=set(self.done),
            seat_side=dict(self.seat_side),
            markers=self.markers,
            exits_open=list(self.exits_open),
            stats=dict(self.stats),
            outcome=self.outcome,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options,
            "germans": self.germans,
            "width": self.width,
            "turn": self.turn,
            "phase": self.phase,
            "americans": [a.to_json() for a in self.americans],
            "obstacles": list(self.obstacles),
            "bunkers": [b.to_json() for _, b in sorted(self.bunkers.items())],
            "placed": {k: list(v) for k, v in sorted(self.placed.items())},
            "done": sorted(self.done),
            "seat_side": dict(sorted(self.seat_side.items())),
            "markers": list(self.markers),
            "exits_open": list(self.exits_open),
            "stats": dict(self.stats),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }
