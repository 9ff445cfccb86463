"""The doctrine bots: the seed's own advice to each side, played (omaha.27, omaha.28).

Germans: concentrate every bunker and every artillery strike of the turn on a
single squad, the one closest to the sea wall (the furthest up the beach),
so that it fails morale. Americans: get to the sea wall as fast as possible;
a squad still mostly whole (7 figures or more) shoots at the bunker in front;
a squad that has lost men clears obstacles and assaults; a squad follows up
another's success by heading for a cleared section near it; once past the
wall it goes for the nearest bunker and assaults it.

The bots read the state directly: Omaha hides nothing, so this equals the view.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from grognard.core.engine import Decision
from grognard.core.plans import Plan, sealed_reason
from grognard.core.reasons import Reason, acting
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move, PlaceBunkers
from grognard.rulesets.omaha.data import BAND_END_Y, OBSTACLE_SECTION_WIDTH, WALL_Y
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.spaces import BELOW_WALL_Y, OrdersSpace, TargetSpace, reached
from grognard.rulesets.omaha.state import Squad

MOSTLY_WHOLE = 7  # "most of the squad": more than half of 12
FOLLOW_UP_REACH = 8.0  # inches sideways a squad goes to reach a cleared section


class DoctrineBot:
    """Plays either side of Omaha by the seed's advice; ``rng`` breaks ties."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.plan: Plan | None = None  # the Germans' plan (plans.toml), when the game has them follow one

    def follow(self, plan: Plan) -> None:
        """Rank the squads by ``plan``'s priorities (``bunkers``, ``artillery``) for the rest of the game."""
        self.plan = plan

    def choose(self, game: OmahaGame, decision: Decision) -> Any:
        space = decision.space
        if type(space) is OrdersSpace:  # a squad's orders: its moves built by the space (issued, not checked again)
            return american_orders(game, space.squad, space)
        if type(space) is TargetSpace and self.plan is None:  # a bunker's fire or a strike, by the book
            artillery = space.artillery
            memo = game.target_memo  # german_target's, read here (the Germans' every weapon asks)
            if memo is None or memo[0] is not game.state or memo[1] != game.squads_version:
                return aimed(artillery, space.who, german_target(game, artillery=artillery))
            return aimed(artillery, space.who, memo[3] if artillery else memo[2])
        kind, _, label = decision.id.partition(" ")
        if kind == "fire":
            if self.plan is not None:
                return BunkerFire(label, planned_target(game, self.plan.priorities["bunkers"], artillery=False))
            return BunkerFire(label, german_target(game, artillery=False))
        if kind == "artillery":
            if self.plan is not None:
                return Artillery(label, planned_target(game, self.plan.priorities["artillery"], artillery=True))
            return Artillery(label, german_target(game, artillery=True))
        if kind == "place":
            return place_bunkers(game, decision, self.rng)
        return decision.space.sample(self.rng)

    def explain(self, game: OmahaGame, decision: Decision, action: Any) -> Reason:
        """Why ``action`` (not yet applied): the clause of omaha.27 or omaha.28 that chose it (``reasons``); a
        German weapon's under a plan, the plan's sealed reason (``core.plans.sealed_reason``)."""
        from grognard.rulesets.omaha.reasons import book_reason, piece

        if self.planned(decision):
            return acting(sealed_reason(action), piece(action))
        return acting(book_reason(game, decision, action), piece(action))

    def planned(self, decision: Decision) -> bool:
        """Whether ``decision`` is one a plan chooses (a bunker's fire or a strike, the bot following a plan)."""
        return self.plan is not None and decision.id.partition(" ")[0] in ("fire", "artillery")


_AIMED: dict[tuple[bool, str, str | None], BunkerFire | Artillery] = {}  # see aimed


def aimed(artillery: bool, who: str, target: str | None) -> BunkerFire | Artillery:
    """``Artillery(who, target)`` or ``BunkerFire(who, target)``: one value each, made once (they are frozen)."""
    key = (artillery, who, target)
    action = _AIMED.get(key)
    if action is None:
        if len(_AIMED) >= 4096:
            _AIMED.clear()
        action = _AIMED[key] = Artillery(who, target) if artillery else BunkerFire(who, target)
    return action


