"""The B-17 raid's facts as data: the table, the models, the options, the dice mechanics.

Every number here comes from the seed (``003_be0c37b661626161.txt``) or from
a ruling in RULINGS.md (B1-B19); the rule ID (docs/rules/b17.md) says which.
Model sizes are the real aircraft scaled to 1/285 (the seed's metal models),
in inches, and are options (paper models or another scale change them).

>>> FIGHTER_ATTACK.read([6, 1])  # 9 against 4: doubled
'destroyed'
>>> float(BOMB_ROLL.distribution().mean())  # hits per bomb roll
0.6666666666666666
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import icepool

from grognard.core.dice import DiceSource, Mechanic, TableRoll
from grognard.core.options import OptionSpec
from grognard.core.words import counted

SIDES = ("american", "german")
AMERICAN, GERMAN = "American", "German"  # the two seats

# --- the table (b17.2, b17.5, b17.10-b17.11; RULINGS B10), inches ----------------------------
TABLE_LENGTH = 108.0  # a ping-pong table is 9 ft by 5 ft: x runs its length, entry end x=0
TABLE_WIDTH = 60.0
TARGET_WIDTH = 11.0  # across the far end (along y)
TARGET_DEPTH = 8.0  # into the table (along x)
TARGET = (
    TABLE_LENGTH - TARGET_DEPTH,
    TABLE_WIDTH / 2 - TARGET_WIDTH / 2,
    TABLE_LENGTH,
    TABLE_WIDTH / 2 + TARGET_WIDTH / 2,
)
"""(x0, y0, x1, y1) of the target: flush with the centre of the far end (b17.11)."""
FLAK_RANGE = 6.0  # the AA reaches 6" beyond the target's edge (b17.53)

# --- placement (b17.12-b17.15) ------------------------------------------------------------
ENTRY_NEAREST = 6.0
ENTRY_FARTHEST = 18.0
FLANK_MARGIN = 6.0
BOX_SPACING = 4.0  # both spacing minimums of the diamond box
BOX_SIZE = 4  # bombers in a box (b17.3)

# --- organisation and arrival (b17.6, b17.16-b17.22) ---------------------------------------
ELEMENT_SIZE = 2
ALTITUDE_CHANGE = 6.0  # a dive adds 6" to the first move, a climb takes 6" off (b17.22)

# --- movement (b17.24-b17.28) -----------------------------------------------------------
FIGHTER_MOVE = 14.0
FIGHTER_STRAIGHT = 6.0
BOMBER_MOVE = 10.0
BOMBER_STRAIGHT = 3.0
BOMBER_MAX_TURN = 90.0
DAMAGE_MOVE_LOSS = 2.0  # per damage point (b17.26, b17.28, b17.31)

# --- combat (b17.32-b17.47) ---------------------------------------------------------------
FIGHTER_OFFENCE = 3
BOMBER_OFFENCE = 1
FIGHTER_DEFENCE = 2
BOMBER_DEFENCE = 3
HEAD_ON_BONUS = 1
ATTACK_RANGE = 4.0  # inches: attacks and every gunner's fire (b17.34, b17.46)
BOMBER_ENGINES = 4  # RULINGS B4
FIGHTER_ENGINES = 1
GUNS = ("nose", "left waist", "right waist", "tail")  # b17.44
PAIRS = {"nose-tail": ("nose", "tail"), "waists": ("left waist", "right waist")}  # b17.45
ARC_HALF_WIDTH = 60.0  # degrees either side of a gun's axis, with the option firing_arcs
GUN_AXIS = {"nose": 0.0, "left waist": 90.0, "right waist": -90.0, "tail": 180.0}

# --- the bomb run (b17.49-b17.60) ---------------------------------------------------------
BOMB_ROLLS = 4
HITS_TO_WIN = 3
GRADES = ((5, "major"), (4, "moderate"), (3, "minor"))  # b17.60


def damage_grade(hits: int) -> str:
    """The damage the target took for ``hits`` bomb hits (b17.60).

    >>> [damage_grade(h) for h in (2, 3, 4, 5, 9)]
    ['none', 'minor', 'moderate', 'major', 'major']
    """
    for least, grade in GRADES:
        if hits >= least:
            return grade
    return "none"


# --- the models (b17.3): 1/285 scale of the real aircraft ------------------------------------
SCALE = 285.0
METRE = 39.3701  # inches


def scaled(metres: float) -> float:
    """A real aircraft's measure in metres as inches on a 1/285 model, to 0.01"."""
    return round(metres * METRE / SCALE, 2)


