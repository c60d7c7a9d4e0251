"""The default compiled core against the full one, built from the working tree and measured in the same run.

    python benchmarks/compiled_set.py                          # full vs default, 3 rounds, 20 games per figure
    python benchmarks/compiled_set.py --builds full,default,default:-O2 --rounds 5 --json out.json

Each build is the working tree's engine and content copied into a temporary folder with its core
compiled there by hatch_build.py in a fresh process: `full` as `NECRO_COMPILE_ALL=1` builds it
(every module of CORE, Python's own optimisation), `default` as plain `pip install .` builds it
(CORE without PYTHON_BY_DEFAULT, at hatch_build.DEFAULT_OPTIMIZATION), `default:FLAG` the default
set at another optimisation (`default:-O2`). For each build it prints the CPU time the build took
(user + system of Cython and the compiler, every process) and its wall time; then compare.py's
figures for every build, interleaved round by round (CPU time of each measuring process), with each
build's ratio to the first one, round by round (median and range). Needs Cython
(`pip install '.[bench]'`) and a C compiler.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import compare  # noqa: E402  (the figures and their measuring processes)

ROOT = HERE.parent
_BUILD = """
import importlib.util, sys
from pathlib import Path
tree, kind, flag = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
spec = importlib.util.spec_from_file_location("_necro_tree_hatch_build", tree / "hatch_build.py")
hb = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = hb
spec.loader.exec_module(hb)
if flag:
    hb.DEFAULT_OPTIMIZATION = flag
try:
    print(len(hb.compile_core(tree, tree, everything=kind == "full")))
except hb.CoreBuildError as exc:
    sys.exit(str(exc))
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(spec: str, into: Path) -> dict[str, Any]:
    """The working tree copied into `into` and compiled as `spec` says; its CPU and wall seconds."""
    kind, _, flag = spec.partition(":")
    if kind not in ("full", "default"):
        raise SystemExit(f"compiled_set: a build is full, default or default:FLAG, not {spec!r}")
    for part in compare.TREE_PARTS:
        shutil.copytree(ROOT / part, into / part, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    shutil.copy2(ROOT / "hatch_build.py", into / "hatch_build.py")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "NECRO_"))}
    cpu, wall = _children_cpu(), time.monotonic()
    r = subprocess.run([sys.executable, "-c", _BUILD, str(into), kind, flag], cwd=into, env=env,
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise SystemExit(f"compiled_set: {spec}: {(r.stderr.strip().splitlines() or ['failed'])[-1]}")
    return {"modules": int(r.stdout.split()[-1]), "cpu_s": _children_cpu() - cpu, "wall_s": time.monotonic() - wall,
            "load": os.getloadavg()[0]}


def table(builds: dict[str, dict[str, Any]], figures: dict[str, dict[str, Any]]) -> str:
    """Per figure, each build's median (range) and its ratio to the first build, round by round."""
    names = list(builds)
    first = names[0]
    lines = [f"{n}: {b['modules']} modules compiled in {b['cpu_s']:.0f} s CPU, {b['wall_s']:.0f} s wall "
             f"(load {b['load']:.1f} at the end)" for n, b in builds.items()]
    lines.append("")
    for name, f in figures.items():
        cells = []
        for n in names:
            vals = f[n]
            if not vals or None in vals:
                cells.append(f"{n} n/a")
                continue
            cell = f"{n} {statistics.median(vals):,.1f} ({min(vals):,.1f}–{max(vals):,.1f})"
            if n != first:
                ratios = [v / w for v, w in zip(vals, f[first])]
                cell += f" = {statistics.median(ratios):.3f}× ({min(ratios):.3f}–{max(ratios):.3f})"
            cells.append(cell)
        same = {e["answers"] for n in names for e in f["extra"][n] if "answers" in e}
        lines.append(f"{name}: " + "; ".join(cells) + ("" if len(same) <= 1 else "  DIFFERENT GAMES"))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builds", default="full,default", help="comma list of full, default, default:FLAG "
                                                              "(default: full,default; ratios are to the first)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of every figure for every build (default 3)")
    ap.add_argument("--games", type=int, default=20, help="seeded games per decisions/s figure (default 20)")
    ap.add_argument("--per-setup", type=int, default=10, help="positions per setting for clone/to_json/from_json")
    ap.add_argument("--timeout", type=float, default=900, help="seconds allowed to one measuring process")
    ap.add_argument("--json", type=Path, help="also write every build, figure and round to this file")
    args = ap.parse_args(argv)
    specs = [s.strip() for s in args.builds.split(",") if s.strip()]
    if len(specs) != len(set(specs)) or not specs or args.rounds < 1 or args.games < 1:
        ap.error("--builds names each build once; --rounds and --games are at least 1")
    with tempfile.TemporaryDirectory(prefix="necro-compiled-set-") as tmp:
        builds, trees = {}, {}
        for spec in specs:
            print(f"building {spec}", file=sys.stderr, flush=True)
            trees[spec] = Path(tmp) / spec.replace(":", "_")
            builds[spec] = build(spec, trees[spec])
        figures = compare.collect(trees, args.rounds, args.games, args.per_setup, args.timeout)
    print(table(builds, figures))
    if args.json:
        args.json.write_text(json.dumps({"builds": builds, "figures": figures, "rounds": args.rounds,
                                         "games": args.games}, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
