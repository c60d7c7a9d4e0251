"""The rules context declares its fields, derived facts live in one memo, and facts of the content
alone are immutable tables found as it is built (engine/rules.py, content/tables.py).

- No module sets an undeclared attribute on the context or the game: both have `__slots__` (a
  stray attribute raises at once), and a scan of interpreter/ finds every attribute written on a
  context or game and checks it is declared.
- A copy (`Rules.copy`, `Game.clone`) holds no stale derived fact: at every position of seeded
  games the copy's memo, and the original's after the copy moves on, agree with the facts worked
  out afresh.
"""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.agents import HeuristicAgent, RandomAgent
from necronomicon.interpreter.engine.basics import MEMO_CHECKED_AT_USE
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.rules import Rules
from necronomicon.interpreter.engine.rules_fields import RulesFields
from necronomicon.interpreter.engine.seat import hand_seats
from necronomicon.interpreter.bots import make_agent

ROOT = Path(__file__).resolve().parents[1]
# the names a module of the rules gives the context or the game it works on
CONTEXT_NAMES = {"g", "r", "game", "rules", "probe", "board"}


def _declared() -> set[str]:
    props = {n for n, v in vars(Game).items() if isinstance(v, property) and v.fset is not None}
    return set(RulesFields.__slots__) | set(Game.__slots__) | props


def _written_attributes(path: Path) -> list[tuple[int, str, str]]:
    """(line, base, attribute) of every attribute written on a name for a context or a game."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            for t in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(t, ast.Attribute):
                    base = ast.unparse(t.value)
                    if base in CONTEXT_NAMES or base.endswith(".rules"):
                        out.append((node.lineno, base, t.attr))
    return out


def test_the_context_and_the_game_have_declared_fields_only(builtin: Any) -> None:
    g = Game(builtin, "duel", ["sleeper", "wind-rider"], 3)
    for obj in (g, g.rules):
        assert not hasattr(obj, "__dict__")
        with pytest.raises(AttributeError):
            obj._a_stray_cache = {}   # type: ignore[union-attr]
    twin = g.rules.twin()
    assert Rules.__slots__ == ()   # its fields are RulesFields' (rules_fields.py)
    assert all(getattr(twin, n) is getattr(g.rules, n) for n in RulesFields.__slots__)   # every field set


def test_the_compiled_fields_are_the_declared_slots() -> None:
    """rules_fields.pxd (and context.pxd) make the slots C fields of an extension type, which has no
    others: a slot missing from the declarations could not be set in the compiled core, one
    declared but not a slot would be set in the compiled core only."""
    from necronomicon.interpreter.engine.context import EffectCtx
    for cls, pxd in ((RulesFields, "rules_fields.pxd"), (EffectCtx, "context.pxd")):
        text = (ROOT / "interpreter" / "engine" / pxd).read_text(encoding="utf-8")
        declared = []
        for line in text.splitlines():
            code = line.split("#")[0].strip()
            if code.startswith("cdef public "):
                declared += [n.strip() for n in code.split(None, 3)[3].split(",")]
        assert sorted(declared) == sorted(cls.__slots__), pxd


def test_no_module_writes_an_undeclared_attribute_on_the_context() -> None:
    declared = _declared()
    found, stray = 0, []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        for line, base, attr in _written_attributes(path):
            found += 1
            if attr not in declared:
                stray.append(f"{path.relative_to(ROOT)}:{line}: {base}.{attr}")
    assert found > 30   # the scan sees the context's real writes (feasible.py, flow.py, game.py, ...)
    assert not stray, "attributes set on the rules context or game that it does not declare: " + "; ".join(stray)


def test_the_scan_catches_a_stray_attribute(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f(g):\n    g._kept_listing = []\n    g.rules._index = {}\n    other.x = 1\n")
    assert [(b, a) for _, b, a in _written_attributes(bad)] == [("g", "_kept_listing"), ("g.rules", "_index")]
    assert not {a for _, _, a in _written_attributes(bad)} <= _declared()


def _check_fresh(r: Rules) -> None:
    """Every memo fact of `r` equals the one worked out afresh (AssertionError naming it if not)."""
    if r.memo_current():
        r._check_memo(r.memo())


@pytest.mark.parametrize("ruleset,factions,seed", [
    ("duel", ["sleeper", "wind-rider"], 4),
    ("multiplayer", ["great-cthulhu", "black-goat", "crawling-chaos", "yellow-sign"], 7),
])
def test_a_copy_holds_no_stale_derived_fact(builtin: Any, ruleset: str, factions: list[str], seed: int) -> None:
    g = Game(builtin, ruleset, factions, seed)
    bots = {p: (HeuristicAgent(seed + i) if i % 2 else RandomAgent(seed + i)) for i, p in enumerate(factions)}
    hand_seats(g, bots)
    mover = RandomAgent(seed)
    checked = 0
    for step in range(400):
        d = g.pending
        if d is None:
            break
        facts = g.rules.memo()
        if step % 5 == 0 and facts:
            c = g.clone()
            copied = c.rules.memo()
            assert copied == {k: v for k, v in facts.items()} and copied is not facts
            _check_fresh(c.rules)
            for _ in range(6):   # the copy moves on: its facts follow it, the original's stay true
                cd = c.pending
                if cd is None:
                    break
                c.apply(mover.choose(cd.player, cd.options, cd))
                _check_fresh(c.rules)
            _check_fresh(g.rules)
            assert all(not (k.__class__ is tuple and k[0] in MEMO_CHECKED_AT_USE) or v[0] in g.s.flow
                       for k, v in g.rules.memo().items())   # a handoff names a frame of its own state
            checked += 1
        g.apply(bots[d.player].choose(d.player, d.options, d))
    assert checked >= 20


def test_a_search_bot_plays_on_the_declared_fields(builtin: Any) -> None:
    g = Game(builtin, "duel", ["sleeper", "wind-rider"], 2)
    bots: dict[str, Any] = {"sleeper": make_agent("mcts:4", 2), "wind-rider": HeuristicAgent(5)}
    hand_seats(g, bots)
    for _ in range(60):
        d = g.pending
        if d is None:
            break
        g.apply(bots[d.player].choose(d.player, d.options, d))
    assert g.rules._dry_run_memo is not None   # the search cloned it: dry-run results are shared from then on
    _check_fresh(g.rules)


def test_the_content_tables_are_immutable_and_found_at_build(builtin: Any) -> None:
    tables = builtin.model.tables
    with pytest.raises(dataclasses.FrozenInstanceError):
        tables.timed_windows = {}   # type: ignore[misc]
    with pytest.raises(TypeError):
        tables.ability_by_key["x"] = None   # type: ignore[index]
    with pytest.raises(TypeError):
        tables.programs["x"] = None   # type: ignore[index]
    base = load_content().require_ok().model.tables   # each content its own tables
    assert base.ability_by_key.keys() < tables.ability_by_key.keys()
    assert "great-cthulhu/immortal" in tables.ability_by_key
    assert tables.timed_windows["multiplayer"] >= {"state", "action", "on-awaken"}
    immortal = tables.ability_by_key["great-cthulhu/immortal"]
    assert immortal.effect is None or tables.programs[immortal.effect.key] is immortal.effect
    assert base.programs.keys() < tables.programs.keys()


def _requirements(g: Game) -> dict[str, Any]:
    """Every requirement of the game's content by key (faction spellbook requirements, loyalty cards)."""
    holders = [*g.content.factions.values(), *g.content.loyalty_cards.values()]
    return {r.key: r for h in holders for r in h.requirements}


