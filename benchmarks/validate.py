"""Time to load, schema-check and compile all built-in content (a figure, not a test).

    python benchmarks/validate.py [--runs 7]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # this checkout's engine, not an installed copy

from necronomicon.interpreter.content import load_content  # noqa: E402
from necronomicon.interpreter.content.schema_check import _validators  # noqa: E402


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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, metavar="1..1000", help="loads to time (default 7)")
    runs = ap.parse_args().runs
    if not 1 <= runs <= 1000:
        ap.error(f"--runs: {runs} is not between 1 and 1000")
    main(runs)
