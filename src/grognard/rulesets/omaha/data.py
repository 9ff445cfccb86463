"""The Omaha Beach rule set's facts as data: board measures, options, mechanics.

Every number here comes from the seed (``000_4fc63ac4eb89fd14.txt``) or from a
ruling in RULINGS.md (O1-O20); the rule ID says which.
"""

from __future__ import annotations

from functools import cache

from grognard.core.dice import AnySuccess, DieRoll, SuccessCount, SumAtLeast, TableRoll
from grognard.core.options import OptionSpec

SIDES = ("american", "german")

# --- the board (omaha.3-omaha.6), inches ------------------------------------------------
ZONE_WIDTH = 8.0  # landing zone sections (omaha.6)
BEACH_DEPTH = 24.0  # water line to sea wall: "two feet of beach" (omaha.5)
WALL_Y = BEACH_DEPTH  # the sea wall line
BAND_DEPTH = 4.0  # the obstacle band (omaha.5)
BAND_END_Y = WALL_Y + BAND_DEPTH
OBSTACLE_SECTION_WIDTH = 6.0  # (omaha.8)
BUNKER_SECTION_WIDTH = 8.0  # (omaha.9)
BUNKER_FRONT_Y = BAND_END_Y + 1.0  # RULINGS O3b: front 1" behind the band
BUNKER_WIDTH = 3.0  # a footprint for contact; the seed gives no size (omaha.18 reading)
BUNKER_DEPTH = 2.0
CONTACT = 1.0  # RULINGS O3b: in contact within 1"
AMERICANS_PER_GERMAN = 3  # (omaha.4)
SQUAD_SIZE = 12  # (omaha.4)
BUNKERS_PER_GERMAN = 2  # (omaha.4)
DEFENDERS = 4  # (omaha.4)
SECTIONS_PER_GERMAN = 3  # (omaha.9)
BEACH_MOVE = 6.0  # (omaha.14)
WATER_COST = 2.0  # RULINGS O7: an inch of water costs two of the 6" allowance
MORALE_TARGET = 12  # (omaha.25)

# --- options (scenario options; `grognard play omaha --help` lists them) -----------------
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "germans",
        int,
        6,
        "German players; 3 American players each (the seed's beach has 6)",
        minimum=1,
        maximum=12,
        rule="omaha.29",
    ),
    OptionSpec(
        "water",
        float,
        6.0,
        "inches of water seaward of the water line (table size; landings are 1-6 out)",
        minimum=6.0,
        maximum=24.0,
        rule="omaha.5",
    ),
    OptionSpec(
        "ground",
        float,
        4.0,
        "inches of bunker ground behind the obstacle band (table size)",
        minimum=4.0,
        maximum=24.0,
        rule="omaha.5",
    ),
    OptionSpec(
        "deep_water", bool, False, "optional rule: a landing roll of 6 drops the squad in deep water", rule="omaha.12"
    ),
    OptionSpec(
        "drowned_morale",
        bool,
        True,
        "RULINGS O6: men drowned in deep water count as figures lost this turn for the morale check (off: they "
        "do not, only the Germans' fire does)",
        rule="omaha.12",
        quiet=True,
    ),
    OptionSpec(
        "shoot_from",
        str,
        "wall_or_beyond",
        "RULINGS O9: figures may shoot at the bunker in front from the sea wall or beyond it (wall_or_beyond), "
        "or only from the wall itself, past it they assault (wall)",
        choices=("wall_or_beyond", "wall"),
        rule="omaha.17",
        quiet=True,
    ),
    OptionSpec(
        "bunker_targets",
        str,
        "anywhere",
        "RULINGS O10: a bunker may fire at any squad (anywhere), or, reading 'may NOT target squads that have "
        "moved past the Sea Wall' as binding every German weapon, not at a squad past the wall (not_past_wall)",
        choices=("anywhere", "not_past_wall"),
        rule="omaha.19",
        quiet=True,
    ),
    OptionSpec(
        "artillery_needs_bunker",
        bool,
        False,
        "RULINGS O11 read the other way: a German player calls artillery only while one of his own bunkers is "
        "in action (off, the ruling: every German player calls a strike, his bunkers gone or not)",
        rule="omaha.22",
        quiet=True,
    ),
    OptionSpec(
        "hidden_obstacles",
        bool,
        False,
        "optional rule 3: obstacles are rolled when a squad first reaches the wall in front",
        rule="omaha.32",
    ),
    OptionSpec(
        "fresh_squads",
        int,
        None,
        "optional rule 5: fresh squads each American player may land",
        minimum=0,
        maximum=1000,
        none_word="unlimited",
        rule="omaha.33",
    ),
    OptionSpec(
        "out_joins_germans",
        bool,
        False,
        "optional rule 5: an American out of squads takes over a German bunker",
        rule="omaha.33",
    ),
    OptionSpec("markers", bool, True, "optional rules 1-2: crater and casualty markers on the beach", rule="omaha.30"),
    OptionSpec(
        "victory",
        str,
        "exits",
        "exits: open every exit; bunkers_only: knock out every bunker",
        choices=("exits", "bunkers_only"),
        rule="omaha.3",
    ),
    OptionSpec(
        "turn_cap", int, 100, "turns after which the game ends unfinished", minimum=1, maximum=10000, rule="omaha.34"
    ),
    OptionSpec(
        "period_turns",
        int,
        None,
        "a class period: end after this many turns and score the game",
        minimum=1,
        maximum=10000,
        none_word="none",
        rule="omaha.34",
    ),
)

