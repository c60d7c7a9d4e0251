"""A failure names where it happened (#29): an engine bug inside a step becomes one GameError naming
the procedure and step (and the ability running, if any), with the game restored."""
from __future__ import annotations

from typing import Any, Iterator

import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import flow
from necronomicon.interpreter.engine.decisions import GameError
from necronomicon.interpreter.engine.flow import PROCS, STEP_TABLE, Call, Proc, Return, frame
from necronomicon.interpreter.engine.game import Game


@pytest.fixture
def broken() -> Iterator[str]:
    """A procedure whose second step has a bug (a KeyError), registered for this test only."""
    class Broken(Proc):
        name = "test-broken"
        STEPS = ("start", "count")

        def start(self, g: Any, f: dict[str, Any], value: Any) -> Any:
            f["at"] = "count"

        def count(self, g: Any, f: dict[str, Any], value: Any) -> Any:
            return Return(f["tally"] + 1)     # no such local: an engine bug
    yield Broken.name
    del PROCS[Broken.name], STEP_TABLE[Broken.name]


def test_a_bug_in_a_step_is_one_error_naming_the_procedure_and_step(base_game: Content, broken: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    g = Game(base_game, "duel", ["great-cthulhu", "crawling-chaos"], seed=4)
    before = g.to_json()
    # the driver calls the functions of its table (flow.STEP_TABLE): a broken start put there
    monkeypatch.setitem(STEP_TABLE["take-action"], "start", lambda self, rules, f, value: Call(frame(broken)))
    answer = next(o for o in g.legal_actions() if not o.startswith("pass"))
    with pytest.raises(GameError) as caught:
        g.apply(answer)
    msg = str(caught.value)
    assert msg.startswith("KeyError: 'tally' in procedure 'test-broken', step 'count' ")
    assert msg.endswith(f"(after answering '{answer}'; state restored)")
    assert g.to_json() == before                     # nothing changed, and the game plays on
    monkeypatch.undo()
    g.apply(answer)
    assert len(g.choices) == 1


def test_the_note_names_the_innermost_step_and_keeps_the_exception_type() -> None:
    exc = KeyError("x")
    host = type("H", (), {"s": type("S", (), {"flow": [{"proc": "ability", "at": "start", "label": "k (action)"}]})()})()
    flow._note_place(exc, host, "remove-unit", "removed")
    flow._note_place(exc, host, "battle", "dice")     # an outer step: the inner place stays
    assert flow.failure_place(exc) == "in procedure 'remove-unit', step 'removed', running k (action)"
    assert isinstance(exc, KeyError) and flow.failure_place(ValueError()) == ""
