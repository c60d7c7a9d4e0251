"""What the listings make once instead of per listing (issue 29, session 24): a unit's move labels
are made once and shared, the requirement actions' candidates are a content fact, and a
requirement action whose cost is a plain number and that has no condition makes no context."""
from __future__ import annotations

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine import actions, core
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.option import move_label, move_labels


def test_a_units_move_labels_are_its_move_label_texts_made_once() -> None:
    dsts = ["arctic-ocean", "north-asia", "europe"]
    first = move_labels("cultist", "scandinavia", 7, dsts)
    assert first == [move_label("cultist", "scandinavia", d, 7) for d in dsts]
    assert first[1] == "cultist scandinavia->north-asia#7"
    again = move_labels("cultist", "scandinavia", 7, dsts[1:])
    assert again[0] is first[1] and again[1] is first[2]   # shared, not made again
    assert move_labels("cultist", "europe", 7, ["north-asia"]) == ["cultist europe->north-asia#7"]


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