def _kept_answers_are_true(r: Rules, requirements: dict[str, Any]) -> int:
    """Every held condition whose inputs are the state's now gives the answer worked out afresh;
    the number of those checked."""
    from necronomicon.interpreter.engine import held_conditions as hc, part_values
    checked = 0
    for mine, kept in r.held_conditions().items():
        if type(mine) is not tuple:   # a whole check's (held_conditions.first_holding: test_held_conditions)
            continue
        (p, key), (inputs, answer) = mine, kept
        req = requirements[key]
        parts = hc.parts_read(req)
        assert parts is not None
        if part_values.inputs_now(r, parts, p) == inputs:
            assert bool(hc._evaluate(r, p, req, None)) == answer, (p, key)
            checked += 1
    return checked


def test_held_conditions_are_declared_per_state_and_no_copy_shares_them(builtin: Any) -> None:
    """The requirement conditions kept between checks (held_conditions.py) live in the rules
    context's memo record for its state object, never as a stray attribute of the state. A clone
    or a copy starts with none of its own (their inputs are position counters that the two games
    then advance apart), a write keeps them, and a restored position starts afresh."""
    factions = ["great-cthulhu", "black-goat", "crawling-chaos", "yellow-sign"]
    g = Game(builtin, "multiplayer", factions, 7)
    bots = {p: HeuristicAgent(7 + i) for i, p in enumerate(factions)}
    hand_seats(g, bots)
    requirements = _requirements(g)
    mover, checked, compared = RandomAgent(3), 0, 0
    for step in range(300):
        d = g.pending
        if d is None:
            break
        held = g.rules.held_conditions()
        assert "_held" not in vars(g.s) and g.rules.held_conditions() is held
        if step % 10 == 0 and held:
            for c in (g.clone().rules, g.rules.copy()):
                assert c.held_conditions() == {} and c.held_conditions() is not held
            c = g.clone()
            for _ in range(8):   # the clone moves on: its kept answers are its own, the original's stay true
                cd = c.pending
                if cd is None:
                    break
                c.apply(mover.choose(cd.player, cd.options, cd))
            assert c.rules.held_conditions() is not held
            compared += _kept_answers_are_true(c.rules, requirements) + _kept_answers_are_true(g.rules, requirements)
            checked += 1
        before = g.s
        g.apply(bots[d.player].choose(d.player, d.options, d))
        if g.s is before:
            assert g.rules.held_conditions() is held   # kept across the answer's writes
    assert checked >= 5 and compared > 0
    held, before = g.rules.held_conditions(), g.s
    g.undo()   # a restored position is a new state object, with conditions kept of its own
    assert g.s is not before and g.rules.held_conditions() is not held
