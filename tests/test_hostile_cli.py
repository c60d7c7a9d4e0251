"""Hostile flags, files and answers (issue 14): every command-line and answer case of the corpus in
tests/hostile_cli_corpus.py is one clear line (or a clean stop), never a traceback, and a refused
answer leaves the game exactly as it was. (The content-budget cases there are another part of the
issue, measured by benchmarks/hostile.py.)"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests import hostile_cli_corpus as corpus
from tests.test_hostile_files import _content_loaded_once  # noqa: F401 - the same content, loaded once
from necronomicon.tools.preflight import check_destination
from necronomicon.tools.runners import ContentArgs, run_pool
from necronomicon.tools.simulate import GameSpec

SLOW = {"ctrl-c:simulate-after-0.3s", "ctrl-c:simulate-after-1.0s", "ctrl-c:play-after-0.3s",
        "ctrl-c:play-after-1.0s"}   # the benchmark runs these too
CASES = {c.name: c for c in corpus.cases() if c.section in ("cli", "answers") and c.name not in SLOW}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hostile_flag_file_or_answer_is_one_clear_line(name: str, tmp_path: Path) -> None:
    out = CASES[name].run(tmp_path)
    assert out.clean, out.message
    assert not out.half, f"the refusal changed the game: {out.message}"


def test_the_issue_examples_of_the_command_line(tmp_path: Path) -> None:
    from tests.hostile_corpus import run_cli
    assert run_cli(["play", "--ruleset", "dual"])[2] == ("necro: error: unknown ruleset 'dual' (did you mean "
                                                         "'duel'?); known: duel, multiplayer, two-player\n")
    assert run_cli(["play", "--players", "0"])[2] == "necro: error: --players 0: ruleset 'multiplayer' is for 3, 4, 5 players\n"
    assert run_cli(["play", "--factions", "nobody"])[2] == "necro: error: unknown faction 'nobody'\n"
    assert run_cli(["play", "--ruleset", "multiplayer", "--players", "3", "--map", "earth-5w5e"])[2] == (
        "necro: error: map layout 'earth-5w5e' is for 5 players, not 3\n")


def test_checking_a_destination_leaves_no_file_behind(tmp_path: Path) -> None:
    check_destination(str(tmp_path / "r.jsonl"), "--out")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "old.jsonl").write_text("kept\n")
    check_destination(str(tmp_path / "old.jsonl"), "--out")
    assert (tmp_path / "old.jsonl").read_text() == "kept\n"


def _slow_game(content, spec: GameSpec) -> dict:  # noqa: ANN001 - stands in for play_one in the workers
    marks = Path(spec.ruleset)
    with open(marks / f"start-{spec.index}", "w"):
        pass
    if spec.index > 0:
        time.sleep(60)          # a long game, still being played when Ctrl-C comes
    with open(marks / f"end-{spec.index}", "w"):
        pass
    return {"game": spec.index}


def test_a_stopped_pool_keeps_finished_games_and_ends_the_running_ones(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import necronomicon.tools.runners as runners
    monkeypatch.setattr(runners, "play_one", _slow_game)
    specs = [GameSpec(i, i, str(tmp_path), ("a", "b"), ("random", "random")) for i in range(6)]
    rows: list[dict] = []

    def stop() -> bool:
        return bool(rows) and len(list(tmp_path.glob("start-*"))) >= 2   # game 0 is in, game 1 is running

    for row in run_pool(specs, ContentArgs(), 2, stop, content=object()):  # type: ignore[arg-type]
        rows.append(row)
    assert rows == [{"game": 0}]
    assert sorted(p.name for p in tmp_path.glob("end-*")) == ["end-0"]   # the running games were ended, not awaited
