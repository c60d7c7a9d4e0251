"""Hypothesis plays random legal actions across rulesets and faction sets, checking every
invariant after each one, and saves/loads at random points (the loaded game must continue
exactly like the original)."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from interpreter.content import load_content
from interpreter.engine.game import Game
from interpreter.engine.invariants import violations

CONTENT = load_content().require_ok()
SETUPS = [
    ("duel", ["sleeper", "wind-rider"]),
    ("two-player", ["great-cthulhu", "black-goat"]),
    ("two-player", ["crawling-chaos", "yellow-sign"]),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat"]),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"]),
    ("multiplayer", ["crawling-chaos", "black-goat", "yellow-sign", "sleeper", "wind-rider"]),
]


class RandomPlay(RuleBasedStateMachine):
    @initialize(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10_000))
    def start(self, setup: tuple[str, list[str]], seed: int) -> None:
        self.game = Game(CONTENT, setup[0], list(setup[1]), seed)
        self.before = {"doom": dict(self.game.s.doom), "ritual": self.game.s.ritual}

    @precondition(lambda self: self.game.pending is not None)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        options = self.game.legal_actions()
        assert options, "a game that is not over always offers a choice"
        self.before = {"doom": dict(self.game.s.doom), "ritual": self.game.s.ritual}
        self.game.apply(data.draw(st.sampled_from(options)))

    @precondition(lambda self: self.game.pending is not None)
    @rule(steps=st.lists(st.integers(0, 50), min_size=1, max_size=8))
    def save_load_and_continue(self, steps: list[int]) -> None:
        saved = json.loads(json.dumps(self.game.to_json()))
        loaded = Game.from_json(CONTENT, saved)
        assert loaded.to_json() == saved
        for k in steps:
            if self.game.pending is None:
                break
            opts = self.game.legal_actions()
            assert loaded.legal_actions() == opts
            answer = opts[k % len(opts)]
            self.game.apply(answer)
            loaded.apply(answer)
        assert loaded.digest() == self.game.digest()

    @invariant()
    def invariants_hold(self) -> None:
        if hasattr(self, "game"):
            assert violations(self.game, self.before) == []


RandomPlay.TestCase.settings = settings(max_examples=12, stateful_step_count=60, deadline=None,
                                        suppress_health_check=[HealthCheck.too_slow])
TestRandomPlay = RandomPlay.TestCase
