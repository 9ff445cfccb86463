"""What a person is told of an Omaha choice that needs the game: its note, its odds, its preview.

The odds come from the mechanics' ``distribution()``, the same objects play rolls. The situation of a
decision and the board as text read a seat's view alone: ``view_words``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from grognard.core.words import counted, percent
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move, OmahaAction, PlaceBunkers
from grognard.rulesets.omaha.data import (
    ARTILLERY_KILLS,
    ARTILLERY_LANDS,
    BUNKER_FRONT_Y,
    assault,
    bunker_fire,
    clearing,
    shooting,
)
from grognard.rulesets.omaha.describe import where
from grognard.rulesets.omaha.game import OmahaGame


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
