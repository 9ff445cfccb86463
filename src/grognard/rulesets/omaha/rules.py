"""Measures of the Omaha beach: sections, movement cost, the wall and the band.

Pure functions of the state and positions (see ``state`` for the axes). The
one mapping from a position along the beach to the section in front of it is
:func:`obstacle_section_at` / :func:`bunker_section_at` (RULINGS O3).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Protocol

from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, distance_to_rect, snap
from grognard.core.words import counted
from grognard.rulesets.omaha.data import (
    BAND_END_Y,
    BEACH_MOVE,
    BUNKER_DEPTH,
    BUNKER_FRONT_Y,
    BUNKER_SECTION_WIDTH,
    BUNKER_WIDTH,
    CONTACT,
    OBSTACLE_SECTION_WIDTH,
    WALL_Y,
    WATER_COST,
    ZONE_WIDTH,
)
from grognard.rulesets.omaha.state import Bunker, OmahaState, Squad


class Beach(Protocol):
    """What the movement rules read of a game's state: an :class:`OmahaState`, or the batch path's beach of one
    of its games (``batch.geometry``)."""

    @property
    def options(self) -> Mapping[str, Any]: ...
    @property
    def germans(self) -> int: ...
    @property
    def width(self) -> float: ...
    @property
    def obstacles(self) -> Sequence[int | None]: ...


class Standing(Protocol):
    """What the movement rules read of a squad: where it stands and its label (for the refusals' words)."""

    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def label(self) -> str: ...


class Sited(Protocol):
    """What a bunker's distance reads of it: its section."""

    @property
    def section(self) -> int: ...


def zone_centre(zone: int) -> float:
    """x of the centre of landing zone ``zone`` (0-based), where its squads land (omaha.6, O3)."""
    return zone * ZONE_WIDTH + ZONE_WIDTH / 2


def section_at(x: float, width: float, count: int) -> int:
    """The section of ``width`` inches containing ``x``; sections are half-open [left, right) (O3).

    >>> section_at(11.99, 6, 4), section_at(12.0, 6, 4), section_at(24.0, 6, 4)
    (1, 2, 3)
    """
    section = math.floor(x / width)
    section = section if section > 0 else 0  # max(section, 0) without the call (it parses its arguments)
    return section if section < count else count - 1


def obstacle_section_at(state: Beach, x: float) -> int:
    """The obstacle section in front of a squad at ``x`` (O3): :func:`section_at`, worked out here (asked often)."""
    section = math.floor(x / OBSTACLE_SECTION_WIDTH)  # max(..., 0) and min(..., count - 1) without the calls
    count = len(state.obstacles)
    return (section if section > 0 else 0) if section < count else count - 1


def bunker_section_at(state: Beach, x: float) -> int:
    """The bunker section in front of a squad at ``x`` (O3): :func:`section_at`, worked out here (asked often)."""
    section = math.floor(x / BUNKER_SECTION_WIDTH)  # max(..., 0) and min(..., count - 1) without the calls
    count = 3 * state.germans
    return (section if section > 0 else 0) if section < count else count - 1


def bunker_centre(section: int) -> float:
    """x of a bunker in ``section``: the middle of the section (O3b)."""
    return section * BUNKER_SECTION_WIDTH + BUNKER_SECTION_WIDTH / 2


def exit_section(section: int, state: OmahaState) -> int:
    """The obstacle section in front of the bunker in ``section``: the one containing its centre (O3, O17)."""
    return _exit_section(section, len(state.obstacles))


@cache
def _exit_section(section: int, sections: int) -> int:
    """:func:`exit_section` on a beach of ``sections`` obstacle sections (asked often, never changing)."""
    return section_at(bunker_centre(section), OBSTACLE_SECTION_WIDTH, sections)


@cache
def footprint(section: int) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) of a bunker in ``section``: 3" by 2", its front 1" behind the band (O3b)."""
    cx = bunker_centre(section)
    half = BUNKER_WIDTH / 2
    return cx - half, BUNKER_FRONT_Y, cx + half, BUNKER_FRONT_Y + BUNKER_DEPTH


