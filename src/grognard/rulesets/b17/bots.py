"""The doctrine bots of the B-17 raid: the seed's fighter automaton, and bombers that hold the box.

Fighters (b17.23, RULINGS B19): each fighter goes for the closest bomber. It looks first for an attack
that earns the +1 (directly head-on or from directly behind: the path that brings its nose to the
bomber's axis, flying straight at it or after it), then for any attack within 4"; among those it takes
the one that meets the fewest gunners (at the stop and at the end of its move) and does not leave the
table. With no attack in reach it flies to where it can attack head-on next turn, ahead of the bomber's
next position, away from the guns.

Bombers: each box holds its diamond behind its leader, which flies for the target; within 30" of the
target every bomber lines up its own bomb run, looking one move ahead for a move that brings its
whole fuselage over the target. A bomber that has bombed flies straight on.

Gunners fire the pair with more guns in range (nose and tail on a tie).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
import shapely

from grognard.core.engine import Decision
from grognard.core.geometry import ANGLE_TOLERANCE, TOLERANCE, angle_between, distance_to_rect, snap_angle
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import reckoning as K
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly, Guns
from grognard.rulesets.b17.data import ATTACK_RANGE, PAIRS, TARGET
from grognard.rulesets.b17.game import B17Game, FlySpace
from grognard.rulesets.b17.state import Aircraft

TARGET_CENTRE = ((TARGET[0] + TARGET[2]) / 2, (TARGET[1] + TARGET[3]) / 2)
FINAL_APPROACH = 30.0  # inches from the target's centre where a bomber leaves the box for its own run
LOOKAHEAD = 25.0  # inches: within this a bomber looks one move ahead for a bomb run
BOX_SLACK = 4.5  # the box the followers hold: the minimum spacing and half an inch


class DoctrineBot:
    """Plays either side of the B-17 raid by the seed's doctrine; ``rng`` is kept for ties (none so far)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, game: B17Game, decision: Decision) -> Any:  # type: ignore[override]
        kind = decision.id.split(" ", 1)[0]
        if kind == "place":
            return decision.space.candidates(1)[0]
        if kind == "guns":
            return gun_choice(game, decision)
        if kind == "move":
            a = game.aircraft(decision.id.split(" ", 1)[1])
            plans = move_candidates(game, a, 1)
            if plans and decision.space.contains(plans[0]):
                return plans[0]
        return decision.space.sample(self.rng)


def gun_choice(game: B17Game, decision: Decision) -> Guns:
    """The pair with more guns in range that have not fired this occasion; nose and tail on a tie."""
    options: list[Guns] = list(decision.space.candidates(4))
    s = game.state

    def guns(action: Guns) -> int:
        in_range = R.guns_in_range(s.options, game.aircraft(action.bomber), game.aircraft(action.fighter))
        used = s.guns_used.get(action.bomber, [])
        return sum(1 for g in PAIRS[action.pair] if g in in_range and g not in used)

    return max(options, key=lambda o: (guns(o), o.pair == "nose-tail"))


def move_candidates(game: B17Game, a: Aircraft, k: int = 8) -> list[Fly]:
    """The doctrine's moves for ``a``, best first (at most ``k``)."""
    return fighter_plans(game, a, k) if not a.bomber else bomber_plans(game, a, k)


# ----------------------------------------------------------------------------- paths, all at once
FIGHTER_TURNS = tuple(float(t) for t in range(-180, 180, 15) if t)
BOMBER_TURNS = tuple(float(t) for t in range(-90, 91, 10) if t)


@lru_cache(maxsize=1024)
def _turned(heading: float, turns: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray, tuple[float, ...]]:
    """cos and sin of each heading after ``turns`` (``Path.new_heading``, measured as ``Path`` measures it)."""
    headings = tuple(snap_angle(heading + snap_angle(t)) for t in turns)
    rads = [math.radians(h) for h in headings]
    return np.array([math.cos(r) for r in rads]), np.array([math.sin(r) for r in rads]), headings


