"""The skirmish dice mechanics (one object each, ``roll`` for play and ``distribution`` for exact odds):
shots, survival, the ranging shot, a burst's fate, pushing a ladder off, initiative, and the melee round.

Play, the odds tables, the web page's "odds before you commit" and the bots all use these objects
(``grognard odds skirmish``). The seed's numbers that are lost are table data or marked grognard
defaults (RULINGS S1, S6).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

from grognard.core.dice import DiceSource, Mechanic


# ------------------------------------------------------------------------------ mechanics
@dataclass(frozen=True)
class Shots(Mechanic):
    """``dice`` men fire, one die each; a die hits when ``face + shift >= hit_on`` (skirmish.4, 5, 32).

    ``shift`` is the target's type (+1: easier to hit) less 1 for cover. The
    outcome is the number of hits.

    >>> Shots(dice=1, hit_on=6, shift=-1).distribution().probability(1) == 0
    True
    >>> Shots(dice=2, hit_on=5).distribution().probability(0)
    Fraction(4, 9)
    """

    dice: int
    hit_on: int
    shift: int = 0

    def roll(self, source: DiceSource, purpose: str) -> int:
        return sum(1 for v in source.roll(self.dice, 6, purpose) if v + self.shift >= self.hit_on)

    def distribution(self) -> icepool.Die:
        one = (icepool.d6 + self.shift >= self.hit_on).map({False: 0, True: 1})
        return self.dice @ one

    @property
    def text(self) -> str:
        adjust = f"{self.shift:+d} " if self.shift else ""
        return f"{self.dice}d6 {adjust}each {self.hit_on}+ hits"


@dataclass(frozen=True)
class PushOff(Mechanic):
    """Men pushing a ladder off a wall (skirmish.83, RULINGS S9): each rolls a d6; any at most ``on`` pushes it.

    >>> PushOff(2, 2).distribution().probability(True)
    Fraction(5, 9)
    >>> PushOff(1, 2).distribution().probability(True)
    Fraction(1, 3)
    """

    men: int
    on: int = 2

    def roll(self, source: DiceSource, purpose: str) -> bool:
        return any(v <= self.on for v in source.roll(self.men, 6, purpose))

    def distribution(self) -> icepool.Die:
        return (self.men @ (icepool.d6 <= self.on)) >= 1

    @property
    def text(self) -> str:
        return f"{self.men}d6, the ladder falls if any shows {self.on} or less"


@dataclass(frozen=True)
class Survival(Mechanic):
    """A hit man's survival roll: ``survive_on`` or more, a flesh wound; else dead (skirmish.6).

    >>> Survival(5).distribution().probability(True)
    Fraction(1, 3)
    """

    survive_on: int

    def roll(self, source: DiceSource, purpose: str) -> bool:
        return source.roll(1, 6, purpose)[0] >= self.survive_on

    def distribution(self) -> icepool.Die:
        return icepool.d6 >= self.survive_on

    @property
    def text(self) -> str:
        return f"1d6, {self.survive_on}+ survives with a flesh wound"


@dataclass(frozen=True)
class ShotFate(Mechanic):
    """One man fires once at a man not yet hit this turn: ``miss``, ``wounded`` or ``dead`` (for odds only)."""

    hit_on: int
    shift: int
    survive_on: int

    def roll(self, source: DiceSource, purpose: str) -> str:
        if not Shots(1, self.hit_on, self.shift).roll(source, purpose):
            return "miss"
        return "wounded" if Survival(self.survive_on).roll(source, purpose) else "dead"

    def distribution(self) -> icepool.Die:
        hit = icepool.d6 + self.shift >= self.hit_on
        survive = icepool.d6 >= self.survive_on
        return hit.if_else(survive.if_else(icepool.Die(["wounded"]), icepool.Die(["dead"])), icepool.Die(["miss"]))

    @property
    def text(self) -> str:
        return f"hit on {self.hit_on}+ ({self.shift:+d}), survive on {self.survive_on}+"


@dataclass(frozen=True)
class RangingShot(Mechanic):
    """The ranging shot of one burst (skirmish.13, RULINGS S2): one d6, the shell lands when it shows at
    most ``ranging`` (so a 1 always lands). ``roll`` returns ``(landed, die)``; the distribution is of landed.

    >>> RangingShot(4).distribution().probability(True)
    Fraction(2, 3)
    """

    ranging: int

    def roll(self, source: DiceSource, purpose: str) -> tuple[bool, int]:
        die = source.roll(1, 6, purpose)[0]
        return die <= self.ranging, die

    def distribution(self) -> icepool.Die:
        return icepool.d6 <= self.ranging

    @property
    def text(self) -> str:
        return f"1d6, {self.ranging} or less: the shell lands"


@dataclass(frozen=True)
class BurstFate(Mechanic):
    """A man under a burst template when it is fired: ``miss``, ``wounded`` or ``dead`` (for odds only):
    the ranging shot lands on ``ranging`` or less, then his effect die hits on ``hit_on`` (shifted by
    ``shift``), then he survives on ``survive_on`` (6 for burst weapons, RULINGS S3)."""

    ranging: int
    hit_on: int
    shift: int
    survive_on: int

    def roll(self, source: DiceSource, purpose: str) -> str:
        landed, _ = RangingShot(self.ranging).roll(source, purpose)
        if not landed:
            return "miss"
        return ShotFate(self.hit_on, self.shift, self.survive_on).roll(source, purpose)

    def distribution(self) -> icepool.Die:
        landed = icepool.d6 <= self.ranging
        return landed.if_else(ShotFate(self.hit_on, self.shift, self.survive_on).distribution(), icepool.Die(["miss"]))

    @property
    def text(self) -> str:
        ranging = f"ranging {self.ranging} or less"
        return f"{ranging}, then hit on {self.hit_on}+ ({self.shift:+d}), survive on {self.survive_on}+"


@dataclass(frozen=True)
class Initiative(Mechanic):
    """A d6 each for the two sides, rolled again on a tie; the higher moves first (skirmish.10, S0).

    ``roll`` returns ``(first side, allies' die, axis' die, ties rolled again)``;
    the distribution is of the side that moves first.

    >>> Initiative().distribution().probability("allies")
    Fraction(1, 2)
    """

    def roll(self, source: DiceSource, purpose: str) -> tuple[str, int, int, int]:
        ties = 0
        while True:
            a, b = source.roll(2, 6, purpose)
            if a != b:
                return ("allies" if a > b else "axis", a, b, ties)
            ties += 1

    def distribution(self) -> icepool.Die:
        wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a > b)  # ties are rolled again
        return icepool.Die({"allies": wins, "axis": wins})

    @property
    def text(self) -> str:
        return "a d6 each, the higher moves first, ties roll again"


INITIATIVE = Initiative()


# Melee numbers (RULINGS S6): the seed's table is lost, so these are grognard defaults.
MELEE_HIT_ON = 4  # a melee die hits on 4+, plus the target's type shift (cavalry +1); no cover in melee
MELEE_SURVIVE_ON = 5  # a man hit in melee (where survival is allowed) survives on 5-6
MELEE_GROUP = 10  # at most 10 men in a group making one stay/retreat choice


def aims(strikers: int, foes: int) -> list[int]:
    """How many of ``strikers`` men strike at each of ``foes`` men who all touch them: one to one, the spare
    men joining the pairs in turn (RULINGS S13, as ``SkirmishGame._targets`` pairs them).

    >>> aims(5, 2), aims(1, 3), aims(0, 2)
    ([3, 2], [1, 0, 0], [0, 0])
    """
    return [len(range(j, strikers, foes)) for j in range(foes)] if foes else []


def _struck(strikes: int, hit_on: int, shift: int, survive_on: int | None, side: int) -> icepool.Die:
    """The fate of one man struck ``strikes`` times: a Vector (attackers dead, defenders dead, hits), ``side``
    0 for an attacker, 1 for a defender. One hit kills (``survive_on`` None) or allows a survival roll; a
    second hit in the turn kills outright (skirmish.7)."""
    hit = (icepool.d6 + shift >= hit_on).map({False: 0, True: 1})
    hits = strikes @ hit if strikes else icepool.Die([0])
    survive = icepool.d6 >= survive_on if survive_on is not None else icepool.Die([False])

    def fate(h: int) -> Any:
        dead = [0, 0, h]
        if h >= 2:
            dead[side] = 1
            return icepool.Vector(dead)
        if h == 1:
            return survive.map(lambda ok: icepool.Vector([0, 0, 1] if ok else ([1, 0, 1] if side == 0 else [0, 1, 1])))
        return icepool.Vector(dead)

    return hits.map(fate)


def _total(dice: list[icepool.Die]) -> icepool.Die:
    out = icepool.Die([icepool.Vector([0, 0, 0])])
    for die in dice:
        out = out + die
    return out


@dataclass(frozen=True)
class MeleeRound(Mechanic):
    """One melee round of ``attackers`` men against ``defenders`` men whose bases all touch (a small group).

    First round (skirmish.69): each attacker strikes (one die, ``hit_on``+ plus the target's ``shift``); a hit
    kills outright (the attacker's advantage) and the dead do not strike back; each living defender strikes
    back, and a hit makes the attacker roll survival. Later rounds (skirmish.70): a hit on either side allows
    survival, and the defenders killed strike back before they are removed. Men pair one to one, the spare men
    joining the pairs (RULINGS S13). ``outcomes()`` is the exact joint distribution (icepool) of
    ``(attackers dead, defenders dead, hits)``; ``distribution()`` labels it; ``roll`` plays it with dice.

    >>> MeleeRound(1, 1).distribution().probability("0 att., 1 def. dead")
    Fraction(1, 2)
    >>> MeleeRound(1, 1).distribution().probability("both missed: stay or retreat")
    Fraction(1, 4)
    >>> MeleeRound(1, 1, first=False).expected()
    (Fraction(1, 3), Fraction(1, 3))
    """

    attackers: int
    defenders: int
    first: bool = True
    hit_on: int = MELEE_HIT_ON
    survive_on: int = MELEE_SURVIVE_ON
    attacker_shift: int = 0  # the attackers' type shift when struck (cavalry +1)
    defender_shift: int = 0

    def _defender_fates(self, back: int) -> icepool.Die:
        """The attackers' fates when ``back`` defenders strike back."""
        return _total(
            [_struck(k, self.hit_on, self.attacker_shift, self.survive_on, 0) for k in aims(back, self.attackers)]
        )

    def outcomes(self) -> icepool.Die:
        """The exact distribution of ``Vector(attackers dead, defenders dead, hits scored)``."""
        return _melee_outcomes(self)

    def expected(self) -> tuple[Fraction, Fraction]:
        """The exact expected (attackers dead, defenders dead) of the round."""
        return _melee_expected(self)

    def distribution(self) -> icepool.Die:
        def label(v: Any) -> str:
            if v[2] == 0:
                return "both missed: stay or retreat"
            return f"{v[0]} att., {v[1]} def. dead"

        return self.outcomes().map(label)

    def roll(self, source: DiceSource, purpose: str) -> tuple[int, int, int]:
        """The round played with ``source``: (attackers dead, defenders dead, hits)."""
        hits_on_def = [0] * self.defenders
        hits = 0
        for j, k in enumerate(aims(self.attackers, self.defenders)):
            if k:
                rolled = source.roll(k, 6, f"{purpose}: attackers strike")
                h = sum(1 for v in rolled if v + self.defender_shift >= self.hit_on)
                hits_on_def[j] = h
                hits += h
        dead_def = [self._dies(h, source, purpose, survival=not self.first) for h in hits_on_def]
        back = self.defenders - sum(dead_def) if self.first else self.defenders
        dead_att = 0
        for k in aims(back, self.attackers):
            if k:
                rolled = source.roll(k, 6, f"{purpose}: defenders strike")
                h = sum(1 for v in rolled if v + self.attacker_shift >= self.hit_on)
                hits += h
                dead_att += self._dies(h, source, purpose, survival=True)
        return dead_att, sum(dead_def), hits

    def _dies(self, h: int, source: DiceSource, purpose: str, *, survival: bool) -> int:
        if h == 0:
            return 0
        if h >= 2 or not survival:
            return 1
        return 0 if source.roll(1, 6, f"{purpose}: survival")[0] >= self.survive_on else 1

    @property
    def text(self) -> str:
        which = "first round" if self.first else "later round"
        return f"{self.attackers} attackers v {self.defenders} defenders, {which}: hit on {self.hit_on}+"


@functools.lru_cache(maxsize=512)
def _melee_expected(m: MeleeRound) -> tuple[Fraction, Fraction]:
    """``MeleeRound.expected``: the means of ``outcomes()``, worked out man by man (a sum's mean is the sum of
    its parts' means) in exact fractions, without building the joint distribution. A man struck ``k`` times
    dies with the chance of two hits or more, or of one without a survival; in the first round the attackers'
    fates depend on how many defenders live to strike back, so they are summed over that number's exact
    distribution (cached: the doctrine weighs the same few charges again and again)."""
    on_def = _hit_chance(m.hit_on, m.defender_shift)
    on_att = _hit_chance(m.hit_on, m.attacker_shift)
    saved = Fraction(sum(1 for face in range(1, 7) if face >= m.survive_on), 6)
    falls = [_dies(k, on_def, Fraction(0) if m.first else saved) for k in aims(m.attackers, m.defenders)]
    defenders = sum(falls, Fraction(0))
    if not m.first:
        return sum((_dies(k, on_att, saved) for k in aims(m.defenders, m.attackers)), Fraction(0)), defenders
    dead = [Fraction(1)]  # the chance that 0, 1, ... defenders fall to the attackers' strikes
    for p in falls:
        dead = [a * (1 - p) + b * p for a, b in zip([*dead, Fraction(0)], [Fraction(0), *dead], strict=True)]
    attackers = sum(
        (
            chance * sum((_dies(k, on_att, saved) for k in aims(m.defenders - fallen, m.attackers)), Fraction(0))
            for fallen, chance in enumerate(dead)
            if chance
        ),
        Fraction(0),
    )
    return attackers, defenders


def _hit_chance(hit_on: int, shift: int) -> Fraction:
    """One melee die's chance to hit: a d6 plus ``shift`` at least ``hit_on``."""
    return Fraction(sum(1 for face in range(1, 7) if face + shift >= hit_on), 6)


def _dies(strikes: int, hit: Fraction, saved: Fraction) -> Fraction:
    """The chance a man struck ``strikes`` times (each hitting with chance ``hit``) dies: two hits or more kill
    (skirmish.7), one kills unless he survives (chance ``saved``, 0 where no survival is allowed)."""
    if strikes == 0:
        return Fraction(0)
    none = (1 - hit) ** strikes
    one = strikes * hit * (1 - hit) ** (strikes - 1)
    return 1 - none - one * saved


@functools.lru_cache(maxsize=512)
def _melee_outcomes(m: MeleeRound) -> icepool.Die:
    """``MeleeRound.outcomes`` (cached: the doctrine asks the same few rounds again and again)."""
    struck = [
        _struck(k, m.hit_on, m.defender_shift, None if m.first else m.survive_on, 1)
        for k in aims(m.attackers, m.defenders)
    ]
    defenders = _total(struck)
    if not m.first:
        return defenders + m._defender_fates(m.defenders)
    return defenders.map(lambda v: v + m._defender_fates(m.defenders - int(v[1])))
