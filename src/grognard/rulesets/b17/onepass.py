"""A fighter's decision measured in one pass (issue 33, item 3): every candidate at once, over arrays.

The fighter's doctrine (``bots.fighter_plans``) weighs its attacks on the closest bomber (the paths onto its
axis, ``attacks._bonus_attacks``; the grid's stops, ``attacks._generic_stops``) and, when it has none to fly,
its interceptions: the ends of the grid's paths (:func:`path_ends`). Here all of them are measured together,
each measure one numpy expression over every candidate:

- where the fighter stands at each attack's stop and at its path's end (``Path.snapped``: its sums, in its
  order, rounded as stored) and whether the path stays on the table (``Path.leaves_table_at``);
- the range from its nose to the bomber (``rules.attack_range``) and the +1 (``rules.head_on_or_behind``);
- the gunners it meets at every stop and end (``reckoning.guns_met_array``, one call for them all), and at
  every end whether the next move's straight leaves the table and which bombers' next reach it lies in
  (``ends``: the doctrine's clauses *edge* and *reach*).

A quick measure within ``reckoning.EDGE`` of a limit (1e-9 degrees for an angle) is measured again by the
rules' own function, so every verdict is the rules' (tests/test_b17_onepass.py compares each measure with the
plain one on many positions).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from grognard.core.geometry import ANGLE_TOLERANCE, TOLERANCE, snap_angle
from grognard.rulesets.b17 import ends as E
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import reckoning as K
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.data import ATTACK_RANGE, FIGHTER_STRAIGHT
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.state import Aircraft

ANGLE_EDGE = 1e-9  # degrees: a quick angle this close to a limit is measured again as the rules measure it
FIGHTER_TURNS = tuple(float(t) for t in range(-180, 180, 15) if t)  # the turns of the fighters' paths


def path_grid(length: float, minimum: float, turn_set: tuple[float, ...]) -> tuple[tuple[float, float], ...]:
    """The doctrine's paths as (straight, turn): straight ``minimum``, half-way or all of ``length``, then each
    turn of ``turn_set`` (none after a whole move straight), in that order; the grid of the fighters' attacks
    and the ends of their interceptions are the same paths."""
    out: list[tuple[float, float]] = []
    for straight in sorted({minimum, round((minimum + length) / 2, 2), length}):
        out += [(straight, 0.0)] if length - straight < 0.02 else [(straight, t) for t in turn_set]
    return tuple(out)


@lru_cache(maxsize=1024)
def _turned(heading: float, turns: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray, tuple[float, ...]]:
    """cos and sin of each heading after ``turns`` (``Path.new_heading``, measured as ``Path`` measures it)."""
    headings = tuple(snap_angle(heading + snap_angle(t)) for t in turns)
    rads = [math.radians(h) for h in headings]
    return np.array([math.cos(r) for r in rads]), np.array([math.sin(r) for r in rads]), headings


@lru_cache(maxsize=512)  # some 6 kB an entry; 2,000 raids ask about 200 headings (issue 33, item 6)
def _fan(heading: float, length: float, minimum: float, turn_set: tuple[float, ...]) -> tuple[Any, ...]:
    """What :func:`path_ends` needs of the paths from a heading, wherever they start (kept: a box's bombers
    share headings, turn after turn): the straights, turns and end headings (tuples); the ends' cosines and
    sines, the straight leg and the rest as offsets along x and y, which paths turn, and the end headings
    (arrays)."""
    rad = math.radians(heading)
    c, s = math.cos(rad), math.sin(rad)
    c1, s1, headings = _turned(heading, turn_set)
    straights: list[float] = []
    turns: list[float] = []
    cos_parts, sin_parts, h_parts = [], [], []
    for straight in sorted({minimum, round((minimum + length) / 2, 2), length}):
        if length - straight < 0.02:
            straights.append(straight)
            turns.append(0.0)
            after = length > straight
            h0 = snap_angle(heading + 0.0) if after else heading
            r0 = math.radians(h0)
            cos_parts.append(np.array([math.cos(r0) if after else c]))
            sin_parts.append(np.array([math.sin(r0) if after else s]))
            h_parts.append([h0])
        else:
            straights += [straight] * len(turn_set)
            turns += list(turn_set)
            cos_parts.append(c1)
            sin_parts.append(s1)
            h_parts.append(list(headings))
    straight_arr = np.array(straights)
    rest = length - straight_arr
    ch, sh = np.concatenate(cos_parts), np.concatenate(sin_parts)
    hs = tuple(h for part in h_parts for h in part)
    offsets = (straight_arr * c, straight_arr * s, rest * ch, rest * sh)
    return (tuple(straights), tuple(turns), hs, ch, sh, *offsets, rest > 0, np.array(hs))


def path_ends(a: Aircraft, length: float, minimum: float, turn_set: tuple[float, ...]) -> dict[str, Any]:
    """The doctrine's paths for ``a`` (:func:`path_grid`) and where they end, all at once: ``straight``,
    ``turn`` (tuples), ``x``, ``y`` (the ends as stored, ``Path.snapped``; lists, and ``xa``, ``ya`` arrays),
    ``h`` (the end's heading; a tuple, and ``ha`` an array), ``leaves`` (the centre leaves the table on the
    way, ``Path.leaves_table_at``), ``cos``, ``sin`` (of ``h``); the same floats as ``Path`` gives, bit for
    bit (the sums in its order; the rounding ``reckoning.snap_array``)."""
    straights, turns, hs, ch, sh, along_x, along_y, rest_x, rest_y, turned, ha = _fan(
        a.heading, length, minimum, turn_set
    )
    x1 = a.x + along_x
    y1 = a.y + along_y
    x2 = np.where(turned, x1 + rest_x, x1)
    y2 = np.where(turned, y1 + rest_y, y1)
    n = len(straights)
    snapped = K.snap_array(np.concatenate([x2, y2]))
    xa, ya = snapped[:n], snapped[n:]
    return {
        "straight": straights,
        "turn": turns,
        "x": xa.tolist(),
        "y": ya.tolist(),
        "xa": xa,
        "ya": ya,
        "h": hs,
        "ha": ha,
        "leaves": np.zeros(n, dtype=bool) if G.surely_on_table(a.x, a.y, length) else ~_both_on_table(x1, y1, x2, y2),
        "cos": ch,
        "sin": sh,
    }


def fan_legs(heading: float, length: float, minimum: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each of a fighter's paths (:func:`path_grid` with ``FIGHTER_TURNS``): its heading after the turn
    and that heading's cosine and sine (``Path.new_heading``; a path straight all the way keeps its heading)."""
    fan = _fan(heading, length, minimum, FIGHTER_TURNS)
    return fan[-1], fan[3], fan[4]


