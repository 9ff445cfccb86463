"""What skirmish declares to the analysis code: its dice mechanics (exact odds) and its metrics.

The odds come from the same mechanic objects play rolls (``rules.Shots``,
``rules.Survival``), read with the shipped tables (a scenario with its own
tables plays its own numbers; the reference sheet shows ours).
"""

from __future__ import annotations

from typing import Any

from grognard.analysis.odds import OddsTable
from grognard.core.ruleset import Metric
from grognard.rulesets.skirmish.rules import INITIATIVE, ShotFate, Shots, Survival
from grognard.rulesets.skirmish.tables import FIRES_IN_PART_1, WEDGE_ATTACKS, Tables, load_tables

SQUAD = 8  # men in the shipped scenario's rifle squads: the "k men fire" table runs to it


def band_label(tables: Tables, weapon: str, index: int) -> str:
    bands = tables.weapons[weapon].bands
    low = 0.0 if index == 0 else bands[index - 1].to
    return f'{low:g}-{bands[index].to:g}"'


def odds_tables(tables: Tables | None = None) -> list[OddsTable]:
    """Every mechanic played: initiative, one man's shot by weapon, band and cover, a wedge's effect on one man
    under it (MG, flame thrower), k men's hits, survival."""
    tables = tables or load_tables()
    out = [
        OddsTable(
            "initiative",
            "Initiative: a d6 each, the higher moves first (ties roll again)",
            "skirmish.10",
            ((None, INITIATIVE),),
        ),
        OddsTable(
            "survival",
            "Survival after a small-arms or MG hit (5-6: a flesh wound)",
            "skirmish.6",
            ((None, Survival(tables.survive_on("small_arms"))),),
        ),
    ]
    for weapon, spec in tables.weapons.items():
        if spec.kind in WEDGE_ATTACKS:
            out.append(wedge_odds(tables, weapon))
            continue
        if spec.kind not in FIRES_IN_PART_1:
            continue
        rows: list[tuple[Any, Any]] = []
        for index, band in enumerate(spec.bands):
            for covered in (False, True):
                label = f"{band_label(tables, weapon, index)} {'cover' if covered else 'open'}"
                rows.append((label, ShotFate(band.hit_on, -1 if covered else 0, tables.survive_on(spec.kind))))
        out.append(
            OddsTable(
                f"shot_{weapon}",
                f"One {weapon} shot at a man not yet hit this turn, by range band and cover",
                "skirmish.8",
                tuple(rows),
                "range, cover",
                f"{spec.source}: {spec.reason}",
            )
        )
    first = tables.weapons["rifle"].bands[0]
    out.append(
        OddsTable(
            "rifles_close",
            f"Hits from k rifles at {band_label(tables, 'rifle', 0)}, open ground (each {first.hit_on}+)",
            "skirmish.4",
            tuple((k, Shots(k, first.hit_on)) for k in range(1, SQUAD + 1)),
            "men firing",
            "two hits on one man kill him outright (skirmish.7)",
        )
    )
    return out


def wedge_odds(tables: Tables, weapon: str) -> OddsTable:
    """What a MG's or flame thrower's wedge does to one man under it (not yet hit this turn), by band and cover.

    Every man under the wedge gets one die (skirmish.16); cover takes one off
    where the cover table covers against the weapon's attack, and nothing covers
    against a flame thrower, so its rows are "no cover" only.
    """
    spec = tables.weapons[weapon]
    coverable = bool(tables.cover_rows(spec.kind))
    survive = tables.survive_on(spec.kind)
    rows: list[tuple[Any, Any]] = []
    for index, band in enumerate(spec.bands):
        band_text = band_label(tables, weapon, index)
        if not coverable:
            rows.append((f"{band_text} no cover", ShotFate(band.hit_on, 0, survive)))
            continue
        for covered in (False, True):
            rows.append(
                (f"{band_text} {'cover' if covered else 'open'}", ShotFate(band.hit_on, -1 if covered else 0, survive))
            )
    angle = tables.wedge.angle.value
    return OddsTable(
        f"wedge_{weapon}",
        f"A {weapon.replace('_', ' ')} wedge ({angle:g} degrees) on one man under it, by range band and cover",
        "skirmish.16",
        tuple(rows),
        "range, cover",
        f"{spec.source}: {spec.reason}",
    )


METRICS: tuple[Metric, ...] = (
    Metric("first_blood", "turn of the first man killed", "turn"),
    Metric("allies_lost", "allied men lost"),
    Metric("axis_lost", "axis men lost"),
    Metric("allies_wounded", "allied flesh wounds"),
    Metric("axis_wounded", "axis flesh wounds"),
)


def measure(game: Any) -> dict[str, int | None]:
    """The metrics of a finished skirmish game."""
    stats = game.state.stats
    return {
        "first_blood": stats["first_blood"],
        "allies_lost": stats["losses"]["allies"],
        "axis_lost": stats["losses"]["axis"],
        "allies_wounded": stats["wounds"]["allies"],
        "axis_wounded": stats["wounds"]["axis"],
    }
