"""The B-17 raid's composite odds, exact, from the mechanics play rolls (:mod:`~grognard.rulesets.b17.data`).

Printed by ``grognard odds b17`` after the single mechanics and tested against play in
``tests/test_odds_in_play_b17.py``:

- ``bomb_load`` (in ``analysis``): one bomber's four bomb rolls, and n bombers' hits summed (n = 1-4, 8);
  ``bomb_load_flak``: the same when each bomber meets the flak on the way in (one destroyed drops nothing,
  one damaged still bombs: RULINGS B5-B7), with P(hits or less) in the JSON;
- ``target_destroyed`` / ``raid_wins``: P(3 hits or more: the target destroyed, the Americans' win, b17.60)
  without and with the flak;
- ``attacks_to_down``: fighter attacks until a B-17 is down, plain and head-on/from behind: each
  "damaged" takes an engine, the next "damaged" with all four out destroys it (RULINGS B4; with the option
  ``fourth_engine = destroys`` the damage that takes the fourth does); the bomber's
  return fire is not counted (the fighter always comes back).
"""

from __future__ import annotations

from typing import Any

from grognard.analysis.chains import Mapped, Rounds
from grognard.analysis.odds import OddsTable
from grognard.rulesets.b17.data import (
    BOMBER_ENGINES,
    DAMAGED,
    DESTROYED,
    HITS_TO_WIN,
    AtLeast,
    Mechanics,
    Opposed,
    mechanics,
)

BOMBERS = (1, 2, 3, 4, 8)  # a box of four, and the enlarged game's two boxes (b17.61)
DOWN = "down"
ATTACKS_SHOWN = 12


def crippled(mechanic: Opposed) -> Mapped:
    """``mechanic`` at a plane whose every engine is already damaged: "damaged" destroys it (RULINGS B4)."""
    return Mapped(mechanic, ((DAMAGED, DESTROYED),), f"{mechanic.text}; every engine already out")


def _after_attack(damage: Any, outcome: Any, crippled_at: int = BOMBER_ENGINES) -> Any:
    if outcome == DESTROYED or (outcome == DAMAGED and damage == crippled_at):
        return DOWN
    return damage + 1 if outcome == DAMAGED else damage


def attacks_to_down(mechanic: Opposed, crippled_at: int = BOMBER_ENGINES) -> Rounds:
    """Attacks of ``mechanic`` until a fresh B-17 (4 engines) is destroyed: a damage with ``crippled_at`` engines
    already out destroys it (4, RULINGS B4; 3 with the option ``fourth_engine = destroys``)."""
    return Rounds(
        0,
        lambda damage: mechanic,
        lambda damage, outcome: _after_attack(damage, outcome, crippled_at),
        lambda damage: damage == DOWN,
        limit=ATTACKS_SHOWN,
        label=f"{mechanic.text}, again and again until the bomber is down",
    )


def composite_tables(m: Mechanics | None = None) -> list[OddsTable]:
    """The composites, with the mechanics ``m`` of a game's options (RULINGS B1-B3; default: the rulings)."""
    m = m or mechanics()
    return [
        OddsTable(
            "bomb_load_flak",
            "Hits of n bombers' loads when each meets the flak first",
            "b17.53",
            tuple((k, m.load(k, flak=True)) for k in BOMBERS),
            "bombers",
            "one destroyed by flak drops nothing; "
            + (
                "nor does a damaged one (option flak_damage = breaks_off, not RULINGS B6)"
                if m.breaks_off
                else "a damaged one still bombs (RULINGS B5-B7)"
            ),
            cumulative=True,
        ),
        OddsTable(
            "target_destroyed",
            f"n bombers' loads score {HITS_TO_WIN} hits or more (the target destroyed), no flak on the way in",
            "b17.60",
            tuple((k, AtLeast(m.load(k), HITS_TO_WIN)) for k in BOMBERS),
            "bombers",
            "flak already met on an earlier turn (it fires once at each bomber, RULINGS B5); with flak: raid_wins",
        ),
        OddsTable(
            "attacks_to_down",
            "Fighter attacks until a B-17 is shot down",
            "b17.39",
            (
                ("plain", attacks_to_down(m.attack, m.crippled_at)),
                ("head-on/behind", attacks_to_down(m.attack_bonus, m.crippled_at)),
            ),
            "approach",
            (
                "four engines: the fifth damage destroys it (RULINGS B4)"
                if m.crippled_at == BOMBER_ENGINES
                else "four engines: the fourth damage destroys it (option fourth_engine = destroys, not RULINGS B4)"
            )
            + "; its return fire not counted; "
            f"{ATTACKS_SHOWN}+ is {ATTACKS_SHOWN} attacks or more; the mean is exact",
        ),
    ]
