"""Composite mechanics: one mechanic followed by another, and a mechanic repeated until something is gone.

Both are :class:`~grognard.core.dice.Mechanic` objects built from a rule set's own mechanics, so their
exact odds (icepool) and their ``roll`` (the same dice play rolls, in the same order) come from the
objects play uses:

- :class:`Then`: ``first``, then the mechanic ``follow(outcome)`` names; the outcome is the second's
  (a bunker's fire, then the squad's morale check with the figures it lost).
- :class:`Rounds`: from a start state, each round rolls ``step(state)`` and moves to the state it
  gives; the outcome is the number of rounds until the state is ``done`` (shots to empty a bunker,
  attacks to down a bomber). Unbounded counts are cut at ``limit``: the outcome ``limit`` means
  "``limit`` or more" (its label is ``"12+"``); the mean (:meth:`Rounds.exact_mean`) is the exact
  mean of the uncut count.
- :class:`Mapped`: a mechanic's outcomes read through a table (a "damaged" that destroys a plane with
  every engine out); :class:`Summed`: a mechanic rolled n times, summed (a beach's obstacles).

>>> from grognard.core.dice import AnySuccess, ScriptedDice
>>> attempts = Rounds(1, lambda s: AnySuccess(2, 6), lambda s, hit: 0 if hit else s, limit=20)
>>> attempts.exact_mean()  # a geometric count: 1 / (11/36)
Fraction(36, 11)
>>> attempts.roll(ScriptedDice([1, 2, 3, 6]), "assault")
2
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

from grognard.core.dice import DiceSource, Mechanic


@dataclass(frozen=True)
class Then(Mechanic):
    """``first``, then ``follow(first's outcome)``; the outcome is the second mechanic's.

    ``follow`` may return ``None`` for an outcome after which nothing is rolled; the outcome is then
    ``otherwise(first's outcome)`` (e.g. "wiped out": no morale check).
    """

    first: Mechanic
    follow: Callable[[Any], Mechanic | None]
    otherwise: Callable[[Any], Any] = lambda outcome: outcome
    label: str = ""

    def roll(self, source: DiceSource, purpose: str) -> Any:
        outcome = self.first.roll(source, purpose)
        then = self.follow(outcome)
        return self.otherwise(outcome) if then is None else then.roll(source, purpose)

    def distribution(self) -> icepool.Die:
        def after(outcome: Any) -> Any:
            then = self.follow(outcome)
            return icepool.Die([self.otherwise(outcome)]) if then is None else then.distribution()

        return self.first.distribution().map(after)

    @property
    def text(self) -> str:
        return self.label or f"{self.first.text}; then a second roll"


@dataclass(frozen=True)
class Rounds(Mechanic):
    """Rounds of ``step(state)`` from ``start`` until ``done(state)``; the outcome is how many were rolled.

    ``step(state)`` is the mechanic one round rolls and ``move(state, outcome)`` the state it leaves.
    States are hashable; every round either stays or moves on to a state that never leads back (the
    rules' counts only go down), which is what makes the exact mean a short sum. ``limit`` cuts the
    count: the outcome ``limit`` stands for ``limit`` rounds or more.
    """

    start: Hashable
    step: Callable[[Any], Mechanic]
    move: Callable[[Any, Any], Any]
    done: Callable[[Any], bool] = lambda state: not state
    limit: int = 12
    label: str = ""

    def roll(self, source: DiceSource, purpose: str) -> int:
        state, rounds = self.start, 0
        while not self.done(state) and rounds < self.limit:
            rounds += 1
            state = self.move(state, self.step(state).roll(source, f"{purpose}, round {rounds}"))
        return rounds

    def _transitions(self, state: Any) -> dict[Any, Fraction]:
        die = self.step(state).distribution()
        total = int(die.denominator())
        out: dict[Any, Fraction] = {}
        for outcome, quantity in die.items():
            after = self.move(state, outcome)
            out[after] = out.get(after, Fraction(0)) + Fraction(int(quantity), total)
        return out

    def distribution(self) -> icepool.Die:
        weights: dict[int, Fraction] = {}
        spread: dict[Any, Fraction] = {self.start: Fraction(1)}
        if self.done(self.start):
            return icepool.Die([0])
        for rounds in range(1, self.limit + 1):
            after: dict[Any, Fraction] = {}
            for state, p in spread.items():
                for nxt, q in self._transitions(state).items():
                    after[nxt] = after.get(nxt, Fraction(0)) + p * q
            ended = sum((p for s, p in after.items() if self.done(s)), Fraction(0))
            if ended:
                weights[rounds] = ended
            spread = {s: p for s, p in after.items() if not self.done(s)}
        rest = sum(spread.values(), Fraction(0))
        if rest:
            weights[self.limit] = weights.get(self.limit, Fraction(0)) + rest
        return _die(weights)

    def exact_mean(self) -> Fraction:
        """The exact mean number of rounds, the count not cut at ``limit``."""
        memo: dict[Any, Fraction] = {}

        def expected(state: Any) -> Fraction:
            if self.done(state):
                return Fraction(0)
            if state not in memo:
                moves = self._transitions(state)
                stay = moves.pop(state, Fraction(0))
                if stay == 1:
                    raise ValueError(f"{self.text}: state {state!r} never ends")
                memo[state] = (1 + sum((q * expected(s) for s, q in moves.items()), Fraction(0))) / (1 - stay)
            return memo[state]

        return expected(self.start)

    def outcome_label(self, outcome: Any) -> Any:
        """The label an odds table shows: ``"12+"`` for the cut count."""
        return f"{outcome}+" if outcome == self.limit else outcome

    @property
    def text(self) -> str:
        return self.label or f"rounds until done (from {self.start!r})"


@dataclass(frozen=True)
class Mapped(Mechanic):
    """``mechanic``, its outcomes read through ``table`` (pairs of outcome and what it becomes; others stay):
    a "damaged" that destroys a plane whose every engine is already out (RULINGS B4)."""

    mechanic: Mechanic
    table: tuple[tuple[Any, Any], ...]
    label: str = ""

    def _read(self, outcome: Any) -> Any:
        for before, after in self.table:
            if outcome == before:
                return after
        return outcome

    def roll(self, source: DiceSource, purpose: str) -> Any:
        return self._read(self.mechanic.roll(source, purpose))

    def distribution(self) -> icepool.Die:
        return self.mechanic.distribution().map(self._read)

    @property
    def text(self) -> str:
        return self.label or self.mechanic.text


@dataclass(frozen=True)
class Summed(Mechanic):
    """``times`` rolls of ``mechanic`` (numeric), summed: the obstacles of every section of a beach."""

    mechanic: Mechanic
    times: int

    def roll(self, source: DiceSource, purpose: str) -> int:
        return sum(int(self.mechanic.roll(source, f"{purpose} {k + 1}")) for k in range(self.times))

    def distribution(self) -> icepool.Die:
        return self.times @ self.mechanic.distribution()

    @property
    def text(self) -> str:
        return f"{self.times} times ({self.mechanic.text}), summed"


def _die(weights: dict[Any, Fraction]) -> icepool.Die:
    """An icepool die with these exact probabilities (integer weights over a common denominator)."""
    common = math.lcm(*(p.denominator for p in weights.values()))
    return icepool.Die({outcome: int(p * common) for outcome, p in weights.items() if p})
