"""The fighter automaton's attacks (b17.23, b17.30, b17.34, b17.36; RULINGS B19): found and scored all at once.

A fighter's attack plans are a path (straight inches, a turn) and a stop within 4" of a bomber. The
doctrine (``bots``) weighs dozens a decision: the paths that bring its nose onto a bomber's axis
(:func:`_bonus_attacks`), a grid of paths and stops (:func:`_generic_stops`), and each plan's score
(:func:`_score_rows`: off the table, not a bonus attack, gunners met at the stop and the end, at the
stop, the stop). They are measured here with plain trigonometry on arrays (``reckoning``); wherever a
quick measure lies within ``reckoning.EDGE`` of a limit the rules' own measure (shapely) decides, so
the bots choose exactly as if every plan had gone through ``FlySpace.resolve``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
import shapely

from grognard.core.geometry import ANGLE_TOLERANCE, TOLERANCE, angle_between, snap, snap_angle
from grognard.rulesets.b17 import ends as E
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import reckoning as K
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly
from grognard.rulesets.b17.data import ATTACK_RANGE
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.spaces import FlySpace
from grognard.rulesets.b17.state import Aircraft

Score = tuple[bool, bool, int, int, float]  # off the table now or next move, plain (no +1), gunners met in all
# (at the stop, the end and the bombers' next reach), at the stop, the stop
Row = tuple[int, float, float, float, Aircraft]  # plan, straight, turn, stop, bomber


def _unit(heading: float) -> tuple[float, float]:
    rad = math.radians(heading)
    return math.cos(rad), math.sin(rad)


def _floor2(value: float) -> float:
    return math.floor(value * 100 + 1e-6) / 100


def guns_met(game: B17Game, fighter: Aircraft, x: float, y: float, h: float, skip: str | None = None) -> int:
    """How many gunners could fire at ``fighter`` if it stood at (x, y, h): per bomber its better pair."""
    return _guns_met(game, fighter, [(x, y, h)], skip)[0]


def _guns_met(
    game: B17Game, fighter: Aircraft, at: list[tuple[float, float, float]], skip: str | None = None
) -> list[int]:
    """:func:`guns_met` for many positions at once (numpy; ``reckoning`` measures as ``rules`` does)."""
    bombers = [b for b in game.flying_bombers() if b.label != skip]
    xs, ys, hs = [p[0] for p in at], [p[1] for p in at], [p[2] for p in at]
    return K.guns_met_many(game.state.options, fighter, bombers, xs, ys, hs)


def _bonus_attacks(game: B17Game, f: Aircraft, target: Aircraft, length: float, minimum: float) -> list[Fly]:
    """Paths that bring the fighter onto the bomber's axis, directly head-on or from behind, within 4"."""
    dims = game.dims(f)
    bdims = game.dims(target)
    out = []
    hx, hy = _unit(f.heading)
    for mode in ("head-on", "behind"):
        phi = snap_angle(target.heading + (180.0 if mode == "head-on" else 0.0))
        px, py = _unit(phi)
        bx, by = _unit(target.heading)
        end = bdims.length / 2 if mode == "head-on" else -bdims.length / 2
        sign = 1.0 if mode == "head-on" else -1.0
        for gap in (3.5, 2.5, 1.5, 0.8):
            # the fighter's nose 'gap' inches beyond the bomber's nose (or tail), on its axis
            nx = target.x + bx * (end + sign * gap)
            ny = target.y + by * (end + sign * gap)
            cx, cy = nx - px * dims.length / 2, ny - py * dims.length / 2
            dx, dy = cx - f.x, cy - f.y
            det = hx * py - hy * px
            if abs(det) < 1e-9:
                along = dx * hx + dy * hy
                if abs(-dx * hy + dy * hx) > TOLERANCE or along < 0 or along > length:
                    continue
                if angle_between(f.heading, phi) > 1:
                    continue
                out.append(Fly(f.label, length, 0.0, target.label, _floor2(along)))
                continue
            s_ = (dx * py - dy * px) / det
            t_ = (hx * dy - hy * dx) / det
            if s_ < minimum - TOLERANCE or t_ < 0.05 or s_ + t_ > length:
                continue
            s2 = max(_floor2(s_ + 0.004), minimum)
            out.append(Fly(f.label, s2, snap_angle(phi - f.heading), target.label, round(s2 + t_, 2)))
    return out


