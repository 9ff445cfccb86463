"""Observations for learning agents: a seat's ``view(seat)`` as a fixed-shape numpy vector.

An encoder is made once per environment from the first view of a game (which
fixes the counts: squads, obstacle sections, aircraft, men) and then turns
each view of that game into a ``float32`` vector of ``size`` numbers, every
one in [-1, 1] (counts are divided by their maximum and clipped). It reads
the view alone, never the game, so it can carry only what the seat may see:
another seat's sealed secret choice is not in the view, so it is not in the
observation.

Every layout starts with the same header of ``HEADER`` numbers:

====  ==========================================================
0     turn / turn cap (a rule set without a cap: turn / 100)
1     1 if this seat's side is the rule set's first side, else 0
2     1 if this seat owes a decision now
3     decisions owed now by every seat, / 32
4-9   the phase, one-hot (per rule set, below; the last: other)
10-17 the kind of the decision this seat owes first, one-hot (per
      rule set, below; the last: other; all 0 when it owes none)
18    what that decision is for (the squad, bunker, aircraft or
      unit its id names): its place in the rule set's list of
      them, (index + 1) / count; 0 for none
====  ==========================================================

Omaha (``OmahaEncoder``; phases setup, americans, germans, morale, landing;
decisions place, orders, fire, artillery; named: squads A1..., bunkers B1... (one per section), German players G1...):
then for each American player (``3 * germans`` of them, in seat order) 7
numbers: squad on the beach, figures / 12, x / width, y / (28 + ground),
lost this turn / 12, out of the game, fresh squads used / 4; for each
obstacle section 2: not rolled yet (hidden), obstacles / 6; for each bunker
place (``2 * germans``, in section order) 5: placed, section / sections,
defenders / 4, silenced, destroyed; last, exits open / exits.

B-17 (``B17Encoder``; phases setup, fighters, bombers, bomber fire, over;
decisions place, move, guns; named: the aircraft):
then bomb hits / 3, and for each aircraft (bombers then fighters, as the view
lists them) 9 numbers: bomber, flying, waiting to enter, x / 108, y / 60,
cos and sin of the heading, damaged engines / engines, bombed.

Skirmish (``SkirmishEncoder``; phases my move, the other side's move, fire,
melee, over; decisions move, fire, melee, burst, drive; named: the units):
then each side's men lost / men, and for each man of the scenario (as the
view lists them) 8 numbers: alive, on the table, on this seat's side,
x / table width, y / table depth, hits this turn / 2, flesh wounds / 2,
aboard a vehicle or on a wall or ladder. Vehicles, pieces' arcs, templates
and structures are not encoded (they are in the view, and the ``infos`` of
the environment name the candidate orders in words).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["HEADER", "Encoder", "make_encoder"]

HEADER = 19
PHASE_SLOTS = 6
KIND_SLOTS = 8


class Encoder:
    """Turns a view of one game into a vector of ``size`` float32 numbers in [-1, 1]."""

    phases: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    size: int = HEADER

    def __init__(self, first: Mapping[str, Any], sides: Sequence[str]) -> None:
        self.sides = tuple(sides)
        self.named = {label: i for i, label in enumerate(self.labels(first))}

    def labels(self, first: Mapping[str, Any]) -> list[str]:
        """What a decision's id may name (the second word of the id), in order."""
        return []

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """The vector of ``view`` (see the module's layouts); shape ``(size,)``."""
        out = np.zeros(self.size, dtype=np.float32)
        out[0] = view.get("turn", 0) / self.turn_cap(view)
        out[1] = 1.0 if view.get("side") == self.sides[0] else 0.0
        pending = view.get("pending", [])
        owed = next((p for p in pending if p["seat"] == view.get("seat")), None)
        out[2] = 1.0 if owed is not None else 0.0
        out[3] = len(pending) / 32
        out[4 + self.phase_index(view)] = 1.0
        if owed is not None:
            words = str(owed["id"]).split()
            kind = self.kinds.index(words[0]) if words[0] in self.kinds else KIND_SLOTS - 1
            out[4 + PHASE_SLOTS + kind] = 1.0
            if len(words) > 1 and words[1] in self.named:
                out[4 + PHASE_SLOTS + KIND_SLOTS] = (self.named[words[1]] + 1) / len(self.named)
        self.body(view, out[HEADER:])
        np.clip(out, -1.0, 1.0, out=out)
        return out

    def turn_cap(self, view: Mapping[str, Any]) -> float:
        cap = view.get("options", {}).get("turn_cap")
        return float(cap) if cap else 100.0

    def phase_index(self, view: Mapping[str, Any]) -> int:
        phase = view.get("phase")
        return self.phases.index(phase) if phase in self.phases else PHASE_SLOTS - 1

    def body(self, view: Mapping[str, Any], out: np.ndarray) -> None:
        """Fill the rule set's part of the vector."""


