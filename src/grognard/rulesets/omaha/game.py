"""The Omaha Beach game: setup, the four phases of a turn, victory (seed 000).

A turn (omaha.10): beach landings (automatic), Americans act (one decision per
American player with a squad on the table), Germans act (one decision per
active bunker and one artillery strike per German player), morale
(automatic). Victory is checked after every phase (O20).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from grognard.core.dice import DiceSource
from grognard.core.engine import ActionSpace, Decision, FiniteSpace, Game, Result, UnionSpace
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, snap
from grognard.core.options import recorded
from grognard.core.words import counted
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move, OmahaAction, PlaceBunkers
from grognard.rulesets.omaha.data import (
    AMERICANS_PER_GERMAN,
    ARTILLERY_KILLS,
    ARTILLERY_LANDS,
    BAND_END_Y,
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
from grognard.rulesets.omaha.state import American, Bunker, OmahaState, Squad


def german_seat(k: int) -> str:
    return f"German {k}"


def american_seat(k: int) -> str:
    return f"American {k}"


class OmahaGame(Game):
    """An Omaha Beach game. ``options`` are resolved (see ``data.OPTIONS``)."""

    ruleset = "omaha"
    sides = SIDES

    def __init__(self, options: Mapping[str, Any], dice: DiceSource) -> None:
        super().__init__(dice)
        self._owed: tuple[tuple[Any, ...], list[Decision]] | None = None  # the phase's decisions: see _owed_now
        self._last: tuple[OmahaState, tuple[int, str, int], tuple[Decision, ...]] | None = None  # see _decisions
        self.actions_applied = 0  # and calls of changed(): spaces work out afresh what depends on the state
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
        full = self.state.to_json()
        full.pop("done")
        full["seat"] = seat
        full["side"] = self.state.seat_side.get(seat) if seat else None
        full["pending"] = [{"id": d.id, "seat": d.seat, "prompt": d.prompt} for d in self.pending()]
        full["exits"] = [
            {
                "bunker": b.label,
                "section": section,
                "obstacle_section": R.exit_section(section, self.state),
                "open": section in self.state.exits_open,
            }
            for section, b in sorted(self.state.bunkers.items())
        ]
        return full

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

        The phase's decisions are built once and remembered with what they are built from
        (:meth:`_basis`); while that is unchanged they are the ones that would be built now,
        so after each action only the answered ones are dropped (``state.done``).
        """
        s = self.state
        if s.phase == "setup":
            return tuple(self._placement(k) for k in range(s.germans) if f"G{k + 1}" not in s.placed)
        if s.phase not in ("americans", "germans"):
            return ()
        basis = self._basis()
        if self._owed is None or self._owed[0] != basis:
            self._owed = (basis, self._build())
        done = s.done
        return tuple([d for d in self._owed[1] if d.id not in done])

    def _basis(self) -> tuple[Any, ...]:
        """What the decisions of the American or German phase are built from, ``state.done`` aside.

        A squad counts by identity (``id``): the remembered decisions' spaces hold their squads,
        so no other object can take one's ``id`` while they are remembered.
        """
        s = self.state
        if s.phase == "americans":
            return (
                "americans",
                [(id(a.squad), a.squad.figures, a.seat) if a.squad is not None else None for a in s.americans],
            )
        return (
            "germans",
            [(a.squad.label, a.squad.y) if a.squad is not None else None for a in s.americans],
            [(section, b.label, b.status, b.commander, b.defenders) for section, b in s.bunkers.items()],
        )

    def _build(self) -> list[Decision]:
        """The decisions of the American or German phase, answered ones included."""
        s = self.state
        out: list[Decision] = []
        if s.phase == "americans":
            for player in s.americans:
                squad = player.squad
                if squad is not None:
                    out.append(
                        Decision(
                            f"orders {player.label}",
                            player.seat,
                            f"{player.label} ({counted(squad.figures, 'figure')}): move or fight",
                            OrdersSpace(self, squad),
                        )
                    )
            return out
        targets = [a.squad.label for a in s.americans if a.squad is not None]
        if targets:
            legal = [a.squad.label for a in s.americans if a.squad is not None and not R.past_wall(a.squad.y)]
            # RULINGS O10: a bunker fires anywhere; the option bunker_targets = not_past_wall bars it as artillery
            fire_at = legal if s.options.get("bunker_targets", "anywhere") == "not_past_wall" else targets
            for _section, bunker in sorted(s.bunkers.items()):
                if bunker.active and fire_at:
                    out.append(
                        Decision(
                            f"fire {bunker.label}",
                            bunker.commander,
                            f"bunker {bunker.label} ({counted(bunker.defenders, 'defender')}): fire at a squad",
                            TargetSpace(self, bunker.label, fire_at, artillery=False),
                        )
                    )
            if legal:
                for k in range(s.germans):
                    label = f"G{k + 1}"
                    if not self.calls_artillery(label):
                        continue
                    out.append(
                        Decision(
                            f"artillery {label}",
                            german_seat(k + 1),
                            f"{label}: call an artillery strike",
                            TargetSpace(self, label, legal, artillery=True),
                        )
                    )
        return out

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
        return fields

    def changed(self) -> None:
        super().changed()
        self.actions_applied += 1

    def _apply(self, decision: Decision, action: Any) -> None:
        s = self.state
        self.actions_applied += 1
        s.done.add(decision.id)
        if isinstance(action, Move):
            self._move(action)
        elif isinstance(action, Fight):
            self._fight(action)
        elif isinstance(action, BunkerFire):
            if action.target is not None:
                self._bunker_fire(s.bunkers[int(action.bunker[1:]) - 1], action.target)
            else:
                self.emit("holds_fire", bunker=action.bunker)
        elif isinstance(action, Artillery):
            if action.target is not None:
                self._artillery(action.german, action.target)
            else:
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

    def exit_open(self, bunker: Bunker) -> bool:
        """An exit is open when its bunker is knocked out and the obstacle section in front is clear (O17)."""
        return not bunker.active and self.state.obstacles[R.exit_section(bunker.section, self.state)] == 0

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
                    s.phase, s.done = "germans", set()
            elif s.phase == "germans":
                self._end_phase()
                if s.outcome is None:
                    s.phase, s.done = "morale", set()
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
        self._end_phase()

    def _begin_turn(self) -> None:
        s = self.state
        s.turn += 1
        s.phase, s.done = "landing", set()
        self.emit("turn", turn=s.turn)
        self._land()
        self._end_phase()
        if s.outcome is None:
            s.phase, s.done = "americans", set()

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
            if section not in s.exits_open and self.exit_open(bunker):
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
            self.emit("morale", squad=player.label, lost=squad.lost, failed=failed)
            if failed:
                s.stats["sent_back"] += 1
                self._remove_squad(player, "failed morale")
        for player in s.americans:
            if player.squad is not None:
                player.squad.lost = 0

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
        if R.at_wall(y):
            y = WALL_Y
        self.emit("moved", squad=squad.label, x0=squad.x, y0=squad.y, x=x, y=y)
        squad.x, squad.y = x, y
        if R.at_wall(y):
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
        squad = self.squad(action.squad)
        if action.clear:
            section = R.obstacle_section_at(s, squad.x)
            present = s.obstacles[section] or 0
            sixes = clearing(action.clear).roll(self, f"{squad.label} clears O{section + 1} (clears on 6)")
            cleared = min(sixes, present)
            s.obstacles[section] = present - cleared
            self.emit("cleared", squad=squad.label, section=f"O{section + 1}", cleared=cleared, left=present - cleared)
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
            self.emit("holds", squad=squad.label)

    def bunker_in_contact(self, squad: Squad) -> Bunker | None:
        """The bunker ``squad`` is in contact with and may assault, if any (omaha.18; O3b)."""
        if squad.y < R.CONTACT_FROM_Y:
            return None  # too far from every bunker's front
        bunker = self.bunker_in_front(squad)
        candidates = [bunker] if bunker is not None else []
        candidates += [b for b in self.state.bunkers.values() if b is not bunker]
        for b in candidates:
            if b.active and R.in_contact(squad, b):
                return b
        return None

    # ------------------------------------------------------------------ German actions
    def _bunker_fire(self, bunker: Bunker, target: str) -> None:
        """4d6, 2d6 with one defender left; each 5-6 removes a figure (omaha.19-20)."""
        player = self.player(target)
        dice = bunker_fire(bunker.defenders)
        kills = dice.roll(self, f"bunker {bunker.label} fires at {target} (kills on 5-6)")
        removed = self._lose(player, kills)
        self.emit("bunker_fire", bunker=bunker.label, target=target, dice=dice.dice, hits=kills, killed=removed)

    def _artillery(self, german: str, target: str) -> None:
        """One d6: 5-6 lands; then 4d6, each 4-6 removes a figure (omaha.24)."""
        s = self.state
        player = self.player(target)
        squad = player.squad
        assert squad is not None
        landed = ARTILLERY_LANDS.roll(self, f"artillery {german} on {target}: lands on 5-6") == 1
        if not landed:
            self.emit("artillery", german=german, target=target, landed=False, killed=0)
            return
        if s.options["markers"]:
            s.markers = (*s.markers, {"kind": "crater", "x": squad.x, "y": squad.y, "turn": s.turn})
        kills = ARTILLERY_KILLS.roll(self, f"artillery {german} on {target}: kills on 4-6")
        removed = self._lose(player, kills)
        self.emit("artillery", german=german, target=target, landed=True, hits=kills, killed=removed)


