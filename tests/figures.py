"""Figures the soak, fuzz and property tests report (games, states checked, mutations tried...);
tests/conftest.py prints them at the end of every run, even with -q."""
from __future__ import annotations

from collections import defaultdict

FIGURES: dict[str, dict[str, int | float]] = defaultdict(dict)


def add(name: str, **counts: int) -> None:
    """Add counts to a named figure line (summed over the tests that report to it)."""
    line = FIGURES[name]
    for k, v in counts.items():
        line[k] = line.get(k, 0) + v


def lines() -> list[str]:
    return [f"{name}: " + ", ".join(f"{k} {v:,}" for k, v in counts.items())
            for name, counts in sorted(FIGURES.items()) if counts]
