"""The Omaha action spaces: what a squad may order, where it may move, what a bunker or a strike may target.

Each space reads the live game (``OmahaGame``) it was made for; ``game`` builds them for its decisions.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from grognard.core.engine import ActionSpace, FiniteSpace, UnionSpace
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, snap
from grognard.core.numbers import is_count
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move, OmahaAction
from grognard.rulesets.omaha.data import BAND_END_Y, WALL_Y
from grognard.rulesets.omaha.state import Bunker, Squad

if TYPE_CHECKING:
    from grognard.rulesets.omaha.game import OmahaGame


class MoveSpace(ActionSpace[Move]):
    """Every point a squad may move to this turn: a continuous space (omaha.14-15)."""

    def __init__(self, game: OmahaGame, squad: Squad) -> None:
        self.game = game
        self.squad = squad

    def check(self, action: Any) -> None:
        if not isinstance(action, Move):
            raise IllegalAction(f"{action} is not a move", "omaha.13")
        if action.squad != self.squad.label:
            raise IllegalAction(f"{action}: this decision is for squad {self.squad.label}", "omaha.13")
        R.check_move(self.game.state, self.squad, snap(action.x), snap(action.y))

    def sample(self, rng: np.random.Generator) -> Move:
        angle = float(rng.uniform(0.0, 2 * math.pi))
        far = 1000.0
        x, y = R.reach(
            self.game.state, self.squad, self.squad.x + far * math.cos(angle), self.squad.y + far * math.sin(angle)
        )
        u = float(rng.random())
        return Move(
            self.squad.label, snap(self.squad.x + u * (x - self.squad.x)), snap(self.squad.y + u * (y - self.squad.y))
        )

    def candidates(self, k: int = 16) -> list[Move]:
        state, squad = self.game.state, self.squad
        targets = [(squad.x, WALL_Y if R.below_wall(squad.y) else squad.y + 6.0)]
        targets += [R.contact_point(b) for _, b in sorted(state.bunkers.items()) if b.active]
        targets += [(squad.x - 6.0, squad.y), (squad.x + 6.0, squad.y)]
        out: list[Move] = []
        seen: set[tuple[float, float]] = set()
        for tx, ty in targets:
            point = R.reach(state, squad, tx, ty)
            if point not in seen:
                seen.add(point)
                out.append(Move(squad.label, *point))
            if len(out) >= k:
                break
        return out


FIGHT_RULES = {"shoot": "omaha.17", "clear": "omaha.16", "assault": "omaha.18"}  # the rule of each kind of fight


class FightSpace(ActionSpace[Fight]):
    """How a squad that does not move splits its figures among shoot, clear and assault (omaha.13, 16-18).

    What the squad may do is worked out on first use and kept until the game's next action
    (or ``changed()``).
    """

    def __init__(self, game: OmahaGame, squad: Squad) -> None:
        self.game = game
        self.squad = squad
        self._reasons: tuple[int, dict[str, str | None]] | None = None  # (game.actions_applied, reasons)

    @property
    def _why(self) -> dict[str, str | None]:
        """For each kind of fight, why the squad may not do it now (None: it may)."""
        when = self.game.actions_applied
        if self._reasons is None or self._reasons[0] != when:
            self._reasons = (when, self._work_out())
        return self._reasons[1]

    def _work_out(self) -> dict[str, str | None]:
        game, squad = self.game, self.squad
        front = game.bunker_in_front(squad)
        obstacles = game.obstacles_in_front(squad)
        at_wall = R.at_wall(squad.y)
        if not at_wall:
            why_clear: str | None = "only figures at the sea wall may clear obstacles"
        elif not obstacles:
            why_clear = "no obstacles are left in the section in front"
        else:
            why_clear = None
        in_contact = squad.y >= BAND_END_Y - 1.0 - TOLERANCE and game.bunker_in_contact(squad) is not None
        return {
            "shoot": self._why_not_shoot(game, squad, front),
            "clear": why_clear,
            "assault": None if in_contact else 'no active bunker is within 1" (in contact)',
        }

    @staticmethod
    def _why_not_shoot(game: OmahaGame, squad: Squad, front: Bunker | None) -> str | None:
        if R.below_wall(squad.y):
            return "figures may shoot only from the sea wall or closer"
        if R.past_wall(squad.y) and game.state.options.get("shoot_from", "wall_or_beyond") == "wall":
            return "figures may shoot only from the sea wall itself (option shoot_from = wall, RULINGS O9)"
        if front is None:
            return "no bunker stands directly in front"
        if not front.active:
            return f"bunker {front.label} in front is already {front.status}"
        return None

    def kinds(self) -> list[str]:
        return [k for k, why in self._why.items() if why is None]

    def check(self, action: Any) -> None:
        if not isinstance(action, Fight):
            raise IllegalAction(f"{action} is not a fight order", "omaha.13")
        if action.squad != self.squad.label:
            raise IllegalAction(f"{action}: this decision is for squad {self.squad.label}", "omaha.13")
        rules = FIGHT_RULES
        total = 0
        for kind in ("shoot", "clear", "assault"):
            n = getattr(action, kind)
            if not isinstance(n, int) or n < 0:
                raise IllegalAction(f"{action}: {kind}={n!r} is not a count of figures", "omaha.13")
            if n and self._why[kind]:
                raise IllegalAction(f"{action}: {self._why[kind]}", rules[kind])
            total += n
        if total > self.squad.figures:
            raise IllegalAction(
                f"{action}: {total} figures ordered but squad {self.squad.label} has {self.squad.figures}; "
                "one action per figure",
                "omaha.13",
            )

    def sample(self, rng: np.random.Generator) -> Fight:
        kinds = self.kinds()
        if not kinds:
            return Fight(self.squad.label)
        counts = rng.multinomial(self.squad.figures, [1.0 / (len(kinds) + 1)] * (len(kinds) + 1))
        given = dict(zip(kinds, (int(c) for c in counts[:-1]), strict=True))
        return Fight(self.squad.label, **given)

    def candidates(self, k: int = 16) -> list[Fight]:
        n = self.squad.figures
        kinds = self.kinds()
        out = [Fight(self.squad.label, **{kind: n}) for kind in kinds]
        for i, a in enumerate(kinds):
            for b in kinds[i + 1 :]:
                out.append(Fight(self.squad.label, **{a: n - n // 2, b: n // 2}))
        out.append(Fight(self.squad.label))
        return out[:k]


BELOW_WALL_Y = R.BELOW_WALL_Y  # below this y a squad is below the sea wall (rules.below_wall)

WADES: dict[tuple[tuple[float, float, float, float], str, float, float, float, float], Move] = {}
"""The moves :func:`reached` built for squads below the wall, by (table bounds, squad, x0, y0, tx, ty) (bounded as
``rules.REACHED_BELOW_WALL``): the squads wade up the same lines game after game."""


def reached(game: OmahaGame, squad: Squad, tx: float, ty: float) -> Move:
    """The move as far as the rules allow straight toward (tx, ty) (``rules.reach``): a point reach proved legal,
    unless it is where the squad stands.

    Below the wall the move hangs on the table, the squad's position and the target alone (``rules.reach``): one
    value is made for each and kept (:data:`WADES`)."""
    key = None
    if squad.y < BELOW_WALL_Y:
        key = (game.bounds, squad.label, squad.x, squad.y, tx, ty)
        move = WADES.get(key)
        if move is not None:
            return move
    x, y = R.reach(game.state, squad, tx, ty, game.bounds)
    move = Move(squad.label, x, y)
    if key is not None and (x != squad.x or y != squad.y):
        if len(WADES) >= R.REACHED_KEPT:
            WADES.clear()
        WADES[key] = move
    return move


class OrdersSpace(UnionSpace):
    """An American player's orders for his squad: a move, or a fight (which may be hold).

    :meth:`toward` builds a bot's move by the rules' own reach and remembers it for the state it was built in
    (the game's ``actions_applied``); :meth:`check_fast` passes that very move unchecked again (reach found it
    legal), and checks anything else in full.
    """

    def __init__(self, game: OmahaGame, squad: Squad) -> None:
        self.move = MoveSpace(game, squad)
        self.fight = FightSpace(game, squad)
        self.game = game
        self.squad = squad
        self._issued: tuple[Move, int] | None = None  # (a move toward built, game.actions_applied then)
        super().__init__(self.move, self.fight, kinds=(Move, Fight))

    def toward(self, tx: float, ty: float) -> Move:
        """The move as far as the rules allow straight toward (tx, ty) (:func:`reached`), issued for this state
        when reach proved it (the squad moves)."""
        squad = self.squad
        move = reached(self.game, squad, tx, ty)
        if move.x != squad.x or move.y != squad.y:  # reach proved the point legal (staying put it returns unproved)
            self._issued = (move, self.game.actions_applied)
        return move

    def check_fast(self, action: Any) -> None:
        issued = self._issued
        if issued is not None and issued[0] is action and issued[1] == self.game.actions_applied:
            return  # the move toward built, the state unchanged since: reach's check stands
        self.check(action)

    def check(self, action: Any) -> None:
        # the union's check, the two kinds asked straight (every bot order passes here on the fast path)
        kind = type(action)
        if kind is Move:
            self.move.check(action)
        elif kind is Fight:
            self.fight.check(action)
        else:
            super().check(action)


class TargetSpace(FiniteSpace[OmahaAction]):
    """A bunker's target or an artillery strike's: one squad on the table, or pass (omaha.19, omaha.22-23)."""

    def __init__(self, game: OmahaGame, who: str, *, artillery: bool) -> None:
        # FiniteSpace's fields; the targets and actions are worked out from the game when asked, and kept
        # until its next action (the doctrine bots never ask)
        self.game = game
        self.who = who
        self.artillery = artillery
        self.rule = "omaha.23" if artillery else "omaha.19"
        self.what = "target"
        self._now: tuple[int, list[str], tuple[OmahaAction, ...]] | None = None  # (actions_applied, targets, actions)

    def _work_out(self) -> tuple[int, list[str], tuple[OmahaAction, ...]]:
        when = self.game.actions_applied
        if self._now is None or self._now[0] != when:
            targets = self.game.strike_targets() if self.artillery else self.game.fire_targets()
            make = Artillery if self.artillery else BunkerFire
            self._now = (when, targets, (*(make(self.who, t) for t in targets), make(self.who, None)))
        return self._now

    @property
    def targets(self) -> list[str]:
        """The labels of the squads it may target now."""
        return self._work_out()[1]

    @property
    def actions(self) -> tuple[OmahaAction, ...]:
        """Fire (or strike) at each target, then pass."""
        return self._work_out()[2]

    def _takes(self, action: Any) -> bool:
        """Whether ``action`` is one of :attr:`actions`, read off the game without building them (the fast
        path asks for every bot's fire and strike)."""
        if self.artillery:
            if type(action) is not Artillery or action.german != self.who:
                return False
        elif type(action) is not BunkerFire or action.bunker != self.who:
            return False
        target = action.target
        return target is None or target in self.game.targets_now(self.artillery)

    def check_fast(self, action: Any) -> None:
        if not self._takes(action):  # check's first test, asked straight (every German weapon's on the fast path)
            self.check(action)

    def check(self, action: Any) -> None:
        if self._takes(action):
            return
        target = getattr(action, "target", None)
        if target is not None and target not in self.targets:
            player_index = int(target[1:]) - 1 if is_count(target[1:]) else -1
            players = self.game.state.americans
            if 0 <= player_index < len(players) and players[player_index].squad is not None:
                if self.artillery:
                    raise IllegalAction(
                        f"{action}: squad {target} has moved past the sea wall; artillery may not target it",
                        "omaha.23",
                    )
                raise IllegalAction(
                    f"{action}: squad {target} has moved past the sea wall; with the option bunker_targets = "
                    "not_past_wall (RULINGS O10) no bunker may target it",
                    "omaha.19",
                )
            raise IllegalAction(
                f"{action}: squad {target} is not on the beach", "omaha.22" if self.artillery else "omaha.19"
            )
        super().check(action)
