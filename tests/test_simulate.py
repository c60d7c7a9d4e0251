"""`necro simulate`: the plan of a batch, identical rows whatever the backend, files, Ctrl-C."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.tools import runners
from necronomicon.tools.cli import main
from necronomicon.tools.results import read_rows
from necronomicon.tools.runners import ContentArgs, run
from necronomicon.tools.simulate import FIELDS, matchups, plan, play_one

DUEL = ("sleeper", "wind-rider")


def _duel_specs(n: int = 4, seed: int = 11) -> list:
    return plan("duel", n, seed, ["heuristic"], factions=list(DUEL))


def test_plan_gives_game_i_seed_plus_i_and_spreads_matchups_and_seats(base_game: Content) -> None:
    specs = _duel_specs(3, seed=100)
    assert [(s.index, s.seed) for s in specs] == [(0, 100), (1, 101), (2, 102)]
    ms = matchups(base_game, "multiplayer", 4)
    assert len(ms) == 15 and all(list(m) == sorted(m) for m in ms)
    specs = plan("multiplayer", 45, 1, ["random"], all_matchups=ms)
    assert {tuple(sorted(s.factions)) for s in specs} == set(ms)
    first_cycle, second = specs[0].factions, specs[15].factions
    assert second == first_cycle[1:] + first_cycle[:1]  # the next cycle rotates the seats


def test_a_row_has_every_field_and_replays_with_necro_play(base_game: Content, capsys: pytest.CaptureFixture[str]) -> None:
    row = play_one(base_game, _duel_specs(1, seed=5)[0])
    assert list(row) == list(FIELDS) and row["error"] is None
    assert row["outcome"] in ("win", "shared", "humanity")
    for f in DUEL:
        assert len(row["doom_by_round"][f]) == len(row["power_by_round"][f]) == row["rounds"]
        assert row["doom_by_round"][f][-1] == row["doom"][f]
        assert None not in row["doom_by_round"][f] + row["power_by_round"][f]  # every Doom Phase was noted
        assert row["doom_by_round"][f] == sorted(row["doom_by_round"][f])  # Doom never goes down
    assert row["first_player"] in DUEL
    assert main(["play", "--ruleset", "duel", "--seed", "5", "--quiet", "--ids"]) == 0   # the rows are data: ids
    assert capsys.readouterr().out.strip() == row["result"]


def _rows(rows: object) -> list[dict]:
    return sorted(rows, key=lambda r: r["game"])  # type: ignore[arg-type]


def test_one_job_and_two_jobs_give_identical_rows(base_game: Content) -> None:
    specs = _duel_specs()
    one = _rows(run(specs, ContentArgs(), jobs=1, content=base_game))
    two = _rows(run(specs, ContentArgs(), jobs=2))
    assert [r["game"] for r in one] == [0, 1, 2, 3]
    assert one == two


def test_decisions_are_counted_while_games_run_on_one_job_and_on_two(base_game: Content) -> None:
    from io import StringIO

    from necronomicon.tools.batch import _DecisionsColumn, play_batch
    from necronomicon.tools.runners import new_ticks
    specs = plan("duel", 3, 11, ["heuristic", "mcts:2:depth=3"], factions=list(DUEL))
    for jobs in (1, 2):
        ticks = new_ticks()
        seen: list[int] = []

        def rows(stop: object) -> object:
            for row in run(specs, ContentArgs(), jobs=jobs, content=base_game, ticks=ticks):
                seen.append(ticks.value)        # the count at each finished game
                yield row
        result = play_batch(specs, rows, progress=True, err=StringIO(), ticks=ticks)
        assert ticks.value == sum(r["decisions"] for r in result.rows) > 0
        assert seen == sorted(seen) and seen[0] > 0
    assert str(_DecisionsColumn(ticks).render(None)) == f"{ticks.value:,} decisions"   # type: ignore[arg-type]


def test_without_a_terminal_a_heartbeat_line_says_how_far_slow_games_got() -> None:
    import threading
    from io import StringIO

    from necronomicon.tools.batch import play_batch
    from necronomicon.tools.runners import new_ticks
    specs = _duel_specs(2)
    ticks, err, seen = new_ticks(), StringIO(), threading.Event()

    def rows(stop: object) -> object:
        ticks.value = 42                      # a game under way: decisions played, none finished
        seen.wait(5)                          # until the heartbeat has spoken (at most 5 s)
        yield {"game": 0}

    class Err(StringIO):
        def write(self, text: str) -> int:
            n = err.write(text)
            seen.set()
            return n
    result = play_batch(specs, rows, progress=False, err=Err(), ticks=ticks, heartbeat=0.05)
    assert len(result.rows) == 1 and "simulate: 0/2 games, 42 decisions, 0 s" in err.getvalue()
    seen.clear()
    play_batch(specs, rows, progress=False, err=Err(), ticks=ticks, heartbeat=0.05, label="balance")
    assert "balance: 0/2 games, 42 decisions" in err.getvalue()   # necro balance names itself


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed (pip install '.[test]')")
def test_the_ray_backend_gives_the_same_rows(base_game: Content) -> None:
    specs = _duel_specs()
    one = _rows(run(specs, ContentArgs(), jobs=1, content=base_game))
    assert _rows(run(specs, ContentArgs(), backend="ray", jobs=2)) == one


def test_csv_and_jsonl_files_hold_the_same_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["simulate", "--ruleset", "duel", "--games", "3", "--seed", "7", "--jobs", "1", "--no-progress"]
    assert main([*base, "--out", str(tmp_path / "r.jsonl")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 games (duel)") and "wrote 3 rows" in out and "The Sleeper" in out   # names, not ids
    assert main([*base, "--out", str(tmp_path / "r.csv")]) == 0
    a, b = read_rows(tmp_path / "r.jsonl"), read_rows(tmp_path / "r.csv")
    assert a == b and [r["seed"] for r in a] == [7, 8, 9]


def test_ctrl_c_keeps_the_finished_games_and_exits_with_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = runners.play_one
    calls = []

    def interrupted_on_the_third(content: Content, spec: object) -> dict:
        calls.append(spec)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(content, spec)  # type: ignore[arg-type]

    monkeypatch.setattr(runners, "play_one", interrupted_on_the_third)
    out = tmp_path / "r.jsonl"
    code = main(["simulate", "--ruleset", "duel", "--games", "6", "--jobs", "1", "--no-progress", "--out", str(out)])
    assert code == 130
    assert [json.loads(l)["game"] for l in out.read_text().splitlines()] == [0, 1]
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"necro: interrupted after 2 of 6 games; 2 finished game(s) kept in {out}; "
                   "run the same command again to continue"]
    played: list[int] = []
    monkeypatch.setattr(runners, "play_one", lambda content, spec: played.append(spec.index) or real(content, spec))
    assert main(["simulate", "--ruleset", "duel", "--games", "6", "--jobs", "1", "--no-progress", "--out", str(out)]) == 0
    assert [json.loads(l)["game"] for l in out.read_text().splitlines()] == [0, 1, 2, 3, 4, 5]
    assert played == [2, 3, 4, 5]   # the same command again plays only the games not in the file


@pytest.mark.parametrize(("args", "message"), [
    (["--factions", "sleeper,wind-rider", "--all-matchups"], "either --factions or --all-matchups"),
    (["--agents", "human"], "bots only"),
    (["--agents", "cleverest"], "unknown agent 'cleverest'"),
    (["--factions", "sleeper,wind-ryder"], "unknown faction 'wind-ryder'"),
    (["--out", "r.txt"], "cannot tell the format"),
])
def test_bad_arguments_are_one_line(args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--ruleset", "duel", "--games", "1", "--jobs", "1", "--no-progress", *args]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_all_matchups_from_the_command_line(base_game: Content, tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    assert main(["simulate", "--ruleset", "duel", "--all-matchups", "--games", "3", "--agents", "random",
                 "--jobs", "1", "--no-progress", "--out", str(out)]) == 0
    rows = read_rows(out)
    assert [tuple(r["factions"]) for r in rows] == matchups(base_game, "duel", 2)[:3]
    assert all(r["agents"] == ["random", "random"] for r in rows)


def test_the_closing_summary_names_factions_and_gives_slow_batches_a_rate_per_minute() -> None:
    from necronomicon.tools.batch import BatchResult, summary_lines
    from necronomicon.tools.display_names import DisplayNames
    rows = [{"game": i, "factions": ["great-cthulhu", "drowned-choir"], "agents": ["mcts:20"] * 2,
             "winners": ["drowned-choir"], "outcome": "win"} for i in range(26)]
    lines = summary_lines(BatchResult(rows, 26, False, 3300.0), "multiplayer", "2 jobs",
                          DisplayNames({"great-cthulhu": "Great Cthulhu"}))
    assert lines[0] == "26 games (multiplayer) in 3300.0 s: 0.47 games/min, 2 jobs"   # was '0.0 games/s'
    assert any(x.startswith("  Drowned Choir  ") for x in lines) and any(x.startswith("  Great Cthulhu  ") for x in lines)
    assert not any("great-cthulhu" in x or "drowned-choir" in x for x in lines)
