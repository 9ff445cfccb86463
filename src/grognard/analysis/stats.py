"""Small exact statistics on integer counts: Wilson intervals, quantiles of a histogram.

>>> low, high = wilson(50, 100)
>>> round(low, 3), round(high, 3)
(0.404, 0.596)
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
