"""The choices a person is offered at an Omaha decision: the useful orders first, each in words.

``menu(game, decision)`` lists ``(action, words)`` pairs for the web page's menu and the
terminal's numbered list. A squad's orders come in the order the seed advises (rush the
wall, clear the obstacles in front, cross and assault the bunker in front; shoot while
mostly whole), moves named by where they go ("Move up to the sea wall", "Move along the
wall to the cleared gap at O4"), never near-copies of one move. A bunker's or an artillery
strike's menu lists every squad it may target, furthest up the beach first (the doctrine's
choice: the one closest to the wall), then the pass. Every action listed is legal now.
"""

from __future__ import annotations

from typing import Any

from grognard.core.engine import Decision
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move, OmahaAction, PlaceBunkers
from grognard.rulesets.omaha.data import OBSTACLE_SECTION_WIDTH, WALL_Y
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.spaces import OrdersSpace, TargetSpace
from grognard.rulesets.omaha.state import Squad

Choice = tuple[OmahaAction, str]


def menu(game: OmahaGame, decision: Decision) -> list[Choice]:
    """``decision``'s choices, useful first, each ``(action, words)``; every one legal now."""
    space = decision.space
    if isinstance(space, OrdersSpace):
        return _orders(game, space)
    if isinstance(space, TargetSpace):
        return _targets(game, space)
    actions = getattr(space, "actions", None)
    if actions is not None:
        return [(a, words(game, a)) for a in actions]
    return [(a, words(game, a)) for a in space.candidates(12)]


def words(game: OmahaGame, action: Any) -> str:
    """An action in a few words, for a menu (the squad's own moves are named by ``menu``)."""
    if isinstance(action, Fight):
        return _fight_words(game, action)
    if isinstance(action, BunkerFire):
        return f"Fire at {action.target}" if action.target else "Hold fire"
    if isinstance(action, Artillery):
        return f"Call the artillery down on {action.target}" if action.target else "No strike this turn"
    if isinstance(action, PlaceBunkers):
        a, b = action.sections
        return f"Bunkers in sections {a} and {b}"
    if isinstance(action, Move):
        return f"Move to x={action.x:g}, y={action.y:g}"
    return str(action)


def _fight_words(game: OmahaGame, action: Fight) -> str:
    squad = game.squad(action.squad)
    if not (action.shoot or action.clear or action.assault):
        return "Hold"
    whole = [n for n in (action.shoot, action.clear, action.assault) if n]
    every = len(whole) == 1 and whole[0] == squad.figures
    front = game.bunker_in_front(squad)
    contact = game.bunker_in_contact(squad)
    section = R.obstacle_section_at(game.state, squad.x) + 1

    def count(n: int) -> str:
        return f"all {n}" if every else str(n)

    parts = []
    if action.clear:
        parts.append(f"clear the obstacles at O{section} with {count(action.clear)}")
    if action.shoot:
        parts.append(f"shoot at {front.label if front else 'the bunker'} with {count(action.shoot)}")
    if action.assault:
        parts.append(f"assault {contact.label if contact else 'the bunker'} with {count(action.assault)}")
    text = ", ".join(parts)
    return text[0].upper() + text[1:]


def _orders(game: OmahaGame, space: OrdersSpace) -> list[Choice]:
    squad = space.move.squad
    fights = [f for f in space.fight.candidates(16) if f.shoot or f.clear or f.assault]
    obstacles = game.obstacles_in_front(squad)
    ranked: list[tuple[int, Any, str]] = []
    for f in fights:
        rank = 0 if f.assault else 1 if f.clear else 3
        ranked.append((rank, f, _fight_words(game, f)))
    for rank, move, text in _moves(game, squad, blocked=R.at_wall(squad.y) and obstacles != 0):
        ranked.append((rank, move, text))
    ranked.sort(key=lambda r: r[0])  # stable: within a rank, the order made
    hold = Fight(squad.label)
    out = [(a, text) for _, a, text in ranked if space.contains(a)]
    out.append((hold, _fight_words(game, hold)))
    return out


