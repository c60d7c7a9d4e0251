"""Every benchmark script, run by its path from any folder, measures the engine and content of the
checkout it sits in: never an installed copy (which would not see the change being measured, and
would validate the installed content, not the edited one), and never a ModuleNotFoundError."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
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
print("PROJECT MODULES", len(mine), "OUTSIDE",
      sorted(f for top, f in mine if not f.startswith(os.path.join(root, top) + os.sep)))
sys.exit(code)
"""


def test_every_script_is_found() -> None:
    names = {p.stem for p in SCRIPTS}
    assert {"compare", "measure", "soak", "validate", "playouts", "simulate", "strength"} <= names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_script_uses_this_checkout(script: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-c", RUNNER, str(script), str(ROOT.resolve())], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "usage:" in r.stdout, r.stdout
    imported = r.stdout.strip().splitlines()[-1]
    assert imported.startswith("PROJECT MODULES ") and imported.endswith(" OUTSIDE []"), imported
