"""The working tree against an earlier revision, measured in the same run.

    python benchmarks/compare.py                       # against HEAD~1, 5 rounds, 20 games per figure
    python benchmarks/compare.py --base main --rounds 3 --games 5 --json out.json

The base revision is extracted with `git archive` into a temporary folder (no network, the
repository is not touched). Each round runs every figure once for each tree, interleaved (the
order of the two trees alternates from round to round), each in a fresh process running the
current tree's `benchmarks/measure.py` against that tree's `interpreter/` and content. Times are
CPU time of the measuring process. For each figure the table shows the median and range over the
rounds for both trees, and the ratio current/base (median and range of the round-by-round ratios,
so a drift of the machine's speed during the run cancels out). Decisions/s: higher is better;
times: lower is better.

A third tree, "compiled", is the working tree with its compiled core (hatch_build.py: what `pip
install .` ships) built into a temporary copy, so the table shows what the Python engine gains and
what compiling it adds, each against the same base. A fourth, "base compiled", is the base with
its own core built by its own hatch_build.py, as `pip install .` of that revision builds it (a
base without hatch_build.py has no such column), and compiled/base compiled is the speed-up players
get. Both cores are built alike: profile-guided only when NECRO_PGO=1 asks (a base whose build was
profile-guided by default is then built without the training, as NECRO_PGO=0 asked of it). They
need Cython (`pip install '.[bench]'`); without it, or with --no-compiled, those columns are left out.
The base's core is kept in a cache (`--cache DIR`, default `~/.cache/necro-compare`), keyed by its
commit and everything that changes its build (NECRO_PGO, NECRO_COMPILE_ALL, Python, Cython,
machine), so the next run against the same base skips its build; `--no-cache` builds it afresh.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MEASURE = HERE / "measure.py"
# what measure.py reads of a tree: its engine, content, schemas and grammar
TREE_PARTS = ("interpreter", "content", "schema", "grammar")

# (figure name, measure.py arguments) for the decisions/s figures
PLAYOUTS = [("Duel random", ["--ruleset", "duel", "--players", "2", "--agent", "random"]),
            ("4p random", ["--ruleset", "multiplayer", "--players", "4", "--agent", "random"]),
            ("4p heuristic", ["--ruleset", "multiplayer", "--players", "4", "--agent", "heuristic"])]
POSITION_FIGURES = [("clone() median", "clone", "median"), ("clone() max", "clone", "max"),
                    ("to_json() median", "to_json", "median"), ("from_json() median", "from_json", "median")]


class CompareError(Exception):
    """A revision that cannot be found or extracted."""


def git(*args: str) -> str:
    r = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise CompareError(f"git {' '.join(args)}: {r.stderr.strip() or r.stdout.strip()}")
    return r.stdout.strip()


def extract(rev: str, into: Path) -> str:
    """Write revision `rev`'s files into `into`; return its commit id."""
    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    tar = into.parent / "base.tar"
    with open(tar, "wb") as fh:
        r = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, stdout=fh,
                           stderr=subprocess.PIPE, check=False)
    if r.returncode != 0:
        raise CompareError(f"git archive {commit}: {r.stderr.decode().strip()}")
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    tar.unlink()
    return commit


# Runs a tree's own hatch_build.compile_core(TREE, TREE, train=...) in a fresh process: a base's
# build script is imported by its path, under its own name, never beside the working tree's.
_BUILD = """
import importlib.util, os, sys
from pathlib import Path
tree, train = Path(sys.argv[1]), sys.argv[2] == "1"
spec = importlib.util.spec_from_file_location("_necro_tree_hatch_build", tree / "hatch_build.py")
hb = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = hb
spec.loader.exec_module(hb)
# as `pip install .` of that tree builds it: the full build where it tells one apart and the environment asks
full = {"everything": hb.full_build_asked(os.environ)} if hasattr(hb, "full_build_asked") else {}
try:
    hb.compile_core(tree, tree, train=train, notice=print, **full)   # its notices on stdout, the compiler's on stderr
except hb.CoreBuildError as exc:
    sys.exit(str(exc))
"""
BUILD_TIMEOUT = 3600   # seconds one tree's core may take to compile on a busy machine


