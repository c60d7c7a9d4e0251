"""The Doom Phase's choice (engine/doom.py): the ability a player picks is found among the
doom-phase abilities with its id only, as `choose` listed them at the same position."""
from __future__ import annotations

import random

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine import abilities
from necronomicon.interpreter.engine.game import Game


def _doom_choice_with_two_abilities() -> Game:
    """A seeded Duel at the first Doom Phase choice whose player has two doom-phase abilities
    (the Sleeper's) and is offered one of them."""
    content = load_content().require_ok()
    for seed in range(1, 40):
        g = Game(content, "duel", ["sleeper", "wind-rider"], seed)
        rng = random.Random(seed)
        for _ in range(3000):
            d = g.current()
            if d is None:
                break
            if d.kind == "doom" and len(d.options) > 2 \
                    and len(abilities.window_abilities(g.rules, d.player, "doom-phase")) > 1:
                return g
            g.apply(rng.choice(d.options))
    raise AssertionError("no Doom Phase choice with two doom-phase abilities in 39 seeded Duels")


def test_the_picked_doom_ability_is_the_only_one_evaluated_again(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _doom_choice_with_two_abilities()
    d = g.current()
    assert d is not None
    picked = next(o for o in d.options if o not in ("ritual", "done"))
    others = {a.id for a in abilities.window_abilities(g.rules, d.player, "doom-phase")} - {picked}
    assert others
    fresh = g.clone()
    evaluated: list[str] = []   # the abilities evaluated while the Doom Phase's answer step runs
    usable = abilities.usable

    def counted(rules, ab, *args):  # type: ignore[no-untyped-def]
        top = rules.s.flow[-1]
        if top["proc"] == "doom-phase" and top["at"] == "chosen":
            evaluated.append(ab.id)
        return usable(rules, ab, *args)
    monkeypatch.setattr(abilities, "usable", counted)
    g.apply(picked)
    assert evaluated == [picked]
    monkeypatch.undo()
    fresh.apply(picked)
    assert g.to_json() == fresh.to_json()