# ---------------------------------------------------------------------- action spaces
class MoveSpace(ActionSpace[Move]):
    """Every point a squad may move to this turn: a continuous space (omaha.14-15)."""

    def __init__(self, game: OmahaGame, squad: Squad) -> None:
        self.game = game
        self.squad = squad

    def check(self, action: Any) -> None:
        if not isinstance(action, Move):
            raise IllegalAction(f"{action} is not a move", "omaha.13")
        if action.squad != self.squad.label:
            raise IllegalAction(f"{action}: this decision is for squad {self.squad.label}", "omaha.13")
        R.check_move(self.game.state, self.squad, snap(action.x), snap(action.y))

    def sample(self, rng: np.random.Generator) -> Move:
        angle = float(rng.uniform(0.0, 2 * math.pi))
        far = 1000.0
        x, y = R.reach(
            self.game.state, self.squad, self.squad.x + far * math.cos(angle), self.squad.y + far * math.sin(angle)
        )
        u = float(rng.random())
        return Move(
            self.squad.label, snap(self.squad.x + u * (x - self.squad.x)), snap(self.squad.y + u * (y - self.squad.y))
        )

    def candidates(self, k: int = 16) -> list[Move]:
        state, squad = self.game.state, self.squad
        targets = [(squad.x, WALL_Y if R.below_wall(squad.y) else squad.y + 6.0)]
        targets += [R.contact_point(b) for _, b in sorted(state.bunkers.items()) if b.active]
        targets += [(squad.x - 6.0, squad.y), (squad.x + 6.0, squad.y)]
        out: list[Move] = []
        seen: set[tuple[float, float]] = set()
        for tx, ty in targets:
            point = R.reach(state, squad, tx, ty)
            if point not in seen:
                seen.add(point)
                out.append(Move(squad.label, *point))
            if len(out) >= k:
                break
        return out


