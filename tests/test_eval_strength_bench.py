"""benchmarks/eval_strength.py: the learned evaluation against plain search, four players, planned
in seat-swapped pairs, its figure the evaluation's share of the games' wins (a smoke size only)."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from benchmarks import eval_strength
from necronomicon.interpreter.bots import agent_label
from necronomicon.interpreter.content.build import Content
from necronomicon.tools.cli import main

EV, PLAIN = "mcts:2:depth=3:eval=e.json", "mcts:2"


def test_games_come_in_swapped_pairs_covering_every_seat_split(base_game: Content) -> None:
    specs = eval_strength.plan(180, 10, EV, PLAIN, base_game)
    ev, pl = agent_label(EV), agent_label(PLAIN)
    for a, b in zip(specs[::2], specs[1::2]):
        assert a.seed == b.seed and a.factions == b.factions                   # the same deal ...
        assert [x == ev for x in a.agents] == [x == pl for x in b.agents]      # ... with every bot swapped
        assert sorted(a.agents) == sorted([ev, ev, pl, pl])
    assert [s.seed for s in specs[:6]] == [10, 10, 11, 11, 12, 12]
    first90 = specs[:90]
    assert len({tuple(sorted(s.factions)) for s in first90}) == 15
    assert len({tuple(a == ev for a in s.agents) for s in first90}) == 6       # every split of the four seats
    seat = Counter(i for s in first90 for i, a in enumerate(s.agents) if a == ev)
    assert set(seat.values()) == {45}                                          # each seat half the games
    faction = Counter(f for s in first90 for f, a in zip(s.factions, s.agents) if a == ev)
    played = Counter(f for s in first90 for f in s.factions)
    assert all(2 * faction[f] == played[f] for f in played)                    # each faction half with each bot
    assert specs[90].factions == specs[0].factions[1:] + specs[0].factions[:1]  # the next cycle rotates seats


def test_the_figure_is_the_evaluations_share_of_the_wins() -> None:
    ev, pl = agent_label(EV), agent_label(PLAIN)
    seats = ["a", "b", "c", "d"]

    def row(winners: list[str], outcome: str = "win") -> dict[str, object]:
        return {"factions": seats, "agents": [ev, pl, ev, pl], "winners": winners, "outcome": outcome}
    rows = [row(["a"]), row(["b"]), row(["a", "b"], "shared"), row(["c"]), row([], "humanity"), {"outcome": "error"}]
    text = "\n".join(eval_strength.figures(rows, EV))
    assert "won 2.5 of the 4 games with a winner = 62.5%" in text and "95% CI" in text
    assert "5 finished, 1 nobody won, 1 failed" in text and "not shown" in text
    assert text.startswith("  the evaluation's seats won")
    other = "\n".join(eval_strength.figures(rows, EV, "A's seats"))
    assert other.startswith("  A's seats won 2.5") and "by faction (A's seats)" in other
    assert "evaluation" not in other and "60%" not in other   # a plain bot is not judged by the evaluation's target


def test_a_smoke_run_writes_rows_and_refuses_other_contents_evaluation(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "e.json"
    assert main(["train", "--ruleset", "duel", "--games", "2", "--agents", "heuristic", "--jobs", "1",
                 "--out", str(model)]) == 0
    args = ["--eval", str(model), "--budget", "1", "--depth", "2", "--plain", "mcts:1:depth=2", "--out", str(tmp_path)]
    assert eval_strength.main([*args, "--games", "1", "--seed", "4"]) == 0
    (path,) = tmp_path.glob("eval-*.jsonl")
    (got,) = [json.loads(x) for x in path.read_text().splitlines()]
    assert got["game"] == 0 and got["seed"] == 4 and sorted(got["agents"]).count(agent_label(f"mcts:1:depth=2:eval={model}")) == 2
    assert "0 of 1 games already in" in capsys.readouterr().out
    data = json.loads(model.read_text())
    data["content_digest"] = "0" * 16
    model.write_text(json.dumps(data))
    with pytest.raises(SystemExit, match="was trained on other content"):
        eval_strength.main([*args, "--games", "2"])


def test_eval_fit_reads_a_positions_file_and_scores_evaluations_on_it(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import eval_fit
    from necronomicon.interpreter.search.fitting import Sample
    model = tmp_path / "e.json"
    assert main(["train", "--ruleset", "duel", "--games", "6", "--agents", "heuristic", "--jobs", "1",
                 "--out", str(model)]) == 0
    positions = tmp_path / "e.positions.jsonl"
    assert eval_fit.main(["--positions", str(positions), str(model)]) == 0
    out = capsys.readouterr().out
    assert "positions of 6 games" in out and "even split: log loss 1.099" in out and f"{model}: log loss" in out
    sure = [Sample(0, ((1.0,), (0.0,)), (1.0, 0.1), (0.0, 1.0, 0.0)), Sample(1, ((1.0,), (0.0,)), (1.0, 0.9), (0.0, 0.0, 1.0))]
    got = eval_fit.log_losses(sure, {"first seat": lambda s: [0.0, 0.5, 0.5]})["first seat"]
    assert got["log_loss"] == pytest.approx(-__import__("math").log(0.5)) and got["counts"] == [1, 0, 0, 1]
    with pytest.raises(SystemExit, match="not a training game's line"):
        positions.write_text("{}\n[1]\n")
        eval_fit.main(["--positions", str(positions)])
