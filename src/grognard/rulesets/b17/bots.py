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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from grognard.core.engine import Decision
from grognard.core.geometry import TOLERANCE, distance_to_rect
from grognard.core.plans import Plan, sealed_reason
from grognard.core.reasons import Reason, acting
from grognard.rulesets.b17 import attacks as A
from grognard.rulesets.b17 import ends as E
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import reckoning as K
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly, Guns
from grognard.rulesets.b17.attacks import (  # noqa: F401  (the search's candidates and the tests use them from here)
    Score,
    _bonus_attacks,
    _generic_attacks,
    _guns_met,
    _score_attack,
    _score_attacks,
    _score_by_resolve,
    _unit,
    generic_scored,
    guns_met,
)
from grognard.rulesets.b17.data import PAIRS, TARGET
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.onepass import path_ends as _path_ends
from grognard.rulesets.b17.spaces import FlySpace
from grognard.rulesets.b17.state import Aircraft

TARGET_CENTRE = ((TARGET[0] + TARGET[2]) / 2, (TARGET[1] + TARGET[3]) / 2)
FINAL_APPROACH = 30.0  # inches from the target's centre where a bomber leaves the box for its own run
LOOKAHEAD = 25.0  # inches: within this a bomber looks one move ahead for a bomb run
BOX_SLACK = 4.5  # the box the followers hold: the minimum spacing and half an inch
VARY_ASIDE = 4.0  # inches an interception's spot may lie to the bomber's side (clause variety)
VARY_LEAN = 6.0  # inches of handicap one interception's spot may carry against the other's (clause variety)
WEAVE = 8.0  # inches the box leader's aim may lie to either side of the target's centre on the way in (variety)
WEAVE_UNTIL = 60.0  # inches from the target's centre: nearer, the leader aims at the centre itself


class DoctrineBot:
    """Plays either side of the B-17 raid by the seed's doctrine; ``rng`` varies the plan (the doctrine's
    clause *variety*): the box's lane, the leader's aim on the way in, the interceptions' approach."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.plan: Plan | None = None  # the fighters' plan (plans.toml), when the game has them follow one

    def follow(self, plan: Plan) -> None:
        """Fly the fighters by ``plan``'s priorities (``plain_cost``, ``approach``) for the rest of the raid."""
        self.plan = plan

    def choose(self, game: B17Game, decision: Decision) -> Any:
        kind = decision.id.split(" ", 1)[0]
        if kind == "place":
            lanes = decision.space.candidates(8)
            return lanes[int(self.rng.integers(len(lanes)))]
        if kind == "guns":
            return gun_choice(game, decision)
        if kind == "move":
            a = game.aircraft(decision.id.split(" ", 1)[1])
            plans = move_candidates(game, a, 1, self.rng, self.plan)
            if plans and decision.space.contains(plans[0]):
                return plans[0]
        return decision.space.sample(self.rng)

    def explain(self, game: B17Game, decision: Decision, action: Any) -> Reason:
        """Why ``action`` (chosen for ``decision``, not yet applied): the book's clause (``reasons``)."""
        from grognard.rulesets.b17.reasons import book_reason, piece

        kind, _, label = decision.id.partition(" ")
        if self.plan is not None and kind == "move" and not game.aircraft(label).bomber:
            return acting(sealed_reason(action), piece(action))  # a fighter under a plan (core.plans)
        return acting(book_reason(game, decision, action), piece(action))


def gun_choice(game: B17Game, decision: Decision) -> Guns:
    """The pair with more guns in range that have not fired this occasion; nose and tail on a tie."""
    options: list[Guns] = list(decision.space.candidates(4))
    s = game.state

    def guns(action: Guns) -> int:
        in_range = R.guns_in_range(s.options, game.aircraft(action.bomber), game.aircraft(action.fighter))
        used = s.guns_used.get(action.bomber, [])
        return sum(1 for g in PAIRS[action.pair] if g in in_range and g not in used)

    return max(options, key=lambda o: (guns(o), o.pair == "nose-tail"))


