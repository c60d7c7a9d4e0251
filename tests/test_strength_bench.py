"""benchmarks/strength.py: the issue's strength experiments, planned as described and resumable
(a smoke size only: the real runs are the lead's, on a quiet machine)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import strength
from necronomicon.interpreter.content.build import Content

TINY = "mcts:2:depth=3"


def test_the_plans_alternate_and_rotate_the_search_seat(base_game: Content) -> None:
    duel = strength.plan("duel", 6, 10, TINY, base_game)
    assert [s.seed for s in duel] == list(range(10, 16))
    assert [s.agents.index("mcts:2:heuristic:depth=3:c=1:prior=10:root=0.5") for s in duel] == [0, 1, 0, 1, 0, 1]
    assert duel[0].factions == duel[1].factions != duel[2].factions      # each pair played from both seats
    four = strength.plan("four", 16, 1, TINY, base_game)
    assert [[a.startswith("mcts") for a in s.agents].index(True) for s in four[:5]] == [0, 1, 2, 3, 0]
    assert all(sum(a.startswith("mcts") for a in s.agents) == 1 and len(s.factions) == 4 for s in four)
    assert four[15].factions == four[0].factions[1:] + four[0].factions[:1]    # the next cycle rotates seats
    table = strength.plan("table", 15, 1, TINY, base_game)
    assert all(all(a.startswith("mcts") for a in s.agents) for s in table)
    assert len({tuple(sorted(s.factions)) for s in table}) == 15            # every 4-player matchup


def test_a_run_appends_rows_and_continues_where_it_stopped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--experiment", "duel", "--agent", TINY, "--out", str(tmp_path), "--seed", "3"]
    assert strength.main([*args, "--games", "1"]) == 0
    path = next(tmp_path.glob("duel-*.jsonl"))
    first = path.read_text().splitlines()
    assert len(first) == 1 and json.loads(first[0])["game"] == 0
    with open(path, "a") as fh:
        fh.write('{"game": 1, "se')                          # a run killed while writing
    assert strength.main([*args, "--games", "2"]) == 0
    lines = path.read_text().splitlines()
    assert lines[0] == first[0] and [json.loads(x)["game"] for x in lines] == [0, 1]   # game 0 not played again
    out = capsys.readouterr().out
    assert "1 of 2 games already in" in out and "search bot won" in out and "95% CI" in out
    with pytest.raises(SystemExit, match="other settings"):
        strength.main([*args, "--games", "2", "--seed", "4"])


def test_both_benchmarks_end_alike_a_stopped_run_says_how_to_continue(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, base_game: Content) -> None:
    """strength.py and eval_strength.py end `main` with the same two steps (`play_missing`,
    `exit_status`): the games the file lacks are played unless asked not to, the file's rows of
    the plan are given back, and a run Ctrl-C stopped exits 130 naming the program."""
    specs = strength.plan("duel", 3, 1, TINY, base_game)
    path = tmp_path / "duel.jsonl"
    path.write_text(json.dumps({"game": 0, "seed": 1, "factions": list(specs[0].factions),
                                "agents": list(specs[0].agents), "winners": []}) + "\n")
    asked: list[list[int]] = []

    def stopped_play(todo: list, p: Path, jobs: int, content: Content) -> tuple[int, bool]:
        asked.append([s.index for s in todo])
        return 0, True   # as if Ctrl-C came before any game finished
    monkeypatch.setattr(strength, "play", stopped_play)
    rows, interrupted = strength.play_missing("duel: x", specs, path, 1, base_game, playing=False)
    assert [r["game"] for r in rows] == [0] and not interrupted and not asked
    rows, interrupted = strength.play_missing("duel: x", specs, path, 1, base_game)
    assert asked == [[1, 2]] and [r["game"] for r in rows] == [0] and interrupted
    assert capsys.readouterr().out.count("duel: x; 1 of 3 games already in") == 2
    assert strength.exit_status("eval_strength", interrupted) == 130
    assert "eval_strength: interrupted; run the same command again to continue" in capsys.readouterr().err
    assert strength.exit_status("strength", False) == 0