@lru_cache(maxsize=64)
def _grid_paths(length: float, minimum: float) -> tuple[tuple[tuple[float, float], ...], np.ndarray, np.ndarray]:
    """The grid's paths (straight ``minimum``, half-way or all of ``length``; then each 15-degree turn, none
    after a whole move straight) as (straight, turn) pairs, their straights and turns as arrays."""
    plans: list[tuple[float, float]] = []
    for straight in sorted({minimum, round((minimum + length) / 2, 2), length}):
        turns = [0.0] if length - straight < 0.02 else [float(t) for t in range(-180, 180, 15) if t]
        plans += [(straight, t) for t in turns]
    return tuple(plans), np.array([p[0] for p in plans]), np.array([p[1] for p in plans])


def _generic_attacks(game: B17Game, f: Aircraft, target: Aircraft, length: float, minimum: float) -> list[Fly]:
    """Attacks within 4" found on a grid of paths and stops, two per path (first in range, closest).

    Every path's stops are measured at once with numpy and shapely (the rules check the plans chosen).
    """
    return [Fly(f.label, s, t, target.label, at) for s, t, at in _generic_stops(game, f, target, length, minimum)]


def _generic_stops(
    game: B17Game, f: Aircraft, target: Aircraft, length: float, minimum: float
) -> list[tuple[float, float, float]]:
    """:func:`_generic_attacks` as (straight, turn, stop) triples, in the same order."""
    dims = game.dims(f)
    tdims = game.dims(target)
    spread = math.hypot(tdims.length, tdims.span) / 2  # no part of the bomber is farther from its centre
    if math.hypot(f.x - target.x, f.y - target.y) > length + dims.length / 2 + spread + ATTACK_RANGE + TOLERANCE:
        return []  # no nose on any path comes within 4" of the bomber
    plans, straights, turns = _grid_paths(length, minimum)
    stops = np.arange(0.0, length + 1e-9, 0.5)
    straight = straights[:, None]
    turn = np.radians(f.heading + turns)[:, None]
    h0 = math.radians(f.heading)
    cos_turn, sin_turn = np.cos(turn), np.sin(turn)
    # only the paths whose nose's two legs come within 4" of the bomber's outer circle are measured
    rows = np.nonzero(_legs_near(f, dims, straight[:, 0], cos_turn[:, 0], sin_turn[:, 0], length, target, spread))[0]
    if rows.size == 0:
        return []
    straight, turn, cos_turn, sin_turn = straight[rows], turn[rows], cos_turn[rows], sin_turn[rows]
    first_leg = np.minimum(stops[None, :], straight)
    second_leg = np.maximum(stops[None, :] - straight, 0.0)
    after = stops[None, :] > straight
    c0, s0 = math.cos(h0), math.sin(h0)
    x = f.x + first_leg * c0 + second_leg * cos_turn
    y = f.y + first_leg * s0 + second_leg * sin_turn
    nx = x + dims.length / 2 * np.where(after, cos_turn, c0)  # the nose, along the heading at each stop
    ny = y + dims.length / 2 * np.where(after, sin_turn, s0)
    off = (x < -TOLERANCE) | (x > G.TABLE_LENGTH + TOLERANCE) | (y < -TOLERANCE) | (y > G.TABLE_WIDTH + TOLERANCE)
    gone = np.logical_or.accumulate(off, axis=1)
    # the quick distances (square roots, to within a few units in the last place of hypot's): every verdict
    # below within EDGE of a limit or a tie is shapely's, so the grid's attacks are the same either way
    reach = np.where(gone, np.inf, K.distance_to_footprint(tdims, nx, ny, target.x, target.y, target.heading, True))
    # shapely (the truth) measures again a row whose quick distances are within EDGE of the range or of its least
    low = reach.min(axis=1, initial=np.inf)
    tie = (reach <= low[:, None] + K.EDGE).sum(axis=1) > 1
    # a tie of noses inside the bomber is no doubt when the first lies surely inside (shapely's 0 too)
    inside_tie = tie & (low == 0.0) & ~((reach > 0.0) & (reach <= K.EDGE)).any(axis=1)
    if inside_tie.any():
        first_min = reach.argmin(axis=1)
        for row in np.nonzero(inside_tie)[0].tolist():
            j = int(first_min[row])
            depth = K.footprint_depth(tdims, float(nx[row, j]), float(ny[row, j]), target.x, target.y, target.heading)
            if depth > K.EDGE:
                tie[row] = False
    doubt = ((np.abs(reach - ATTACK_RANGE) <= K.EDGE).any(axis=1) | tie) & (low <= ATTACK_RANGE + K.EDGE)
    if doubt.any():
        shape = G.footprint(tdims, target.x, target.y, target.heading)
        again = np.nonzero(doubt)[0]
        points = shapely.points(np.stack([nx[again].ravel(), ny[again].ravel()], axis=1))
        exact = shapely.distance(points, shape).reshape(len(again), -1)
        reach[again] = np.where(gone[again], np.inf, exact)
    near = np.nonzero(low <= ATTACK_RANGE + K.EDGE)[0]
    if near.size == 0:
        return []
    reach = reach[near]
    inside = reach <= ATTACK_RANGE
    firsts = stops[inside.argmax(axis=1)].tolist()
    bests = stops[reach.argmin(axis=1)].tolist()
    out: list[tuple[float, float, float]] = []
    hits: list[bool] = np.any(inside, axis=1).tolist()
    for row, any_in, first, best in zip(rows[near].tolist(), hits, firsts, bests, strict=True):
        if not any_in:
            continue
        s_, t_ = plans[row]
        out.append((s_, t_, first))
        if best != first:
            out.append((s_, t_, best))
    return out


