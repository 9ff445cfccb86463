"""The rules of skirmish part 1 as functions of the terrain and positions: sight, range, cover, effect (a path's
measure: ``paths``).

Every function here is pure: it reads a :class:`~.terrain.Terrain` and
positions (inches) and returns a measure or a reason; the game calls them
to check actions, the bots and faces to look ahead. A refused action raises
:class:`IllegalAction` naming the rule (``skirmish.N``, docs/rules/skirmish.md).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from typing import cast

import numpy as np
import shapely
from shapely.affinity import rotate
from shapely.geometry import LineString, Point, Polygon

from grognard.core.geometry import TOLERANCE, snap_angle
from grognard.rulesets.skirmish.schema import HEAVY_IN_POND as HEAVY_IN_POND  # skirmish.53
from grognard.rulesets.skirmish.tables import Tables
from grognard.rulesets.skirmish.terrain import Building, CastleWall, Feature, Terrain, _points

XY = tuple[float, float]
CARRIED_HEAVY = ("mg", "mortar")  # seed: one man moves them 6" and they may fire (skirmish.54)


def burst_shape(points: Sequence[XY], at: XY, angle: float) -> Polygon:
    """A burst template laid on the table (skirmish.12): its corners ``points`` around (0, 0), turned
    ``angle`` degrees counter-clockwise and moved so that (0, 0) lands on ``at`` (inches)."""
    offset = np.array([at[0], at[1]], dtype=float)
    # shapely's translate adds 1 * x + 0 * y + xoff: exactly x + xoff, as here
    return shapely.transform(_turned(tuple(map(tuple, points)), angle), lambda c: c + offset)


def turned(points: Sequence[XY], angle: float) -> Polygon:
    """A template's corners ``points`` turned ``angle`` degrees about (0, 0), as :func:`burst_shape` turns them."""
    return _turned(tuple(map(tuple, points)), angle)


@functools.lru_cache(maxsize=4096)
def _turned(points: tuple[tuple[float, float], ...], angle: float) -> Polygon:
    """A template's corners turned ``angle`` degrees about (0, 0) (kept: the doctrine tries the same turns)."""
    return rotate(Polygon(points), angle, origin=(0.0, 0.0))


def under_template(template: Polygon, at: XY, base: float) -> bool:
    """A man standing at ``at`` is under ``template`` when his base (``base`` inches across) touches it,
    within the tolerance (skirmish.14): his centre at most half a base from the shape."""
    return bool(template.distance(point(at)) <= base / 2 + TOLERANCE)


@functools.lru_cache(maxsize=8192)  # kept: the doctrine lays many templates over the same men
def point(at: XY) -> Point:
    """The shapely point at ``at`` (an immutable shape, made once)."""
    return Point(at)


# ------------------------------------------------------------------------------ movement (a path's measure: paths.py)
def _pieces(geometry: object) -> list[LineString]:
    kind = getattr(geometry, "geom_type", "")
    if kind == "LineString":
        return [cast(LineString, geometry)]
    return [g for g in getattr(geometry, "geoms", []) if g.geom_type == "LineString"]


def _opening_at(building: Building | CastleWall, point: Point, *, doors_only: bool) -> str | None:
    """The door (or window) of ``building`` whose span holds ``point`` on the wall, if any."""
    return opening_at_xy(building, point.x, point.y, doors_only=doors_only)


def opening_at_xy(building: Building | CastleWall, x: float, y: float, *, doors_only: bool) -> str | None:
    """:func:`_opening_at` at the point (x, y)."""
    for opening in building.openings:
        if doors_only and not opening.door:
            continue
        if math.hypot(x - opening.at[0], y - opening.at[1]) <= opening.width / 2 + TOLERANCE:
            return opening.id
    return None


