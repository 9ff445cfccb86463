"""Skirmish composite odds, exact, from the mechanics play rolls (:mod:`~grognard.rulesets.skirmish.mechanics`,
:mod:`~grognard.rulesets.skirmish.structures`), printed by ``grognard odds skirmish`` after the single
mechanics and tested against play in ``tests/test_odds_in_play_skirmish.py``:

- ``shots_to_kill``: for each small-arms weapon and range band, the turns one man firing once a turn takes to
  kill a man in cover (each turn: the hit die one less, skirmish.32; a hit allows survival, skirmish.6; a
  flesh wound carries no lasting effect, RULINGS S5, so the turns are alike);
- the points a shell takes from a structure with what is left (``structure_damage`` in ``analysis``: points
  never go below 0, RULINGS S7) and the shells to bring bridges, storeys and towers down (``bridge_*``,
  ``storey``, ``tower``: ``structures.ShotsUntil``).

The hits and kills of each weapon and band against cover are the ``shot_*`` and ``wedge_*`` tables (every
kind of cover that covers against a weapon takes the same one from the die; their notes name the kinds).
"""

from __future__ import annotations

from typing import Any

from grognard.analysis.chains import Rounds
from grognard.analysis.odds import OddsTable
from grognard.rulesets.skirmish.mechanics import ShotFate
from grognard.rulesets.skirmish.tables import FIRES_IN_PART_1, WEDGE_ATTACKS, Tables

TURNS_SHOWN = 12


def shots_to_kill(hit_on: int, survive_on: int, shift: int = -1) -> Rounds:
    """Turns of one shot a turn until a man (in cover: ``shift`` -1) is dead."""
    return Rounds(
        1,
        lambda alive: ShotFate(hit_on, shift, survive_on),
        lambda alive, fate: 0 if fate == "dead" else alive,
        limit=TURNS_SHOWN,
        label=f"one shot a turn, hit on {hit_on}+ ({shift:+d}), survive on {survive_on}+, until dead",
    )


def band_label(tables: Tables, weapon: str, index: int) -> str:
    """A range band's label, its inches from and to (``0-12"``)."""
    bands = tables.weapons[weapon].bands
    low = 0.0 if index == 0 else bands[index - 1].to
    return f'{low:g}-{bands[index].to:g}"'


def cover_kinds(tables: Tables, attack: str) -> str:
    """The kinds of cover that cover against ``attack`` (the tables' cover lookup), for a table's note."""
    kinds = sorted({row.terrain for row in tables.cover_rows(attack)})
    return ", ".join(kinds) if kinds else "none"


def composite_tables(tables: Tables) -> list[OddsTable]:
    rows: list[tuple[Any, Any]] = []
    for weapon, spec in tables.weapons.items():
        if spec.kind not in FIRES_IN_PART_1 or spec.kind in WEDGE_ATTACKS:
            continue
        survive = tables.survive_on(spec.kind)
        for index, band in enumerate(spec.bands):
            if band.hit_on + 1 > 6:  # in cover a hit on 6 alone cannot hit (RULINGS S4): never
                continue
            rows.append((f"{weapon} {band_label(tables, weapon, index)}", shots_to_kill(band.hit_on, survive)))
    return [
        OddsTable(
            "shots_to_kill",
            "Turns of one man's shot a turn to kill a man in cover, by weapon and range band",
            "skirmish.32",
            tuple(rows),
            "weapon, range",
            f"a flesh wound carries no lasting effect (RULINGS S5); {TURNS_SHOWN}+ is {TURNS_SHOWN} turns or more; "
            "the mean is exact; a band that hits on 6 alone never hits a man in cover (RULINGS S4)",
        )
    ]