def threat(squad: Squad) -> tuple[float, int, int]:
    """How the Germans rank a squad: furthest up the beach, then most figures at the start of the turn's
    fire (its figures and those it lost this turn), then lowest number: a rank the turn's fire never
    changes, so every weapon of the turn picks the same squad (omaha.27)."""
    return (squad.y, squad.figures + squad.lost, -int(squad.label[1:]))


def german_target(game: OmahaGame, *, artillery: bool) -> str | None:
    """The squad every German weapon concentrates on now (omaha.27).

    Both weapons' (the bunkers' and the strikes') are worked out together and kept with the game until a squad
    lands, moves, leaves or has its losses cleared (``squads_version``): a squad's losses to the turn's fire leave
    its rank as it was (:func:`threat`)."""
    memo = game.target_memo
    state = game.state
    if memo is None or memo[0] is not state or memo[1] != game.squads_version:
        memo = game.target_memo = (state, game.squads_version, *_german_targets(game))
    return memo[3] if artillery else memo[2]


def _german_targets(game: OmahaGame) -> tuple[str | None, str | None]:
    """:func:`german_target` of the bunkers and of the strikes, worked out in one pass over the squads."""
    # max(squads, key=threat) in one pass: the players are in label order (A1, A2, ...), so of squads level
    # on (y, figures + lost) the first met has the lowest number, the one threat() ranks first; artillery
    # never aims past the wall (omaha.23), nor the bunkers with the option (RULINGS O10: anywhere by default)
    best: Squad | None = None
    short: Squad | None = None  # the best not past the wall
    best_y = short_y = -math.inf  # theirs (no squad stands there)
    best_figures = short_figures = 0
    limit = R.PAST_WALL_Y
    for player in game.state.americans:
        squad = player.squad
        if squad is None:
            continue
        y = squad.y
        if y < best_y and (y > limit or y < short_y):
            continue  # ranked below the best of both kinds met already
        figures = squad.figures + squad.lost
        if y > best_y or (y == best_y and figures > best_figures):
            best, best_y, best_figures = squad, y, figures
        if y <= limit and (y > short_y or (y == short_y and figures > short_figures)):
            short, short_y, short_figures = squad, y, figures
    barred = game.state.options.get("bunker_targets", "anywhere") == "not_past_wall"
    fire = short if barred else best
    return (None if fire is None else fire.label), (None if short is None else short.label)


RANK_KEYS: dict[str, Callable[[Squad], float]] = {  # a plan's ranking keys (plans.toml): higher ranks first
    "furthest_up": lambda squad: squad.y,
    "lowest_up": lambda squad: -squad.y,
    "at_wall": lambda squad: not R.below_wall(squad.y),
    "most_figures": lambda squad: squad.figures + squad.lost,
}


def planned_target(game: OmahaGame, keys: list[str], *, artillery: bool) -> str | None:
    """The squad a plan's weapons concentrate on now: the first by ``keys`` (``RANK_KEYS``), then the lowest
    number; squads a weapon may not reach are left out as :func:`german_target` leaves them. The keys are
    fixed through the turn's fire (``most_figures`` counts those lost this turn), so every weapon of a kind
    picks the same squad."""
    barred = artillery or game.state.options.get("bunker_targets", "anywhere") == "not_past_wall"
    squads = [
        p.squad for p in game.state.americans if p.squad is not None and not (barred and p.squad.y > R.PAST_WALL_Y)
    ]
    if not squads:
        return None
    best = max(squads, key=lambda s: (*(RANK_KEYS[k](s) for k in keys), -int(s.label[1:])))
    return best.label


