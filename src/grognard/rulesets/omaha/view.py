"""What a seat sees of an Omaha game (``OmahaGame.view``), JSON-safe: the whole beach, for Omaha hides nothing
(obstacles not yet rolled are unknown to all), with what the pages and the terminal read off it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.state import Squad

if TYPE_CHECKING:
    from grognard.rulesets.omaha.game import OmahaGame


def view_of(game: OmahaGame, seat: str | None) -> dict[str, Any]:
    """``seat``'s view: the state (without the seats' done marks), the seat and its side, the decisions owed,
    each bunker's exit, and ``fronts``: what lies in front of each squad on the beach (:func:`front`)."""
    s = game.state
    full = s.to_json()
    full.pop("done")
    full["seat"] = seat
    full["side"] = s.seat_side.get(seat) if seat else None
    full["pending"] = [{"id": d.id, "seat": d.seat, "prompt": d.prompt} for d in game.pending()]
    full["exits"] = [
        {
            "bunker": b.label,
            "section": section,
            "obstacle_section": R.exit_section(section, s),
            "open": section in s.exits_open,
        }
        for section, b in sorted(s.bunkers.items())
    ]
    full["fronts"] = {a.squad.label: front(game, a.squad) for a in s.americans if a.squad is not None}
    return full


def front(game: OmahaGame, squad: Squad) -> dict[str, Any]:
    """What lies in front of ``squad`` (O3): its obstacle section (0-based), the bunker in front and the bunker it
    is in contact with (omaha.18), by label (``None``: none)."""
    bunker = game.bunker_in_front(squad)
    contact = game.bunker_in_contact(squad)
    return {
        "obstacles": R.obstacle_section_at(game.state, squad.x),
        "bunker": bunker.label if bunker is not None else None,
        "contact": contact.label if contact is not None else None,
    }
