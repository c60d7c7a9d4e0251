"""The plans the unique and requirement actions' listings keep (issue 29, session 28): read once per
ability and per content tables, another tables object gets its own, and a stale one is caught in
checking mode."""
from __future__ import annotations

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine import state as state_module
from necronomicon.interpreter.engine import unique_actions
from necronomicon.interpreter.engine.game import Game


def test_an_abilitys_plan_holds_its_fields_and_a_stale_one_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    c = load_content().require_ok()
    ab = next(a for f in c.model.factions.values() for a in f.abilities if a.cost is not None)
    plan = unique_actions._ability_plan(ab)
    assert plan[0] is ab and plan[1] == ab.id and plan[4] is ab.where and plan[5] is ab.effect
    assert unique_actions._ability_plan(ab) is plan   # kept
    monkeypatch.setitem(unique_actions._ABILITY_PLANS, ab.key, (ab, "another id", *plan[2:]))
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    with pytest.raises(AssertionError, match="stale plan"):
        unique_actions._ability_plan(ab)


def test_the_requirement_plans_follow_the_content_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    c = load_content().require_ok()
    g = Game(c, "duel", ["sleeper", "wind-rider"], 3).rules
    plan = unique_actions._plan(g, "sleeper", False)
    assert [step[1] for step in plan] == [r.id for r in c.model.tables.action_requirements["sleeper"][0]]

    class Tables:   # another tables object: its own plans, not the kept ones
        action_requirements = {"sleeper": ((), ())}
    monkeypatch.setattr(g, "tables", Tables())
    assert unique_actions._plan(g, "sleeper", False) == ()
    monkeypatch.undo()
    assert unique_actions._plan(g, "sleeper", False) == plan   # made again for these tables
    unique_actions._KEPT[1]["sleeper"] = ((), ())   # a stale plan for the tables kept
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    with pytest.raises(AssertionError, match="stale requirement-action plans"):
        unique_actions._plan(g, "sleeper", False)
    unique_actions._KEPT[0] = None   # (made again at the next listing)
