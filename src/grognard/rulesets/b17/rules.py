"""Measures of the B-17 rules: move allowances, paths, the box, entry, head-on, gunners in range.

Pure functions of the options, the aircraft and positions (see ``geometry`` for the axes); the game
calls them, and so do the bots and the faces, so every face measures as play does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, cast

import numpy as np
import shapely

from grognard.core.errors import IllegalAction
from grognard.core.geometry import ANGLE_TOLERANCE, TOLERANCE, angle_between, at_least, at_most, snap, snap_angle
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17.data import (
    ALTITUDE_BONUS,
    ARC_HALF_WIDTH,
    ATTACK_RANGE,
    BOMBER_MAX_TURN,
    BOMBER_MOVE,
    BOMBER_STRAIGHT,
    BOX_SPACING,
    DAMAGE_MOVE_LOSS,
    ENTRY_FARTHEST,
    ENTRY_NEAREST,
    FIGHTER_MOVE,
    FIGHTER_STRAIGHT,
    FIGHTER_TYPES,
    FLANK_MARGIN,
    GUN_AXIS,
    PAIRS,
    TABLE_LENGTH,
    TABLE_WIDTH,
)
from grognard.rulesets.b17.state import Aircraft

SLOTS = ("leader", "left", "right", "last")
Points = tuple[tuple[float, float], ...]  # (x, y) centres


def dims_of(options: Mapping[str, Any], model: str) -> G.Dims:
    """The model's measures from the options: a B-17, or a fighter type at ``fighter_scale`` (b17.3)."""
    return _dims(model, float(options["bomber_length"]), float(options["bomber_span"]), float(options["fighter_scale"]))


@lru_cache(maxsize=64)
def _dims(model: str, bomber_length: float, bomber_span: float, fighter_scale: float) -> G.Dims:
    if model == "B-17":
        return G.Dims(bomber_length, bomber_span, True)
    for name, length, span in FIGHTER_TYPES.values():
        if name == model:
            return G.Dims(round(length * fighter_scale, 2), round(span * fighter_scale, 2), False)
    raise ValueError(f"unknown model {model!r}")


def allowance(aircraft: Aircraft, altitude: str | None = None) -> float:
    """Inches ``aircraft`` flies this move: 14 (fighters) or 10 (B-17), a fighter's first move 6" longer
    above the bombers and 6" shorter below (b17.22), 2" less per damage point (b17.26, b17.28).

    >>> allowance(Aircraft("F1", "fighter", "Me-109", 1), "above")
    20.0
    >>> allowance(Aircraft("B1", "bomber", "B-17", 4, damaged=[1, 4]))
    6.0
    """
    if aircraft.bomber:
        base = BOMBER_MOVE
    else:
        base = FIGHTER_MOVE + (ALTITUDE_BONUS[altitude] if aircraft.moves == 0 and altitude else 0.0)
    return max(base - DAMAGE_MOVE_LOSS * aircraft.damage, 0.0)


def minimum_straight(aircraft: Aircraft, length: float) -> float:
    """Inches flown straight ahead before the turn: 6" for fighters, 3" for bombers, or the whole move
    if it is shorter (b17.25, b17.27)."""
    return min(BOMBER_STRAIGHT if aircraft.bomber else FIGHTER_STRAIGHT, length)


def max_turn(aircraft: Aircraft) -> float:
    """The largest turn, degrees: 90 for a bomber (b17.27), any angle (180) for a fighter (b17.25)."""
    return BOMBER_MAX_TURN if aircraft.bomber else 180.0


def path_to(aircraft: Aircraft, length: float, tx: float, ty: float) -> tuple[float, float] | None:
    """(straight, turn) of the one path of ``length`` inches from ``aircraft`` that ends at (tx, ty), or None.

    The path flies ``straight`` along the heading, turns once, then flies straight to the point:
    ``|Q - (P + s h)| = length - s`` gives ``s = (L^2 - |D|^2) / (2 (L - D.h))`` with ``D = Q - P``.
    """
    dx, dy = tx - aircraft.x, ty - aircraft.y
    rad = math.radians(aircraft.heading)
    along = dx * math.cos(rad) + dy * math.sin(rad)
    across = -dx * math.sin(rad) + dy * math.cos(rad)
    if abs(across) <= TOLERANCE and abs(along - length) <= TOLERANCE:
        return length, 0.0
    denominator = 2 * (length - along)
    if denominator <= 1e-9:
        return None
    s = (length * length - dx * dx - dy * dy) / denominator
    if s < -TOLERANCE or s > length + TOLERANCE:
        return None
    s = min(max(s, 0.0), length)
    turn = snap_angle(math.degrees(math.atan2(across, along - s)))
    return math.floor(s * 100 + 1e-6) / 100, turn


