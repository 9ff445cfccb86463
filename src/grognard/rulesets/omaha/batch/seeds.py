"""The generators of many games at once: numpy's ``SeedSequence`` hashed over arrays, one lane a game.

A batch makes two generators a game (its dice, and its bots' for the ties of the German placement), each
from ``core.dice.stream(seed, index, *tail)``, a ``SeedSequence``. Built one by one, the sequence's hashing cost
more than the generator (some 11 us a game, an eighth of a batch). Its hashing takes no branch on the
data, so it runs here over every game's words side by side (numpy's ``uint32`` arithmetic wraps as its
C does); each game's ``PCG64`` is then seeded with its four words through :class:`_Hashed`, the same
generator as from the sequence itself (``tests/test_omaha_batch.py`` compares the words and the dice).

numpy's algorithm (``numpy/random/bit_generator.pyx``, ``SeedSequence``): the entropy (the seed's 32-bit
words, little end first, padded with zeros to the pool's four, then the spawn key's words) is mixed
into a pool of four words by ``hashmix`` and ``mix``; ``generate_state`` hashes the pool out again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from numpy.random.bit_generator import ISeedSequence

from grognard.core.dice import stream

POOL = 4  # SeedSequence's default pool size (words)
INIT_A, MULT_A = 0x43B0D7E5, 0x931E8875  # hashmix's constants
INIT_B, MULT_B = 0x8B51F9DD, 0x58F38DED  # generate_state's
MIX_MULT_L, MIX_MULT_R = 0xCA01F9DD, 0x4973F715  # mix's
XSHIFT = np.uint32(16)
WORD = 0xFFFFFFFF


def _words(value: int) -> list[int]:
    """An int's 32-bit words, little end first (0 is one word), as ``SeedSequence`` takes them."""
    out = [value & WORD]
    while value > WORD:
        value >>= 32
        out.append(value & WORD)
    return out


class _Hash:
    """``hashmix``'s running constant (the same in every lane: it moves on with each call, not with the data)."""

    def __init__(self, start: int, mult: int) -> None:
        self.const, self.mult = start, mult

    def __call__(self, value: np.ndarray) -> np.ndarray:
        value = value ^ np.uint32(self.const)
        self.const = (self.const * self.mult) & WORD
        value = value * np.uint32(self.const)
        out: np.ndarray = value ^ (value >> XSHIFT)
        return out


def _mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    result: np.ndarray = x * np.uint32(MIX_MULT_L) - y * np.uint32(MIX_MULT_R)
    out: np.ndarray = result ^ (result >> XSHIFT)
    return out


def states(seed: int, indices: Sequence[int], tail: Sequence[int]) -> np.ndarray | None:
    """``stream(seed, index, *tail).generate_state(4, np.uint64)`` (``core.dice.stream``) of each index, one row
    each; ``None`` where the lanes would not share one shape (a negative seed, an index of two words)."""
    index = np.asarray(indices, dtype=np.int64)
    if seed < 0 or min(tail, default=0) < 0 or (len(index) and (index.min() < 0 or index.max() > WORD)):
        return None
    n = len(index)
    run = _words(seed)
    run += [0] * (POOL - len(run))  # a spawn key follows: the seed's words fill the pool first
    entropy = [np.full(n, w, dtype=np.uint32) for w in run]
    entropy.append(index.astype(np.uint32))
    entropy += [np.full(n, w, dtype=np.uint32) for t in tail for w in _words(t)]
    hashmix = _Hash(INIT_A, MULT_A)
    pool = [hashmix(entropy[i]) for i in range(POOL)]
    for source in range(POOL):
        for target in range(POOL):
            if source != target:
                pool[target] = _mix(pool[target], hashmix(pool[source]))
    for source in range(POOL, len(entropy)):
        for target in range(POOL):
            pool[target] = _mix(pool[target], hashmix(entropy[source]))
    hashout = _Hash(INIT_B, MULT_B)
    out = np.stack([hashout(pool[i % POOL]) for i in range(8)], axis=1).astype(np.uint64)
    return np.ascontiguousarray(out[:, 0::2] | (out[:, 1::2] << np.uint64(32)))  # little-endian pairs


