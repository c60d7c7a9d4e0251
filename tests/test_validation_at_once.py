"""Validation reports everything at once (issue 30): a schema error hides no other finding of its
file and causes none elsewhere; a faction that can never hold six spellbooks is a warning; a
faction without a colour gets one far from the others'; content text cannot drive the terminal."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from necronomicon.interpreter.content import load_content
from necronomicon.tools.views.colours import CANDIDATES, distance, faction_colours
from tests.edited_fixture import LOOP, edited_loop


def _content(tmp: Path, edits: dict[str, str]) -> Path:
    return edited_loop(tmp, edits)


def _found(folder: Path) -> list[tuple[str, int, str]]:
    c = load_content([folder], builtin=False)
    return sorted((Path(d.path).name, d.line, d.code) for d in c.report.errors)


def test_a_schema_error_hides_no_other_finding_of_its_file_and_causes_none_elsewhere(tmp_path: Path) -> None:
    folder = _content(tmp_path, {
        "name: Ping\n": "name: Ping\ncolor: red\n",                     # a schema error (colour misspelt)
        '"kill(first(units(owner: enemy_of(me))))"': '"kill(first(units(owner: enemy_of(me)))"',
        "event.area != none": "event.aera != none"})
    # the schema error, the effect's syntax error and the misspelt event field: all three at once,
    # and no 'unknown faction ping' in map.yaml (the faction is known, only its file has mistakes)
    assert _found(folder) == [("ping.yaml", 4, "schema"), ("ping.yaml", 20, "effect-syntax"),
                              ("ping.yaml", 26, "event-field")]


def test_a_schema_error_in_a_unit_still_checks_the_abilities(tmp_path: Path) -> None:
    folder = _content(tmp_path, {"cost: 1, combat: 1}": "cost: 1, combat: 1, speed: 3}",
                                 "event.area != none": "event.aera != none"})
    assert _found(folder) == [("ping.yaml", 6, "schema"), ("ping.yaml", 25, "event-field")]


def test_a_faction_that_can_never_hold_six_spellbooks_is_a_warning(tmp_path: Path) -> None:
    reqs = "".join(f'  - {{id: r{i}, text: never, condition: "false"}}\n' for i in range(2, 7))
    books = "".join(f"  - {{id: ping-book-{i}, name: Book {i}}}\n" for i in range(2, 7))
    folder = _content(tmp_path, {reqs: "", books: ""})
    c = load_content([folder], builtin=False)
    assert c.ok
    six = [d for d in c.report.warnings if d.code == "six-spellbooks"]
    assert [(Path(d.path).name, d.message) for d in six] == \
        [("ping.yaml", "faction 'ping' can never hold six spellbooks: it has 1 requirement(s)")]
    assert not [d for d in load_content([LOOP], builtin=False).report.warnings if d.code == "six-spellbooks"]


def test_a_faction_without_a_colour_gets_the_one_farthest_from_every_other() -> None:
    model = load_content(expansions="all").require_ok().model
    others = [f.colour for f in model.factions.values()] + ["#ffffff", "#000000"]
    given = faction_colours(model, ["newcomer"])["newcomer"]
    nearest = min(distance(given, c) for c in others)
    assert nearest == max(min(distance(c, o) for o in others) for c in CANDIDATES)
    # the old fixed palette's first colour was next to Great Cthulhu's green
    assert nearest > 2 * distance("#2ca02c", "#2e8b57")
    assert faction_colours(model, ["newcomer", "great-cthulhu"])["newcomer"] == given   # the same in every picture
    two = faction_colours(model, ["newcomer", "other"])
    assert distance(two["newcomer"], two["other"]) > 30


def test_control_characters_in_content_text_are_an_error_and_never_printed(tmp_path: Path) -> None:
    folder = _content(tmp_path, {"name: Ping\n": 'name: "Ping\\e]0;pwned\\a\\e[2J"\n'})
    c = load_content([folder], builtin=False)
    assert [(d.line, d.code) for d in c.report.errors] == [(3, "control-character")]
    assert "\\x1b" in c.report.errors[0].message
    for argv in (["validate", "--only", str(folder)], ["show", "faction", "--content-dir", str(folder), "ping"]):
        run = subprocess.run([sys.executable, "-m", "necronomicon.tools.necro", *argv], capture_output=True, text=True,
                             cwd=Path(__file__).parent.parent, timeout=120)
        out = run.stdout + run.stderr
        assert run.returncode != 0 and "\x1b" not in out and "\x07" not in out and "Traceback" not in out
        assert "ping.yaml:3:7" in out and "control-character" in out


def test_an_unknown_value_warns_unless_the_content_names_its_declared_reading(tmp_path: Path) -> None:
    unknown = 'cost: {unknown: "illegible", interpretation: 1}, combat: 1}'
    warned = load_content([_content(tmp_path / "w", {"cost: 1, combat: 1}": unknown})], builtin=False)
    assert [(d.code, d.line) for d in warned.report.warnings] == [("unknown-value", 6)]
    with_reading = unknown.replace("interpretation: 1}", 'interpretation: 1, reading: "README: a house table"}')
    declared = load_content([_content(tmp_path / "d", {"cost: 1, combat: 1}": with_reading})], builtin=False)
    assert declared.ok and not declared.report.warnings
    assert [d.message for d in declared.report.readings] == \
        ["cost of Grunt is unknown: illegible (played as 1) (declared reading: README: a house table)"]
