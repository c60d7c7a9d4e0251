"""Every benchmark script, run by its path from any folder, measures the engine and content of the
checkout it sits in: never an installed copy of other code (which would not see the change being
measured, and would validate the installed content, not the edited one), and never a
ModuleNotFoundError. The search-strength scripts (`COMPILED_OK`) may run an installed compiled build
whose sources are byte for byte the checkout's (benchmarks/engine_choice.py): the same code, as
players run it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILED_OK = ("strength.py", "playouts.py")
SCRIPTS = sorted(p for p in (ROOT / "benchmarks").glob("*.py")
                 if 'if __name__ == "__main__":' in p.read_text(encoding="utf-8"))

# Run the script as `python SCRIPT --help` would (its folder first on the path, `__main__`), then
# say where the project modules it imported (if any) came from.
RUNNER = """
import os, runpy, sys
script, root = sys.argv[1], sys.argv[2]
sys.argv = [script, "--help"]
sys.path[0] = os.path.dirname(script)
try:
    runpy.run_path(script, run_name="__main__")
    code = 0
except SystemExit as exc:
    code = exc.code or 0
mine = [(name.split(".")[0], os.path.realpath(m.__file__)) for name, m in list(sys.modules.items())
        if name.split(".")[0] in ("interpreter", "tools") and getattr(m, "__file__", None)]
def same_code(top, f):   # an installed module whose Python source is the checkout's
    if not script.endswith(COMPILED_OK):
        return False
    src = os.path.join(os.path.dirname(f), os.path.basename(f).split(".")[0] + ".py")
    ours = os.path.join(root, top, src.rsplit(os.sep + top + os.sep, 1)[-1])
    return os.path.isfile(src) and os.path.isfile(ours) and open(src, "rb").read() == open(ours, "rb").read()
print("PROJECT MODULES", len(mine), "OUTSIDE",
      sorted(f for top, f in mine if not f.startswith(os.path.join(root, top) + os.sep) and not same_code(top, f)))
sys.exit(code)
"""


def test_every_script_is_found() -> None:
    names = {p.stem for p in SCRIPTS}
    assert {"compare", "measure", "soak", "validate", "playouts", "simulate", "strength"} <= names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_script_uses_this_checkout(script: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-c", f"COMPILED_OK = {COMPILED_OK!r}\n" + RUNNER, str(script), str(ROOT.resolve())], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "usage:" in r.stdout, r.stdout
    imported = r.stdout.strip().splitlines()[-1]
    assert imported.startswith("PROJECT MODULES ") and imported.endswith(" OUTSIDE []"), imported