def bunker_distance(x: float, y: float, bunker: Sited) -> float:
    """Inches from a squad at (x, y) to the bunker's footprint."""
    return distance_to_rect(x, y, *footprint(bunker.section))


def nearest_bunker(x: float, y: float, bunkers: list[Bunker]) -> Bunker:
    """The first of ``bunkers`` (not empty) nearest to (x, y) by :func:`bunker_distance` (worked out here: the
    book asks it of every squad past the wall)."""
    best = bunkers[0]
    least = math.inf
    for bunker in bunkers:
        left, bottom, right, top = footprint(bunker.section)
        gap = math.hypot(  # distance_to_rect: max(left - x, 0.0, x - right) and so on, without the calls
            left - x if left > x else (x - right if x > right else 0.0),
            bottom - y if bottom > y else (y - top if y > top else 0.0),
        )
        if gap < least:
            best, least = bunker, gap
    return best


def in_contact(squad: Squad, bunker: Bunker) -> bool:
    """A squad is in contact with a bunker within 1" of it (omaha.18, O3b)."""
    return touching(squad.x, squad.y, bunker.section)


def touching(x: float, y: float, section: int) -> bool:
    """:func:`in_contact` of a squad at (x, y) and the bunker in ``section``: ``bunker_distance`` at most 1"."""
    left, bottom, right, top = footprint(section)
    dx = left - x if left > x else (x - right if x > right else 0.0)  # max(left - x, 0.0, x - right)
    dy = bottom - y if bottom > y else (y - top if y > top else 0.0)
    return math.hypot(dx, dy) <= CONTACT + TOLERANCE


CONTACT_FROM_Y = BUNKER_FRONT_Y - CONTACT - 2 * TOLERANCE
"""Below this y no squad is in contact with any bunker: it is over 1" (with the tolerance) from every front."""


def contact_point(bunker: Bunker) -> tuple[float, float]:
    """Where a squad stands to assault: the band's edge in front of the bunker's middle."""
    return bunker_centre(bunker.section), BAND_END_Y


def at_wall(y: float) -> bool:
    """At the sea wall, within the tolerance (omaha.15, O9): neither below it nor past it."""
    return WALL_Y - TOLERANCE <= y <= WALL_Y + TOLERANCE


def below_wall(y: float) -> bool:
    """Seaward of the sea wall: on the beach or in the water, not at the wall."""
    return y < BELOW_WALL_Y


BELOW_WALL_Y = WALL_Y - TOLERANCE
"""A squad whose y is below this is below the sea wall (for the hot paths; else :func:`below_wall`)."""


PAST_WALL_Y = WALL_Y + TOLERANCE
"""A squad whose y is above this has moved past the sea wall (for loops over every squad; else :func:`past_wall`)."""


def past_wall(y: float) -> bool:
    """Moved past the sea wall (beyond it, toward the Germans) (omaha.23)."""
    return y > PAST_WALL_Y


def move_cost(x0: float, y0: float, x1: float, y1: float) -> float:
    """Inches of the 6" allowance a straight move uses: water inches count double (O7).

    >>> move_cost(0, -2, 0, 4)
    8.0
    """
    length = math.hypot(x1 - x0, y1 - y0)
    if y0 >= 0 and y1 >= 0:
        return length
    if y0 <= 0 and y1 <= 0:
        return WATER_COST * length
    wet = (-y0 if y0 < 0 else -y1) / abs(y1 - y0)
    return length * (WATER_COST * wet + (1 - wet))


LIMIT_MARGIN = 1e-10
"""Relative distance from :func:`allowance_limit` beyond which ``move_cost`` is surely on one side
of the allowance: rounding in ``move_cost`` moves it by some 1e-14 of the limit at most."""