def _legs_near(
    f: Aircraft,
    dims: G.Dims,
    straight: np.ndarray,
    cos_turn: np.ndarray,
    sin_turn: np.ndarray,
    length: float,
    target: Aircraft,
    spread: float,
) -> np.ndarray:
    """For each path (``straight`` inches, then the turned heading's cosine and sine): whether the fighter's
    nose on either leg may come within 4" of the bomber (of the circle of radius ``spread`` round its centre);
    the nose runs along one segment a leg, so its least distance from the centre bounds every stop's."""
    u0x, u0y = math.cos(math.radians(f.heading)), math.sin(math.radians(f.heading))
    half = dims.length / 2
    tx, ty = target.x, target.y
    turn_x, turn_y = f.x + straight * u0x, f.y + straight * u0y

    def segment(ax: Any, ay: Any, bx: Any, by: Any) -> np.ndarray:
        dx, dy = bx - ax, by - ay
        span = dx * dx + dy * dy
        t = np.clip(((tx - ax) * dx + (ty - ay) * dy) / np.where(span > 0, span, 1.0), 0.0, 1.0)
        return np.asarray(np.hypot(ax + t * dx - tx, ay + t * dy - ty))

    first = segment(f.x + half * u0x, f.y + half * u0y, turn_x + half * u0x, turn_y + half * u0y)
    rest = length - straight
    second = segment(
        turn_x + half * cos_turn,
        turn_y + half * sin_turn,
        turn_x + (rest + half) * cos_turn,
        turn_y + (rest + half) * sin_turn,
    )
    near: np.ndarray = np.minimum(first, second) - spread <= ATTACK_RANGE + 2 * TOLERANCE
    return near


def _score_attack(game: B17Game, f: Aircraft, plan: Fly, space: FlySpace) -> Score | None:
    """One plan's score (see :func:`_score_attacks`)."""
    return _score_attacks(game, f, [plan], space)[0]


def _checked_path(f: Aircraft, length: float, minimum: float, straight: float, turn: float) -> float | None:
    """The straight inches of a (straight, turn) path as ``FlySpace.resolve`` reads them, or None when the
    rules refuse the path (b17.25, b17.29: ``rules.check_straight_and_turn``)."""
    straight = min(max(straight, 0.0), length) if abs(straight - length) <= TOLERANCE else straight
    if straight < minimum - TOLERANCE or straight > length + TOLERANCE or abs(turn) > 180.0 + ANGLE_TOLERANCE:
        return None
    if turn != 0 and length - straight < TOLERANCE:
        return None
    return min(straight, length)


