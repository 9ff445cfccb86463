"""The fighter automaton's attacks (b17.23, b17.30, b17.34, b17.36; RULINGS B19): found and scored all at once.

A fighter's attack plans are a path (straight inches, a turn) and a stop within 4" of a bomber. The
doctrine (``bots``) weighs dozens a decision: the paths that bring its nose onto a bomber's axis
(:func:`_bonus_attacks`), a grid of paths and stops (:func:`_generic_stops`), and each plan's score
(:func:`_scores`: off the table, not a bonus attack, gunners met at the stop and the end, at the stop, the
stop), all of a decision's in one pass (:func:`weigh`, ``onepass``). They are measured with plain
trigonometry on arrays (``reckoning``); wherever a quick measure lies within ``reckoning.EDGE`` of a limit
the rules' own measure (shapely) decides, so the bots choose exactly as if every plan had gone through
``FlySpace.resolve``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import shapely

from grognard.core.geometry import ANGLE_TOLERANCE, TOLERANCE, angle_between, snap, snap_angle
from grognard.rulesets.b17 import ends as E
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import onepass as P
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
    after a whole move straight: ``onepass.path_grid``, the paths of the interceptions too) as (straight, turn)
    pairs, their straights and turns as arrays."""
    plans = P.path_grid(length, minimum, P.FIGHTER_TURNS)
    return plans, np.array([p[0] for p in plans]), np.array([p[1] for p in plans])


