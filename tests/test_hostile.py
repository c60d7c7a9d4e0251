"""Hostile input is bounded: huge and deeply nested files are refused cheaply with a position,
a content tree with such files never starts a game, and abilities that trigger each other
forever stop at a fixed limit with an error naming the cycle, leaving the game as it was."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.diagnostics import ContentError
from necronomicon.interpreter.engine import flow
from necronomicon.interpreter.engine.game import Game, GameError
from necronomicon.interpreter.engine.invariants import Checker
from necronomicon.interpreter.yamlpos import MAX_DEPTH, MAX_FILE_BYTES, MAX_SOURCE_NODES
from necronomicon.tools.cli import main

ROOT = Path(__file__).parent.parent
LOOP = ROOT / "tests" / "fixtures" / "trigger-loop"
BAD = ROOT / "tests" / "bad"


def _findings(folder: Path) -> list[str]:
    c = load_content([folder], builtin=False)
    return [f"{Path(d.path).name}:{d.line}:{d.col}: {d.code}: {d.message}" for d in c.report.items]


# ---- huge and deep files, generated here (not committed) ---------------------------------------------------
def test_a_file_over_the_byte_limit_is_refused_unread(tmp_path: Path) -> None:
    text = "kind: token\nid: big\nname: " + "x" * MAX_FILE_BYTES + "\n"
    (tmp_path / "big.yaml").write_text(text)
    assert _findings(tmp_path) == [f"big.yaml:1:1: file-too-large: file is {len(text)} bytes; "
                                   f"the limit is {MAX_FILE_BYTES}"]


def test_a_file_under_the_byte_limit_with_a_million_values_stops_at_the_node_budget(tmp_path: Path) -> None:
    # 1.8 MB of '1,1,1,...': before the budget counted while composing, this took ~45 s and 670 MB
    (tmp_path / "wide.yaml").write_text("kind: token\nid: wide\nlist: [" + ",".join(["1"] * 900_000) + "]\n")
    assert (tmp_path / "wide.yaml").stat().st_size < MAX_FILE_BYTES
    found = _findings(tmp_path)
    assert len(found) == 1
    assert found[0].startswith("wide.yaml:3:") and found[0].endswith(
        f"yaml-too-large: YAML too large: more than {MAX_SOURCE_NODES} values written in one file")


def test_fifty_thousand_nested_lists_stop_at_the_depth_limit(tmp_path: Path) -> None:
    (tmp_path / "deep.yaml").write_text("kind: token\nid: deep\nx: " + "[" * 50_000 + "]" * 50_000 + "\n")
    assert _findings(tmp_path) == [f"deep.yaml:3:{4 + MAX_DEPTH - 1}: yaml-too-large: YAML too large: "
                                   f"nested deeper than {MAX_DEPTH} levels"]


def test_a_recursive_alias_is_refused_at_its_anchor(tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_text("kind: token\nid: r\na: &a [1, *a]\n")   # was an internal RecursionError
    assert _findings(tmp_path) == ["r.yaml:3:4: yaml-too-large: YAML too large: an anchor is used inside itself "
                                   "(a recursive alias)"]


def test_an_alias_bomb_is_measured_without_being_expanded(tmp_path: Path) -> None:
    lines = ["kind: token", "id: b", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 30)]   # 10^30 values
    (tmp_path / "b.yaml").write_text("\n".join(lines) + "\n")
    assert _findings(tmp_path) == ["b.yaml:1:1: yaml-too-large: YAML too large: more than 200000 values (an alias bomb?)"]


@pytest.mark.parametrize("folder", ["alias-bomb", "deep-nesting"])
def test_a_tree_with_a_hostile_file_never_starts_a_game(folder: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ContentError):
        Game(load_content([BAD / folder]), "duel", ["sleeper", "wind-rider"], 1)
    assert main(["play", "--content-dir", str(BAD / folder), "--quiet"]) == 1
    out = capsys.readouterr()
    assert out.out == ""                                      # no game was played
    assert "yaml-too-large" in out.err and "Traceback" not in out.err


# ---- abilities that trigger each other forever ------------------------------------------------------------
CYCLE = ("trigger loop: ability ping/strike-ping (action) -> pong/echo-pong (unit-removed) -> "
         "ping/echo-ping (unit-removed) -> pong/echo-pong (unit-removed) -> ... "
         "(stopped at the limit of 24 nested windows)")


@pytest.fixture(scope="module")
def loop_content():  # noqa: ANN201
    return load_content([LOOP], builtin=False).require_ok()


def test_a_trigger_loop_stops_with_the_cycle_named_and_the_state_unchanged(loop_content) -> None:  # noqa: ANN001
    g = Game(loop_content, "test-loop", ["ping", "pong"], 1)
    checker = Checker(g)
    before = json.dumps(g.to_json(), sort_keys=True)
    log_before = list(g.log)
    with pytest.raises(GameError) as err:
        g.apply("ability strike-ping")
    assert CYCLE in str(err.value) and "state restored" in str(err.value)
    assert not isinstance(err.value.__cause__, RecursionError)
    assert json.dumps(g.to_json(), sort_keys=True) == before and g.log == log_before
    assert flow.open_windows(g.rules) == [] and flow.running_abilities(g.rules) == []   # no window is left open
    assert checker.check() == []                              # the restored game keeps every invariant
    g.apply("summon grunt a")                                 # and goes on
    assert g.s.pool("ping", "grunt") and len(g.s.pool("ping", "grunt")) == 1


def test_necro_play_reports_the_trigger_loop_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "--content-dir", str(LOOP), "--ruleset", "test-loop", "--factions", "ping,pong",
                 "--agents", "random", "--quiet", "--check"])
    err = capsys.readouterr().err.strip()
    assert code == 1
    assert err.startswith("necro: error: RuleError: " + CYCLE) and "\n" not in err


@pytest.mark.parametrize("value", ["{a: 1}", "[1, 2]", "42", "true"])
def test_a_kind_of_the_wrong_type_is_a_finding_not_a_crash(tmp_path: Path, value: str) -> None:
    # found by benchmarks/fuzz_content.py (swap-type on tokens/dark-tower.yaml): 'unhashable type: dict'
    (tmp_path / "t.yaml").write_text(f"id: x\nkind: {value}\nname: X\n")
    found = _findings(tmp_path)
    assert len(found) == 1 and found[0].startswith("t.yaml:2:7: unknown-kind: unknown kind ")


def test_a_rule_error_while_setting_up_refuses_the_game_in_one_line(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import shutil
    shutil.copytree(LOOP, tmp_path / "c")
    m = tmp_path / "c" / "map.yaml"
    m.write_text(m.read_text().replace("starts: [pong]", "starts: []"))      # pong has no start area
    c = load_content([tmp_path / "c"], builtin=False).require_ok()
    with pytest.raises(GameError, match="^the game cannot start: faction 'pong' has no start area"):
        Game(c, "test-loop", ["ping", "pong"], 1)
    assert main(["play", "--content-dir", str(tmp_path / "c"), "--ruleset", "test-loop",
                 "--factions", "ping,pong", "--quiet"]) == 1
    assert capsys.readouterr().err.strip() == ("necro: error: the game cannot start: faction 'pong' has no start "
                                               "area on map layout 'loopland'")


@pytest.mark.parametrize("value,message", [
    ("!!binary 10", "bad YAML value: failed to decode base64 data: Incorrect padding"),
    ("!!timestamp x", "bad YAML value: 'x' is not a valid timestamp (AttributeError)"),   # was a crash
    ("!!int x", "bad YAML value: 'x' is not a valid int (ValueError)"),
    ("!!float x", "bad YAML value: 'x' is not a valid float (ValueError)"),
    ("!!python/object:os.system x", "bad YAML value: could not determine a constructor for the tag"),
])
def test_a_bad_tagged_value_is_a_one_line_finding(tmp_path: Path, value: str, message: str) -> None:
    # found by benchmarks/fuzz_content.py: the base64 error was a finding of four lines
    (tmp_path / "t.yaml").write_text(f"kind: token\nid: t\nname: T\ncount: {value}\n")
    found = _findings(tmp_path)
    assert found and all("\n" not in f for f in found), found
    assert found[0].startswith("t.yaml:4:8: ") and message in found[0], found
