"""A scenario's balance from bot games on the same dice: who wins under the book's play, how much skill
matters, and the turn limit that evens the game (``grognard balance``).

Every pairing of bots (a level a side) plays games ``0 .. n - 1`` of one seed: game ``i`` rolls the same
dice in every pairing and at every point of the sweep (``core.dice.stream(seed, i)``, as ``simulate`` and
``sweep`` roll them), so two pairings are compared game by game (a paired difference and McNemar's test),
not as two samples. The games are played by the Monte Carlo runner's workers (``analysis.montecarlo``:
``play_chunk`` in processes, or on a Dask cluster), several pairings' chunks side by side, their rows
reduced in game-index order: the same figures whatever the number of processes.

A side's *score* is its wins plus half the draws, over the games: a game is balanced when the first side's
score is 50%, within :data:`TARGET` (5 points).

>>> round(score({"allies win": 9, "axis win": 9, "draw": 2}, "allies"), 2)
0.5
>>> sorted(bisect_limit(lambda k: min(1.0, k / 10), 1, 20, 6).items())[:3]
[(1, 0.1), (3, 0.3), (4, 0.4)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from grognard.analysis.montecarlo import BATCH_CHUNK, CHUNK, Plan, Summary, Task, batched, play_chunk, run_tasks
from grognard.analysis.stats import Z95, mcnemar, paired_difference, wilson
from grognard.core.ruleset import Ruleset

__all__ = [
    "TARGET",
    "Z95",
    "Played",
    "bisect_limit",
    "compare",
    "nearest",
    "outcome_figures",
    "play",
    "play_first",
    "score",
    "score_interval",
    "tasks_of",
    "with_value",
]

TARGET = 0.05  # a balanced game: the first side's score within 5 points of 50%


@dataclass
class Played:
    """A pairing's games: the counts (``summary``) and each game's result and last turn, by game index."""

    plan: Plan
    summary: Summary = field(default_factory=Summary)
    results: dict[int, tuple[str, int]] = field(default_factory=dict)

    def add(self, rows: Iterable[Mapping[str, Any]], ruleset: Ruleset) -> None:
        """Count the rows of some of the pairing's games."""
        for row in rows:
            self.summary.add(row, ruleset.metrics)
            key = f"{row['winner']} win" if row["outcome"] == "win" else str(row["outcome"])
            self.results[int(row["game"])] = (key, int(row["turn"]))

    def won(self, side: str, games: int) -> list[bool]:
        """Whether ``side`` won each of the first ``games`` games."""
        return [self.results[i][0] == f"{side} win" for i in range(games)]