class FightSpace(ActionSpace[Fight]):
    """How a squad that does not move splits its figures among shoot, clear and assault (omaha.13, 16-18).

    What the squad may do is worked out on first use and kept until the game's next action
    (or ``changed()``).
    """

    def __init__(self, game: OmahaGame, squad: Squad) -> None:
        self.game = game
        self.squad = squad
        self._reasons: tuple[int, dict[str, str | None]] | None = None  # (game.actions_applied, reasons)

    @property
    def _why(self) -> dict[str, str | None]:
        """For each kind of fight, why the squad may not do it now (None: it may)."""
        when = self.game.actions_applied
        if self._reasons is None or self._reasons[0] != when:
            self._reasons = (when, self._work_out())
        return self._reasons[1]

    def _work_out(self) -> dict[str, str | None]:
        game, squad = self.game, self.squad
        front = game.bunker_in_front(squad)
        obstacles = game.obstacles_in_front(squad)
        at_wall = R.at_wall(squad.y)
        if not at_wall:
            why_clear: str | None = "only figures at the sea wall may clear obstacles"
        elif not obstacles:
            why_clear = "no obstacles are left in the section in front"
        else:
            why_clear = None
        in_contact = squad.y >= BAND_END_Y - 1.0 - TOLERANCE and game.bunker_in_contact(squad) is not None
        return {
            "shoot": self._why_not_shoot(game, squad, front),
            "clear": why_clear,
            "assault": None if in_contact else 'no active bunker is within 1" (in contact)',
        }

    @staticmethod
    def _why_not_shoot(game: OmahaGame, squad: Squad, front: Bunker | None) -> str | None:
        if R.below_wall(squad.y):
            return "figures may shoot only from the sea wall or closer"
        if R.past_wall(squad.y) and game.state.options.get("shoot_from", "wall_or_beyond") == "wall":
            return "figures may shoot only from the sea wall itself (option shoot_from = wall, RULINGS O9)"
        if front is None:
            return "no bunker stands directly in front"
        if not front.active:
            return f"bunker {front.label} in front is already {front.status}"
        return None

    def kinds(self) -> list[str]:
        return [k for k, why in self._why.items() if why is None]

    def check(self, action: Any) -> None:
        if not isinstance(action, Fight):
            raise IllegalAction(f"{action} is not a fight order", "omaha.13")
        if action.squad != self.squad.label:
            raise IllegalAction(f"{action}: this decision is for squad {self.squad.label}", "omaha.13")
        rules = {"shoot": "omaha.17", "clear": "omaha.16", "assault": "omaha.18"}
        total = 0
        for kind in ("shoot", "clear", "assault"):
            n = getattr(action, kind)
            if not isinstance(n, int) or n < 0:
                raise IllegalAction(f"{action}: {kind}={n!r} is not a count of figures", "omaha.13")
            if n and self._why[kind]:
                raise IllegalAction(f"{action}: {self._why[kind]}", rules[kind])
            total += n
        if total > self.squad.figures:
            raise IllegalAction(
                f"{action}: {total} figures ordered but squad {self.squad.label} has {self.squad.figures}; "
                "one action per figure",
                "omaha.13",
            )

    def sample(self, rng: np.random.Generator) -> Fight:
        kinds = self.kinds()
        if not kinds:
            return Fight(self.squad.label)
        counts = rng.multinomial(self.squad.figures, [1.0 / (len(kinds) + 1)] * (len(kinds) + 1))
        given = dict(zip(kinds, (int(c) for c in counts[:-1]), strict=True))
        return Fight(self.squad.label, **given)

    def candidates(self, k: int = 16) -> list[Fight]:
        n = self.squad.figures
        kinds = self.kinds()
        out = [Fight(self.squad.label, **{kind: n}) for kind in kinds]
        for i, a in enumerate(kinds):
            for b in kinds[i + 1 :]:
                out.append(Fight(self.squad.label, **{a: n - n // 2, b: n // 2}))
        out.append(Fight(self.squad.label))
        return out[:k]


class OrdersSpace(UnionSpace):
    """An American player's orders for his squad: a move, or a fight (which may be hold)."""

    def __init__(self, game: OmahaGame, squad: Squad) -> None:
        self.move = MoveSpace(game, squad)
        self.fight = FightSpace(game, squad)
        super().__init__(self.move, self.fight, kinds=(Move, Fight))


class TargetSpace(FiniteSpace[OmahaAction]):
    """A bunker's target or an artillery strike's: one squad on the table, or pass (omaha.19, omaha.22-23)."""

    def __init__(self, game: OmahaGame, who: str, targets: list[str], *, artillery: bool) -> None:
        # FiniteSpace's fields, the list of actions made on first use (the doctrine bots never ask)
        self.game = game
        self.who = who
        self.artillery = artillery
        self.targets = targets
        self.rule = "omaha.23" if artillery else "omaha.19"
        self.what = "target"
        self._actions: tuple[OmahaAction, ...] | None = None

    @property
    def actions(self) -> tuple[OmahaAction, ...]:  # type: ignore[override]
        """Fire (or strike) at each target, then pass."""
        if self._actions is None:
            make = Artillery if self.artillery else BunkerFire
            self._actions = (*(make(self.who, t) for t in self.targets), make(self.who, None))
        return self._actions

    def check(self, action: Any) -> None:
        if action in self.actions:
            return
        target = getattr(action, "target", None)
        if target is not None and target not in self.targets:
            player_index = int(target[1:]) - 1 if target[1:].isdecimal() else -1
            players = self.game.state.americans
            if 0 <= player_index < len(players) and players[player_index].squad is not None:
                if self.artillery:
                    raise IllegalAction(
                        f"{action}: squad {target} has moved past the sea wall; artillery may not target it",
                        "omaha.23",
                    )
                raise IllegalAction(
                    f"{action}: squad {target} has moved past the sea wall; with the option bunker_targets = "
                    "not_past_wall (RULINGS O10) no bunker may target it",
                    "omaha.19",
                )
            raise IllegalAction(
                f"{action}: squad {target} is not on the beach", "omaha.22" if self.artillery else "omaha.19"
            )
        super().check(action)