def _path_ends(a: Aircraft, length: float, minimum: float, turn_set: tuple[float, ...]) -> dict[str, Any]:
    """The doctrine's paths for ``a`` (straight ``minimum``, half-way or all of ``length``; then each turn of
    ``turn_set``, none after a whole move straight) and where they end, all at once: ``straight``, ``turn``
    (lists), ``x``, ``y`` (the ends as stored, ``Path.snapped``), ``h`` (the end's heading), ``leaves`` (the
    centre leaves the table on the way, ``Path.leaves_table_at``), ``cos``, ``sin`` (of ``h``); the same
    floats as ``Path`` gives, bit for bit (the sums in its order; the rounding ``reckoning.snap_many``)."""
    rad = math.radians(a.heading)
    c, s = math.cos(rad), math.sin(rad)
    c1, s1, headings = _turned(a.heading, turn_set)
    straights: list[float] = []
    turns: list[float] = []
    cos_parts, sin_parts, h_parts = [], [], []
    for straight in sorted({minimum, round((minimum + length) / 2, 2), length}):
        if length - straight < 0.02:
            straights.append(straight)
            turns.append(0.0)
            after = length > straight
            h0 = snap_angle(a.heading + 0.0) if after else a.heading
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
    x1 = a.x + straight_arr * c
    y1 = a.y + straight_arr * s
    x2 = np.where(rest > 0, x1 + rest * ch, x1)
    y2 = np.where(rest > 0, y1 + rest * sh, y1)
    lo, hi_x, hi_y = -TOLERANCE, G.TABLE_LENGTH + TOLERANCE, G.TABLE_WIDTH + TOLERANCE
    on1 = (x1 >= lo) & (x1 <= hi_x) & (y1 >= lo) & (y1 <= hi_y)
    on2 = (x2 >= lo) & (x2 <= hi_x) & (y2 >= lo) & (y2 <= hi_y)
    return {
        "straight": straights,
        "turn": turns,
        "x": K.snap_many(x2),
        "y": K.snap_many(y2),
        "h": [h for part in h_parts for h in part],
        "leaves": ~(on1 & on2),
        "cos": ch,
        "sin": sh,
    }


# ----------------------------------------------------------------------------- fighters
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


def _generic_attacks(game: B17Game, f: Aircraft, target: Aircraft, length: float, minimum: float) -> list[Fly]:
    """Attacks within 4" found on a grid of paths and stops, two per path (first in range, closest).

    Every path's stops are measured at once with numpy and shapely (the rules check the plans chosen).
    """
    dims = game.dims(f)
    tdims = game.dims(target)
    spread = math.hypot(tdims.length, tdims.span) / 2  # no part of the bomber is farther from its centre
    if math.hypot(f.x - target.x, f.y - target.y) > length + dims.length / 2 + spread + ATTACK_RANGE + TOLERANCE:
        return []  # no nose on any path comes within 4" of the bomber
    plans: list[tuple[float, float]] = []
    for straight in sorted({minimum, round((minimum + length) / 2, 2), length}):
        turns = [0.0] if length - straight < 0.02 else [float(t) for t in range(-180, 180, 15) if t]
        plans += [(straight, t) for t in turns]
    stops = np.arange(0.0, length + 1e-9, 0.5)
    straight = np.array([p[0] for p in plans])[:, None]
    turn = np.radians(f.heading + np.array([p[1] for p in plans]))[:, None]
    h0 = math.radians(f.heading)
    cos_turn, sin_turn = np.cos(turn), np.sin(turn)
    # only the paths whose nose's two legs come within 4" of the bomber's outer circle are measured
    rows = np.nonzero(_legs_near(f, dims, straight[:, 0], cos_turn[:, 0], sin_turn[:, 0], length, target, spread))[0]
    straight, turn, cos_turn, sin_turn = straight[rows], turn[rows], cos_turn[rows], sin_turn[rows]
    first_leg = np.minimum(stops[None, :], straight)
    second_leg = np.maximum(stops[None, :] - straight, 0.0)
    after = stops[None, :] > straight
    x = f.x + first_leg * math.cos(h0) + second_leg * cos_turn
    y = f.y + first_leg * math.sin(h0) + second_leg * sin_turn
    heading = np.where(after, turn, h0)
    nx = x + dims.length / 2 * np.cos(heading)
    ny = y + dims.length / 2 * np.sin(heading)
    off = (x < -TOLERANCE) | (x > G.TABLE_LENGTH + TOLERANCE) | (y < -TOLERANCE) | (y > G.TABLE_WIDTH + TOLERANCE)
    gone = np.cumsum(off, axis=1) > 0
    reach = np.where(gone, np.inf, K.distance_to_footprint(tdims, nx, ny, target.x, target.y, target.heading))
    # shapely (the truth) measures again a row whose quick distances are within EDGE of the range or of its least
    low = reach.min(axis=1, initial=np.inf)
    tie = (reach <= low[:, None] + K.EDGE).sum(axis=1) > 1
    # a tie of noses inside the bomber is no doubt when the first lies surely inside (shapely's 0 too)
    inside_tie = tie & (low == 0.0) & ~((reach > 0.0) & (reach <= K.EDGE)).any(axis=1)
    for row in np.nonzero(inside_tie)[0].tolist():
        j = int(np.argmin(reach[row]))
        if K.footprint_depth(tdims, float(nx[row, j]), float(ny[row, j]), target.x, target.y, target.heading) > K.EDGE:
            tie[row] = False
    doubt = ((np.abs(reach - ATTACK_RANGE) <= K.EDGE).any(axis=1) | tie) & (low <= ATTACK_RANGE + K.EDGE)
    if doubt.any():
        shape = G.footprint(tdims, target.x, target.y, target.heading)
        again = np.nonzero(doubt)[0]
        points = shapely.points(np.stack([nx[again].ravel(), ny[again].ravel()], axis=1))
        exact = shapely.distance(points, shape).reshape(len(again), -1)
        reach[again] = np.where(gone[again], np.inf, exact)
    out: list[Fly] = []
    for sub in np.nonzero(low <= ATTACK_RANGE + K.EDGE)[0].tolist():
        s_, t_ = plans[int(rows[sub])]
        inside = np.nonzero(reach[sub] <= ATTACK_RANGE)[0]
        if inside.size == 0:
            continue
        first = float(stops[inside[0]])
        best = float(stops[int(np.argmin(reach[sub]))])
        out.append(Fly(f.label, s_, t_, target.label, first))
        if best != first:
            out.append(Fly(f.label, s_, t_, target.label, best))
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
    return np.minimum(first, second) - spread <= ATTACK_RANGE + 2 * TOLERANCE  # type: ignore[no-any-return]