def compiled_copy(source: Path, into: Path) -> Path:
    """`source`'s engine and content copied into `into`, its core compiled in place by `source`'s
    own hatch_build.py (as `pip install .` of that tree builds it: profile-guided only when
    NECRO_PGO=1 asks)."""
    if not (source / "hatch_build.py").is_file():
        raise CompareError(f"{source.name} has no hatch_build.py, so no compiled core")
    for part in TREE_PARTS:
        if (source / part).is_dir():
            shutil.copytree(source / part, into / part,
                            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    shutil.copy2(source / "hatch_build.py", into / "hatch_build.py")
    train = "1" if os.environ.get("NECRO_PGO", "").strip() == "1" else "0"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["NECRO_PGO"] = train   # a base whose build read NECRO_PGO=0 as "no training"
    try:
        r = subprocess.run([sys.executable, "-c", _BUILD, str(into), train], cwd=into, env=env,
                           capture_output=True, text=True, timeout=BUILD_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise CompareError(f"the compiled core of {source} took more than {BUILD_TIMEOUT} s") from None
    for line in r.stdout.strip().splitlines():   # the build's notices (no profile, say); not the C warnings
        _say(line)
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[-1]
        raise CompareError(f"the compiled core could not be built from {source}: {last}")
    return into


def default_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "necro-compare"


def cache_key(commit: str) -> str:
    """What a base's compiled core depends on besides its commit: how it is built and by what."""
    try:
        import Cython
        cython = Cython.__version__
    except ImportError:
        cython = "none"
    pgo = os.environ.get("NECRO_PGO", "").strip() == "1"
    full = os.environ.get("NECRO_COMPILE_ALL", "").strip() not in ("", "0")
    py = "".join(map(str, sys.version_info[:2]))
    return f"{commit[:20]}-py{py}-cython{cython}-{platform.machine()}-pgo{int(pgo)}-all{int(full)}"


def cached_core(source: Path, commit: str, tmp: Path, cache: Path | None) -> Path:
    """`source`'s compiled copy (compiled_copy), taken from `cache` when a run before built it with
    the same key, and left there for the next run; with no cache, built in `tmp`."""
    if cache is None:
        return compiled_copy(source, _made(tmp / "base-compiled"))
    kept = cache / cache_key(commit)
    if (kept / ".complete").is_file():
        _say(f"the base's compiled core from the cache ({kept}; --no-cache builds it again)")
        return kept
    built = compiled_copy(source, _made(tmp / "base-compiled"))
    try:
        cache.mkdir(parents=True, exist_ok=True)
        part = cache / f".{kept.name}.{os.getpid()}"
        shutil.rmtree(part, ignore_errors=True)
        shutil.copytree(built, part)
        (part / ".complete").write_text(commit + "\n")
        shutil.rmtree(kept, ignore_errors=True)
        part.rename(kept)
    except OSError as exc:   # a cache that cannot be written only costs the next run a build
        _say(f"the base's compiled core was not cached in {cache}: {exc}")
    return built


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True)
    return folder


def _say(why: str) -> None:
    print(f"compare: {why}", file=sys.stderr)


def run_measure(tree: Path, args: list[str], timeout: float) -> dict[str, Any]:
    """One figure for one tree, in a fresh process with a fixed hash seed and nothing else on the path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    cmd = [sys.executable, str(MEASURE), "--root", str(tree), *args]
    try:
        r = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"na": f"no result within {timeout:.0f} s"}
    if r.returncode != 0 or not r.stdout.strip():
        last = (r.stderr.strip().splitlines() or ["no output"])[-1]
        return {"na": f"failed: {last}"}
    return json.loads(r.stdout.strip().splitlines()[-1])


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def collect(trees: dict[str, Path], rounds: int, games: int, per_setup: int, timeout: float,
            progress: bool = True) -> dict[str, dict[str, Any]]:
    """Every figure: per tree the value of each round (or an 'na' reason)."""
    sides = list(trees)
    figures: dict[str, dict[str, Any]] = {}
    for name, unit, better in ([(f"{n} (decisions/s)", "decisions/s", "higher") for n, _ in PLAYOUTS]
                               + [(f"{n} (µs)", "µs", "lower") for n, _, _ in POSITION_FIGURES]):
        figures[name] = {"unit": unit, "better": better, **{side: [] for side in sides},
                         "extra": {side: [] for side in sides}}
    jobs: list[tuple[str, list[str]]] = [(f"{n} (decisions/s)", ["decisions", *a, "--games", str(games)])
                                         for n, a in PLAYOUTS]
    jobs.append(("positions", ["positions", "--per-setup", str(per_setup)]))
    for r in range(rounds):
        order = sides if r % 2 == 0 else sides[::-1]
        for fig, args in jobs:
            for side in order:
                if progress:
                    print(f"round {r + 1}/{rounds}: {fig} ({side})", file=sys.stderr, flush=True)
                out = run_measure(trees[side], args, timeout)
                if fig == "positions":
                    _add_positions(figures, side, out)
                elif "na" in out:
                    figures[fig][side].append(None)
                    figures[fig]["na_" + side] = out["na"]
                else:
                    figures[fig][side].append(out["per_s"])
                    figures[fig]["extra"][side].append({"decisions": out["decisions"], "answers": out["answers"]})
    return figures


def _add_positions(figures: dict[str, dict[str, Any]], side: str, out: dict[str, Any]) -> None:
    for label, key, stat in POSITION_FIGURES:
        name = f"{label} (µs)"
        part = out.get(key, out) if "na" not in out else out
        if "na" in part:
            figures[name][side].append(None)
            figures[name]["na_" + side] = part["na"]
            continue
        us = part["us"]
        figures[name][side].append(statistics.median(us) if stat == "median" else max(us))
        figures[name]["extra"][side].append({"positions": len(us)})


SIDES = ("base", "current", "compiled", "base_compiled")
# (numerator, denominator, key) of each ratio the table shows, round by round
RATIOS = [("current", "base", "ratio_stats"), ("compiled", "base", "ratio_compiled_stats"),
          ("compiled", "base_compiled", "ratio_compiled_base_compiled_stats")]


def _sides(f: dict[str, Any]) -> list[str]:
    return [side for side in SIDES if side in f]


def summarise(figures: dict[str, dict[str, Any]]) -> None:
    """Add median/min/max per side and the round-by-round ratios (`ratio_stats`: current/base;
    `ratio_compiled_stats`: compiled/base; `ratio_compiled_base_compiled_stats`: compiled/base
    compiled)."""
    for f in figures.values():
        sides = _sides(f)
        for side in sides:
            vals = [v for v in f[side] if v is not None]
            f[side + "_stats"] = _spread(vals) if vals and len(vals) == len(f[side]) else None
        for top, bottom, key in RATIOS:
            if top not in sides or bottom not in sides:
                continue
            pairs = [(b, c) for b, c in zip(f[bottom], f[top]) if b and c is not None]
            f[key] = _spread([c / b for b, c in pairs]) if pairs and len(pairs) == len(f[bottom]) else None
        ex = f.pop("extra")
        answers = {side: {e["answers"] for e in ex[side] if "answers" in e} for side in sides}
        if all(answers.values()):
            f["same_games"] = len(set().union(*answers.values())) == 1
            f["decisions"] = {side: ex[side][0]["decisions"] for side in sides}
        if ex["current"] and "positions" in ex["current"][0]:
            f["positions"] = ex["current"][0]["positions"]


def _fmt(v: float, unit: str) -> str:
    if unit == "µs":
        return f"{v:,.0f}" if v >= 100 else f"{v:,.1f}"
    return f"{v:,.0f}"


def _cell(stats: dict[str, float] | None, unit: str) -> str:
    if stats is None:
        return "n/a"
    return f"{_fmt(stats['median'], unit)} ({_fmt(stats['min'], unit)}–{_fmt(stats['max'], unit)})"


def _ratio(r: dict[str, float] | None) -> str:
    return "n/a" if r is None else f"{r['median']:.2f}× ({r['min']:.2f}–{r['max']:.2f})"


def table(result: dict[str, Any]) -> str:
    """The figures as a readable text table, with notes (n/a reasons, games that differ)."""
    figures = result["figures"]
    compiled = any("compiled" in f for f in figures.values())
    base_compiled = any("base_compiled" in f for f in figures.values())
    rows = [("figure", f"base {result['base']['commit'][:10]}", "current", "current/base")
            + (("compiled", "compiled/base") if compiled else ())
            + (("base compiled", "compiled/base compiled") if base_compiled else ())]
    notes: list[str] = []
    for name, f in figures.items():
        unit = f["unit"]
        row = (name, _cell(f["base_stats"], unit), _cell(f["current_stats"], unit), _ratio(f["ratio_stats"]))
        if compiled:
            row += (_cell(f.get("compiled_stats"), unit), _ratio(f.get("ratio_compiled_stats")))
        if base_compiled:
            row += (_cell(f.get("base_compiled_stats"), unit), _ratio(f.get("ratio_compiled_base_compiled_stats")))
        rows.append(row)
        for side in _sides(f):
            if f.get("na_" + side):
                notes.append(f"{name}, {side}: n/a ({f['na_' + side]})")
        if f.get("same_games") is False:
            d = " vs ".join(str(n) for n in f["decisions"].values())
            notes.append(f"{name}: the trees played different games ({d} decisions)")
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    pos = next((f.get("positions") for f in figures.values() if f.get("positions")), None)
    head = [f"base: {result['base']['rev']} = {result['base']['commit'][:10]}; current: working tree "
            f"{result['current']['commit'][:10]}{' + changes' if result['current']['dirty'] else ''}",
            f"{result['rounds']} rounds, interleaved; CPU time; {result['games']} seeded games per decisions/s "
            f"figure" + (f"; {pos} positions (clone: fastest of 3 calls per position)" if pos else ""),
            "median (min–max over rounds); ratio = current/base, round by round (decisions/s: higher is "
            "faster; µs: lower is faster)"]
    if compiled:
        head.append("compiled: the working tree with its core compiled by hatch_build.py (what `pip install .` "
                    "ships), ratio against the same base")
    if base_compiled:
        head.append("base compiled: the base with its core compiled by its own hatch_build.py, built as the "
                    "compiled column is (profile-guided only with NECRO_PGO=1)")
    if result.get("base_compiled_na"):
        head.append(f"base compiled: n/a ({result['base_compiled_na']})")
    head.append("")
    return "\n".join(head + lines + ([""] + notes if notes else []))


def _has_cython() -> bool:
    try:
        import Cython  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="HEAD~1", help="the revision to compare against (default: HEAD~1)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds of every figure for both trees (default 5)")
    ap.add_argument("--games", type=int, default=20, help="seeded games per decisions/s figure (default 20)")
    ap.add_argument("--per-setup", type=int, default=25,
                    help="positions per ruleset/player count/expansion setting, 10 settings (default 25: 250)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds allowed to one measuring process")
    ap.add_argument("--json", type=Path, help="also write every figure and round to this file")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ap.add_argument("--no-compiled", action="store_true",
                    help="leave out the working tree with its compiled core (built with Cython: pip install '.[bench]')")
    ap.add_argument("--cache", type=Path, default=default_cache(),
                    help="where the base's compiled core is kept between runs (default ~/.cache/necro-compare)")
    ap.add_argument("--no-cache", action="store_true", help="build the base's compiled core afresh, keep nothing")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.games < 1 or args.per_setup < 1:
        ap.error("--rounds, --games and --per-setup must be at least 1")
    try:
        with tempfile.TemporaryDirectory(prefix="necro-compare-") as tmp:
            base_tree = Path(tmp) / "base"
            base_tree.mkdir()
            commit = extract(args.base, base_tree)
            head = git("rev-parse", "HEAD")
            dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
            trees = {"base": base_tree, "current": ROOT}
            base_compiled_na = ""
            if not args.no_compiled and _has_cython():
                if not args.quiet:
                    print("building the working tree's and the base's compiled cores as pip install . "
                          "builds each (a few minutes)", file=sys.stderr, flush=True)
                trees["compiled"] = compiled_copy(ROOT, _made(Path(tmp) / "compiled"))
                try:
                    trees["base_compiled"] = cached_core(base_tree, commit, Path(tmp),
                                                         None if args.no_cache else args.cache)
                except CompareError as exc:
                    base_compiled_na = str(exc)
                    _say(f"no base compiled column: {exc}")
            elif not args.no_compiled:
                print("compare: no Cython here, so no compiled column (pip install '.[bench]')", file=sys.stderr)
            figures = collect(trees, args.rounds, args.games, args.per_setup, args.timeout,
                              progress=not args.quiet)
    except CompareError as exc:
        print(f"compare: {exc}", file=sys.stderr)
        return 2
    summarise(figures)
    result = {"base": {"rev": args.base, "commit": commit}, "current": {"commit": head, "dirty": dirty},
              "rounds": args.rounds, "games": args.games, "per_setup": args.per_setup, "figures": figures,
              "base_compiled_na": base_compiled_na}
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
