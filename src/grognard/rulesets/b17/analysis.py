"""What the B-17 raid declares to the analysis code: its dice mechanics (exact odds) and its metrics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.analysis.odds import OddsTable
from grognard.core.ruleset import Metric
from grognard.rulesets.b17.composites import BOMBERS, composite_tables, crippled
from grognard.rulesets.b17.data import (
    ALTITUDE_ROLL,
    BOMBER_ENGINES,
    CLOCK_ROLL,
    ENTRY_ROLL,
    HITS_TO_WIN,
    AtLeast,
    damage_grade,
    mechanics,
)


def odds_tables(options: Mapping[str, Any] | None = None) -> list[OddsTable]:
    """Every mechanic of the B-17 rules, as play reads it (a damage with every engine out destroys), then the
    composites (:mod:`grognard.rulesets.b17.composites`), read as ``options`` (a game's; RULINGS B1-B3) say."""
    m = mechanics(options)
    out = m.crippled_at  # engines out from which "damaged" destroys a B-17 (RULINGS B4; option fourth_engine)
    last = "(RULINGS B4)" if out == BOMBER_ENGINES else "(option fourth_engine = destroys, not RULINGS B4)"
    return [
        OddsTable("entry", "An element enters this turn (even d6)", "b17.16", ((None, ENTRY_ROLL),)),
        OddsTable("clock", "Clock hour of entry (2d6)", "b17.17", ((None, CLOCK_ROLL),)),
        OddsTable(
            "altitude",
            "Altitude of an element (d6: 1-2 below, 3-4 level, 5-6 above)",
            "b17.20",
            ((None, ALTITUDE_ROLL),),
        ),
        OddsTable(
            "attack",
            "A fighter's attack on a B-17 (d6+3 against d6+3; +1 head-on or from behind)",
            "b17.37",
            (
                ("plain", m.attack),
                ("head-on/behind", m.attack_bonus),
                (f"plain, {out} engines out", crippled(m.attack)),
                (f"head-on/behind, {out} engines out", crippled(m.attack_bonus)),
            ),
            "approach",
            "damaged: an engine out; destroyed when every engine already was (RULINGS B4)"
            if out == BOMBER_ENGINES
            else f"damaged: an engine out; destroyed when {out} were: the fourth engine's damage downs it {last}",
        ),
        OddsTable(
            "gunner",
            "One gunner's fire at a fighter (d6+1 against d6+2)",
            "b17.42",
            (("fresh fighter", m.gunner), ("fighter already damaged", crippled(m.gunner))),
            "fighter",
            "a fighter has one engine: a second damage destroys it (RULINGS B4)",
        ),
        OddsTable(
            "flak",
            "Flak at a bomber (AA d6 against the bomber's d6" + (" + 3)" if m.flak.defence else ")"),
            "b17.53",
            ((f"0-{out - 1} engines out", m.flak), (f"{out} engines out", crippled(m.flak))),
            "bomber",
            f"with {out} engines out a damage destroys it {last}",
        ),
        OddsTable("bomb", "Hits of one bomb roll (bomber d6 against target d6)", "b17.57", ((None, m.bomb),)),
        OddsTable(
            "bomb_load",
            "Hits of k bombers' loads (four rolls each)",
            "b17.51",
            tuple((k, m.load(k)) for k in BOMBERS),
            "bombers",
            "no flak on the way in (met on an earlier turn); with flak: bomb_load_flak",
            cumulative=True,
        ),
        OddsTable(
            "raid_wins",
            f"k bombers over the target score {HITS_TO_WIN} hits or more (flak first)",
            "b17.60",
            tuple((k, AtLeast(m.load(k, flak=True), HITS_TO_WIN)) for k in BOMBERS),
            "bombers",
            "each bomber meets the flak once before it drops; one destroyed by flak drops nothing"
            + ("; nor does a damaged one (option flak_damage = breaks_off)" if m.breaks_off else ""),
        ),
        *composite_tables(m),
    ]


GRADE_NUMBER = {"none": 0, "minor": 1, "moderate": 2, "major": 3}

METRICS: tuple[Metric, ...] = (
    Metric("bombers_lost", "bombers shot down"),
    Metric("fighters_lost", "fighters shot down"),
    Metric("bombers_left", "bombers that left the table without bombing"),
    Metric("bomb_hits", "bomb hits on the target"),
    Metric("damage_grade", "damage to the target (0 none, 1 minor, 2 moderate, 3 major)"),
    Metric("bomb_run_turn", "turn of the first bomb run", "turn"),
    Metric("first_attack_turn", "turn of the first fighter attack", "turn"),
)


def measure(game: Any) -> dict[str, int | None]:
    """The metrics of a finished B-17 game."""
    s = game.state
    return {
        "bombers_lost": s.stats["bombers_lost"],
        "fighters_lost": s.stats["fighters_lost"],
        "bombers_left": sum(1 for b in s.bombers() if b.status == "left" and not b.bombed),
        "bomb_hits": s.hits,
        "damage_grade": GRADE_NUMBER[damage_grade(s.hits)],
        "bomb_run_turn": s.stats["bomb_run_turn"],
        "first_attack_turn": s.stats["first_attack_turn"],
    }
