"""What a person at the terminal sees of Omaha: the situation, the board, the odds of a choice.

Everything here reads the game through its view or its state and the rule
mechanics in ``data``; the odds come from the mechanics' ``distribution()``,
the same objects play rolls.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from grognard.core.engine import Decision
from grognard.core.words import counted, percent
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move, OmahaAction, PlaceBunkers
from grognard.rulesets.omaha.data import (
    ARTILLERY_KILLS,
    ARTILLERY_LANDS,
    BUNKER_FRONT_Y,
    OBSTACLE_SECTION_WIDTH,
    assault,
    bunker_fire,
    clearing,
    shooting,
)
from grognard.rulesets.omaha.describe import PHASES, where
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.state import Squad


def squad_line(game: OmahaGame, squad: Squad) -> str:
    """One squad and what lies in front of it."""
    parts = [f"{squad.label}: {counted(squad.figures, 'figure')} at x={squad.x:g}, {where(squad.y)}"]
    section = R.obstacle_section_at(game.state, squad.x)
    count = game.state.obstacles[section]
    parts.append(f"obstacles in front O{section + 1}: {'not yet known' if count is None else count}")
    bunker = game.bunker_in_front(squad)
    if bunker is not None:
        parts.append(
            f"bunker in front {bunker.label}: "
            + (counted(bunker.defenders, "defender") if bunker.active else bunker.status)
        )
    contact = game.bunker_in_contact(squad)
    if contact is not None:
        parts.append(f"in contact with {contact.label}")
    if squad.lost:
        parts.append(f"{squad.lost} lost this turn")
    return "; ".join(parts)


def situation(game: OmahaGame, decision: Decision) -> list[str]:
    """The lines a person needs for ``decision``: the unit in question and its surroundings."""
    kind, _, label = decision.id.partition(" ")
    s = game.state
    head = f"Turn {s.turn}, {PHASES.get(s.phase, s.phase)} - {decision.seat}: {decision.prompt}"
    if kind == "orders":
        return [head, squad_line(game, game.squad(label))]
    if kind in ("fire", "artillery"):
        squads = sorted((a.squad for a in s.americans if a.squad is not None), key=lambda q: -q.y)
        lines = [head]
        if kind == "fire":
            bunker = s.bunkers[int(label[1:]) - 1]
            dice = bunker_fire(bunker.defenders).dice
            lines.append(
                f"{bunker.label}: {counted(bunker.defenders, 'defender')}, rolls {counted(dice, 'die', 'dice')}"
            )
        lines.append("squads (furthest up the beach first):")
        lines += [f"  {squad_line(game, q)}" for q in squads[:8]]
        if len(squads) > 8:
            lines.append(f"  ... and {len(squads) - 8} more: every squad is among the choices")
        return lines
    if kind == "place":
        counts = ", ".join(f"O{i + 1}:{'?' if c is None else c}" for i, c in enumerate(s.obstacles))
        return [head, f"obstacles per section: {counts}"]
    return [head]


@lru_cache(maxsize=256)
def _distribution(mechanic: Any) -> Any:
    """A mechanic's exact distribution, worked out once (a bunker's menu shows the same odds for every squad)."""
    return mechanic.distribution()


def odds(game: OmahaGame, action: OmahaAction) -> str | None:
    """The dice odds of ``action``, from the mechanics' exact distributions (None: no dice)."""
    s = game.state
    if isinstance(action, Fight):
        squad = game.squad(action.squad)
        notes = []
        if action.clear:
            present = game.obstacles_in_front(squad) or 0
            dist = _distribution(clearing(action.clear))
            notes.append(f"clear all {present} in front: {percent(dist.probability('>=', present))}")
        if action.shoot:
            bunker = game.bunker_in_front(squad)
            dist = _distribution(shooting(action.shoot))
            if bunker is not None:
                notes.append(
                    f"kills {float(dist.mean()):.2f} on average; silences {bunker.label} "
                    f"({bunker.defenders} left): {percent(dist.probability('>=', bunker.defenders))}"
                )
        if action.assault:
            target = game.bunker_in_contact(squad)
            dist = _distribution(assault(action.assault))
            name = target.label if target is not None else "the bunker"
            notes.append(f"destroys {name}: {percent(dist.probability(True))}")
        return "; ".join(notes) or None
    if isinstance(action, BunkerFire) and action.target is not None:
        bunker = s.bunkers[int(action.bunker[1:]) - 1]
        dist = _distribution(bunker_fire(bunker.defenders))
        return f"kills {float(dist.mean()):.2f} on average; at least one: {percent(dist.probability('>=', 1))}"
    if isinstance(action, Artillery) and action.target is not None:
        lands = float(_distribution(ARTILLERY_LANDS).probability(1))
        kills = float(_distribution(ARTILLERY_KILLS).mean())
        return f"lands {percent(lands)}; then kills {kills:.2f} on average ({lands * kills:.2f} per call)"
    return None