def head_on_or_behind(bomber: Aircraft, fx: float, fy: float, fheading: float, tolerance: float) -> str | None:
    """``"head-on"`` or ``"behind"`` when a fighter at (fx, fy) with ``fheading`` attacks ``bomber``
    directly from ahead or from behind, else None (b17.36; RULINGS B12).

    Directly means both: the fighter lies within ``tolerance`` degrees of the bomber's axis (bearing from
    the bomber's centre to the fighter's position), and flies within ``tolerance`` of straight at the bomber
    (opposite its heading, head-on) or straight after it (along its heading, from behind). Exactly on the
    tolerance counts.
    """
    limit = tolerance + ANGLE_TOLERANCE
    where = G.bearing(bomber.x, bomber.y, fx, fy)
    if angle_between(where, bomber.heading) <= limit and angle_between(fheading, bomber.heading + 180.0) <= limit:
        return "head-on"
    if angle_between(where, bomber.heading + 180.0) <= limit and angle_between(fheading, bomber.heading) <= limit:
        return "behind"
    return None


def attack_range(
    options: Mapping[str, Any], fighter: Aircraft, fx: float, fy: float, fh: float, bomber: Aircraft
) -> float:
    """Inches from the fighter's nose (at fx, fy, fh) to the nearest point of ``bomber`` (b17.34, B16)."""
    nose = G.nose(dims_of(options, fighter.model), fx, fy, fh)
    return G.distance_to(nose, G.footprint(dims_of(options, bomber.model), bomber.x, bomber.y, bomber.heading))


def guns_in_range(options: Mapping[str, Any], bomber: Aircraft, fighter: Aircraft) -> dict[str, float]:
    """The bomber's gun positions within 4" of the fighter's nearest point, with the distance (b17.44, B13).

    With the option ``firing_arcs`` a gun also needs the fighter's centre within 60 degrees of its axis.
    """
    fdims, bdims = dims_of(options, fighter.model), dims_of(options, bomber.model)
    if math.hypot(fighter.x - bomber.x, fighter.y - bomber.y) > gun_reach(fdims, bdims):
        return {}  # too far for any gun: no part of either model can be nearer
    arcs = bool(options["firing_arcs"])
    where = (bomber.x, bomber.y, bomber.heading, fighter.x, fighter.y, fighter.heading)
    return dict(_guns_in_range(arcs, fdims, bdims, *where))


@lru_cache(maxsize=64)
def gun_reach(fdims: G.Dims, bdims: G.Dims) -> float:
    """Inches between the centres beyond which no gun of the bomber is within 4" of the fighter."""
    return (
        ATTACK_RANGE + TOLERANCE + math.hypot(fdims.length, fdims.span) / 2 + math.hypot(bdims.length, bdims.span) / 2
    )


@lru_cache(maxsize=512)
def _guns_in_range(
    arcs: bool, fdims: G.Dims, bdims: G.Dims, bx: float, by: float, bh: float, fx: float, fy: float, fh: float
) -> tuple[tuple[str, float], ...]:
    """:func:`guns_in_range` of a bomber and a fighter standing so, kept: the gunners' fire asks it of the
    same two aircraft several times (the queue, the pair's choice, each gun's roll). Each gun's distance is
    measured quickly (``reckoning.footprint_distance``, plain floats); shapely measures them all
    (:func:`guns_in_range_measured`) when one in range lies within ``reckoning.EDGE`` of the limit or of a
    rounding's half (its 0.01" as kept), where the quick measure's last bits could decide otherwise."""
    from grognard.rulesets.b17.reckoning import EDGE, footprint_distance

    guns = G.gun_positions(bdims, bx, by, bh)
    distances = [footprint_distance(fdims, gx, gy, fx, fy, fh) for gx, gy in guns.values()]
    if any(d <= ATTACK_RANGE + TOLERANCE + EDGE and _doubtful(d, EDGE) for d in distances):
        return guns_in_range_measured(arcs, fdims, bdims, bx, by, bh, fx, fy, fh)
    return _within(arcs, guns, distances, bh, fx, fy)


def _doubtful(d: float, edge: float) -> bool:
    """Whether a quick distance ``d`` lies within ``edge`` of the attack range's limit or of a half of 0.01"."""
    scaled = d * 100.0
    return abs(d - (ATTACK_RANGE + TOLERANCE)) <= edge or abs(scaled - math.floor(scaled) - 0.5) <= 100.0 * edge


