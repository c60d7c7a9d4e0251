"""What C-level calls and typed fields (Cython declarations beside the source) could save at most in a
compiled decision: how many engine calls and attribute reads a decision makes, and what each costs.

    python benchmarks/decision_costs.py --ruleset duel --players 2 --games 10 --per-s 9000

Counts: seeded random games with the factions `measure.py` uses, played on the checkout's Python
source (the compiled core runs the same code, so it makes the same calls and reads). A profile hook
counts every call of an engine function or method, split into calls within one module and calls into
another module; a wrapper on the `__getattribute__` of every class of the engine, the effect language
and the content model counts the reads of their attributes (methods included), by class.

Costs: a two-module probe compiled with Cython as hatch_build.py compiles the core (its directives and
flags) times, in CPU time (the median of `--rounds`), a call of a function of another module, the
same with a keyword argument, a method call, a read of a `__slots__` field and of an instance
`__dict__` attribute, a dict subscript, and making a small dict and a small list.

The last lines multiply them: the CPU time a decision spends on calls and attribute reads alone; with
`--per-s` (a compiled figure from measure.py or compare.py) its share of a decision and the speed-up
if all of it went (what declarations that made every call a C call and every field a C field could
give, at most). Needs Cython and a C compiler (`pip install '.[bench]'`) for the costs.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.measure import FACTIONS  # noqa: E402

PACKAGE = "necronomicon.interpreter"
COUNTED = ("engine", "effects", "content")   # the subpackages whose classes' reads are counted

# The probe: `costs()` times each operation over `n` iterations (minus the empty loop), ns each.
_PROBE_A = '''
class Slots:
    __slots__ = ("s",)
    def __init__(self):
        self.s = 1
    def meth(self):
        return self.s
class Plain:
    def __init__(self):
        self.s = 1
def f(g, x):
    return x
def fk(g, x, y=None, z=None):
    return x
'''
_PROBE_B = '''
import time
from . import probe_a as a
def costs(n):
    o, p, u, k = a.Slots(), a.Plain(), {"id": 1, "owner": "x", "kind": "k", "loc": "y"}, 7
    clock = time.process_time_ns
    t = clock()
    for i in range(n): pass
    empty = clock() - t
    out = {}
    t = clock()
    for i in range(n): a.f(o, k)
    out["call of another module's function"] = clock() - t
    t = clock()
    for i in range(n): a.fk(o, k, z=k)
    out["the same, with a keyword argument"] = clock() - t
    t = clock()
    for i in range(n): o.meth()
    out["method call"] = clock() - t
    t = clock()
    for i in range(n): o.s
    out["__slots__ field read"] = clock() - t
    t = clock()
    for i in range(n): p.s
    out["__dict__ attribute read"] = clock() - t
    t = clock()
    for i in range(n): u["owner"]
    out["dict subscript"] = clock() - t
    t = clock()
    for i in range(n): {"a": k, "b": k}
    out["2-key dict made"] = clock() - t
    t = clock()
    for i in range(n): [k, k]
    out["2-item list made"] = clock() - t
    return {name: max(0.0, (ns - empty) / n) for name, ns in out.items()}
'''
_BUILD = """
import importlib.util, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("_hb", sys.argv[1])
hb = importlib.util.module_from_spec(spec); sys.modules[spec.name] = hb; spec.loader.exec_module(hb)
from Cython.Build import cythonize
from setuptools import Distribution, Extension
exts = [Extension("probe." + m, ["probe/" + m + ".py"], extra_compile_args=hb.compile_flags())
        for m in ("probe_a", "probe_b")]
exts = cythonize(exts, compiler_directives=hb.DIRECTIVES, quiet=True, force=True)
d = Distribution({"ext_modules": exts, "script_args": ["-q", "build_ext", "--inplace"]})
d.parse_command_line(); d.run_commands()
"""


def count(ruleset: str, players: int, games: int, seed: int) -> tuple[int, Counter[str], Counter[str]]:
    """(decisions, calls by 'same module'/'another module', attribute reads by class) of seeded random games."""
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.engine.agents import RandomAgent
    from necronomicon.interpreter.engine.game import Game
    content = load_content().require_ok()
    reads: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    undo = _wrap_classes(reads)

    def hook(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            callee = frame.f_globals.get("__name__", "")
            if callee.startswith(PACKAGE):
                caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back is not None else ""
                calls["same module" if caller == callee else "another module"] += 1

    decisions = 0
    try:
        for s in range(seed, seed + games):
            g = Game(content, ruleset, list(FACTIONS[ruleset, players]), s)
            agents = {p: RandomAgent(s * 7 + i) for i, p in enumerate(g.s.players)}
            sys.setprofile(hook)
            try:
                while (d := g.current()) is not None:
                    g.apply(agents[d.player].choose(d.player, d.options, d))
                    decisions += 1
            finally:
                sys.setprofile(None)
    finally:
        undo()
    return decisions, calls, reads


def _wrap_classes(reads: Counter[str]) -> Any:
    """Count reads of the attributes of every class defined in COUNTED's modules; returns the undo."""
    done: list[tuple[type, Any]] = []
    for name, module in list(sys.modules.items()):
        if not name.startswith(tuple(f"{PACKAGE}.{p}" for p in COUNTED)):
            continue
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != name or issubclass(cls, BaseException) \
                    or any(c is cls for c, _ in done):
                continue
            original = cls.__dict__.get("__getattribute__")
            try:
                cls.__getattribute__ = _counting(cls.__name__, cls.__getattribute__, reads)
            except (TypeError, AttributeError):
                continue
            done.append((cls, original))

    def undo() -> None:
        for cls, original in done:
            if original is None:
                del cls.__getattribute__
            else:
                cls.__getattribute__ = original
    return undo


