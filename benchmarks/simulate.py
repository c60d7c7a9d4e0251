"""`necro simulate` throughput: games/s with 1 and 2 worker processes and the speed-up, and
optionally the Ray backend. Wall time includes starting the workers and loading their content,
as a user of `necro simulate` sees it; the rows are checked to be identical."""
from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # this checkout's engine, not an installed copy

from necronomicon.interpreter.content import load_content
from necronomicon.tools.runners import ContentArgs, run
from necronomicon.tools.simulate import plan


def _cpu() -> float:
    """CPU seconds of this process and its reaped children (the pool's workers, after shutdown)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(label: str, specs: list, **kw: object) -> tuple[float, list[dict]]:
    """Run the batch; print wall time, games/s, the start-up (time to the first finished game) and
    the CPU time spent here and in the pool's workers (Ray's workers are not counted)."""
    c0 = _cpu()
    t0 = time.perf_counter()
    first = None
    rows = []
    for r in run(specs, ContentArgs(), **kw):  # type: ignore[arg-type]
        first = first or time.perf_counter() - t0
        rows.append(r)
    dt = time.perf_counter() - t0
    cpu = "" if kw.get("backend") == "ray" else f", {_cpu() - c0:.2f} CPU s"
    print(f"{label:<14} {len(specs)} games in {dt:6.2f} s: {len(specs) / dt:6.1f} games/s "
          f"(first game done after {first or 0:.2f} s{cpu})")
    return dt, sorted(rows, key=lambda r: r["game"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--ruleset", default="duel")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--agents", default="heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ray", action="store_true", help="also time the ray backend (a local Ray, 2 CPUs)")
    args = ap.parse_args()
    content = load_content().require_ok()
    factions = content.model.rulesets[args.ruleset].get("default-factions", {})[str(args.players)]
    specs = plan(args.ruleset, args.games, args.seed, [args.agents], factions=list(factions))
    print(f"{args.ruleset}, {', '.join(factions)}, {args.agents} bots, seeds {args.seed}..{args.seed + args.games - 1}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    t1, rows1 = timed("--jobs 1", specs, jobs=1, content=content)
    t2, rows2 = timed("--jobs 2", specs, jobs=2, content=content)
    print(f"speed-up with 2 jobs: {t1 / t2:.2f}x" + ("" if rows1 == rows2 else "  (ROWS DIFFER!)"))
    if args.ray:
        if importlib.util.find_spec("ray") is None:
            print("ray: not installed (pip install 'necronomicon[ray]')")
            return
        tr, rowsr = timed("--backend ray", specs, backend="ray", jobs=2)
        print(f"ray against --jobs 1: {t1 / tr:.2f}x" + ("" if rowsr == rows1 else "  (ROWS DIFFER!)"))
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
