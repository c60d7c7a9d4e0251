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


__all__ = ["Z95", "describe", "proportion", "quantile", "wilson"]
