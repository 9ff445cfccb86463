"""Omaha's actions carried out: the squads' moves and fights, the bunkers' fire and the strikes, the losses.

The part of :class:`~grognard.rulesets.omaha.game.OmahaGame` that changes the beach for an order (omaha.13-24),
with the lookups those orders and the bots read (the squad of a player, the bunker in front, the bunkers still in
action). The turn's sequence is :mod:`~grognard.rulesets.omaha.turns`'s, the decisions the game's own.
"""

from __future__ import annotations

import math

from grognard.core.engine import Decision, Game
from grognard.core.geometry import TOLERANCE, snap
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Fight, Move
from grognard.rulesets.omaha.data import (
    ARTILLERY_KILLS,
    ARTILLERY_LANDS,
    BUNKER_SECTION_WIDTH,
    BUNKER_WIDTH,
    CONTACT,
    OBSTACLE_ROLL,
    OBSTACLE_SECTION_WIDTH,
    WALL_Y,
    assault,
    bunker_fire,
    clearing,
    shooting,
)
from grognard.rulesets.omaha.state import American, Bunker, OmahaState, Squad

_WALL_LOW, _WALL_HIGH = WALL_Y - TOLERANCE, WALL_Y + TOLERANCE  # at the sea wall: R.at_wall
_FRONT_ONLY = BUNKER_SECTION_WIDTH / 2 - BUNKER_WIDTH / 2 > CONTACT + TOLERANCE
"""Whether a squad may be in contact with no bunker but the one in the section in front of it: each footprint stands
further from its section's sides than contact reaches (2.5" against 1", RULINGS O3b), so a squad in another
section is out of contact."""


def german_seat(k: int) -> str:
    return f"German {k}"


