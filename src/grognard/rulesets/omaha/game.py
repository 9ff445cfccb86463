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
from grognard.core.engine import Decision, FiniteSpace, Game, Result
from grognard.core.errors import IllegalAction
from grognard.core.geometry import snap
from grognard.core.options import recorded
from grognard.core.words import counted
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move, PlaceBunkers
from grognard.rulesets.omaha.data import (
    AMERICANS_PER_GERMAN,
    ARTILLERY_KILLS,
    ARTILLERY_LANDS,
    BUNKERS_PER_GERMAN,
    DEEP_WATER_FACE,
    DEFENDERS,
    LANDING_ROLL,
    OBSTACLE_ROLL,
    OBSTACLE_SECTION_WIDTH,
    OPTIONS,
    SECTIONS_PER_GERMAN,
    SIDES,
    SQUAD_SIZE,
    WALL_Y,
    ZONE_WIDTH,
    assault,
    bunker_fire,
    clearing,
    deep_water,
    morale,
    shooting,
)
from grognard.rulesets.omaha.events import EVENTS
from grognard.rulesets.omaha.spaces import OrdersSpace, TargetSpace
from grognard.rulesets.omaha.state import American, Bunker, OmahaState, Squad
from grognard.rulesets.omaha.view import view_of


def german_seat(k: int) -> str:
    return f"German {k}"


def american_seat(k: int) -> str:
    return f"American {k}"


