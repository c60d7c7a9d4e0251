"""`necro train` keeps finished work (issue 33): each training game's positions are appended as it
finishes, a kill -9 or Ctrl-C keeps them, the same command continues and fits exactly what an
uninterrupted run fits, its worker processes end with a killed parent (runners.run, as `necro
simulate`'s), and a positions file of other games is refused in one line."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.search.features import FEATURES_VERSION
from necronomicon.tools.train import plan_training
from necronomicon.tools.train_positions import positions_path, read_done
from tests.test_durable_simulate import ROOT, _alive, _children, _cmd, _env, _lines, _necro

GAMES = "16"
# a search seat (a playout budget: the same seed gives the same game) makes each game last about a
# second, so a loaded machine still stops the run with games left
TRAIN = ["train", "--ruleset", "duel", "--agents", "heuristic,mcts:2:depth=3", "--jobs", "2", "--games", GAMES,
         "--seed", "7"]


def _weights(path: Path) -> tuple[list[float], list[float]]:
    data = json.loads(path.read_text())
    return data["seat_weights"], data["game_weights"]


def _stoppable() -> None:
    """In the training run's process: Ctrl-C acts (a shell that runs the suite in the background
    starts it with SIGINT ignored, and the run then played all its games), and the run is niced, so
    that this process, which watches it and stops it, gets the CPU first on a loaded machine."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.nice(5)


def _stop_midway(out: Path, sig: int) -> tuple[subprocess.Popen[str], list[int], int]:
    """Start a training run, let it finish a few games, send `sig`; (process, its workers, lines kept)."""
    positions = Path(positions_path(str(out)))
    proc = subprocess.Popen(_cmd(*TRAIN, "--out", str(out)), cwd=ROOT, env=_env(), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_stoppable)
    deadline = time.monotonic() + 300
    while _lines(positions) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = _children(proc.pid)
    proc.send_signal(sig)
    proc.wait(timeout=120)
    return proc, workers, _lines(positions)


def _workers_end(workers: list[int]) -> None:
    assert workers, "the training ran no worker processes"
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers), "workers outlived their stopped parent"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_a_stopped_training_run_continues_to_the_uninterrupted_fit(tmp_path: Path, sig: int) -> None:
    ref, out = tmp_path / "ref.json", tmp_path / "stopped.json"
    done = _necro(*TRAIN, "--out", str(ref))
    assert done.returncode == 0, done.stderr
    proc, workers, kept = _stop_midway(out, sig)
    assert 3 <= kept < int(GAMES), "the run was not stopped while games were left"
    assert not out.exists(), "a stopped run must not write a fit of part of its games"
    if sig == signal.SIGINT:
        assert proc.returncode == 130 and "run the same command again to continue" in (proc.stderr.read() if proc.stderr else "")
    _workers_end(workers)
    before = Path(positions_path(str(out))).read_bytes()
    again = _necro(*TRAIN, "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert f"continuing {positions_path(str(out))}: {kept} of {GAMES} games already played" in again.stdout
    after = Path(positions_path(str(out))).read_bytes()
    assert after.startswith(before) and after.count(b"\n") == int(GAMES)      # the kept games not played again
    assert _weights(out) == _weights(ref)


def test_a_torn_last_line_is_played_again_and_other_games_are_refused(tmp_path: Path, base_game: Content) -> None:
    specs = plan_training(base_game, "duel", 2, 3, 5, ["heuristic"])
    path = tmp_path / "e.positions.jsonl"
    whole = json.dumps({"game": 0, "seed": 5, "ruleset": "duel", "factions": list(specs[0].factions),
                        "agents": ["heuristic", "heuristic"], "every": 8, "features": FEATURES_VERSION,
                        "shares": [0, 1, 0], "positions": []})
    path.write_text(whole + "\n" + whole[:30])                      # killed while writing game 1's line
    assert [r["game"] for r in read_done(str(path), specs, 8)] == [0]
    assert path.read_text() == whole + "\n"                          # the torn line is cut off the file
    with pytest.raises(ValueError, match=r"e.positions.jsonl:1: game 0 was played with other settings"):
        read_done(str(path), specs, 4)                               # another --every
    other = plan_training(base_game, "duel", 2, 3, 6, ["heuristic"])
    with pytest.raises(ValueError, match="other settings"):
        read_done(str(path), other, 8)                               # another --seed
    older = json.loads(whole)
    older.pop("features")                                            # noted before positions named their features' version
    path.write_text(json.dumps(older) + "\n")
    with pytest.raises(ValueError, match="the features' version"):
        read_done(str(path), specs, 8)
    path.write_text("not json\n" + whole + "\n")
    with pytest.raises(ValueError, match=r"e.positions.jsonl:1: not a training game's line"):
        read_done(str(path), specs, 8)


def test_train_refuses_a_file_of_other_games_in_one_line_and_overwrite_starts_again(tmp_path: Path) -> None:
    out = tmp_path / "e.json"
    first = _necro("train", "--ruleset", "duel", "--agents", "heuristic", "--jobs", "1", "--games", "2", "--out", str(out))
    assert first.returncode == 0, first.stderr
    other = _necro("train", "--ruleset", "duel", "--agents", "heuristic", "--jobs", "1", "--games", "2", "--seed", "9",
                   "--out", str(out))
    assert other.returncode != 0 and "Traceback" not in other.stderr
    assert "game 0 was played with other settings" in other.stderr and len(other.stderr.strip().splitlines()) == 1
    fresh = _necro("train", "--ruleset", "duel", "--agents", "heuristic", "--jobs", "1", "--games", "2", "--seed", "9",
                   "--out", str(out), "--overwrite")
    assert fresh.returncode == 0, fresh.stderr
    assert [json.loads(x)["seed"] for x in Path(positions_path(str(out))).read_text().splitlines()] == [9, 10]
