"""Time to load, schema-check and compile all built-in content (a figure, not a test)."""
from __future__ import annotations

import statistics
import time

from interpreter.content import load_content
from interpreter.content.schema_check import _validators


def main(runs: int = 7) -> None:
    _validators()  # schemas are compiled once per process; measure content work
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        c = load_content(expansions="all")
        times.append(time.perf_counter() - t)
    m = c.model
    abilities = sum(len(f.abilities) + sum(len(b.abilities) for b in f.spellbooks.values())
                    + sum(len(u.abilities) for u in f.units.values()) for f in m.factions.values())
    print(f"content: {len(m.factions)} factions, {abilities} abilities, {len(m.layouts)} layouts, "
          f"{len(m.rulesets)} rulesets; ok={c.ok}")
    print(f"load + validate + compile: median {statistics.median(times) * 1000:.0f} ms, "
          f"best {min(times) * 1000:.0f} ms over {runs} runs")


if __name__ == "__main__":
    main()