def guns_in_range_measured(
    arcs: bool, fdims: G.Dims, bdims: G.Dims, bx: float, by: float, bh: float, fx: float, fy: float, fh: float
) -> tuple[tuple[str, float], ...]:
    """:func:`guns_in_range` of a bomber and a fighter standing so, the long way: shapely's distance from each
    gun to the fighter's footprint."""
    shape = G.footprint(fdims, fx, fy, fh)
    guns = G.gun_positions(bdims, bx, by, bh)
    distances = np.asarray(shapely.distance(shapely.points(np.array(list(guns.values()))), shape)).tolist()
    return _within(arcs, guns, distances, bh, fx, fy)


def _within(
    arcs: bool, guns: dict[str, tuple[float, float]], distances: Sequence[float], bh: float, fx: float, fy: float
) -> tuple[tuple[str, float], ...]:
    """The guns within 4" (``distances``: each gun's, in ``guns``' order) and, with ``arcs``, with the fighter's
    centre in their arc, with the distance kept to 0.01"."""
    out: list[tuple[str, float]] = []
    for (gun, point), d in zip(guns.items(), distances, strict=True):
        if not at_most(float(d), ATTACK_RANGE):
            continue
        if arcs:
            axis = bh + GUN_AXIS[gun]
            off = angle_between(G.bearing(point[0], point[1], fx, fy), axis)
            if off > ARC_HALF_WIDTH + ANGLE_TOLERANCE:
                continue
        out.append((gun, round(float(d), 2)))
    return tuple(out)


def pair_options(in_range: Mapping[str, float], used: Sequence[str]) -> list[str]:
    """The gun pairs a bomber may fire at one target: those with a gun in range that has not yet fired this
    occasion (b17.45; RULINGS B13). ``nose-tail`` first."""
    return [pair for pair, guns in PAIRS.items() if any(g in in_range and g not in used for g in guns)]


# ----------------------------------------------------------------------------- the box
def standard_box(
    dims: G.Dims, lx: float, ly: float, gap: float = BOX_SPACING, wing_gap: float = BOX_SPACING
) -> tuple[tuple[float, float], ...]:
    """A diamond box facing the target end with its leader at (lx, ly): (leader, left, right, last) centres.

    ``gap`` is the leader's tail to the last bomber's nose, ``wing_gap`` the wingtip spacing (b17.14-b17.15).
    """
    length, span = dims.length, dims.span
    back = (length + gap) / 2
    side = (span + wing_gap) / 2
    return tuple(
        (snap(x), snap(y)) for x, y in ((lx, ly), (lx - back, ly + side), (lx - back, ly - side), (lx - 2 * back, ly))
    )


def box_problems(
    dims: G.Dims, positions: Sequence[tuple[float, float]], others: Sequence[tuple[float, float]] = ()
) -> list[tuple[str, str]]:
    """Every way ``positions`` (leader, left, right, last; heading 0) break the placement rules, as
    (rule, message); empty when the box is legal. ``others`` are bombers already placed (another box).

    Kept (a pure measure: every raid's bots weigh the same few boxes of the menu, b17.12-b17.15, b17.62)."""
    problems = _box_problems(dims, cast(Points, tuple(map(tuple, positions))), cast(Points, tuple(map(tuple, others))))
    return list(problems)


@lru_cache(maxsize=256)
def _box_problems(dims: G.Dims, positions: Points, others: Points) -> tuple[tuple[str, str], ...]:
    """:func:`box_problems` of a box and the bombers placed, worked out (shapely's footprints and overlaps)."""
    problems: list[tuple[str, str]] = []
    if len(positions) != len(SLOTS):
        return (("b17.14", f"a box is {len(SLOTS)} bombers (leader, left, right, last), not {len(positions)}"),)
    shapes = [G.footprint(dims, x, y, 0.0) for x, y in positions]
    for slot, shape in zip(SLOTS, shapes, strict=True):
        x0, y0, x1, y1 = shape.bounds
        if not (at_least(x0, ENTRY_NEAREST) and at_most(x1, ENTRY_FARTHEST)):
            problems.append(
                ("b17.12", f'the {slot} spans x={x0:.2f}..{x1:.2f}: every bomber must be 6" to 18" from the entry edge')
            )
        if not (at_least(y0, FLANK_MARGIN) and at_most(y1, TABLE_WIDTH - FLANK_MARGIN)):
            problems.append(("b17.13", f'the {slot} spans y={y0:.2f}..{y1:.2f}: 6" at least from the flank edges'))
    (lx, ly), (wx, wy), (rx, ry), (tx, ty) = positions
    if not (lx > max(wx, rx) and tx < min(wx, rx) and wy > ry and ry < ly < wy and ry < ty < wy):
        problems.append(
            ("b17.14", "not a diamond: the leader ahead, the last behind, the left and right bombers either side")
        )
    tail = G.local_to_world(lx, ly, 0.0, -dims.length / 2, 0.0)
    nose = G.local_to_world(tx, ty, 0.0, dims.length / 2, 0.0)
    gap = math.dist(tail, nose)
    if not at_least(gap, BOX_SPACING):
        problems.append(("b17.14", f"the leader's tail is {gap:.2f}\" from the last bomber's nose: 4\" at least"))
    wing = 0.08 * dims.length
    left_tip = G.local_to_world(wx, wy, 0.0, wing, -dims.span / 2)  # the right wingtip of the bomber on the left
    right_tip = G.local_to_world(rx, ry, 0.0, wing, dims.span / 2)
    tips = math.dist(left_tip, right_tip)
    if not at_least(tips, BOX_SPACING):
        problems.append(("b17.15", f'the wingtips of the left and right bombers are {tips:.2f}" apart: 4" at least'))
    if others:
        ys = [y for _, y in positions]
        theirs = [y for _, y in others]
        if not (max(ys) < min(theirs) or min(ys) > max(theirs)):
            problems.append(("b17.62", "the two boxes must fly side by side, not one inside the other"))
    placed = [G.footprint(dims, x, y, 0.0) for x, y in others]
    for i, shape in enumerate(shapes):
        for other in shapes[i + 1 :] + placed:
            if shape.intersection(other).area > 1e-6:
                problems.append(("b17.14", f"the {SLOTS[i]} overlaps another bomber"))
                break
    return tuple(problems)