def _score_attacks(game: B17Game, f: Aircraft, plans: list[Fly], space: FlySpace) -> list[Score | None]:
    """Each legal plan's score (off the table, not a bonus attack, gunners met at the stop and the end,
    at the stop, the stop), None for a plan the rules refuse; the gunners counted for all plans at once.

    A plain attack (straight, turn, a bomber and a stop) whose path stays on the table is checked here as
    ``FlySpace.resolve`` checks it, its stop and end measured for all plans at once (:func:`_score_rows`)
    and its range by ``reckoning``'s measure (shapely's verdict near the limit); any other plan goes
    through ``space.resolve`` itself (:func:`_score_by_resolve`)."""
    if not plans:
        return []
    if f.bomber or any(p.to is not None or p.straight is None or p.turn is None or p.target is None for p in plans):
        return _score_by_resolve(game, f, plans, space)
    length = game.allowance(f)
    minimum = R.minimum_straight(f, length)
    rows: list[Row] = []
    for i, plan in enumerate(plans):
        assert plan.straight is not None and plan.turn is not None
        straight = _checked_path(f, length, minimum, plan.straight, plan.turn)
        if plan.aircraft != f.label or straight is None:
            continue
        bomber = game.state.aircraft.get(plan.target or "")
        if bomber is None or not bomber.bomber or not bomber.flying:
            continue  # b17.34
        stop = plan.at if plan.at is not None else 0.0
        if not (-TOLERANCE <= stop <= length + TOLERANCE):
            continue  # b17.30
        rows.append((i, straight, plan.turn, min(max(stop, 0.0), length), bomber))
    return _score_rows(game, f, length, rows, plans, space)


def _score_rows(
    game: B17Game, f: Aircraft, length: float, rows: list[Row], plans: list[Fly] | None, space: FlySpace
) -> list[Score | None]:
    """The scores of :func:`_score_attacks` for its checked rows (a list as long as ``plans``, or as the
    rows' largest plan index and one when ``plans`` is None; a plan whose path leaves the table is then
    made from its row to go through ``space.resolve``)."""
    size = len(plans) if plans is not None else max((r[0] for r in rows), default=-1) + 1
    out: list[Score | None] = [None] * size
    if not rows:
        return out
    options = game.state.options
    closest = None  # the bombers a fighter must attack under the option auto_intercept (b17.23)
    if options["auto_intercept"]:
        closest = space.closest if space.closest is not None else R.closest_bombers(options, f, game.flying_bombers())
    w = _stops_and_ends(f, length, rows)
    bdims = {game.dims(b) for b in {r[4].label: r[4] for r in rows}.values()}
    if len(bdims) != 1:  # bombers of different models: measure each as the rules do (never in the shipped game)
        where = zip(rows, w["x"], w["y"], w["h"], strict=True)
        reach = [R.attack_range(options, f, x, y, h, r[4]) for r, x, y, h in where]
    else:
        reach = _quick_reach(game, f, rows, w, bdims.pop())
    plain = _plain(rows, w, float(options["head_on_tolerance"]))
    found: list[tuple[int, bool, float]] = []
    at: list[tuple[float, float, float]] = []
    again: list[Row] = []
    stands = zip(rows, w["x"], w["y"], w["h"], zip(w["ex"], w["ey"], w["eh"], strict=True), strict=True)
    for (row, x, y, h, end), stays, d, p in zip(stands, w["stays"], reach, plain, strict=True):
        if not stays:  # the path leaves the table: resolve says whether before the stop
            again.append(row)
            continue
        if d > ATTACK_RANGE + TOLERANCE or (closest is not None and row[4] not in closest):
            continue  # b17.34, b17.23
        found.append((row[0], p, row[3]))
        at.append((x, y, h))
        at.append(end)
    met = _guns_met(game, f, at)
    ends = at[1::2]
    off, next_reach = _after(game, f, ends)
    for k, (i, p, stop) in enumerate(found):
        out[i] = (off[k], p, met[2 * k] + met[2 * k + 1] + next_reach[k], met[2 * k], stop)
    if again:
        left = [plans[r[0]] if plans is not None else Fly(f.label, r[1], r[2], r[4].label, r[3]) for r in again]
        for row, score in zip(again, _score_by_resolve(game, f, left, space), strict=True):
            out[row[0]] = score
    return out


def _quick_reach(game: B17Game, f: Aircraft, rows: list[Row], w: dict[str, Any], bdims: G.Dims) -> list[float]:
    """Inches from the fighter's nose at each row's stop to its bomber (``rules.attack_range``), all at once;
    shapely's measure where the quick one is within twice ``reckoning.EDGE`` of the attack range."""
    half = game.dims(f).length / 2
    nx = w["xa"] + half * w["cos"] - 0.0 * w["sin"] + 0.0
    ny = w["ya"] + half * w["sin"] + 0.0 * w["cos"] + 0.0
    bx = np.array([r[4].x for r in rows])
    by = np.array([r[4].y for r in rows])
    units = {b.label: _unit(b.heading) for b in {r[4].label: r[4] for r in rows}.values()}
    c = np.array([units[r[4].label][0] for r in rows])
    s = np.array([units[r[4].label][1] for r in rows])
    reach: list[float] = K.footprint_distance_many(bdims, nx, ny, bx, by, c, s).tolist()
    limit = ATTACK_RANGE + TOLERANCE
    options = game.state.options
    for k, d in enumerate(reach):
        if abs(d - limit) <= 2 * K.EDGE:
            reach[k] = R.attack_range(options, f, w["x"][k], w["y"][k], w["h"][k], rows[k][4])
    return reach