def move_candidates(
    game: B17Game, a: Aircraft, k: int = 8, rng: np.random.Generator | None = None, plan: Plan | None = None
) -> list[Fly]:
    """The doctrine's moves for ``a``, best first (at most ``k``); ``rng`` varies the plan (clause *variety*);
    ``plan``: the fighters' plan, if they follow one."""
    return fighter_plans(game, a, k, rng, plan) if not a.bomber else bomber_plans(game, a, k, rng)


# ----------------------------------------------------------------------------- paths, all at once
BOMBER_TURNS = tuple(float(t) for t in range(-90, 91, 10) if t)


def _intercept_moves(
    game: B17Game,
    f: Aircraft,
    target: Aircraft | None,
    length: float,
    minimum: float,
    k: int | None = None,
    rng: np.random.Generator | None = None,
    approach: str = "either",
    weighed: A.Weighed | None = None,
) -> list[Fly]:
    """No attack in reach: fly to a spot ahead of the bomber's next position, facing it, off the guns (the
    best ``k``, or all); ``rng`` moves the spots and leans to one of them (clause *variety*); ``approach``
    (a plan's): ``head-on`` or ``behind`` keeps that spot alone, ``either`` both. ``weighed``: the decision's
    pass (``attacks.weigh``), which measured the paths' ends already."""
    aims: list[tuple[tuple[float, float], float, float]] = []  # the spot, the heading wanted there, a handicap
    if target is None:
        aims.append(((54.0, 30.0), f.heading, 0.0))
    else:
        bx, by = _unit(target.heading)
        step = R.allowance(target)
        nx, ny = target.x + bx * step, target.y + by * step  # where the bomber will be when the fighter next moves
        for sign, want in ((1.0, target.heading + 180.0), (-1.0, target.heading)):  # head-on; from behind
            if approach != "either" and (sign > 0) != (approach == "head-on"):
                continue
            ahead, aside, handicap = (10.0, 0.0, 0.0) if rng is None else _varied(rng)
            x = nx + sign * bx * ahead - by * aside
            y = ny + sign * by * ahead + bx * aside
            aims.append(((x, y), want, handicap))
    aims = [((min(max(x, 3.0), 105.0), min(max(y, 3.0), 57.0)), h, c) for (x, y), h, c in aims]
    if weighed is None:
        weighed = A.weigh(game, f, length, minimum, None, FlySpace(game, f.label))
    # the doctrine's clauses edge and reach (ends.py): a move whose end dooms the next one is as bad as leaving
    ends, leaves_all, met_all = weighed.ends, weighed.leaves, weighed.met
    xs, ys, hs = ends["x"], ends["y"], ends["h"]
    dist, remainder = math.dist, math.remainder  # angle_between(h, want) is abs(remainder(h - want, 360))

    def score(i: int) -> tuple[bool, float]:
        x, y, h, leave = xs[i], ys[i], hs[i], bool(leaves_all[i])
        miss = min([dist((x, y), aim) + 0.05 * abs(remainder(h - want, 360.0)) + c for aim, want, c in aims])
        return leave, miss + 6.0 * (0 if leave else int(met_all[i]))

    if k == 1:  # the best only: the scores all at once, the exact sums for the few within 1e-7 of the least
        rough = _rough_intercept_scores(ends, aims, leaves_all, met_all)
        least = rough.min()
        best = min(np.nonzero(rough <= least + 1e-7)[0].tolist(), key=lambda i: (score(i), i))
        return [Fly(f.label, ends["straight"][best], ends["turn"][best])]
    order = sorted(range(len(xs)), key=score)
    return [Fly(f.label, ends["straight"][i], ends["turn"][i]) for i in order[:k]]