def _both_on_table(x1: np.ndarray, y1: np.ndarray, x2: np.ndarray, y2: np.ndarray) -> np.ndarray:
    """``geometry.table_contains`` of both points of each pair (the table is a rectangle: the least and the
    greatest of each coordinate on it)."""
    on: np.ndarray = (np.minimum(x1, x2) >= -TOLERANCE) & (np.maximum(x1, x2) <= G.TABLE_LENGTH + TOLERANCE)
    both: np.ndarray = on & (np.minimum(y1, y2) >= -TOLERANCE) & (np.maximum(y1, y2) <= G.TABLE_WIDTH + TOLERANCE)
    return both


@dataclass(frozen=True)
class Rows:
    """Attack plans checked as ``FlySpace.resolve`` checks a path and a stop (``attacks._checked_path``), as
    arrays: the plan's index (in the caller's list), the straight inches, the turn (snapped), the stop; the
    heading after the turn (``Path.new_heading``), its cosine and sine; the bomber attacked; and where the
    path ends: the index of its end among the paths' ends measured with the rows (:func:`measure`'s
    ``fan``), or -1 when the row's path is not one of them (its end is measured for it)."""

    plan: np.ndarray
    straight: np.ndarray
    turn: list[float]
    stop: np.ndarray
    heading: np.ndarray
    cos: np.ndarray
    sin: np.ndarray
    bombers: tuple[Aircraft, ...]
    end: np.ndarray

    def __len__(self) -> int:
        return len(self.turn)


