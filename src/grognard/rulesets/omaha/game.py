"""The Omaha Beach game: setup, the four phases of a turn, victory (seed 000).

A turn (omaha.10): beach landings (automatic), Americans act (one decision per
American player with a squad on the table), Germans act (one decision per
active bunker and one artillery strike per German player), morale
(automatic). Victory is checked after every phase (O20).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from grognard.core.dice import DiceSource
from grognard.core.engine import Decision, FiniteSpace, Result
from grognard.core.errors import IllegalAction
from grognard.core.options import recorded
from grognard.core.words import counted
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move, PlaceBunkers
from grognard.rulesets.omaha.combat import german_seat
from grognard.rulesets.omaha.data import (
    AMERICANS_PER_GERMAN,
    OBSTACLE_SECTION_WIDTH,
    OPTIONS,
    SECTIONS_PER_GERMAN,
    SIDES,
    ZONE_WIDTH,
)
from grognard.rulesets.omaha.events import EVENTS
from grognard.rulesets.omaha.spaces import OrdersSpace, TargetSpace
from grognard.rulesets.omaha.state import American, Bunker, OmahaState
from grognard.rulesets.omaha.turns import OmahaTurns
from grognard.rulesets.omaha.view import view_of


def _without(decisions: tuple[Decision, ...], answered: str) -> tuple[Decision, ...]:
    """``decisions`` but the one ``answered`` (its id)."""
    return tuple(d for d in decisions if d.id != answered)


def american_seat(k: int) -> str:
    return f"American {k}"


class OmahaGame(OmahaTurns):
    """An Omaha Beach game. ``options`` are resolved (see ``data.OPTIONS``)."""

    ruleset = "omaha"
    sides = SIDES
    event_kinds = EVENTS

    def __init__(self, options: Mapping[str, Any], dice: DiceSource) -> None:
        super().__init__(dice)
        self._owed = None  # the phase's unanswered decisions: _owed_now
        self._last = None  # see _decisions
        self._made: dict[str, tuple[Any, Decision]] = {}  # label -> (what it was made from, decision): see _orders
        self._active = None
        self.actions_applied = 0
        self.squads_version = 0
        # (state, squads_version, the bunkers' target, the strikes'): bots.german_target
        self.target_memo: tuple[OmahaState, int, str | None, str | None] | None = None
        self._targets: list[tuple[OmahaState, int, frozenset[str]] | None] = [None, None]  # see targets_now
        self._exits = {}
        self._exit_list = self._blocked = None
        germans = int(options["germans"])
        width = germans * AMERICANS_PER_GERMAN * ZONE_WIDTH
        americans = [American(f"A{i + 1}", american_seat(i + 1), zone=i) for i in range(germans * AMERICANS_PER_GERMAN)]
        state = OmahaState(
            options=recorded(OPTIONS, options),
            germans=germans,
            width=width,
            americans=americans,
            obstacles=[None] * round(width / OBSTACLE_SECTION_WIDTH),
        )
        state.seat_side = {a.seat: "american" for a in americans}
        state.seat_side.update({german_seat(k + 1): "german" for k in range(germans)})
        state.stats = {
            "american_losses": 0,
            "german_losses": 0,
            "sent_back": 0,
            "wiped_out": 0,
            "fresh_squads": 0,
            "drowned": 0,
            "first_past_wall_turn": None,
            "first_past_wall": None,
            "breakthrough_turn": None,
            "decisive_turn": None,
        }
        self.state = state
        self.bounds = R.table_bounds(state)  # (left, bottom, right, top): the options never change in a game
        self.emit(
            "setup",
            germans=germans,
            americans=len(americans),
            width=width,
            water=float(options["water"]),
            ground=float(options["ground"]),
        )
        if not options["hidden_obstacles"]:
            for section in range(len(state.obstacles)):
                self._roll_obstacles(section)
        self._advance()

    # ------------------------------------------------------------------ protocol
    def seats(self) -> tuple[str, ...]:
        return tuple(a.seat for a in self.state.americans) + tuple(
            german_seat(k + 1) for k in range(self.state.germans)
        )

    def side_of(self, seat: str) -> str:
        try:
            return self.state.seat_side[seat]
        except KeyError:
            raise IllegalAction(f"no seat {seat!r} in this game") from None

    @property
    def result(self) -> Result | None:
        return self.state.outcome

    @property
    def turn(self) -> int:
        return self.state.turn

    def _resign(self, seat: str) -> None:
        """A seat that resigns gives the game to the other side (its whole side stops with it)."""
        side = self.side_of(seat)
        winner = "german" if side == "american" else "american"
        self.emit("resigned", seat=seat, side=side)
        self._finish(Result("win", winner, self.state.turn, f"{seat} resigned", self.scores()))

    def state_json(self) -> dict[str, Any]:
        return self.state.to_json()

    def copy_state(self) -> OmahaState:
        return self.state.copy()

    def view(self, seat: str | None) -> dict[str, Any]:
        """Omaha hides nothing: every seat sees the whole beach (unrolled obstacles are unknown to all)."""
        return view_of(self, seat)

    def calls_artillery(self, german: str) -> bool:
        """Whether German player ``german`` calls a strike this turn: always (RULINGS O11), or with the option
        ``artillery_needs_bunker`` only while one of his own bunkers is in action (omaha.22)."""
        s = self.state
        if not s.options.get("artillery_needs_bunker", False):
            return True
        return any(b.active and b.owner == german for b in s.bunkers.values())

    def missing(self, action: Any) -> str | None:
        """The squad, bunker or German player ``action`` names, when this game has none of that label."""
        s = self.state
        named: list[tuple[str, str | None, list[str]]] = []  # (what, label, the labels there are)
        squads = [a.label for a in s.americans]
        germans = [f"G{k + 1}" for k in range(s.germans)]
        if isinstance(action, (Move, Fight)):
            named.append(("squad", action.squad, squads))
        elif isinstance(action, BunkerFire):
            bunkers = [b.label for _, b in sorted(s.bunkers.items())]
            if bunkers:
                named.append(("bunker", action.bunker, bunkers))
            named.append(("squad", action.target, squads))
        elif isinstance(action, Artillery):
            named += [("German player", action.german, germans), ("squad", action.target, squads)]
        elif isinstance(action, PlaceBunkers):
            named.append(("German player", action.german, germans))
        for what, label, labels in named:
            if label is not None and label.upper() not in labels:
                listed = f"{labels[0]} to {labels[-1]}" if len(labels) > 2 else ", ".join(labels)
                return f"{str(action)!r}: there is no {what} {label} in this game ({listed})"
        if isinstance(action, Artillery) and not self.calls_artillery(action.german):
            return (
                f"{str(action)!r}: {action.german} has no bunker in action, and with the option "
                "artillery_needs_bunker (RULINGS O11) he calls no artillery"
            )
        return None

    def decision_id(self, action: Any) -> str | None:
        if isinstance(action, (Move, Fight)):
            return f"orders {action.squad}"
        if isinstance(action, BunkerFire):
            return f"fire {action.bunker}"
        if isinstance(action, Artillery):
            return f"artillery {action.german}"
        if isinstance(action, PlaceBunkers):
            return f"place {action.german}"
        return None

    def _decisions(self) -> tuple[Decision, ...]:
        """Every decision owed now.

        ``_advance`` works them out at the end of every action and keeps them with the state,
        the action count, the phase and the turn; ``pending`` asks next, with nothing changed
        in between (the state changes only in actions or before ``changed()``, which counts as one).
        """
        s = self.state
        last = self._last
        if last is not None and last[0] is s and last[1] == (self.actions_applied, s.phase, s.turn):
            return last[2]
        return self._owed_now()

    def _owed_now(self) -> tuple[Decision, ...]:
        """Every decision owed now, worked out from the state.

        The decisions of the American or German phase are built once (:meth:`_build`) and kept,
        unanswered, with the state they were built for; each action drops the one it answers
        (and adds it to ``state.done``). They are built again when they may have changed: at every
        change of phase, when a squad leaves the table (:meth:`_remove_squad`: a German's fire,
        a strike) and after ``changed()``. Nothing else an action does changes them: an
        American's order moves a squad or hurts a bunker, and no American decision depends on
        either (the German ones are built after the American phase).
        """
        s = self.state
        if s.phase == "setup":  # each German's placement, made once a game (it hangs on nothing else)
            return tuple(
                self._remembered(f"place G{k + 1}", (), lambda: self._placement(k))  # noqa: B023 (called at once)
                for k in range(s.germans)
                if f"G{k + 1}" not in s.placed
            )
        if s.phase not in ("americans", "germans"):
            return ()
        if self._owed is None or self._owed[0] is not s:
            done = s.done
            built = self._build()
            self._owed = (s, tuple(d for d in built if d.id not in done) if done else tuple(built))
        return self._owed[1]

    def _build(self) -> list[Decision]:
        """The decisions of the American or German phase, answered ones included."""
        s = self.state
        made = self._made  # the decisions _orders, _fire and _strike remember, read here (18 a phase)
        out: list[Decision] = []
        if s.phase == "americans":
            for player in s.americans:
                squad = player.squad
                if squad is None:
                    continue
                kept = made.get(player.label)
                if kept is None or kept[0] != (squad, squad.figures, player.seat):
                    out.append(self._orders(player))
                else:
                    out.append(kept[1])
            return out
        if self.targets_now(False):
            for bunker in self.active_bunkers():
                kept = made.get(bunker.label)
                if kept is None or kept[0] != (bunker.commander, bunker.defenders):
                    out.append(self._fire(bunker))
                else:
                    out.append(kept[1])
        if self.targets_now(True):
            needs = s.options.get("artillery_needs_bunker", False)  # else every German calls (calls_artillery)
            for k in range(s.germans):
                label = f"G{k + 1}"
                if needs and not self.calls_artillery(label):
                    continue
                kept = made.get(label)
                out.append(self._strike(k) if kept is None else kept[1])
        return out

    def fire_targets(self) -> list[str]:
        """The squads a bunker may fire at now: every squad on the table (RULINGS O10), or with the option
        ``bunker_targets = not_past_wall`` those not past the sea wall, as artillery (omaha.19)."""
        if self.state.options.get("bunker_targets", "anywhere") == "not_past_wall":
            return self.strike_targets()
        return [a.squad.label for a in self.state.americans if a.squad is not None]

    def targets_now(self, artillery: bool) -> frozenset[str]:
        """The labels of :meth:`strike_targets` (``artillery``) or :meth:`fire_targets`, kept with the state until a
        squad lands, moves or leaves (``squads_version``): what a German's fire or strike may aim at now."""
        kept = self._targets[artillery]
        s = self.state
        if kept is None or kept[0] is not s or kept[1] != self.squads_version:
            labels = frozenset(self.strike_targets() if artillery else self.fire_targets())
            kept = self._targets[artillery] = (s, self.squads_version, labels)
        return kept[2]

    def strike_targets(self) -> list[str]:
        """The squads artillery may strike now: those on the table not past the sea wall (omaha.23)."""
        return [a.squad.label for a in self.state.americans if a.squad is not None and a.squad.y <= R.PAST_WALL_Y]

    def _remembered(self, label: str, key: tuple[Any, ...], make: Callable[[], Decision]) -> Decision:
        """The decision ``make()`` builds for ``label``, made again only when ``key`` changes: what it shows
        (its seat, its prompt) or the squad its space holds; the spaces read everything else from the game
        when asked. Copies make their own."""
        made = self._made.get(label)
        if made is None or made[0] != key:
            made = self._made[label] = (key, make())
        return made[1]

    def _orders(self, player: American) -> Decision:
        squad = player.squad
        assert squad is not None
        return self._remembered(
            player.label,
            (squad, squad.figures, player.seat),
            lambda: Decision(
                f"orders {player.label}",
                player.seat,
                f"{player.label} ({counted(squad.figures, 'figure')}): move or fight",
                OrdersSpace(self, squad),
            ),
        )

    def _fire(self, bunker: Bunker) -> Decision:
        return self._remembered(
            bunker.label,
            (bunker.commander, bunker.defenders),
            lambda: Decision(
                f"fire {bunker.label}",
                bunker.commander,
                f"bunker {bunker.label} ({counted(bunker.defenders, 'defender')}): fire at a squad",
                TargetSpace(self, bunker.label, artillery=False),
            ),
        )

    def _strike(self, k: int) -> Decision:
        label = f"G{k + 1}"
        return self._remembered(
            label,
            (),
            lambda: Decision(
                f"artillery {label}",
                german_seat(k + 1),
                f"{label}: call an artillery strike",
                TargetSpace(self, label, artillery=True),
            ),
        )

    @staticmethod
    def _placement(k: int) -> Decision:
        label = f"G{k + 1}"
        first = SECTIONS_PER_GERMAN * k + 1
        pairs = [(a, b) for a in range(first, first + 3) for b in range(a + 1, first + 3)]
        return Decision(
            f"place {label}",
            german_seat(k + 1),
            f"{label}: put 2 bunkers in 2 of sections {first}-{first + 2}",
            FiniteSpace([PlaceBunkers(label, p) for p in pairs], "omaha.9", "bunker placement"),
        )

    def play_bots(self, player_for: Callable[[str], Any], max_steps: int = 1_000_000) -> Result:
        """The engine's :meth:`~grognard.core.engine.Game.play_bots`; unobserved, the Americans' and the Germans'
        phases answered by the book's bots are played in one pass (:func:`.bookplay.play_phase`), every other
        decision (the placements, another bot's) by the engine's fast path, ``apply(checked=False)``, one at a
        time. ``max_steps`` counts the decisions answered either way."""
        if self.observed:
            return super().play_bots(player_for, max_steps)
        from grognard.rulesets.omaha.bookplay import play_phase  # it reads the bots, which read this module

        # unobserved, Game.roll adds nothing to the dice source's roll (no event): the mechanics roll it straight
        self.roll = self.dice.roll  # type: ignore[method-assign]
        try:
            steps = 0
            while steps < max_steps:
                result = self.state.outcome
                if result is not None:
                    return result
                played = play_phase(self, player_for)
                if played:
                    steps += played
                    continue
                pending = self.pending()
                if not pending:
                    raise RuntimeError(f"{type(self).__name__} owes no decision but is not over")
                decision = pending[0]
                action = player_for(decision.seat).choose(self, decision)
                self.apply(decision.seat, action, checked=False, decision=decision)
                steps += 1
            raise RuntimeError(f"game not over after {max_steps} steps")
        finally:
            del self.roll

    def __getstate__(self) -> dict[str, Any]:
        """Copies (``clone``, ``copy``, ``deepcopy``, pickle) remember no decisions: theirs are their own."""
        fields = self.__dict__.copy()
        fields.pop("roll", None)  # play_bots' (the dice's own roll): a copy rolls through Game.roll
        fields["_owed"] = fields["_last"] = None
        fields["_made"] = {}
        fields["_active"] = fields["_exit_list"] = fields["_blocked"] = None
        fields["target_memo"] = None
        fields["_targets"] = [None, None]
        return fields

    def changed(self) -> None:
        super().changed()
        self.actions_applied += 1
        self.squads_version += 1
        self._owed = self._active = self._blocked = None

    def _apply(self, decision: Decision, action: Any) -> tuple[Decision, ...] | None:
        """Carry out ``action``; returns what is still owed of the phase, the phase going on (else ``None``: the
        automatic phases run, ``_advance``, and ``pending`` finds what is owed then)."""
        s = self.state
        self.actions_applied += 1
        s.done.add(decision.id)
        owed = self._owed
        left: tuple[Decision, ...] = ()
        if owed is not None and owed[0] is s:
            left = owed[1]
            if left and left[0] is decision:  # the first owed, as the bots answer them
                left = left[1:]
            else:
                left = _without(left, decision.id)
            owed = self._owed = (s, left)
        kind = type(action)
        if kind is Move:
            self._move(action)
        elif kind is BunkerFire:
            if action.target is not None:
                self._bunker_fire(s.bunkers[int(action.bunker[1:]) - 1], action.target)
            elif self.observed:
                self.emit("holds_fire", bunker=action.bunker)
        elif kind is Artillery:
            if action.target is not None:
                self._artillery(action.german, action.target)
            elif self.observed:
                self.emit("no_artillery", german=action.german)
        elif kind is Fight:
            # a fight on this path also reads afresh the bunkers in action and the exits blocked, whatever changed
            # them (a state set outside apply without changed(), as tests and tools do): the book's pass
            # (bookplay), which nothing changes under, forgets them only when the fight changes them
            self._active = self._blocked = None
            self._fight(action)
        elif kind is PlaceBunkers:
            s.placed[action.german] = action.sections
            self.emit("placed", german=action.german, sections=list(action.sections))
        # the phase goes on (nothing automatic runs before its next decision) unless a squad has left (its
        # decisions, or those naming it, are gone: _owed is None) or the game is over
        if left and self._owed is owed and s.outcome is None:
            return left
        self._advance()
        return None