def _moves(game: OmahaGame, squad: Squad, blocked: bool) -> list[tuple[int, Move, str]]:
    """The squad's distinct moves, with a rank: 2 the one forward (to the wall, over it, to the bunker
    in front, or on to the next bunker still firing), 4 along the wall to a cleared gap, 5 sideways,
    6 toward other bunkers. Moves ending within 1" of one already listed are left out."""
    state = game.state
    out: list[tuple[int, Move, str]] = []
    seen = {(squad.x, squad.y)}

    def add(rank: int, tx: float, ty: float, text: Any) -> None:
        point = R.reach(state, squad, tx, ty)
        if any(abs(point[0] - x) < 1.0 and abs(point[1] - y) < 1.0 for x, y in seen):  # near-copies: one
            return
        seen.add(point)
        words = text(*point) if callable(text) else text
        if words:
            out.append((rank, Move(squad.label, *point), words))

    if R.below_wall(squad.y):
        add(
            2,
            squad.x,
            WALL_Y,
            lambda x, y: "Move up to the sea wall" if R.at_wall(y) else "Move up toward the sea wall",
        )
    front = game.bunker_in_front(squad)
    if front is not None and front.active and not blocked:
        cx, cy = R.contact_point(front)

        def to_front(x: float, y: float) -> str:
            there = abs(x - cx) < 0.05 and abs(y - cy) < 0.05
            verb = "Cross the sea wall" if R.at_wall(squad.y) else "Move"
            return f"{verb} {'to' if there else 'toward'} bunker {front.label}" + (
                " (in contact: assault it next turn)" if there else ""
            )

        add(2, cx, cy, to_front)
    elif R.at_wall(squad.y) and not blocked:
        add(2, squad.x, squad.y + 6.0, "Cross the sea wall")
    if R.at_wall(squad.y):
        here = R.obstacle_section_at(state, squad.x)
        gaps = [i for i, c in enumerate(state.obstacles) if c == 0 and i != here]
        for i in sorted(gaps, key=lambda i: abs((i + 0.5) * OBSTACLE_SECTION_WIDTH - squad.x))[:2]:
            centre = (i + 0.5) * OBSTACLE_SECTION_WIDTH

            def to_gap(x: float, y: float, i: int = i) -> str | None:
                if R.obstacle_section_at(state, x) != i or not R.at_wall(y):
                    return None  # too far for one move: the sideways moves go that way
                return f"Move along the wall to the cleared gap at O{i + 1}"

            add(4, centre, WALL_Y, to_gap)
    along = " along the wall" if R.at_wall(squad.y) else " along the beach" if R.below_wall(squad.y) else ""
    for dx in (-6.0, 6.0):
        add(5, squad.x + dx, squad.y, lambda x, y: f"Move sideways{along} to x={x:g}")
    if not R.below_wall(squad.y) and not blocked:  # on to the nearest other bunkers still firing
        others = [b for _, b in sorted(state.bunkers.items()) if b.active and b is not front]
        others.sort(key=lambda b: abs(R.contact_point(b)[0] - squad.x))
        for bunker in others[:2]:
            cx, cy = R.contact_point(bunker)

            point = R.reach(state, squad, cx, cy)
            there = abs(point[0] - cx) < 0.05 and abs(point[1] - cy) < 0.05
            rank = 2 if there and (front is None or not front.active) else 6  # the next bunker to take
            text = f"Move to bunker {bunker.label} (in contact: assault it next turn)" if there else None
            add(rank, cx, cy, text or f"Move toward bunker {bunker.label}")
    return out


def _targets(game: OmahaGame, space: TargetSpace) -> list[Choice]:
    """Every target, furthest up the beach first, then the pass."""
    squads = {t: game.squad(t) for t in space.targets}
    order = sorted(space.targets, key=lambda t: (-squads[t].y, squads[t].x))
    make = Artillery if space.artillery else BunkerFire
    actions = [make(space.who, t) for t in order] + [make(space.who, None)]
    return [(a, words(game, a)) for a in actions]
