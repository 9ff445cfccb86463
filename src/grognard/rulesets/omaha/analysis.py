"""What Omaha declares to the analysis code: its dice mechanics (exact odds) and its metrics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.analysis.odds import OddsTable
from grognard.core.dice import Capped, Gated
from grognard.core.ruleset import Metric
from grognard.rulesets.omaha.data import (
    ARTILLERY_KILLS,
    ARTILLERY_LANDS,
    BUNKER_DICE,
    DEFENDERS,
    LANDING_ROLL,
    OBSTACLE_ROLL,
    SQUAD_SIZE,
    assault,
    bunker_fire,
    clearing,
    deep_water,
    morale,
    shooting,
)

FIGURES = range(1, SQUAD_SIZE + 1)


def odds_tables(options: Mapping[str, Any] | None = None) -> list[OddsTable]:
    """Every mechanic of the Omaha rules, over its parameters, as play keeps it: surplus kills and sixes
    are wasted (RULINGS O2), so each table runs over what is present (defenders, obstacles, figures);
    then the composites (:mod:`grognard.rulesets.omaha.composites`), as ``options`` (a game's) read them: no
    option changes a single mechanic's odds; ``drowned_morale`` changes the composite ``deep_water_morale``."""
    from grognard.rulesets.omaha.composites import composite_tables

    return [
        OddsTable(
            "obstacles", "Obstacles in a section (d6: 1 none, 2-5 one, 6 two)", "omaha.8", ((None, OBSTACLE_ROLL),)
        ),
        OddsTable("landing", "Landing distance, inches seaward of the water line", "omaha.11", ((None, LANDING_ROLL),)),
        OddsTable(
            "deep_water",
            "Deep water: men drowned from a full squad (each 6)",
            "omaha.12",
            ((SQUAD_SIZE, deep_water(SQUAD_SIZE)),),
            "figures",
            "only when the landing die shows 6 (deep_water_landing: per landing)",
        ),
        OddsTable(
            "clearing",
            "Obstacles cleared by k figures at the sea wall (each 6 clears one; sixes beyond those present wasted)",
            "omaha.16",
            tuple((f"{present} present, {k}", Capped(clearing(k), present)) for present in (2, 1) for k in FIGURES),
            "obstacles present, figures clearing",
            "a section holds 0-2 obstacles (RULINGS O2)",
        ),
        OddsTable(
            "shooting",
            "Defenders killed by k figures shooting (each 6 kills one; kills beyond the defenders wasted)",
            "omaha.17",
            tuple(
                (f"{left} left, {k}", Capped(shooting(k), left)) for left in range(DEFENDERS, 0, -1) for k in FIGURES
            ),
            "defenders left, figures shooting",
            f"a bunker holds {DEFENDERS} at most (RULINGS O2)",
        ),
        OddsTable(
            "assault",
            "Assault destroys the bunker (any 6) by k figures",
            "omaha.18",
            tuple((k, assault(k)) for k in FIGURES),
            "figures assaulting",
        ),
        OddsTable(
            "bunker_fire",
            "Bunker fire: figures killed (each 5-6; kills beyond the squad's figures wasted)",
            "omaha.19",
            tuple(
                (f"{left}, {_squads(bunker_fire(left).dice, size)}", Capped(bunker_fire(left), size))
                for left in range(DEFENDERS, 0, -1)
                for size in range(bunker_fire(left).dice, 0, -1)
            ),
            "defenders left, figures in the squad",
            f"{BUNKER_DICE} dice with 2 or more defenders, 2 with one (RULINGS O1, O2)",
        ),
        OddsTable("artillery_lands", "Artillery strike lands (5-6)", "omaha.24", ((None, ARTILLERY_LANDS),)),
        OddsTable(
            "artillery_given_lands",
            "Artillery kills, given it lands (4d6, each 4-6; kills beyond the squad's figures wasted)",
            "omaha.24",
            tuple(
                (_squads(ARTILLERY_KILLS.dice, size), Capped(ARTILLERY_KILLS, size))
                for size in range(ARTILLERY_KILLS.dice, 0, -1)
            ),
            "figures in the squad",
        ),
        OddsTable(
            "artillery_per_call",
            "Artillery kills per call (lands 5-6, then 4d6 each 4-6; kills beyond the squad's figures wasted)",
            "omaha.24",
            tuple(
                (_squads(ARTILLERY_KILLS.dice, size), Gated(ARTILLERY_LANDS, Capped(ARTILLERY_KILLS, size)))
                for size in range(ARTILLERY_KILLS.dice, 0, -1)
            ),
            "figures in the squad",
        ),
        OddsTable(
            "morale",
            "Morale check fails (a d6 per figure lost this turn, total 12 or more)",
            "omaha.25",
            tuple((k, morale(k)) for k in range(1, SQUAD_SIZE)),
            "figures lost",
            f"a squad that lost all {SQUAD_SIZE} is wiped out and needs no check (RULINGS O13)",
        ),
        *composite_tables(options),
    ]


def _squads(dice: int, size: int) -> str:
    """A squad-size label: ``"4-12"`` where no kill is wasted (as many figures as dice, or more), else the size."""
    return f"{size}-{SQUAD_SIZE}" if size == dice else str(size)


METRICS: tuple[Metric, ...] = (
    Metric("first_past_wall_turn", "turn the first squad passed the sea wall", "turn"),
    Metric("breakthrough_turn", "turn of the breakthrough (first exit open)", "turn"),
    Metric("decisive_turn", "turn of the decisive win", "turn"),
    Metric("american_losses", "American figures lost"),
    Metric("german_losses", "German figures lost"),
    Metric("sent_back", "squads sent back by morale"),
    Metric("wiped_out", "squads wiped out"),
    Metric("fresh_squads", "fresh squads landed"),
    Metric("exits_open", "exits open at the end"),
    Metric("bunkers_left", "bunkers still active at the end"),
)


def measure(game: Any) -> dict[str, int | None]:
    """The metrics of a finished Omaha game."""
    state = game.state
    stats = state.stats
    return {
        "first_past_wall_turn": stats["first_past_wall_turn"],
        "breakthrough_turn": stats["breakthrough_turn"],
        "decisive_turn": stats["decisive_turn"],
        "american_losses": stats["american_losses"],
        "german_losses": stats["german_losses"],
        "sent_back": stats["sent_back"],
        "wiped_out": stats["wiped_out"],
        "fresh_squads": stats["fresh_squads"],
        "exits_open": len(state.exits_open),
        "bunkers_left": sum(1 for b in state.bunkers.values() if b.active),
    }