B17_LENGTH = scaled(22.66)  # 3.13"
B17_SPAN = scaled(31.62)  # 4.37"
ME109_LENGTH, ME109_SPAN = scaled(8.95), scaled(9.92)
FW190_LENGTH, FW190_SPAN = scaled(9.00), scaled(10.51)
FIGHTER_TYPES = {"me109": ("Me-109", ME109_LENGTH, ME109_SPAN), "fw190": ("FW-190", FW190_LENGTH, FW190_SPAN)}

# --- options ------------------------------------------------------------------------------
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "enlarged",
        bool,
        False,
        "the enlarged game: two boxes of four bombers side by side, eight fighters",
        rule="b17.61",
    ),
    OptionSpec(
        "fighter_type",
        str,
        "me109",
        "the German models: me109, fw190, or mixed (one of each in every element)",
        choices=("me109", "fw190", "mixed"),
        rule="b17.3",
    ),
    OptionSpec(
        "head_on_tolerance",
        float,
        15.0,
        "degrees either side of the bomber's axis that count as 'directly' head-on or from behind",
        minimum=0.0,
        maximum=90.0,
        rule="b17.36",
    ),
    OptionSpec(
        "firing_arcs",
        bool,
        False,
        "each gunner fires only within 60 degrees of his gun's axis (not in the seed)",
        rule="b17.44",
    ),
    OptionSpec(
        "flak_every_turn",
        bool,
        False,
        'flak fires every turn a bomber ends within 6" of the target (B5 other reading)',
        rule="b17.53",
    ),
    OptionSpec(
        "auto_intercept",
        bool,
        False,
        "a person flying the fighters must attack the closest bomber (the automaton binds the bots anyway)",
        rule="b17.23",
    ),
    OptionSpec(
        "bomber_length",
        float,
        B17_LENGTH,
        'B-17 model length, inches (1/285: 3.13; at most 4, for a box of two lengths and 4" to fit 12")',
        minimum=0.5,
        maximum=4.0,
        rule="b17.3",
    ),
    OptionSpec(
        "bomber_span",
        float,
        B17_SPAN,
        'B-17 model wingspan, inches (1/285: 4.37; at most 9.5, for two boxes side by side to fit 48")',
        minimum=0.5,
        maximum=9.5,
        rule="b17.3",
    ),
    OptionSpec(
        "fighter_scale",
        float,
        1.0,
        "fighter models' size as a multiple of 1/285",
        minimum=0.25,
        maximum=6.0,
        rule="b17.3",
    ),
    OptionSpec(
        "turn_cap", int, 40, "turns after which the game ends unfinished", minimum=1, maximum=10000, rule="b17.9"
    ),
    OptionSpec(
        "doubled",
        str,
        "at_least",
        "RULINGS B1: 'doubled' is a score at least twice the other (at_least), or more than twice (more_than)",
        choices=("at_least", "more_than"),
        rule="b17.40",
        quiet=True,
    ),
    OptionSpec(
        "bomb_tie",
        str,
        "no_hit",
        "RULINGS B2: a tied bomb roll scores no hit, as a tie in combat does (no_hit), or 1 hit (hit: only the "
        "target's higher score is named 'no damage')",
        choices=("no_hit", "hit"),
        rule="b17.57",
        quiet=True,
    ),
    OptionSpec(
        "flak_dice",
        str,
        "bare",
        "RULINGS B3: flak is the AA's bare d6 against the bomber's bare d6 (bare), or against the bomber's d6 "
        "plus its defence 3, as in combat (bomber_defence)",
        choices=("bare", "bomber_defence"),
        rule="b17.53",
        quiet=True,
    ),
    OptionSpec(
        "fourth_engine",
        str,
        "flies_on",
        "RULINGS B4: a B-17 with all four engines damaged flies on and the next damage destroys it (flies_on), or "
        "the damage that takes its fourth engine destroys it (destroys); a fighter's one engine out never downs "
        'it (a damaged fighter flies 2" less, VI.C.1.c)',
        choices=("flies_on", "destroys"),
        rule="b17.39",
        quiet=True,
    ),
    OptionSpec(
        "flak_damage",
        str,
        "bombs",
        "RULINGS B6: a bomber the flak damages still bombs (bombs), or, reading VII.D.1.a's 'no damage and the "
        "bomb run continues', breaks off its run and drops nothing (breaks_off)",
        choices=("bombs", "breaks_off"),
        rule="b17.55",
        quiet=True,
    ),
)