# ------------------------------------------------------------------------------ sight
def line_of_sight(terrain: Terrain, a: XY, b: XY, open_doors: Iterable[str] = ()) -> str | None:
    """Why the line from ``a`` to ``b`` is blocked, or ``None`` if they see each other (skirmish.11).

    The rule is written down in the ``terrain`` module's docstring.
    """
    if math.hypot(b[0] - a[0], b[1] - a[1]) <= TOLERANCE:
        return None
    line = LineString([a, b])
    opened = set(open_doors)
    for building in terrain.buildings:
        if not building.shape.intersects(line):
            continue
        for point in _points(line.intersection(building.shape.exterior)):
            opening = _opening_at(building, point, doors_only=False)
            if opening is None or (terrain.openings[opening].door and opening not in opened):
                return f"building {building.id}"
    reach = terrain.tables.sight.over_reach.value
    pa, pb = Point(a), Point(b)
    for feature in terrain.sight_blockers:
        if not feature.shape.intersects(line):
            continue
        crossing = line.intersection(feature.shape)
        if crossing.length <= TOLERANCE:
            continue  # grazes an end or a corner
        if crossing.distance(pa) <= reach + TOLERANCE or crossing.distance(pb) <= reach + TOLERANCE:
            continue  # a man at the wall fires over it (the line crosses it within his reach)
        return f"{feature.kind.replace('_', ' ')} {feature.id}"
    crest = hill_in_the_way(terrain, line, a, b)
    if crest is not None:
        return f"the crest of hill {crest}"
    return None


def hill_in_the_way(terrain: Terrain, line: LineString, a: XY, b: XY) -> str | None:
    """The hill whose top rises above the sight line, if any (skirmish.11).

    A point of the line over a hill blocks when the hill's top is higher than
    the line there, unless the point is within ``crest_reach`` of either man
    along the line, or it is within ``crest_reach`` of the hill's edge while a
    man standing on that hill is within ``crest_reach`` of its edge too (a man
    at the crest sees down over it, and is seen).
    """
    if not terrain.hills:
        return None
    ha, hb = terrain.height(*a), terrain.height(*b)
    length = line.length
    reach = terrain.tables.sight.crest_reach.value
    if length - reach <= reach:
        return None
    for hill in terrain.hills:
        if hill.height <= min(ha, hb) + TOLERANCE or not hill.shape.intersects(line):
            continue
        spans: list[list[float]] = []
        for piece in _pieces(line.intersection(hill.shape)):
            ends = shapely.points(shapely.get_coordinates(piece)[[0, -1]])
            spans.append(np.asarray(shapely.line_locate_point(line, ends)).tolist())
        if crest_blocks(terrain, hill, line, a, b, (ha, hb, length), spans):
            return hill.id
    return None


def crest_blocks(
    terrain: Terrain,
    hill: Feature,
    line: LineString,
    a: XY,
    b: XY,
    heights: tuple[float, float, float],
    spans: Iterable[Sequence[float]],
) -> bool:
    """``hill``'s top rises above the sight line from ``a`` to ``b`` (``hill_in_the_way`` for one hill).

    ``heights``: the ground heights at ``a`` and ``b`` and the line's length; ``spans``: where along the
    line (inches from ``a``) each piece of the line over the hill starts and ends, as line_locate_point
    gives them for the piece's first and last points."""
    ha, hb, length = heights
    reach = terrain.tables.sight.crest_reach.value
    lo, hi = reach, length - reach
    edge = hill.shape.boundary
    at_crest: list[XY] | None = None  # worked out when a point of the line is first found under the top
    for span in spans:
        s0, s1 = sorted(span)
        s0, s1 = max(s0, lo), min(s1, hi)
        if s1 - s0 <= TOLERANCE:
            continue  # the hill lies only within reach of a man along the line
        steps = max(2, int((s1 - s0) / 0.25) + 1)
        # the points every 0.25" or so, as s0 + (s1 - s0) * k / steps (the same sums, over an array)
        along = s0 + (s1 - s0) * np.arange(steps + 1) / steps
        sight = ha + (hb - ha) * along / length
        for s_ in along[~(hill.height <= sight + TOLERANCE)].tolist():
            if at_crest is None:
                at_crest = [
                    end
                    for end, h in ((a, ha), (b, hb))
                    if h >= hill.height - TOLERANCE and _at_edge(terrain, hill, end)
                ]
            if at_crest and edge.distance(line.interpolate(s_)) <= reach + TOLERANCE:
                continue  # the crest in front of a man who stands at it
            return True
    return False


