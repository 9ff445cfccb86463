"""Dice sources and dice mechanics.

A *dice source* answers ``roll(n, sides, purpose)`` with ``n`` values in
``1..sides``. Four sources exist:

- :class:`SeededDice`: a numpy ``Generator`` seeded from a ``SeedSequence``,
  drawn in blocks and buffered (one numpy call per die would dominate a game);
- :class:`ManualDice`: a referee types what the table rolled; impossible
  values and wrong counts are refused and asked again;
- :class:`ScriptedDice`: tests choose every die;
- :class:`RecordedDice`: replay serves the dice of a game record and refuses
  a request that differs from the recorded one.

A *mechanic* is one rule of chance defined once ("4 dice, each 5-6 kills"):
``roll(source, purpose)`` plays it and ``distribution()`` gives its exact
odds as an icepool ``Die``, so play and the odds tables come from one place.

>>> dice = ScriptedDice([5, 2, 6, 1])
>>> SuccessCount(dice=4, target=5).roll(dice, "bunker B1 fires")
2
>>> SuccessCount(dice=4, target=5).distribution().probability(0)
Fraction(16, 81)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache, wraps
from itertools import repeat
from operator import le
from typing import Any, Protocol

import icepool
import numpy as np

from grognard.core.errors import DiceError

__all__ = [
    "BOTS",
    "DICE",
    "AnySuccess",
    "Capped",
    "DiceSource",
    "DieRoll",
    "Gated",
    "ManualDice",
    "Mechanic",
    "RecordedDice",
    "ScriptedDice",
    "SeededDice",
    "SuccessCount",
    "SumAtLeast",
    "TableRoll",
    "dice_generator",
    "game_dice_generator",
    "spawn_seeds",
    "stream",
]


DICE, BOTS = 0, 1  # the two streams of a seeded game: its dice, and its bots' choices


def stream(seed: int | np.random.SeedSequence, *path: int) -> np.random.SeedSequence:
    """The random stream at ``path`` below ``seed``: every seeded stream of grognard is derived here.

    ``stream(s, i, j)`` is numpy's child ``j`` of child ``i`` of ``SeedSequence(s)`` (what ``spawn``
    gives, without its counter), so a stream depends on its seed and path alone. The paths in use:

    - a game seeded ``s`` (``grognard play``, a web room, the terminal): dice ``stream(s, DICE)``,
      the bots' choice at step ``k`` ``stream(bot_seed, BOTS, k)``;
    - game ``i`` of a Monte Carlo run seeded ``s``: ``stream(s, i)``, its dice ``stream(s, i, DICE)``,
      its bots ``stream(s, i, BOTS)``;
    - within a dice stream ``d``, the dice of ``n`` sides: ``stream(d, n)`` (:class:`SeededDice`);
    - a search bot's playout: ``stream(entropy, BOTS, playout)``, its dice and bots below that.

    ``seed`` is an int (0 or more) or a ``SeedSequence``.

    >>> stream(7, 3).spawn_key, stream(stream(7, 3), DICE).spawn_key
    ((3,), (3, 0))
    >>> stream(7, 3).generate_state(2).tolist() == np.random.SeedSequence(7).spawn(4)[3].generate_state(2).tolist()
    True
    """
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, *path), pool_size=seed.pool_size)
    return np.random.SeedSequence(seed, spawn_key=path)


def dice_generator(seed: int | np.random.SeedSequence, sides: int) -> np.random.Generator:
    """The generator :class:`SeededDice` seeded ``seed`` draws its ``sides``-sided dice from (``stream(seed, sides)``);
    a batch path drawing the same dice side by side takes it from here."""
    return np.random.Generator(np.random.PCG64(stream(seed, sides)))


def game_dice_generator(seed: int, index: int, sides: int) -> np.random.Generator:
    """``dice_generator(stream(seed, index, DICE), sides)``, game ``index``'s dice of a run seeded ``seed``, from one
    ``SeedSequence`` where that makes two (a batch path makes one a game, thousands a run)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index, DICE, sides))))


class DiceSource(Protocol):
    """Anything that rolls dice: ``roll(n, sides, purpose) -> list of n values``."""

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[int]: ...


def _check_request(n: int, sides: int, purpose: str) -> None:
    if n < 0:
        raise DiceError(f"cannot roll {n} dice for {purpose!r}")
    if sides < 2:
        raise DiceError(f"a die needs at least 2 sides, not {sides} ({purpose!r})")