def _counting(name: str, get: Any, reads: Counter[str]) -> Any:
    def getattribute(self: Any, attr: str) -> Any:
        reads[name] += 1
        return get(self, attr)
    return getattribute


def costs(rounds: int, n: int) -> dict[str, float]:
    """ns of CPU time per operation in compiled code (the probe, built as the core is built), median of rounds."""
    with tempfile.TemporaryDirectory(prefix="necro-costs-") as tmp:
        probe = Path(tmp) / "probe"
        probe.mkdir()
        (probe / "__init__.py").write_text("")
        (probe / "probe_a.py").write_text(_PROBE_A)
        (probe / "probe_b.py").write_text(_PROBE_B)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "NECRO_"))}
        r = subprocess.run([sys.executable, "-c", _BUILD, str(ROOT / "hatch_build.py")], cwd=tmp, env=env,
                           capture_output=True, text=True, check=False)
        if r.returncode != 0:
            raise SystemExit(f"decision_costs: the probe could not be compiled: "
                             f"{(r.stderr.strip().splitlines() or ['no output'])[-1]}")
        sys.path.insert(0, tmp)
        try:
            probe_b = importlib.import_module("probe.probe_b")
            runs = [probe_b.costs(n) for _ in range(rounds)]
        finally:
            sys.path.remove(tmp)
            for m in [m for m in sys.modules if m == "probe" or m.startswith("probe.")]:
                del sys.modules[m]
            shutil.rmtree(probe / "build", ignore_errors=True)
    return {name: statistics.median(run[name] for run in runs) for name in runs[0]}


def report(decisions: int, calls: Counter[str], reads: Counter[str], unit: dict[str, float] | None,
           per_s: float | None) -> str:
    lines = [f"{decisions} decisions; per decision:"]
    for what in ("same module", "another module"):
        lines.append(f"  engine calls within {what:15} {calls[what] / decisions:8.1f}")
    total_reads = sum(reads.values())
    lines.append(f"  attribute reads of the engine's objects {total_reads / decisions:6.1f}: " + ", ".join(
        f"{cls} {k / decisions:.1f}" for cls, k in reads.most_common(8)))
    if unit is None:
        return "\n".join(lines)
    lines.append("compiled, ns of CPU time each (median of rounds):")
    lines += [f"  {name:36} {ns:6.1f}" for name, ns in unit.items()]
    call_ns = (calls["same module"] + calls["another module"]) / decisions * unit["call of another module's function"]
    read_ns = total_reads / decisions * statistics.mean((unit["__slots__ field read"], unit["__dict__ attribute read"]))
    spent = (call_ns + read_ns) / 1000
    lines.append(f"calls {call_ns / 1000:.1f} µs + attribute reads {read_ns / 1000:.1f} µs = {spent:.1f} µs a decision")
    if per_s:
        decision_us = 1e6 / per_s
        share = spent / decision_us
        lines.append(f"of a {decision_us:.0f} µs decision ({per_s:,.0f}/s): {share:.0%}; all of it gone: at most "
                     f"{1 / max(1e-9, 1 - share):.2f}x")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ruleset", default="duel", choices=sorted({r for r, _ in FACTIONS}))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5, help="rounds of the cost probe (default 5)")
    ap.add_argument("--per-s", type=float, help="the compiled core's decisions/s in these games (measure.py)")
    ap.add_argument("--no-costs", action="store_true", help="only the counts (no Cython needed)")
    args = ap.parse_args(argv)
    if (args.ruleset, args.players) not in FACTIONS:
        ap.error(f"no factions set for {args.ruleset} with {args.players} players "
                 f"(known: {', '.join(f'{r} {n}' for r, n in FACTIONS)})")
    if args.games < 1 or args.rounds < 1 or (args.per_s is not None and args.per_s <= 0):
        ap.error("--games and --rounds are at least 1, --per-s above 0")
    decisions, calls, reads = count(args.ruleset, args.players, args.games, args.seed)
    unit = None if args.no_costs else costs(args.rounds, 1_000_000)
    print(report(decisions, calls, reads, unit, args.per_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
