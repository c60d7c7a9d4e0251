"""benchmarks/bot_share.py: the bots' share of a decision, measured over the games measure.py plays
(the same answers), each tree in its own process (no timing is asserted)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from benchmarks import compare

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bot_share.py"
GAMES = ["--ruleset", "duel", "--players", "2", "--agent", "heuristic", "--games", "1", "--seed", "3"]


def test_the_share_is_measured_over_the_games_measure_plays() -> None:
    one = subprocess.run([sys.executable, str(SCRIPT), "--one", "--root", str(ROOT), *GAMES],
                         capture_output=True, text=True, timeout=300, check=True)
    share = json.loads(one.stdout)
    measured = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "measure.py"), "--root", str(ROOT),
                               "decisions", *GAMES], capture_output=True, text=True, timeout=300, check=True)
    plain = json.loads(measured.stdout)
    assert share["answers"] == plain["answers"] and share["decisions"] == plain["decisions"] > 0
    assert 0 < share["share"] < 1 and share["bot_us"] > 0 and share["engine_us"] > 0


def test_rounds_of_two_trees_print_a_line_per_tree_with_its_answers(tmp_path: Path) -> None:
    compare.extract("HEAD", tmp_path)   # the last commit beside the working tree
    r = subprocess.run([sys.executable, str(SCRIPT), "--root", str(ROOT), "--root", str(tmp_path), "--rounds", "2", *GAMES],
                       capture_output=True, text=True, timeout=600, check=True)
    assert r.stderr.count("round ") == 4   # every tree once a round
    assert len(re.findall(r"bot share % [\d.]+ \([\d.]+-[\d.]+\)", r.stdout)) == 2, r.stdout
    assert len(re.findall(r"decisions, answers [0-9a-f]{16}\n", r.stdout)) == 2, r.stdout
    bad = subprocess.run([sys.executable, str(SCRIPT), "--root", str(ROOT), "--ruleset", "duel", "--players", "5"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "no factions for --ruleset duel --players 5" in bad.stderr
