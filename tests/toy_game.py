"""Sentry run: a tiny game that proves the core protocol carries what the rule sets need.

It is declared as a :class:`~grognard.core.ruleset.Ruleset` (``"toy"``), so the
conformance suite runs on it. In a few lines of rules it has each thing a later
rule set leans on:

- a **simultaneous secret choice**: every round both seats choose a lane,
  ``left`` or ``right``, as two decisions of one ``secret_group``; the base
  ``Game`` seals each choice and calls :meth:`SentryRun.resolve_secret` once
  both are in;
- a **continuous action**: the runner's ``Dash(inches)``, ``0 <= inches <= 8``,
  an :class:`~grognard.core.engine.ActionSpace` of its own; inches are rounded
  to 0.01" and the limit is decided with ``core.geometry``'s tolerance;
- an **interruption inside an action**: a dash that reaches the watchtower
  mark at 10" while the sentry watches the runner's lane stops at the mark;
  the sentry owes ``shoot`` or ``hold``; a shot (a ``core.dice`` mechanic,
  rolled through the game) hits on a d6 of 4+ and wins for the sentry,
  otherwise the runner finishes the rest of the dash;
- **options** (``round_cap``, ``hit_on``) as ``OptionSpec`` data, a result
  ``"unfinished"`` at the round cap, and a view that hides the other seat's
  sealed lane.

Table: one track, 0" (start) to 20" (goal); the runner is a point on it.

>>> from grognard.core.dice import ScriptedDice
>>> game = RULESET.create({}, ScriptedDice([]))
>>> [d.id for d in game.pending()]
['lane Runner 1', 'lane Sentry 1']
>>> parse_action(str(Dash(7.5))) == Dash(7.5)
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grognard.core.dice import AnySuccess, DiceSource
from grognard.core.engine import ActionSpace, Decision, Event, FiniteSpace, Game, Result
from grognard.core.errors import IllegalAction, ParseError
from grognard.core.events import EventKinds, kind
from grognard.core.geometry import at_least, at_most, snap
from grognard.core.options import OptionSpec
from grognard.core.ruleset import Ruleset

RUNNER, SENTRY = "Runner", "Sentry"
SIDES = ("runner", "sentry")
SEAT_SIDE = {RUNNER: "runner", SENTRY: "sentry"}
TRACK = 20.0  # inches, start to goal
MARK = 10.0  # the watchtower mark
MAX_DASH = 8.0
LANES = ("left", "right")

OPTIONS = (
    OptionSpec(
        "round_cap", int, 8, "rounds after which the game ends unfinished", minimum=1, maximum=1000, rule="toy.cap"
    ),
    OptionSpec("hit_on", int, 4, "a shot hits on a d6 of this or more", minimum=1, maximum=6, rule="toy.shot"),
)


# ---------------------------------------------------------------------- actions
def _inches(value: float) -> str:
    """Shortest text that reads back as the same float ("7.5", "8", "3.14")."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True, slots=True)
class Lane:
    """A seat's secret lane for this round."""

    lane: str

    def __str__(self) -> str:
        return f"lane {self.lane}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "lane", "lane": self.lane}


@dataclass(frozen=True, slots=True)
class Dash:
    """The runner dashes ``inches`` along the track."""

    inches: float

    def __str__(self) -> str:
        return f"dash {_inches(self.inches)}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "dash", "inches": self.inches}


@dataclass(frozen=True, slots=True)
class Shoot:
    """The sentry fires at the runner at the mark."""

    def __str__(self) -> str:
        return "shoot"

    def to_json(self) -> dict[str, Any]:
        return {"type": "shoot"}


@dataclass(frozen=True, slots=True)
class Hold:
    """The sentry lets the runner pass the mark."""

    def __str__(self) -> str:
        return "hold"

    def to_json(self) -> dict[str, Any]:
        return {"type": "hold"}


ToyAction = Lane | Dash | Shoot | Hold


def parse_action(text: str) -> ToyAction:
    """The action written as ``text``; :class:`ParseError` quoting it otherwise."""
    words = text.split()
    if not words:
        raise ParseError("empty action; one of: lane left|right, dash INCHES, shoot, hold")
    verb, args = words[0].lower(), words[1:]
    if verb in ("shoot", "hold") and not args:
        return Shoot() if verb == "shoot" else Hold()
    if verb == "lane" and len(args) == 1:
        return Lane(args[0].lower())
    if verb == "dash" and len(args) == 1:
        try:
            inches = float(args[0])
        except ValueError:
            raise ParseError(f"{text!r}: {args[0]!r} is not a number of inches") from None
        if not math.isfinite(inches):
            raise ParseError(f"{text!r}: {args[0]!r} is not a number of inches")
        return Dash(inches)
    raise ParseError(f"{text!r} is not an action; one of: lane left|right, dash INCHES, shoot, hold")