def _at_edge(terrain: Terrain, hill: Feature, end: XY) -> bool:
    """A man at ``end`` stands on ``hill`` (covers a point = meets it) within ``crest_reach`` of its edge
    (kept with the terrain: the hills never change)."""
    key = (hill.id, end)
    found = terrain.crests.get(key)
    if found is None:
        reach = terrain.tables.sight.crest_reach.value
        found = bool(shapely.intersects_xy(hill.shape, *end)) and hill.shape.boundary.distance(Point(end)) <= reach
        if len(terrain.crests) < 100_000:
            terrain.crests[key] = found
    return found


# ------------------------------------------------------------------------------ range and cover
def effective_range(terrain: Terrain, a: XY, b: XY) -> float:
    """The range from a firer at ``a`` to a target at ``b``, adjusted up or down hill (skirmish.25).

    The measured distance, plus ``range_uphill_per_inch`` for each inch the
    target stands higher, less ``range_downhill_per_inch`` for each inch lower;
    never below 0.
    """
    return range_between(terrain, a, b, terrain.height(*a), terrain.height(*b))


def range_between(terrain: Terrain, a: XY, b: XY, height_a: float, height_b: float) -> float:
    """:func:`effective_range` with the ground heights (inches) at ``a`` and ``b`` given."""
    distance = math.hypot(b[0] - a[0], b[1] - a[1])
    rise = height_b - height_a
    hills = terrain.tables.hills
    if rise > 0:
        distance += rise * hills.range_uphill_per_inch.value
    elif rise < 0:
        distance += rise * hills.range_downhill_per_inch.value
    return max(0.0, distance)


def cover(terrain: Terrain, shooter: XY, target: XY, attack: str) -> str | None:
    """The terrain covering a man at ``target`` from a shot by ``attack`` from ``shooter``, or ``None``.

    One lookup (skirmish.32-34, 43): each row of the tables' ``cover`` list
    names a terrain, a test (``inside``, ``behind``, ``in_building``,
    ``cliff_top``) and the attacks it covers against; the first row whose test
    holds gives the cover. Cover is never counted twice.
    """
    for row in terrain.cover_rows(attack):
        test = COVER_TESTS[row.when]
        if test(terrain, row.terrain, shooter, target):
            if row.when == "in_building" and not _building_stands_for(terrain, target, attack):
                continue
            return row.terrain
    return None


def cover_possible(terrain: Terrain, target: XY, attack: str) -> bool:
    """Whether any row of the cover lookup against ``attack`` could hold for a man at ``target``, whoever
    fires: False only where :func:`cover` gives ``None`` from every firer (a short cut, not a rule).

    A row's test can hold only if the man is inside a piece of its kind (``inside``, ``in_building``,
    ``aboard``), or a piece of its kind lies within the row's reach of him (``behind``: the crossing of the
    sight line is part of the wall, so no nearer to him than the wall; ``cliff_top``: its own first test).
    """
    tx, ty = target
    for row in terrain.cover_rows(attack):
        when, kind = row.when, row.terrain
        if when == "inside":
            if terrain.inside(kind, *target):
                return True
        elif when == "behind":
            reach = terrain.tables.sight.over_reach.value + TOLERANCE + 1e-6  # 1e-6: the crossing's rounding
            # a piece lies in its box: one whose box is farther than the reach (by more than rounding) is too
            if any(
                f.kind == kind
                and math.hypot(max(x0 - tx, 0.0, tx - x1), max(y0 - ty, 0.0, ty - y1)) <= reach + 1e-9
                and f.shape.distance(Point(target)) <= reach
                for f, (x0, y0, x1, y1) in terrain.blocker_boxes
            ):
                return True
        elif when == "in_building":
            if terrain.building_at(*target) is not None:
                return True
        elif when == "cliff_top":
            reach = terrain.tables.sight.cliff_reach.value
            if any(c.shape.distance(Point(target)) <= reach + TOLERANCE for c in terrain.cliffs):
                return True
        elif when == "aboard":
            if terrain.aboard(kind, *target):
                return True
        else:
            return True  # a test this short cut does not know: let cover() decide
    return False


