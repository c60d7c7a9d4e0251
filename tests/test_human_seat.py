"""The terminal seat, driven as a person would: text fed to `python -m necronomicon.tools.cli play --agents human,...`."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.game import Game, replay
from tests.hostile_cli_corpus import python_m
from necronomicon.tools.human_seat import group_options

ROOT = Path(__file__).resolve().parent.parent
SEATS = ["--agents", "human,heuristic,heuristic", "--players", "3", "--seed", "1"]


def necro(args: list[str], stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "necronomicon.tools.cli", *args], input=stdin, cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def saved_path(err: str) -> Path:
    line = next(l for l in err.splitlines() if "game saved to" in l)
    return Path(line.split("game saved to ", 1)[1].split(" (", 1)[0])


def test_status_line_costs_grouping_and_the_log_of_moves_and_payments(tmp_path: Path) -> None:
    # clockwise; move; acolyte to australia (one of the 5 non-controllers); done
    r = necro(["play", *SEATS], "1\nmove\nacolyte south-pacific->australia\ndone\n", tmp_path)
    out = r.stdout
    assert "round 1 · action phase · Great Cthulhu's turn · Power/Doom: Great Cthulhu 8/0, Crawling Chaos 8/0" in out
    assert "summon Shoggoth South Pacific  · 2 Power" in out
    assert "Acolyte South Pacific -> Australia (x5)  · 1 Power" in out
    assert "Acolyte South Pacific -> Australia (x5)" in out           # six Acolytes: not 36 labels
    assert "Acolyte South Pacific -> Australia (the gate's controller)" in out
    assert out.count("Acolyte South Pacific -> Antarctica") == 4       # 2 menus x (controller, the others)
    assert "Great Cthulhu pays 1 Power (move); 7 Power now" in out
    assert "Great Cthulhu's Acolyte: South Pacific -> Australia (move)" in out
    assert "gate in South Pacific: abandoned" not in out             # the plain Acolyte went, not the controller
    assert r.returncode == 130 and "Traceback" not in r.stderr


def test_typos_odd_digits_and_huge_numbers_are_asked_again(tmp_path: Path) -> None:
    big = "7" * 5000
    r = necro(["play", *SEATS], f"mvoe\n1\nmvoe\n²\n{big}\n99\n\n", tmp_path)
    assert "Traceback" not in r.stderr and r.returncode == 130
    assert "'mvoe' is not one of the options (did you mean 'move'?)" in r.stdout
    assert "'²' is not one of the options" in r.stdout
    assert "there is no option 99; choose 1 to 6" in r.stdout
    assert "777777777..." in r.stdout


def test_end_of_input_saves_exits_130_and_resume_continues(tmp_path: Path) -> None:
    r = necro(["play", *SEATS, "--log", "a.jsonl"], "1\n2\n", tmp_path)     # clockwise, summon shoggoth
    assert r.returncode == 130 and "Traceback" not in r.stderr
    assert "end of input; game saved to" in r.stderr and "necro play --resume" in r.stderr
    save = saved_path(r.stderr)
    data = json.loads(save.read_text())
    assert data["choices"] == ["clockwise", "summon shoggoth south-pacific"]
    # the partial log replays to the same position
    content = load_content().require_ok()
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    assert replay(content, lines).digest() == Game.from_json(content, data).digest()
    # resume and let bots finish it: the same game as answering those two and then playing bots
    r2 = necro(["play", "--resume", str(save), "--agents", "heuristic", "--log", "b.jsonl"], "", tmp_path)
    assert r2.returncode == 0, r2.stderr
    assert r2.stdout.strip().splitlines()[-1].startswith(("winner:", "shared victory:", "humanity wins"))
    rec = json.loads((tmp_path / "b.jsonl").read_text().splitlines()[-2])
    assert rec["choices"][:2] == ["clockwise", "summon shoggoth south-pacific"]


def test_undo_takes_back_your_decision_and_the_bots_after_it(tmp_path: Path) -> None:
    # clockwise; summon shoggoth (bots answer after); undo -> back at the same action menu; save
    r = necro(["play", *SEATS], "1\n2\nundo\nundo\nundo\nsave s.json\nquit\n", tmp_path)
    assert "undone: back to decision 2 (1 of yours taken back)" in r.stdout
    assert "undone: back to decision 1" in r.stdout
    assert "nothing to undo" in r.stdout
    data = json.loads((tmp_path / "s.json").read_text())
    assert data["choices"] == []
    assert r.returncode == 0 and "quit; game saved to" in r.stderr


def test_undo_after_resume_knows_which_answers_were_yours(tmp_path: Path) -> None:
    r = necro(["play", *SEATS], "1\n2\n", tmp_path)
    save = saved_path(r.stderr)
    r2 = necro(["play", "--resume", str(save), "--agents", "human,heuristic,heuristic"], "undo\nsave t.json\nquit\n", tmp_path)
    assert "undone: back to decision 2" in r2.stdout, r2.stdout[-2000:]
    assert json.loads((tmp_path / "t.json").read_text())["choices"] == ["clockwise"]


def test_board_help_and_unknown_save_folder(tmp_path: Path) -> None:
    r = necro(["play", *SEATS], "help\nboard\nsave /no/such/dir/x.json\nsave\n", tmp_path)
    assert "undo [N]" in r.stdout and "save FILE" in r.stdout
    assert "Players (seating order)" in r.stdout and "Ritual track:" in r.stdout
    assert "cannot save to '/no/such/dir/x.json'" in r.stdout
    assert "save needs a file name" in r.stdout
    assert "Traceback" not in r.stderr


def test_ctrl_c_at_the_prompt_saves_and_exits_130(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen(python_m("necronomicon.tools.cli", ["play", *SEATS]), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=env, text=True)
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write("1\n")
    p.stdin.flush()
    seen = ""
    while "choose an action" not in seen:          # wait until the seat is waiting for a line
        seen += p.stdout.readline()
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "Traceback" not in err and "interrupted (Ctrl-C); game saved to" in err
    assert json.loads(saved_path(err).read_text())["choices"] == ["clockwise"]


def test_resume_refuses_a_bad_file_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[1, 2]")
    for name in ("bad.json", "list.json", "missing.json"):
        r = necro(["play", "--resume", name], "", tmp_path)
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert r.stderr.startswith(f"necro: error: {name}: "), r.stderr


def test_grouping_keeps_different_units_apart() -> None:
    content = load_content().require_ok()
    g = Game(content, "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat"], seed=1)
    g.apply("clockwise")
    g.apply("move")
    menu = group_options(g.current().options, g, "great-cthulhu")
    assert len(g.current().options) == 36 and len(menu) == 12
    for c in menu:                      # every label sent is a legal option
        assert all(label in g.current().options for label in c.labels)
    assert sum(len(c.labels) for c in menu) == 36


@pytest.mark.parametrize("fmt", ["json"])
def test_play_format_json_is_one_object(tmp_path: Path, fmt: str) -> None:
    r = necro(["play", "--ruleset", "duel", "--seed", "2", "--format", fmt], "", tmp_path)
    assert r.returncode == 0
    data = json.loads(r.stdout)
    assert data["over"] is True and data["params"]["ruleset"] == "duel" and "digest" in data


def test_ctrl_c_while_the_bots_play_stops_at_a_decision_and_saves(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = ["play", "--agents", "random", "--players", "5", "--check", "--log", "g.jsonl"]
    p = subprocess.Popen(python_m("necronomicon.tools.cli", argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=tmp_path, env=env, text=True)
    assert p.stdout is not None
    for line in p.stdout:   # bots are playing (slowly, --check); the log names the phase in words
        if "round 1: gather power" in line:
            break
    else:
        pytest.fail("the game's log ended before the Gather Power phase")
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    if p.returncode == 0:
        pytest.skip("the game ended before the signal arrived")
    assert p.returncode == 130 and "Traceback" not in err, err
    data = json.loads(saved_path(err).read_text())
    content = load_content().require_ok()
    resumed = Game.from_json(content, data)
    logged = replay(content, (tmp_path / "g.jsonl").read_text().splitlines())
    assert resumed.digest() == logged.digest() and resumed.choices == logged.choices
