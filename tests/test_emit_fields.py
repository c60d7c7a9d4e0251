"""The event log's two writers (engine/basics.py): `emit` (the fields by keyword) and `emit_fields`
(the fields as a dict the caller made: the procedures' form, a C call in the compiled core) log the
same event, in the same key order, each with the state's next `seq`."""
from __future__ import annotations

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import basics
from necronomicon.interpreter.engine.game import Game


def test_emit_and_emit_fields_log_the_same_event(basic: Content) -> None:
    g = Game(basic, "test-multi", ["red", "blue"], 1)
    r = g.rules
    n, seq = len(r.log), g.s.seq
    basics.emit(r, "gate", loc="c", change="created", player="blue")
    fields = {"loc": "c", "change": "created", "player": "blue"}
    basics.emit_fields(r, "gate", fields)
    a, b = r.log[n:]
    assert a == {"seq": seq + 1, "type": "gate", "loc": "c", "change": "created", "player": "blue"}
    assert b == {**a, "seq": seq + 2} and list(b) == list(a) and g.s.seq == seq + 2
    assert b is not fields and fields == {"loc": "c", "change": "created", "player": "blue"}   # (a new dict)


def test_the_event_hook_sees_each_event_as_logged(basic: Content) -> None:
    g = Game(basic, "test-multi", ["red", "blue"], 1)
    r = g.rules
    seen: list[dict[str, object]] = []
    r._event_hook = seen.append
    basics.emit_fields(r, "power", {"player": "red", "change": 1, "total": 9, "why": "test"})
    basics.emit(r, "no-action", player="red")
    assert seen == r.log[-2:] and seen[0] is r.log[-2]
