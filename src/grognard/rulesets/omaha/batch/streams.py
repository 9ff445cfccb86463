"""Each game's d6 stream, side by side: the dice ``SeededDice`` would roll for that game, in order."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from grognard.core.dice import DICE
from grognard.rulesets.omaha.batch.seeds import generators

CHUNK = 2048  # dice drawn for a game at a time: most games roll fewer (some 1,600; one in fifty more)


class DiceStreams:
    """The d6 streams of games ``indices`` of a run seeded ``seed``: game ``k`` (a row) rolls the dice
    ``SeededDice(stream(seed, indices[k], DICE))`` rolls, in the same order.

    ``SeededDice`` draws its dice in blocks of ``SeededDice.BLOCK`` from ``dice_generator``; numpy's
    generator gives the same dice drawn in any blocks (its 32-bit draws run on across calls), so
    each game draws ``CHUNK`` at a time here, when it needs them. ``values[k]`` holds game ``k``'s
    next dice (``filled[k]`` of them), ``column[k]`` the first not rolled yet.
    ``sides`` is the die's (6); ``window`` the most dice one roll asks for.
    """

    def __init__(self, seed: int, indices: Sequence[int], sides: int, window: int) -> None:
        self.sides, self.window = sides, window
        G = len(indices)
        self.generators = generators(seed, indices, (DICE, sides))  # game_dice_generator's, made together
        self.width = CHUNK + 2 * window  # a roll reads a whole window on from its first die
        self.values = np.zeros((G, self.width), dtype=np.int8)
        self.flat = self.values.reshape(-1)
        for k, generator in enumerate(self.generators):  # int32: the same draws as int64 (not int8's)
            self.values[k, :CHUNK] = generator.integers(1, sides + 1, size=CHUNK, dtype=np.int32)
        self.filled = np.full(G, CHUNK, dtype=np.int64)
        self.column = np.zeros(G, dtype=np.int64)
        self.offsets = np.arange(window)
        # every run of ``window`` dice of ``flat``, a view: a roll reads rows of it whole (a row's dice in one
        # copy), not each die by its own index
        self.windows = np.lib.stride_tricks.sliding_window_view(self.flat, window)

    def _start(self, g: np.ndarray, counts: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
        """The column of games ``g``'s next die, and where in ``flat`` it lies (drawing more where the next
        ``counts`` run out)."""
        column = self.column[g]
        need = column + counts > self.filled[g]
        if need.any():
            self._refill(g[need])
            column = self.column[g]
        start: np.ndarray = g * self.width + column
        return column, start

    def roll(self, g: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """The next ``counts[i]`` dice of game ``g[i]``, as a (len(g), most) array with zeros past each
        count (``most`` the largest count, at most ``window``)."""
        column, start = self._start(g, counts)
        self.column[g] = column + counts
        most = int(counts.max(initial=0))
        values: np.ndarray = self.windows[:, :most][start]
        if len(counts) and counts.min() < most:
            values *= self.offsets[:most] < counts[:, None]
        return values

    def ahead(self, g: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``_start``: the next ``counts`` dice of games ``g`` there to be read (at most ``window``); the
        caller reads them and moves ``column`` on by those it rolled."""
        return self._start(g, counts)

    def roll_one(self, g: np.ndarray) -> np.ndarray:
        """The next die of each game ``g[i]``."""
        column, start = self._start(g, 1)
        self.column[g] = column + 1
        values: np.ndarray = self.flat[start]
        return values

    def _refill(self, games: np.ndarray) -> None:
        """Keep the dice ``games`` have not rolled yet, then draw their next ``CHUNK``."""
        for k in games:
            column = int(self.column[k])
            left = int(self.filled[k]) - column
            row = self.values[k]
            row[:left] = row[column : column + left]
            row[left : left + CHUNK] = self.generators[k].integers(1, self.sides + 1, size=CHUNK, dtype=np.int32)
            self.column[k] = 0
            self.filled[k] = left + CHUNK