NO_ROWS = Rows(  # a decision's attacks when it has none (arrays of no row: nothing to change in them)
    np.zeros(0, dtype=np.int64), np.zeros(0), [], np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0), (),
    np.zeros(0, dtype=np.int64),
)  # fmt: skip


def rows_of(f: Aircraft, found: Sequence[tuple[int, float, float, float, Aircraft]]) -> Rows:
    """:class:`Rows` of (plan, straight, turn, stop, bomber) tuples, the turned headings as ``Path`` turns."""
    turned: dict[float, tuple[float, float, float]] = {}
    for turn in {r[2] for r in found}:
        new_heading = snap_angle(f.heading + snap_angle(turn))
        rad = math.radians(new_heading)
        turned[turn] = (new_heading, math.cos(rad), math.sin(rad))
    legs = np.array([turned[r[2]] for r in found]).reshape(-1, 3)
    return Rows(
        np.array([r[0] for r in found], dtype=np.int64),
        np.array([r[1] for r in found], dtype=float),
        [r[2] for r in found],
        np.array([r[3] for r in found], dtype=float),
        legs[:, 0],
        legs[:, 1],
        legs[:, 2],
        tuple(r[4] for r in found),
        np.full(len(found), -1, dtype=np.int64),
    )


def joined(first: Rows, second: Rows) -> Rows:
    """The rows of both, ``first``'s first."""
    if not len(first):
        return second
    return Rows(
        np.concatenate([first.plan, second.plan]),
        np.concatenate([first.straight, second.straight]),
        first.turn + second.turn,
        np.concatenate([first.stop, second.stop]),
        np.concatenate([first.heading, second.heading]),
        np.concatenate([first.cos, second.cos]),
        np.concatenate([first.sin, second.sin]),
        first.bombers + second.bombers,
        np.concatenate([first.end, second.end]),
    )


@dataclass(frozen=True)
class Measured:
    """What :func:`measure` found, per row: the stop as stored (``x``, ``y``, ``h``), whether the path stays
    on the table (``stays``), the range at the stop (``reach``), no +1 there (``plain``), the gunners met at the
    stop and at the end, and at the end whether the next move's straight leaves the table (``off``) and the
    bombers' next reach (``next_reach``); and at each of the paths' ends (``fan``) the gunners met, whether
    the next move's straight leaves the table and the bombers' next reach (``fan_met``, ``fan_off``,
    ``fan_reach``)."""

    x: np.ndarray
    y: np.ndarray
    h: np.ndarray
    stays: np.ndarray
    reach: np.ndarray
    plain: np.ndarray
    at_stop: np.ndarray
    at_end: np.ndarray
    off: np.ndarray
    next_reach: np.ndarray
    fan_met: np.ndarray
    fan_off: np.ndarray
    fan_reach: np.ndarray