def allowance_limit(y0: float, dy: float, length: float) -> float:
    """The ``t`` at which a straight move from y ``y0`` along ``t * (dx, dy)`` uses the whole allowance.

    ``length`` is the length of ``(dx, dy)``, not zero. In exact arithmetic ``move_cost`` of the
    move is ``length * (t + (WATER_COST - 1) * wet)``, ``wet`` the part of ``t`` spent at y < 0.

    >>> round(-2.0 + 6.0 * allowance_limit(-2.0, 6.0, 6.0), 9)  # 2" of water (4" of allowance), 2" of beach
    2.0
    """
    budget = BEACH_MOVE / length  # the allowance in units of t, a dry inch costing one
    if dy > 0 and y0 < 0:  # wades ashore
        ashore = -y0 / dy
        if WATER_COST * ashore >= budget:
            return budget / WATER_COST
        return ashore + (budget - WATER_COST * ashore)
    if dy < 0 and y0 > 0:  # walks into the water
        afloat = y0 / -dy
        if afloat >= budget:
            return budget
        return afloat + (budget - afloat) / WATER_COST
    wet = y0 < 0 or (y0 == 0 and dy < 0)
    return budget / WATER_COST if wet else budget


def band_sections(state: Beach, x0: float, y0: float, x1: float, y1: float) -> range:
    """The obstacle sections a straight path crosses inside the obstacle band (empty if none).

    The band is entered when the path reaches past the wall and short of the
    band's far edge; the sections are those containing the x of every point of
    the path inside the band (O3's mapping).
    """
    # min and max written out as Python's own are (max(a, b) is b if b > a else a): every move's check asks
    low, high = (y1, y0) if y1 < y0 else (y0, y1)
    if high <= WALL_Y + TOLERANCE or low >= BAND_END_Y - TOLERANCE:
        return range(0)
    if y1 == y0:
        xa, xb = x0, x1
    else:
        ta = ((WALL_Y if WALL_Y > low else low) - y0) / (y1 - y0)
        tb = ((BAND_END_Y if BAND_END_Y < high else high) - y0) / (y1 - y0)
        xa, xb = x0 + ta * (x1 - x0), x0 + tb * (x1 - x0)
    # obstacle_section_at of each end, worked out here
    count = len(state.obstacles)
    first = math.floor((xb if xb < xa else xa) / OBSTACLE_SECTION_WIDTH)
    last = math.floor((xb if xb > xa else xa) / OBSTACLE_SECTION_WIDTH)
    first = (first if first > 0 else 0) if first < count else count - 1
    last = (last if last > 0 else 0) if last < count else count - 1
    return range(first, last + 1)


