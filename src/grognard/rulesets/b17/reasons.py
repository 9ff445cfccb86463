"""Why the B-17 raid's bots chose what they chose (issue 31, item 2; ``grognard.core.reasons``).

Each function takes the raid before the action and the action its bot chose, and names the clause of
docs/rules/b17.md that chose it (the book's clauses of "The doctrine": ``intercept``, ``gunners``, ``variety``;
``b17.doctrine.*`` for what the book does that those clauses do not name: the box, the bomb run, the gun
pair), the candidates it weighed with the doctrine's keys (the bombers by their distance from a fighter's
nose, the gun pairs by the guns in range), and a line in plain words. The raid hides nothing.
"""

from __future__ import annotations

import math
from typing import Any

from grognard.core.engine import Decision
from grognard.core.reasons import Reason, Weighed, short
from grognard.rulesets.b17 import bots as B
from grognard.rulesets.b17 import reckoning as K
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly, Guns
from grognard.rulesets.b17.data import PAIRS
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.state import Aircraft


def _bombers_by_range(game: B17Game, f: Aircraft, chosen: str | None) -> tuple[Weighed, ...]:
    """The three flying bombers nearest ``f``'s nose, with the distance (b17.23's ranking key)."""
    options = game.state.options
    ranged = sorted(
        ((R.attack_range(options, f, f.x, f.y, f.heading, b), b.label) for b in game.flying_bombers()),
    )
    return tuple(Weighed(label, f"{short(d)} from {f.label}'s nose", label == chosen) for d, label in ranged[:3])


def fighter(game: B17Game, action: Fly, *, clause_attack: str, clause_none: str, words: str) -> Reason:
    """A fighter's move: an attack on a bomber (``clause_attack``) or an interception (``clause_none``)."""
    f = game.aircraft(action.aircraft)
    closest = K.closest_bombers(game.state.options, f, game.flying_bombers())
    near = closest[0].label if closest else None
    if action.target is not None:
        weighed = _bombers_by_range(game, f, action.target)
        return Reason(clause_attack, f"{action}: attacks {action.target}; {words}", weighed)
    weighed = _bombers_by_range(game, f, near)
    if near is None:
        return Reason(clause_none, f"{action}: no bomber left to go for")
    return Reason(
        clause_none, f"{action}: no attack in reach; flies for a spot ahead of or behind {near}, the closest", weighed
    )


def _to_target(a: Aircraft) -> float:
    return math.hypot(a.x - B.TARGET_CENTRE[0], a.y - B.TARGET_CENTRE[1])


def bomber(game: B17Game, action: Fly, clause_box: str) -> Reason:
    """A bomber's move: the box to the target, the bomb run near it, straight on once it has bombed."""
    a = game.aircraft(action.aircraft)
    away = _to_target(a)
    if a.bombed:
        return Reason("b17.doctrine.bomb-run", f"{action}: has bombed; flies straight on")
    if away <= B.FINAL_APPROACH:
        return Reason(
            "b17.doctrine.bomb-run",
            f"{action}: {short(away)} from the target's centre; lines up its own bomb run",
            (Weighed(a.label, f"{short(away)} to the target (its run from {short(B.FINAL_APPROACH)})", True),),
        )
    where = "leads the box" if a.slot == "leader" else f"holds its place ({a.slot}) in the box"
    weighed = (
        Weighed("the box", f"{short(away)} from the target's centre", True),
        Weighed("its own bomb run", f"from {short(B.FINAL_APPROACH)} of the centre"),
    )
    return Reason(clause_box, f"{action}: {where}, {short(away)} from the target", weighed)


def guns(game: B17Game, decision: Decision, action: Guns, clause: str, words: str) -> Reason:
    """A bomber's gunners: each pair with the guns in range not yet fired (``bots.gun_choice``'s key)."""
    s = game.state
    weighed = []
    for option in decision.space.candidates(4):
        in_range = R.guns_in_range(s.options, game.aircraft(option.bomber), game.aircraft(option.fighter))
        used = s.guns_used.get(option.bomber, [])
        count = sum(1 for g in PAIRS[option.pair] if g in in_range and g not in used)
        weighed.append(Weighed(option.pair, f"{count} guns in range", option == action))
    return Reason(clause, f"{action}: {words}", tuple(weighed))


def book_reason(game: B17Game, decision: Decision, action: Any) -> Reason:
    """The book's reason for ``action`` (``bots.DoctrineBot``)."""
    kind = decision.id.split(" ", 1)[0]
    if kind == "place":
        return Reason("variety", f"{action}: one of the lanes the placement offers, drawn from the bot's stream")
    if isinstance(action, Guns):
        return guns(
            game, decision, action, "b17.doctrine.guns", "the pair with more guns in range (nose and tail on a tie)"
        )
    if isinstance(action, Fly):
        if game.aircraft(action.aircraft).bomber:
            return bomber(game, action, "b17.doctrine.box")
        return fighter(
            game,
            action,
            clause_attack="gunners",
            clause_none="intercept",
            words="the closest bomber, by the attack meeting the fewest gunners",
        )
    return Reason("b17.random", f"{action}: drawn at random among the legal orders")


def hard_reason(game: B17Game, decision: Decision, action: Any) -> Reason:
    """The ``hard`` level's reason: its fighters and its box fly freely (clause ``hard``); its gunners the book's."""
    if isinstance(action, Fly):
        if game.aircraft(action.aircraft).bomber:
            reason = bomber(game, action, "hard")
            return reason if reason.clause != "hard" else Reason("hard", f"{action}: the box flies straight in")
        return fighter(
            game,
            action,
            clause_attack="hard",
            clause_none="intercept",
            words="of the three bombers nearest, the cheapest attack (a damaged bomber first)",
        )
    return book_reason(game, decision, action)


def beginner_reason(game: B17Game, decision: Decision, action: Any) -> Reason:
    """The ``beginner`` level's reason (clause ``beginner``): a learner's moves and gunners."""
    if isinstance(action, Guns):
        return guns(game, decision, action, "beginner", "the pair it sees first (nose and tail)")
    if isinstance(action, Fly):
        if game.aircraft(action.aircraft).bomber:
            return Reason("beginner", f"{action}: turns on the fighters or flies for the target's centre")
        return fighter(
            game,
            action,
            clause_attack="beginner",
            clause_none="beginner",
            words="the closest bomber, the first attack it finds, whatever the gunners",
        )
    return book_reason(game, decision, action)


def piece(action: Any) -> str | None:
    """The aircraft that flies, or the bomber whose gunners fire."""
    if isinstance(action, Fly):
        return action.aircraft
    if isinstance(action, Guns):
        return action.bomber
    return None
