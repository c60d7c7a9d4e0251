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


def test_only_the_games_of_the_named_factions_search_seat_are_played(base_game: Content, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    specs = strength.plan("duel", 6, 3, TINY, base_game)
    first = strength.search_faction(specs[0])
    assert first is not None
    kept = strength.only_factions(specs, [first], base_game)
    assert kept and all(strength.search_faction(s) == first for s in kept)
    assert len(kept) < len(specs)                                         # the others are left for later
    with pytest.raises(SystemExit, match="unknown faction 'nobody'"):
        strength.only_factions(specs, ["nobody"], base_game)
    args = ["--experiment", "duel", "--agent", TINY, "--out", str(tmp_path), "--seed", "3", "--games", "4"]
    assert strength.main([*args, "--factions", first]) == 0
    rows = [json.loads(x) for x in next(tmp_path.glob("duel-*.jsonl")).read_text().splitlines()]
    assert rows and all(strength.search_faction(r) == first for r in rows)
    out = capsys.readouterr().out
    assert f"    {first}" in out and "six spellbooks" in out and "mean spellbooks" in out


def test_the_qualify_fit_recovers_the_weights_it_was_drawn_from() -> None:
    import math

    from benchmarks import qualify_fit
    from necronomicon.interpreter.engine.rng import Rng
    true = (1.0, -0.6, -2.0, -0.5)
    rng, points = Rng(7), []
    for _ in range(20_000):
        m, t = 1 + rng.below(6), rng.below(101) / 100
        p = 1 / (1 + math.exp(-(true[0] + true[1] * m + true[2] * t + true[3] * m * t)))
        points.append((m, t, rng.below(1_000_000) < p * 1_000_000))
    w = qualify_fit.fit(points)
    assert all(abs(a - b) < 0.35 for a, b in zip(w, true)), w

    def fitted(m: int, t: float) -> float:
        return 1 / (1 + math.exp(-sum(x * y for x, y in zip(w, (1, m, t, m * t)))))
    assert qualify_fit.log_loss(points, lambda m, t: 0.2) > qualify_fit.log_loss(points, fitted)


def test_the_qualify_fit_plays_heuristic_games_and_prints_the_losses(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import qualify_fit
    assert qualify_fit.main(["--games", "1", "--every", "6"]) == 0
    out = capsys.readouterr().out
    assert "seat positions of 1 games" in out and "reward.py" in out and "base rate" in out


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


def test_a_paired_run_plays_each_game_with_both_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = "mcts:2:depth=3:progress=1"
    args = ["--experiment", "duel", "--agent", TINY, "--pair", other, "--out", str(tmp_path), "--seed", "3"]
    assert strength.main([*args, "--games", "2"]) == 0
    files = sorted(tmp_path.glob("duel-*.jsonl"))
    assert [f.name.endswith("progress=1.jsonl") for f in files] == [False, True]
    rows = [[json.loads(x) for x in f.read_text().splitlines()] for f in files]
    assert [[(r["game"], r["seed"], r["factions"]) for r in rs] for rs in rows] == \
        [[(0, 3, rows[0][0]["factions"]), (1, 4, rows[0][1]["factions"])]] * 2      # the same games
    assert all(any(a.endswith("progress=1") for a in r["agents"]) for r in rows[1])
    out = capsys.readouterr().out
    assert "paired games 2: both won" in out and out.count("search bot won") == 2
    with pytest.raises(SystemExit, match="--pair needs a search bot"):
        strength.main([*args, "--games", "2", "--experiment", "table"])
