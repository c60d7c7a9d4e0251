"""What the listings make once instead of per listing (issue 29, session 24): the requirement actions' candidates are a content fact, and a
requirement action whose cost is a plain number and that has no condition makes no context."""
from __future__ import annotations

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine import actions, core
from necronomicon.interpreter.engine.game import Game


def test_the_requirement_actions_candidates_are_each_factions_action_requirements_in_order() -> None:
    c = load_content().require_ok()
    for fid, f in c.model.factions.items():
        common, unlimited = c.model.tables.action_requirements[fid]
        assert common == tuple(r for r in f.requirements if r.when == "action" and not r.action_unlimited)
        assert unlimited == tuple(r for r in f.requirements if r.when == "action" and r.action_unlimited)
    common, unlimited = c.model.tables.action_requirements["sleeper"]
    assert [r.id for r in common] == ["spend-3-opponent-gains-1", "spend-3-opponent-gains-3", "spend-3-opponent-loses-1"]
    assert [r.id for r in c.model.tables.action_requirements["wind-rider"][1]] == ["any-moment"]


def test_a_requirement_action_with_a_plain_cost_and_no_condition_makes_no_context(monkeypatch: pytest.MonkeyPatch) -> None:
    c = load_content().require_ok()
    g = Game(c, "duel", ["sleeper", "wind-rider"], 3)
    g.rules.s.power["sleeper"] = 4
    before = actions.requirement_actions(g.rules, "sleeper", False)
    assert sorted((o.ability, o.cost) for o in before) == [("spend-3-opponent-gains-1", 3), ("spend-3-opponent-gains-3", 3),
                                                          ("spend-3-opponent-loses-1", 3)]

    def no_ctx(*a: object, **k: object) -> None:
        raise AssertionError("a context was made for a plain cost")
    monkeypatch.setattr(core, "ctx", no_ctx)
    assert actions.requirement_actions(g.rules, "sleeper", False) == before
