"""What skirmish declares to the analysis code: its dice mechanics (exact odds) and its metrics.

The odds come from the same mechanic objects play rolls (``rules.Shots``,
``rules.Survival``), read with the tables of the scenario the options name (the shipped
tables for every shipped scenario; a scenario with its own tables plays, and
so shows, its own numbers).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.analysis.odds import OddsTable
from grognard.core.dice import Capped
from grognard.core.ruleset import Metric
from grognard.rulesets.skirmish import turn as TU
from grognard.rulesets.skirmish.composites import band_label, composite_tables, cover_kinds
from grognard.rulesets.skirmish.mechanics import (
    INITIATIVE,
    BurstFate,
    MeleeRound,
    PushOff,
    RangingShot,
    ShotFate,
    Shots,
    Survival,
)
from grognard.rulesets.skirmish.options import one_on_damage_die, six_hits_in_cover, wounds_last
from grognard.rulesets.skirmish.rules import cover_shift
from grognard.rulesets.skirmish.scenario import load_scenario
from grognard.rulesets.skirmish.structures import Damage, OneFromArtillery, ShotsUntil, attack_of
from grognard.rulesets.skirmish.tables import FIRES_IN_PART_1, WEDGE_ATTACKS, Tables, load_tables

SQUAD = 8  # men in the shipped scenario's rifle squads: the "k men fire" table runs to it
MELEE_SIZES = ((1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (3, 2), (2, 3), (3, 3), (4, 4))  # attackers v defenders


def scenario_odds_tables(options: Mapping[str, Any] | None = None) -> list[OddsTable]:
    """:func:`odds_tables` read with the tables of the scenario ``options["scenario"]`` names (a shipped name or
    a TOML file; none: the shipped tables), as a game of it rolls them; raises ``ScenarioError`` listing every
    problem of a scenario that is not there or does not check."""
    name = (options or {}).get("scenario")
    return odds_tables(load_scenario(str(name)).tables if name else None, options)


def odds_tables(tables: Tables | None = None, options: Mapping[str, Any] | None = None) -> list[OddsTable]:
    """Every mechanic played: initiative, one man's shot by weapon, band and cover, a wedge's effect on one man
    under it (MG, flame thrower), k men's hits, survival, melee rounds (first and later) for one against one
    and small groups, the shots it takes to bring down bridges, storeys and towers, and a ladder pushed off
    as the option ``ladder_push`` (RULINGS S9) reads it in ``options`` (a game's); cover as ``cover_six`` (S4) and
    a flesh wound as ``wounds`` (S5) read it."""
    tables = tables or load_tables()
    six = six_hits_in_cover(options)
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
            out.append(wedge_odds(tables, weapon, six))
            continue
        if spec.kind not in FIRES_IN_PART_1:
            continue
        rows: list[tuple[Any, Any]] = []
        for index, band in enumerate(spec.bands):
            for covered in (False, True):
                label = f"{band_label(tables, weapon, index)} {'cover' if covered else 'open'}"
                shift = cover_shift(covered, band.hit_on, 0, six)
                rows.append((label, ShotFate(band.hit_on, shift, tables.survive_on(spec.kind))))
        out.append(
            OddsTable(
                f"shot_{weapon}",
                f"One {weapon} shot at a man not yet hit this turn, by range band and cover",
                "skirmish.8",
                tuple(rows),
                "range, cover",
                f"{spec.source}: {spec.reason}; cover here: {cover_kinds(tables, spec.kind)}" + six_note(six),
            )
        )
    out += burst_tables(tables, six)
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
    out.append(
        OddsTable(
            "melee_first_round",
            "A first melee round, attackers v defenders in contact: the attacker's hit kills outright, "
            "the living defenders strike back and their hit allows survival",
            "skirmish.69",
            tuple((f"{a} v {d}", MeleeRound(a, d, first=True)) for a, d in MELEE_SIZES),
            "attackers v defenders",
            "grognard default melee numbers: hit on 4+, survive on 5-6 (RULINGS S6); men pair one to one, "
            "spare men joining (S13), as they do round one man, at a square or in two lines half a base apart; "
            "'both missed' is when the secret stay/retreat follows",
        )
    )
    out.append(
        OddsTable(
            "melee_later_round",
            "A later melee round: every hit allows survival, and the dead strike back before removal",
            "skirmish.70",
            tuple((f"{a} v {d}", MeleeRound(a, d, first=False)) for a, d in MELEE_SIZES),
            "attackers v defenders",
            "grognard default melee numbers: hit on 4+, survive on 5-6 (RULINGS S6)",
        )
    )
    out.append(
        OddsTable(
            "melee_by_type",
            "A first melee round, one attacker v one defender, by the defender's type of man (the tables' "
            "[men.*] melee shift on the attacker's die)",
            "skirmish.69",
            tuple(
                (f"1 v 1 {kind} ({entry.melee:+d})", MeleeRound(1, 1, first=True, defender_shift=entry.melee))
                for kind, entry in sorted(tables.men.items())
            ),
            "defender",
            "kinds of men differ in melee too: "
            + "; ".join(f"{kind} {entry.melee:+d} ({entry.source})" for kind, entry in sorted(tables.men.items())),
        )
    )
    out += structure_tables(tables)
    out.append(artillery_one_table(tables, "damage_die" if one_on_damage_die(options) else "ranging"))
    out += composite_tables(tables, six, wounds_last(options))
    out.append(ladder_push_table(tables, (options or {}).get("ladder_push", "two_men")))
    return out


def artillery_one_table(tables: Tables, reading: str) -> OddsTable:
    """ "A 1 from artillery" on a shell that landed (skirmish.75, 77), by the ranging number of the band it was
    fired in, for the weapons that damage structures: the ranging die's 1 (``ranging``, RULINGS S8) or a 1 on
    either damage die (``damage_die``, the option ``artillery_one``)."""
    dice = int(tables.structures.dice.value)
    numbers = sorted(
        {
            band.ranging
            for weapon, entry in tables.artillery.items()
            if attack_of(tables, weapon) in tables.structures.damaged_by.attacks
            for band in entry.bands
        },
        reverse=True,
    )
    return OddsTable(
        "artillery_one",
        "A 1 from artillery, given the shell landed: a door under it blown off, a cannon on the wall section "
        "costs it 5 points more (True)",
        "skirmish.77",
        tuple((f"lands on {r} or less", OneFromArtillery(r, reading, dice)) for r in numbers),
        "ranging shot",
        f"option artillery_one = damage_die: a 1 on either of the {dice}d6 the shell takes from the door's (or the "
        "cannon's) section, whatever the ranging die (not RULINGS S8)"
        if reading == "damage_die"
        else "RULINGS S8: the ranging die shows 1 (it showed at most the band's number, each face alike)",
    )


def ladder_push_table(tables: Tables, reading: str) -> OddsTable:
    """A ladder pushed off a castle wall (skirmish.83): two men a die each (``two_men``, RULINGS S9) or, with
    the option ``ladder_push = one_die``, also one man with one die."""
    castle = tables.castle
    most, on = int(castle.push_men.value), int(castle.push_on.value)
    men = range(1, most + 1) if reading == "one_die" else (most,)
    return OddsTable(
        "ladder_push",
        f"Men on the wall push a ladder off (each a d6, it falls on {on} or less)",
        "skirmish.83",
        tuple((k, PushOff(k, on)) for k in men),
        "men",
        "one man may push alone with one die (option ladder_push = one_die)"
        if reading == "one_die"
        else f"it takes {most} men, a die each (RULINGS S9; option ladder_push = one_die lets one man push)",
    )


TOWER_POINTS = 20  # seed: castle towers have 20 points


def structure_tables(tables: Tables) -> list[OddsTable]:
    """Shots of 2d6 until a bridge changes state, a storey's state changes or a section or tower falls (exact)."""
    dice = int(tables.structures.dice.value)
    most = 6 * dice
    out = [
        OddsTable(
            "structure_damage",
            "Points one artillery shot takes from a structure, by the points it has left (never below 0)",
            "skirmish.17",
            ((f"{most}+", Damage(dice)), *((left, Capped(Damage(dice), left)) for left in range(most - 1, 0, -1))),
            "points left",
            "RULINGS S7: points never go below 0 and a storey's damage does not carry to the one below",
        )
    ]
    for name, kind in tables.bridges.types.items():
        rows: list[tuple[Any, Any]] = []
        for k, state in enumerate(kind.states):
            last = k == len(kind.states) - 1
            label = "gone (0)" if last else f"below {state.from_points}"
            rows.append((label, ShotsUntil(kind.points, 0 if last else state.from_points - 1, dice)))
        out.append(
            OddsTable(
                f"bridge_{name}",
                f"Shots until a whole {name} bridge ({kind.points} points) leaves each state",
                "skirmish.88" if name == "large" else "skirmish.89",
                tuple(rows),
                "state left",
                f"{kind.source}: {kind.reason}",
            )
        )
    points = int(tables.structures.storey_points.value)
    full = max(1, round(points * tables.structures.full_share.value))
    no_art = max(1, round(points * tables.structures.no_art_cover_share.value))
    out.append(
        OddsTable(
            "storey",
            f"Shots until a whole storey of {points} points loses its roof, becomes rubble, collapses",
            "skirmish.18",
            (
                (f"no art. cover (below {full})", ShotsUntil(points, full - 1, dice)),
                (f"no top cover (below {no_art})", ShotsUntil(points, no_art - 1, dice)),
                ("all dead (0)", ShotsUntil(points, 0, dice)),
            ),
            "state reached",
            "grognard default points and thresholds (the tables' structures entries)",
        )
    )
    out.append(
        OddsTable(
            "tower",
            f"Shots until a castle tower of {TOWER_POINTS} points falls",
            "skirmish.92",
            ((None, ShotsUntil(TOWER_POINTS, 0, dice)),),
            None,
            "seed: castle towers have 20 points",
        )
    )
    return out


def six_note(six: bool) -> str:
    """A shot table's note on the option ``cover_six`` (RULINGS S4) when it is played."""
    return "; a 6 always hits, in cover too (option cover_six = hits, not RULINGS S4)" if six else ""


def wedge_odds(tables: Tables, weapon: str, six: bool = False) -> OddsTable:
    """What a MG's or flame thrower's wedge does to one man under it (not yet hit this turn), by band and cover.

    Every man under the wedge gets one die (skirmish.16); cover takes one off
    where the cover table covers against the weapon's attack (against a flame
    thrower only a half track does, skirmish.36); a weapon nothing covers
    against gets "no cover" rows only.
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
                (
                    f"{band_text} {'cover' if covered else 'open'}",
                    ShotFate(band.hit_on, cover_shift(covered, band.hit_on, 0, six), survive),
                )
            )
    angle = tables.wedge.angle.value
    return OddsTable(
        f"wedge_{weapon}",
        f"A {weapon.replace('_', ' ')} wedge ({angle:g} degrees) on one man under it, by range band and cover",
        "skirmish.16",
        tuple(rows),
        "range, cover",
        f"{spec.source}: {spec.reason}; cover here: {cover_kinds(tables, spec.kind)}" + six_note(six),
    )


def burst_label(tables: Tables, weapon: str, index: int) -> str:
    bands = tables.artillery[weapon].bands
    low = 0.0 if index == 0 else bands[index - 1].to
    return f'{low:g}-{bands[index].to:g}"'


def burst_tables(tables: Tables, six: bool = False) -> list[OddsTable]:
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
        coverable = bool(tables.cover_rows(entry.kind))  # nothing covers against a mortar: no cover rows
        rows: list[tuple[Any, Any]] = []
        for i, band in enumerate(entry.bands):
            for covered in (False, True) if coverable else (False,):
                label = (
                    f"{burst_label(tables, weapon, i)} {('cover' if covered else 'open') if coverable else 'no cover'}"
                )
                shift = cover_shift(covered, band.hit_on, 0, six)
                rows.append((label, BurstFate(band.ranging, band.hit_on, shift, survive)))
        out.append(
            OddsTable(
                f"under_{weapon}",
                f"One man under the {name}'s template when it is fired (not yet hit this turn), by band and cover",
                "skirmish.14",
                tuple(rows),
                "range, cover",
                f"survival after a hit from a {name} only on {survive}+ (RULINGS S3); "
                f"cover here: {cover_kinds(tables, entry.kind)}" + six_note(six),
            )
        )
    return out


METRICS: tuple[Metric, ...] = (
    Metric("first_blood", "turn of the first man killed", "turn"),
    Metric("allies_lost", "allied men lost"),
    Metric("axis_lost", "axis men lost"),
    Metric("allies_wounded", "allied flesh wounds"),
    Metric("axis_wounded", "axis flesh wounds"),
    Metric("first_melee", "turn of the first melee", "turn"),
    Metric("melees", "melees fought (bases touched, a first round rolled)"),
    Metric("melee_rounds", "melee rounds rolled"),
    Metric("allies_melee_dead", "allied men killed in melee"),
    Metric("axis_melee_dead", "axis men killed in melee"),
    Metric("allies_objectives", "objectives the allies hold at the end"),
    Metric("axis_objectives", "objectives the axis holds at the end"),
)


def measure(game: Any) -> dict[str, int | None]:
    """The metrics of a finished skirmish game (the turn it ended is the runner's own ``turn``)."""
    stats = game.state.stats
    objectives = [o.id for o in game.ctx.scenario.spec.objectives]
    return {
        "first_melee": stats["first_melee"],
        "melees": stats["melees"],
        "melee_rounds": stats["melee_rounds"],
        "allies_melee_dead": stats["melee_dead"]["allies"],
        "axis_melee_dead": stats["melee_dead"]["axis"],
        "allies_objectives": sum(1 for o in objectives if TU.holds(game.ctx, "allies", o)),
        "axis_objectives": sum(1 for o in objectives if TU.holds(game.ctx, "axis", o)),
        "first_blood": stats["first_blood"],
        "allies_lost": stats["losses"]["allies"],
        "axis_lost": stats["losses"]["axis"],
        "allies_wounded": stats["wounds"]["allies"],
        "axis_wounded": stats["wounds"]["axis"],
    }
