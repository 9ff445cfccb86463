"""Comparing what play did with an exact distribution, so that a test is never flaky.

Outcomes whose expected count is small are pooled (into the neighbouring cells, in outcome order) until
each pooled cell expects at least ``MIN_EXPECTED``; then every pooled cell's share must lie within
``SIGMAS`` standard errors of its exact probability. With fixed seeds the verdict never changes from
run to run; with these margins a correct engine passes whatever the seed (a 5-sigma miss is about one
in 1.7 million a cell), and a wrong one (a cap not applied) fails by many sigmas.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

MIN_EXPECTED = 10.0
SIGMAS = 5.0


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


def check(seen: Counter[Any] | Iterable[Any], exact: list[tuple[Any, Fraction]], what: Any) -> None:
    """Assert the outcomes ``seen`` (a Counter or the outcomes themselves) follow ``exact``; none off it."""
    counts = seen if isinstance(seen, Counter) else Counter(seen)
    n = sum(counts.values())
    known = {outcome for outcome, _ in exact}
    stray = {o: c for o, c in counts.items() if o not in known}
    assert not stray, (what, "outcomes play gave that the table lacks", stray)
    for outcomes, p in pooled(exact, n):
        observed = sum(counts[o] for o in outcomes) / n
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(observed - p) <= SIGMAS * se + 1e-9, (what, outcomes, observed, p, n)