def action_from_json(data: Mapping[str, Any]) -> ToyAction:
    """The action of ``to_json`` output; :class:`ParseError` for anything else."""
    kind = data.get("type")
    try:
        if kind == "lane":
            return Lane(str(data["lane"]))
        if kind == "dash":
            return Dash(float(data["inches"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ParseError(f"malformed toy action {dict(data)!r}: {exc}") from None
    if kind == "shoot":
        return Shoot()
    if kind == "hold":
        return Hold()
    raise ParseError(f"unknown toy action type {kind!r}")


# ---------------------------------------------------------------------- spaces
class DashSpace(ActionSpace[Dash]):
    """Any dash from 0" to 8": a continuous space, limits decided with the geometry tolerance."""

    def check(self, action: Any) -> None:
        if not isinstance(action, Dash):
            raise IllegalAction(f"{action} is not a dash", "toy.dash")
        inches = action.inches
        if isinstance(inches, bool) or not isinstance(inches, (int, float)) or not math.isfinite(inches):
            raise IllegalAction(f"{action}: {inches!r} is not a number of inches", "toy.dash")
        value = snap(inches)
        if not at_least(value, 0.0):
            raise IllegalAction(f"{action}: a dash cannot go backwards", "toy.dash")
        if not at_most(value, MAX_DASH):
            raise IllegalAction(
                f"{action}: a dash is at most {_inches(MAX_DASH)} inches, not {_inches(value)}", "toy.dash"
            )

    def sample(self, rng: np.random.Generator) -> Dash:
        return Dash(snap(float(rng.uniform(0.0, MAX_DASH))))

    def candidates(self, k: int = 16) -> list[Dash]:
        return [Dash(x) for x in (MAX_DASH, 6.0, 4.0, 2.0, 0.0)][:k]


# ---------------------------------------------------------------------- state
@dataclass
class ToyState:
    round_cap: int
    hit_on: int
    round: int = 1
    phase: str = "lanes"  # lanes -> dash -> (shot) -> next round's lanes
    position: float = 0.0
    lanes: dict[str, str] = field(default_factory=dict)  # revealed lanes of this round
    rest: float = 0.0  # inches of the interrupted dash still to run
    outcome: Result | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "round_cap": self.round_cap,
            "hit_on": self.hit_on,
            "round": self.round,
            "phase": self.phase,
            "position": self.position,
            "lanes": dict(sorted(self.lanes.items())),
            "rest": self.rest,
            "outcome": self.outcome.to_json() if self.outcome else None,
        }


EVENTS = EventKinds(
    kind("setup", "the track laid out", track=float, mark=float),
    kind("round", "a round begins", round=int),
    kind("lanes", "both lanes revealed", runner=str, sentry=str),
    kind("dash", "the runner dashed", start=float, end=float, interrupted=bool),
    kind("spotted", "the sentry spotted the runner at the mark", lane=str, rest=float),
    kind("shot", "the sentry shot", hit=bool),
    kind("held", "the sentry held his fire"),
    kind("game_over", "the game ended", outcome=str, winner=str | None, turn=int, reason=str, scores=dict),
)


class SentryRun(Game):
    """The toy game. ``options`` are resolved (see ``OPTIONS``)."""

    ruleset = "toy"
    sides = SIDES
    event_kinds = EVENTS

    def __init__(self, options: Mapping[str, Any], dice: DiceSource) -> None:
        super().__init__(dice)
        self.state = ToyState(round_cap=int(options["round_cap"]), hit_on=int(options["hit_on"]))
        self.emit("setup", track=TRACK, mark=MARK)
        self.emit("round", round=1)

    @property
    def shot(self) -> AnySuccess:
        """The sentry's shot: one d6, ``hit_on`` or more hits."""
        return AnySuccess(dice=1, target=self.state.hit_on)

    # ------------------------------------------------------------------ protocol
    def seats(self) -> tuple[str, ...]:
        return (RUNNER, SENTRY)

    def side_of(self, seat: str) -> str:
        try:
            return SEAT_SIDE[seat]
        except KeyError:
            raise IllegalAction(f"no seat {seat!r} in this game") from None

    @property
    def result(self) -> Result | None:
        return self.state.outcome

    def state_json(self) -> dict[str, Any]:
        return self.state.to_json()

    def view(self, seat: str | None) -> dict[str, Any]:
        s = self.state
        return {
            "seat": seat,
            "side": SEAT_SIDE.get(seat) if seat else None,
            "round": s.round,
            "phase": s.phase,
            "position": s.position,
            "rest": s.rest,
            "lanes": dict(sorted(s.lanes.items())),
            "sealed": self.sealed_json(seat),
            "pending": [{"id": d.id, "seat": d.seat, "prompt": d.prompt} for d in self.pending()],
            "result": s.outcome.to_json() if s.outcome else None,
        }

    def decision_id(self, action: Any) -> str | None:
        if isinstance(action, Dash):
            return f"dash {self.state.round}"
        if isinstance(action, (Shoot, Hold)):
            return f"shot {self.state.round}"
        return None  # a lane: both seats owe one; the seat tells which

    def _decisions(self) -> tuple[Decision, ...]:
        s = self.state
        if s.phase == "lanes":
            group = f"lanes {s.round}"
            return tuple(
                Decision(
                    f"lane {seat} {s.round}",
                    seat,
                    f"{seat}: choose a lane in secret",
                    FiniteSpace([Lane(x) for x in LANES], "toy.lane", "lane"),
                    secret_group=group,
                )
                for seat in (RUNNER, SENTRY)
            )
        if s.phase == "dash":
            return (Decision(f"dash {s.round}", RUNNER, f"dash up to {_inches(MAX_DASH)} inches", DashSpace()),)
        if s.phase == "shot":
            return (
                Decision(
                    f"shot {s.round}",
                    SENTRY,
                    "the runner is at the mark: shoot or hold",
                    FiniteSpace([Shoot(), Hold()], "toy.shot", "answer"),
                ),
            )
        return ()

    def resolve_secret(self, group: str, choices: Mapping[str, tuple[str, Any]]) -> None:
        s = self.state
        s.lanes = {seat: action.lane for seat, action in choices.values()}
        s.phase = "dash"
        self.emit("lanes", runner=s.lanes[RUNNER], sentry=s.lanes[SENTRY])

    def _apply(self, decision: Decision, action: Any) -> None:
        s = self.state
        if isinstance(action, Dash):
            inches = min(max(snap(action.inches), 0.0), MAX_DASH)  # within tolerance of a limit is at it
            start, end = s.position, snap(s.position + inches)
            if not at_least(start, MARK) and at_least(end, MARK) and s.lanes[RUNNER] == s.lanes[SENTRY]:
                s.position, s.rest, s.phase = MARK, snap(max(end - MARK, 0.0)), "shot"
                self.emit("dash", start=start, end=MARK, interrupted=True)
                self.emit("spotted", lane=s.lanes[RUNNER], rest=s.rest)
                return  # the dash waits for the sentry's answer
            self.emit("dash", start=start, end=min(end, TRACK), interrupted=False)
            self._arrive(end)
        elif isinstance(action, Shoot):
            hit = self.shot.roll(self, f"sentry shoots ({s.hit_on}+ hits)")
            self.emit("shot", hit=hit)
            if hit:
                s.rest, s.phase = 0.0, "over"
                s.outcome = Result("win", "sentry", s.round, "the sentry shot the runner at the mark")
                self.emit("game_over", **s.outcome.to_json())
                return
            self._finish_dash()
        elif isinstance(action, Hold):
            self.emit("held")
            self._finish_dash()

    # ------------------------------------------------------------------ rules
    def _finish_dash(self) -> None:
        s = self.state
        end, s.rest = snap(s.position + s.rest), 0.0
        self.emit("dash", start=s.position, end=min(end, TRACK), interrupted=False)
        self._arrive(end)

    def _arrive(self, end: float) -> None:
        s = self.state
        s.position = min(end, TRACK)
        if at_least(s.position, TRACK):
            s.position, s.phase = TRACK, "over"
            s.outcome = Result("win", "runner", s.round, "the runner reached the goal")
        elif s.round >= s.round_cap:
            s.phase = "over"
            s.outcome = Result("unfinished", None, s.round, f"the round cap of {s.round_cap} was reached")
        else:
            s.round, s.phase, s.lanes = s.round + 1, "lanes", {}
            self.emit("round", round=s.round)
            return
        self.emit("game_over", **s.outcome.to_json())


def new_game(options: Mapping[str, Any], dice: DiceSource) -> SentryRun:
    return SentryRun(options, dice)


def describe(event: Event) -> str | None:
    if event.kind == "dice":
        return None
    return f"{event.kind}: {dict(event.data)}"


def _random_bot(rng: np.random.Generator) -> Any:
    from grognard.bots.random_bot import RandomBot

    return RandomBot(rng)


class ToyRules:
    """The sentry run's game factory (``core.ruleset.Rules``): no summary of its own, every event a line."""

    def new_game(self, options: Mapping[str, Any], dice: DiceSource) -> SentryRun:
        return new_game(options, dice)

    def parse_action(self, text: str) -> ToyAction:
        return parse_action(text)

    def action_from_json(self, data: Mapping[str, Any]) -> ToyAction:
        return action_from_json(data)

    def describe(self, event: Event) -> str | None:
        return describe(event)

    def summarize_turn(self, events: Sequence[Event]) -> list[str]:
        return [line for e in events if e.kind != "game_over" and (line := describe(e))]

    def summary(self, game: SentryRun) -> list[tuple[str, object]]:
        return []


RULESET: Ruleset[SentryRun, ToyAction] = Ruleset(
    name="toy",
    title="Sentry run (a test game)",
    seed_file="",
    sides=SIDES,
    options=OPTIONS,
    rules=ToyRules(),
    bots={"random": _random_bot},
    default_bot="random",
)
