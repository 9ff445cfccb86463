"""The step-machine protocol every rule set implements.

A game is a state machine driven by *decisions*. ``pending()`` lists the
decisions owed now, each naming the seat that owes it and the space of legal
actions; several may be owed at once (every American player in one phase, both
sides' secret choices), and a rule set may open one inside another action (an
interruption). ``apply(seat, action)`` answers one of them; decisions arriving
in any order are applied as they arrive. Chance needs no decision: the rule
set rolls through ``self.roll`` and every die lands in the events.

Seats (the players: ``"American 7"``, ``"German 2"``) are apart from sides
(``"american"``, ``"german"``): a rule set maps seats to sides in its state,
and that map may change during play.

Secret choices: a decision with ``secret_group`` set is *committed* when
answered: the seat alone sees its choice (a ``sealed`` event), the others learn
only that it chose (``chosen``); when every decision of the group is in, one
``revealed`` event shows all, and the rule set's ``resolve_secret`` acts on them.
"""

from __future__ import annotations

import copy
import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, NamedTuple, Protocol, Self

import numpy as np
from typing_extensions import TypeVar  # a default (PEP 696) before Python 3.13

from grognard.core.dice import DiceSource
from grognard.core.errors import IllegalAction
from grognard.core.events import CORE_EVENTS, EventKinds
from grognard.core.lookup import find_decision

__all__ = [
    "Action",
    "ActionSpace",
    "Decision",
    "Event",
    "FiniteSpace",
    "Game",
    "Result",
    "UnionSpace",
    "canonical_json",
]

Seat = str
Side = str


class Action(Protocol):
    """A small frozen dataclass; ``str(action)`` is its text form, which parses back."""

    def to_json(self) -> dict[str, Any]: ...


A = TypeVar("A")
# a game's state: each rule set's own class (``Game[OmahaState]``); a ``Game`` named bare is any rule set's game
S = TypeVar("S", default=Any)