def _rough_intercept_scores(
    ends: dict[str, Any], aims: list[tuple[tuple[float, float], float, float]], leaves: np.ndarray, met: np.ndarray
) -> np.ndarray:
    """The interceptions' scores of :func:`_intercept_moves` with numpy (within 1e-9 of the exact sums), an
    interception that leaves the table scored above any other."""
    x, y, h = ends["xa"], ends["ya"], ends["ha"]
    miss = np.full(len(x), np.inf)
    for (ax, ay), want, handicap in aims:
        off = np.abs((h - want + 180.0) % 360.0 - 180.0)
        miss = np.minimum(miss, np.hypot(x - ax, y - ay) + 0.05 * off + handicap)
    scores: np.ndarray = np.where(leaves, miss + 1e6, miss + 6.0 * met)
    return scores


def _varied(rng: np.random.Generator) -> tuple[float, float, float]:
    """An interception's spot varied (clause *variety*): inches ahead of (or behind) the bomber's next
    position, inches to its side, and a handicap in inches that leans the fighter to the other spot. Drawn as
    ``rng.uniform((6, -VARY_ASIDE, 0), (14, VARY_ASIDE, VARY_LEAN))`` draws them (low + (high - low) x a
    uniform number), from the same three numbers of the stream, without its arrays."""
    ahead, aside, handicap = rng.random(3).tolist()
    return (
        6.0 + (14.0 - 6.0) * ahead,
        -VARY_ASIDE + (VARY_ASIDE - -VARY_ASIDE) * aside,
        0.0 + (VARY_LEAN - 0.0) * handicap,
    )


def fighter_plans(
    game: B17Game, f: Aircraft, k: int = 8, rng: np.random.Generator | None = None, side_plan: Plan | None = None
) -> list[Fly]:
    """The fighter automaton's moves, best first: the attacks on the closest bomber, directly head-on or from
    behind and plain, by the gunners they meet (a plain attack counting ``ends.PLAIN`` more) and with the +1
    first on a tie; then interceptions (only when fewer than ``k`` attacks are found). No move that leaves
    the table now or next move (``ends.forced_off``) is an attack. The German ``side_plan`` (a plan of
    ``plans.toml``) sets the gunners a plain attack counts (``plain_cost``) and the interceptions' ``approach``.
    Every attack and every path's end is measured in one pass (``attacks.weigh``)."""
    plain = E.PLAIN if side_plan is None else side_plan.priorities.get("plain_cost", E.PLAIN)
    approach = "either" if side_plan is None else side_plan.priorities.get("approach", "either")
    length = game.allowance(f)
    minimum = R.minimum_straight(f, length)
    bombers = game.flying_bombers()
    closest = K.closest_bombers(game.state.options, f, bombers)
    space = FlySpace(game, f.label, closest)
    target = closest[0] if closest else None
    weighed = A.weigh(game, f, length, minimum, target, space, bombers)
    # the +1 is weighed against the gunners met (the doctrine's clause gunners): the least cost first, then
    # off the table, no +1, the gunners, those at the stop, the stop, and the order found
    good: list[Fly] = []
    if len(weighed.rows):
        s = weighed.scores
        rows = np.nonzero(weighed.candidate)[0]
        off, p, met = s.off[rows], s.plain[rows], s.met[rows]
        order = np.lexsort((rows, s.stop[rows], s.at_stop[rows], met, p, met + plain * p, off))
        good = [weighed.plan(int(rows[j]), f) for j in order[:k].tolist() if not off[j]]
        if len(good) >= k:
            return good
    return good + _intercept_moves(game, f, target, length, minimum, k - len(good), rng, approach, weighed)


# ----------------------------------------------------------------------------- bombers
def _over_target(dims: G.Dims, x: Any, y: Any, c: Any, s: Any) -> np.ndarray:
    """The fuselage's corners all within the target (the bots' quick form of ``geometry.over_target``) for a
    model at (x, y) whose heading has cosine ``c`` and sine ``s``: arrays that broadcast (the sums of
    ``geometry.local_to_world``)."""
    x0, y0, x1, y1 = TARGET
    forward, left = _corners(dims, np.broadcast(x, y, c, s).ndim)
    px = x + forward * c - left * s  # the four corners along a first axis: the same sums, corner by corner
    py = y + forward * s + left * c
    inside = (px >= x0 - TOLERANCE) & (px <= x1 + TOLERANCE) & (py >= y0 - TOLERANCE) & (py <= y1 + TOLERANCE)
    every: np.ndarray = inside.all(axis=0)
    return every