# ----------------------------------------------------------------------------- entry
CENTRE = (TABLE_LENGTH / 2, TABLE_WIDTH / 2)


def entry_point(hour: int) -> tuple[float, float, float]:
    """(x, y, heading) of an element entering at ``hour`` on the clock face (b17.17-b17.18; RULINGS B10).

    The clock lies on the table's centre with 12 toward the target end and 3 on the bombers' right; the
    entry point is where that hour's ray meets the table's edge, the heading toward the centre.

    >>> entry_point(12), entry_point(6), entry_point(3)
    ((108.0, 30.0, 180.0), (0.0, 30.0, 0.0), (54.0, 0.0, 90.0))
    """
    direction = -30.0 * hour
    rad = math.radians(direction)
    c, s = math.cos(rad), math.sin(rad)
    cx, cy = CENTRE
    ts = []
    if abs(c) > 1e-12:
        ts.append(cx / abs(c))
    if abs(s) > 1e-12:
        ts.append(cy / abs(s))
    t = min(ts)
    return snap(cx + t * c), snap(cy + t * s), snap_angle(direction + 180.0)


def wingman_point(x: float, y: float, heading: float, span: float) -> tuple[float, float]:
    """Where the second fighter of an element enters: beside the first, a span and a half to its right
    (or left, if that is off the table), on the table."""
    for side in (-1.0, 1.0):
        px, py = G.local_to_world(x, y, heading, 0.0, side * 1.5 * span)
        if G.table_contains(px, py):
            return snap(px), snap(py)
    return snap(min(max(px, 0.0), TABLE_LENGTH)), snap(min(max(py, 0.0), TABLE_WIDTH))


def check_straight_and_turn(aircraft: Aircraft, length: float, straight: float, turn: float) -> None:
    """Refuse a path the rules forbid: too little straight flight, a move longer than the allowance, a turn
    too sharp or with nothing left to fly after it (b17.25, b17.27, b17.29)."""
    rule = "b17.27" if aircraft.bomber else "b17.25"
    minimum = minimum_straight(aircraft, length)
    if straight < minimum - TOLERANCE:
        raise IllegalAction(
            f'{aircraft.label} must fly {minimum:g}" straight ahead before turning, not {straight:g}"', rule
        )
    if straight > length + TOLERANCE:
        raise IllegalAction(
            f'{aircraft.label} flies {length:g}" this move; {straight:g}" straight is more than the move', "b17.29"
        )
    if abs(turn) > max_turn(aircraft) + ANGLE_TOLERANCE:
        raise IllegalAction(f"{aircraft.label} may turn at most {max_turn(aircraft):g} degrees, not {turn:g}", rule)
    if turn != 0 and length - straight < TOLERANCE:
        raise IllegalAction(
            f'{aircraft.label} turns {turn:g} degrees with nothing left of its {length:g}" to fly after the turn', rule
        )


def closest_bombers(options: Mapping[str, Any], fighter: Aircraft, bombers: Sequence[Aircraft]) -> list[Aircraft]:
    """The flying bombers nearest the fighter's nose (ties all kept) (b17.23)."""
    ranged = [
        (attack_range(options, fighter, fighter.x, fighter.y, fighter.heading, b), b) for b in bombers if b.flying
    ]
    if not ranged:
        return []
    best = min(d for d, _ in ranged)
    return [b for d, b in ranged if d <= best + TOLERANCE]