@lru_cache(maxsize=64)
def _grid_checked(length: float, minimum: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each grid path: the straight inches as ``FlySpace.resolve`` reads them (``_checked_path``; NaN where
    the rules refuse the path) and its turn snapped; for each stop of the grid (every half inch), the stop as a
    move keeps it (NaN where the rules refuse it) and the stop itself."""
    plans, _, _ = _grid_paths(length, minimum)
    checked = [_checked_path(length, minimum, snap(straight), snap(turn)) for straight, turn in plans]
    stops = np.arange(0.0, length + 1e-9, 0.5)
    kept = [snap(stop) for stop in stops.tolist()]
    return (
        np.array([math.nan if c is None else c for c in checked]),
        np.array([snap(turn) for _, turn in plans]),
        np.array([min(max(at, 0.0), length) if -TOLERANCE <= at <= length + TOLERANCE else math.nan for at in kept]),
        stops,
    )


def _generic_attacks(game: B17Game, f: Aircraft, target: Aircraft, length: float, minimum: float) -> list[Fly]:
    """Attacks within 4" found on a grid of paths and stops, two per path (first in range, closest).

    Every path's stops are measured at once with numpy and shapely (the rules check the plans chosen).
    """
    plans, _, _ = _grid_paths(length, minimum)
    stops = _grid_checked(length, minimum)[3]
    paths, at = _generic_stops(game, f, target, length, minimum)
    return [
        Fly(f.label, plans[p][0], plans[p][1], target.label, s)
        for p, s in zip(paths.tolist(), stops[at].tolist(), strict=True)
    ]


NONE = np.zeros(0, dtype=np.int64)


def _generic_stops(
    game: B17Game, f: Aircraft, target: Aircraft, length: float, minimum: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_generic_attacks` as the grid paths' indices (``_grid_paths``) and their stops' (every half
    inch: ``_grid_checked``), in the same order."""
    dims = game.dims(f)
    tdims = game.dims(target)
    spread = math.hypot(tdims.length, tdims.span) / 2  # no part of the bomber is farther from its centre
    if math.hypot(f.x - target.x, f.y - target.y) > length + dims.length / 2 + spread + ATTACK_RANGE + TOLERANCE:
        return NONE, NONE  # no nose on any path comes within 4" of the bomber
    _, straights, _ = _grid_paths(length, minimum)
    stops = _grid_checked(length, minimum)[3]
    h0 = math.radians(f.heading)
    # only the paths whose nose's two legs come within 4" of the bomber's outer circle are measured
    rows = np.nonzero(_legs_near(f, dims.length / 2, length, minimum, target, spread))[0]
    if rows.size == 0:
        return NONE, NONE
    cos_turn, sin_turn = _grid_geometry(f.heading, length, minimum, dims.length / 2)[:2]
    straight, cos_turn, sin_turn = straights[rows][:, None], cos_turn[rows], sin_turn[rows]
    first_leg = np.minimum(stops[None, :], straight)
    second_leg = np.maximum(stops[None, :] - straight, 0.0)
    after = stops[None, :] > straight
    c0, s0 = math.cos(h0), math.sin(h0)
    x = f.x + first_leg * c0 + second_leg * cos_turn
    y = f.y + first_leg * s0 + second_leg * sin_turn
    nx = x + dims.length / 2 * np.where(after, cos_turn, c0)  # the nose, along the heading at each stop
    ny = y + dims.length / 2 * np.where(after, sin_turn, s0)
    # the quick distances (square roots, to within a few units in the last place of hypot's): every verdict
    # below within EDGE of a limit or a tie is shapely's, so the grid's attacks are the same either way
    reach = K.distance_to_footprint(tdims, nx, ny, target.x, target.y, target.heading, True)
    gone = None if G.surely_on_table(f.x, f.y, length) else _gone(x, y)  # a stop past where the path left
    if gone is not None:
        reach = np.where(gone, np.inf, reach)
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
        reach[again] = exact if gone is None else np.where(gone[again], np.inf, exact)
    inside = reach <= ATTACK_RANGE
    hits = inside.any(axis=1)  # (no stop in range: none, nor a near row whose every stop is out of it)
    if not hits.any():
        return NONE, NONE
    inside, reach = inside[hits], reach[hits]
    first, best = inside.argmax(axis=1), reach.argmin(axis=1)
    two = best != first  # the closest stop too, when it is not the first in range
    paths = np.repeat(rows[hits], 1 + two)
    at = np.stack([first, best], axis=1)[np.stack([np.ones_like(two), two], axis=1)]
    return paths, at


def _gone(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """For each path (row) and stop (column) of the fighter's centre (x, y): whether the path has left the table
    at or before that stop."""
    off = (x < -TOLERANCE) | (x > G.TABLE_LENGTH + TOLERANCE) | (y < -TOLERANCE) | (y > G.TABLE_WIDTH + TOLERANCE)
    gone: np.ndarray = np.logical_or.accumulate(off, axis=1)
    return gone


def _legs_near(f: Aircraft, half: float, length: float, minimum: float, target: Aircraft, spread: float) -> np.ndarray:
    """For each grid path: whether the fighter's nose on either leg may come within 4" of the bomber (of the
    circle of radius ``spread`` round its centre); the nose runs along one segment a leg, so its least distance
    from the centre bounds every stop's (``half``: half the fighter's length). A bound with 0.02" to spare: a
    path it keeps has no stop in range or one, as a path it drops has none."""
    ax, ay, dx, dy, inverse = _grid_geometry(f.heading, length, minimum, half)[2:]
    tx, ty = target.x - f.x, target.y - f.y
    t = np.clip(((tx - ax) * dx + (ty - ay) * dy) * inverse, 0.0, 1.0)
    d = np.hypot(ax + t * dx - tx, ay + t * dy - ty)
    n = len(d) // 2
    near: np.ndarray = np.minimum(d[:n], d[n:]) - spread <= ATTACK_RANGE + 2 * TOLERANCE
    return near


@lru_cache(maxsize=512)  # some 5 kB an entry
def _grid_geometry(heading: float, length: float, minimum: float, half: float) -> tuple[np.ndarray, ...]:
    """What the grid's stops need of the fighter's heading (kept: headings come back turn after turn): each
    path's turned heading's cosine and sine (columns), and the segments its nose runs along, the first legs'
    then the second's, from the fighter's centre: their starts (x, y), their spans (x, y) and one over their
    squared lengths (0 for none)."""
    _, straights, turns = _grid_paths(length, minimum)
    turn = np.radians(heading + turns)[:, None]
    cos_turn, sin_turn = np.cos(turn), np.sin(turn)
    u0x, u0y = math.cos(math.radians(heading)), math.sin(math.radians(heading))
    turn_x, turn_y = straights * u0x, straights * u0y
    c, s, rest = cos_turn[:, 0], sin_turn[:, 0], length - straights
    ax = np.concatenate([np.full(len(straights), half * u0x), turn_x + half * c])
    ay = np.concatenate([np.full(len(straights), half * u0y), turn_y + half * s])
    bx = np.concatenate([turn_x + half * u0x, turn_x + (rest + half) * c])
    by = np.concatenate([turn_y + half * u0y, turn_y + (rest + half) * s])
    dx, dy = bx - ax, by - ay
    span = dx * dx + dy * dy
    inverse = np.where(span > 0, 1.0 / np.where(span > 0, span, 1.0), 0.0)
    return cos_turn, sin_turn, ax, ay, dx, dy, inverse


def _score_attack(game: B17Game, f: Aircraft, plan: Fly, space: FlySpace) -> Score | None:
    """One plan's score (see :func:`_score_attacks`)."""
    return _score_attacks(game, f, [plan], space)[0]


def _checked_path(length: float, minimum: float, straight: float, turn: float) -> float | None:
    """The straight inches of a (straight, turn) path as ``FlySpace.resolve`` reads them, or None when the
    rules refuse the path (b17.25, b17.29: ``rules.check_straight_and_turn``)."""
    straight = min(max(straight, 0.0), length) if abs(straight - length) <= TOLERANCE else straight
    if straight < minimum - TOLERANCE or straight > length + TOLERANCE or abs(turn) > 180.0 + ANGLE_TOLERANCE:
        return None
    if turn != 0 and length - straight < TOLERANCE:
        return None
    return min(straight, length)


def _checked_rows(game: B17Game, f: Aircraft, plans: list[Fly]) -> list[Row] | None:
    """The plans the rules allow, checked as ``FlySpace.resolve`` checks a plain attack (straight, turn, a
    bomber and a stop): (plan, straight, turn, stop, bomber) rows; None when a plan is not a plain attack (a
    bomber's move, a point to fly to: those go through ``space.resolve`` itself)."""
    if f.bomber or any(p.to is not None or p.straight is None or p.turn is None or p.target is None for p in plans):
        return None
    length = game.allowance(f)
    minimum = R.minimum_straight(f, length)
    rows: list[Row] = []
    for i, plan in enumerate(plans):
        assert plan.straight is not None and plan.turn is not None
        straight = _checked_path(length, minimum, plan.straight, plan.turn)
        if plan.aircraft != f.label or straight is None:
            continue
        bomber = game.state.aircraft.get(plan.target or "")
        if bomber is None or not bomber.bomber or not bomber.flying:
            continue  # b17.34
        stop = plan.at if plan.at is not None else 0.0
        if not (-TOLERANCE <= stop <= length + TOLERANCE):
            continue  # b17.30
        rows.append((i, straight, plan.turn, min(max(stop, 0.0), length), bomber))
    return rows


def _score_attacks(game: B17Game, f: Aircraft, plans: list[Fly], space: FlySpace) -> list[Score | None]:
    """Each legal plan's score (off the table, not a bonus attack, gunners met at the stop and the end,
    at the stop, the stop), None for a plan the rules refuse.

    A plain attack (straight, turn, a bomber and a stop) whose path stays on the table is checked here as
    ``FlySpace.resolve`` checks it (:func:`_checked_rows`) and measured with every other in one pass
    (:func:`_scores`, ``onepass.measure``); any other plan goes through ``space.resolve`` itself
    (:func:`_score_by_resolve`)."""
    if not plans:
        return []
    found = _checked_rows(game, f, plans)
    if found is None:
        return _score_by_resolve(game, f, plans, space)
    out: list[Score | None] = [None] * len(plans)
    if found:
        rows = P.rows_of(f, found)
        scores, _ = _scores(game, f, game.allowance(f), rows, space, lambda k: plans[int(rows.plan[k])])
        scores.into(out, rows.plan)
    return out


@dataclass(frozen=True)
class Scores:
    """The scores of rows of attacks (:data:`Score`, as arrays): ``valid`` where the rules allow the plan (a
    row without is scored nothing), ``off``, ``plain``, ``met``, ``at_stop``, ``stop``."""

    valid: np.ndarray
    off: np.ndarray
    plain: np.ndarray
    met: np.ndarray
    at_stop: np.ndarray
    stop: np.ndarray

    def into(self, out: list[Score | None], plan: np.ndarray) -> None:
        """Set ``out[plan[k]]`` to row k's score, for every valid row."""
        keep = self.valid
        parts = (self.off[keep], self.plain[keep], self.met[keep], self.at_stop[keep], self.stop[keep])
        for i, *score in zip(plan[keep].tolist(), *(part.tolist() for part in parts), strict=True):
            out[i] = (score[0], score[1], score[2], score[3], score[4])


NO_SCORES = Scores(*(np.zeros(0, dtype=kind) for kind in (bool, bool, bool, np.int64, np.int64, float)))


def _scores(
    game: B17Game,
    f: Aircraft,
    length: float,
    rows: P.Rows,
    space: FlySpace,
    plan_of: Callable[[int], Fly],
    fan: dict[str, Any] | None = None,
    bombers: list[Aircraft] | None = None,
) -> tuple[Scores, P.Measured]:
    """The rows' scores (``onepass.measure``, with the paths' ends ``fan``; ``bombers``: the flying bombers):
    a row whose path leaves the table is scored by ``space.resolve`` (``plan_of`` makes its plan: whether it
    leaves before the stop)."""
    m = P.measure(game, f, length, rows, fan, bombers)
    options = game.state.options
    valid = m.stays & (m.reach <= ATTACK_RANGE + TOLERANCE)  # b17.34
    if options["auto_intercept"] and len(rows):  # b17.23: the fighters attack the closest bomber
        closest = space.closest if space.closest is not None else R.closest_bombers(options, f, game.flying_bombers())
        valid &= np.array([b in closest for b in rows.bombers])
    scores = Scores(valid, m.off, m.plain, m.at_stop + m.at_end + m.next_reach, m.at_stop, rows.stop)
    again = np.nonzero(~m.stays)[0].tolist()
    if again:
        scores = Scores(valid, m.off.copy(), m.plain.copy(), scores.met, m.at_stop.copy(), rows.stop.copy())
        for k, score in zip(again, _score_by_resolve(game, f, [plan_of(k) for k in again], space), strict=True):
            scores.valid[k] = score is not None
            if score is not None:
                scores.off[k], scores.plain[k], scores.met[k], scores.at_stop[k], scores.stop[k] = score
    return scores, m


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
    ends = at[1::2]
    xs, ys, hs = [e[0] for e in ends], [e[1] for e in ends], [e[2] for e in ends]
    off, reach = E.forced_off(xs, ys, hs), E.in_reach(game, f, xs, ys)  # the doctrine's clauses edge and reach
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


def _grid_rows(
    game: B17Game, f: Aircraft, target: Aircraft, length: float, minimum: float
) -> tuple[P.Rows, np.ndarray, np.ndarray]:
    """The grid's attacks on ``target`` (:func:`_generic_stops`: the grid paths' and stops' indices), and those
    the rules allow as rows (a row's plan: the index of its attack; its end: its path's, ``onepass.path_ends``
    and the grid being the same paths)."""
    paths, at = _generic_stops(game, f, target, length, minimum)
    if not paths.size:  # no stop of the grid in range (most decisions without an attack): no rows
        return P.NO_ROWS, paths, at
    checked, turns, kept, _ = _grid_checked(length, minimum)
    straight, stop = checked[paths], kept[at]
    ok = np.nonzero(~(np.isnan(straight) | np.isnan(stop)))[0]
    p = paths[ok]
    heading, cos, sin = P.fan_legs(f.heading, length, minimum)
    rows = P.Rows(ok, straight[ok], turns[p].tolist(), stop[ok], heading[p], cos[p], sin[p], (target,) * len(ok), p)
    return rows, paths, at


def _triple(length: float, minimum: float, path: int, at: int) -> tuple[float, float, float]:
    """The grid's attack of path index ``path`` and stop index ``at`` as (straight, turn, stop)."""
    straight, turn = _grid_paths(length, minimum)[0][path]
    return straight, turn, float(_grid_checked(length, minimum)[3][at])


def generic_scored(
    game: B17Game, f: Aircraft, target: Aircraft, length: float, minimum: float, space: FlySpace
) -> list[tuple[Score, tuple[float, float, float]]]:
    """The scored plans of ``_score_attacks(_generic_attacks(...))`` that the rules allow, as (score,
    (straight, turn, stop)) in the same order, without making a move of each (the doctrine makes only
    the one it flies)."""
    rows, paths, at = _grid_rows(game, f, target, length, minimum)
    out: list[Score | None] = [None] * len(paths)
    if len(rows):
        scores, _ = _scores(game, f, length, rows, space, lambda k: _grid_plan(f, rows, k))
        scores.into(out, rows.plan)
    triples = [_triple(length, minimum, p, a) for p, a in zip(paths.tolist(), at.tolist(), strict=True)]
    return [(score, triples[i]) for i, score in enumerate(out) if score is not None]


def _grid_plan(f: Aircraft, rows: P.Rows, k: int) -> Fly:
    """Row k's plan, made of the row (as the move keeps it)."""
    straight, stop = float(rows.straight[k]), float(rows.stop[k])
    return Fly(f.label, straight, rows.turn[k], rows.bombers[k].label, stop)


@dataclass(frozen=True)
class Weighed:
    """A fighter's decision measured in one pass (:func:`weigh`): its attacks as rows (the paths onto the
    bomber's axis first, then the grid's) and their ``scores``, ``candidate`` where the doctrine weighs one (a
    valid row; of the first kind, only with the +1); the paths' ends (``onepass.path_ends``) with what an
    interception weighs at each: off the table now or next move (``leaves``), and the gunners met there and
    in the bombers' next reach (``met``)."""

    rows: P.Rows
    scores: Scores
    candidate: np.ndarray
    first_grid: int  # the rows before it are the paths onto the axis
    bonus: list[Fly]
    grid: tuple[float, float, np.ndarray, np.ndarray]  # the grid's length, minimum, paths' and stops' indices
    ends: dict[str, Any]
    leaves: np.ndarray
    met: np.ndarray

    def plan(self, k: int, f: Aircraft) -> Fly:
        """Row k's plan, as the doctrine makes it."""
        if k < self.first_grid:
            return self.bonus[int(self.rows.plan[k])]
        length, minimum, paths, at = self.grid
        i = int(self.rows.plan[k])
        straight, turn, stop = _triple(length, minimum, int(paths[i]), int(at[i]))
        return Fly(f.label, straight, turn, self.rows.bombers[k].label, stop)


def weigh(
    game: B17Game,
    f: Aircraft,
    length: float,
    minimum: float,
    target: Aircraft | None,
    space: FlySpace,
    bombers: list[Aircraft] | None = None,
) -> Weighed:
    """The fighter ``f``'s decision measured (:class:`Weighed`): every attack on ``target`` and every path's
    end, the gunners, the edge and the reach each by one call for all (``bombers``: the flying bombers)."""
    ends = P.path_ends(f, length, minimum, P.FIGHTER_TURNS)
    bonus = _bonus_attacks(game, f, target, length, minimum) if target is not None else []
    found = _checked_rows(game, f, bonus) if bonus else []
    assert found is not None  # a fighter's attacks onto the axis: plain attacks
    nb = len(found)
    if target is not None:
        rows, paths, at = _grid_rows(game, f, target, length, minimum)
        rows = P.joined(P.rows_of(f, found), rows) if nb else rows
    else:
        rows, paths, at = P.NO_ROWS, NONE, NONE
    if not len(rows):  # no attack to weigh: the paths' ends alone (``onepass.measure``), no scores to make
        m = P.measure(game, f, length, rows, ends, bombers)
        leaves = ends["leaves"] | m.fan_off
        return Weighed(
            rows,
            NO_SCORES,
            NO_SCORES.valid,
            0,
            bonus,
            (length, minimum, paths, at),
            ends,
            leaves,
            m.fan_met + m.fan_reach,
        )

    def plan_of(k: int) -> Fly:
        return bonus[int(rows.plan[k])] if k < nb else _grid_plan(f, rows, k)

    scores, m = _scores(game, f, length, rows, space, plan_of, ends, bombers)
    candidate = scores.valid
    if nb:
        candidate = candidate.copy()
        candidate[:nb] &= ~scores.plain[:nb]
    leaves = ends["leaves"] | m.fan_off
    return Weighed(
        rows, scores, candidate, nb, bonus, (length, minimum, paths, at), ends, leaves, m.fan_met + m.fan_reach
    )
