"""Routes across the obstacle band: how far a squad still has to go, and the move that shortens it most.

The doctrine (``bots.py``) walks to fixed points (the wall in front of a
cleared section, the band's edge in front of a bunker's middle) and stops at
each, as the seed's advice reads. The ``hard`` level (``levels.py``) goes
straight for where it is going: the nearest point in contact with a bunker
(within 1" of it, O3b), or the wall in front of an exit still blocked, by the
shortest way through the cleared sections of the band, and a move ends where
the rest of that way is shortest. Pure functions of the state (see ``state``
for the axes).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Move
from grognard.rulesets.omaha.data import BAND_END_Y, BEACH_MOVE, CONTACT, OBSTACLE_SECTION_WIDTH, WALL_Y
from grognard.rulesets.omaha.state import Bunker, OmahaState, Squad

REACH = CONTACT - 2 * TOLERANCE  # a point this near a bunker is in contact whatever the rounding of its coordinates
ANGLES = 48  # directions a move is tried in
RADII = (1.0, 0.75, 0.5, 0.25)  # fractions of the allowance a move is tried at, in each direction
INF = float("inf")


def to_contact(x: float, y: float, bunker: Bunker) -> float:
    """Inches from (x, y) to the nearest point in contact with ``bunker`` (0 in contact), as the crow flies."""
    return max(R.bunker_distance(x, y, bunker) - REACH, 0.0)


def _crossings(state: OmahaState) -> list[tuple[float, float]]:
    """The x-ranges of the obstacle sections cleared (0 obstacles), where a path may cross the band."""
    width = OBSTACLE_SECTION_WIDTH
    return [(i * width + TOLERANCE, (i + 1) * width - 2 * TOLERANCE) for i, n in enumerate(state.obstacles) if n == 0]


def way_to(state: OmahaState, x: float, y: float, goal: tuple[str, Bunker | float]) -> float:
    """Inches (water counted double) from (x, y) to ``goal`` by the shortest way the band allows (INF: none).

    ``goal`` is ``("bunker", b)``: contact with bunker ``b``; or ``("wall", gx)``: the wall
    at x = ``gx`` (reached from below). A squad past the band walks straight; one below it
    or in it crosses the band inside one cleared section.
    """
    kind, where = goal
    if kind == "wall":
        assert isinstance(where, float)
        if y <= WALL_Y + TOLERANCE:
            return R.move_cost(x, y, where, WALL_Y)
        return _via_band(state, x, y, lambda qx, qy: math.hypot(qx - where, qy - WALL_Y), back=True)
    assert isinstance(where, Bunker)
    if y >= BAND_END_Y - TOLERANCE:
        return to_contact(x, y, where)
    return _via_band(state, x, y, lambda qx, qy: to_contact(qx, qy, where), back=False)


def _via_band(state: OmahaState, x: float, y: float, rest: Callable[[float, float], float], *, back: bool) -> float:
    """The shortest way from (x, y) through one cleared section of the band, then ``rest(qx, qy)`` onward."""
    best = INF
    far_y = WALL_Y if back else BAND_END_Y
    near_y = BAND_END_Y if back else max(y, WALL_Y)
    for left, right in _crossings(state):
        # to the band's near edge inside the section (below the wall no obstacle matters), across it, on
        entry_x = min(max(x, left), right)
        first = R.move_cost(x, y, entry_x, near_y) if not back or y >= BAND_END_Y else math.hypot(x - entry_x, 0)
        for qx in {left, right, entry_x, (left + right) / 2}:
            cost = first + math.hypot(qx - entry_x, far_y - near_y) + rest(qx, far_y)
            best = min(best, cost)
    return best


def best_move(state: OmahaState, squad: Squad, goal: tuple[str, Bunker | float]) -> Move | None:
    """The legal move that leaves the least of the way to ``goal`` (ties: the shorter move); None if none
    shortens it."""
    here = way_to(state, squad.x, squad.y, goal)
    best: tuple[float, float, float, float] | None = None
    seen: set[tuple[float, float]] = set()
    for k in range(ANGLES):
        angle = 2 * math.pi * k / ANGLES
        far = R.reach(state, squad, squad.x + 100 * math.cos(angle), squad.y + 100 * math.sin(angle))
        length = math.hypot(far[0] - squad.x, far[1] - squad.y)
        if length < TOLERANCE:
            continue
        for fraction in RADII:
            span = min(length, BEACH_MOVE * fraction)
            point = R.reach(
                state,
                squad,
                squad.x + span * math.cos(angle),
                squad.y + span * math.sin(angle),
            )
            if point in seen:
                continue
            seen.add(point)
            left = way_to(state, point[0], point[1], goal)
            key = (left, math.hypot(point[0] - squad.x, point[1] - squad.y), *point)
            if best is None or key < best:
                best = key
    if best is None or best[0] >= here - TOLERANCE:
        return None
    return Move(squad.label, best[2], best[3])