@lru_cache(maxsize=32)
def _corners(dims: G.Dims, ndim: int) -> tuple[np.ndarray, np.ndarray]:
    """The fuselage's four corners in the model's frame, (forward, left), each an array along a first axis
    before ``ndim`` axes of positions."""
    half, side = dims.length / 2, dims.body_width / 2
    shape = (4,) + (1,) * ndim
    return np.array([half, half, -half, -half]).reshape(shape), np.array([side, -side, side, -side]).reshape(shape)


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
    out = [False] * len(starts)
    # a fuselage's corners are within half its diagonal of its centre, the centre within the move of the start
    reach = length + math.hypot(dims.length, dims.body_width) / 2 + 2 * TOLERANCE
    maybe = [i for i, (x, y, _) in enumerate(starts) if distance_to_rect(x, y, *TARGET) <= reach]
    if not maybe:
        return out
    starts = [starts[i] for i in maybe]
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
    found: list[bool] = np.any(inside, axis=1).tolist()
    for i, v in zip(maybe, found, strict=True):
        out[i] = v
    return out


def _slot_offset(slot: str, dims: G.Dims) -> tuple[float, float]:
    back = (dims.length + BOX_SLACK) / 2
    side = (dims.span + BOX_SLACK) / 2
    return {"leader": (0.0, 0.0), "left": (-back, side), "right": (-back, -side), "last": (-2 * back, 0.0)}[slot]


def _box_leader(game: B17Game, a: Aircraft, fastest: bool = False) -> Aircraft | None:
    """The bomber ``a``'s box holds to: its first still on the way in (the book), or with ``fastest`` the one
    of them with the longest move, the first on a tie (a variant measured in docs/rules/b17.md, not the book)."""
    way_in = [b for b in game.state.bombers() if b.box == a.box and b.flying and not b.bombed and not b.broke_off]
    if not way_in:
        return None
    return max(way_in, key=lambda b: (R.allowance(b), -way_in.index(b))) if fastest else way_in[0]


def bomber_plans(game: B17Game, a: Aircraft, k: int = 8, rng: np.random.Generator | None = None) -> list[Fly]:
    """The bombers' doctrine for ``a``, best first: bomb now; else line up a run; else hold the box (the
    leader flies for the target; ``rng`` moves its aim up to ``WEAVE`` to a side on the way in). The best
    alone (``k`` 1, the doctrine's own move) is found in one pass over the moves (:func:`_bomber_best`)."""
    if k == 1:
        best = _bomber_best(game, a, rng)
        return [] if best is None else [Fly(a.label, best[3], best[4])]
    scored, _ = bomber_scored(game, a, rng)
    return [Fly(a.label, row[3], row[4]) for row in sorted(scored)[:k]]


@dataclass(frozen=True)
class _Aims:
    """What a bomber's moves are weighed by (:func:`bomber_scored`): its measures and the ends of its moves
    (``ends``, :func:`_path_ends`); which ends put the fuselage over the target (``over``); whether it holds
    its place in the box (``hold``) at ``slot`` (x, y, heading), else flies for ``aim`` (x, y), looking a move
    ahead for its bomb run within ``LOOKAHEAD`` when ``lookahead``; ``on``: the rows themselves of a bomber that
    has bombed or broken off its run (it flies straight on), else None."""

    on: list[tuple[Any, ...]] | None
    dims: G.Dims
    length: float
    minimum: float
    ends: dict[str, Any]
    over: list[bool]
    hold: bool
    slot: tuple[float, float, float]
    aim: tuple[float, float]
    lookahead: bool


