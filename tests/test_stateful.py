"""Hypothesis plays random legal actions across every ruleset and faction combination (sampled),
with or without the expansions (Independents, Azathoth and his neutral cards),
checking every invariant after each logged event and each decision, and saves/loads at random
points: the save round-trips exactly and the loaded game continues exactly like the original.

When a game ends, the only rule that applies starts a fresh one, so a run never runs out of rules.
The CI size is small; `--run-slow` runs more and longer examples."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from benchmarks.soak import SETUPS
from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.invariants import Checker

from tests.figures import add

CONTENT = load_content().require_ok()
EXPANDED = load_content(expansions=["independents", "azathoth"]).require_ok()   # every expansion card in play
NAME = "stateful random play (hypothesis)"


class RandomPlay(RuleBasedStateMachine):
    def _new_game(self, setup: tuple[str, tuple[str, ...]], seating: int, seed: int, expanded: bool) -> None:
        ruleset, combo = setup
        self.content = EXPANDED if expanded else CONTENT
        seats = list(combo[seating % len(combo):] + combo[:seating % len(combo)])
        if getattr(self, "checker", None) is not None:
            self.teardown()
        self.game = Game(self.content, ruleset, seats, seed)
        self.checker = Checker(self.game)
        self.bad: list[str] = []
        add(NAME, games=1)

    def teardown(self) -> None:
        if getattr(self, "checker", None) is not None:
            add(NAME, states_checked=self.checker.states, violations=len(self.bad))
            self.checker.detach()
            self.checker = None

    @initialize(setup=st.sampled_from(SETUPS), seating=st.integers(0, 4), seed=st.integers(0, 10_000),
                expanded=st.booleans())
    def start(self, setup: tuple[str, tuple[str, ...]], seating: int, seed: int, expanded: bool) -> None:
        self._new_game(setup, seating, seed, expanded)

    @precondition(lambda self: self.game.pending is None)
    @rule(setup=st.sampled_from(SETUPS), seating=st.integers(0, 4), seed=st.integers(0, 10_000),
          expanded=st.booleans())
    def game_over_start_another(self, setup: tuple[str, tuple[str, ...]], seating: int, seed: int,
                                expanded: bool) -> None:
        assert self.game.winner() is not None and self.game.legal_actions() == []
        add(NAME, games_finished=1)
        self._new_game(setup, seating, seed, expanded)

    @precondition(lambda self: self.game.pending is not None)
    @rule(data=st.data(), steps=st.integers(1, 40))
    def act(self, data: st.DataObject, steps: int) -> None:
        for _ in range(steps):
            options = self.game.legal_actions()
            if not options:
                break
            self.game.apply(data.draw(st.sampled_from(options)))
            add(NAME, decisions=1)
            self.bad += self.checker.check()

    @precondition(lambda self: self.game.pending is not None)
    @rule(steps=st.lists(st.integers(0, 50), min_size=1, max_size=8))
    def save_load_and_continue(self, steps: list[int]) -> None:
        saved = json.loads(json.dumps(self.game.to_json()))
        loaded = Game.from_json(self.content, saved)
        assert loaded.to_json() == saved
        assert loaded.digest() == self.game.digest()
        add(NAME, save_loads=1)
        for k in steps:
            if self.game.pending is None:
                break
            opts = self.game.legal_actions()
            assert loaded.legal_actions() == opts
            answer = opts[k % len(opts)]
            self.game.apply(answer)
            loaded.apply(answer)
            self.bad += self.checker.check()
        assert loaded.digest() == self.game.digest()
        assert loaded.to_json()["snapshot"] == self.game.to_json()["snapshot"]

    @invariant()
    def invariants_hold(self) -> None:
        if hasattr(self, "game"):
            assert self.bad == []


SMALL = settings(max_examples=10, stateful_step_count=25, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LARGE = settings(max_examples=50, stateful_step_count=60, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def test_random_play_keeps_invariants_and_saves_round_trip() -> None:
    run_state_machine_as_test(RandomPlay, settings=SMALL)


@pytest.mark.slow
def test_random_play_larger() -> None:
    run_state_machine_as_test(RandomPlay, settings=LARGE)