def _score_attack(game: B17Game, f: Aircraft, plan: Fly, space: FlySpace) -> tuple[Any, ...] | None:
    """One plan's score (see :func:`_score_attacks`)."""
    return _score_attacks(game, f, [plan], space)[0]


def _score_attacks(game: B17Game, f: Aircraft, plans: list[Fly], space: FlySpace) -> list[tuple[Any, ...] | None]:
    """Each legal plan's score (off the table, not a bonus attack, gunners met at the stop and the end,
    at the stop, the stop), None for a plan the rules refuse; the gunners counted for all plans at once.

    A plain attack (straight, turn, a bomber and a stop) whose path stays on the table is checked here as
    ``FlySpace.resolve`` checks it, its stop and end measured for all plans at once (:func:`_stops_and_ends`)
    and its range by ``reckoning.attack_range`` (shapely's verdict near the limit); any other plan goes
    through ``space.resolve`` itself (:func:`_score_by_resolve`)."""
    if not plans:
        return []
    if f.bomber or any(p.to is not None or p.straight is None or p.turn is None or p.target is None for p in plans):
        return _score_by_resolve(game, f, plans, space)
    options = game.state.options
    length = game.allowance(f)
    minimum = R.minimum_straight(f, length)
    rows: list[tuple[int, float, float, float, Aircraft]] = []  # plan, straight, turn, stop, bomber
    for i, plan in enumerate(plans):
        straight, turn = plan.straight, plan.turn
        assert straight is not None and turn is not None
        if plan.aircraft != f.label:
            continue
        straight = min(max(straight, 0.0), length) if abs(straight - length) <= TOLERANCE else straight
        if straight < minimum - TOLERANCE or straight > length + TOLERANCE or abs(turn) > 180.0 + ANGLE_TOLERANCE:
            continue  # b17.25, b17.29 (R.check_straight_and_turn)
        if turn != 0 and length - straight < TOLERANCE:
            continue
        bomber = game.state.aircraft.get(plan.target or "")
        if bomber is None or not bomber.bomber or not bomber.flying:
            continue  # b17.34
        stop = plan.at if plan.at is not None else 0.0
        if not (-TOLERANCE <= stop <= length + TOLERANCE):
            continue  # b17.30
        rows.append((i, min(straight, length), turn, min(max(stop, 0.0), length), bomber))
    out: list[tuple[Any, ...] | None] = [None] * len(plans)
    if not rows:
        return out
    closest = None  # the bombers a fighter must attack under the option auto_intercept (b17.23)
    if options["auto_intercept"]:
        closest = space.closest if space.closest is not None else R.closest_bombers(options, f, game.flying_bombers())
    where = _stops_and_ends(f, length, rows)
    fdims = game.dims(f)
    tolerance = float(options["head_on_tolerance"])
    found: list[tuple[int, bool, float]] = []
    at: list[tuple[float, float, float]] = []
    again: list[int] = []
    for (i, _, _, stop, bomber), (x, y, h, cos_h, sin_h, end, stays) in zip(rows, where, strict=True):
        if not stays:  # the path leaves the table: resolve says whether before the stop
            again.append(i)
            continue
        nx, ny = x + fdims.length / 2 * cos_h - 0.0 * sin_h + 0.0, y + fdims.length / 2 * sin_h + 0.0 * cos_h + 0.0
        bdims = game.dims(bomber)
        reach = K.footprint_distance(bdims, nx, ny, bomber.x, bomber.y, bomber.heading)
        if abs(reach - (ATTACK_RANGE + TOLERANCE)) <= K.EDGE:
            reach = R.attack_range(options, f, x, y, h, bomber)
        if reach > ATTACK_RANGE + TOLERANCE or (closest is not None and bomber not in closest):
            continue  # b17.34, b17.23
        how = R.head_on_or_behind(bomber, x, y, h, tolerance)
        found.append((i, how is None, stop))
        at.append((x, y, h))
        at.append(end)
    met = _guns_met(game, f, at)
    for k, (i, plain, stop) in enumerate(found):
        out[i] = (False, plain, met[2 * k] + met[2 * k + 1], met[2 * k], stop)
    if again:
        for i, score in zip(again, _score_by_resolve(game, f, [plans[i] for i in again], space), strict=True):
            out[i] = score
    return out


