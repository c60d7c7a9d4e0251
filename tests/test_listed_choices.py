"""A single choice whose list nothing before it writes is decided when the action is listed
(effects/listed_choices.py): found from the syntax and the declared writes of the verbs before it,
trusted only while the content's unit costs read nothing those verbs write (content/tables.py),
and confirmed by a dry run in checking mode."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content import tables as tables_module
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.content.effect_build import _choice_lists, _pure_calls
from necronomicon.interpreter.effects import ast as A
from necronomicon.interpreter.effects.listed_choices import listed_choice, sound
from necronomicon.interpreter.effects.parser import parse
from necronomicon.interpreter.effects.primitive_facts import (COST_TARGETS, NOTING_CHOICES, UNIT_COSTS, WRITES)
from necronomicon.interpreter.engine import actions, core, feasible
from necronomicon.interpreter.engine import state as state_module
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.position import build_state

BG, YS = "black-goat", "yellow-sign"
POOL = "[u for u in pool(me, class: ['monster', 'cultist']) if cost(u) <= 2]"
ROLL = "let a = area\nlet r = roll_die()\nif r <= 3 { place_token('desecration', a, move: false) }\n"


def _listed(effect: str) -> Any:
    return listed_choice(parse(effect), _choice_lists(), NOTING_CHOICES, set(), _pure_calls())


def test_a_choice_after_declared_writes_it_does_not_read_is_listed() -> None:
    found = _listed(f"{ROLL}let m = choose_unit(me, {POOL})\nplace(m, a)")
    assert found is not None
    call, listed, reads, writes = found
    assert call.name == "choose_unit" and isinstance(listed, A.Comprehension)
    assert reads == {"units", UNIT_COSTS} and {"rng", "tokens", "power"} <= writes


@pytest.mark.parametrize("effect", [
    f"{ROLL}let m = choose_area(me, areas(without_token: 'desecration'))\nplace(m, a)",   # reads the tokens written
    f"gain_power(me, 1)\nlet m = choose_player(me, [p for p in enemies if power(p) > 1])\nplace(m, area)",  # Power
    f"let x = choose_unit(me, units(owner: me))\nlet m = choose_unit(me, {POOL})\nplace(m, area)",   # a decision before
    f"move_to(self, area)\nlet m = choose_unit(me, {POOL})\nplace(m, area)",       # a verb whose writes are not declared
    f"let a = area\nlet m = choose_unit(me, [u for u in pool(me) if u.loc == a])\nplace(m, a)",   # a name bound inside
    f"if power(me) > 1 {{ let m = choose_unit(me, {POOL})\nplace(m, area) }}",     # not reached on every line of play
    f"{ROLL}let m = choose_unit(me, {POOL})\nif m != none {{ place(m, a) }}",     # optional: no part is missing
    f"{ROLL}let m = choose_unit(me, {POOL})\ngain_power(me, 1)\nplace(m, a)",      # something runs before it fails
    f"{ROLL}let m = choose_unit(me, [u for u in pool(me) if u.combat > 0])\nplace(m, a)",   # a computed field
])
def test_a_choice_whose_list_may_differ_or_whose_absence_may_not_fail_is_not_listed(effect: str) -> None:
    assert _listed(effect) is None


def test_unit_costs_are_trusted_only_while_they_read_nothing_written_before() -> None:
    reads, writes = frozenset({"units", UNIT_COSTS}), frozenset({"tokens", "rng", "power"})
    assert sound((reads, writes), frozenset({"units", "awakened", "spellbooks"}))
    assert not sound((reads, writes), frozenset({"units", "tokens"}))
    assert not sound((reads, writes), None)                     # a cost that may read anything
    assert sound((frozenset({"units"}), writes), None)         # a list that reads no cost


def test_the_declared_facts_match_the_engine() -> None:
    assert COST_TARGETS == {*core.COST_TARGETS.values(), core.SUMMON_COST}
    assert not set(WRITES) & {"kill", "eliminate", "move_to", "place", "capture"}   # they open windows


def _position(content: Content, pool_byakhee: bool) -> Game:
    """The King in Yellow in Africa with the Acolytes and Undead around him (any roll places a
    token); the Byakhee in the pool, or on the map too."""
    units = {"africa": ["king-in-yellow"] + ["acolyte"] * 6 + ["undead"] * 6}
    if not pool_byakhee:
        units["asia"] = ["byakhee"] * 4
    pos = {"player": YS, "first": YS, "power": {BG: 10, YS: 10}, "units": {YS: units, BG: {"asia": ["acolyte"]}},
           "requirements": {BG: ["share-areas-with-all-enemies"]}}
    rs = content.model.rulesets["two-player"]
    layout = rs.get("map", {})["2"]
    st = build_state(content.model, "two-player", layout, [BG, YS], 1, pos).to_dict()
    return Game(content, "two-player", [BG, YS], 1, layout, _state=st)


def _offered(g: Game) -> list[str]:
    return [o.label for o in actions.main_actions(g.rules, YS) if o.label.startswith("ability desecrate")]


@pytest.mark.parametrize("pool_byakhee", [True, False])
def test_desecrate_is_decided_with_no_dry_run_and_checking_mode_runs_one(monkeypatch: Any, pool_byakhee: bool) -> None:
    g = _position(load_content().require_ok(), pool_byakhee)
    runs: list[str] = []
    complete = feasible.can_complete
    monkeypatch.setattr(feasible, "can_complete", lambda game, key, run: (
        runs.append(key) if "desecrate" in key else None) or complete(game, key, run))
    monkeypatch.setattr(state_module, "CHECK_MEMO", False)
    assert _offered(g) == (["ability desecrate africa"] if pool_byakhee else []) and runs == []
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    assert _offered(g) == (["ability desecrate africa"] if pool_byakhee else []) and len(runs) == 1
    monkeypatch.setattr(feasible, "can_complete", lambda game, key, run: (
        not pool_byakhee if "desecrate" in key else complete(game, key, run)))   # a dry run that disagrees
    with pytest.raises(AssertionError, match="desecrate"):
        _offered(g)


DEARER = """
      - id: dearer-on-desecration
        name: Dearer on Desecration
        window: static
        optional: false
        text: (a test's rule) Byakhee cost 1 more once a Desecration token is out.
        modifiers:
          - target: summon-cost
            when: "subject.owner == me and subject.kind == 'byakhee' and count(tokens(token: 'desecration')) > 0"
            value: "value + 1"
"""


def test_a_unit_cost_that_reads_what_the_action_writes_leaves_the_choice_to_the_dry_run(
        tmp_path: Path, monkeypatch: Any) -> None:
    """With a cost modifier reading the tokens Desecrate places, the Byakhee in the pool costs 2
    when Desecrate is listed and 3 when it chooses: Desecrate cannot be done in full. The content's
    unit costs' reads keep the choice to the dry run; taken as sound, the list would offer it."""
    text = Path(__file__).parents[1].joinpath("content/factions/yellow-sign.yaml").read_text()
    at = text.index("  - id: king-in-yellow")
    factions = tmp_path / "factions"
    factions.mkdir()
    (factions / "yellow-sign.yaml").write_text(text[:at] + text[at:].replace(
        "    abilities:\n      - id: desecrate\n", "    abilities:" + DEARER + "      - id: desecrate\n", 1))
    content = load_content([tmp_path]).require_ok()
    desecrate = content.model.tables.ability_by_key["yellow-sign/desecrate"]
    assert desecrate.effect.listed is not None and desecrate.effect.key not in content.model.tables.listed_programs
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    assert _offered(_position(content, True)) == []   # the dry run's answer
    monkeypatch.setattr(tables_module, "sound", lambda listed, reads: True)   # no soundness condition
    unsound = load_content([tmp_path]).require_ok()
    assert desecrate.effect.key in unsound.model.tables.listed_programs
    with pytest.raises(AssertionError, match="a dry run the opposite"):
        _offered(_position(unsound, True))
    monkeypatch.setattr(state_module, "CHECK_MEMO", False)
    assert _offered(_position(unsound, True)) == ["ability desecrate africa"]   # offered, wrongly