def _plain(rows: list[Row], w: dict[str, Any], tolerance: float) -> list[bool]:
    """For each row: no +1 there (``rules.head_on_or_behind`` is None for the fighter at its stop). Both ways
    to earn it need the fighter's heading within the tolerance of the bomber's axis (a row's heading is one of
    a few: before or after its turn), and its position within it: the positions of the rows whose heading
    passes are measured all at once, and the rules' own test decides any within 1e-9 degrees of the limit."""
    limit = tolerance + ANGLE_TOLERANCE
    aligned: dict[tuple[float, float], tuple[bool, bool]] = {}  # (head-on, from behind) by the headings alone
    ways: list[tuple[bool, bool]] = []
    for h, row in zip(w["h"], rows, strict=True):
        bh = row[4].heading
        way = aligned.get((h, bh))
        if way is None:
            way = aligned[h, bh] = (angle_between(h, bh + 180.0) <= limit, angle_between(h, bh) <= limit)
        ways.append(way)
    out = [True] * len(rows)
    ask = [k for k, (ahead, behind) in enumerate(ways) if ahead or behind]
    if not ask:
        return out
    bx = np.array([rows[k][4].x for k in ask])
    by = np.array([rows[k][4].y for k in ask])
    bhs = np.array([rows[k][4].heading for k in ask])
    where = np.degrees(np.arctan2(w["ya"][ask] - by, w["xa"][ask] - bx))
    off_ahead = np.abs((where - bhs + 180.0) % 360.0 - 180.0)  # angle_between(where, bh)
    off_behind = np.abs((where - bhs + 360.0) % 360.0 - 180.0)  # angle_between(where, bh + 180)
    doubt = ((np.abs(off_ahead - limit) <= 1e-9) | (np.abs(off_behind - limit) <= 1e-9)).tolist()
    ahead_in, behind_in = (off_ahead <= limit).tolist(), (off_behind <= limit).tolist()
    for j, k in enumerate(ask):
        if doubt[j]:
            row = rows[k]
            out[k] = R.head_on_or_behind(row[4], w["x"][k], w["y"][k], w["h"][k], tolerance) is None
        else:
            out[k] = not ((ahead_in[j] and ways[k][0]) or (behind_in[j] and ways[k][1]))
    return out


def _stops_and_ends(f: Aircraft, length: float, rows: list[Row]) -> dict[str, Any]:
    """For each (plan, straight, turn, stop, bomber) row: where the fighter stands at the stop as stored
    (``Path.snapped``: ``x``, ``y``, ``h``, as lists, ``xa``, ``ya`` as arrays, and ``cos``, ``sin`` of the
    heading), where it ends (``ex``, ``ey``, ``eh``), and whether its centre stays on the table (``stays``:
    ``Path.leaves_table_at`` is None); Path's sums in its order."""
    rad = math.radians(f.heading)
    c, s = math.cos(rad), math.sin(rad)
    turned: dict[float, tuple[float, float, float]] = {}
    for turn in {r[2] for r in rows}:
        new_heading = snap_angle(f.heading + snap_angle(turn))
        r1 = math.radians(new_heading)
        turned[turn] = (new_heading, math.cos(r1), math.sin(r1))
    straight = np.array([r[1] for r in rows])
    stop = np.array([r[3] for r in rows])
    h1 = [turned[r[2]][0] for r in rows]
    c1 = np.array([turned[r[2]][1] for r in rows])
    s1 = np.array([turned[r[2]][2] for r in rows])
    x1, y1 = f.x + straight * c, f.y + straight * s  # the turn
    rest = length - straight
    ex = np.where(rest > 0, x1 + rest * c1, x1)
    ey = np.where(rest > 0, y1 + rest * s1, y1)
    first = np.minimum(stop, straight)
    past = stop - straight
    sx = np.where(past > 0, (f.x + first * c) + past * c1, f.x + first * c)
    sy = np.where(past > 0, (f.y + first * s) + past * s1, f.y + first * s)
    lo, hi_x, hi_y = -TOLERANCE, G.TABLE_LENGTH + TOLERANCE, G.TABLE_WIDTH + TOLERANCE
    stays = (
        (x1 >= lo) & (x1 <= hi_x) & (y1 >= lo) & (y1 <= hi_y) & (ex >= lo) & (ex <= hi_x) & (ey >= lo) & (ey <= hi_y)
    )
    n = len(rows)
    snapped = K.snap_many(np.concatenate([sx, sy, ex, ey]))
    after = past > 0
    return {
        "x": snapped[:n],
        "y": snapped[n : 2 * n],
        "xa": np.array(snapped[:n]),
        "ya": np.array(snapped[n : 2 * n]),
        "h": [a if b else f.heading for a, b in zip(h1, after.tolist(), strict=True)],
        "cos": np.where(after, c1, c),
        "sin": np.where(after, s1, s),
        "ex": snapped[2 * n : 3 * n],
        "ey": snapped[3 * n :],
        "eh": [a if b else f.heading for a, b in zip(h1, (rest > 0).tolist(), strict=True)],
        "stays": stays.tolist(),
    }