def _stops_and_ends(
    f: Aircraft, length: float, rows: list[tuple[int, float, float, float, Aircraft]]
) -> list[tuple[float, float, float, float, float, tuple[float, float, float], bool]]:
    """For each (plan, straight, turn, stop, bomber) row: where the fighter stands at the stop as stored
    (``Path.snapped``: x, y, heading, and the heading's cosine and sine), where it ends, and whether its
    centre stays on the table (``Path.leaves_table_at`` is None); Path's sums in its order."""
    rad = math.radians(f.heading)
    c, s = math.cos(rad), math.sin(rad)
    turned: dict[float, tuple[float, float, float]] = {}
    for _, _, turn, _, _ in rows:
        if turn not in turned:
            h1 = snap_angle(f.heading + snap_angle(turn))
            r1 = math.radians(h1)
            turned[turn] = (h1, math.cos(r1), math.sin(r1))
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
    xs, ys, exs, eys = K.snap_many(sx), K.snap_many(sy), K.snap_many(ex), K.snap_many(ey)
    after = (past > 0).tolist()
    ended = (rest > 0).tolist()
    out = []
    for k in range(len(rows)):
        h = h1[k] if after[k] else f.heading
        cos_h, sin_h = (float(c1[k]), float(s1[k])) if after[k] else (c, s)
        end = (exs[k], eys[k], h1[k] if ended[k] else f.heading)
        out.append((xs[k], ys[k], h, cos_h, sin_h, end, bool(stays[k])))
    return out


def _score_by_resolve(game: B17Game, f: Aircraft, plans: list[Fly], space: FlySpace) -> list[tuple[Any, ...] | None]:
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
    out: list[tuple[Any, ...] | None] = []
    for index in keep:
        if index is None:
            out.append(None)
            continue
        _, leaves, plain, stop = found[index]
        at_stop = met[2 * index]
        at_end = 0 if leaves else met[2 * index + 1]
        out.append((leaves, plain, at_stop + at_end, at_stop, stop))
    return out


def _intercept_moves(
    game: B17Game, f: Aircraft, target: Aircraft | None, length: float, minimum: float, k: int | None = None
) -> list[Fly]:
    """No attack in reach: fly to a spot ahead of the bomber's next position, facing it, off the guns (the
    best ``k``, or all)."""
    aims: list[tuple[tuple[float, float], float]] = []
    if target is None:
        aims.append(((54.0, 30.0), f.heading))
    else:
        bx, by = _unit(target.heading)
        step = R.allowance(target)
        nx, ny = target.x + bx * step, target.y + by * step  # where the bomber will be when the fighter next moves
        aims.append(((nx + bx * 10.0, ny + by * 10.0), target.heading + 180.0))  # ahead of it, facing it: head-on
        aims.append(((nx - bx * 10.0, ny - by * 10.0), target.heading))  # behind it, after it: from behind
    aims = [((min(max(x, 3.0), 105.0), min(max(y, 3.0), 57.0)), h) for (x, y), h in aims]
    ends = _path_ends(f, length, minimum, FIGHTER_TURNS)
    xs, ys, hs, leaves = ends["x"], ends["y"], ends["h"], ends["leaves"].tolist()
    bombers = game.flying_bombers()
    met = K.guns_met_many(game.state.options, f, bombers, xs, ys, hs)
    scored = []
    dist, remainder = math.dist, math.remainder  # angle_between(h, want) is abs(remainder(h - want, 360))
    for x, y, h, leave, guns, straight, turn in zip(
        xs, ys, hs, leaves, met, ends["straight"], ends["turn"], strict=True
    ):
        miss = min([dist((x, y), aim) + 0.05 * abs(remainder(h - want, 360.0)) for aim, want in aims])
        scored.append((leave, miss + 6.0 * (0 if leave else guns), straight, turn))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [Fly(f.label, straight, turn) for _, _, straight, turn in scored[:k]]


