"""Each game's d6 stream, side by side: the dice ``SeededDice`` would roll for that game, in order."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from grognard.core.dice import DICE, SeededDice, dice_generator, stream


class DiceStreams:
    """The d6 streams of games ``indices`` of a run seeded ``seed``: game ``k`` (a row) draws the dice
    ``SeededDice(stream(seed, indices[k], DICE))`` rolls, in the same order.

    ``sides`` is the die's (6); ``window`` the most dice one roll asks for.
    """

    def __init__(self, seed: int, indices: Sequence[int], sides: int, window: int) -> None:
        self.sides, self.window = sides, window
        G = len(indices)
        block = SeededDice.BLOCK
        self.generators = [dice_generator(stream(seed, index, DICE), sides) for index in indices]
        self.values = np.empty((G, block + window), dtype=np.int8)
        for k, generator in enumerate(self.generators):
            self.values[k, :block] = generator.integers(1, sides + 1, size=block, dtype=np.int64)
        self.filled = np.full(G, block, dtype=np.int64)
        self.cursor = np.zeros(G, dtype=np.int64)  # dice rolled so far, by game

    def roll(self, g: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """The next ``counts[i]`` dice of game ``g[i]``, as a (len(g), window) array with zeros past each count."""
        window = self.window
        need = self.cursor[g] + counts > self.filled[g]
        if need.any():
            self._extend(g[need])
        values = self.values[g[:, None], self.cursor[g][:, None] + np.arange(window)]
        self.cursor[g] += counts
        return np.where(np.arange(window) < counts[:, None], values, 0)

    def _extend(self, games: np.ndarray) -> None:
        """Draw the next block of the streams of ``games``, as ``SeededDice`` does when its buffer runs
        out: a game's dice are its blocks one after another, indexed from its first die."""
        block = SeededDice.BLOCK
        for k in games:
            end = int(self.filled[k]) + block
            if end + self.window > self.values.shape[1]:
                grown = np.zeros((self.values.shape[0], end + self.window), dtype=np.int8)
                grown[:, : self.values.shape[1]] = self.values
                self.values = grown
            self.values[k, self.filled[k] : end] = self.generators[k].integers(
                1, self.sides + 1, size=block, dtype=np.int64
            )
            self.filled[k] = end