def bomber_scored(
    game: B17Game,
    a: Aircraft,
    rng: np.random.Generator | None = None,
    *,
    lookahead: bool = True,
    weave: tuple[float, float] = (WEAVE, WEAVE_UNTIL),
    fastest: bool = False,
) -> tuple[list[tuple[Any, ...]], dict[str, Any]]:
    """The doctrine's bomber moves for ``a`` scored (:func:`bomber_plans`), unsorted: rows of (off the table,
    aim: 0 bomb now, 1 line up a run, 2 hold the box, 3 fly for the target; inches from the aim, straight,
    turn, the index of the end in ``ends``), and the ends (:func:`_path_ends`); without ``lookahead`` it
    never looks a move ahead for its bomb run (it flies for the target's centre and bombs if it ends over it);
    ``weave``: inches the leader's aim may lie to a side, and from how far off the target it may; ``fastest``:
    the box holds to its fastest bomber (:func:`_box_leader`)."""
    aims = _aims(game, a, rng, lookahead, weave, fastest)
    return (_scored_rows(aims) if aims.on is None else aims.on), aims.ends


def _aims(
    game: B17Game,
    a: Aircraft,
    rng: np.random.Generator | None,
    lookahead: bool,
    weave: tuple[float, float],
    fastest: bool,
) -> _Aims:
    """The bomber's :class:`_Aims` (``rng`` read as :func:`bomber_scored` reads it)."""
    dims = game.dims(a)
    length = game.allowance(a)
    minimum = R.minimum_straight(a, length)
    ends = _path_ends(a, length, minimum, BOMBER_TURNS)
    straights, turns = ends["straight"], ends["turn"]
    if a.bombed or a.broke_off:  # a bomber that broke off its run (option flak_damage) flies on likewise
        gone = ends["leaves"].tolist()
        on = [(gone[i], 4, abs(turns[i]) - straights[i] / 100, straights[i], turns[i], i) for i in range(len(turns))]
        return _Aims(on, dims, length, minimum, ends, [], False, (0.0, 0.0, 0.0), (0.0, 0.0), lookahead)
    leader = _box_leader(game, a, fastest)
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
    near = math.dist((a.x, a.y), TARGET_CENTRE) <= FINAL_APPROACH
    # a fuselage's corners are within half its diagonal of its centre, the centre within the move of the start
    if distance_to_rect(a.x, a.y, *TARGET) > length + math.hypot(dims.length, dims.body_width) / 2 + 2 * TOLERANCE:
        over = [False] * len(turns)
    else:
        over = _over_target(dims, ends["xa"], ends["ya"], ends["cos"], ends["sin"]).tolist()
    cx, cy = TARGET_CENTRE
    far = math.dist((a.x, a.y), TARGET_CENTRE) > weave[1]
    ax, ay = (cx, cy + float(rng.uniform(-weave[0], weave[0]))) if rng is not None and far else (cx, cy)
    (sx, sy), sh = slot_aim if slot_aim is not None else ((0.0, 0.0), 0.0)
    hold = slot_aim is not None and not near
    return _Aims(None, dims, length, minimum, ends, over, hold, (sx, sy, sh), (ax, ay), lookahead)


def _runs(aims: _Aims, d_target: Sequence[float]) -> list[bool]:
    """For each end: whether the bomber looks a move ahead from it for its bomb run (within ``LOOKAHEAD`` of
    the target's centre, not bombing now nor holding the box)."""
    if aims.hold or not aims.lookahead:
        return [False] * len(d_target)
    return [not over and d <= LOOKAHEAD for over, d in zip(aims.over, d_target, strict=True)]


def _row(aims: _Aims, i: int, d_target: float, bombs: bool) -> tuple[Any, ...]:
    """The row of :func:`bomber_scored` of end ``i`` (``d_target``: inches from the target's centre there;
    ``bombs``: a move from there bombs, when the bomber looks ahead from it)."""
    ends = aims.ends
    x, y, h = ends["x"][i], ends["y"][i], ends["h"][i]
    leaves, straight, turn = bool(ends["leaves"][i]), ends["straight"][i], ends["turn"][i]
    # angle_between(h, want) is abs(remainder(h - want, 360)), G.bearing degrees(atan2(dy, dx)): written out
    if aims.over[i]:
        return (leaves, 0, d_target, straight, turn, i)
    if aims.hold:
        sx, sy, sh = aims.slot
        return (leaves, 2, math.dist((x, y), (sx, sy)) + 0.05 * abs(math.remainder(h - sh, 360.0)), straight, turn, i)
    if d_target <= LOOKAHEAD and aims.lookahead:
        return (
            (leaves, 1, d_target, straight, turn, i)
            if bombs
            else (leaves, 3, abs(d_target - aims.length), straight, turn, i)
        )
    ax, ay = aims.aim
    want = math.degrees(math.atan2(ay - y, ax - x))
    d_aim = d_target if (ax, ay) == TARGET_CENTRE else math.dist((x, y), (ax, ay))
    return (leaves, 3, d_aim + 0.02 * abs(math.remainder(h - want, 360.0)), straight, turn, i)