RUBBLE_COVERS = ("small_arms", "mg")  # skirmish.18: rubble (NO TOP COVER) gives only small-arms cover


def _building_stands_for(terrain: Terrain, target: XY, attack: str) -> bool:
    """The section the man is in still covers him against ``attack``: not collapsed, and rubble only
    against small arms (and MGs, which anything reasonable covers against) (skirmish.18)."""
    from grognard.rulesets.skirmish.terrain import ALL_DEAD, NO_TOP_COVER

    section = terrain.section_at(*target)
    if section is None:
        return True
    state = terrain.section_states.get(section.id)
    if state == ALL_DEAD:
        return False
    return state != NO_TOP_COVER or attack in RUBBLE_COVERS


def _inside(terrain: Terrain, kind: str, shooter: XY, target: XY) -> bool:
    return terrain.inside(kind, *target)


def _behind(terrain: Terrain, kind: str, shooter: XY, target: XY) -> bool:
    """The feature lies on the line between the men, within ``over_reach`` of the target (RULINGS S14)."""
    reach = terrain.tables.sight.over_reach.value
    # only a piece whose box comes within the reach of the target can hold (the crossing is part of it)
    tx, ty = target
    near = reach + TOLERANCE + 1e-6
    candidates = [
        f
        for f, (x0, y0, x1, y1) in terrain.blocker_boxes
        if f.kind == kind and math.hypot(max(x0 - tx, 0.0, tx - x1), max(y0 - ty, 0.0, ty - y1)) <= near
    ]
    if not candidates:
        return False
    line = LineString([shooter, target])
    if line.length <= TOLERANCE:
        return False
    pt = Point(target)
    for feature in candidates:
        if not feature.shape.intersects(line):
            continue
        crossing = line.intersection(feature.shape)
        if crossing.length > TOLERANCE and crossing.distance(pt) <= reach + TOLERANCE:
            if not feature.shape.covers(Point(shooter)):
                return True
    return False


def _in_building(terrain: Terrain, kind: str, shooter: XY, target: XY) -> bool:
    """The target is inside a building and the firer is not in the same one (another house's window counts)."""
    house = terrain.building_at(*target)
    return house is not None and terrain.building_at(*shooter) is not house


def _cliff_top(terrain: Terrain, kind: str, shooter: XY, target: XY) -> bool:
    """The target is within ``cliff_reach`` of a cliff, above the firer, and the cliff is between them (S14)."""
    reach = terrain.tables.sight.cliff_reach.value
    if terrain.height(*target) <= terrain.height(*shooter):
        return False
    line = LineString([shooter, target])
    pt = Point(target)
    return any(c.shape.distance(pt) <= reach + TOLERANCE and c.shape.intersects(line) for c in terrain.cliffs)


def _aboard(terrain: Terrain, kind: str, shooter: XY, target: XY) -> bool:
    """The target rides in or on a vehicle of ``kind`` (skirmish.35-38): he stands in its footprint."""
    return terrain.aboard(kind, *target)


COVER_TESTS = {
    "inside": _inside,
    "behind": _behind,
    "in_building": _in_building,
    "cliff_top": _cliff_top,
    "aboard": _aboard,
}


# ------------------------------------------------------------------------------ the MG and flame thrower wedge
ARC_STEP = 0.25  # degrees between the points of a wedge's arc (the arc is inside the true one by < 0.001")


def bearing(a: XY, b: XY) -> float:
    """The heading from ``a`` to ``b``: degrees counterclockwise from east (0 east, 90 north), in (-180, 180].

    >>> bearing((0, 0), (0, 5)), bearing((0, 0), (-3, 0)), bearing((0, 0), (1, -1))
    (90.0, 180.0, -45.0)
    """
    return snap_angle(math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])))


