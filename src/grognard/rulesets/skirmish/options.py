"""The skirmish rule set's scenario options (``grognard play skirmish -o NAME=VALUE``).

``cover_six`` (RULINGS S4), ``over_the_top`` (S14), ``storey_damage`` (S7), ``artillery_one`` (S8) and ``wounds``
(S5) play the other reading of a ruling, ``burst_min_range`` a minimum range for burst templates; they and
``commanders`` (seats a side: ``commanders.py``) are quiet (left out of records and states at their default, so
records made before them replay). :func:`six_hits_in_cover`, :func:`over_the_top_all_round`,
:func:`damage_carries`, :func:`one_on_damage_die`, :func:`burst_min_range` and :func:`wounds_last` read a game's
options (a state's, which lacks a quiet option at its default).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.core.options import OptionSpec
from grognard.rulesets.skirmish.scenario import shipped

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "scenario",
        str,
        "hill_assault",
        "a shipped scenario's name or a scenario TOML file",
        rule="skirmish.2",
        offered=tuple(shipped()),
    ),
    OptionSpec(
        "turn_limit",
        int,
        None,
        "end the game after this many turns (default: the scenario's)",
        minimum=1,
        maximum=1000,
        none_word="scenario",
        rule="skirmish.20",
    ),
    OptionSpec(
        "ladder_push",
        str,
        "two_men",
        "pushing a ladder off the wall: two_men (RULINGS S9: two men on the wall each roll a d6, either 1 or 2 "
        "pushes it off; one man alone cannot push) or one_die (one man may push with one die)",
        choices=("two_men", "one_die"),
        rule="skirmish.83",
    ),
    OptionSpec(
        "commanders",
        int,
        1,
        "players a side: 1 (Allies, Axis), or more to share each side's units out among Allies 1, Allies 2, ... "
        "(in turn, in the scenario's order, or as its units' commander says); each orders only his own units "
        "(at most as many as a side has units)",
        minimum=1,
        maximum=8,
        quiet=True,
    ),
    OptionSpec(
        "cover_six",
        str,
        "misses",
        "a man in cover where only a 6 hits: misses (RULINGS S4: cover takes one from the hit die, so a 6 alone "
        "cannot hit him) or hits (a 6 always hits: cover takes nothing where it would take the last number)",
        choices=("misses", "hits"),
        rule="skirmish.32",
        quiet=True,
    ),
    OptionSpec(
        "over_the_top",
        str,
        "between",
        "over-the-top cover from a shell's arc for a man within 2 inches of a building's wall, a castle wall or a "
        "cliff: between (RULINGS S14: only when the wall lies between him and the burst's centre) or all_round "
        "(the seed's 'men within 2 inches of wall/cliff' read as it stands: wherever the shell falls)",
        choices=("between", "all_round"),
        rule="skirmish.40",
        quiet=True,
    ),
    OptionSpec(
        "storey_damage",
        str,
        "stays",
        "a shell's 2d6 beyond what a second storey has left: stays (RULINGS S7: it does not carry to the storey "
        "below) or carries (the rest comes off the first storey)",
        choices=("stays", "carries"),
        rule="skirmish.91",
        quiet=True,
    ),
    OptionSpec(
        "burst_min_range",
        float,
        0.0,
        "a burst template's minimum range, inches from the firer to the aim point (0, the ruling: none; a template "
        "is never laid on its firer's own piece, crew, tank or man, whatever this says); a group that reads the "
        "lost range table as starting beyond 0 sets it, e.g. 6",
        minimum=0.0,
        maximum=48.0,
        rule="skirmish.12",
        quiet=True,
    ),
    OptionSpec(
        "artillery_one",
        str,
        "ranging",
        "'a 1 from artillery' (a door under the shell blown off, skirmish.77; a cannon on a castle wall section "
        "costing it 5 points more, skirmish.75): ranging (RULINGS S8: the shot's ranging die shows 1) or "
        "damage_die (a 1 on either of the two damage dice the shell rolls against the door's building section "
        "or wall section, or the cannon's wall section)",
        choices=("ranging", "damage_die"),
        rule="skirmish.77",
        quiet=True,
    ),
    OptionSpec(
        "wounds",
        str,
        "heal",
        "a flesh wound: heal (RULINGS S5: no lasting effect; only two hits in one turn kill outright) or last "
        "(a man who carries a flesh wound dies at his next hit, in any later turn, with no survival roll)",
        choices=("heal", "last"),
        rule="skirmish.7",
        quiet=True,
    ),
)


def six_hits_in_cover(options: Mapping[str, Any] | None) -> bool:
    """Whether a 6 always hits a man in cover (``cover_six = hits``), not the ruling S4."""
    return bool((options or {}).get("cover_six", "misses") == "hits")


def over_the_top_all_round(options: Mapping[str, Any] | None) -> bool:
    """Whether over-the-top cover holds wherever the shell falls (``over_the_top = all_round``), not S14."""
    return bool((options or {}).get("over_the_top", "between") == "all_round")


def damage_carries(options: Mapping[str, Any] | None) -> bool:
    """Whether a shell's damage beyond a second storey's points carries to the first (``storey_damage =
    carries``), not the ruling S7."""
    return bool((options or {}).get("storey_damage", "stays") == "carries")


def wounds_last(options: Mapping[str, Any] | None) -> bool:
    """Whether a flesh wound lasts (``wounds = last``): the man dies at his next hit, not the ruling S5."""
    return bool((options or {}).get("wounds", "heal") == "last")


def burst_min_range(options: Mapping[str, Any] | None) -> float:
    """The least range (inches) a burst template may be laid at (``burst_min_range``; 0: none)."""
    return float((options or {}).get("burst_min_range", 0.0))


def one_on_damage_die(options: Mapping[str, Any] | None) -> bool:
    """Whether "a 1 from artillery" is a 1 on a damage die (``artillery_one = damage_die``), not the ranging die's
    (RULINGS S8)."""
    return bool((options or {}).get("artillery_one", "ranging") == "damage_die")
