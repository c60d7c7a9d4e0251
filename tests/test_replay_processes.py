"""Replays reproduce across processes: a seeded game logged in one process replays to the same
digest in another, and two processes with different PYTHONHASHSEED values play the same seed to
byte-identical logs (so no rule depends on set or dict order that the hash seed changes)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.game import replay

ROOT = Path(__file__).parent.parent


def _necro(args: list[str], hash_seed: int) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "necronomicon.tools.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


@pytest.mark.parametrize("game", [
    ["--ruleset", "multiplayer", "--players", "5", "--seed", "11", "--agents", "random"],
    ["--ruleset", "duel", "--seed", "4", "--agents", "heuristic,random"],
], ids=["multiplayer-5-random", "duel-heuristic"])
def test_a_logged_game_replays_in_another_process_with_another_hash_seed(tmp_path: Path, game: list[str]) -> None:
    logs = []
    for hash_seed in (1, 2):
        log = tmp_path / f"g{hash_seed}.jsonl"
        played = _necro(["play", *game, "--quiet", "--log", str(log)], hash_seed)
        assert played.returncode == 0, played.stderr
        logs.append(log.read_text())
    assert logs[0] == logs[1]                                  # same events, choices and digest
    lines = logs[0].splitlines()
    digest = json.loads(lines[-1])["digest"]
    assert json.loads(lines[-1])["over"] is True
    again = _necro(["replay", str(tmp_path / "g1.jsonl")], 3)
    assert again.returncode == 0, again.stderr                 # replay checks the digest itself
    assert again.stdout.strip() == played.stdout.strip().splitlines()[-1]
    assert replay(load_content().require_ok(), lines).digest() == digest   # and in this process too


def test_a_diverging_replay_is_caught_across_processes(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    assert _necro(["play", "--ruleset", "duel", "--seed", "6", "--agents", "random", "--quiet", "--log", str(log)], 1).returncode == 0
    lines = log.read_text().splitlines()
    rec = json.loads(lines[-2])
    rec["params"]["seed"] = 7                                  # the same choices from another seed
    lines[-2] = json.dumps(rec, sort_keys=True)
    log.write_text("\n".join(lines) + "\n")
    again = _necro(["replay", str(log)], 2)
    assert again.returncode == 1
    assert again.stderr.startswith(("replay diverged", "necro: error:")) and "Traceback" not in again.stderr
