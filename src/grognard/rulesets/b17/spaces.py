"""The B-17 decisions' action spaces: where a box may be placed, and every legal whole move of an aircraft.

``FlySpace.resolve`` is the rules' check of a move: the attack range measured quickly (``reckoning``), shapely
deciding near the limit; the bots pass it the closest bombers they measured (``reckoning``, shapely at every tie).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from grognard.core.engine import ActionSpace
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, at_most, snap_angle
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import reckoning as K
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly, PlaceBox
from grognard.rulesets.b17.data import ATTACK_RANGE, FLANK_MARGIN, TABLE_WIDTH
from grognard.rulesets.b17.state import Aircraft

if TYPE_CHECKING:
    from grognard.rulesets.b17.game import B17Game


class PlaceSpace(ActionSpace[PlaceBox]):
    """Every legal placement of box ``box`` (seed V.B, VIII.B; b17.12-b17.15, b17.62): a continuous space.

    ``check`` raises :class:`IllegalAction` listing every problem of a wrong box, the first one's rule named.
    """

    def __init__(self, game: B17Game, box: int) -> None:
        self.game = game
        self.box = box

    @property
    def dims(self) -> G.Dims:
        return R.dims_of(self.game.state.options, "B-17")

    def others(self) -> list[tuple[float, float]]:
        s = self.game.state
        return [(b.x, b.y) for b in s.bombers() if b.box in s.placed and b.box != self.box]

    def check(self, action: Any) -> None:
        if not isinstance(action, PlaceBox):
            raise IllegalAction(f"{action} is not a placement", "b17.12")
        if action.box != self.box:
            raise IllegalAction(f"{action}: this decision places box {self.box}", "b17.12")
        problems = R.box_problems(self.dims, action.positions, self.others())
        if problems:
            # every problem cites its own rule; the first one's is the error's (named once, not again at the end)
            error = IllegalAction(f"{action}: " + "; ".join(f"{m} ({r})" for r, m in problems))
            error.rule = problems[0][0]
            raise error

    def _lanes(self, others: list[tuple[float, float]] | None = None) -> list[float]:
        """y of the leader for each box: the table's middle, or, in the enlarged game, one lane each side of it
        with the boxes' wingtips an inch or less from the flank limits (the boxes' own width decides).
        ``others``: the bombers already placed (default: the game's)."""
        if self.game.state.boxes == 1:
            return [TABLE_WIDTH / 2]
        half = self.dims.span + 2.01  # half a box's width at the spacing minimum and 0.02"
        margin = max(0.0, min(1.0, (TABLE_WIDTH - 2 * FLANK_MARGIN - 4 * half) / 4))
        lanes = [FLANK_MARGIN + half + margin, TABLE_WIDTH - FLANK_MARGIN - half - margin]
        others = self.others() if others is None else others
        if not others:
            return lanes
        return [lanes[1]] if min(y for _, y in others) < TABLE_WIDTH / 2 else [lanes[0]]

    def _make(self, lx: float, ly: float, gap: float, wing: float) -> PlaceBox:
        return PlaceBox(self.box, R.standard_box(self.dims, lx, ly, gap, wing))

    def candidates(self, k: int = 16) -> list[PlaceBox]:
        """Boxes at the spacing minimums (with 0.02" to spare when the 12" band allows), centred in the band;
        the first of two boxes only where the second still has a place of its menu (big models)."""
        others = self.others()
        out = self._menu(others)
        if self.game.state.boxes == 2 and not others:
            out = [a for a in out if self._menu(list(a.positions))] or out
        if not out:
            dims = self.dims
            gap = min(4.02, max(4.0, 12.0 - 2 * dims.length))
            out.append(self._make(self._leader_x(gap), 30.0, gap, 4.0))
        return out[:k]

    def _leader_x(self, gap: float) -> float:
        depth = 2 * self.dims.length + gap
        return math.floor((12.0 + depth / 2 - self.dims.length / 2) * 100) / 100  # the box's middle on the 12" line

    def _menu(self, others: list[tuple[float, float]]) -> list[PlaceBox]:
        """The legal boxes of the menu, the bombers ``others`` placed."""
        dims = self.dims
        gap = min(4.02, max(4.0, 12.0 - 2 * dims.length))
        lx = self._leader_x(gap)
        out = []
        for ly in self._lanes(others):
            for dy in (0.0, -6.0, 6.0):
                for wing in (4.02, 4.0):
                    action = self._make(lx, ly + dy, gap, wing)
                    if not R.box_problems(dims, action.positions, others):
                        out.append(action)
                        break
        return out

    def sample(self, rng: np.random.Generator) -> PlaceBox:
        dims = self.dims
        for _ in range(50):
            gap = 4.0 + float(rng.uniform(0.0, 1.5))
            wing = 4.0 + float(rng.uniform(0.0, 3.0))
            depth = 2 * dims.length + gap
            slack = max(0.0, 12.0 - depth - 0.04)
            lx = 6.02 + depth - dims.length / 2 + float(rng.uniform(0.0, slack))
            lane = self._lanes()[0]
            ly = lane + float(rng.uniform(-8.0, 8.0))
            action = self._make(round(lx, 2), round(ly, 2), gap, wing)
            if self.contains(action):
                return action
        return self.candidates(1)[0]


class FlySpace(ActionSpace[Fly]):
    """Every legal whole move of one aircraft (seed VI.B-D; b17.24-b17.31, b17.34-b17.35): a continuous space.

    A move is ``straight`` inches (at least 6" for a fighter, 3" for a bomber), one turn in degrees (any for a
    fighter, at most 90 for a bomber), then on to the allowance; or the path to a point. ``check`` raises
    :class:`IllegalAction` naming the rule (b17.23, b17.25, b17.27, b17.29, b17.30, b17.34, b17.43).
    """

    def __init__(self, game: B17Game, label: str, closest: Sequence[Aircraft] | None = None) -> None:
        """``closest`` (the bots'): the bombers closest to the aircraft as it stands, measured once. The attack
        range is measured quickly (``reckoning.attack_range``), shapely's measure deciding within
        ``reckoning.EDGE`` of the 4" limit, so every verdict is the rules' (b17.34)."""
        self.game = game
        self.label = label
        self.closest = closest
        self._last: tuple[tuple[Any, int, int], tuple[G.Path, float | None, str | None]] | None = None

    @property
    def aircraft(self) -> Aircraft:
        return self.game.aircraft(self.label)

    def resolve(self, action: Any) -> tuple[G.Path, float | None, str | None]:
        """The path, the stop and the target of a legal ``action``; raises IllegalAction naming the rule.

        The last one found is kept until the game applies an action (a bot's check of its move, then the
        move applied, resolve it once)."""
        key = (action, id(self.game.state), self.game.applied)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        found = self._resolve(action)
        self._last = (key, found)
        return found

    def _resolve(self, action: Any) -> tuple[G.Path, float | None, str | None]:
        game, a = self.game, self.aircraft
        if not isinstance(action, Fly):
            raise IllegalAction(f"{action} is not a move", "b17.24")
        if action.aircraft != a.label:
            raise IllegalAction(f"{action}: this decision is {a.label}'s move", "b17.24")
        length = game.allowance(a)
        if action.to is not None:
            found = R.path_to(a, length, action.to[0], action.to[1])
            if found is None:
                raise IllegalAction(
                    f'{action}: no path of {length:g}" (straight, one turn) from {a.label} ends at '
                    f"({action.to[0]:g}, {action.to[1]:g}); the whole move must be flown",
                    "b17.29",
                )
            straight, turn = found
        else:
            if action.straight is None or action.turn is None:
                raise IllegalAction(f"{action}: give the straight inches and the turn, or a point to fly to", "b17.24")
            straight, turn = action.straight, action.turn
        straight = min(max(straight, 0.0), length) if abs(straight - length) <= TOLERANCE else straight
        R.check_straight_and_turn(a, length, straight, turn)
        straight = min(straight, length)
        path = G.Path(a.x, a.y, a.heading, straight, snap_angle(turn), length)
        if action.target is None:
            if action.at is not None:
                raise IllegalAction(f"{action}: a stop needs a bomber to attack", "b17.30")
            return path, None, None
        if a.bomber:
            raise IllegalAction(f"{action}: bombers may not stop during their move to attack", "b17.43")
        target = game.state.aircraft.get(action.target)
        if target is None or not target.bomber or not target.flying:
            raise IllegalAction(f"{action}: {action.target} is not a bomber on the table", "b17.34")
        at = action.at if action.at is not None else 0.0
        if not (-TOLERANCE <= at <= length + TOLERANCE):
            raise IllegalAction(f'{action}: the stop must be on the {length:g}" path', "b17.30")
        at = min(max(at, 0.0), length)
        leave = path.leaves_table_at()
        if leave is not None and leave < at - TOLERANCE:
            raise IllegalAction(f'{action}: {a.label} has left the table {leave:.2f}" along the path', "b17.29")
        x, y, h = path.snapped(at)
        options = game.state.options
        # the quick measure, shapely's within reckoning.EDGE of the limit: the rules' verdict either side of it
        reach = K.attack_range(options, a, x, y, h, target, ATTACK_RANGE + TOLERANCE)
        if not at_most(reach, ATTACK_RANGE):
            reach = R.attack_range(options, a, x, y, h, target)  # the rules' own measure, for the message
            raise IllegalAction(
                f'{action}: {target.label} is {reach:.2f}" from {a.label}\'s nose there; attacks reach 4"', "b17.34"
            )
        if options["auto_intercept"]:
            closest = R.closest_bombers(options, a, game.flying_bombers()) if self.closest is None else self.closest
            if target not in closest:
                names = ", ".join(b.label for b in closest)
                raise IllegalAction(f"{action}: the fighters intercept the closest bomber ({names})", "b17.23")
        return path, at, target.label

    def check(self, action: Any) -> None:
        self.resolve(action)

    def sample(self, rng: np.random.Generator) -> Fly:
        a = self.aircraft
        length = self.game.allowance(a)
        minimum = R.minimum_straight(a, length)
        straight = math.floor((minimum + float(rng.uniform(0.0, 1.0)) * (length - minimum)) * 100) / 100
        limit = R.max_turn(a)
        turn = 0.0 if length - straight < 0.02 else round(float(rng.uniform(-limit, limit)), 2)
        straight = max(straight, minimum)
        action = Fly(a.label, straight, turn)
        if not a.bomber and float(rng.random()) < 0.8:
            path = G.Path(a.x, a.y, a.heading, straight, snap_angle(turn), length)
            for b in self.game.flying_bombers():
                for step in range(int(length * 2) + 1):
                    d = step / 2
                    x, y, h = path.snapped(d)
                    if R.attack_range(self.game.state.options, a, x, y, h, b) <= ATTACK_RANGE:
                        attack = Fly(a.label, straight, turn, b.label, d)
                        if self.contains(attack):
                            return attack
        return action

    def candidates(self, k: int = 16) -> list[Fly]:
        from grognard.rulesets.b17.bots import move_candidates

        out = [c for c in move_candidates(self.game, self.aircraft, k) if self.contains(c)]
        if not out:
            a = self.aircraft
            out = [Fly(a.label, R.minimum_straight(a, self.game.allowance(a)), 0.0)]
        return out[:k]