def tasks_of(plans: Sequence[Plan], jobs: int, starts: Sequence[int] | None = None) -> list[tuple[int, Task]]:
    """Each plan's games from its start on (``starts``, 0 by default), in chunks small enough that every process
    has work to the end (a hard bot's game may take a minute), as ``(plan's index, task)``: one plan after
    the other."""
    out = []
    for index, plan in enumerate(plans):
        first = starts[index] if starts is not None else 0
        left = plan.games - first
        if left <= 0:
            continue
        if batched(plan):
            size = min(BATCH_CHUNK, max(CHUNK, -(-left // max(jobs, 1))))
        else:
            size = max(1, min(CHUNK, -(-left // (4 * max(jobs, 1)))))
        out += [(index, (plan, start, min(start + size, plan.games))) for start in range(first, plan.games, size)]
    return out


def play(
    plans: Sequence[Plan],
    ruleset: Ruleset,
    jobs: int,
    scheduler: str | None,
    on_rows: Callable[[int, int], None] | None = None,
    played: Sequence[Played] | None = None,
) -> list[Played]:
    """Play every plan's games (``played``: each plan's first games, already counted there: the rest are
    played), their chunks side by side in ``jobs`` processes or on the cluster at ``scheduler``;
    ``on_rows(plan's index, games)`` after each chunk (a progress bar)."""
    out = list(played) if played is not None else [Played(plan) for plan in plans]
    tasks = tasks_of(plans, jobs, [item.summary.games for item in out])
    for (index, _), rows in zip(
        tasks, run_tasks((task for _, task in tasks), len(tasks), jobs, scheduler), strict=True
    ):
        out[index].add(rows, ruleset)
        if on_rows is not None:
            on_rows(index, len(rows))
    return out


def play_first(plan: Plan, ruleset: Ruleset) -> tuple[Played, float]:
    """The first games of ``plan`` played here (one; a chunk of the batch path, whose games cost less side by
    side than alone) and the CPU seconds a game took: the run's time estimate comes from it."""
    import time

    games = min(plan.games, CHUNK) if batched(plan) else 1
    started = time.process_time()
    rows = play_chunk(plan, 0, games)
    seconds = time.process_time() - started
    played = Played(plan)
    played.add(rows, ruleset)
    return played, seconds / games


def score(outcomes: Mapping[str, int], side: str) -> float:
    """``side``'s wins plus half the draws, over every game counted in ``outcomes``."""
    games = sum(outcomes.values())
    return (outcomes.get(f"{side} win", 0) + outcomes.get("draw", 0) / 2) / games if games else 0.0


def score_interval(outcomes: Mapping[str, int], side: str, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of ``side``'s score: the normal interval of the mean per-game score (1 a win,
    1/2 a draw, 0 a loss), widened to Wilson's where the games were all won or all lost (no spread)."""
    games = sum(outcomes.values())
    if games == 0:
        return 0.0, 1.0
    wins, draws = outcomes.get(f"{side} win", 0), outcomes.get("draw", 0)
    if draws == 0 or games == 1:
        return wilson(wins, games, z)
    mean = (wins + draws / 2) / games
    variance = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + (games - wins - draws) * mean**2) / (games - 1)
    half = z * (variance / games) ** 0.5
    return max(0.0, mean - half), min(1.0, mean + half)


def outcome_figures(played: Played, limit: int | None) -> dict[str, Any]:
    """A pairing's outcome shares with their Wilson intervals, the games that reached the turn limit (or
    ended unfinished or scored at a cap), and the game's length in turns (quartiles)."""
    from grognard.analysis.stats import quantile

    summary = played.summary
    n = summary.games
    outcomes = {}
    for key, count in sorted(summary.outcomes.items()):
        low, high = wilson(count, n)
        outcomes[key] = {"games": count, "share": count / n, "low95": low, "high95": high}
    capped = sum(
        1 for key, turn in played.results.values() if key in ("unfinished", "scored") or (limit and turn >= limit)
    )
    low, high = wilson(capped, n)
    turns: Mapping[int, int] = summary.histograms.get("turn", {})
    return {
        "games": n,
        "bots": dict(played.plan.bots),
        "outcomes": outcomes,
        "to_the_limit": {
            "limit": limit,
            "games": capped,
            "share": capped / n if n else 0.0,
            "low95": low,
            "high95": high,
        },
        "turns": {
            "q1": quantile(turns, 0.25),
            "median": quantile(turns, 0.5),
            "q3": quantile(turns, 0.75),
            "min": min(turns) if turns else None,
            "max": max(turns) if turns else None,
        },
    }


def compare(one: Played, other: Played, side: str, games: int) -> dict[str, Any]:
    """``side``'s win rate in pairing ``one`` minus its win rate in ``other``, on the same first ``games`` games
    (paired: game i rolled the same dice in both), with the 95% interval of the difference and McNemar's p.

    Skill's *swing* is the first side's win rate as hard against the book minus as the book against hard
    (without draws, the second side's swing is the same number); a side's *gain* is its win rate with the
    skilled bot against the book minus its win rate in the book against the book."""
    ahead, behind = one.won(side, games), other.won(side, games)
    gained = sum(1 for a, b in zip(ahead, behind, strict=True) if a and not b)
    lost = sum(1 for a, b in zip(ahead, behind, strict=True) if b and not a)
    diff, low, high = paired_difference(gained, lost, games)
    wins_ahead, wins_behind = sum(ahead), sum(behind)
    return {
        "side": side,
        "games": games,
        "one": {"bots": dict(one.plan.bots), "wins": wins_ahead, "share": wins_ahead / games},
        "other": {"bots": dict(other.plan.bots), "wins": wins_behind, "share": wins_behind / games},
        "difference": diff,
        "low95": low,
        "high95": high,
        "mcnemar_p": mcnemar(gained, lost),
    }


def bisect_limit(measure: Callable[[int], float], low: int, high: int, own: int) -> dict[int, float]:
    """The first side's score at the turn limits tried while looking for the one that brings it nearest
    50%, between ``low`` and ``high``, starting at the scenario's ``own``: the score is taken to move one
    way as the limit grows (more turns, more time for the attacker), so each limit tried halves the range
    where 50% is crossed. Returns every limit tried and its score (``measure(limit)``)."""
    tried: dict[int, float] = {}

    def at(limit: int) -> float:
        if limit not in tried:
            tried[limit] = measure(limit)
        return tried[limit]

    if abs(at(own) - 0.5) <= TARGET:
        return tried
    side_of_own = at(own) > 0.5
    if (at(low) > 0.5) != side_of_own:
        high = own
    elif own < high and (at(high) > 0.5) != side_of_own:
        low = own
    else:
        return tried  # 50% is not crossed between the ends: the nearest end is the best on offer
    while high - low > 1:
        middle = (low + high) // 2
        if (at(middle) > 0.5) == (at(low) > 0.5):
            low = middle
        else:
            high = middle
    return tried


def nearest(tried: Mapping[int, float], own: int) -> int:
    """The limit tried whose score is nearest 50% (on a tie, the one nearest the scenario's own)."""
    return min(tried, key=lambda limit: (abs(tried[limit] - 0.5), abs(limit - own), limit))


def with_value(text: str, table: str, index: int, key: str, value: float, note: str = "") -> str:
    """``text`` (a TOML file) with ``key = value`` (and a comment, ``note``) in its ``index``-th ``[[table]]``
    (the line replaced, or added under the header), every other line as it was; ValueError when the file is
    not laid out so (a parser would be needed; the edited text is checked by parsing it)."""
    import re

    from grognard.rulesets.skirmish.tables import loads_toml

    lines = text.splitlines()
    seen, header, found = -1, None, None
    for number, line in enumerate(lines):
        stripped = line.split("#", 1)[0].strip()
        if stripped.startswith("["):
            if header is not None:
                break
            seen += stripped == f"[[{table}]]"
            header = number if stripped == f"[[{table}]]" and seen == index else None
        elif header is not None and re.match(rf"{re.escape(key)}\s*=", stripped):
            found = number
            break
    if header is None and found is None:
        raise ValueError(f"no [[{table}]] number {index + 1} in the file")
    edited = list(lines)
    if found is not None:
        edited[found] = f"{key} = {value!r}" + (f"  # {note}" if note else "")
    else:
        assert header is not None
        edited.insert(header + 1, f"{key} = {value!r}" + (f"  # {note}" if note else ""))
    out = "\n".join(edited) + "\n"
    before, after = loads_toml(text), loads_toml(out)
    after_entry, before_entry = dict(after[table][index]), dict(before[table][index])
    if after_entry.pop(key) != value or {k: v for k, v in before_entry.items() if k != key} != after_entry:
        raise ValueError(f"{table}[{index}].{key}: the file's layout could not be edited line by line")
    return out