# --- mechanics: defined once, for play and for odds --------------------------------------
class Outcome(str):
    """A combat outcome's name that sorts by severity (no damage < damaged < destroyed), so odds tables list
    the three outcomes in that order; otherwise a plain string (equal to it, the same JSON).

    >>> sorted([DESTROYED, NO_DAMAGE, DAMAGED])
    ['no damage', 'damaged', 'destroyed']
    """

    __slots__ = ()
    RANK: dict[str, int] = {"no damage": 0, "damaged": 1, "destroyed": 2}  # noqa: RUF012 - a class constant

    def __lt__(self, other: object) -> bool:
        return Outcome.RANK[self] < Outcome.RANK[str(other)]

    def __le__(self, other: object) -> bool:
        return Outcome.RANK[self] <= Outcome.RANK[str(other)]

    def __gt__(self, other: object) -> bool:
        return Outcome.RANK[self] > Outcome.RANK[str(other)]

    def __ge__(self, other: object) -> bool:
        return Outcome.RANK[self] >= Outcome.RANK[str(other)]

    __hash__ = str.__hash__


NO_DAMAGE, DAMAGED, DESTROYED = Outcome("no damage"), Outcome("damaged"), Outcome("destroyed")


AT_LEAST, MORE_THAN = "at_least", "more_than"  # the two readings of "doubled" (option doubled, RULINGS B1)


def opposed_outcome(attack: int, defence: int, doubled: str = AT_LEAST) -> Outcome:
    """Read two scores as the seed's three combat outcomes (b17.38-b17.40; RULINGS B1).

    ``doubled`` is the option of that name: ``at_least`` (the ruling) destroys at twice the defence or more,
    ``more_than`` only above twice it.

    >>> opposed_outcome(5, 5), opposed_outcome(7, 4), opposed_outcome(8, 4)
    ('no damage', 'damaged', 'destroyed')
    >>> opposed_outcome(8, 4, MORE_THAN), opposed_outcome(9, 4, MORE_THAN)
    ('damaged', 'destroyed')
    """
    if defence >= attack:
        return NO_DAMAGE
    if attack > 2 * defence or (attack == 2 * defence and doubled == AT_LEAST):
        return DESTROYED
    return DAMAGED


@dataclass(frozen=True)
class Opposed(Mechanic):
    """A d6 for the attacker plus ``attack`` against a d6 for the defender plus ``defence`` (b17.37).

    The outcome is ``"no damage"``, ``"damaged"`` or ``"destroyed"``. The two
    dice are rolled in one request, the attacker's first.
    """

    attack: int
    defence: int
    sides: int = 6
    doubled: str = AT_LEAST

    def read(self, values: list[int]) -> str:
        """The outcome of the attacker's and the defender's die faces."""
        return opposed_outcome(values[0] + self.attack, values[1] + self.defence, self.doubled)

    def roll(self, source: DiceSource, purpose: str) -> str:
        return self.read(source.roll(2, self.sides, purpose))

    @cached_property
    def _distribution(self) -> icepool.Die:
        return icepool.map(
            lambda a, d: opposed_outcome(a + self.attack, d + self.defence, self.doubled),
            icepool.d(self.sides),
            icepool.d(self.sides),
        )

    def distribution(self) -> icepool.Die:
        return self._distribution

    @property
    def text(self) -> str:
        twice = "more than twice" if self.doubled == MORE_THAN else "doubled"
        return f"d6+{self.attack} against d6+{self.defence}: higher or equal defence no damage, {twice} destroyed"