# --- mechanics: defined once, for play and for odds --------------------------------------
OBSTACLE_ROLL = TableRoll((0, 1, 1, 1, 1, 2))  # omaha.8: 1 none, 2-5 one, 6 two
LANDING_ROLL = DieRoll(6)  # omaha.11: inches seaward of the water line (RULINGS O4)
DEEP_WATER_FACE = 6  # omaha.12, RULINGS O5
DROWN_TARGET = 6  # omaha.12: each man drowns on a 6
CLEAR_TARGET = 6  # omaha.16
SHOOT_TARGET = 6  # omaha.17
ASSAULT_TARGET = 6  # omaha.18
BUNKER_FIRE_TARGET = 5  # omaha.19
BUNKER_DICE = 4  # omaha.19
BUNKER_DICE_LAST_MAN = 2  # omaha.20, RULINGS O1
ARTILLERY_LANDS = SuccessCount(dice=1, target=5)  # omaha.24: 5-6 lands
ARTILLERY_KILLS = SuccessCount(dice=4, target=4)  # omaha.24: 4d6, each 4-6 kills


def bunker_fire(defenders: int) -> SuccessCount:
    """A bunker's fire with ``defenders`` left: 4d6 (2d6 with one man), each 5-6 kills (omaha.19, omaha.20, O1)."""
    return _success_count(BUNKER_DICE_LAST_MAN if defenders == 1 else BUNKER_DICE, BUNKER_FIRE_TARGET)


@cache
def _success_count(dice: int, target: int) -> SuccessCount:
    """``SuccessCount(dice, target)``, one value for equal numbers (a mechanic is frozen): the Germans fire, the
    squads shoot and clear every turn. Keyed by the numbers themselves, read at each roll, so a mechanic changed in
    this module is followed."""
    return SuccessCount(dice=dice, target=target)


def shooting(figures: int) -> SuccessCount:
    """American shooting: a d6 per figure, each 6 kills a defender (omaha.17)."""
    return _success_count(figures, SHOOT_TARGET)


def clearing(figures: int) -> SuccessCount:
    """Clearing obstacles: a d6 per figure, each 6 clears one (omaha.16)."""
    return _success_count(figures, CLEAR_TARGET)


def assault(figures: int) -> AnySuccess:
    """Assault: a d6 per figure, any 6 destroys the bunker (omaha.18)."""
    return _any_success(figures, ASSAULT_TARGET)


def deep_water(figures: int) -> SuccessCount:
    """Deep water: a d6 per man, each 6 drowns one (omaha.12)."""
    return _success_count(figures, DROWN_TARGET)


def morale(lost: int) -> SumAtLeast:
    """Morale check: a d6 per figure lost this turn; a total of 12 or more fails (omaha.25)."""
    return _sum_at_least(lost, MORALE_TARGET)


@cache
def _any_success(dice: int, target: int) -> AnySuccess:
    """``AnySuccess(dice, target)``, one value for equal numbers (as :func:`_success_count`)."""
    return AnySuccess(dice=dice, target=target)


@cache
def _sum_at_least(dice: int, target: int) -> SumAtLeast:
    """``SumAtLeast(dice, target)``, one value for equal numbers (as :func:`_success_count`): every turn's morale."""
    return SumAtLeast(dice=dice, target=target)
