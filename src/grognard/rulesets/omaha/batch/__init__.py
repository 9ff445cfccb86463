"""Omaha doctrine against doctrine, many games at once in numpy arrays: the Monte Carlo fast path.

The reference engine (:mod:`grognard.rulesets.omaha.game` with the
:mod:`~grognard.rulesets.omaha.bots` doctrine) plays one game at a time, a
decision object per order. This package plays the same games side by side:
every array holds one value per game, and each step of a turn (a landing, one
player's orders, one bunker's fire, one artillery call, one morale check) is a
few numpy operations over every game at once. Its modules, one concept each:
``seeds`` (the games' generators, seeded together), ``streams`` (each game's d6
stream), ``mechanics`` (what it reads of data.py), ``geometry`` (rules.py on
arrays), ``doctrine`` (bots.py on arrays), ``americans`` (the American phase), ``fire``
(the German phase) and ``engine`` (the state and the other phases of a turn).

It is not an approximation. Game ``i`` rolls the same d6 stream as the
reference engine's ``SeededDice`` for that game (the same child seed; numpy
gives the same dice drawn in any blocks), rolls its dice in the same order for
the same purposes, and its bots make the same choices (the German placement
ties are broken by the same generator calls), so a game's row equals the
reference engine's row for that index. ``tests/test_omaha_batch.py`` checks
that game by game.

Where the answer hangs on the last bit of a float (``np.hypot`` and
``math.hypot`` differ in the last bit now and then; ``np.round`` and ``round``
differ at rounding ties), the batch measures those few cases with the
reference's own functions (``rules.reach``, ``rules.move_cost``,
``rules.bunker_distance``): a position within 1e-9" of a rounding tie, a cost
within 1e-9" of the allowance, two bunkers within 1e-9" of equally near, and
the rare move the allowance or the obstacles cut short by bisection. A move's
point depends on its ends and the table alone unless obstacles in the band cut
it short, so it is remembered with the band sections its way crosses and read
again where those hold no obstacle (``Geometry._reach_any``), as ``rules.reach``
remembers the moves from below the wall.

Supported: doctrine bots on both sides, every Omaha option (``shoot_from``, RULINGS O9, changes nothing
the doctrine does: it never shoots from past the wall).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.rulesets.omaha.batch.engine import _Batch

__all__ = ["_Batch", "play_batch", "supports"]


def supports(bots: Mapping[str, str]) -> bool:
    """Whether the batch plays these bots: the doctrine on both sides (the ``book`` level, or its older name)."""
    return set(bots.values()) <= {"book", "doctrine"} and set(bots) == {"american", "german"}


def play_batch(
    options: Mapping[str, Any], bots: Mapping[str, str], seed: int, start: int, stop: int
) -> list[dict[str, Any]]:
    """The rows of games ``start`` to ``stop - 1`` of a run seeded ``seed``, equal to ``play_one``'s.

    ``options`` are resolved Omaha options; ``bots`` must satisfy :func:`supports`
    (raises ``ValueError`` otherwise).
    """
    if not supports(bots):
        raise ValueError(f"the batch path plays doctrine against doctrine, not {dict(bots)}")
    batch = _Batch(options, seed, range(start, stop))
    batch.run()
    return batch.rows()
