"""Omaha's turn (omaha.10): beach landings, the Americans' and the Germans' phases, morale, victory (O20).

The part of :class:`~grognard.rulesets.omaha.game.OmahaGame` that runs the automatic phases between the
decisions the players owe (the game's own) and ends the game.
"""

from __future__ import annotations

from abc import abstractmethod
from operator import attrgetter
from typing import Any

from grognard.core.engine import Decision, Result
from grognard.core.geometry import snap
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.combat import OmahaCombat, german_seat
from grognard.rulesets.omaha.data import (
    BUNKERS_PER_GERMAN,
    DEEP_WATER_FACE,
    DEFENDERS,
    LANDING_ROLL,
    SQUAD_SIZE,
    deep_water,
    morale,
)
from grognard.rulesets.omaha.state import Bunker, OmahaState, Squad

_OUT = attrgetter("out")  # whether an American player is out of squads for good


class OmahaTurns(OmahaCombat):
    """The automatic phases of an Omaha game's turns, run until a decision is owed (``_advance``)."""

    actions_applied: int  # and calls of changed(): spaces work out afresh what depends on the state
    _made: dict[str, tuple[Any, Decision]]  # see OmahaGame._remembered
    _last: tuple[OmahaState, tuple[int, str, int], tuple[Decision, ...]] | None  # see OmahaGame._decisions

    @abstractmethod
    def _owed_now(self) -> tuple[Decision, ...]:
        """Every decision owed now, worked out from the state (the game's)."""

    def _new_phase(self, phase: str) -> None:
        """Enter ``phase``: no decision of it is answered yet, and its decisions are built afresh."""
        s = self.state
        s.phase, s.done = phase, set()
        self._owed = None

    # ------------------------------------------------------------------ phases
    def _advance(self) -> None:
        """Run the automatic phases until a decision is owed or the game is over."""
        s = self.state
        while s.outcome is None:
            if s.phase == "americans" and self._owed is None and not s.done:
                # the phase begun: a decision is owed per squad on the table, worked out when asked (pending()),
                # never for the book's pass (bookplay)
                if any(player.squad is not None for player in s.americans):
                    self._last = None
                    return
                self._owed = (s, ())
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
        self._active = self._blocked = None
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
        # nothing is owed once the game is over: the decisions kept (whose spaces name this game) are dropped, so
        # a game no longer used is freed at once, not left for the garbage collector's cycle search
        self._made.clear()
        self._owed = self._last = None

    def _end_phase(self) -> None:
        """Victory is checked after every phase (O20); exits opening are recorded (O17)."""
        s = self.state
        # bunkers knocked out whose exit is clear (the rest of those knocked out: blocked_exits) but not yet counted
        # open: else none opens now (an exit, once open, stays so)
        opening = len(s.bunkers) - len(self.active_bunkers()) - len(self.blocked_exits()) - len(s.exits_open)
        for section, bunker in sorted(s.bunkers.items()) if opening > 0 else ():
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
        elif all(map(_OUT, s.americans)):
            self._finish(Result("win", "german", s.turn, "no American player has a squad left", self.scores()))

    # ------------------------------------------------------------------ chance phases
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
            else:
                squad.lost = 0  # the turn's losses counted (no other squad's check reads them)
        self.squads_version += 1