class OmahaGame(Game[OmahaState]):
    """An Omaha Beach game. ``options`` are resolved (see ``data.OPTIONS``)."""

    ruleset = "omaha"
    sides = SIDES
    event_kinds = EVENTS

    def __init__(self, options: Mapping[str, Any], dice: DiceSource) -> None:
        super().__init__(dice)
        self._owed: tuple[OmahaState, list[Decision]] | None = None  # the phase's unanswered decisions: _owed_now
        self._last: tuple[OmahaState, tuple[int, str, int], tuple[Decision, ...]] | None = None  # see _decisions
        self._made: dict[str, tuple[Any, Decision]] = {}  # label -> (what it was made from, decision): see _orders
        self._active: tuple[OmahaState, list[Bunker]] | None = None  # see active_bunkers
        self.actions_applied = 0  # and calls of changed(): spaces work out afresh what depends on the state
        # bumped when a squad lands, moves, leaves, has its losses cleared (or changed()): what the Germans'
        # ranking of the squads reads (bots.german_target keeps its answer until then)
        self.squads_version = 0
        self.target_memo: tuple[OmahaState, int, bool, str | None] | None = None
        self._exits: dict[int, int] = {}  # bunker section -> the obstacle section of its exit (O17), once known
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
        if s.phase == "setup":
            return tuple(self._placement(k) for k in range(s.germans) if f"G{k + 1}" not in s.placed)
        if s.phase not in ("americans", "germans"):
            return ()
        if self._owed is None or self._owed[0] is not s:
            done = s.done
            self._owed = (s, [d for d in self._build() if d.id not in done])
        return tuple(self._owed[1])

    def _new_phase(self, phase: str) -> None:
        """Enter ``phase``: no decision of it is answered yet, and its decisions are built afresh."""
        s = self.state
        s.phase, s.done = phase, set()
        self._owed = None

    def _build(self) -> list[Decision]:
        """The decisions of the American or German phase, answered ones included."""
        s = self.state
        if s.phase == "americans":
            return [self._orders(player) for player in s.americans if player.squad is not None]
        out: list[Decision] = []
        if self.fire_targets():
            out += [self._fire(bunker) for bunker in self.active_bunkers()]
        if self.strike_targets():
            for k in range(s.germans):
                if self.calls_artillery(f"G{k + 1}"):
                    out.append(self._strike(k))
        return out

    def fire_targets(self) -> list[str]:
        """The squads a bunker may fire at now: every squad on the table (RULINGS O10), or with the option
        ``bunker_targets = not_past_wall`` those not past the sea wall, as artillery (omaha.19)."""
        if self.state.options.get("bunker_targets", "anywhere") == "not_past_wall":
            return self.strike_targets()
        return [a.squad.label for a in self.state.americans if a.squad is not None]

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

    def __getstate__(self) -> dict[str, Any]:
        """Copies (``clone``, ``copy``, ``deepcopy``, pickle) remember no decisions: theirs are their own."""
        fields = self.__dict__.copy()
        fields["_owed"] = fields["_last"] = None
        fields["_made"] = {}
        fields["_active"] = None
        fields["target_memo"] = None
        return fields

    def changed(self) -> None:
        super().changed()
        self.actions_applied += 1
        self.squads_version += 1
        self._owed = self._active = None

    def _apply(self, decision: Decision, action: Any) -> None:
        s = self.state
        self.actions_applied += 1
        s.done.add(decision.id)
        if self._owed is not None and self._owed[0] is s:
            unanswered = self._owed[1]
            for i, owed in enumerate(unanswered):
                if owed.id == decision.id:
                    del unanswered[i]
                    break
        if isinstance(action, Move):
            self._move(action)
        elif isinstance(action, Fight):
            self._fight(action)
        elif isinstance(action, BunkerFire):
            if action.target is not None:
                self._bunker_fire(s.bunkers[int(action.bunker[1:]) - 1], action.target)
            else:
                if self.observed:
                    self.emit("holds_fire", bunker=action.bunker)
        elif isinstance(action, Artillery):
            if action.target is not None:
                self._artillery(action.german, action.target)
            else:
                if self.observed:
                    self.emit("no_artillery", german=action.german)
        elif isinstance(action, PlaceBunkers):
            s.placed[action.german] = action.sections
            self.emit("placed", german=action.german, sections=list(action.sections))
        self._advance()

    # ------------------------------------------------------------------ lookups
    def player(self, squad_label: str) -> American:
        """The American player whose squad is ``squad_label`` ("A7")."""
        return self.state.americans[int(squad_label[1:]) - 1]

    def squad(self, label: str) -> Squad:
        squad = self.player(label).squad
        assert squad is not None
        return squad

    def bunker_in_front(self, squad: Squad) -> Bunker | None:
        """The bunker in the section in front of ``squad``, if any (O3)."""
        return self.state.bunkers.get(R.bunker_section_at(self.state, squad.x))

    def obstacles_in_front(self, squad: Squad) -> int | None:
        """Obstacles left in the section in front of ``squad`` (None: not yet rolled)."""
        return self.state.obstacles[R.obstacle_section_at(self.state, squad.x)]

    def active_bunkers(self) -> list[Bunker]:
        """The bunkers still in action, in section order (not to be changed by the caller).

        Kept with the state until a bunker's status may have changed: a fight, ``changed()``.
        """
        s = self.state
        if self._active is None or self._active[0] is not s:
            self._active = (s, [bunker for _section, bunker in sorted(s.bunkers.items()) if bunker.active])
        return self._active[1]

    def exit_open(self, bunker: Bunker) -> bool:
        """An exit is open when its bunker is knocked out and the obstacle section in front is clear (O17)."""
        if bunker.active:
            return False
        section = self._exits.get(bunker.section)
        if section is None:
            section = self._exits[bunker.section] = R.exit_section(bunker.section, self.state)
        return self.state.obstacles[section] == 0

    # ------------------------------------------------------------------ phases
    def _advance(self) -> None:
        """Run the automatic phases until a decision is owed or the game is over."""
        s = self.state
        while s.outcome is None:
            if s.phase in ("setup", "americans", "germans"):
                owed = self._owed_now()
                if owed:
                    self._last = (s, (self.actions_applied, s.phase, s.turn), owed)  # for pending()
                    return
            if s.phase == "setup":
                self._make_bunkers()
                self._begin_turn()
            elif s.phase == "americans":
                self._end_phase()
                if s.outcome is None:
                    self._new_phase("germans")
            elif s.phase == "germans":
                self._end_phase()
                if s.outcome is None:
                    self._new_phase("morale")
                    self._morale()
                    self._end_phase()
                if s.outcome is None:
                    self._end_turn()

    def _make_bunkers(self) -> None:
        s = self.state
        for k in range(s.germans):
            label = f"G{k + 1}"
            for number in s.placed[label]:
                section = number - 1
                s.bunkers[section] = Bunker(f"B{number}", section, label, german_seat(k + 1), DEFENDERS)
        assert len(s.bunkers) == BUNKERS_PER_GERMAN * s.germans
        self._active = None
        self._end_phase()

    def _begin_turn(self) -> None:
        s = self.state
        s.turn += 1
        self._new_phase("landing")
        self.emit("turn", turn=s.turn)
        self._land()
        self._end_phase()
        if s.outcome is None:
            self._new_phase("americans")

    def _end_turn(self) -> None:
        s = self.state
        period = s.options["period_turns"]
        if period is not None and s.turn >= period:
            self._finish(Result("scored", None, s.turn, f"the class period ended after turn {s.turn}", self.scores()))
        elif s.turn >= s.options["turn_cap"]:
            self._finish(
                Result(
                    "unfinished", None, s.turn, f"the turn cap of {s.options['turn_cap']} was reached", self.scores()
                )
            )
        else:
            self._begin_turn()

    def scores(self) -> dict[str, Any]:
        """How each side stands: exits open, bunkers knocked out, losses (O19)."""
        s = self.state
        return {
            "exits_open": len(s.exits_open),
            "exits": len(s.bunkers),
            "bunkers_knocked_out": sum(1 for b in s.bunkers.values() if not b.active),
            "american_losses": s.stats["american_losses"],
            "german_losses": s.stats["german_losses"],
        }

    def _finish(self, result: Result) -> None:
        self.state.outcome = result
        self.emit("game_over", **result.to_json())

    def _end_phase(self) -> None:
        """Victory is checked after every phase (O20); exits opening are recorded (O17)."""
        s = self.state
        for section, bunker in sorted(s.bunkers.items()):
            if bunker.status != "active" and section not in s.exits_open and self.exit_open(bunker):
                s.exits_open.append(section)
                if s.stats["breakthrough_turn"] is None:
                    s.stats["breakthrough_turn"] = s.turn
                self.emit("exit_opened", bunker=bunker.label, turn=s.turn, first=len(s.exits_open) == 1)
        if not s.bunkers or s.outcome is not None:
            return
        if s.options["victory"] == "bunkers_only":
            won = all(not b.active for b in s.bunkers.values())
            why = "every bunker is knocked out"
        else:
            won = len(s.exits_open) == len(s.bunkers)
            why = "every exit is open"
        if won:
            s.stats["decisive_turn"] = s.turn
            self._finish(Result("win", "american", s.turn, why, self.scores()))
        elif all(a.out for a in s.americans):
            self._finish(Result("win", "german", s.turn, "no American player has a squad left", self.scores()))

    # ------------------------------------------------------------------ chance phases
    def _roll_obstacles(self, section: int) -> None:
        count = OBSTACLE_ROLL.roll(self, f"obstacles O{section + 1}")
        self.state.obstacles[section] = count
        self.emit("obstacles", section=f"O{section + 1}", count=count)

    def _land(self) -> None:
        """Beach landings (omaha.11): a d6 per landing craft, inches seaward of the water line (O4)."""
        s = self.state
        self.squads_version += 1
        for player in s.americans:
            if player.out or player.squad is not None:
                continue
            fresh = player.landings > 0
            if fresh:
                player.fresh_used += 1
                s.stats["fresh_squads"] += 1
            player.landings += 1
            inches = LANDING_ROLL.roll(self, f"landing {player.label} (inches out)")
            squad = Squad(player.label, SQUAD_SIZE, R.zone_centre(player.zone), snap(-float(inches)), landed=s.turn)
            player.squad = squad
            self.emit("landed", squad=player.label, inches=inches, x=squad.x, y=squad.y, fresh=fresh)
            if s.options["deep_water"] and inches == DEEP_WATER_FACE:
                drowned = deep_water(squad.figures).roll(self, f"deep water {player.label} (drowns on 6)")
                self.emit("drowned", squad=player.label, figures=drowned)
                s.stats["drowned"] += drowned
                self._lose(player, drowned)
                if not s.options.get("drowned_morale", True) and player.squad is not None:
                    player.squad.lost = 0  # RULINGS O6 read the other way: drowning shakes no one (a fresh squad)

    def _morale(self) -> None:
        """Morale (omaha.25-26): a d6 per figure lost this turn; 12 or more sends the squad back."""
        s = self.state
        for player in s.americans:
            squad = player.squad
            if squad is None or squad.lost == 0:
                continue
            failed = morale(squad.lost).roll(self, f"morale {player.label}, {squad.lost} lost (fails on 12+)")
            if self.observed:
                self.emit("morale", squad=player.label, lost=squad.lost, failed=failed)
            if failed:
                s.stats["sent_back"] += 1
                self._remove_squad(player, "failed morale")
        for player in s.americans:
            if player.squad is not None:
                player.squad.lost = 0
        self.squads_version += 1

    # ------------------------------------------------------------------ losses
    def _lose(self, player: American, n: int) -> int:
        """Remove up to ``n`` figures (surplus wasted, O2); a squad with none left is wiped out (O13)."""
        squad = player.squad
        assert squad is not None
        removed = min(n, squad.figures)
        squad.figures -= removed
        squad.lost += removed
        self.state.stats["american_losses"] += removed
        if squad.figures == 0:
            self.state.stats["wiped_out"] += 1
            self._remove_squad(player, "wiped out")
        return removed

    def _remove_squad(self, player: American, why: str) -> None:
        s = self.state
        squad = player.squad
        assert squad is not None
        if s.options["markers"]:
            s.markers = (
                *s.markers,
                {"kind": "casualty", "x": squad.x, "y": squad.y, "turn": s.turn, "squad": player.label},
            )
        player.squad = None
        self.squads_version += 1
        self._owed = None  # the decisions owed for the squad, or naming it as a target, are gone
        self.emit("squad_lost", squad=player.label, why=why, figures=squad.figures, x=squad.x, y=squad.y)
        limit = s.options["fresh_squads"]
        if limit is not None and player.fresh_used >= limit:
            player.out = True
            self.emit("out_of_squads", player=player.label)
            if s.options["out_joins_germans"]:
                self._join_germans(player)

    def _join_germans(self, player: American) -> None:
        """Optional rule 5: the player takes over a German bunker still held by its owner (omaha.33)."""
        s = self.state
        for _, bunker in sorted(s.bunkers.items()):
            if bunker.active and bunker.commander == german_seat(int(bunker.owner[1:])):
                bunker.commander = player.seat
                s.seat_side[player.seat] = "german"
                self.emit("joins_germans", player=player.label, bunker=bunker.label)
                return

    # ------------------------------------------------------------------ American actions
    def _move(self, action: Move) -> None:
        s = self.state
        player = self.player(action.squad)
        squad = player.squad
        assert squad is not None
        x, y = snap(action.x), snap(action.y)
        at_wall = R.at_wall(y)
        if at_wall:
            y = WALL_Y
        if self.observed:  # an event's data is not worked out for nobody
            self.emit("moved", squad=squad.label, x0=squad.x, y0=squad.y, x=x, y=y)
        squad.x, squad.y = x, y
        self.squads_version += 1
        if at_wall:
            section = R.obstacle_section_at(s, x)
            if s.obstacles[section] is None:
                self._roll_obstacles(section)
        if R.past_wall(y) and s.stats["first_past_wall_turn"] is None:
            s.stats["first_past_wall_turn"] = s.turn
            s.stats["first_past_wall"] = squad.label
            self.emit("past_wall", squad=squad.label, turn=s.turn, first=True)

    def _fight(self, action: Fight) -> None:
        """Clear, then shoot, then assault, each die rolled for its figure (omaha.16-18)."""
        s = self.state
        self._active = None  # a bunker may be silenced or destroyed
        squad = self.squad(action.squad)
        if action.clear:
            section = R.obstacle_section_at(s, squad.x)
            present = s.obstacles[section] or 0
            sixes = clearing(action.clear).roll(self, f"{squad.label} clears O{section + 1} (clears on 6)")
            cleared = min(sixes, present)
            s.obstacles[section] = present - cleared
            if self.observed:
                self.emit(
                    "cleared", squad=squad.label, section=f"O{section + 1}", cleared=cleared, left=present - cleared
                )
        bunker = self.bunker_in_front(squad)
        # the assault's target is the bunker in contact when the order is given (FightSpace checked it)
        target = self.bunker_in_contact(squad) if action.assault else None
        if action.shoot:
            assert bunker is not None
            sixes = shooting(action.shoot).roll(self, f"{squad.label} shoots at {bunker.label} (kills on 6)")
            killed = min(sixes, bunker.defenders)
            bunker.defenders -= killed
            s.stats["german_losses"] += killed
            if bunker.defenders == 0 and bunker.active:
                bunker.status = "silenced"
            self.emit(
                "shot",
                squad=squad.label,
                bunker=bunker.label,
                killed=killed,
                left=bunker.defenders,
                status=bunker.status,
            )
        if action.assault and target is not None and not target.active:
            # the squad's own shooting emptied it first: nothing left to assault, no dice
            self.emit("assault_moot", squad=squad.label, bunker=target.label, status=target.status)
        elif action.assault:
            assert target is not None
            success = assault(action.assault).roll(self, f"{squad.label} assaults {target.label} (any 6 destroys)")
            killed = target.defenders if success else 0
            if success:
                s.stats["german_losses"] += killed
                target.defenders = 0
                target.status = "destroyed"
            self.emit("assault", squad=squad.label, bunker=target.label, success=success, killed=killed)
        if not (action.clear or action.shoot or action.assault):
            if self.observed:
                self.emit("holds", squad=squad.label)

    def bunker_in_contact(self, squad: Squad) -> Bunker | None:
        """The bunker ``squad`` is in contact with and may assault, if any (omaha.18; O3b)."""
        if squad.y < R.CONTACT_FROM_Y:
            return None  # too far from every bunker's front
        bunker = self.bunker_in_front(squad)
        if bunker is not None and bunker.status == "active" and R.in_contact(squad, bunker):
            return bunker  # the one in front first, then the others in the order the game keeps them
        for b in self.state.bunkers.values():
            if b is not bunker and b.status == "active" and R.in_contact(squad, b):
                return b
        return None

    # ------------------------------------------------------------------ German actions
    def _bunker_fire(self, bunker: Bunker, target: str) -> None:
        """4d6, 2d6 with one defender left; each 5-6 removes a figure (omaha.19-20)."""
        player = self.player(target)
        dice = bunker_fire(bunker.defenders)
        kills = dice.roll(self, f"bunker {bunker.label} fires at {target} (kills on 5-6)")
        removed = self._lose(player, kills)
        if self.observed:
            self.emit("bunker_fire", bunker=bunker.label, target=target, dice=dice.dice, hits=kills, killed=removed)

    def _artillery(self, german: str, target: str) -> None:
        """One d6: 5-6 lands; then 4d6, each 4-6 removes a figure (omaha.24)."""
        s = self.state
        player = self.player(target)
        squad = player.squad
        assert squad is not None
        landed = ARTILLERY_LANDS.roll(self, f"artillery {german} on {target}: lands on 5-6") == 1
        if not landed:
            if self.observed:
                self.emit("artillery", german=german, target=target, landed=False, killed=0)
            return
        if s.options["markers"]:
            s.markers = (*s.markers, {"kind": "crater", "x": squad.x, "y": squad.y, "turn": s.turn})
        kills = ARTILLERY_KILLS.roll(self, f"artillery {german} on {target}: kills on 4-6")
        removed = self._lose(player, kills)
        if self.observed:
            self.emit("artillery", german=german, target=target, landed=True, hits=kills, killed=removed)