def measure(
    game: B17Game,
    f: Aircraft,
    length: float,
    rows: Rows,
    fan: dict[str, Any] | None = None,
    bombers: Sequence[Aircraft] | None = None,
) -> Measured:
    """Every row's measures (:class:`Measured`) and those of the paths' ends ``fan`` (:func:`path_ends`), in
    one pass: the gunners, the edge and the reach each measured by one call for every stop and end
    (``bombers``: the flying bombers, when the caller has them)."""
    n = len(rows)
    bombers = game.flying_bombers() if bombers is None else bombers
    if not n and fan is not None:  # no attack (half the fighters' decisions): the paths' ends alone
        met = K.guns_met_array(game.state.options, f, bombers, fan["xa"], fan["ya"], fan["ha"])
        off = _forced_off(f, length, fan["xa"], fan["ya"], fan["ha"])
        empty, no, none = np.zeros(0), np.zeros(0, dtype=bool), np.zeros(0, dtype=np.int64)
        reach = E.in_reach_array(game, f, fan["xa"], fan["ya"], bombers)
        return Measured(empty, empty, empty, no, empty, no, none, none, no, none, met, off, reach)
    rad = math.radians(f.heading)
    c, s = math.cos(rad), math.sin(rad)
    straight, stop, c1, s1 = rows.straight, rows.stop, rows.cos, rows.sin
    first = np.minimum(stop, straight)
    past = stop - straight
    after = past > 0
    fx, fy = f.x + first * c, f.y + first * s
    sx = np.where(after, fx + past * c1, fx)
    sy = np.where(after, fy + past * s1, fy)
    ends = [fan["xa"], fan["ya"], fan["ha"], fan["leaves"]] if fan is not None else [np.zeros(0)] * 4
    end, stays = rows.end, np.ones(n, dtype=bool)
    if n and fan is not None:
        stays = ~fan["leaves"][end]
    own = np.nonzero(end < 0)[0] if fan is not None else np.arange(n)
    if own.size:  # the rows whose path is not one of the fan's: their ends, after the fan's
        ends, stays, end = _own_ends(f, length, rows, own, ends, stays, end, c, s)
    snapped = K.snap_array(np.concatenate([sx, sy]))
    x, y = snapped[:n], snapped[n:]
    h = np.where(after, rows.heading, f.heading)
    if n:
        cos_at, sin_at = np.where(after, c1, c), np.where(after, s1, s)
        reach, plain = _reach(game, f, rows, x, y, h, cos_at, sin_at), _plain(game, rows, x, y, h)
    else:
        reach, plain = np.zeros(0), np.zeros(0, dtype=bool)
    at_x, at_y, at_h = np.concatenate([x, ends[0]]), np.concatenate([y, ends[1]]), np.concatenate([h, ends[2]])
    met = K.guns_met_array(game.state.options, f, bombers, at_x, at_y, at_h)
    off = _forced_off(f, length, ends[0], ends[1], ends[2])
    next_reach = E.in_reach_array(game, f, ends[0], ends[1], bombers)
    at_end = met[n:]
    k = len(fan["xa"]) if fan is not None else 0
    return Measured(
        x, y, h, stays, reach, plain, met[:n], at_end[end], off[end], next_reach[end],
        at_end[:k], off[:k], next_reach[:k],
    )  # fmt: skip


def _forced_off(f: Aircraft, length: float, x: np.ndarray, y: np.ndarray, h: np.ndarray) -> np.ndarray:
    """``ends.forced_off_array`` of ends of ``f``'s move (within ``length`` of it): none when the next 6" straight
    from every point within ``length`` of the fighter surely stays on the table."""
    if G.surely_on_table(f.x, f.y, length + FIGHTER_STRAIGHT):
        return np.zeros(len(x), dtype=bool)
    return E.forced_off_array(x, y, h)


def _own_ends(
    f: Aircraft,
    length: float,
    rows: Rows,
    own: np.ndarray,
    ends: list[np.ndarray],
    stays: np.ndarray,
    end: np.ndarray,
    c: float,
    s: float,
) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """The ends of the ``own`` rows (``Path.snapped`` at the path's length) after the ``ends`` already known
    (x, y, heading arrays), whether those rows' paths stay on the table, and every row's end's index."""
    straight, c1, s1 = rows.straight[own], rows.cos[own], rows.sin[own]
    x1, y1 = f.x + straight * c, f.y + straight * s  # the turn
    rest = length - straight
    turned = rest > 0
    ex = np.where(turned, x1 + rest * c1, x1)
    ey = np.where(turned, y1 + rest * s1, y1)
    snapped = K.snap_array(np.concatenate([ex, ey]))
    m, k = len(own), len(ends[0])
    stays, end = stays.copy(), end.copy()
    stays[own] = _both_on_table(x1, y1, ex, ey)
    end[own] = np.arange(k, k + m)
    eh = np.where(turned, rows.heading[own], f.heading)
    return (
        [np.concatenate([ends[0], snapped[:m]]), np.concatenate([ends[1], snapped[m:]]), np.concatenate([ends[2], eh])],
        stays,
        end,
    )


