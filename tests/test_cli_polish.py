"""Command-line polish: validate's summary of the built-in warnings and its checkout note, `show
faction` in words, and `--format json` for show, play and replay."""
from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from necronomicon.interpreter.paths import content_dir
from necronomicon.tools.cli import main
from necronomicon.tools.validate import checkout_note, validate


def test_validate_a_folder_counts_the_builtin_declared_readings_in_its_summary() -> None:
    out = io.StringIO()
    assert validate(["tests/fixtures/basic"], out=out, err=io.StringIO()) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert "; 0 warning(s), " in lines[0] and "declared reading(s) of unknown values (--all-warnings lists them)" in lines[0]
    n = int(lines[0].split("0 warning(s), ")[1].split()[0])
    full = io.StringIO()
    validate(["tests/fixtures/basic"], out=full, all_warnings=True, err=io.StringIO())
    listed = [line for line in full.getvalue().splitlines() if ": reading: " in line]
    assert n > 0 and len(listed) == n and all("(declared reading: README: " in line for line in listed)


def test_the_builtin_content_has_no_warnings() -> None:
    out = io.StringIO()
    assert validate([], out=out, err=io.StringIO()) == 0
    assert "warning:" not in out.getvalue() and "; 0 warning(s), " in out.getvalue()


def test_validate_in_a_checkout_whose_content_differs_says_which_it_checked(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    shutil.copytree(content_dir(), checkout / "content")
    (checkout / "pyproject.toml").write_text('[project]\nname = "necronomicon"\n')
    (checkout / "src").mkdir()
    assert checkout_note(content_dir(), checkout / "src") is None          # the same files: nothing to say
    (checkout / "content" / "factions" / "sleeper.yaml").write_text("changed: true\n")
    note = checkout_note(content_dir(), checkout / "src")
    assert note is not None and str(content_dir().resolve()) in note and str(checkout / "content") in note
    assert checkout_note(checkout / "content", checkout) is None            # it checked the checkout itself
    (checkout / "pyproject.toml").write_text('[project]\nname = "something-else"\n')
    assert checkout_note(content_dir(), checkout) is None


def _show(argv: list[str], width: int = 80) -> str:
    from necronomicon.tools.cli import build_parser
    from necronomicon.tools.show import cmd_show
    buf = io.StringIO()
    assert cmd_show(build_parser().parse_args(argv), Console(file=buf, width=width, highlight=False)) == 0
    return buf.getvalue()


def test_show_faction_list_has_no_install_path_and_card_shows_words() -> None:
    listing = _show(["show", "faction"])
    assert "content/fa" not in listing and "built-in" in listing
    assert str(content_dir()) not in listing
    card = _show(["show", "faction", "sleeper"])
    assert "count(units(" not in card and "max(2, power(enemy))" not in card
    assert "varies" in card and "Rolls one die for every Formless Spawn" in card
    assert "effect:" not in card and "built-in factions/sleeper.yaml" in card
    source = _show(["show", "faction", "sleeper", "--source"], width=200)
    assert "max(2, power(enemy))" in source and "effect: " in source and "condition: " in source


def test_show_format_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["show", "faction", "--format", "json"]) == 0
    assert {f["id"] for f in json.loads(capsys.readouterr().out)} >= {"great-cthulhu", "sleeper"}
    assert main(["show", "faction", "sleeper", "--format", "json"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["id"] == "sleeper" and card["document"]["units"]
    assert main(["show", "map", "earth", "--format", "json"]) == 0
    lay = json.loads(capsys.readouterr().out)
    assert any(a["id"] == "antarctica" and "south-pacific" in a["adjacent"] for a in lay["areas"])
    log = tmp_path / "g.jsonl"
    assert main(["play", "--ruleset", "duel", "--seed", "4", "--quiet", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["show", "state", str(log), "--round", "2", "--format", "json"]) == 0
    pos = json.loads(capsys.readouterr().out)
    assert pos["round"] == 2 and len(pos["players"]) == 2 and pos["next"]["options"]
    assert main(["replay", str(log), "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["diverged"] is False and rep["digest"] == rep["log_digest"] and rep["over"] is True