def wedge_length(terrain: Terrain, apex: XY, at: XY, reach: float) -> float:
    """How far (inches, on the table) the wedge of a gun at ``apex`` reaches for a man standing at ``at``.

    The seed's three patterns (skirmish.16): flat, ``reach`` itself; uphill,
    shorter by ``range_uphill_per_inch`` for each inch the man stands above
    the gun; downhill, longer by ``range_downhill_per_inch`` for each inch
    below, exactly as his range is adjusted (skirmish.25, ``effective_range``).
    """
    rise = terrain.height(*at) - terrain.height(*apex)
    hills = terrain.tables.hills
    if rise > 0:
        return reach - rise * hills.range_uphill_per_inch.value
    if rise < 0:
        return reach - rise * hills.range_downhill_per_inch.value
    return reach


def off_arc(origin: XY, heading: float, arc: float, at: XY) -> float:
    """Degrees by which the point ``at`` lies outside a piece's firing arc (skirmish.55): the arc is ``arc``
    degrees either side of ``heading`` from ``origin``; 0.0 when inside it or on its edge (within 0.01
    degree, the angles' stored precision) or at the piece itself.

    >>> off_arc((0, 0), 90.0, 45.0, (10, 10)), off_arc((0, 0), 90.0, 45.0, (10, 9)), off_arc((0, 0), 0.0, 45.0, (-1, 0))
    (0.0, 3.01, 135.0)
    """
    if math.hypot(at[0] - origin[0], at[1] - origin[1]) <= TOLERANCE:
        return 0.0
    turn = abs((bearing(origin, at) - heading + 180.0) % 360.0 - 180.0)
    return 0.0 if turn <= arc + 0.01 else round(turn - arc, 2)


@functools.lru_cache(maxsize=1024)  # kept: one wedge is tested against many men
def sector(apex: XY, heading: float, angle: float, length: float) -> Polygon:
    """The pie wedge on the table: from ``apex`` between ``heading`` +- ``angle``/2 (degrees) out to ``length``".

    >>> round(sector((0, 0), 0.0, 30.0, 10.0).area, 2)  # 30/360 of a 10" circle: 26.18
    26.18
    """
    steps = max(2, math.ceil(angle / ARC_STEP))
    arc = [
        (
            apex[0] + length * math.cos(math.radians(heading - angle / 2 + angle * k / steps)),
            apex[1] + length * math.sin(math.radians(heading - angle / 2 + angle * k / steps)),
        )
        for k in range(steps + 1)
    ]
    return Polygon([apex, *arc])


def under_wedge(terrain: Terrain, apex: XY, heading: float, angle: float, reach: float, at: XY, base: float) -> bool:
    """A man at ``at`` is under the wedge: his base (``base`` inches across) is inside it or touches it.

    The wedge is the pattern for the man's own height (``wedge_length``); a
    base touches when its centre is within half a base of the pie (within
    0.01"), so a man exactly on an edge, or whose base just reaches the arc,
    is under it (skirmish.16).
    """
    touch = base / 2 + TOLERANCE
    d = math.hypot(at[0] - apex[0], at[1] - apex[1])
    off = abs(math.remainder(math.degrees(math.atan2(at[1] - apex[1], at[0] - apex[0])) - heading, 360.0))
    if off > angle / 2 and d > touch and angle <= 180.0:
        # out of its angle: no nearer the pie (of any length) than to the nearer of its two edges' rays
        aside = off - angle / 2
        gap = d * math.sin(math.radians(aside)) if aside < 90.0 else d
        if gap > touch + 1e-7:
            return False
    length = wedge_length(terrain, apex, at, reach)
    if length <= TOLERANCE:
        return False
    if d > length + touch:
        return False
    if off <= angle / 2:
        return True  # within the angle and the arc (or touching it)
    if d <= touch:
        return True  # his base covers the apex
    if angle <= 180.0 and _off_edges(apex, heading, angle, length, at) < touch - 1e-7:
        return True  # nearer than that to a straight edge, which is an edge of the polygon too
    return bool(sector(apex, heading, angle, length).distance(Point(at)) <= touch)