class Event(NamedTuple):
    """Something that happened. ``data`` is JSON-safe; ``to`` limits who may see it.

    ``to=None`` is public; otherwise only the seats named may see the event. A named tuple, not a
    frozen dataclass: as immutable, and made in a third of the time (a game emits thousands).
    """

    kind: str
    data: Mapping[str, Any]
    to: frozenset[str] | None = None

    def visible_to(self, seat: str | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see this event."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, **self.data}
        if self.to is not None:
            out["to"] = sorted(self.to)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        body = dict(data)
        kind = body.pop("kind")
        to = body.pop("to", None)
        return cls(kind, body, frozenset(to) if to is not None else None)


class ActionSpace(ABC, Generic[A]):
    """The actions legal for one decision: maybe continuous, always checkable.

    ``check`` raises :class:`IllegalAction` naming the rule and value at fault;
    ``contains`` is its yes/no form; ``sample`` draws one legal action with the
    caller's generator; ``candidates(k)`` gives at most ``k`` legal actions, a
    finite menu for people, bots and search.
    """

    @abstractmethod
    def check(self, action: Any) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is in this space."""

    def contains(self, action: Any) -> bool:
        """Whether ``action`` is legal here."""
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def check_fast(self, action: Any) -> None:
        """The fast path's check of a bot's action: the verdict of :meth:`check`, which a space may reach without
        working it out again for an action it built itself by its own rules for the state as it is now (Omaha's
        ``OrdersSpace.toward``); anything else it checks in full. A person's action never comes here (``apply``'s
        checked path asks :meth:`check`)."""
        self.check(action)

    @abstractmethod
    def sample(self, rng: np.random.Generator) -> A:
        """One legal action, drawn with ``rng``."""

    @abstractmethod
    def candidates(self, k: int = 16) -> list[A]:
        """At most ``k`` legal actions (a menu), never empty."""


class FiniteSpace(ActionSpace[A]):
    """A space of finitely many actions, listed.

    >>> space = FiniteSpace(["a", "b"], rule="toy.1")
    >>> space.contains("a"), space.contains("c")
    (True, False)
    """

    def __init__(self, actions: Sequence[A], rule: str | None = None, what: str = "choice") -> None:
        if not actions:
            raise ValueError("a finite space needs at least one action")
        self._actions = tuple(actions)
        self.rule = rule
        self.what = what

    @property
    def actions(self) -> tuple[A, ...]:
        """The actions, in order (a subclass may work them out when asked)."""
        return self._actions

    def check(self, action: Any) -> None:
        if action not in self.actions:
            choices = ", ".join(str(a) for a in self.actions[:8])
            more = ", ..." if len(self.actions) > 8 else ""
            raise IllegalAction(f"{action} is not a legal {self.what}; legal: {choices}{more}", self.rule)

    def sample(self, rng: np.random.Generator) -> A:
        return self.actions[int(rng.integers(len(self.actions)))]

    def candidates(self, k: int = 16) -> list[A]:
        return list(self.actions[:k])

    def __repr__(self) -> str:
        return f"FiniteSpace({list(self.actions)!r})"


class UnionSpace(ActionSpace[Any]):
    """Any action of one of several spaces (a Move or a Fight, say).

    ``check`` reports the refusal of the space whose ``accepts`` matches the
    action's type, or of the last space.
    """

    def __init__(self, *spaces: ActionSpace[Any], kinds: Sequence[type] | None = None) -> None:
        if not spaces:
            raise ValueError("a union needs at least one space")
        self.spaces = spaces
        self.kinds = tuple(kinds) if kinds is not None else None

    def check(self, action: Any) -> None:
        if self.kinds is not None:
            for kind, space in zip(self.kinds, self.spaces, strict=True):
                if isinstance(action, kind):
                    space.check(action)
                    return
            names = ", ".join(kind.__name__ for kind in self.kinds)
            raise IllegalAction(f"{action} is not one of: {names}")
        problem: IllegalAction | None = None
        for space in self.spaces:
            try:
                space.check(action)
                return
            except IllegalAction as exc:
                problem = exc
        assert problem is not None
        raise problem

    def sample(self, rng: np.random.Generator) -> Any:
        return self.spaces[int(rng.integers(len(self.spaces)))].sample(rng)

    def candidates(self, k: int = 16) -> list[Any]:
        out: list[Any] = []
        per = max(1, k // len(self.spaces))
        for space in self.spaces:
            out.extend(space.candidates(per))
        return out[:k] if len(out) > k else out


@dataclass(frozen=True)
class Decision:
    """A decision owed now: ``seat`` must answer ``id`` with an action of ``space``."""

    id: str
    seat: Seat
    prompt: str
    space: ActionSpace[Any]
    secret_group: str | None = None


@dataclass(frozen=True)
class Result:
    """How a game ended.

    ``outcome`` is ``"win"`` (``winner`` names the side), ``"draw"``,
    ``"unfinished"`` (a turn cap or time limit ended it) or ``"scored"`` (a
    class period ended it and ``scores`` tells how each side did).
    """

    outcome: Literal["win", "draw", "unfinished", "scored"]
    winner: Side | None
    turn: int
    reason: str
    scores: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "winner": self.winner,
            "turn": self.turn,
            "reason": self.reason,
            "scores": dict(self.scores),
        }


def canonical_json(data: Any) -> str:
    """JSON with sorted keys and no spaces: the form digests are taken of."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)


