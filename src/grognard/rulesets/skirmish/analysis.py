"""What skirmish declares to the analysis code: its dice mechanics (exact odds) and its metrics.

The odds come from the same mechanic objects play rolls (``rules.Shots``,
``rules.Survival``), read with the shipped tables (a scenario with its own
tables plays its own numbers; the reference sheet shows ours).
"""

from __future__ import annotations

from typing import Any

from grognard.analysis.odds import OddsTable
from grognard.core.ruleset import Metric
from grognard.rulesets.skirmish.rules import INITIATIVE, BurstFate, RangingShot, ShotFate, Shots, Survival
from grognard.rulesets.skirmish.tables import FIRES_IN_PART_1, Tables, load_tables

SQUAD = 8  # men in the shipped scenario's rifle squads: the "k men fire" table runs to it


def band_label(tables: Tables, weapon: str, index: int) -> str:
    bands = tables.weapons[weapon].bands
    low = 0.0 if index == 0 else bands[index - 1].to
    return f'{low:g}-{bands[index].to:g}"'


def odds_tables(tables: Tables | None = None) -> list[OddsTable]:
    """Every mechanic of part 1: initiative, one man's shot by weapon, band and cover, k men's hits, survival."""
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
    out += burst_tables(tables)
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


def burst_label(tables: Tables, weapon: str, index: int) -> str:
    bands = tables.artillery[weapon].bands
    low = 0.0 if index == 0 else bands[index - 1].to
    return f'{low:g}-{bands[index].to:g}"'


def burst_tables(tables: Tables) -> list[OddsTable]:
    """For each burst weapon: its ranging shot by range band (skirmish.13), and the fate of one man under
    its template when it is fired, by band and cover (ranging, effect die, survival on 6: skirmish.14, 6)."""
    out: list[OddsTable] = []
    for weapon, entry in tables.artillery.items():
        name = weapon.replace("_", " ")
        out.append(
            OddsTable(
                f"ranging_{weapon}",
                f"The {name}'s ranging shot by range band: the shell lands (True) or the template comes away",
                "skirmish.13",
                tuple((burst_label(tables, weapon, i), RangingShot(b.ranging)) for i, b in enumerate(entry.bands)),
                "range",
                f"{entry.source}: {entry.reason}",
            )
        )
        survive = tables.survive_on(entry.kind)
        rows: list[tuple[Any, Any]] = []
        for i, band in enumerate(entry.bands):
            for covered in (False, True):
                label = f"{burst_label(tables, weapon, i)} {'cover' if covered else 'open'}"
                rows.append((label, BurstFate(band.ranging, band.hit_on, -1 if covered else 0, survive)))
        out.append(
            OddsTable(
                f"under_{weapon}",
                f"One man under the {name}'s template when it is fired (not yet hit this turn), by band and cover",
                "skirmish.14",
                tuple(rows),
                "range, cover",
                f"survival after a {entry.kind} hit only on {survive}+ (RULINGS S3)",
            )
        )
    return out


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