def _off_edges(apex: XY, heading: float, angle: float, length: float, at: XY) -> float:
    """How far ``at`` lies from the nearer of the two straight edges of :func:`sector`'s pie (inches), as
    worked out here: within rounding (< 1e-12") of the distance from those edges of the polygon."""
    out = math.inf
    px, py = at[0] - apex[0], at[1] - apex[1]
    for side in (-1, 1):
        theta = math.radians(heading + side * angle / 2)
        ux, uy = math.cos(theta), math.sin(theta)
        t = min(max(px * ux + py * uy, 0.0), length)
        out = min(out, math.hypot(px - t * ux, py - t * uy))
    return out


def wedge_outline(
    terrain: Terrain, apex: XY, heading: float, angle: float, reach: float, step: float = 0.25
) -> list[XY]:
    """The wedge as it lies over the table's hills, for drawing: the apex, then for each degree across it the
    furthest point (sampled every ``step`` inches) that the pattern for its own height reaches; without hills,
    the flat pie."""
    if not terrain.hills:
        return [(p[0], p[1]) for p in sector(apex, heading, angle, reach).exterior.coords[:-1]]
    out: list[XY] = [apex]
    longest = reach + max(h.height for h in terrain.hills) * terrain.tables.hills.range_downhill_per_inch.value
    steps = max(2, math.ceil(angle))
    for k in range(steps + 1):
        theta = math.radians(heading - angle / 2 + angle * k / steps)
        far = 0.0
        d = step
        while d <= longest + TOLERANCE:
            x, y = apex[0] + d * math.cos(theta), apex[1] + d * math.sin(theta)
            if d <= wedge_length(terrain, apex, (x, y), reach) + TOLERANCE:
                far = d
            d += step
        out.append((apex[0] + far * math.cos(theta), apex[1] + far * math.sin(theta)))
    return out


def shot_numbers(
    tables: Tables, weapon: str, target_type: str, distance: float, covered: bool, six_hits: bool = False
) -> tuple[int, int, int]:
    """(band index, hit_on, shift) of a shot, or raises ValueError out of range (skirmish.8, 24, 32, 9);
    ``six_hits``: the option ``cover_six = hits`` (:func:`cover_shift`)."""
    band = tables.band_index(weapon, distance)
    if band is None:
        raise ValueError("out of range")
    hit_on = tables.weapons[weapon].bands[band].hit_on
    type_shift = tables.men[target_type].hit_shift
    return band, hit_on, type_shift + cover_shift(covered, hit_on, type_shift, six_hits)


def cover_shift(covered: bool, hit_on: int, type_shift: int = 0, six_hits: bool = False) -> int:
    """What cover does to the hit die (skirmish.32): -1 (RULINGS S4: so where a 6 alone hits, a man in cover
    cannot be hit); with ``six_hits`` (the option ``cover_six = hits``) 0 where a 6 alone hits him in the open
    (``hit_on - type_shift >= 6``), so a 6 always hits.

    >>> cover_shift(True, 6), cover_shift(True, 6, six_hits=True), cover_shift(True, 5, six_hits=True)
    (-1, 0, -1)
    """
    if not covered or (six_hits and hit_on - type_shift >= 6):
        return 0
    return -1


def in_contact(a: XY, b: XY, base: float) -> bool:
    """Two figures are in contact when their bases touch: centres at most a base's width apart (skirmish.10, 66)."""
    return math.hypot(b[0] - a[0], b[1] - a[1]) <= base + TOLERANCE


def overlaps(a: XY, b: XY, base: float) -> bool:
    """Two bases overlap: centres closer than a base's width (no man may stand or pass there)."""
    return math.hypot(b[0] - a[0], b[1] - a[1]) < base - TOLERANCE


def path_near(points: Sequence[XY], other: XY, reach: float) -> bool:
    """The path comes closer than ``reach`` to ``other`` anywhere."""
    if len(points) < 2:
        return math.hypot(points[0][0] - other[0], points[0][1] - other[1]) < reach - TOLERANCE
    # the path lies in its bounding box: a point that far from the box (by more than rounding) is not near
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    ox, oy = other
    gap = math.hypot(max(min(xs) - ox, 0.0, ox - max(xs)), max(min(ys) - oy, 0.0, oy - max(ys)))
    if gap >= reach - TOLERANCE + 1e-6:
        return False
    return LineString(points).distance(Point(other)) < reach - TOLERANCE