HITS = {NO_DAMAGE: 0, DAMAGED: 1, DESTROYED: 2}


@dataclass(frozen=True)
class BombRoll(Mechanic):
    """One bomb: the bomber's d6 against the target's d6, read as combat: 0, 1 or 2 hits (b17.57-b17.59).

    ``tie`` is the option ``bomb_tie`` (RULINGS B2): ``no_hit`` or ``hit`` (a tie scores 1); ``doubled`` the
    option of that name (RULINGS B1).

    >>> BombRoll().read([3, 3]), BombRoll(tie="hit").read([3, 3]), BombRoll(doubled=MORE_THAN).read([4, 2])
    (0, 1, 1)
    """

    sides: int = 6
    tie: str = "no_hit"
    doubled: str = AT_LEAST

    def read(self, values: list[int]) -> int:
        """Hits of the bomber's and the target's die faces."""
        if values[0] == values[1] and self.tie == "hit":
            return 1
        return HITS[opposed_outcome(values[0], values[1], self.doubled)]

    def roll(self, source: DiceSource, purpose: str) -> int:
        return self.read(source.roll(2, self.sides, purpose))

    def distribution(self) -> icepool.Die:
        return icepool.map(lambda b, t: self.read([b, t]), icepool.d(self.sides), icepool.d(self.sides))

    @property
    def text(self) -> str:
        tie = "less no hit, a tie 1 hit" if self.tie == "hit" else "tie or less no hit"
        twice = "more than twice" if self.doubled == MORE_THAN else "doubled"
        return f"bomber d6 against target d6: {tie}, more 1 hit, {twice} 2 hits"


@dataclass(frozen=True)
class BombLoad(Mechanic):
    """``bombers`` bomb loads of four rolls each; the outcome is the total hits; ``flak`` first for each
    bomber (a bomber destroyed by flak drops nothing; RULINGS B5-B7)."""

    bombers: int = 1
    flak: bool = False
    bomb: BombRoll = BombRoll()
    flak_roll: Opposed = Opposed(0, 0)
    breaks_off: bool = False  # the option flak_damage = breaks_off: a damaged bomber drops nothing either (B6)

    def _drops(self, outcome: Any) -> bool:
        return bool(outcome == NO_DAMAGE if self.breaks_off else outcome != DESTROYED)

    def roll(self, source: DiceSource, purpose: str) -> int:
        total = 0
        for k in range(self.bombers):
            if self.flak and not self._drops(self.flak_roll.roll(source, f"{purpose}: flak on bomber {k + 1}")):
                continue
            total += sum(self.bomb.roll(source, f"{purpose}: bomb {i + 1}") for i in range(BOMB_ROLLS))
        return total

    @cached_property
    def _distribution(self) -> icepool.Die:
        load = BOMB_ROLLS @ self.bomb.distribution()
        if self.flak:
            survives = self.flak_roll.distribution().map(self._drops)
            load = survives.if_else(load, icepool.Die([0]))
        return self.bombers @ load

    def distribution(self) -> icepool.Die:
        return self._distribution

    @property
    def text(self) -> str:
        flak = "flak first, then " if self.flak else ""
        return f"{counted(self.bombers, 'bomber')}: {flak}4 bomb rolls each, hits summed"


@dataclass(frozen=True)
class AtLeast(Mechanic):
    """True when ``mechanic``'s (numeric) outcome is ``least`` or more."""

    mechanic: Mechanic
    least: int

    def roll(self, source: DiceSource, purpose: str) -> bool:
        return bool(self.mechanic.roll(source, purpose) >= self.least)

    def distribution(self) -> icepool.Die:
        return self.mechanic.distribution() >= self.least

    @property
    def text(self) -> str:
        return f"{self.mechanic.text}; {self.least} or more"


def attack_mechanic(head_on: bool, options: Mapping[str, Any] | None = None) -> Opposed:
    """A fighter's attack on a B-17: 3 (+1 head-on or from behind) against 3 (b17.32-b17.36), ``options``
    (the game's) choosing the reading of "doubled" (RULINGS B1)."""
    return mechanics(options).attack_bonus if head_on else mechanics(options).attack


