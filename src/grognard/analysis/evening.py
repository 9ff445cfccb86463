"""The scenario field that evens a skirmish game: its turn limit, else how many men a side may lose before it
breaks (its victory condition), swept with the book against the book on the same dice (``grognard balance``).

Each sweep looks for the value that brings the first side's score (wins and half the draws) nearest 50%
by halving (``balance.bisect_limit``), every value played on games ``0 .. n - 1`` of the run's seed, so
the values differ by the field alone. The first sweep that comes within 5 points ends the search. A value
of the turn limit is an option (``-o turn_limit=K``); a side's ``breaks_at`` is a field of the scenario's
file, played from an edited copy carried with the plan (``Plan.embedded``, as a record carries its
scenario), so a Dask worker elsewhere plays it too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from grognard.analysis import balance
from grognard.analysis.balance import Played
from grognard.analysis.montecarlo import Plan
from grognard.core.ruleset import Ruleset

Player = Callable[[Plan, str], Played]  # plays a plan's games behind a progress bar labelled with the string


def scenario_files(options: Mapping[str, Any]) -> tuple[str, str, dict[str, Any] | None]:
    """The scenario ``options`` name: (its name, its TOML text, its tables as a record embeds them or None)."""
    from grognard.rulesets.skirmish.scenario import _text, embed_files, resolve_path

    name = str(options["scenario"])
    embedded = embed_files(dict(options))
    if embedded is not None:
        return name, str(embedded["scenario"]["toml"]), embedded["scenario"]["tables"]
    return name, _text(resolve_path(name), name), None


def turn_span(ruleset: Ruleset, limit: int) -> tuple[int, int]:
    """The turn limits a sweep looks between: 1 to twice the scenario's own (at least 6 more), within the option's
    range."""
    maximum = max((spec.maximum or 1000) for spec in ruleset.options if spec.name == "turn_limit")
    return 1, int(min(maximum, max(2 * limit, limit + 6)))


BREAKS_SPAN = (5, 100)  # a side's breaks_at, in hundredths: from 5% of its men lost to every man


def most_values(ruleset: Ruleset, limit: int, fields: str = "auto") -> int:
    """The most values the sweeps of ``fields`` may play (the turn limit's and both sides' breaks_at, each
    halved down to one step, its two ends tried), for the time said before the games."""
    spans = [turn_span(ruleset, limit)] if fields in ("auto", "turn_limit") else []
    spans += [BREAKS_SPAN, BREAKS_SPAN] if fields in ("auto", "breaks_at") else []
    return sum(2 + math.ceil(math.log2(max(2, b - a))) for a, b in spans)


FIELDS = ("auto", "turn_limit", "breaks_at", "none")  # grognard balance --sweep


def sweeps(
    ruleset: Ruleset, options: Mapping[str, Any], book: Played, limit: int, play: Player, fields: str = "auto"
) -> list[dict[str, Any]]:
    """The sweeps played, in order, until one brings the book against the book within 5 points of 50%:
    the turn limit, then each side's ``breaks_at`` (``book``: the book's games at the scenario's own values);
    ``fields``: ``turn_limit`` or ``breaks_at`` for that field alone."""
    from grognard.rulesets.skirmish.tables import loads_toml

    side = ruleset.sides[0]
    plan = book.plan
    found: list[dict[str, Any]] = []
    if fields in ("auto", "turn_limit"):
        found.append(
            _sweep(
                "turn_limit",
                limit,
                turn_span(ruleset, limit),
                lambda k: Plan(plan.ruleset, {**options, "turn_limit": k}, plan.bots, plan.seed, plan.games),
                book,
                side,
                play,
            )
        )
        if found[-1]["balanced"] or fields == "turn_limit":
            return found
    name, text, tables = scenario_files(options)
    for index, entry in enumerate(loads_toml(text).get("sides", [])):
        own = round(100 * float(entry.get("breaks_at", 1.0)))

        def variant(k: int, index: int = index, own: int = own) -> Plan:
            edited = balance.with_value(
                text, "sides", index, "breaks_at", k / 100, f"grognard balance: was {own / 100:g}"
            )
            embedded = {"scenario": {"file": name, "toml": edited, "tables": tables}}
            return Plan(plan.ruleset, dict(options), plan.bots, plan.seed, plan.games, embedded=embedded)

        found.append(_sweep(f"sides[{index}].breaks_at", own, BREAKS_SPAN, variant, book, side, play))
        found[-1]["side_of_field"] = str(entry.get("id", index))
        if found[-1]["balanced"]:
            break
    return found


def _sweep(
    field: str,
    own: int,
    span: tuple[int, int],
    plan_at: Callable[[int], Plan],
    book: Played,
    side: str,
    play: Player,
) -> dict[str, Any]:
    """One field swept: every value tried with its score and interval, and the value nearest 50%."""
    points: dict[int, Played] = {own: book}
    scale = 100 if field.endswith("breaks_at") else 1

    def measure(k: int) -> float:
        if k not in points:
            points[k] = play(plan_at(k), f"{field} {k / scale:g}")
        return balance.score(points[k].summary.outcomes, side)

    tried = balance.bisect_limit(measure, span[0], span[1], own)
    best = balance.nearest(tried, own)
    low, high = balance.score_interval(points[best].summary.outcomes, side)
    return {
        "field": field,
        "own": own / scale,
        "best": best / scale,
        "score": tried[best],
        "low95": low,
        "high95": high,
        "balanced": abs(tried[best] - 0.5) <= balance.TARGET,
        "outcomes": dict(points[best].summary.outcomes),
        "plan": points[best].plan,
        "tried": {
            f"{k / scale:g}": {
                "score": tried[k],
                "interval": balance.score_interval(points[k].summary.outcomes, side),
                "outcomes": dict(points[k].summary.outcomes),
            }
            for k in sorted(tried)
        },
    }
