"""A PettingZoo AEC environment over any grognard rule set: agents are seats.

Each step the selected agent is the seat owing the first pending decision
(``game.pending()[0]``); several decisions owed at once are answered one
after another in that order, as ``play_out`` does. The decision's finite
candidate set is the rule set's menu (``ruleset.adviser.menu``: the choices offered a
person, useful first, every one legal) or, for a rule set without an adviser, the
space's ``candidates(slots)``; its first ``slots`` entries fill the slots of
the ``Discrete(slots)`` action space, and ``action_mask`` marks the filled
slots (``1``), the rest ``0``. ``infos[agent]["actions"]`` names the filled
slots in the rule set's text form (the agent's own orders only).

Observations are ``{"observation": float32 vector, "action_mask": int8
vector}``; the vector encodes ``view(seat)`` alone (``grognard.rl.observe``:
the layouts). A seat that owes nothing gets an all-zero mask.

Rewards come at the end only: +1 to every seat of the winning side, -1 to the
others; 0 to all for a draw, a scored class period or an unfinished game.
A game that ends with a result ``"unfinished"`` (a turn cap) truncates every
agent; any other end terminates them. Agents that are done step with
``None`` to leave, as PettingZoo expects.

Seeding: ``reset(seed=s)`` makes the game's dice ``SeededDice(stream(s, DICE))`` (as ``grognard play --seed s``),
so the same seed and the same actions give the same game; ``reset()`` with no
seed draws fresh entropy. A masked-off slot, or any action out of the space,
raises ``ValueError`` and changes nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as missing:  # the optional extra is not installed
    raise ImportError(f'grognard.rl needs PettingZoo and Gymnasium: pip install -e ".[rl]" ({missing})') from None

from grognard import rulesets
from grognard.core.dice import DICE, SeededDice, stream
from grognard.core.engine import Decision, Game
from grognard.rl.observe import Encoder, make_encoder

__all__ = ["GrognardEnv"]

DEFAULT_SLOTS = 32


class GrognardEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types: AECEnv is Any to mypy
    """The AEC environment of rule set ``ruleset`` with scenario ``options`` (text or values, as the CLI takes).

    ``slots``: the size of the action space (candidates beyond it are not offered).
    Raises ``grognard.core.errors.OptionError`` for bad options, ``KeyError`` for an unknown rule set.
    """

    # PettingZoo's own declaration (a plain attribute, read from the class); each instance puts its rule set's name
    # in a copy of its own, never changing the class's
    metadata: dict[str, Any] = {"name": "grognard_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        ruleset: str,
        options: Mapping[str, Any] | None = None,
        *,
        slots: int = DEFAULT_SLOTS,
        render_mode: str | None = None,
        observed: bool = False,
    ) -> None:
        super().__init__()
        if slots < 1:
            raise ValueError(f"slots {slots}: at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {', '.join(self.metadata['render_modes'])}")
        self.rules = rulesets.get(ruleset)
        self.options = self.rules.resolve(dict(options or {}))
        self.slots = slots
        self.render_mode = render_mode
        self.observed = observed  # whether each game builds its events (a rollout reads none: by default not)
        self.metadata = {**self.metadata, "name": f"grognard_{self.rules.name}_v0"}
        first = self.rules.new_game(self.options, SeededDice(0))
        self.possible_agents = list(first.seats())
        self.encoder: Encoder = make_encoder(self.rules.name, first.view(None), first.sides)
        box = spaces.Box(-1.0, 1.0, shape=(self.encoder.size,), dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(slots,), dtype=np.int8)
        self._observation_space = spaces.Dict({"observation": box, "action_mask": mask})
        self._action_space = spaces.Discrete(slots)
        self.game: Game = first
        self._choices: list[Any] = []
        self._decision: Decision | None = None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # ------------------------------------------------------------------ the loop
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes its dice (``None``: fresh entropy). ``options`` is unused (PettingZoo's)."""
        if seed is not None and not 0 <= seed < 2**63:
            raise ValueError(f"seed {seed}: between 0 and 2^63-1")
        self.game = self.rules.new_game(self.options, SeededDice(stream(seed if seed is not None else _fresh(), DICE)))
        if not self.observed:
            self.game.unobserved()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._next()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation now: its view encoded, and its action mask."""
        mask = np.zeros(self.slots, dtype=np.int8)
        if agent == self.agent_selection and self._decision is not None and self._decision.seat == agent:
            mask[: len(self._choices)] = 1
        return {"observation": self.encoder.encode(self.game.view(agent)), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Answer the selected agent's decision with slot ``action`` (``None`` for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self._decision
        assert decision is not None
        try:
            slot = int(action)
        except (TypeError, ValueError):
            raise ValueError(f"action {action!r}: a slot number 0 to {self.slots - 1}") from None
        if not 0 <= slot < len(self._choices):
            raise ValueError(
                f"slot {slot} is masked off for {agent}: {len(self._choices)} choices (0 to {len(self._choices) - 1})"
            )
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(agent, self._choices[slot], checked=False, decision=decision)
        self._next()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text (``ansi``), from the selected agent's view; ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        board = self.rules.board(self.game, self.agent_selection)
        return board if board is not None else str(self.game.view(self.agent_selection))

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ helpers
    def _next(self) -> None:
        """Select the seat owing the first pending decision, or end the game for everyone."""
        for agent in self.agents:
            self.rewards[agent] = 0.0
            self.infos[agent] = {}
        result = self.game.result
        if result is not None:
            self._decision, self._choices = None, []
            truncated = result.outcome == "unfinished"
            for agent in self.agents:
                if result.winner is not None:
                    self.rewards[agent] = 1.0 if self.game.side_of(agent) == result.winner else -1.0
                self.terminations[agent] = not truncated
                self.truncations[agent] = truncated
                self.infos[agent] = {"result": result.to_json()}
            self.agent_selection = self.agents[0]
            return
        decision = self.game.pending()[0]
        self._decision = decision
        self._choices = self.choices(decision)
        self.agent_selection = decision.seat
        self.infos[decision.seat] = {"actions": [str(a) for a in self._choices], "decision": decision.id}

    def choices(self, decision: Decision) -> list[Any]:
        """The candidates of ``decision``, at most ``slots``: the rule set's menu, else the space's candidates."""
        if self.rules.adviser is not None:
            listed = [action for action, _ in self.rules.adviser.menu(self.game, decision)]
        else:
            listed = list(decision.space.candidates(self.slots))
        return listed[: self.slots]


def _fresh() -> int:
    """A fresh seed for ``reset()`` without one."""
    return secrets.randbits(63)