class SeededDice:
    """Reproducible dice from a seed, buffered in blocks.

    ``seed`` is an int or a ``numpy.random.SeedSequence``; each number of sides
    gets its own child stream, so d6 and d10 draws never disturb each other.
    ``drawn`` counts the dice drawn per number of sides; ``SeededDice(seed,
    skip=drawn)`` continues where a saved game stopped.

    >>> a, b = SeededDice(7), SeededDice(7)
    >>> a.roll(5) == b.roll(5)
    True
    >>> c = SeededDice(7, skip={6: 2}); _ = a.roll(0)
    >>> SeededDice(7).roll(3)[2] == c.roll(1)[0]
    True
    """

    BLOCK = 1024  # dice drawn at once: an Omaha game rolls some 1,600 d6, a skirmish game or a raid 60 to 180

    def __init__(self, seed: int | np.random.SeedSequence, skip: Mapping[int, int] | None = None) -> None:
        self.seed_sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        self._streams: dict[int, np.random.Generator] = {}
        # by number of sides: [the dice drawn and not yet served, then those served, the next one's index in it,
        # the dice served before it]
        self._held: dict[int, list[Any]] = {}
        for sides, count in (skip or {}).items():
            self.roll(count, sides, "skip")

    @property
    def drawn(self) -> dict[int, int]:
        """The dice served so far, by number of sides (what ``skip`` takes to continue from here)."""
        return {sides: held[2] + held[1] for sides, held in self._held.items()}

    @property
    def seed(self) -> int | Sequence[int] | None:
        """The entropy the stream was seeded with (an int for an int seed)."""
        entropy = self.seed_sequence.entropy
        return entropy if isinstance(entropy, int) or entropy is None else list(entropy)

    def _stream(self, sides: int) -> np.random.Generator:
        generator = self._streams.get(sides)
        if generator is None:
            generator = self._streams[sides] = dice_generator(self.seed_sequence, sides)
        return generator

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[int]:
        held = self._held.get(sides)
        if held is not None and n >= 0:
            position = held[1]
            end = position + n
            buffer = held[0]
            if end <= len(buffer):
                held[1] = end
                return buffer[position:end]  # type: ignore[no-any-return]
        return self._refill(n, sides, purpose)

    def _refill(self, n: int, sides: int, purpose: str) -> list[int]:
        """:meth:`roll` when the dice held for ``sides`` are too few: a block drawn after those left."""
        if n < 0 or sides < 2:
            _check_request(n, sides, purpose)
        held = self._held.get(sides)
        rest: list[int] = [] if held is None else held[0][held[1] :]
        served: int = 0 if held is None else held[2] + held[1]
        size = max(self.BLOCK, n)
        fresh: list[int] = self._stream(sides).integers(1, sides + 1, size=size, dtype=np.int64).tolist()
        buffer = rest + fresh
        self._held[sides] = [buffer, n, served]
        return buffer[:n]


def spawn_seeds(seed: int, n: int) -> list[np.random.SeedSequence]:
    """``n`` independent child seeds of ``seed``, one per game, in game order."""
    return [stream(seed, i) for i in range(n)]


class ScriptedDice:
    """Dice chosen by a test, served in order.

    Raises :class:`DiceError` when a value is off the die or the script runs
    out, naming the purpose of the roll that asked. ``log`` keeps every request
    as ``(purpose, sides, values)``.
    """

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        self._next = 0
        self.log: list[tuple[str, int, list[int]]] = []

    @property
    def remaining(self) -> int:
        """How many scripted values are still unused."""
        return len(self._values) - self._next

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[int]:
        _check_request(n, sides, purpose)
        if self._next + n > len(self._values):
            raise DiceError(f"scripted dice ran out: {purpose!r} asked for {n}d{sides}, {self.remaining} left")
        values = self._values[self._next : self._next + n]
        for value in values:
            if not 1 <= value <= sides:
                raise DiceError(f"scripted value {value} is not on a d{sides} ({purpose!r})")
        self._next += n
        self.log.append((purpose, sides, values))
        return values