class Game(ABC, Generic[S]):
    """Base of every rule set's game: the protocol, secrets, events and dice.

    Generic in its state: a rule set's game is ``Game[ItsState]`` (``class OmahaGame(Game[OmahaState])``), so that
    what reads ``game.state`` is type-checked; ``Game`` named bare (the engine's, the web's, a bot's) is any rule
    set's game. Subclasses set ``ruleset``, keep their state in ``self.state`` (deep-copyable; set in their
    ``__init__``) and implement ``_decisions``, ``_apply``, ``state_json``, ``view``,
    ``seats``, ``side_of`` and ``result``. Rolls go through :meth:`roll`,
    happenings through :meth:`emit`, of the kinds the subclass declares in ``event_kinds``
    (:mod:`grognard.core.events`; the engine's own kinds alone by default).
    """

    ruleset: ClassVar[str]
    sides: ClassVar[tuple[Side, ...]]
    event_kinds: ClassVar[EventKinds] = CORE_EVENTS
    state: S  # the rule set's own, set by the subclass's ``__init__``

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.sealed: dict[str, dict[str, tuple[Seat, Any]]] = {}
        self._events: list[Event] = []
        self._pending: tuple[Decision, ...] | None = None
        # whether anyone reads this game's events (a face, a record, a listener): when not (Monte Carlo, a search
        # playout, a PettingZoo rollout) none are built, ``apply`` returns []; per game, never per process
        self.observed = True
        # told of each event as it happens (live display); typed dice bring theirs, so the setup's story
        # is shown before its rolls are asked for
        self.listener: Callable[[Event], None] | None = getattr(dice, "listener", None)

    # ------------------------------------------------------------------ rule-set hooks
    @abstractmethod
    def _decisions(self) -> tuple[Decision, ...]:
        """Every decision owed now, sealed secret ones included."""

    @abstractmethod
    def _apply(self, decision: Decision, action: Any) -> tuple[Decision, ...] | None:
        """Carry out ``action`` for ``decision`` (already checked), then run chance phases.

        May return the decisions owed now when the rule set knows them without working them out (the rest of a
        phase's, say): ``pending`` gives them as they are (no secret is sealed then, and the game is not over).
        ``None``: ``pending`` asks :meth:`_decisions`."""

    def resolve_secret(self, group: str, choices: Mapping[str, tuple[Seat, Any]]) -> None:
        """Act on a secret group once every choice is in (decision id -> (seat, action))."""
        raise RuntimeError(f"{type(self).__name__} opened secret group {group!r} but cannot resolve it")

    @abstractmethod
    def state_json(self) -> dict[str, Any]:
        """The full state, JSON-safe (what the digest is taken of); not for players."""

    @abstractmethod
    def view(self, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), JSON-safe."""

    @abstractmethod
    def seats(self) -> tuple[Seat, ...]:
        """Every seat of this game."""

    @abstractmethod
    def side_of(self, seat: Seat) -> Side:
        """The side ``seat`` plays for now."""

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """The result once the game is over, else ``None``."""

    def shares_secrets_with(self, seat: Seat) -> frozenset[Seat]:
        """The seats that see ``seat``'s sealed choices before they are revealed: ``seat`` alone unless the
        rule set says a side's seats share them (skirmish's commanders of one side)."""
        return frozenset((seat,))

    def _resign(self, seat: Seat) -> None:
        """End the game because ``seat`` gives up (rule sets that allow it override this)."""
        raise IllegalAction(f"{seat} cannot resign: {self.ruleset} has no resignation")

    @property
    def turn(self) -> int:
        """The turn being played (0 before the first); rule sets with turns override this."""
        return 0

    # ------------------------------------------------------------------ provided
    @property
    def is_over(self) -> bool:
        return self.result is not None

    def resign(self, seat: Seat) -> list[Event]:
        """``seat`` gives up; the rule set decides the result. Returns the events.

        Raises :class:`IllegalAction` if the game is over or ``seat`` is not in it.
        """
        if self.is_over:
            raise IllegalAction(f"{seat} cannot resign: the game is over")
        if seat not in self.seats():
            raise IllegalAction(f"no seat {seat!r} in this game")
        self._events = []
        self._resign(seat)
        self._pending = None
        return self.take_events()

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[int]:
        """Roll ``n`` dice through the game's source and log them as a ``dice`` event."""
        values = self.dice.roll(n, sides, purpose)
        if not self.observed:
            return values
        event = Event("dice", {"purpose": purpose, "sides": sides, "values": values})
        self._events.append(event)
        if self.listener is not None:
            self.listener(event)
        return values

    def emit(self, kind: str, to: Iterable[Seat] | None = None, **data: Any) -> None:
        """Record an event; ``to`` limits who sees it. Raises :class:`~grognard.core.errors.EventError` (the
        state as it was, in a checked apply) for a kind the game does not declare or data without its fields.
        An unobserved game (:meth:`unobserved`) builds nothing: a rule set may skip working out an event's data
        when ``self.observed`` is false."""
        if not self.observed:
            return
        self.event_kinds.check(kind, data)
        event = Event(kind, data, frozenset(to) if to is not None else None)
        self._events.append(event)
        if self.listener is not None:
            self.listener(event)

    def unobserved(self) -> Self:
        """This game, building no events from now on (those not yet taken are dropped): for Monte Carlo, search
        playouts and rollouts, which read none. Play is the same game for game; ``apply`` returns ``[]``, and a
        record refuses the game (:class:`~grognard.core.record.RecordWriter`). Raises ``ValueError`` for a game
        with a listener (a live display reads its events)."""
        if self.listener is not None:
            raise ValueError(f"this {self.ruleset} game has a listener: its events are read, they cannot be left out")
        self.observed = False
        self._events = []
        return self

    def take_events(self) -> list[Event]:
        """The events emitted since the last call (setup's, before the first action)."""
        events, self._events = self._events, []
        return events

    def changed(self) -> None:
        """Forget cached decisions; call after changing the state outside ``apply``."""
        self._pending = None

    def pending(self) -> tuple[Decision, ...]:
        """The decisions owed now, in a stable order; empty once the game is over."""
        if self._pending is None:
            if self.is_over:
                self._pending = ()
            else:
                sealed = self.sealed
                decisions = self._decisions()
                if sealed:
                    decisions = tuple(
                        d for d in decisions if d.secret_group is None or d.id not in sealed.get(d.secret_group, {})
                    )
                self._pending = decisions
        return self._pending

    def legal_actions(self, seat: Seat) -> tuple[ActionSpace[Any], ...]:
        """The action spaces of the decisions ``seat`` owes now."""
        return tuple(d.space for d in self.pending() if d.seat == seat)

    def decision_id(self, action: Any) -> str | None:
        """The id of the decision ``action`` answers, when the rule set can tell from the action alone."""
        return None

    def missing(self, action: Any) -> str | None:
        """Why ``action`` names a piece this game does not have (a squad, an aircraft), in one line; else None.

        A rule set whose actions name pieces says so (``'move A99 20 24': there is no squad A99 in this
        game (A1 to A18)``), so that a refusal says the piece does not exist rather than that its
        decision is not owed now.
        """
        return None

    def find_decision(self, seat: Seat, action: Any) -> Decision:
        """The pending decision of ``seat`` that ``action`` answers (``core.lookup.find_decision``, the one
        lookup the web server shares).

        Raises :class:`IllegalAction` if ``seat`` owes nothing, the decision the
        action answers is not owed now or is owed by another seat, or the
        action is not in its space (quoting the space's refusal).
        """
        return find_decision(self, (seat,), action)

    def apply(self, seat: Seat, action: Any, *, checked: bool = True, decision: Decision | None = None) -> list[Event]:
        """Apply ``action`` for ``seat``; returns the events it caused.

        Checked (the default): the action must answer a pending decision of
        ``seat``, else :class:`IllegalAction` is raised and the state is exactly
        as it was; an error raised while carrying it out (dice refused, say)
        also restores the state. ``checked=False`` is the fast path for bots
        whose actions came from ``legal_actions``: pass the ``decision`` they
        answered to skip the search. It skips what a person's action needs (finding
        the decision from the action, a copy of the state to put back) but still
        refuses, the state untouched, an action its decision's space does not take,
        a decision not owed now or owed by another seat.
        """
        self._events = []
        if checked:
            decision = self.find_decision(seat, action)
            saved = (self.copy_state(), copy.deepcopy(self.sealed))
            try:
                self._dispatch(decision, seat, action)
            except BaseException:
                self.state, self.sealed = saved
                self._events = []
                self._pending = None
                raise
        else:
            pending = self._pending
            if pending is None:
                pending = self.pending()
            if decision is None or not pending or decision is not pending[0] or decision.seat != seat:
                decision = self._owed_decision(seat, decision, action)
            else:  # the first decision owed, by this seat (a bot answering pending()[0]): its space's check alone
                decision.space.check_fast(action)
            if decision.secret_group is not None:
                self._dispatch(decision, seat, action)
            else:
                self._pending = None
                owed = self._apply(decision, action)
                self._pending = owed if owed is not None and not self.sealed else None
            if not self.observed:
                return []
        events, self._events = self._events, []
        return events

    def play_bots(self, player_for: Callable[[Seat], Any], max_steps: int = 1_000_000) -> Result:
        """Play to the end, each first owed decision answered by ``player_for(seat)``'s ``choose``, on the fast path
        with nothing recorded or told (``core.play.play_out`` with ``checked=False``, no record, no ``on_step``).

        What ``apply(seat, action, checked=False, decision=...)`` does for a bot answering ``pending()[0]``, without
        the call: its space's :meth:`~ActionSpace.check_fast`, then the rule set's ``_apply`` (an action refused
        raises :class:`IllegalAction`, the state untouched). Anything else (the bot changed the game, a secret
        choice) takes :meth:`apply`. Raises ``RuntimeError`` as ``play_out`` does."""
        for _ in range(max_steps):
            pending = self._pending
            if not pending:
                result = self.result
                if result is not None:
                    return result
                pending = self.pending()
                if not pending:
                    raise RuntimeError(f"{type(self).__name__} owes no decision but is not over")
            decision = pending[0]
            action = player_for(decision.seat).choose(self, decision)
            if self._pending is not pending or decision.secret_group is not None or self.sealed:
                self.apply(decision.seat, action, checked=False, decision=decision)
                continue
            decision.space.check_fast(action)
            self._pending = None
            owed = self._apply(decision, action)
            self._pending = owed if owed is not None and not self.sealed else None
            if self._events:  # as apply leaves them: taken (by nobody); an unobserved game builds none
                self._events = []
        raise RuntimeError(f"game not over after {max_steps} steps")

    def _owed_decision(self, seat: Seat, decision: Decision | None, action: Any) -> Decision:
        """The fast path's checks: ``decision`` (else ``seat``'s first) is owed now by ``seat`` and its space
        takes ``action``; :class:`IllegalAction` otherwise, before anything changes."""
        pending = self.pending()
        if decision is None:
            decision = next((d for d in pending if d.seat == seat), None)
            if decision is None:
                raise IllegalAction(f"{action}: {seat!r} owes no decision now")
        elif decision not in pending:
            raise IllegalAction(f"{action}: {decision.id!r} is not owed now")
        if decision.seat != seat:
            raise IllegalAction(f"{action}: {decision.id!r} is owed by {decision.seat}, not {seat}")
        decision.space.check(action)
        return decision

    def _dispatch(self, decision: Decision, seat: Seat, action: Any) -> None:
        self._pending = None
        group = decision.secret_group
        if group is None:
            owed = self._apply(decision, action)
            self._pending = owed if owed is not None and not self.sealed else None
            return
        self.sealed.setdefault(group, {})[decision.id] = (seat, action)
        shared = sorted(self.shares_secrets_with(seat))
        self.emit("sealed", to=shared, decision=decision.id, seat=seat, action=str(action))
        self.emit("chosen", decision=decision.id, seat=seat)
        waiting = [d for d in self._decisions() if d.secret_group == group and d.id not in self.sealed[group]]
        if not waiting:
            choices = self.sealed.pop(group)
            self.emit(
                "revealed",
                group=group,
                choices={key: {"seat": s, "action": str(a)} for key, (s, a) in sorted(choices.items())},
            )
            self.resolve_secret(group, choices)
        self._pending = None

    def sealed_json(self, seat: Seat | None, *, everything: bool = False) -> dict[str, Any]:
        """Committed secret choices as ``seat`` may see them: its own (and those it shares) in full, others as
        'chosen'.

        ``everything=True`` shows every choice (for the digest, never for a player).
        """
        out: dict[str, Any] = {}
        for group, choices in sorted(self.sealed.items()):
            out[group] = {
                key: (
                    {"seat": s, "action": str(a)}
                    if everything or (seat is not None and seat in self.shares_secrets_with(s))
                    else {"seat": s, "action": "chosen"}
                )
                for key, (s, a) in sorted(choices.items())
            }
        return out

    def copy_state(self) -> S:
        """An independent copy of ``self.state`` (a deep copy; rule sets may do it faster)."""
        return copy.deepcopy(self.state)

    def digest(self) -> str:
        """SHA-256 of the full state (secrets included), hex."""
        full = {"state": self.state_json(), "sealed": self.sealed_json(None, everything=True)}
        return hashlib.sha256(canonical_json(full).encode()).hexdigest()

    def clone(self) -> Self:
        """An independent copy sharing the dice source (for search and checks)."""
        other = copy.copy(self)
        other.state = self.copy_state()
        other.sealed = copy.deepcopy(self.sealed)
        other._events = []
        other._pending = None
        other.listener = None
        return other
