"""docs/modding.md runs: its files validate (or fail exactly as shown), and its commands work.

The guide's `$ necro ...` lines and the output printed under them are read from the markdown, so
the guide cannot drift from what the tools do.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.game import replay
from necronomicon.tools.cli import main

ROOT = Path(__file__).parent.parent
GUIDE = ROOT / "docs" / "modding.md"
EXAMPLE = ROOT / "docs" / "modding" / "example-faction"
FIXED = EXAMPLE / "drowned-choir"
BROKEN = EXAMPLE / "broken"
MISTAKE = ("kind: 'chorister')[0], a)", "kind: 'choristor')[0], a)")


def guide_commands() -> list[tuple[list[str], list[str]]]:
    """(argv after `necro`, the output lines shown under it) for each `$ necro` line of a console block."""
    found: list[tuple[list[str], list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S):
        for line in block.splitlines():
            if line.startswith("$ necro "):
                found.append((shlex.split(line[len("$ necro "):]), []))
            elif found and line.strip():
                found[-1][1].append(line)
    return found


def command(*verbs: str, arg: str | None = None) -> tuple[list[str], list[str]]:
    """The guide's one command that starts with `verbs` (and has `arg` among its arguments)."""
    matches = [c for c in guide_commands() if tuple(c[0][:len(verbs)]) == verbs and (arg is None or arg in c[0])]
    assert len(matches) == 1, f"expected one guide command 'necro {' '.join(verbs)}' with {arg}, found {len(matches)}"
    return matches[0]


@pytest.fixture(autouse=True)
def at_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths in the guide (and in the validator's messages) are relative to the repository root."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "200")


def test_the_broken_draft_is_the_finished_file_with_one_mistake() -> None:
    fixed = (FIXED / "factions" / "drowned-choir.yaml").read_text(encoding="utf-8")
    broken = (BROKEN / "factions" / "drowned-choir.yaml").read_text(encoding="utf-8")
    assert fixed.count(MISTAKE[0]) == 1
    assert broken == fixed.replace(*MISTAKE)
    assert MISTAKE[1].split(")[0]")[0] in GUIDE.read_text(encoding="utf-8")


def test_the_broken_draft_gives_exactly_the_error_in_the_guide(capsys: pytest.CaptureFixture[str]) -> None:
    argv, shown = command("validate", arg=str(BROKEN.relative_to(ROOT)))
    shown_errors = [line for line in shown if ": error: " in line]
    assert len(shown_errors) == 1
    assert re.match(r"^\S+\.yaml:\d+:\d+: error: .+ \[[a-z-]+\]$", shown_errors[0])
    assert main(argv) == 1
    got = [line for line in capsys.readouterr().out.splitlines() if ": error: " in line]
    assert got == shown_errors


def test_the_finished_faction_validates(capsys: pytest.CaptureFixture[str]) -> None:
    argv, shown = command("validate", arg=str(FIXED.relative_to(ROOT)))
    assert main(argv) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(shown[-1].split(" (")[0] + " (")
    content = load_content([FIXED]).require_ok()
    f = content.model.factions["drowned-choir"]
    assert len(f.requirements) == 6 and len(f.spellbooks) == 6 and len(f.goos) == 1
    assert not [d for d in content.report.items if d.path.startswith(str(EXAMPLE))]  # no warnings either


def test_the_guides_commands_run_and_the_seeded_game_finishes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def outside(argv: list[str]) -> list[str]:  # files the commands write go to a temporary folder
        return [str(tmp_path / a) if a.endswith((".png", ".jsonl")) else a for a in argv]

    for words in (("show", "faction"), ("show", "map"), ("play",), ("show", "state")):
        argv, _ = command(*words)
        assert main(outside(argv)) == 0, argv
    out = capsys.readouterr().out
    assert "The Drowned Choir" in out and "(drowned-choir)" not in out and "Ulvaroth, the Unsung" in out
    assert (tmp_path / "drowned-coast.png").read_bytes()[:4] == b"\x89PNG"
    assert re.search(r"^(winner: |shared victory: |humanity wins).* \| round \d+ \| doom: The Drowned Choir \d+", out, re.M)
    assert "start of round 3" in out
    log = next(tmp_path.glob("*.jsonl")).read_text(encoding="utf-8").splitlines()
    game = replay(load_content([FIXED], expansions=[]).require_ok(), log)
    assert game.is_over()


@pytest.mark.parametrize("seed", [1, 5])
def test_random_games_with_the_new_faction_keep_the_invariants(seed: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--content-dir", str(FIXED), "--ruleset", "multiplayer", "--map", "drowned-coast",
                 "--factions", "drowned-choir,sleeper,wind-rider", "--agents", "random", "--seed", str(seed),
                 "--quiet", "--check"]) == 0
    assert "doom: The Drowned Choir" in capsys.readouterr().out
