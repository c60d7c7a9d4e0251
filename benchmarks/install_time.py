"""How long `pip install .` takes: wall time and CPU time, in a fresh virtualenv each round.

    python benchmarks/install_time.py                          # one round of the default build
    python benchmarks/install_time.py --rounds 3 --env NECRO_COMPILE_ALL=1 --json out.json

The dependencies are cached first, so that the rounds time the install and not the network:
`pip download` puts every build requirement (pyproject.toml's [build-system] requires) and every
dependency, as wheels, into `--wheelhouse` (default ~/.cache/necronomicon/install-wheels, filled
once and reused). Each round then copies the working tree (without .git, .venv, build/ and
compiled files) into a temporary folder, makes a fresh virtualenv there (not timed) and runs
`python -m pip install .` in it with PIP_NO_INDEX=1 and PIP_FIND_LINKS=the wheelhouse (pip's
isolated build environment reads both), timing it: wall seconds, and CPU seconds (user + system)
of pip and every process under it (the build hook's Cython and C compiler included). The machine's
core count and its load average before and after each round are printed with the figures.
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
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WHEELHOUSE = Path.home() / ".cache" / "necronomicon" / "install-wheels"
LEFT_OUT = shutil.ignore_patterns(".git", ".venv", ".venv-*", "build", "dist", "__pycache__", "*.so", "*.pyd",
                                  "*.egg-info", ".hypothesis", ".pytest_cache")
PIP_TIMEOUT = 3600   # seconds one install may take on a busy machine


class InstallTimeError(Exception):
    """A step that failed: the download, the virtualenv or the install."""


def requirements(root: Path) -> list[str]:
    """The build requirements and the dependencies pyproject.toml names."""
    project = tomllib.loads((root / "pyproject.toml").read_text())
    return [*project["build-system"]["requires"], *project["project"]["dependencies"]]


def _run(cmd: list[str], what: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(cmd, capture_output=True, text=True, check=False, **kwargs)
    if r.returncode != 0:
        last = (r.stderr.strip() or r.stdout.strip() or f"exit {r.returncode}").splitlines()[-1]
        raise InstallTimeError(f"{what}: {last}")
    return r


def fill_wheelhouse(wheelhouse: Path, root: Path) -> None:
    """Download every requirement (and theirs) as wheels into `wheelhouse` (pip skips what is there)."""
    wheelhouse.mkdir(parents=True, exist_ok=True)
    _run([sys.executable, "-m", "pip", "download", "--quiet", "--only-binary", ":all:", "--dest", str(wheelhouse),
          *requirements(root)], "pip download", timeout=PIP_TIMEOUT)


def _children_cpu() -> tuple[float, float]:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime, usage.ru_stime


def one_round(root: Path, wheelhouse: Path, extra_env: dict[str, str]) -> dict[str, Any]:
    """Copy the tree, make a virtualenv, time `pip install .` in it; the figures."""
    with tempfile.TemporaryDirectory(prefix="necro-install-time-") as tmp:
        tree, venv = Path(tmp) / "tree", Path(tmp) / "venv"
        shutil.copytree(root, tree, ignore=LEFT_OUT)
        _run([sys.executable, "-m", "venv", str(venv)], "venv", timeout=600)
        python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "NECRO_", "PIP_", "VIRTUAL_ENV"))}
        env.update({"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_CACHE_DIR": "1",
                    "PIP_DISABLE_PIP_VERSION_CHECK": "1", **extra_env})
        load_before = os.getloadavg()[0]
        (user0, sys0), wall0 = _children_cpu(), time.monotonic()
        _run([str(python), "-m", "pip", "install", "--quiet", "."], "pip install .", cwd=tree, env=env,
             timeout=PIP_TIMEOUT, stdin=subprocess.DEVNULL)
        wall = time.monotonic() - wall0
        user1, sys1 = _children_cpu()
        version = _run([str(venv / "bin" / "necro"), "--version"], "necro --version", cwd=tmp, env=env,
                       timeout=120).stdout.strip()
    return {"wall_s": wall, "user_s": user1 - user0, "sys_s": sys1 - sys0, "cpu_s": user1 - user0 + sys1 - sys0,
            "load_before": load_before, "load_after": os.getloadavg()[0], "engine": version}


def _line(r: dict[str, Any]) -> str:
    return (f"wall {r['wall_s']:.0f} s, CPU {r['cpu_s']:.0f} s ({r['user_s']:.0f} user + {r['sys_s']:.0f} system), "
            f"load {r['load_before']:.1f} before, {r['load_after']:.1f} after")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=1, help="fresh installs to time (default 1)")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="set for the install, e.g. NECRO_COMPILE_ALL=1 or NECRO_PGO=1 (repeatable)")
    ap.add_argument("--wheelhouse", type=Path, default=WHEELHOUSE,
                    help=f"where the dependencies' wheels are cached (default {WHEELHOUSE})")
    ap.add_argument("--json", type=Path, help="also write every round to this file")
    args = ap.parse_args(argv)
    if not 1 <= args.rounds <= 20:
        ap.error("--rounds is between 1 and 20")
    extra: dict[str, str] = {}
    for item in args.env:
        name, eq, value = item.partition("=")
        if not eq or not name.isidentifier():
            ap.error(f"--env takes NAME=VALUE, not {item!r}")
        extra[name] = value
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    try:
        fill_wheelhouse(args.wheelhouse, ROOT)
        rounds = []
        for i in range(args.rounds):
            rounds.append(one_round(ROOT, args.wheelhouse, extra))
            print(f"round {i + 1}/{args.rounds}: {_line(rounds[-1])}", file=sys.stderr, flush=True)
    except (InstallTimeError, subprocess.TimeoutExpired) as exc:
        print(f"install_time: {exc}", file=sys.stderr)
        return 2
    said = " ".join(f"{k}={v}" for k, v in extra.items()) or "default build"
    print(f"pip install . ({said}) on {cores} cores, {args.rounds} round(s); engine: {rounds[-1]['engine']}")
    for key, label in (("wall_s", "wall"), ("cpu_s", "CPU (user+sys)")):
        vals = [r[key] for r in rounds]
        print(f"  {label}: median {statistics.median(vals):.0f} s (range {min(vals):.0f}–{max(vals):.0f} s)")
    for r in rounds:
        print(f"  {_line(r)}")
    if args.json:
        args.json.write_text(json.dumps({"env": extra, "cores": cores, "rounds": rounds}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
