"""Formulas that read themselves and queries that visit everything (issue 30, first item): a cycle
seen in the text is a finding at load; any other ends the step in one GameError naming the ability,
the game as it was; queries spend the step budget by what they return."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.decisions import GameError
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.limits import MAX_FORMULA_DEPTH, MAX_STEPS
from tests.edited_fixture import edited_loop

STRIKE = '    effect: "kill(first(units(owner: enemy_of(me))))"\n'
SWELL = ("  - id: swell\n    name: Swell\n    window: static\n    text: stronger\n    modifiers:\n"
         "      - target: combat\n        value: {value}\n  - id: strike-ping\n")


def _content(tmp: Path, edits: dict[str, str]) -> Path:
    return edited_loop(tmp, edits, count=1)


def _line_of(folder: Path, needle: str) -> int:
    lines = (folder / "factions" / "ping.yaml").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def _sum_of(kind: str) -> str:
    return json.dumps(f"sum([combat(u) for u in units(kind: '{kind}', where: 'any')])")


CYCLES = {
    "a-modifier-reads-its-subject": ({"  - id: strike-ping\n": SWELL.format(value='"combat(subject) + 1"')},
                                     "value: \"combat(subject)", "Swell (a modifier of combat) reads itself ("),
    "a-unit-sums-its-own-kind": ({"cost: 1, combat: 1}": f"cost: 1, combat: {_sum_of('grunt')}}}"},
                                 "id: grunt", "the combat of Grunt reads itself ("),
    "two-units-read-each-other": ({"cost: 1, combat: 1}": f"cost: 1, combat: {_sum_of('ping-titan')}}}",
                                   "    combat: 4\n": f"    combat: {_sum_of('grunt')}\n"},
                                  "id: grunt", "the combat of Grunt reads itself through the combat of Ping Titan "
                                               "-> the combat of Grunt"),
    "a-cost-reads-itself": ({"cost: 1, combat: 1}": "cost: \"cost(self)\", combat: 1}"},
                            "id: grunt", "the cost of Grunt reads itself ("),
}


@pytest.mark.parametrize("name", sorted(CYCLES))
def test_a_cycle_seen_in_the_text_is_a_finding_naming_it(tmp_path: Path, name: str) -> None:
    edits, line_text, message = CYCLES[name]
    folder = _content(tmp_path, edits)
    c = load_content([folder], builtin=False)
    found = [d for d in c.report.errors if d.code == "formula-cycle"]
    assert len(found) == 1, c.report.errors
    assert found[0].path.endswith("ping.yaml") and found[0].line == _line_of(folder, line_text)
    assert found[0].message.startswith(message)


def test_formulas_that_read_others_without_a_cycle_load() -> None:
    # the built-in content: combat and cost formulas, modifiers, none reading itself
    assert not [d for d in load_content(expansions="all").report.errors if d.code == "formula-cycle"]


def test_a_unit_reading_another_kind_is_no_cycle(tmp_path: Path) -> None:
    folder = _content(tmp_path, {"cost: 1, combat: 1}": f"cost: 1, combat: {_sum_of('ping-titan')}}}"})
    assert load_content([folder], builtin=False).ok


def _strike(effect: str) -> dict[str, str]:
    return {STRIKE: f"    effect: {json.dumps(effect)}\n"}


def test_a_cycle_left_to_the_run_ends_in_one_game_error_naming_the_ability(tmp_path: Path) -> None:
    # the modifier reads the combat of Grunts and applies to every unit: a cycle only once a Grunt
    # is read, which the text does not show
    reads_grunts = json.dumps(f"count([u for u in units(kind: 'grunt', where: 'any') if combat(u) > 0])")
    folder = _content(tmp_path, {"  - id: strike-ping\n": SWELL.format(value=reads_grunts),
                                 **_strike("gain_power(me, combat(first(units(kind: 'grunt', where: 'any'))))")})
    c = load_content([folder], builtin=False).require_ok()
    g = Game(c, "test-loop", ["ping", "pong"], 1)
    while "ability strike-ping" not in g.legal_actions():
        g.apply(g.legal_actions()[0])
    before = json.dumps(g.to_json(), sort_keys=True)
    with pytest.raises(GameError) as err:
        g.apply("ability strike-ping")
    msg = str(err.value)
    assert "\n" not in msg and "RecursionError" not in msg
    assert f"Swell (a modifier of combat): formulas nested more than {MAX_FORMULA_DEPTH} deep" in msg
    assert "(Swell (a modifier of combat) -> Swell (a modifier of combat))" in msg
    assert json.dumps(g.to_json(), sort_keys=True) == before
    assert g.rules.formula_depth == 0


def test_a_condition_listing_every_unit_again_and_again_is_stopped_by_the_budget(tmp_path: Path) -> None:
    every = "units(where: 'any')"
    listing = f"count([count([count({every}) for b in {every}]) for a in {every}]) < 0"
    # 30 x (18 + 18 x 18) loop iterations: far under the budget; the units they list are not
    cond = " or ".join([listing] * 30)
    folder = _content(tmp_path, {'{id: r1, text: never, condition: "false"}':
                                 "{id: r1, text: never, condition: " + json.dumps(cond) + "}"})
    g = Game(load_content([folder], builtin=False).require_ok(), "test-loop", ["ping", "pong"], 1)
    for _ in range(50):
        if g.is_over():
            break
        before = json.dumps(g.to_json(), sort_keys=True)
        try:
            g.apply(g.legal_actions()[-1])
        except GameError as exc:
            msg = str(exc)
            assert "requirement r1" in msg and f"more than {MAX_STEPS} evaluation steps" in msg
            assert json.dumps(g.to_json(), sort_keys=True) == before
            return
    pytest.fail("the budget never stopped the condition")


# ---- YAML aliases: each distinct node is compiled once -------------------------------------------
LONG = " and ".join(["count([u for u in units(owner: me) if u.kind != 'x' and u.kind != 'y']) >= 0"] * 90)


def _aliased(tmp: Path, uses: int, first: str = "&f", text: str = LONG, again: str = "*f") -> Path:
    lines = [f'  - {{id: a0, name: A0, window: action, text: t, condition: {first} {json.dumps(text)}, effect: nothing}}\n']
    lines += [f"  - {{id: a{i}, name: A{i}, window: action, text: t, condition: {again}, effect: nothing}}\n"
              for i in range(1, uses)]
    return _content(tmp, {"abilities:\n": "abilities:\n" + "".join(lines)})


def _compilations(monkeypatch: pytest.MonkeyPatch, folder: Path, text: str) -> tuple[int, int, Any]:
    """(times `text` was parsed by lark, times it was compiled, the loaded content)."""
    from necronomicon.interpreter.content import effect_build
    from necronomicon.interpreter.effects import parser
    parsed, compiled = [0], [0]
    real_parse, real_compile = parser._parse, effect_build.EffectBuilder._compile_expr

    def counting_parse(t: str, start: str) -> Any:
        parsed[0] += t == text
        return real_parse(t, start)

    def counting_compile(self: Any, doc: Any, key: Any, value: Any, *rest: Any) -> Any:
        compiled[0] += value == text
        return real_compile(self, doc, key, value, *rest)
    monkeypatch.setattr(parser, "_parse", counting_parse)
    monkeypatch.setattr(parser, "_parsed", type(parser._parsed)())
    monkeypatch.setattr(effect_build.EffectBuilder, "_compile_expr", counting_compile)
    loaded = load_content([folder], builtin=False)
    return parsed[0], compiled[0], loaded


def test_a_formula_named_by_600_aliases_is_parsed_and_compiled_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _aliased(tmp_path, 600)
    c = load_content([folder], builtin=False)   # the real load first: every ability is there
    assert c.ok and len(c.model.factions["ping"].abilities) == 602
    parsed, compiled, _ = _compilations(monkeypatch, folder, LONG)
    assert (parsed, compiled) == (1, 1)


def test_copies_written_out_are_each_checked_and_an_alias_reports_once(tmp_path: Path) -> None:
    bad = "count(units(owner: me)) >"
    aliased = load_content([_aliased(tmp_path / "a", 50, text=bad)], builtin=False)
    assert [d.code for d in aliased.report.errors] == ["effect-syntax"]
    written = load_content([_aliased(tmp_path / "w", 3, text=bad, again=json.dumps(bad))], builtin=False)
    found = [d for d in written.report.errors if d.code == "effect-syntax"]
    assert len({(d.line, d.col) for d in found}) == 3
