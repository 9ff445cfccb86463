"""Buildings and structures under artillery: the contract between burst-template fire and the structures.

The STRUCTURES engineer fills these two functions (cover against artillery
over the top and inside buildings with points, damage to buildings, bridges and
walls, doors blown by a 1: skirmish.17-19, 77, 86-91, RULINGS S7, S8, S11,
S14). Until then they do nothing: no man is covered from a burst, and a burst
damages nothing. ``game.SkirmishGame`` calls ``artillery_cover`` for each man
under a landed template (skipping those it covers) and ``shell`` once for each
landed shot, after the ranging die.
"""

from __future__ import annotations

from typing import Any


def artillery_cover(game: Any, figure: Any, centre: tuple[float, float], weapon: str) -> str | None:
    """Why ``figure`` cannot be hit by a burst centred at ``centre`` from ``weapon`` (a reason), or None.

    Filled by the structures engineer; returns None until then.
    """
    return None


def shell(game: Any, burst: Any, centre: tuple[float, float], weapon: str, ranging_die: int) -> None:
    """A burst template ``burst`` (shapely Polygon) lands: damage structures under it, blow doors.

    Filled by the structures engineer; does nothing until then.
    """
    return None
