"""A single choice whose list the action's condition says is not empty needs no dry run
(effects/guarded_choices.py): the proof is read from the syntax, holds only where nothing can have
changed between the condition and the choice, and checking mode confirms it with the dry run."""
from __future__ import annotations

from typing import Any

import pytest

from interpreter.content import load_content
from interpreter.effects import ast as A
from interpreter.effects.guarded_choices import nonempty_lists, proven_choices, shape
from interpreter.effects.parser import parse
from interpreter.engine import feasible
from interpreter.engine import state as state_module
from interpreter.engine.agents import RandomAgent
from interpreter.engine.game import Game

CHOICES = {"choose_unit": (1, "units"), "choose_area": (1, "areas"), "choose_player": (1, "players"),
           "choose_option": (1, "options")}
NOTING = frozenset({"choose_unit", "choose_area", "choose_player"})
SAFE = frozenset({"count", "units", "areas", "gates"})   # not `power`: paying the cost changes it
MINE = "units(owner: me, kind: 'serpent-man')"


def _expr(text: str) -> Any:
    return parse(text, start="expr_start")


def _proven(effect: str, condition: str) -> list[str]:
    """The proven choices' names, in program order."""
    tree = parse(effect)
    ids = proven_choices(tree, _expr(condition), CHOICES, NOTING, SAFE)
    calls = [n for n in A._nodes(tree) if isinstance(n, A.Call) and n.name in CHOICES]
    return sorted(c.name for c in calls if id(c) in ids)


@pytest.mark.parametrize("condition", [f"count({MINE}) > 0", f"count({MINE}) >= 2", f"0 < count({MINE})",
                                       f"count({MINE}) != 0", f"power(me) > 1 and count({MINE}) >= 1"])
def test_a_condition_that_a_list_is_not_empty_is_read(condition: str) -> None:
    assert shape(_expr(MINE)) in nonempty_lists(_expr(condition))


@pytest.mark.parametrize("condition", [f"count({MINE}) >= 0", f"count({MINE}) > -1", f"count({MINE}) == 0",
                                       f"count({MINE}) > 0 or power(me) > 5", f"not count({MINE}) == 0",
                                       f"count({MINE}) < 3"])
def test_a_condition_that_does_not_say_so_is_not_read_as_saying_it(condition: str) -> None:
    assert shape(_expr(MINE)) not in nonempty_lists(_expr(condition))


def test_the_opening_choice_over_the_same_list_is_proven_whatever_the_layout_of_the_text() -> None:
    effect = f"let s = choose_unit(me,   units(owner: me, kind: 'serpent-man'))\nlet o = choose_player(me, enemies)\nhold(s, 'x')"
    assert _proven(effect, f"count({MINE}) > 0") == ["choose_unit"]


def test_a_choice_after_something_happened_or_over_another_list_is_not_proven() -> None:
    cond = f"count({MINE}) >= 2"
    after = f"let a = choose_unit(me, {MINE})\neliminate(a)\nlet b = choose_unit(me, {MINE})"
    assert _proven(after, cond) == ["choose_unit"]            # the first only
    assert _proven(f"let a = choose_unit(me, units(owner: me))", cond) == []
    assert _proven(f"let a = choose_unit(me, {MINE})", "count(units(owner: me)) > 0") == []


def test_a_list_that_reads_a_rebound_name_an_area_or_an_unsafe_query_is_not_proven() -> None:
    rebound = "let me = first(enemies)\nlet a = choose_unit(me, units(owner: me))"
    assert _proven(rebound, "count(units(owner: me)) > 0") == []
    where = "let a = choose_unit(me, units(area: area))"
    assert _proven(where, "count(units(area: area)) > 0") == []      # `area` is not bound at the condition
    rich = "let p = choose_player(me, [q for q in players if power(q) > 2])"
    assert _proven(rich, "count([q for q in players if power(q) > 2]) > 0") == []   # paying changes power


def test_the_built_content_proves_the_choices_its_conditions_guard() -> None:
    c = load_content().require_ok()
    sleeper = c.model.factions["sleeper"]
    borrow = next(a for sb in sleeper.spellbooks.values() for a in sb.abilities if a.id == "borrow")
    assert borrow.effect.choice_lists == {("choose_unit", A.PROVEN), ("choose_player", "enemies")}
    goat = c.model.factions["black-goat"]
    two = next(r for r in goat.requirements if r.id == "eliminate-two-cultists")
    assert two.action_effect.choice_lists == {("choose_unit", A.PROVEN), ("choose_unit", None)}
    assert feasible.may_lack_a_part(two.action_effect, 4)   # the second cultist still takes a dry run


def _borrow_position(seed: int = 1) -> Game:
    """A Duel position where Ancient Sorcery (borrow) is offered."""
    c = load_content().require_ok()
    for s in range(seed, seed + 40):
        g = Game(c, "duel", ["sleeper", "wind-rider"], s)
        agents = {p: RandomAgent(s * 7 + i) for i, p in enumerate(g.s.players)}
        while (d := g.pending) is not None:
            if any(o.startswith("ability borrow") for o in d.options):
                return g
            g.apply(agents[d.player].choose(d.player, d.options, d))
    raise AssertionError("no position offers borrow")


def test_a_proven_action_is_offered_without_a_dry_run_and_checking_mode_runs_one(monkeypatch: Any) -> None:
    g = _borrow_position()
    p = g.pending.player
    runs: list[int] = []
    search = feasible._search
    monkeypatch.setattr(feasible, "_search", lambda game, run: runs.append(1) or search(game, run))
    monkeypatch.setattr(state_module, "CHECK_MEMO", False)
    assert any(label.startswith("ability borrow") for label, _ in g.main_actions(p))
    assert runs == []
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    assert any(label.startswith("ability borrow") for label, _ in g.main_actions(p))
    assert runs   # the proof was checked by a dry run
    monkeypatch.setattr(feasible, "_search", lambda game, run: False)   # a dry run that disagrees
    with pytest.raises(AssertionError, match="borrow"):
        g.main_actions(p)
