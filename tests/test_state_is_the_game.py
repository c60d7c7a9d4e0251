"""The state is the whole game (issue #13): at every decision the rule flow is data in the state.

Seeded games of every ruleset and player count, with and without the expansions, by random and
heuristic bots: at every decision no rule is running as a Python generator, the frames are JSON,
`clone()` and `from_json()` never run a rule on the game they make (the driver is switched off while
they work; a load's check by replay, engine/reachable.py, plays the answers on a game of its own), and
`undo(n)` puts back a kept position and applies at most a few answers again (engine/checkpoints.py).
"""
from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest

from necronomicon.interpreter.engine import flow
from necronomicon.interpreter.engine.agents import HeuristicAgent, RandomAgent
from necronomicon.interpreter.engine.game import FORMAT, Game, GameError
from necronomicon.interpreter.engine.savefile import SaveError
from necronomicon.interpreter.limits import CHECKPOINT_EVERY

from .test_copies_property import CASES, FACTIONS, content


def _games(ruleset: str, players: int, expanded: bool, decisions: int = 220) -> Iterator[Game]:
    """Two seeded games (one random, one heuristic bot), yielded at each of their decisions."""
    r = random.Random(f"state-{ruleset}-{players}-{expanded}")
    for agent_cls in (RandomAgent, HeuristicAgent):
        seed = r.randrange(10_000)
        g = Game(content(expanded), ruleset, FACTIONS[ruleset, players], seed)
        agent = agent_cls(seed)
        for _ in range(decisions):
            d = g.current()
            if d is None:
                break
            yield g
            g.apply(agent.choose(d.player, d.options, d))


class _NoRules:
    """Inside this block any attempt to run the rules fails the test."""

    def __enter__(self) -> None:
        self.saved = flow.run

        def refuse(*_: Any, **__: Any) -> None:
            raise AssertionError("the rules ran")
        flow.run = refuse  # type: ignore[assignment]

    def __exit__(self, *exc: Any) -> None:
        flow.run = self.saved  # type: ignore[assignment]


@pytest.mark.parametrize(("ruleset", "players", "expanded"), CASES)
def test_every_decision_is_data(ruleset: str, players: int, expanded: bool) -> None:
    seen = 0
    for g in _games(ruleset, players, expanded):
        procs = [f["proc"] for f in g.s.flow]
        assert "legacy" not in procs, f"a rule runs as a generator at this decision: {procs}"
        assert set(procs) <= set(flow.PROCS)
        text = json.dumps(g.s.flow)
        assert json.loads(text) == g.s.flow   # only JSON values: no tuples, sets or objects
        assert g.s.pending is not None and list(g.current().options) == g.s.pending["options"]
        seen += 1
    assert seen > 100


@pytest.mark.parametrize(("ruleset", "players", "expanded"), CASES)
def test_clone_and_load_run_no_rule(ruleset: str, players: int, expanded: bool) -> None:
    r = random.Random(f"copy-{ruleset}-{players}")
    for i, g in enumerate(_games(ruleset, players, expanded, 160)):
        if r.random() > 0.08:
            continue
        with _NoRules():
            c = g.clone()
            data = g.to_json()
            loaded = Game.from_json(g.bundle, json.loads(json.dumps(data)), check_by_replay=False)
        checked = Game.from_json(g.bundle, json.loads(json.dumps(data)))   # the replay runs on a game of its own
        assert data["format"] == FORMAT and "turn" not in data
        for other in (c, loaded, checked):
            assert other.digest() == g.digest() and other.s.flow == g.s.flow
            assert other.legal_actions() == g.legal_actions()
        a = g.legal_actions()[i % len(g.legal_actions())]
        c.apply(a)
        loaded.apply(a)
        assert c.digest() == loaded.digest() and c.legal_actions() == loaded.legal_actions()


class _CountedRules:
    """Counts the answers given to the rules inside this block (the driver run with an answer)."""

    def __enter__(self) -> "_CountedRules":
        self.saved, self.answers = flow.run, 0

        def counted(g: Any, value: Any = None, floor: int = 0) -> None:
            self.answers += value is not None
            self.saved(g, value, floor)
        flow.run = counted  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: Any) -> None:
        flow.run = self.saved  # type: ignore[assignment]