def _reach(
    game: B17Game,
    f: Aircraft,
    rows: Rows,
    x: np.ndarray,
    y: np.ndarray,
    h: np.ndarray,
    cos_at: np.ndarray,
    sin_at: np.ndarray,
) -> np.ndarray:
    """Inches from the fighter's nose at each row's stop to its bomber (``rules.attack_range``), all at once;
    shapely's measure where the quick one is within twice ``reckoning.EDGE`` of the attack range."""
    options = game.state.options
    bdims = {game.dims(b) for b in {b.label: b for b in rows.bombers}.values()}
    if len(bdims) != 1:  # bombers of different models: measure each as the rules do (never in the shipped game)
        where = zip(rows.bombers, x.tolist(), y.tolist(), h.tolist(), strict=True)
        return np.array([R.attack_range(options, f, px, py, ph, b) for b, px, py, ph in where], dtype=float)
    half = game.dims(f).length / 2
    nx = x + half * cos_at - 0.0 * sin_at + 0.0  # geometry.nose: local_to_world's sums
    ny = y + half * sin_at + 0.0 * cos_at + 0.0
    bx, by, bc, bs = _bomber_arrays(rows.bombers)
    reach: np.ndarray = K.footprint_distance_many(bdims.pop(), nx, ny, bx, by, bc, bs)
    for k in np.nonzero(np.abs(reach - (ATTACK_RANGE + TOLERANCE)) <= 2 * K.EDGE)[0].tolist():
        reach[k] = R.attack_range(options, f, float(x[k]), float(y[k]), float(h[k]), rows.bombers[k])
    return reach


def _bomber_arrays(bombers: tuple[Aircraft, ...]) -> tuple[Any, Any, Any, Any]:
    """The bombers' x, y and their headings' cosine and sine: floats when all the rows attack one bomber (they
    broadcast), else arrays."""
    first = bombers[0]
    if all(b is first for b in bombers):
        rad = math.radians(first.heading)
        return first.x, first.y, math.cos(rad), math.sin(rad)
    units = {b.label: (math.cos(math.radians(b.heading)), math.sin(math.radians(b.heading))) for b in bombers}
    return (
        np.array([b.x for b in bombers]),
        np.array([b.y for b in bombers]),
        np.array([units[b.label][0] for b in bombers]),
        np.array([units[b.label][1] for b in bombers]),
    )


def _plain(game: B17Game, rows: Rows, x: np.ndarray, y: np.ndarray, h: np.ndarray) -> np.ndarray:
    """For each row: no +1 at its stop (``rules.head_on_or_behind`` is None). Head-on needs the fighter within
    the tolerance of the bomber's axis ahead and flying within it of straight at the bomber; from behind, of
    the axis behind and of straight after it. The four angles are measured for every row at once; the rules'
    own test decides any row with an angle within ``ANGLE_EDGE`` of the limit."""
    tolerance = float(game.state.options["head_on_tolerance"])
    limit = tolerance + ANGLE_TOLERANCE
    first = rows.bombers[0]
    bx: Any
    by: Any
    bh: Any
    if all(b is first for b in rows.bombers):
        bx, by, bh = first.x, first.y, first.heading
    else:
        bx = np.array([b.x for b in rows.bombers])
        by = np.array([b.y for b in rows.bombers])
        bh = np.array([b.heading for b in rows.bombers])
    turn = h - bh
    at_it = np.abs(turn % 360.0 - 180.0)  # angle_between(h, bh + 180): flying straight at the bomber
    after_it = np.abs((turn + 180.0) % 360.0 - 180.0)  # angle_between(h, bh): straight after it
    where = np.degrees(np.arctan2(y - by, x - bx)) - bh  # the bearing from the bomber, off its heading
    ahead = np.abs((where + 180.0) % 360.0 - 180.0)  # angle_between(bearing, bh)
    behind = np.abs((where + 360.0) % 360.0 - 180.0)  # angle_between(bearing, bh + 180)
    angles = np.stack([at_it, after_it, ahead, behind])
    inside = angles <= limit
    plain: np.ndarray = ~((inside[0] & inside[2]) | (inside[1] & inside[3]))
    doubt = (np.abs(angles - limit) <= ANGLE_EDGE).any(axis=0)
    for k in np.nonzero(doubt)[0].tolist():
        b = rows.bombers[k]
        plain[k] = R.head_on_or_behind(b, float(x[k]), float(y[k]), float(h[k]), tolerance) is None
    return plain
