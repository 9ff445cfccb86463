"""Small exact statistics on integer counts: Wilson intervals, paired comparisons, quantiles of a histogram.

>>> low, high = wilson(50, 100)
>>> round(low, 3), round(high, 3)
(0.404, 0.596)
>>> round(mcnemar(9, 1), 4)
0.0215
>>> quantile({1: 2, 2: 1, 5: 1}, 0.5)
1.5
"""

from __future__ import annotations

import math
from collections.abc import Mapping

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def mcnemar(gained: int, lost: int) -> float:
    """McNemar's exact two-sided p-value for paired wins: ``gained`` pairs the change won and the base lost,
    ``lost`` the other way (the pairs that agree carry no information). 1.0 when no pair differs."""
    n = gained + lost
    if n == 0:
        return 1.0
    k = min(gained, lost)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def paired_difference(gained: int, lost: int, pairs: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference of two win rates measured on the same ``pairs`` (game i of both on the same dice),
    with its 95% interval: (difference, low, high), as fractions of ``pairs``. The normal interval of the
    mean of the per-pair differences (+1 gained, -1 lost, 0 agreed), sample variance (n - 1)."""
    if pairs <= 0:
        return 0.0, -1.0, 1.0
    diff = (gained - lost) / pairs
    if pairs == 1:
        return diff, -1.0, 1.0
    variance = (gained + lost - pairs * diff * diff) / (pairs - 1)
    half = z * math.sqrt(max(variance, 0.0) / pairs)
    return diff, max(-1.0, diff - half), min(1.0, diff + half)


def quantile(histogram: Mapping[int, int], q: float) -> float | None:
    """The ``q`` quantile of integer values counted in ``histogram`` (the median's convention for even counts).

    Exact: it walks the counts, so a million games need no list of values.
    """
    total = sum(histogram.values())
    if total == 0:
        return None
    position = q * (total - 1)
    below, above = math.floor(position), math.ceil(position)
    low = high = None
    seen = 0
    for value in sorted(histogram):
        count = histogram[value]
        if low is None and seen + count > below:
            low = value
        if high is None and seen + count > above:
            high = value
            break
        seen += count
    assert low is not None and high is not None
    return low + (high - low) * (position - below)


def mean(histogram: Mapping[int, int]) -> float | None:
    """The mean of integer values counted in ``histogram``."""
    total = sum(histogram.values())
    if total == 0:
        return None
    return sum(value * count for value, count in histogram.items()) / total
