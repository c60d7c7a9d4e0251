"""Small statistics for balance reports: Wilson score intervals and summaries of a sample.

>>> lo, hi = wilson(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
"""
from __future__ import annotations

import math
import statistics
from typing import Sequence

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) when there are no trials.

    Wilson, E. B. (1927), "Probable inference, the law of succession, and statistical inference",
    JASA 22: 209-212. Unlike the normal (Wald) interval it stays inside [0, 1] and behaves at 0 and n.
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and {trials}, got {successes}")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # the interval holds the observed rate; at 0 and n rounding could leave it a hair outside
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def proportion(successes: int, trials: int) -> dict[str, float | int | list[float]]:
    """A proportion with its count, trials and 95% Wilson interval, as JSON-ready data."""
    lo, hi = wilson(successes, trials)
    return {"wins": successes, "games": trials, "rate": successes / trials if trials else 0.0, "ci": [lo, hi]}


def paired_difference(first_only: int, second_only: int, pairs: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference of two paired proportions, first minus second, with its 95% interval: of
    `pairs` pairs, `first_only` succeed in the first member only and `second_only` in the second
    only (the pairs alike in both do not move the difference but narrow its interval). Returns
    (difference, low, high); (0, -1, 1) when there are no pairs.

    Tango's score interval: Tango, T. (1998), "Equivalence test and confidence interval for the
    difference in proportions for the paired-sample design", Statistics in Medicine 17: 891-908.
    Unlike the Wald interval it stays inside [-1, 1] and is not empty when no pair differs.

    >>> d, lo, hi = paired_difference(8, 0, 60)   # 8 of 60 pairs differ, all the same way
    >>> round(d, 3), round(lo, 3), round(hi, 3)
    (0.133, 0.065, 0.242)
    """
    if pairs <= 0:
        return (0.0, -1.0, 1.0)
    if first_only < 0 or second_only < 0 or first_only + second_only > pairs:
        raise ValueError(f"the pairs that differ ({first_only} + {second_only}) must fit in {pairs} pairs")
    n, b, c = pairs, first_only, second_only
    diff = (b - c) / n

    def score(delta: float) -> float:   # decreasing in delta: 0 at the observed difference
        # q, the estimate of P(second only) restricted to a difference of delta, solves
        # 2n q² + lin q - c delta (1 - delta) = 0
        lin = -b - c + (2 * n - b + c) * delta
        q = (math.sqrt(max(0.0, lin * lin + 8 * n * c * delta * (1 - delta))) - lin) / (4 * n)
        var = n * (2 * q + delta * (1 - delta))
        return (b - c - n * delta) / math.sqrt(var) if var > 0 else math.copysign(math.inf, b - c - n * delta)

    def root(target: float, lo: float, hi: float) -> float:   # score(root) == target, by bisection
        for _ in range(60):
            mid = (lo + hi) / 2
            if score(mid) > target:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    low = -1.0 if diff <= -1 else root(z, -1.0, diff)
    high = 1.0 if diff >= 1 else root(-z, diff, 1.0)
    return (diff, low, high)


def describe(values: Sequence[float]) -> dict[str, float | int | None]:
    """Count, mean, median, min and max of a sample (None for an empty one)."""
    if not values:
        return {"count": 0, "mean": None, "median": None, "min": None, "max": None}
    return {"count": len(values), "mean": statistics.fmean(values), "median": statistics.median(values),
            "min": min(values), "max": max(values)}


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile of an already sorted, non-empty sample (linear interpolation)."""
    if not sorted_values:
        raise ValueError("quantile of an empty sample")
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


__all__ = ["Z95", "describe", "paired_difference", "proportion", "quantile", "wilson"]