class _Hashed(ISeedSequence):
    """A sequence already hashed: its four 64-bit words, what ``PCG64`` asks a sequence for."""

    def __init__(self, words: np.ndarray) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray:
        if n_words != 4 or np.dtype(dtype) != np.uint64:  # PCG64 asks for nothing else
            raise ValueError("a hashed sequence gives PCG64 its four 64-bit words only")
        return self.words


def generators(seed: int, indices: Sequence[int], tail: Sequence[int]) -> list[np.random.Generator]:
    """``np.random.Generator(np.random.PCG64(stream(seed, index, *tail)))`` of each index (``core.dice.stream``)."""
    words = states(seed, indices, tail)
    if words is None:
        return [np.random.Generator(np.random.PCG64(stream(seed, i, *tail))) for i in indices]
    # PCG64 takes any ISeedSequence (numpy's stubs name SeedSequence alone)
    return [np.random.Generator(np.random.PCG64(cast(np.random.SeedSequence, _Hashed(row)))) for row in words]


def small_draws(
    seed: int, indices: Sequence[int], tail: Sequence[int], game: np.ndarray, sizes: np.ndarray
) -> np.ndarray:
    """Draw ``i`` is ``generator.integers(sizes[i])`` of game ``game[i]``'s generator (``indices[game[i]]``'s,
    as :func:`generators` makes it), each game's draws one after another in the order given (``game``
    sorted; every size from 2 to 2**32 - 1).

    numpy draws such a number by Lemire's method from its generator's next 32 bits (a PCG64 output's low
    half, then its high half): ``(bits * size) >> 32``, unless the low 32 bits of the product fall
    under ``size``, when it may draw again (some once in a billion draws): that game's draws are made by
    its generator itself. The rest read every game's outputs at once (``random_raw``)."""
    if len(sizes) and (sizes.min() < 2 or sizes.max() > WORD):  # a size of 1 draws nothing in numpy
        raise ValueError("small_draws draws from 2 to 2**32 - 1 choices")
    lanes, first, count = np.unique(game, return_index=True, return_counts=True)
    nth = np.arange(len(game)) - np.repeat(first, count)  # the draw's place among its game's
    games = [indices[k] for k in lanes.tolist()]
    words = states(seed, games, tail)
    if words is None or not len(game):
        made = _one_by_one(seed, games, tail, count)
        return np.array([g.integers(n) for g, n in zip(made, sizes.tolist(), strict=True)], dtype=np.int64)
    outputs = (int(count.max()) + 1) // 2
    raw = np.array([np.random.PCG64(cast(np.random.SeedSequence, _Hashed(row))).random_raw(outputs) for row in words])
    halves = np.stack((raw & np.uint64(WORD), raw >> np.uint64(32)), axis=2).reshape(len(lanes), 2 * outputs)
    size = sizes.astype(np.uint64)
    lane = np.repeat(np.arange(len(lanes)), count)
    product = halves[lane, nth] * size
    picks = (product >> np.uint64(32)).astype(np.int64)
    again = np.unique(lane[(product & np.uint64(WORD)) < size])
    for k in again.tolist():  # Lemire's method may draw again: the generator itself
        generator = generators(seed, [games[k]], tail)[0]
        mine = slice(int(first[k]), int(first[k] + count[k]))
        picks[mine] = [generator.integers(n) for n in sizes[mine].tolist()]
    return picks


def _one_by_one(seed: int, games: Sequence[int], tail: Sequence[int], count: np.ndarray) -> list[np.random.Generator]:
    """Each game's generator, once for each of its draws (the same generator object)."""
    return [g for g, n in zip(generators(seed, games, tail), count.tolist(), strict=True) for _ in range(n)]