@dataclass(frozen=True)
class Mechanics:
    """The combat mechanics a game's options make (RULINGS B1-B3 as options): play and odds take them here."""

    attack: Opposed
    attack_bonus: Opposed
    gunner: Opposed
    flak: Opposed
    bomb: BombRoll
    breaks_off: bool = False  # flak_damage = breaks_off (RULINGS B6 read the other way)
    crippled_at: int = BOMBER_ENGINES  # engines out from which a B-17's next damage destroys it (B4; option)

    def load(self, bombers: int, flak: bool = False) -> BombLoad:
        """``bombers`` bomb loads under these readings (flak first with ``flak``)."""
        return BombLoad(bombers, flak, self.bomb, self.flak, self.breaks_off)


def mechanics(options: Mapping[str, Any] | None = None) -> Mechanics:
    """The mechanics of ``options`` (a game's resolved options; missing readings are the RULINGS ones).

    >>> mechanics().flak == FLAK, mechanics({"flak_dice": "bomber_defence"}).flak.defence
    (True, 3)
    """
    given = options or {}
    return _mechanics(
        str(given.get("doubled", AT_LEAST)),
        str(given.get("bomb_tie", "no_hit")),
        str(given.get("flak_dice", "bare")),
        given.get("flak_damage", "bombs") == "breaks_off",
        crippled_at(given),
    )


def crippled_at(options: Mapping[str, Any] | None) -> int:
    """Engines out from which a B-17's next damage destroys it: all four (RULINGS B4), or three with the option
    ``fourth_engine = destroys`` (the damage that takes the fourth destroys it).

    >>> crippled_at({}), crippled_at({"fourth_engine": "destroys"})
    (4, 3)
    """
    return BOMBER_ENGINES - 1 if (options or {}).get("fourth_engine", "flies_on") == "destroys" else BOMBER_ENGINES


@functools.cache
def _mechanics(
    doubled: str, bomb_tie: str, flak_dice: str, breaks_off: bool = False, crippled: int = BOMBER_ENGINES
) -> Mechanics:
    flak_defence = BOMBER_DEFENCE if flak_dice == "bomber_defence" else 0
    return Mechanics(
        attack=Opposed(FIGHTER_OFFENCE, BOMBER_DEFENCE, doubled=doubled),
        attack_bonus=Opposed(FIGHTER_OFFENCE + HEAD_ON_BONUS, BOMBER_DEFENCE, doubled=doubled),
        gunner=Opposed(BOMBER_OFFENCE, FIGHTER_DEFENCE, doubled=doubled),
        flak=Opposed(0, flak_defence, doubled=doubled),
        bomb=BombRoll(tie=bomb_tie, doubled=doubled),
        breaks_off=breaks_off,
        crippled_at=crippled,
    )


FIGHTER_ATTACK = Opposed(FIGHTER_OFFENCE, BOMBER_DEFENCE)
FIGHTER_ATTACK_BONUS = Opposed(FIGHTER_OFFENCE + HEAD_ON_BONUS, BOMBER_DEFENCE)
GUNNER_FIRE = Opposed(BOMBER_OFFENCE, FIGHTER_DEFENCE)  # b17.42
FLAK = Opposed(0, 0)  # RULINGS B3: the AA's bare d6 attacks the bomber's bare d6
BOMB_ROLL = BombRoll()
ENTRY_ROLL = TableRoll((False, True, False, True, False, True))  # b17.16: an even d6 enters
ALTITUDE_ROLL = TableRoll(("below", "below", "level", "level", "above", "above"))  # b17.20
ALTITUDE_BONUS = {"below": -ALTITUDE_CHANGE, "level": 0.0, "above": ALTITUDE_CHANGE}


@dataclass(frozen=True)
class ClockRoll(Mechanic):
    """2d6 summed, read as the hour of a clock face (2 to 12; RULINGS B10)."""

    def roll(self, source: DiceSource, purpose: str) -> int:
        return sum(source.roll(2, 6, purpose))

    def distribution(self) -> icepool.Die:
        return 2 @ icepool.d6

    @property
    def text(self) -> str:
        return "2d6 summed: the hour on the clock face"


CLOCK_ROLL = ClockRoll()