class OmahaCombat(Game[OmahaState]):
    """The orders of an Omaha game carried out, and the lookups they read (the game's fields: ``OmahaGame``)."""

    # the phase's unanswered decisions (OmahaGame._owed_now): a squad leaving the table drops them
    _owed: tuple[OmahaState, tuple[Decision, ...]] | None
    _active: tuple[OmahaState, list[Bunker]] | None  # see active_bunkers
    _exits: dict[int, int]  # bunker section -> the obstacle section of its exit (O17), once known
    _exit_list: tuple[OmahaState, list[tuple[Bunker, int, float]]] | None  # see exits
    _blocked: tuple[OmahaState, list[float]] | None  # see blocked_exits
    # bumped when a squad lands, moves, leaves, has its losses cleared (or changed()): what the Germans'
    # ranking of the squads reads (bots.german_target keeps its answer until then)
    squads_version: int

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
        s = self.state
        section = math.floor(squad.x / BUNKER_SECTION_WIDTH)  # R.bunker_section_at, worked out here
        count = 3 * s.germans
        return s.bunkers.get((section if section > 0 else 0) if section < count else count - 1)

    def obstacles_in_front(self, squad: Squad) -> int | None:
        """Obstacles left in the section in front of ``squad`` (None: not yet rolled)."""
        return self.state.obstacles[R.obstacle_section_at(self.state, squad.x)]

    def active_bunkers(self) -> list[Bunker]:
        """The bunkers still in action, in section order (not to be changed by the caller).

        Kept with the state until a bunker's status may have changed: a fight, ``changed()``.
        """
        s = self.state
        if self._active is None or self._active[0] is not s:
            self._active = (s, [bunker for _section, bunker in sorted(s.bunkers.items()) if bunker.status == "active"])
        return self._active[1]

    def exit_open(self, bunker: Bunker) -> bool:
        """An exit is open when its bunker is knocked out and the obstacle section in front is clear (O17)."""
        if bunker.status == "active":  # bunker.active
            return False
        section = self._exits.get(bunker.section)
        if section is None:
            section = self._exits[bunker.section] = R.exit_section(bunker.section, self.state)
        return self.state.obstacles[section] == 0

    def exits(self) -> list[tuple[Bunker, int, float]]:
        """Each bunker, in the game's order of them, with the obstacle section of its exit (O17) and that section's
        middle x: kept with the state (its bunkers are placed once; their status changes in place)."""
        s = self.state
        kept = self._exit_list
        if kept is None or kept[0] is not s or len(kept[1]) != len(s.bunkers):
            listed = []
            for section, bunker in s.bunkers.items():
                exit_index = R.exit_section(section, s)
                listed.append((bunker, exit_index, exit_index * OBSTACLE_SECTION_WIDTH + OBSTACLE_SECTION_WIDTH / 2))
            kept = self._exit_list = (s, listed)
        return kept[1]

    def blocked_exits(self) -> list[float]:
        """The middle x of the obstacle section of each exit still blocked: its bunker knocked out, obstacles left
        in front (not yet open, O17), in the order of :meth:`exits` (not to be changed by the caller).

        Kept with the state until a bunker's status or an obstacle count may have changed: a fight, an obstacle
        roll, a bunker placed, ``changed()``."""
        s = self.state
        kept = self._blocked
        if kept is None or kept[0] is not s:
            obstacles = s.obstacles
            middles = [m for bunker, at, m in self.exits() if bunker.status != "active" and obstacles[at] != 0]
            kept = self._blocked = (s, middles)
        return kept[1]

    def _roll_obstacles(self, section: int) -> None:
        count = OBSTACLE_ROLL.roll(self, f"obstacles O{section + 1}")
        self.state.obstacles[section] = count
        self._blocked = None
        self.emit("obstacles", section=f"O{section + 1}", count=count)

    # ------------------------------------------------------------------ losses
    def _lose(self, player: American, n: int) -> int:
        """Remove up to ``n`` figures (surplus wasted, O2); a squad with none left is wiped out (O13)."""
        squad = player.squad
        assert squad is not None
        figures = squad.figures
        removed = figures if figures < n else n  # min(n, figures) without the call
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
        squad = self.state.americans[int(action.squad[1:]) - 1].squad  # self.squad(action.squad)
        assert squad is not None
        x, y = action.x, action.y  # snapped (a bot's are already: their own rounding, as snap finds first)
        x = x + 0.0 if -1e12 < x < 1e12 and round(x * 100.0) / 100.0 == x else snap(x)
        y = y + 0.0 if -1e12 < y < 1e12 and round(y * 100.0) / 100.0 == y else snap(y)
        self._place(squad, x, y)

    def _place(self, squad: Squad, x: float, y: float) -> None:
        """:meth:`_move` of ``squad`` to a stored point (snapped, as ``rules.reach`` gives them)."""
        s = self.state
        at_wall = _WALL_LOW <= y <= _WALL_HIGH  # R.at_wall(y)
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
        if y > R.PAST_WALL_Y and s.stats["first_past_wall_turn"] is None:  # R.past_wall(y)
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
            cleared = present if present < sixes else sixes  # min(sixes, present)
            s.obstacles[section] = present - cleared
            if cleared:
                self._blocked = None  # an exit may be clear now
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
            killed = bunker.defenders if bunker.defenders < sixes else sixes  # min(sixes, bunker.defenders)
            bunker.defenders -= killed
            s.stats["german_losses"] += killed
            if bunker.defenders == 0 and bunker.active:
                bunker.status = "silenced"
                self._active = self._blocked = None  # the bunkers in action, and the exits blocked, are others now
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
                self._active = self._blocked = None
            self.emit("assault", squad=squad.label, bunker=target.label, success=success, killed=killed)
        if not (action.clear or action.shoot or action.assault):
            if self.observed:
                self.emit("holds", squad=squad.label)

    def bunker_in_contact(self, squad: Squad) -> Bunker | None:
        """The bunker ``squad`` is in contact with and may assault, if any (omaha.18; O3b)."""
        if squad.y < R.CONTACT_FROM_Y:
            return None  # too far from every bunker's front
        bunker = self.bunker_in_front(squad)
        x, y = squad.x, squad.y
        if bunker is not None and bunker.status == "active" and R.touching(x, y, bunker.section):
            return bunker  # the one in front first, then the others in the order the game keeps them
        if _FRONT_ONLY:
            return None
        for b in self.state.bunkers.values():
            if b is not bunker and b.status == "active" and R.touching(x, y, b.section):
                return b
        return None

    # ------------------------------------------------------------------ German actions
    def _bunker_fire(self, bunker: Bunker, target: str) -> None:
        """4d6, 2d6 with one defender left; each 5-6 removes a figure (omaha.19-20)."""
        player = self.state.americans[int(target[1:]) - 1]  # self.player(target)
        dice = bunker_fire(bunker.defenders)
        kills = dice.roll(self, f"bunker {bunker.label} fires at {target} (kills on 5-6)")
        removed = self._lose(player, kills)
        if self.observed:
            self.emit("bunker_fire", bunker=bunker.label, target=target, dice=dice.dice, hits=kills, killed=removed)

    def _artillery(self, german: str, target: str) -> None:
        """One d6: 5-6 lands; then 4d6, each 4-6 removes a figure (omaha.24)."""
        s = self.state
        player = s.americans[int(target[1:]) - 1]  # self.player(target)
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
