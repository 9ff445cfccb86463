"""Omaha's composite odds: the questions a designer asks, exact, from the mechanics play rolls.

Each is a mechanic (``analysis.chains``) built from the objects in :mod:`~grognard.rulesets.omaha.data`,
printed by ``grognard odds omaha`` after the single mechanics, and tested against play in
``tests/test_odds_composites.py``:

- ``deep_water_landing``: a landing's drownings with deep water, unconditional (the landing die,
  then on a 6 a d6 per man; omaha.11-12, RULINGS O4-O5), and ``deep_water_morale``: what the squad
  then does at the morale check if nothing else hits it that turn (drowned men count, O6, unless the
  option ``drowned_morale`` is off; a squad wholly drowned needs no roll, O13);
- ``beach_obstacles``: the obstacle total over the whole beach's sections, by German players
  (4 sections of 6" each; omaha.8), with P(total or less);
- ``shots_to_empty``: for k figures shooting every turn at a full bunker (4), the turns of shooting
  until it is empty (kills beyond the defenders wasted, O2); ``assaults_to_take``: the attempts of k
  figures until an assault destroys it (omaha.18). The squad's k stays k (no losses counted);
- ``fire_then_morale``: a full bunker's fire at a full squad, then the squad's morale check with
  the figures it lost (omaha.19, omaha.25).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.analysis.chains import Rounds, Summed, Then
from grognard.analysis.odds import OddsTable
from grognard.core.dice import Capped, Mechanic
from grognard.rulesets.omaha.data import (
    AMERICANS_PER_GERMAN,
    DEEP_WATER_FACE,
    DEFENDERS,
    LANDING_ROLL,
    OBSTACLE_ROLL,
    OBSTACLE_SECTION_WIDTH,
    SQUAD_SIZE,
    ZONE_WIDTH,
    assault,
    bunker_fire,
    deep_water,
    morale,
    shooting,
)

FIGURES = range(1, SQUAD_SIZE + 1)
ROUNDS_SHOWN = 12  # counts of turns are cut here: "12+" is twelve or more


def sections(germans: int) -> int:
    """Obstacle sections on a beach for ``germans`` German players (omaha.4, omaha.8): 4 each."""
    return round(germans * AMERICANS_PER_GERMAN * ZONE_WIDTH / OBSTACLE_SECTION_WIDTH)


def landing_drownings() -> Then:
    """Men drowned at one landing with deep water: the landing die, then on a 6 a d6 per man (each 6)."""
    return Then(
        LANDING_ROLL,
        lambda inches: deep_water(SQUAD_SIZE) if inches == DEEP_WATER_FACE else None,
        lambda inches: 0,
        "the landing d6; on a 6, 12d6, each 6 drowns a man",
    )


def _after_drowning(drowned: int) -> Mechanic | None:
    return morale(drowned) if 0 < drowned < SQUAD_SIZE else None


def _no_check(drowned: int) -> Mechanic | None:
    return None


def landing_morale(drowned_morale: bool = True) -> Then:
    """The morale check after a deep-water landing, nothing else lost that turn: ``True`` sends the squad back
    (wholly drowned: wiped out, which relands it too, O13); no one drowned: no check (``False``). With
    ``drowned_morale`` off (the option, RULINGS O6 read the other way) the drowned shake no one: no check."""
    return Then(
        landing_drownings(),
        _after_drowning if drowned_morale else _no_check,
        lambda drowned: drowned == SQUAD_SIZE,
        "a landing with deep water, then a d6 per man drowned (12 or more sends the squad back)"
        if drowned_morale
        else "a landing with deep water; the drowned do not count at morale, a squad wholly drowned relands",
    )


def fire_then_morale(defenders: int = DEFENDERS, figures: int = SQUAD_SIZE) -> Then:
    """A bunker's fire at a squad, then its morale check with the figures lost (none lost: no check).
    The outcome is ``True`` when the squad goes back (failed, or wiped out)."""
    fire = Capped(bunker_fire(defenders), figures)
    return Then(
        fire,
        lambda lost: morale(lost) if 0 < lost < figures else None,
        lambda lost: lost == figures,
        f"{fire.text}; then a d6 per figure lost, 12 or more sends the squad back",
    )


def shots_to_empty(figures: int, defenders: int = DEFENDERS) -> Rounds:
    """Turns of ``figures`` shooting until a bunker of ``defenders`` is empty (kills beyond them wasted)."""
    return Rounds(
        defenders,
        lambda left: Capped(shooting(figures), left),
        lambda left, killed: left - killed,
        limit=ROUNDS_SHOWN,
        label=f"{figures}d6 a turn, each 6 kills a defender, until none is left",
    )


def assaults_to_take(figures: int) -> Rounds:
    """Assault attempts of ``figures`` until one destroys the bunker (any 6)."""
    return Rounds(
        1,
        lambda standing: assault(figures),
        lambda standing, destroyed: 0 if destroyed else standing,
        limit=ROUNDS_SHOWN,
        label=f"{figures}d6 an attempt, any 6 destroys the bunker",
    )


def composite_tables(options: Mapping[str, Any] | None = None) -> list[OddsTable]:
    """The composite tables ``grognard odds omaha`` prints after the single mechanics, as ``options`` (a game's)
    read them: ``drowned_morale`` (RULINGS O6) changes ``deep_water_morale``."""
    drowned_morale = bool((options or {}).get("drowned_morale", True))
    return [
        OddsTable(
            "deep_water_landing",
            "Deep water: men drowned at one landing (landing die 6, then each man drowns on a 6)",
            "omaha.12",
            ((None, landing_drownings()),),
            None,
            "unconditional: most landings drown no one; with the option deep_water",
        ),
        OddsTable(
            "deep_water_morale",
            "Deep water: the squad goes back at the morale check (True) after one landing",
            "omaha.25",
            ((None, landing_morale(drowned_morale)),),
            None,
            "nothing else lost that turn; a squad wholly drowned is wiped out and relands too (O13)"
            + ("" if drowned_morale else "; option drowned_morale off: the drowned do not count at morale (not O6)"),
        ),
        OddsTable(
            "beach_obstacles",
            "Obstacles on the whole beach (a d6 per section, 4 sections per German player)",
            "omaha.8",
            tuple((f"{g} ({sections(g)} sections)", Summed(OBSTACLE_ROLL, sections(g))) for g in (1, 2, 6)),
            "German players",
            "the seed's beach has 6 German players; at_most (--json) is P(total or less)",
            cumulative=True,
        ),
        OddsTable(
            "shots_to_empty",
            f"Turns of shooting by k figures to empty a full bunker ({DEFENDERS} defenders)",
            "omaha.17",
            tuple((k, shots_to_empty(k)) for k in FIGURES),
            "figures shooting",
            f"k shoot every turn, none lost; {ROUNDS_SHOWN}+ is {ROUNDS_SHOWN} turns or more; the mean is exact",
        ),
        OddsTable(
            "assaults_to_take",
            "Assault attempts by k figures until the bunker is destroyed",
            "omaha.18",
            tuple((k, assaults_to_take(k)) for k in FIGURES),
            "figures assaulting",
            f"k assault every turn, none lost; {ROUNDS_SHOWN}+ is {ROUNDS_SHOWN} attempts or more; the mean is exact",
        ),
        OddsTable(
            "fire_then_morale",
            "A full bunker fires at a full squad, then its morale check: the squad goes back (True)",
            "omaha.25",
            ((None, fire_then_morale()),),
            None,
            "4d6 each 5-6 kills, then a d6 per figure lost, 12 or more fails",
        ),
    ]