def fighter_plans(game: B17Game, f: Aircraft, k: int = 8) -> list[Fly]:
    """The fighter automaton's moves, best first: bonus attacks, other attacks, then interceptions (the
    interceptions only when fewer than ``k`` attacks are found)."""
    length = game.allowance(f)
    minimum = R.minimum_straight(f, length)
    closest = K.closest_bombers(game.state.options, f, game.flying_bombers())
    space = FlySpace(game, f.label, closest)
    target = closest[0] if closest else None
    plans: list[tuple[tuple[Any, ...], Fly]] = []
    if target is not None:
        bonus = _bonus_attacks(game, f, target, length, minimum)
        for plan, score in zip(bonus, _score_attacks(game, f, bonus, space), strict=True):
            if score is not None and not score[1]:
                plans.append((score, plan))
        if not plans:
            generic = _generic_attacks(game, f, target, length, minimum)
            for plan, score in zip(generic, _score_attacks(game, f, generic, space), strict=True):
                if score is not None:
                    plans.append((score, plan))
    plans.sort(key=lambda item: item[0])
    good = [plan for score, plan in plans if not score[0]]
    if len(good) >= k:
        return good[:k]
    return good + _intercept_moves(game, f, target, length, minimum, k - len(good))


# ----------------------------------------------------------------------------- bombers
def _over_target(dims: G.Dims, x: Any, y: Any, c: Any, s: Any) -> np.ndarray:
    """The fuselage's corners all within the target (the bots' quick form of ``geometry.over_target``) for a
    model at (x, y) whose heading has cosine ``c`` and sine ``s``: arrays that broadcast (the sums of
    ``geometry.local_to_world``)."""
    x0, y0, x1, y1 = TARGET
    half, side = dims.length / 2, dims.body_width / 2
    inside = np.ones(np.broadcast(x, y, c, s).shape, dtype=bool)
    for f_, l_ in ((half, side), (half, -side), (-half, side), (-half, -side)):
        px = x + f_ * c - l_ * s
        py = y + f_ * s + l_ * c
        inside &= (px >= x0 - TOLERANCE) & (px <= x1 + TOLERANCE) & (py >= y0 - TOLERANCE) & (py <= y1 + TOLERANCE)
    return inside


@lru_cache(maxsize=32)
def _next_moves(length: float, minimum: float) -> np.ndarray:
    """The ends of the doctrine's bomber moves in the bomber's own frame: rows of (forward, left, turn)."""
    rows = []
    for straight in sorted({minimum, round((minimum + length) / 2, 2), length}):
        turns = [0.0] if length - straight < 0.02 else [float(t) for t in range(-90, 91, 10) if t]
        for turn in turns:
            rad = math.radians(turn)
            rest = length - straight
            rows.append((straight + rest * math.cos(rad), rest * math.sin(rad), turn))
    return np.array(rows)


def _bombs_next_move(dims: G.Dims, x: float, y: float, heading: float, length: float, minimum: float) -> bool:
    """Whether one of the doctrine's next moves from (x, y, heading) ends with the fuselage over the target."""
    return _bombs_next_moves(dims, [(x, y, heading)], length, minimum)[0]