class ManualDice:
    """Dice typed in by a person: ``ask(n, sides, purpose, problem)`` returns the values.

    ``problem`` is ``None`` on the first ask, then the reason the last answer
    was refused (a wrong count, a value off the die); the source asks again
    until the answer is possible. ``ask`` may raise to abandon the roll.
    """

    def __init__(self, ask: Callable[[int, int, str, str | None], Sequence[int]]) -> None:
        self._ask = ask

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[int]:
        _check_request(n, sides, purpose)
        if n == 0:
            return []
        problem: str | None = None
        while True:
            values = list(self._ask(n, sides, purpose, problem))
            problem = check_values(values, n, sides)
            if problem is None:
                return values


def check_values(values: Sequence[int], n: int, sides: int) -> str | None:
    """Why ``values`` cannot be ``n`` rolls of a d``sides``, or ``None`` if they can."""
    if len(values) != n:
        rolled = f"{n} {'die' if n == 1 else 'dice'}"
        given = f"{len(values)} {'value' if len(values) == 1 else 'values'}"
        return f"{rolled} rolled but {given} typed"
    for value in values:
        if not isinstance(value, int) or not 1 <= value <= sides:
            return f"{value!r} is not a face of a d{sides}"
    return None


class RecordedDice:
    """The dice of a game record, served back in order for replay.

    Each request must match the recorded one (purpose, count and sides);
    otherwise :class:`DiceError` says what was asked and what was recorded.
    """

    def __init__(self, rolls: Iterable[tuple[str, int, Sequence[int]]] = ()) -> None:
        self._rolls: list[tuple[str, int, list[int]]] = [(p, s, list(v)) for p, s, v in rolls]
        self._next = 0

    def extend(self, rolls: Iterable[tuple[str, int, Sequence[int]]]) -> None:
        """Queue more recorded rolls (the next record line's)."""
        self._rolls.extend((p, s, list(v)) for p, s, v in rolls)

    @property
    def remaining(self) -> int:
        """How many recorded rolls are still unused."""
        return len(self._rolls) - self._next

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[int]:
        if self._next >= len(self._rolls):
            raise DiceError(f"the record has no roll left for {purpose!r} ({n}d{sides})")
        rec_purpose, rec_sides, values = self._rolls[self._next]
        if rec_purpose != purpose or rec_sides != sides or len(values) != n:
            raise DiceError(
                f"the game asked for {purpose!r} {n}d{sides}, the record has {rec_purpose!r} {len(values)}d{rec_sides}"
            )
        problem = check_values(values, n, sides)
        if problem:
            raise DiceError(f"recorded roll {purpose!r}: {problem}")
        self._next += 1
        return list(values)


# --------------------------------------------------------------------------- mechanics


class Mechanic(ABC):
    """One rule of chance: ``roll`` for play, ``distribution`` for exact odds.

    Subclasses are frozen dataclasses; their fields are the rule's numbers. A distribution is
    worked out once for equal numbers and then shared (icepool dice are immutable): a page's
    menu asks the odds of the same few mechanics over and over.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "distribution" in cls.__dict__:
            # the subclass's own method put in place of its memoised form: mypy refuses assigning to a method
            cls.distribution = _remembered(cls.__dict__["distribution"])  # type: ignore[method-assign,assignment]

    @abstractmethod
    def roll(self, source: DiceSource, purpose: str) -> Any:
        """Roll the mechanic with ``source``; returns its outcome."""

    @abstractmethod
    def distribution(self) -> icepool.Die:
        """The exact distribution of the outcome ``roll`` returns."""

    @property
    @abstractmethod
    def text(self) -> str:
        """A short human description ("4d6, each 5+ succeeds")."""


def _remembered(distribution: Callable[[Any], icepool.Die]) -> Callable[[Any], icepool.Die]:
    """``distribution`` cached by the mechanic's value (a mechanic with unhashable numbers is not cached)."""
    cached = lru_cache(maxsize=4096)(distribution)

    @wraps(distribution)
    def remembered(self: Any) -> icepool.Die:
        try:
            hash(self)
        except TypeError:
            return distribution(self)
        return cached(self)

    return remembered