def note(game: OmahaGame, action: OmahaAction) -> str:
    """A few words on what a menu choice does."""
    if isinstance(action, Move):
        squad = game.squad(action.squad)
        used = R.move_cost(squad.x, squad.y, action.x, action.y)
        return f'to x={action.x:g}, {where(action.y)} ({used:.1f}" of 6" used)'
    if isinstance(action, Fight):
        return "do nothing this turn" if str(action).startswith("hold") else ""
    if isinstance(action, (BunkerFire, Artillery)):
        if action.target is None:
            return "no strike" if isinstance(action, Artillery) else "hold fire"
        squad = game.squad(action.target)
        return f"{counted(squad.figures, 'figure')}, {where(squad.y)}"
    if isinstance(action, PlaceBunkers):
        return ""
    return ""


def preview(game: OmahaGame, seat: str, action: OmahaAction) -> dict[str, Any]:
    """``seat``'s view with a legal order not yet given drawn in (``view["preview"]``, inches): a move's
    straight path (omaha.14), a fight's line to the bunker in front (omaha.17, omaha.18), a bunker's or an
    artillery strike's line to its target squad (omaha.19, omaha.23)."""
    view = game.view(seat)
    s = game.state
    path: list[list[float]] = []
    target = None
    if isinstance(action, Move):
        squad = game.squad(action.squad)
        path = [[squad.x, squad.y], [action.x, action.y]]
    elif isinstance(action, Fight) and (action.shoot or action.assault):
        squad = game.squad(action.squad)
        bunker = s.bunkers.get(R.bunker_section_at(s, squad.x))
        if bunker is not None:
            target = bunker.label
            path = [[squad.x, squad.y], [R.bunker_centre(bunker.section), BUNKER_FRONT_Y]]
    elif isinstance(action, BunkerFire) and action.target:
        bunker = next(b for b in s.bunkers.values() if b.label == action.bunker)
        squad = game.squad(action.target)
        target = squad.label
        path = [[R.bunker_centre(bunker.section), BUNKER_FRONT_Y], [squad.x, squad.y]]
    view["preview"] = {"order": str(action), "path": path, "stop": None, "target": target, "rings": []}
    return view


def board(game: OmahaGame, seat: str | None = None) -> str:
    """The whole beach as text: a strip map (1 character = 2") and lists of bunkers and squads."""
    s = game.state
    cols = int(s.width // 2)
    rows: list[str] = []
    # bunker row: each bunker's state at the middle of its section
    line = [" "] * cols
    for section, bunker in s.bunkers.items():
        mark = {"active": str(bunker.defenders), "silenced": "s", "destroyed": "X"}[bunker.status]
        line[min(int(R.bunker_centre(section) // 2), cols - 1)] = mark
    rows.append("bunkers   |" + "".join(line) + "|")
    line = ["."] * cols
    for section, count in enumerate(s.obstacles):
        start = int(section * OBSTACLE_SECTION_WIDTH // 2)
        text = "?" if count is None else ("ok" if count == 0 else "#" * count)
        for i, ch in enumerate(text):
            line[start + 1 + i] = ch
        line[start] = "|"
    rows.append("obstacles |" + "".join(line) + "|")
    squads = [a.squad for a in s.americans if a.squad is not None]
    bands: list[tuple[str, Callable[[float], bool], str]] = [
        ("past wall", lambda y: R.past_wall(y), " "),
        ("at wall", R.at_wall, "="),
        ("beach 16+", lambda y: 16.0 <= y and R.below_wall(y), " "),
        ("beach 8+", lambda y: 8.0 <= y < 16.0, " "),
        ("beach 0+", lambda y: 0.0 <= y < 8.0, " "),
        ("water", lambda y: y < 0.0, "~"),
    ]
    for name, holds, fill in bands:
        line = [fill] * cols
        for q in squads:
            if holds(q.y):
                col = min(int(q.x // 2), cols - 1)
                for i, ch in enumerate(q.label[1:]):
                    if col + i < cols:
                        line[col + i] = ch
        rows.append(f"{name:<10}|" + "".join(line) + "|")
    out = [f"Turn {s.turn}, {PHASES.get(s.phase, s.phase)}; exits open {len(s.exits_open)} of {len(s.bunkers)}", *rows]
    out.append(
        '  (1 character = 2"; bunker B:defenders, s silenced, X destroyed; obstacles: # each, ok cleared,'
        " ? not yet rolled; squads by number)"
    )
    out.append(
        "bunkers: "
        + "  ".join(
            f"{b.label} "
            + (counted(b.defenders, "defender") if b.active else b.status)
            + (" (exit open)" if sec in s.exits_open else "")
            for sec, b in sorted(s.bunkers.items())
        )
    )
    out.append("squads:")
    out += [f"  {squad_line(game, q)}" for q in squads]
    waiting = [a.label for a in s.americans if a.squad is None and not a.out]
    if waiting:
        out.append("in the landing craft: " + ", ".join(waiting))
    gone = [a.label for a in s.americans if a.out]
    if gone:
        out.append("out of squads: " + ", ".join(gone))
    return "\n".join(out)
