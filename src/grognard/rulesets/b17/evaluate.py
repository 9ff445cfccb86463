"""A heuristic score of a B-17 raid not yet over, for the search bot's truncated playouts (no rule of the seed).

The Americans' chance to win, roughly: the hits already on the target plus the
bomb loads still to come reach ``HITS_TO_WIN`` (b17.60). Each bomber still to
bomb drops its load (four bomb rolls, exact) when it gets through the flak it
has still to meet (exact, under the game's readings) and the fighters, a
heuristic chance ``exp(-ATTRITION * turns * pressure * (1 + DAMAGE * damage))``:
``turns`` its moves to the target's centre at its allowance, ``pressure`` the
fighters still flying (or to enter) per bomber still to bomb, ``damage`` its
engines out. The loads are summed exactly over the bombers (a convolution).
Fitted roughly to doctrine games (``ATTRITION`` and ``DAMAGE`` by the
likelihood of the winners of 1,500 doctrine games from the start of each turn,
and so that a fighter down or an engine out moves the score about as much as
it moves the doctrine's win rate from turn 3 on, about 3 points each): it ranks
positions (a bomber down, a fighter down, a bomber slowed) for the search; a
finished game is scored by its result, not here.

>>> from grognard.core.dice import SeededDice
>>> from grognard.rulesets import get
>>> game = get("b17").create({}, SeededDice(1))
>>> 0.5 < evaluate(game, "american") < 1.0, round(evaluate(game, "american") + evaluate(game, "german"), 9)
(True, 1.0)
"""

from __future__ import annotations

import functools
import math
from typing import Any

from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.data import HITS_TO_WIN, TARGET, mechanics

ATTRITION = 0.045  # a bomber's chance a turn of being stopped by one fighter's pressure, undamaged
DAMAGE = 1.0  # each engine out adds this much to the pressure a bomber feels
TARGET_CENTRE = ((TARGET[0] + TARGET[2]) / 2, (TARGET[1] + TARGET[3]) / 2)


@functools.cache
def _load(doubled: str, bomb_tie: str, flak_dice: str, flak_damage: str, flak: bool) -> tuple[float, ...]:
    """P(a bomber's load scores h hits) for h = 0, 1, ..., with the flak first when ``flak``."""
    options = {"doubled": doubled, "bomb_tie": bomb_tie, "flak_dice": flak_dice, "flak_damage": flak_damage}
    die = mechanics(options).load(1, flak=flak).distribution()
    pmf = dict(zip(die.outcomes(), (float(p) for p in die.probabilities()), strict=True))
    return tuple(pmf.get(h, 0.0) for h in range(int(max(pmf)) + 1))


def american_chance(game: Any) -> float:
    """The heuristic P(the Americans win) of the module's docstring, in [0, 1]."""
    s = game.state
    need = HITS_TO_WIN - s.hits
    if need <= 0:
        return 1.0
    options = s.options
    key = tuple(str(options.get(k, d)) for k, d in _READINGS)
    waiting = [b for b in s.bombers() if b.flying and not b.bombed and not b.broke_off]
    if not waiting:
        return 0.0
    fighters = sum(1 for a in s.aircraft.values() if not a.bomber and a.status in ("flying", "waiting"))
    pressure = fighters / len(waiting)
    # P(hits still to come = h) for h < need; the rest of the mass reaches the win
    short = [1.0] + [0.0] * (need - 1)
    for b in waiting:
        allowance = max(R.allowance(b), 1.0)
        turns = math.dist((b.x, b.y), TARGET_CENTRE) / allowance
        through = math.exp(-ATTRITION * turns * pressure * (1 + DAMAGE * len(b.damaged)))
        load = _load(*key, not b.flak_done or bool(options.get("flak_every_turn", False)))
        step = [0.0] * need
        for have, p in enumerate(short):
            if p == 0.0:
                continue
            step[have] += p * (1.0 - through)
            for hits, q in enumerate(load):
                if have + hits < need:
                    step[have + hits] += p * through * q
        short = step
    return min(max(1.0 - sum(short), 0.0), 1.0)


_READINGS = (("doubled", "at_least"), ("bomb_tie", "no_hit"), ("flak_dice", "bare"), ("flak_damage", "bombs"))


def evaluate(game: Any, side: str) -> float:
    """``side``'s score in [0, 1]: the Americans' heuristic chance to win, or one less it for the Germans."""
    chance = american_chance(game)
    return chance if side == "american" else 1.0 - chance