@dataclass(frozen=True)
class SuccessCount(Mechanic):
    """``dice`` dice, each showing ``target`` or more is one success; the outcome is the count."""

    dice: int
    target: int
    sides: int = 6

    def roll(self, source: DiceSource, purpose: str) -> int:
        # the dice showing the target or more, counted in C (``target <= value`` for each value)
        return sum(map(le, repeat(self.target), source.roll(self.dice, self.sides, purpose)))

    def distribution(self) -> icepool.Die:
        one = (icepool.d(self.sides) >= self.target).map({False: 0, True: 1})
        return self.dice @ one

    @property
    def text(self) -> str:
        return f"{self.dice}d{self.sides}, each {self.target}+ succeeds"


@dataclass(frozen=True)
class AnySuccess(Mechanic):
    """``dice`` dice; the outcome is True when any shows ``target`` or more."""

    dice: int
    target: int
    sides: int = 6

    def roll(self, source: DiceSource, purpose: str) -> bool:
        return any(map(le, repeat(self.target), source.roll(self.dice, self.sides, purpose)))

    @cached_property
    def _distribution(self) -> icepool.Die:
        return (self.dice @ (icepool.d(self.sides) >= self.target)) >= 1

    def distribution(self) -> icepool.Die:
        return self._distribution

    @property
    def text(self) -> str:
        return f"{self.dice}d{self.sides}, any {self.target}+ succeeds"


@dataclass(frozen=True)
class SumAtLeast(Mechanic):
    """``dice`` dice summed; the outcome is True when the total is ``target`` or more."""

    dice: int
    target: int
    sides: int = 6

    def roll(self, source: DiceSource, purpose: str) -> bool:
        return sum(source.roll(self.dice, self.sides, purpose)) >= self.target

    def distribution(self) -> icepool.Die:
        return (self.dice @ icepool.d(self.sides)) >= self.target

    @property
    def text(self) -> str:
        return f"{self.dice}d{self.sides} summed, {self.target}+ succeeds"


@dataclass(frozen=True)
class DieRoll(Mechanic):
    """One die; the outcome is its face."""

    sides: int = 6

    def roll(self, source: DiceSource, purpose: str) -> int:
        return source.roll(1, self.sides, purpose)[0]

    def distribution(self) -> icepool.Die:
        return icepool.d(self.sides)

    @property
    def text(self) -> str:
        return f"1d{self.sides}"


@dataclass(frozen=True)
class TableRoll(Mechanic):
    """One die read on a table: ``table[face - 1]`` is the outcome."""

    table: tuple[Any, ...]

    def roll(self, source: DiceSource, purpose: str) -> Any:
        return self.table[source.roll(1, len(self.table), purpose)[0] - 1]

    def distribution(self) -> icepool.Die:
        return icepool.Die(list(self.table))

    @property
    def text(self) -> str:
        faces = ", ".join(f"{face}: {outcome}" for face, outcome in enumerate(self.table, 1))
        return f"1d{len(self.table)} on a table ({faces})"


@dataclass(frozen=True)
class Gated(Mechanic):
    """``gate`` (a True/False mechanic) first; if True, ``effect`` is rolled, else ``otherwise``."""

    gate: Mechanic
    effect: Mechanic
    otherwise: Any = 0

    def roll(self, source: DiceSource, purpose: str) -> Any:
        if self.gate.roll(source, f"{purpose}: lands?"):
            return self.effect.roll(source, purpose)
        return self.otherwise

    def distribution(self) -> icepool.Die:
        return self.gate.distribution().if_else(self.effect.distribution(), icepool.Die([self.otherwise]))

    @property
    def text(self) -> str:
        return f"{self.gate.text}; then {self.effect.text}"


@dataclass(frozen=True)
class Capped(Mechanic):
    """``mechanic``'s numeric outcome, at most ``cap``: what play keeps when surplus results are wasted
    (kills beyond the figures present, sixes beyond the obstacles present; RULINGS O2). ``roll`` rolls
    the same dice as ``mechanic``.

    >>> Capped(SuccessCount(dice=6, target=6), 4).distribution().probability(4)  # 4, 5 or 6 sixes
    Fraction(203, 23328)
    """

    mechanic: Mechanic
    cap: int

    def roll(self, source: DiceSource, purpose: str) -> int:
        return min(int(self.mechanic.roll(source, purpose)), self.cap)

    def distribution(self) -> icepool.Die:
        cap = self.cap
        return self.mechanic.distribution().map(lambda outcome: min(outcome, cap))

    @property
    def text(self) -> str:
        return f"{self.mechanic.text}; at most {self.cap} count"
