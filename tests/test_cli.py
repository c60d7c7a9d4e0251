"""The `necro` command: the main job, logs and replay, clean errors (the human seat: test_human_seat.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.tools.cli import main


def test_play_default_is_a_complete_game_ending_with_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "3"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("game: Cthulhu Wars, 3 to 5 players on Earth, 3-player West and 5-player East, seed 3: "
                             "Great Cthulhu, Crawling Chaos, Black Goat, Yellow Sign")   # names, not ids
    assert main(["play", "--seed", "3", "--ids"]) == 0    # ids for scripts: the same game
    ids = capsys.readouterr().out.strip().splitlines()
    assert ids[0].startswith("game: multiplayer on earth-3w5e, seed 3: great-cthulhu, crawling-chaos, black-goat, yellow-sign")
    assert len(ids) == len(out)
    last = out[-1]
    assert last.split(" | ")[0].startswith(("winner:", "shared victory:", "humanity wins"))
    assert "| round " in last and "doom:" in last


def test_play_log_then_replay_gives_the_same_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    assert main(["play", "--ruleset", "duel", "--agents", "random,heuristic", "--seed", "5", "--quiet",
                 "--log", str(log)]) == 0
    played = capsys.readouterr().out.strip().splitlines()[-1]
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "game"
    assert json.loads(lines[-1])["type"] == "digest"
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.strip() == played


def test_replay_detects_a_tampered_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    main(["play", "--ruleset", "duel", "--seed", "2", "--quiet", "--log", str(log)])
    lines = log.read_text().splitlines()
    d = json.loads(lines[-1])
    d["digest"] = "0" * 16
    lines[-1] = json.dumps(d)
    log.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["replay", str(log)]) == 1
    assert "replay diverged" in capsys.readouterr().err


def test_errors_are_one_line_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--factions", "great-cthulhu,nobody", "--ruleset", "two-player"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == "necro: error: unknown faction 'nobody'"
    assert main(["play", "--ruleset", "duel", "--map", "extinction"]) == 1
    assert "incomplete" in capsys.readouterr().err


def test_every_faction_pair_finishes_a_duel_game_with_every_agent_pair() -> None:
    from necronomicon.interpreter.bots import make_agent
    from necronomicon.interpreter.engine.game import Game
    from necronomicon.interpreter.engine.play import run_game
    c = load_content().require_ok()
    for a in ("random", "heuristic"):
        for b in ("random", "heuristic"):
            g = Game(c, "duel", ["sleeper", "wind-rider"], 17)
            run_game(g, {"sleeper": make_agent(a, 1), "wind-rider": make_agent(b, 2)})
            assert g.is_over() and g.winner() is not None