def _scored_rows(aims: _Aims) -> list[tuple[Any, ...]]:
    """Every row of :func:`bomber_scored`: the ends in order, those it looks ahead from last (their moves ahead
    measured all at once)."""
    ends = aims.ends
    d_target = [math.dist((x, y), TARGET_CENTRE) for x, y in zip(ends["x"], ends["y"], strict=True)]
    runs = _runs(aims, d_target)
    ahead = [i for i, run in enumerate(runs) if run]
    starts = [(ends["x"][i], ends["y"][i], ends["h"][i]) for i in ahead]
    bombs = _bombs_next_moves(aims.dims, starts, aims.length, aims.minimum)
    scored = [_row(aims, i, d, False) for i, (d, run) in enumerate(zip(d_target, runs, strict=True)) if not run]
    return scored + [_row(aims, i, d_target[i], b) for i, b in zip(ahead, bombs, strict=True)]


def _bomber_best(game: B17Game, a: Aircraft, rng: np.random.Generator | None) -> tuple[Any, ...] | None:
    """The least row of :func:`bomber_scored` (the doctrine's move). A bomber holding the box, or flying for
    the target with no end over it or within look-ahead of it (most moves), has all its moves of one aim: their
    inches from it over arrays, and the exact row of each within 1e-7 of the least (of those staying on the
    table); a bomber with a move that bombs now and stays on the table, those moves' rows alone (they come
    first: it need not look ahead); any other bomber's rows one by one (37 ends: plain Python is quicker there
    than numpy)."""
    aims = _aims(game, a, rng, True, (WEAVE, WEAVE_UNTIL), False)
    if aims.on is not None:
        return min(aims.on) if aims.on else None
    ends = aims.ends
    one_aim = not any(aims.over) and (
        aims.hold or math.dist((a.x, a.y), TARGET_CENTRE) > LOOKAHEAD + aims.length + 2 * TOLERANCE
    )
    if not one_aim:
        leaves = ends["leaves"].tolist()
        bombing = [i for i, over in enumerate(aims.over) if over and not leaves[i]]
        if bombing:  # a move that bombs now and stays on the table comes before any other row: no look ahead
            return min(_row(aims, i, math.dist((ends["x"][i], ends["y"][i]), TARGET_CENTRE), False) for i in bombing)
        return min(_scored_rows(aims))
    x, y, h = ends["xa"], ends["ya"], ends["ha"]
    if aims.hold:
        sx, sy, sh = aims.slot
        score = np.hypot(x - sx, y - sy) + 0.05 * _off(h, sh)
    else:
        ax, ay = aims.aim
        score = np.hypot(x - ax, y - ay) + 0.02 * _off(h, np.degrees(np.arctan2(ay - y, ax - x)))
    leaves = ends["leaves"]
    if not leaves.all():
        score = np.where(leaves, np.inf, score)  # off the table sorts after every move that stays on it
    near = np.nonzero(score <= score.min() + 1e-7)[0].tolist()
    return min(_row(aims, i, math.dist((ends["x"][i], ends["y"][i]), TARGET_CENTRE), False) for i in near)


def _off(h: np.ndarray, want: Any) -> np.ndarray:
    """``angle_between(h, want)`` of each heading, quickly (within 1e-12 degrees)."""
    off: np.ndarray = np.abs((h - want + 180.0) % 360.0 - 180.0)
    return off
