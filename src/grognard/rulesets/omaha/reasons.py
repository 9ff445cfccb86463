"""Why Omaha's bots chose what they chose (issue 31, item 2; ``grognard.core.reasons``).

Each function takes the game before the action and the action its bot chose, and names the clause of
docs/rules/omaha.md that chose it ("Reasons: the clauses a bot names"), the candidates it weighed with the
doctrine's own ranking keys, and a line in plain words. The book's clauses are ``omaha.doctrine.*``; a level
names its own clause where its order differs from the book's (``hard.shortest-way``, ``beginner.pinned``), and
the book's where it plays as the book. Omaha hides nothing, so a reason reads the state as every seat does.
"""

from __future__ import annotations

from typing import Any

from grognard.core.engine import Decision
from grognard.core.reasons import Reason, Weighed, short
from grognard.core.words import counted
from grognard.rulesets.omaha import bots as book
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move, PlaceBunkers
from grognard.rulesets.omaha.data import WALL_Y
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.state import Squad

CONCENTRATE = "the rules' advice to concentrate on one squad, the one nearest the sea wall"


def _where(squad: Squad) -> str:
    if R.below_wall(squad.y):
        return f"{short(WALL_Y - squad.y)} from the wall"
    if R.at_wall(squad.y):
        return "at the wall"
    return "past the wall"


def _men(n: int) -> str:
    return f"{n} {'man' if n == 1 else 'men'}"


def concentrate(game: OmahaGame, decision: Decision, action: BunkerFire | Artillery, clause: str) -> Reason:
    """A bunker's fire or a strike on the squad the turn's fire concentrates on (omaha.27): the squads ranked
    by ``bots.threat`` (furthest up the beach, then most men at the start of the turn's fire)."""
    allowed = set(game.strike_targets() if isinstance(action, Artillery) else game.fire_targets())
    squads = sorted(
        (p.squad for p in game.state.americans if p.squad is not None and p.squad.label in allowed),
        key=book.threat,
        reverse=True,
    )
    weighed = tuple(
        Weighed(
            s.label,
            f"y {s.y:.1f}, {_where(s)}, {_men(s.figures)}"
            + (f" ({s.figures + s.lost} before this turn's fire)" if s.lost else ""),
            s.label == action.target,
        )
        for s in squads[:3]
    )
    if action.target is None:
        return Reason(clause, f"{action}: no squad in reach", weighed)
    target = game.squad(action.target)
    return Reason(
        clause,
        f"{action}: {target.label} is furthest up the beach ({_where(target)}), {_men(target.figures)}; {CONCENTRATE}",
        weighed,
    )


def placement(game: OmahaGame, decision: Decision, action: PlaceBunkers, clause: str, words: str) -> Reason:
    """Where a German put his bunkers: each pair of sections with the obstacles in front (unknown: one)."""

    def cover(n: int) -> int:
        count = game.state.obstacles[R.exit_section(n - 1, game.state)]
        return 1 if count is None else count

    weighed = tuple(
        Weighed(str(o), f"{counted(sum(cover(n) for n in o.sections), 'obstacle')} in front", o == action)
        for o in decision.space.candidates(3)
    )
    return Reason(clause, f"{action}: {words}", weighed)


def american(game: OmahaGame, decision: Decision, action: Move | Fight) -> Reason:
    """The book's orders for a squad (omaha.28), by the branch of ``bots.american_orders`` that gave them."""
    squad = game.squad(action.squad)
    bunker = game.bunker_in_front(squad)
    in_front = game.obstacles_in_front(squad)
    shoot_ok = bunker is not None and bunker.active
    whole = f"{_men(squad.figures)} ({'' if squad.figures >= book.MOSTLY_WHOLE else 'not '}mostly whole: 7 or more)"
    if isinstance(action, Move):
        here = f"(it stood {_where(squad)})"
        if R.below_wall(squad.y):
            if action.x != squad.x:
                return Reason(
                    "omaha.doctrine.follow-up",
                    f"{action}: to the wall by the cleared section near it {here}; the rules' advice to follow up "
                    "where another broke through",
                )
            follow = "no bunker holds" if not game.active_bunkers() else 'no cleared section within 8" aside'
            ways = (
                Weighed("straight to the wall", f"{short(WALL_Y - squad.y)} to go", True),
                Weighed("by a cleared section", follow),
            )
            return Reason("omaha.doctrine.rush", f"{action}: to the sea wall as fast as it can {here}", ways)
        active = game.active_bunkers()
        if active:
            nearest = R.nearest_bunker(squad.x, squad.y, active)
            weighed = tuple(
                Weighed(b.label, short(R.bunker_distance(squad.x, squad.y, b)), b is nearest)
                for b in sorted(active, key=lambda b: R.bunker_distance(squad.x, squad.y, b))[:3]
            )
            if R.at_wall(squad.y) and in_front:
                return Reason(
                    "omaha.doctrine.follow-up",
                    f'{action}: {counted(in_front, "obstacle")} in front; sideways to a cleared section within 8"',
                    weighed,
                )
            return Reason(
                "omaha.doctrine.nearest-bunker",
                f"{action}: toward the nearest active bunker, {nearest.label} {here}",
                weighed,
            )
        return Reason(
            "omaha.doctrine.open-exits", f"{action}: every bunker is out; to the exit still blocked by obstacles"
        )
    if action.assault:
        target = game.bunker_in_contact(squad)
        name = target.label if target is not None else "the bunker"
        weighed = (
            Weighed(f"assault={squad.figures}", f"in contact with {name}: every man", True),
            Weighed("shoot or clear", "in contact, the advice is to assault"),
        )
        return Reason("omaha.doctrine.assault", f"{action}: in contact with {name}: everyone assaults", weighed)
    options = (
        Weighed(
            f"shoot={squad.figures}",
            whole
            + (f", bunker {bunker.label} active" if bunker is not None and shoot_ok else ", no bunker to shoot at"),
            bool(action.shoot),
        ),
        Weighed(
            f"clear={squad.figures}",
            f"{counted(in_front, 'obstacle') if in_front is not None else 'unknown obstacles'} in front",
            bool(action.clear),
        ),
    )
    if action.shoot:
        return Reason("omaha.doctrine.shoot", f"{action}: {whole}, shoots at the bunker in front", options)
    if action.clear:
        return Reason("omaha.doctrine.clear", f"{action}: {whole}; clears the obstacles in front", options)
    return Reason("omaha.doctrine.hold", f"{action}: nothing to shoot, clear or assault from here", options)


