"""What the Omaha batch path reads of the rules: statuses, kinds of order, and the mechanics of ``data.py``.

Every threshold and count of dice the batch rolls comes from the mechanic objects of
:mod:`grognard.rulesets.omaha.data` (``bunker_fire``, ``shooting``, ``clearing``, ...), read when a
batch is built (:class:`Mechanics`), so a change there reaches the batch without a number typed again.
"""

from __future__ import annotations

import numpy as np

from grognard.core.dice import AnySuccess, SuccessCount, SumAtLeast
from grognard.rulesets.omaha import data as D

# --- statuses and kinds of order ---------------------------------------------------------
NONE, ACTIVE, SILENCED, DESTROYED = 0, 1, 2, 3  # in order: knocked out is SILENCED or above
HOLD, MOVE, SHOOT, CLEAR, ASSAULT = 0, 1, 2, 3, 4  # in order: the fights (SHOOT and above) last
UNKNOWN = -1  # an obstacle section not yet rolled (hidden obstacles)
OUTCOMES = ("", "american win", "german win", "scored", "unfinished")


class Mechanics:
    """The mechanics of ``data.py``, read once per batch: every threshold and count of dice the batch uses.

    ``fire_dice[d]``/``fire_target[d]``: a bunker's fire with ``d`` defenders left (omaha.19-20);
    ``clear_at``, ``shoot_at``, ``assault_at``, ``drown_at`` (a d6 per figure, omaha.16-18, omaha.12),
    ``morale_at`` (omaha.25), the artillery's (omaha.24), ``obstacle_faces[face]`` (omaha.8), ``sides``
    (every die of Omaha is one d6 stream per game) and ``window`` (the most dice one roll asks for).
    """

    def __init__(self) -> None:
        fire = [D.bunker_fire(defenders) for defenders in range(D.DEFENDERS + 1)]  # by defenders left
        self.fire_dice = np.array([m.dice for m in fire], dtype=np.int64)
        self.fire_target = np.array([m.target for m in fire], dtype=np.int64)
        self.clear_at, self.shoot_at = D.clearing(1).target, D.shooting(1).target
        self.assault_at, self.drown_at = D.assault(1).target, D.deep_water(1).target
        # a die's success in a squad's fight, by the kind of order (HOLD and MOVE roll for none)
        self.order_at = np.zeros(ASSAULT + 1, dtype=np.int64)
        self.order_at[[SHOOT, CLEAR, ASSAULT]] = self.shoot_at, self.clear_at, self.assault_at
        self.drown_dice = D.deep_water(D.SQUAD_SIZE).dice
        self.morale_at = D.morale(1).target
        self.lands_at = D.ARTILLERY_LANDS.target
        self.kill_dice, self.kill_at = D.ARTILLERY_KILLS.dice, D.ARTILLERY_KILLS.target
        self.obstacle_faces = np.array((0, *D.OBSTACLE_ROLL.table), dtype=np.int64)  # face -> obstacles
        self.sides = D.LANDING_ROLL.sides
        used: tuple[SuccessCount | AnySuccess | SumAtLeast, ...] = (
            *fire,
            D.clearing(1),
            D.shooting(1),
            D.assault(1),
            D.deep_water(1),
            D.morale(1),
        )
        if not all(m.sides == self.sides for m in (*used, D.ARTILLERY_LANDS, D.ARTILLERY_KILLS)):
            raise ValueError("the Omaha batch path draws one die size per game; data.py mixes sizes")
        if len(D.OBSTACLE_ROLL.table) != self.sides or D.ARTILLERY_LANDS.dice != 1:
            raise ValueError("the Omaha batch path rolls one die for the obstacles and for the strike's landing")
        self.window = max(D.SQUAD_SIZE, self.kill_dice, *(m.dice for m in fire))
        if max(D.DEFENDERS, *D.OBSTACLE_ROLL.table) > np.iinfo(np.int8).max:  # the batch keeps them in int8
            raise ValueError("the Omaha batch path keeps defenders and obstacles in 8 bits; data.py has more")