def test_undo_puts_back_a_kept_position_and_applies_at_most_a_few_answers_again() -> None:
    g = Game(content(False), "duel", FACTIONS["duel", 2], 7)
    agent = RandomAgent(7)
    saved = []
    for _ in range(60):
        d = g.current()
        saved.append((g.to_json(), len(g.log)))
        g.apply(agent.choose(d.player, d.options, d))
    again = []
    for n in (1, 5, 17, 8, 3):
        with _CountedRules() as rules:
            g.undo(n)
        again.append(rules.answers)
        data, n_log = saved[len(g.choices)]
        assert g.to_json() == data and len(g.log) == n_log
    assert len(g.choices) == 60 - 34
    # 59, 54, 37, 29, 26 answers: the checkpoints are at 0, CHECKPOINT_EVERY, 2 × CHECKPOINT_EVERY, ... answers
    assert again == [59 % CHECKPOINT_EVERY, 54 % CHECKPOINT_EVERY, 37 % CHECKPOINT_EVERY, 29 % CHECKPOINT_EVERY,
                     26 % CHECKPOINT_EVERY]
    assert max(again) < CHECKPOINT_EVERY
    kept = len(g.choices) // CHECKPOINT_EVERY * CHECKPOINT_EVERY
    with _NoRules():   # back to a checkpoint: nothing is applied again
        g.undo(len(g.choices) - kept)
    assert g.to_json() == saved[kept][0]


def test_a_position_changed_by_hand_and_kept_is_what_undo_and_rollback_go_back_to() -> None:
    g = Game(content(False), "duel", FACTIONS["duel", 2], 11)
    agent = RandomAgent(11)
    for _ in range(3):   # no checkpoint is due for CHECKPOINT_EVERY - 3 more answers
        d = g.current()
        g.apply(agent.choose(d.player, d.options, d))
    p = g.s.players[0]
    g.s.power[p] += 40
    g.keep_position()
    edited = g.to_json()
    for _ in range(3):
        d = g.current()
        g.apply(agent.choose(d.player, d.options, d))
    g.undo(3)
    assert g.to_json() == edited and g.s.power[p] >= 40


@pytest.mark.parametrize("older", [1, 2])
def test_an_older_save_is_refused_in_one_line(older: int) -> None:
    g = Game(content(False), "duel", FACTIONS["duel", 2], 3)
    data = g.to_json()
    data["format"] = older
    with pytest.raises(SaveError) as err:
        Game.from_json(g.bundle, data, where="old.json")
    msg = str(err.value)
    assert "\n" not in msg and "old.json" in msg and f"format {older}" in msg and f"format {FORMAT}" in msg


def test_an_older_log_is_refused_in_one_line(tmp_path: Any) -> None:
    from necronomicon.interpreter.engine.savefile import read_log
    g = Game(content(False), "duel", FACTIONS["duel", 2], 3)
    lines = g.log_lines()
    old = [json.dumps({k: v for k, v in json.loads(line).items() if k != "format"})
           if '"type": "choices"' in line else line for line in lines]
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(old) + "\n")
    with pytest.raises(SaveError) as err:
        read_log(path)
    assert "\n" not in str(err.value) and "old.jsonl" in str(err.value) and "format 1" in str(err.value)


def test_answers_that_cannot_be_applied_again_leave_the_game_at_its_checkpoint_and_say_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Never seen (the rules are deterministic), but if going back failed half way, the game would
    be left at the checkpoint it went back to, a whole position, with one GameError saying so."""
    g = Game(content(False), "duel", FACTIONS["duel", 2], 13)
    agent = RandomAgent(13)
    start = g.to_json()
    for _ in range(5):
        d = g.current()
        g.apply(agent.choose(d.player, d.options, d))

    def broken(*_: Any, **__: Any) -> None:
        raise ValueError("the rules changed")
    monkeypatch.setattr(flow, "run", broken)
    with pytest.raises(GameError, match=r"answers after decision 0 cannot be applied again .*the rules changed"):
        g.undo(1)
    monkeypatch.undo()
    assert g.to_json() == start and g.choices == []


def test_a_masked_copy_undoes_its_own_answers_and_refuses_to_go_back_past_them() -> None:
    from necronomicon.interpreter.engine.decisions import IllegalAction
    from necronomicon.interpreter.engine.rng import Rng
    from necronomicon.interpreter.engine.seat import Seat
    g = Game(content(False), "duel", FACTIONS["duel", 2], 17)
    agent = RandomAgent(17)
    for _ in range(12):
        d = g.current()
        g.apply(agent.choose(d.player, d.options, d))
    copy = Seat(g, g.current().player).masked_copy(Rng(3))
    start = copy.to_json()
    for _ in range(3):
        d = copy.current()
        copy.apply(agent.choose(d.player, d.options, d))
    copy.undo(3)
    assert copy.to_json() == start
    with pytest.raises(IllegalAction, match="masked"):   # no seed to replay the real game with
        copy.undo(2)
    assert copy.to_json() == start