def place_bunkers(game: OmahaGame, decision: Decision, rng: np.random.Generator) -> PlaceBunkers:
    """Put the bunkers behind the sections with the most obstacles in front (unknown counts as one)."""
    options: list[PlaceBunkers] = list(decision.space.candidates(3))

    def cover(section_number: int) -> int:
        count = game.state.obstacles[R.exit_section(section_number - 1, game.state)]
        return 1 if count is None else count

    best = max(sum(cover(n) for n in o.sections) for o in options)
    choices = [o for o in options if sum(cover(n) for n in o.sections) == best]
    return choices[int(rng.integers(len(choices)))]


def american_orders(game: OmahaGame, squad: Squad, space: OrdersSpace | None = None) -> Move | Fight:
    """The American doctrine for one squad (omaha.28). Given the squad's decision's ``space``, its moves are built
    by it (``OrdersSpace.toward``: the fast path need not check them again); the same orders either way."""
    if squad.y < BELOW_WALL_Y:  # R.below_wall(squad.y)
        # below the wall: to it, by a cleared section near if a bunker still holds
        holding = bool(game.active_bunkers())
        follow = _cleared_section_near(game, squad) if holding else None
        tx = follow if follow is not None else squad.x
        if space is not None:
            return space.toward(tx, WALL_Y)
        return reached(game, squad, tx, WALL_Y)  # no obstacles below the wall
    active = game.active_bunkers()
    if squad.y > R.PAST_WALL_Y:  # R.past_wall(squad.y)
        target = game.bunker_in_contact(squad)
        if target is not None:
            return Fight(squad.label, assault=squad.figures)
        if active:
            nearest = R.nearest_bunker(squad.x, squad.y, active)
            return _move_toward(game, squad, *R.contact_point(nearest), space)
        blocked = _blocked_exit(game, squad)
        if blocked is not None:
            return _move_toward(game, squad, blocked, WALL_Y, space)
        return Fight(squad.label)
    # at the wall
    in_front = game.state.obstacles[R.obstacle_section_at(game.state, squad.x)]  # game.obstacles_in_front(squad)
    if in_front == 0 and active:
        nearest = R.nearest_bunker(squad.x, squad.y, active)
        move = _move_toward(game, squad, *R.contact_point(nearest), space)
        if (move.x, move.y) != (squad.x, squad.y):
            return move
    follow = _cleared_section_near(game, squad) if active and in_front else None
    if follow is not None:
        return _move_toward(game, squad, follow, WALL_Y, space)
    bunker = game.bunker_in_front(squad)
    shoot_ok = bunker is not None and bunker.status == "active"  # bunker.active
    if in_front:
        if shoot_ok and squad.figures >= MOSTLY_WHOLE:
            return Fight(squad.label, shoot=squad.figures)
        return Fight(squad.label, clear=squad.figures)
    if shoot_ok:
        return Fight(squad.label, shoot=squad.figures)
    blocked = _blocked_exit(game, squad)
    if blocked is not None:
        return _move_toward(game, squad, blocked, WALL_Y, space)
    return Fight(squad.label)


def _move_toward(game: OmahaGame, squad: Squad, tx: float, ty: float, space: OrdersSpace | None = None) -> Move:
    """As far as the move allows toward (tx, ty), going round obstacles in the band (built by ``space``, given).

    A squad whose straight path would cross obstacles first heads for a
    cleared section (its own when it stands in the band) and crosses there.
    """
    state = game.state
    if squad.y >= BELOW_WALL_Y and _blocked(state, squad.x, squad.y, tx, ty):  # not R.below_wall(squad.y)
        tx, ty = _waypoint(state, squad, tx, ty)
    if space is not None:
        return space.toward(tx, ty)
    return reached(game, squad, tx, ty)


def _blocked(state: Any, x0: float, y0: float, x1: float, y1: float) -> bool:
    obstacles = state.obstacles
    for i in R.band_sections(state, x0, y0, x1, y1):
        if obstacles[i] != 0:
            return True
    return False


