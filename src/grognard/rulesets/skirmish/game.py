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
base's centre). Seats are ``Allies`` and ``Axis``, one per side; with the option ``commanders = N``, N a side
(``Allies 1`` .. ``Axis N``), each commanding its own units (``commanders``: who owes which decision).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from grognard.core.dice import DiceSource
from grognard.core.engine import Decision, FiniteSpace, Game, Result
from grognard.core.errors import IllegalAction
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import commanders as CM
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import melee as ME
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import moving as MV
from grognard.rulesets.skirmish import setup as SU
from grognard.rulesets.skirmish import turn as TU
from grognard.rulesets.skirmish import view as VW
from grognard.rulesets.skirmish.actions import Burst, Choice, Drive, Fire, Move
from grognard.rulesets.skirmish.artillery import BurstSpace
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.driving import DriveSpace
from grognard.rulesets.skirmish.events import EVENTS
from grognard.rulesets.skirmish.fire import FireSpace
from grognard.rulesets.skirmish.moving import MoveSpace
from grognard.rulesets.skirmish.scenario import load_scenario
from grognard.rulesets.skirmish.schema import Scenario
from grognard.rulesets.skirmish.state import (
    SkirmishState,
)

SEATS = {"allies": "Allies", "axis": "Axis"}


class SkirmishGame(Game[SkirmishState]):
    """A skirmish game. ``options`` are resolved (``scenario``, ``turn_limit``)."""

    ruleset = "skirmish"
    sides = M.SIDES
    event_kinds = EVENTS

    def __init__(self, options: Mapping[str, Any], dice: DiceSource, scenario: Scenario | None = None) -> None:
        self.ctx = Context(scenario if scenario is not None else load_scenario(str(options["scenario"])), self)
        super().__init__(dice)
        self._owed: tuple[tuple[Any, ...], tuple[Decision, ...], SkirmishState] | None = None  # ``_decisions``
        self.commanders = CM.deal(self.ctx.scenario.spec, int(options.get("commanders") or 1))
        SU.set_up(self.ctx, options)
        TU.begin_turn(self.ctx)

    # ------------------------------------------------------------------ protocol
    def seats(self) -> tuple[str, ...]:
        return self.commanders.seats()

    def side_of(self, seat: str) -> str:
        if self.commanders.count == 1:
            for side, name in SEATS.items():
                if name == seat:
                    return side
            raise IllegalAction(f"no seat {seat!r} in this game")
        return self.commanders.side_of(seat)

    def shares_secrets_with(self, seat: str) -> frozenset[str]:
        """A side's commanders share what it knows: its sealed choices too."""
        if self.commanders.count == 1 or seat not in self.seats():
            return frozenset((seat,))
        return frozenset(self.commanders.of_side(self.commanders.side_of(seat)))

    def find_decision(self, seat: str, action: Any) -> Decision:
        """As ``Game.find_decision``, first refusing an order for another commander's unit (naming both)."""
        CM.check_order(self.ctx, self.commanders, seat, action)
        return super().find_decision(seat, action)

    @property
    def result(self) -> Result | None:
        return self.state.outcome

    @property
    def turn(self) -> int:
        return self.state.turn

    def _resign(self, seat: str) -> None:
        side = self.side_of(seat)
        self.ctx.version += 1
        self.emit("resigned", seat=seat, side=side)
        TU.finish(self.ctx, Result("win", M.other(side), self.state.turn, f"{seat} resigned", TU.scores(self.ctx)))

    def state_json(self) -> dict[str, Any]:
        return self.state.to_json()

    def copy_state(self) -> SkirmishState:
        return self.state.copy()

    @property
    def state(self) -> SkirmishState:
        return self.ctx.state

    @state.setter
    def state(self, value: SkirmishState) -> None:
        self.ctx.state = value
        self.ctx.version += 1
        self.ctx.shot_cache = None  # a state put back (a refused order, a take-back): work the shots out anew

    def clone(self) -> SkirmishGame:
        """An independent copy sharing the dice source, with a context of its own."""
        other = copy.copy(self)
        other.ctx = self.ctx.bind(other, self.copy_state())
        other._owed = None
        other.sealed = copy.deepcopy(self.sealed)
        other._events = []
        other._pending = None
        other.listener = None
        return other

    def view(self, seat: str | None) -> dict[str, Any]:
        """What ``seat`` sees (``view.view``): part 1 hides nothing, every seat sees the whole table."""
        side = self.side_of(seat) if seat in self.seats() else None
        return VW.view(self.ctx, seat, side, self.pending(), self.commanders)

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

    def missing(self, action: Any) -> str | None:
        """The unit, vehicle, piece or man ``action`` names when this game has none of that label."""
        s = self.state
        if isinstance(action, (Move, Fire)):
            what, label, there = "unit", action.unit, sorted(s.units)
        elif isinstance(action, Drive):
            what, label, there = "vehicle", action.vehicle, sorted(s.vehicles)
        elif isinstance(action, Burst):
            what, label, there = "piece or man", action.by, sorted(s.pieces)
            if label in s.figures:
                return None
        else:
            return None
        if label in there:
            return None
        listed = ", ".join(there) if there else "none"
        return f"{action}: there is no {what} {label} in this game ({listed})"

    def seat(self, side: str) -> str:
        """``side``'s (first) seat."""
        return self.commanders.first(side)

    # ------------------------------------------------------------------ decisions
    def _decisions(self) -> tuple[Decision, ...]:
        """The decisions owed now: worked out once a moment (``Context.moment``), as ``_advance`` looks for them
        and as ``pending`` lists them after it."""
        moment = self.ctx.moment()
        owed = self._owed
        if owed is not None and owed[0] == moment and owed[2] is self.state:
            return owed[1]
        decisions = self._owed_now()
        self._owed = (moment, decisions, self.state)
        return decisions

    def _owed_now(self) -> tuple[Decision, ...]:
        s = self.state
        cmd = self.commanders
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
                        cmd.units[label],
                        f"{label} ({len(M.living(self.ctx, label))} men): move",
                        MoveSpace(self.ctx, label),
                    )
                )
            for label, v in sorted(s.vehicles.items()):
                if v.side == side and f"drive {label}" not in s.done and DV.may_drive(self.ctx, v):
                    out.append(
                        Decision(
                            f"drive {label}",
                            CM.of_vehicle(self.ctx, cmd, label),
                            f"{label} ({v.kind}): drive",
                            DriveSpace(self.ctx, label),
                        )
                    )
        elif s.phase == "melee":
            for group, men in sorted(s.groups.items()):
                out.append(
                    Decision(
                        f"melee {group}",
                        CM.of_group(self.ctx, cmd, men),
                        f"melee group {group} ({', '.join(men)}): stay or retreat, in secret",
                        FiniteSpace([Choice(group, c) for c in ("stay", "retreat")], "skirmish.66", "melee choice"),
                        secret_group=f"melee {s.turn}",
                    )
                )
        elif s.phase == "fire":
            shooting = FI.shooters(self.ctx)
            for label, unit in sorted(s.units.items()):
                if f"fire {label}" in s.done:
                    continue
                if any(f in shooting for f in unit.figures):
                    out.append(
                        Decision(
                            f"fire {label}",
                            cmd.units[label],
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
                        CM.of_burst(self.ctx, cmd, by, side),
                        f"{by} ({weapon.replace('_', ' ')}): lay a burst template or hold",
                        BurstSpace(self.ctx, by),
                    )
                )
        return tuple(out)

    def _apply(self, decision: Decision, action: Any) -> None:
        s = self.state
        space = decision.space
        # what its check found when it passed (on this state, before anything changes): carried out as checked
        found: Any = space.passed(action) if isinstance(space, (MoveSpace, DriveSpace, FireSpace, BurstSpace)) else None
        self.ctx.version += 1  # a new moment (``Context.moment``): nothing passed on the state as it was counts now
        s.done.add(decision.id)
        if isinstance(action, Move):
            MV.move(self.ctx, action, found)
            ME.note_charges(self.ctx, action.unit)
        elif isinstance(action, Drive):
            DV.drive(self.ctx, action, found)
        elif isinstance(action, Fire):
            FI.fire_order(self.ctx, action, found)
        elif isinstance(action, Burst):
            AR.burst_order(self.ctx, action, self.side_of(decision.seat), found)
        if not isinstance(action, (Fire, Burst)):  # an order to fire only records shots: the table stands
            self.ctx.shot_cache = None
        self._advance()

    def changed(self) -> None:
        """Forget cached decisions (and what was worked out on the state as it was): the state changed outside
        ``apply``."""
        self.ctx.version += 1
        super().changed()

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
                TU.end_turn(self.ctx)
                if s.outcome is None:
                    TU.begin_turn(self.ctx)

    # ------------------------------------------------------------------ moving
    # ------------------------------------------------------------------ fire
    # ------------------------------------------------------------------ artillery (skirmish.12-15, 29, 31, 72)
    # ------------------------------------------------------------------ melee (skirmish.66-70)
    def resolve_secret(self, group: str, choices: Mapping[str, tuple[str, Any]]) -> None:
        """The stay/retreat choices, shown together (``melee.resolve_choices``); then the turn goes on."""
        self.ctx.version += 1
        ME.resolve_choices(self.ctx, choices)
        self._advance()