def _bombs_next_moves(
    dims: G.Dims, starts: list[tuple[float, float, float]], length: float, minimum: float
) -> list[bool]:
    """:func:`_bombs_next_move` for many starts at once (rows: starts, columns: the next moves)."""
    if not starts:
        return []
    moves = _next_moves(length, minimum)
    rad = [math.radians(h) for _, _, h in starts]
    x = np.array([p[0] for p in starts])[:, None]
    y = np.array([p[1] for p in starts])[:, None]
    c = np.array([math.cos(r) for r in rad])[:, None]
    s = np.array([math.sin(r) for r in rad])[:, None]
    ex = x + moves[None, :, 0] * c - moves[None, :, 1] * s
    ey = y + moves[None, :, 0] * s + moves[None, :, 1] * c
    eh = np.radians(np.array([p[2] for p in starts])[:, None] + moves[None, :, 2])
    inside = _over_target(dims, ex, ey, np.cos(eh), np.sin(eh))
    return [bool(v) for v in inside.any(axis=1)]


def _slot_offset(slot: str, dims: G.Dims) -> tuple[float, float]:
    back = (dims.length + BOX_SLACK) / 2
    side = (dims.span + BOX_SLACK) / 2
    return {"leader": (0.0, 0.0), "left": (-back, side), "right": (-back, -side), "last": (-2 * back, 0.0)}[slot]


def _box_leader(game: B17Game, a: Aircraft) -> Aircraft | None:
    for b in game.state.bombers():
        if b.box == a.box and b.flying and not b.bombed and not b.broke_off:
            return b
    return None


def bomber_plans(game: B17Game, a: Aircraft, k: int = 8) -> list[Fly]:
    """The bombers' doctrine for ``a``, best first: bomb now; else line up a run; else hold the box."""
    dims = game.dims(a)
    length = game.allowance(a)
    minimum = R.minimum_straight(a, length)
    ends = _path_ends(a, length, minimum, BOMBER_TURNS)
    straights, turns, gone = ends["straight"], ends["turn"], ends["leaves"].tolist()
    if a.bombed or a.broke_off:  # a bomber that broke off its run (option flak_damage) flies on likewise
        ordered = sorted(range(len(turns)), key=lambda i: (gone[i], abs(turns[i]), -straights[i]))
        return [Fly(a.label, straights[i], turns[i]) for i in ordered[:k]]
    leader = _box_leader(game, a)
    slot_aim = None
    if leader is not None and leader is not a:
        lx, ly, lh = leader.x, leader.y, leader.heading
        if leader.label in game.state.to_move:
            ux, uy = _unit(lh)
            step = game.allowance(leader)
            lx, ly = lx + ux * step, ly + uy * step
        ox, oy = _slot_offset(a.slot, dims)
        lo = _slot_offset(leader.slot, dims)
        slot_aim = G.local_to_world(lx, ly, lh, ox - lo[0], oy - lo[1]), lh
    scored: list[tuple[Any, ...]] = []
    runs: list[tuple[bool, float, float, float]] = []  # paths to look one move ahead from, all at once
    run_ends: list[tuple[float, float, float]] = []
    near = math.dist((a.x, a.y), TARGET_CENTRE) <= FINAL_APPROACH
    # a fuselage's corners are within half its diagonal of its centre, the centre within the move of the start
    if distance_to_rect(a.x, a.y, *TARGET) > length + math.hypot(dims.length, dims.body_width) / 2 + 2 * TOLERANCE:
        over = [False] * len(turns)
    else:
        over = _over_target(dims, np.array(ends["x"]), np.array(ends["y"]), ends["cos"], ends["sin"]).tolist()
    for x, y, h, leaves, bombs_now, straight, turn in zip(
        ends["x"], ends["y"], ends["h"], gone, over, straights, turns, strict=True
    ):
        d_target = math.dist((x, y), TARGET_CENTRE)
        if bombs_now:
            scored.append((leaves, 0, d_target, straight, turn))
            continue
        if slot_aim is not None and not near:
            (sx, sy), sh = slot_aim
            scored.append((leaves, 2, math.dist((x, y), (sx, sy)) + 0.05 * angle_between(h, sh), straight, turn))
            continue
        if d_target <= LOOKAHEAD:
            runs.append((leaves, d_target, straight, turn))
            run_ends.append((x, y, h))
            continue
        want = G.bearing(x, y, *TARGET_CENTRE)
        scored.append((leaves, 3, d_target + 0.02 * angle_between(h, want), straight, turn))
    for (leaves, d_target, straight, turn), bombs in zip(
        runs, _bombs_next_moves(dims, run_ends, length, minimum), strict=True
    ):
        scored.append(
            (leaves, 1, d_target, straight, turn) if bombs else (leaves, 3, abs(d_target - length), straight, turn)
        )
    scored.sort()
    return [Fly(a.label, s, t) for _, _, _, s, t in scored[:k]]