def table_bounds(state: Beach) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) of the table in inches."""
    return 0.0, -float(state.options["water"]), state.width, BAND_END_Y + float(state.options["ground"])


def check_move(state: Beach, squad: Standing, x: float, y: float) -> None:
    """Raise :class:`IllegalAction` unless ``squad`` may move straight to (x, y) this turn.

    omaha.5 (on the table), omaha.14 (6" with water double, O7), omaha.15
    (stop at the sea wall; cross later only through cleared sections, O14).

    A move from below the wall not past it crosses no obstacle: its legality hangs on the table and its ends
    alone, and those found legal are remembered (:data:`LEGAL_BELOW_WALL`).
    """
    bounds = table_bounds(state)
    key = None
    if squad.y < WALL_Y - TOLERANCE and y <= PAST_WALL_Y:
        key = (bounds, squad.x, squad.y, x, y)
        if key in LEGAL_BELOW_WALL:
            return
    _check_move(state, squad, x, y, bounds)
    if key is not None:
        if len(LEGAL_BELOW_WALL) >= REACHED_KEPT:
            LEGAL_BELOW_WALL.clear()
        LEGAL_BELOW_WALL.add(key)


LEGAL_BELOW_WALL: set[tuple[tuple[float, float, float, float], float, float, float, float]] = set()
"""Moves :func:`check_move` found legal from below the wall to no further than it, by (table bounds, x0, y0,
x, y): the squads wade up the same lines game after game (bounded as :data:`REACHED_BELOW_WALL`)."""


def _check_move(state: Beach, squad: Standing, x: float, y: float, bounds: tuple[float, float, float, float]) -> None:
    """:func:`check_move`, worked out."""
    left, bottom, right, top = bounds
    if not (left - TOLERANCE <= x <= right + TOLERANCE and bottom - TOLERANCE <= y <= top + TOLERANCE):
        raise IllegalAction(
            f"move {squad.label} to ({x:g}, {y:g}) leaves the table ({left:g}..{right:g} by {bottom:g}..{top:g})",
            "omaha.5",
        )
    cost = move_cost(squad.x, squad.y, x, y)
    if not cost <= BEACH_MOVE + TOLERANCE:  # at_most(cost, BEACH_MOVE)
        raise IllegalAction(
            f'move {squad.label} to ({x:g}, {y:g}) needs {cost:.2f}" of a 6" move (water inches count double)',
            "omaha.14",
        )
    if squad.y < BELOW_WALL_Y and y > PAST_WALL_Y:  # below_wall(squad.y) and past_wall(y)
        raise IllegalAction(
            f"move {squad.label}: figures must stop at the sea wall (y={WALL_Y:g}) this turn", "omaha.15"
        )
    for section in band_sections(state, squad.x, squad.y, x, y):
        count = state.obstacles[section]
        if count is None:
            raise IllegalAction(
                f"move {squad.label}: obstacle section O{section + 1} is not yet known, so not cleared", "omaha.15"
            )
        if count:
            raise IllegalAction(
                f"move {squad.label}: {counted(count, 'obstacle')} in section O{section + 1} "
                f"{'is' if count == 1 else 'are'} in the way",
                "omaha.15",
            )


REACHED_BELOW_WALL: dict[tuple[tuple[float, float, float, float], float, float, float, float], tuple[float, float]] = {}
"""Points :func:`reach` found for squads below the wall, by (table bounds, x0, y0, tx, ty): squads land
at the zones' centres and wade up the same lines game after game, so most moves are asked again."""

REACHED_KEPT = 1 << 16  # at most this many are kept (the dict is emptied when full)


def reach(
    state: Beach, squad: Standing, tx: float, ty: float, bounds: tuple[float, float, float, float] | None = None
) -> tuple[float, float]:
    """The legal point furthest along the straight line toward (tx, ty), never beyond it (bots, menus).

    Limits: the allowance (water double), the table's edge, the wall for a
    squad below it, and obstacles in the band. Returns a stored (snapped) point.

    For a squad below the wall the point depends on the table's bounds, the squad's position and
    the target alone (the wall stops it short of the band, so no obstacle counts), and is
    remembered in :data:`REACHED_BELOW_WALL`. ``bounds``, when given, are :func:`table_bounds` of ``state`` (a
    game keeps them: its options never change).
    """
    if bounds is None:
        bounds = table_bounds(state)
    if squad.y >= BELOW_WALL_Y:  # not below_wall(squad.y)
        return _reach(state, squad, tx, ty, bounds)
    key = (bounds, squad.x, squad.y, tx, ty)
    point = REACHED_BELOW_WALL.get(key)
    if point is None:
        if len(REACHED_BELOW_WALL) >= REACHED_KEPT:
            REACHED_BELOW_WALL.clear()
        point = REACHED_BELOW_WALL[key] = _reach(state, squad, tx, ty, bounds)
    return point


def _reach(
    state: Beach, squad: Standing, tx: float, ty: float, bounds: tuple[float, float, float, float]
) -> tuple[float, float]:
    """:func:`reach`, worked out; ``bounds`` are :func:`table_bounds` of ``state``."""
    x0, y0 = squad.x, squad.y
    dx, dy = tx - x0, ty - y0
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return x0, y0
    t = 1.0
    # the table's edges
    left, bottom, right, top = bounds
    for lo, hi, start, delta in ((left, right, x0, dx), (bottom, top, y0, dy)):
        if delta > 0:
            edge = (hi - start) / delta
            if edge < t:  # min(t, edge)
                t = edge
        elif delta < 0:
            edge = (lo - start) / delta
            if edge < t:
                t = edge
    # the wall, for a squad below it
    if y0 < BELOW_WALL_Y and dy > 0 and y0 + t * dy > WALL_Y:  # below_wall(y0)
        t = min(t, (WALL_Y - y0) / dy)
    # the allowance: the rule's t is a bisection's float answer, kept to the last bit; the exact
    # limit gives the same stored point unless that lands within a hair of a rounding tie, so
    # the bisection runs only then, or when obstacles below need its t
    put_off: float | None = None  # the allowance's limit while its bisection is put off
    if move_cost(x0, y0, x0 + t * dx, y0 + t * dy) > BEACH_MOVE:
        limit = allowance_limit(y0, dy, length)
        point = _snapped_clear(x0, y0, dx, dy, limit, t)
        if point is None:
            t = _bisect_allowance(x0, y0, dx, dy, t, limit)
            point = snap(x0 + t * dx), snap(y0 + t * dy)
        else:
            put_off = limit
    else:
        point = snap(x0 + t * dx), snap(y0 + t * dy)
    if _legal(state, squad, *point, bounds):
        return point
    if put_off is not None:
        t = _bisect_allowance(x0, y0, dx, dy, t, put_off)
    # obstacles in the band stop the path short: the legal prefix is an interval
    lo_t, hi_t = 0.0, t
    for _ in range(30):
        mid = (lo_t + hi_t) / 2
        if _legal(state, squad, snap(x0 + mid * dx), snap(y0 + mid * dy), bounds):
            lo_t = mid
        else:
            hi_t = mid
    x, y = snap(x0 + lo_t * dx), snap(y0 + lo_t * dy)
    return (x, y) if _legal(state, squad, x, y, bounds) else (x0, y0)


def _bisect_allowance(x0: float, y0: float, dx: float, dy: float, t: float, limit: float) -> float:
    """The furthest t found by 40 halvings of [0, t] whose move from (x0, y0) along ``t * (dx, dy)`` fits.

    ``limit`` is :func:`allowance_limit`: it answers every comparison not within
    :data:`LIMIT_MARGIN` of it, ``move_cost`` the rest, so the answer is the bisection's own.
    """
    sure_below, sure_above = limit * (1 - LIMIT_MARGIN), limit * (1 + LIMIT_MARGIN)
    lo_t, hi_t = 0.0, t
    for _ in range(40):
        mid = (lo_t + hi_t) / 2
        if mid < sure_below:
            fits = True
        elif mid > sure_above:
            fits = False
        else:
            fits = move_cost(x0, y0, x0 + mid * dx, y0 + mid * dy) <= BEACH_MOVE
        if fits:
            lo_t = mid
        else:
            hi_t = mid
    return lo_t


def _snapped_clear(x0: float, y0: float, dx: float, dy: float, limit: float, t: float) -> tuple[float, float] | None:
    """The stored point at ``limit`` along the move, if it is surely the one at :func:`_bisect_allowance`'s t.

    That t is within ``t / 2**40`` of the limit (and float noise, some 1e-14 of it): the stored
    points agree unless a coordinate lies that close to a rounding tie (half a hundredth);
    then ``None``.
    """
    slack = t * 2.0**-38 + limit * 1e-12  # four times the distance between the two t
    x, y = x0 + limit * dx, y0 + limit * dy
    # _tie_distance of each, worked out here
    if (
        abs((x * 100.0) % 1.0 - 0.5) / 100.0 <= slack * abs(dx) + 1e-11
        or abs((y * 100.0) % 1.0 - 0.5) / 100.0 <= slack * abs(dy) + 1e-11
    ):
        return None
    return snap(x), snap(y)


def _tie_distance(value: float) -> float:
    """How far ``value`` is from the nearest point where rounding to hundredths ties (x.xx5)."""
    return abs((value * 100.0) % 1.0 - 0.5) / 100.0


def _legal(
    state: Beach, squad: Standing, x: float, y: float, bounds: tuple[float, float, float, float] | None = None
) -> bool:
    """Whether :func:`check_move` takes the move; ``bounds``, when given, are the table's (:func:`table_bounds`)."""
    try:
        if bounds is None:
            check_move(state, squad, x, y)  # the moves found legal from below the wall are remembered
        else:
            _check_move(state, squad, x, y, bounds)  # check_move, its table's bounds known (reach remembers its own)
    except IllegalAction:
        return False
    return True