def _clamp_to(section: int, x: float) -> float:
    left = section * OBSTACLE_SECTION_WIDTH
    x = left if left > x else x  # min(max(x, left), right) without the calls
    right = left + OBSTACLE_SECTION_WIDTH - 0.01
    return right if right < x else x


def _waypoint(state: Any, squad: Squad, tx: float, ty: float) -> tuple[float, float]:
    """Where to go first when the straight path to (tx, ty) crosses obstacles."""
    own = R.obstacle_section_at(state, squad.x)
    far_side = BAND_END_Y if ty >= BAND_END_Y else WALL_Y
    if squad.y < BAND_END_Y and state.obstacles[own] == 0:
        # in the band (or at the wall) over a cleared section: leave it on the target's side
        return _clamp_to(own, tx), far_side
    clear = [i for i, count in enumerate(state.obstacles) if count == 0]
    if not clear:
        return squad.x, squad.y
    mid = OBSTACLE_SECTION_WIDTH / 2
    x = squad.x
    best = clear[0]
    least = math.inf
    for i in clear:  # the first of the least by the way there and on (min with a key, worked out here)
        way = abs(x - (i * OBSTACLE_SECTION_WIDTH + mid)) + abs(tx - (i * OBSTACLE_SECTION_WIDTH + mid))
        if way < least:
            best, least = i, way
    if R.obstacle_section_at(state, squad.x) != best:
        return _clamp_to(best, squad.x), squad.y  # along the band's edge to the cleared section
    return _clamp_to(best, tx), far_side


_NEAR: dict[tuple[tuple[int | None, ...], float], float | None] = {}  # see _cleared_section_near
NEAR_KEPT = 1 << 14  # at most this many are kept (the dict is emptied when full)


def _cleared_section_near(game: OmahaGame, squad: Squad) -> float | None:
    """x of the middle of the nearest cleared obstacle section within reach sideways, if any.

    A function of the obstacles and the squad's x alone, remembered by them (:data:`_NEAR`): the squads wade up
    from the same few x while the obstacles stand."""
    key = (tuple(game.state.obstacles), squad.x)
    found = _NEAR.get(key, _NEAR)
    if found is _NEAR:
        if len(_NEAR) >= NEAR_KEPT:
            _NEAR.clear()
        found = _NEAR[key] = _cleared_near(game.state.obstacles, squad.x)
    return found  # type: ignore[return-value]


def _cleared_near(obstacles: list[int | None], x: float) -> float | None:
    """:func:`_cleared_section_near`, worked out."""
    best: tuple[float, float] | None = None
    # only sections whose middle may be within reach (a section to spare on each side), in order
    half = OBSTACLE_SECTION_WIDTH / 2
    first = math.floor((x - FOLLOW_UP_REACH - half) / OBSTACLE_SECTION_WIDTH) - 1
    first = 0 if 0 > first else first  # max(first, 0) and min(last, end) without the calls
    last = math.ceil((x + FOLLOW_UP_REACH - half) / OBSTACLE_SECTION_WIDTH) + 1
    end = len(obstacles) - 1
    last = end if end < last else last
    for section in range(first, last + 1):
        if obstacles[section] != 0:
            continue
        middle = section * OBSTACLE_SECTION_WIDTH + OBSTACLE_SECTION_WIDTH / 2
        gap = abs(middle - x)
        if gap <= FOLLOW_UP_REACH and (best is None or gap < best[0]):
            best = (gap, middle)
    count = len(obstacles)
    if best is None or R.section_at(x, OBSTACLE_SECTION_WIDTH, count) == R.section_at(
        best[1], OBSTACLE_SECTION_WIDTH, count
    ):
        return None
    return best[1]


def _blocked_exit(game: OmahaGame, squad: Squad) -> float | None:
    """x in front of the nearest knocked-out bunker whose exit section still holds obstacles."""
    x = squad.x
    best_gap = math.inf
    best: float | None = None
    for middle in game.blocked_exits():  # in action, or its exit open (O17: game.exit_open), left out
        gap = abs(middle - x)
        if gap < best_gap:
            best_gap, best = gap, middle
    return best