class OmahaEncoder(Encoder):
    """Omaha: American players, obstacle sections, bunker places, exits (see the module's layout)."""

    phases = ("setup", "americans", "germans", "morale", "landing")
    kinds = ("place", "orders", "fire", "artillery")
    PER_AMERICAN = 7
    PER_SECTION = 2
    PER_BUNKER = 5

    def __init__(self, first: Mapping[str, Any], sides: Sequence[str]) -> None:
        super().__init__(first, sides)
        self.americans = len(first["americans"])
        self.sections = len(first["obstacles"])
        self.bunkers = 2 * int(first["germans"])
        self.bunker_sections = 3 * int(first["germans"])
        self.size = (
            HEADER
            + self.PER_AMERICAN * self.americans
            + self.PER_SECTION * self.sections
            + self.PER_BUNKER * self.bunkers
            + 1
        )

    def labels(self, first: Mapping[str, Any]) -> list[str]:
        germans = int(first["germans"])
        squads = [a["label"] for a in first["americans"]]
        return squads + [f"B{i + 1}" for i in range(3 * germans)] + [f"G{k + 1}" for k in range(germans)]

    def body(self, view: Mapping[str, Any], out: np.ndarray) -> None:
        width = float(view["width"])
        depth = 28.0 + float(view["options"].get("ground", 12.0))
        at = 0
        for american in view["americans"][: self.americans]:
            squad = american["squad"]
            if squad is not None:
                out[at : at + 5] = (
                    1.0,
                    squad["figures"] / 12,
                    squad["x"] / width,
                    squad["y"] / depth,
                    squad["lost"] / 12,
                )
            out[at + 5] = 1.0 if american["out"] else 0.0
            out[at + 6] = american["fresh_used"] / 4
            at += self.PER_AMERICAN
        at = self.PER_AMERICAN * self.americans
        for obstacles in view["obstacles"][: self.sections]:
            out[at : at + 2] = (1.0, 0.0) if obstacles is None else (0.0, obstacles / 6)
            at += self.PER_SECTION
        at = self.PER_AMERICAN * self.americans + self.PER_SECTION * self.sections
        for bunker in view["bunkers"][: self.bunkers]:
            out[at : at + 5] = (
                1.0,
                bunker["section"] / max(self.bunker_sections, 1),
                bunker["defenders"] / 4,
                1.0 if bunker["status"] == "silenced" else 0.0,
                1.0 if bunker["status"] == "destroyed" else 0.0,
            )
            at += self.PER_BUNKER
        exits = view.get("exits", [])
        out[-1] = sum(1 for e in exits if e["open"]) / max(len(exits), 1)


class B17Encoder(Encoder):
    """B-17: bomb hits, then every aircraft (see the module's layout)."""

    phases = ("setup", "fighters", "bombers", "bomber fire", "over")
    kinds = ("place", "move", "guns")
    PER_AIRCRAFT = 9
    LENGTH = 108.0
    WIDTH = 60.0

    def __init__(self, first: Mapping[str, Any], sides: Sequence[str]) -> None:
        super().__init__(first, sides)
        self.aircraft = len(first["aircraft"])
        self.size = HEADER + 1 + self.PER_AIRCRAFT * self.aircraft

    def labels(self, first: Mapping[str, Any]) -> list[str]:
        return [plane["label"] for plane in first["aircraft"]]

    def body(self, view: Mapping[str, Any], out: np.ndarray) -> None:
        out[0] = view.get("hits", 0) / 3
        at = 1
        for plane in view["aircraft"][: self.aircraft]:
            heading = math.radians(float(plane["heading"]))
            out[at : at + self.PER_AIRCRAFT] = (
                1.0 if plane["kind"] == "bomber" else 0.0,
                1.0 if plane["status"] == "flying" else 0.0,
                1.0 if plane["status"] == "waiting" else 0.0,
                plane["x"] / self.LENGTH,
                plane["y"] / self.WIDTH,
                math.cos(heading),
                math.sin(heading),
                len(plane["damaged"]) / max(int(plane["engines"]), 1),
                1.0 if plane["bombed"] else 0.0,
            )
            at += self.PER_AIRCRAFT


class SkirmishEncoder(Encoder):
    """Skirmish: each side's losses, then every man of the scenario (see the module's layout)."""

    phases = ("move (mine)", "move (theirs)", "fire", "melee", "over")
    kinds = ("move", "fire", "melee", "burst", "drive")
    PER_MAN = 8

    def __init__(self, first: Mapping[str, Any], sides: Sequence[str]) -> None:
        super().__init__(first, sides)
        self.men = len(first["figures"])
        self.strength = {side: max(1, sum(1 for f in first["figures"] if f["side"] == side)) for side in self.sides}
        self.size = HEADER + len(self.sides) + self.PER_MAN * self.men

    def labels(self, first: Mapping[str, Any]) -> list[str]:
        return [unit["id"] for unit in first["units"]]

    def turn_cap(self, view: Mapping[str, Any]) -> float:
        cap = view.get("stats", {}).get("turn_limit")
        return float(cap) if cap else 100.0

    def phase_index(self, view: Mapping[str, Any]) -> int:
        phase = str(view.get("phase", ""))
        if phase.startswith("move:"):
            return 0 if phase.split(":", 1)[1] == view.get("side") else 1
        return super().phase_index(view)

    def body(self, view: Mapping[str, Any], out: np.ndarray) -> None:
        losses = view.get("stats", {}).get("losses", {})
        for i, side in enumerate(self.sides):
            out[i] = losses.get(side, 0) / self.strength[side]
        at = len(self.sides)
        width = float(view["terrain"]["width"])
        depth = float(view["terrain"]["depth"])
        mine = view.get("side")
        for man in view["figures"][: self.men]:
            out[at : at + self.PER_MAN] = (
                1.0 if man["alive"] else 0.0,
                1.0 if man["on_table"] else 0.0,
                1.0 if man["side"] == mine else 0.0,
                man["x"] / width,
                man["y"] / depth,
                man["hits"] / 2,
                man["wounds"] / 2,
                1.0 if man.get("aboard") or man.get("on_wall") or man.get("on_ladder") else 0.0,
            )
            at += self.PER_MAN


ENCODERS: dict[str, type[Encoder]] = {"omaha": OmahaEncoder, "b17": B17Encoder, "skirmish": SkirmishEncoder}


def make_encoder(ruleset: str, first: Mapping[str, Any], sides: Sequence[str]) -> Encoder:
    """The encoder of ``ruleset`` sized by ``first`` (a view of the game); ``KeyError`` for a rule set without one."""
    return ENCODERS[ruleset](first, sides)