def book_reason(game: OmahaGame, decision: Decision, action: Any) -> Reason:
    """The book's reason for ``action`` (``bots.DoctrineBot``)."""
    if isinstance(action, BunkerFire):
        return concentrate(game, decision, action, "omaha.doctrine.concentrate")
    if isinstance(action, Artillery):
        return concentrate(game, decision, action, "omaha.doctrine.concentrate")
    if isinstance(action, PlaceBunkers):
        return placement(
            game, decision, action, "omaha.doctrine.bunkers", "behind the sections with the most obstacles in front"
        )
    if isinstance(action, (Move, Fight)):
        return american(game, decision, action)
    return Reason("omaha.random", f"{action}: drawn at random among the legal orders")


def hard_reason(game: OmahaGame, decision: Decision, action: Any) -> Reason:
    """The ``hard`` level's reason: its own clause where it leaves the book, else the book's."""
    if isinstance(action, PlaceBunkers):
        return placement(
            game, decision, action, "hard.outer-bunkers", "the two outer sections, none reachable from its neighbour"
        )
    if isinstance(action, (BunkerFire, Artillery)):
        return concentrate(game, decision, action, "hard.concentrate")
    if isinstance(action, (Move, Fight)):
        squad = game.squad(action.squad)
        if action == book.american_orders(game, squad):
            return american(game, decision, action)
        if isinstance(action, Fight) and action.shoot:
            return Reason(
                "hard.shoots-at-five", f"{action}: {_men(squad.figures)}, 5 or more still shoot (the book: 7)"
            )
        if not game.active_bunkers():
            return Reason("hard.blocked-exits", f"{action}: every bunker is out; the shortest way to a blocked exit")
        return Reason("hard.shortest-way", f"{action}: the shortest way through cleared sections to the nearest bunker")
    return book_reason(game, decision, action)


def beginner_reason(game: OmahaGame, decision: Decision, action: Any) -> Reason:
    """The ``beginner`` level's reason: its own clause where it leaves the book, else the book's."""
    if isinstance(action, PlaceBunkers):
        return placement(game, decision, action, "beginner.any-sections", "two of the three sections, at random")
    if isinstance(action, BunkerFire):
        return Reason("beginner.spread-fire", f"{action}: the squad nearest this bunker")
    if isinstance(action, Artillery):
        return Reason("beginner.spread-fire", f"{action}: the biggest squad it may hit")
    if isinstance(action, (Move, Fight)):
        squad = game.squad(action.squad)
        if R.below_wall(squad.y):
            return Reason("beginner.own-lane", f"{action}: straight up its own lane to the wall")
        if R.at_wall(squad.y) and isinstance(action, Fight) and action != book.american_orders(game, squad):
            if not (action.shoot or action.clear or action.assault):
                return Reason("beginner.pinned", f"{action}: {_men(squad.figures)} left, it takes cover at the wall")
            if action.shoot:
                return Reason("beginner.everyone-shoots", f"{action}: the whole squad shoots, however hurt")
            return Reason("beginner.half-clears", f"{action}: half the squad clears, the rest keep their heads down")
        return american(game, decision, action)
    return book_reason(game, decision, action)


def piece(action: Any) -> str | None:
    """The squad or bunker that acts (a placement names a German player, no piece)."""
    if isinstance(action, (Move, Fight)):
        return action.squad
    if isinstance(action, BunkerFire):
        return action.bunker
    return None