def _after(game: B17Game, f: Aircraft, ends: list[tuple[float, float, float]]) -> tuple[list[bool], list[int]]:
    """For each end of a move: whether the next move's forced straight leaves the table, and the gunners of
    the bombers' next reach (``ends``: the doctrine's clauses *edge* and *reach*)."""
    xs, ys, hs = [e[0] for e in ends], [e[1] for e in ends], [e[2] for e in ends]
    return E.forced_off(xs, ys, hs), E.in_reach(game, f, xs, ys)


def _score_by_resolve(game: B17Game, f: Aircraft, plans: list[Fly], space: FlySpace) -> list[Score | None]:
    """:func:`_score_attacks` with every plan checked and measured by ``space.resolve`` and its Path."""
    found: list[tuple[Fly, bool, bool, float]] = []
    at: list[tuple[float, float, float]] = []
    keep: list[int | None] = []
    for plan in plans:
        try:
            path, stop, target = space.resolve(plan)
        except Exception:
            keep.append(None)
            continue
        assert stop is not None and target is not None
        x, y, h = path.snapped(stop)
        bomber = game.aircraft(target)
        how = R.head_on_or_behind(bomber, x, y, h, float(game.state.options["head_on_tolerance"]))
        leave = path.leaves_table_at()
        keep.append(len(found))
        found.append((plan, leave is not None, how is None, stop))
        at.append((x, y, h))
        at.append(path.snapped(path.length) if leave is None else (x, y, h))
    met = _guns_met(game, f, at)
    off, reach = _after(game, f, at[1::2])
    out: list[Score | None] = []
    for index in keep:
        if index is None:
            out.append(None)
            continue
        _, leaves, plain, stop = found[index]
        at_stop = met[2 * index]
        at_end = 0 if leaves else met[2 * index + 1] + reach[index]
        out.append((leaves or off[index], plain, at_stop + at_end, at_stop, stop))
    return out


def generic_scored(
    game: B17Game, f: Aircraft, target: Aircraft, length: float, minimum: float, space: FlySpace
) -> list[tuple[Score, tuple[float, float, float]]]:
    """The scored plans of ``_score_attacks(_generic_attacks(...))`` that the rules allow, as (score,
    (straight, turn, stop)) in the same order, without making a move of each (the doctrine makes only
    the one it flies)."""
    triples = _generic_stops(game, f, target, length, minimum)
    rows: list[Row] = []
    paths: dict[tuple[float, float], tuple[float | None, float]] = {}  # checked straight, snapped turn
    stops: dict[float, float | None] = {}  # the stop as the move keeps it and resolve reads it, or None
    for i, (straight, turn, stop) in enumerate(triples):
        path = paths.get((straight, turn))
        if path is None:
            path = paths[straight, turn] = (_checked_path(f, length, minimum, snap(straight), snap(turn)), snap(turn))
        at = stops.get(stop, -1.0)  # (-1: not read yet; a kept stop is never below 0)
        if at == -1.0:
            at = snap(stop)
            at = stops[stop] = min(max(at, 0.0), length) if -TOLERANCE <= at <= length + TOLERANCE else None
        if path[0] is None or at is None:
            continue
        rows.append((i, path[0], path[1], at, target))
    scores = _score_rows(game, f, length, rows, None, space)
    return [(score, triples[i]) for i, score in enumerate(scores) if score is not None]
