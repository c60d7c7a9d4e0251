"""Reports that say what played (issue 15): result rows, `necro simulate`'s summary, `necro report`
and every plot name the agents with their budgets; a modder's faction is simulated on its map."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from necronomicon.tools.cli import main
from necronomicon.tools.plots import _subtitle
from necronomicon.tools.report import compute
from necronomicon.tools.results import read_rows

ROOT = Path(__file__).parent.parent
MODDED = ROOT / "docs" / "modding" / "example-faction" / "drowned-choir"
SEARCH = "mcts:1:heuristic:depth=2:c=1:prior=10:root=0.5"


def test_rows_the_report_and_the_plots_name_the_agents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "duel.jsonl"
    assert main(["simulate", "--ruleset", "duel", "--factions", "sleeper,wind-rider", "--games", "2", "--jobs", "1",
                 "--agents", "mcts:1:depth=2,heuristic", "--out", str(out)]) == 0
    assert f"agents: heuristic (2 seats), {SEARCH} (2 seats)" in capsys.readouterr().out   # the summary
    rows = read_rows(out)
    assert [r["agents"] for r in rows] == [[SEARCH, "heuristic"]] * 2     # the budget is recorded in full
    assert main(["report", str(out), "--plots", str(tmp_path / "plots")]) == 0
    text = capsys.readouterr().out
    assert f"agents: heuristic (2 seats), {SEARCH} (2 seats)" in text and "Win rate per agent" in text
    assert f"{SEARCH} ×2" in text                                           # who played each faction
    rep = compute(rows)
    assert [d["agent"] for d in rep["agents"]] == ["heuristic", SEARCH]
    assert f"agents: heuristic (2 seats), {SEARCH} (2 seats)" in _subtitle(rep)   # every plot's title
    assert main(["report", str(out), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["factions"][0]["agents"]


def test_a_modders_faction_is_simulated_on_its_map_against_search_bots(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mod.jsonl"
    assert main(["simulate", "--content-dir", str(MODDED), "--ruleset", "multiplayer", "--map", "drowned-coast",
                 "--factions", "drowned-choir,sleeper,wind-rider", "--agents", "mcts:1:depth=2", "--games", "1",
                 "--jobs", "1", "--out", str(out)]) == 0
    row = read_rows(out)[0]
    assert row["layout"] == "drowned-coast" and row["error"] is None and row["agents"] == [SEARCH] * 3
    assert main(["simulate", "--ruleset", "duel", "--map", "nowhere", "--games", "1"]) == 1
    assert "unknown map layout 'nowhere'" in capsys.readouterr().err


def test_the_modding_guides_simulate_and_report_commands_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_modding_guide import command
    monkeypatch.chdir(ROOT)
    argv, _ = command("simulate", arg="--all-matchups")
    assert argv[argv.index("--agents") + 1].startswith("mcts")
    small = {"--games": "1", "--agents": "mcts:1:depth=2", "--out": str(tmp_path / "choir.jsonl")}  # a tiny size
    argv = [small.get(argv[i - 1], a) if i else a for i, a in enumerate(argv)] + ["--jobs", "1"]
    assert main(argv) == 0
    row = read_rows(tmp_path / "choir.jsonl")[0]
    assert row["layout"] == "drowned-coast" and len(row["factions"]) == 3 and row["error"] is None
    report_argv, _ = command("report", arg="choir.jsonl")
    assert main(["report", str(tmp_path / "choir.jsonl"), "--plots", str(tmp_path / "plots")]) == 0
    assert report_argv[2] == "--plots" and "agents: mcts:1:heuristic:depth=2:c=1:prior=10:root=0.5 (3 seats)" in capsys.readouterr().out
    # the head-to-head: the designer's faction against two built-in ones, search bots in every seat
    argv, _ = command("simulate", arg="--factions")
    assert argv[argv.index("--agents") + 1].startswith("mcts")
    small = {"--games": "1", "--agents": "mcts:1:depth=2", "--out": str(tmp_path / "choir-vs.jsonl")}
    argv = [small.get(argv[i - 1], a) if i else a for i, a in enumerate(argv)] + ["--jobs", "1"]
    assert main(argv) == 0
    row = read_rows(tmp_path / "choir-vs.jsonl")[0]
    assert row["factions"][0] == "drowned-choir" and row["error"] is None
    assert main(["report", str(tmp_path / "choir-vs.jsonl")]) == 0
    assert "Drowned Choir" in capsys.readouterr().out   # a modder's faction, unknown to the built-in content, made readable
    assert command("report", arg="choir-vs.jsonl")[0] == ["report", "choir-vs.jsonl"]
