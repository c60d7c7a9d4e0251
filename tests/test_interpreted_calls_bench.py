"""benchmarks/interpreted_calls.py counts the Python frames `Game.apply` starts (the agents' own
are left out): on the Python source every engine function counts, so there are hundreds a decision;
in a compiled core only what it still runs interpreted (docs/design/speed-next.md, session 18)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "interpreted_calls.py"


def test_on_the_python_source_every_engine_call_inside_apply_counts_and_no_agent_call_does(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, str(SCRIPT), "--root", str(ROOT), "--games", "1"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    head, *rows = r.stdout.strip().splitlines()
    m = re.fullmatch(r"(\d+) decisions: ([\d.]+) interpreted calls a decision inside apply", head)
    assert m and int(m[1]) > 50 and float(m[2]) > 100, head
    assert len(rows) == 12 and all(re.fullmatch(r"\s+[\d.]+  \S+:\d+ \S+.*", row) for row in rows), rows
    assert not any("agents.py" in row for row in rows)   # the random agent's choose runs outside apply
    assert any("flow.py" in row for row in rows)         # the driver runs at every step


def test_a_number_of_games_out_of_bounds_is_refused_in_one_line(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, str(SCRIPT), "--games", "0"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 2 and r.stderr.strip().splitlines()[-1].endswith("--games is 1 to 1000")
