"""Comparing what play did with an exact distribution, so that a test is never flaky.

Outcomes are pooled into cells twice, from the low end and from the high end (each cell gathers
outcomes in order until it expects ``MIN_EXPECTED`` of the ``n`` trials), so a tail play never reaches
(kills beyond the defenders present) is one cell on its own. Each cell's count is then tested exactly
(two-sided binomial) and fails below ``P_VALUE``: a correct engine fails a cell about once in ten
million, whatever the seed, and the seeds are fixed, so a run never flips; a table that prints a tail
play cannot reach fails as soon as that tail expects some 17 trials.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

MIN_EXPECTED = 10.0
P_VALUE = 1e-7


def pooled(exact: list[tuple[Any, Fraction]], n: int) -> list[tuple[tuple[Any, ...], float]]:
    """Cells of outcomes in order, pooled until each expects ``MIN_EXPECTED`` of ``n`` (the last joins its left)."""
    cells: list[tuple[list[Any], float]] = []
    current: list[Any] = []
    mass = 0.0
    for outcome, p in exact:
        current.append(outcome)
        mass += float(p)
        if mass * n >= MIN_EXPECTED:
            cells.append((current, mass))
            current, mass = [], 0.0
    if current:
        if cells:
            last, last_mass = cells.pop()
            cells.append((last + current, last_mass + mass))
        else:
            cells.append((current, mass))
    return [(tuple(outcomes), p) for outcomes, p in cells]


def binomial_p_value(k: int, n: int, p: float) -> float:
    """Two-sided exact binomial p-value of ``k`` successes in ``n`` trials of probability ``p``."""
    if p <= 0.0:
        return 1.0 if k == 0 else 0.0
    if p >= 1.0:
        return 1.0 if k == n else 0.0

    def log_pmf(j: int) -> float:
        return (
            math.lgamma(n + 1)
            - math.lgamma(j + 1)
            - math.lgamma(n - j + 1)
            + j * math.log(p)
            + (n - j) * math.log1p(-p)
        )

    below = sum(math.exp(log_pmf(j)) for j in range(0, k + 1))
    above = sum(math.exp(log_pmf(j)) for j in range(k, n + 1))
    return min(1.0, 2 * min(below, above))


def check(seen: Counter[Any] | Iterable[Any], exact: list[tuple[Any, Fraction]], what: Any) -> None:
    """Assert the outcomes ``seen`` (a Counter or the outcomes themselves) follow ``exact``; none off it."""
    counts = seen if isinstance(seen, Counter) else Counter(seen)
    n = sum(counts.values())
    known = {outcome for outcome, _ in exact}
    stray = {o: c for o, c in counts.items() if o not in known}
    assert not stray, (what, "outcomes play gave that the table lacks", stray)
    for cells in (pooled(exact, n), pooled(exact[::-1], n)):
        for outcomes, p in cells:
            k = sum(counts[o] for o in outcomes)
            assert binomial_p_value(k, n, p) >= P_VALUE, (what, outcomes, k / n, p, n)


def played(start: Any, n: int, one: Any, seed: int) -> Counter[Any]:
    """``one(game)`` on ``n`` fresh clones of ``start`` (a game) sharing one dice source seeded ``seed``."""
    from grognard.core.dice import SeededDice

    dice = SeededDice(seed)
    seen: Counter[Any] = Counter()
    for _ in range(n):
        game = start.clone()
        game.dice = dice
        seen[one(game)] += 1
    return seen


def option_values(ruleset: Any) -> list[tuple[str, Any]]:
    """Every value other than the default of each on/off or choice option of ``ruleset`` (a ``RuleSet``)."""
    out: list[tuple[str, Any]] = []
    for spec in ruleset.options:
        if spec.kind is bool:
            out.append((spec.name, not spec.default))
        elif spec.choices:
            out += [(spec.name, value) for value in spec.choices if value != spec.default]
    return out


def changed_rows(ruleset: Any, odds_tables: Any, option: str, value: Any) -> dict[str, list[tuple[Any, Any]]]:
    """The rows (parameter, mechanic) of each table ``odds_tables(options)`` prints otherwise at ``option = value``
    than at the defaults, by table name: a row whose parameter or distribution is new (a row printed the same is
    what the default's test plays)."""
    from grognard.analysis.odds import distribution_rows

    plain = {t.name: {p: distribution_rows(m) for p, m in t.rows} for t in odds_tables(ruleset.resolve({}))}
    out: dict[str, list[tuple[Any, Any]]] = {}
    for table in odds_tables(ruleset.resolve({option: value})):
        rows = [(p, m) for p, m in table.rows if plain.get(table.name, {}).get(p) != distribution_rows(m)]
        if rows:
            out[table.name] = rows
    return out


def option_cases(ruleset: Any, odds_tables: Any) -> list[tuple[str, Any, str]]:
    """(option, value, table) for every table an option's other value changes (``changed_rows``)."""
    return [
        (option, value, name)
        for option, value in option_values(ruleset)
        for name in changed_rows(ruleset, odds_tables, option, value)
    ]
