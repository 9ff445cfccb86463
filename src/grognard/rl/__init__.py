"""Multi-agent reinforcement learning: a PettingZoo AEC environment per rule set (the optional extra ``[rl]``).

``env("omaha")``, ``env("b17")`` and ``env("skirmish", scenario="proving_ground")``
make the environment of that rule set (``GrognardEnv``; keyword arguments are
the rule set's options). Agents are seats; observations are ``view(seat)``
encoded as fixed-shape vectors (``grognard.rl.observe`` documents each
layout) with an ``action_mask`` over the decision's finite candidates; rewards
(+1 / -1 / 0 per side) come at the end; ``reset(seed=...)`` is reproducible.

Random masked agents play a small Omaha beach to its end:

>>> import numpy as np
>>> from grognard.rl import env
>>> beach = env("omaha", germans=1, turn_cap=20)
>>> beach.reset(seed=7)
>>> rng = np.random.default_rng(7)
>>> for agent in beach.agent_iter():
...     observation, reward, termination, truncation, info = beach.last()
...     if termination or truncation:
...         beach.step(None)
...     else:
...         legal = np.flatnonzero(observation["action_mask"])
...         beach.step(int(rng.choice(legal)))
>>> beach.agents, beach.game.result.outcome
([], 'unfinished')
"""

from __future__ import annotations

from typing import Any

from grognard.rl.env import GrognardEnv

__all__ = ["GrognardEnv", "env"]


def env(ruleset: str, *, slots: int = 32, render_mode: str | None = None, **options: Any) -> GrognardEnv:
    """The AEC environment of ``ruleset`` with scenario ``options``; see :class:`GrognardEnv`."""
    return GrognardEnv(ruleset, options, slots=slots, render_mode=render_mode)
