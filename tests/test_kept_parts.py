"""The position key's bytes kept value by value (`plain_data.KeptParts`, `phases._KEPT`): a kept
part is used only while its value is the same as the copy it was written from (`same_data`, exact:
1 is not True, a tuple not a list, dict keys in their order), so the joined bytes are always those
written afresh, whoever changed a value, in place or not."""
from __future__ import annotations

import marshal

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import phases
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.plain_data import KeptParts, data_copy, key_bytes, same_data

VALUES = [1, True, False, 0, None, "a", "", 1.0, -0.0, 0.0, [1, 2], (1, 2), [], {}, (), [()], [{}], [[]],
          ((),), {"a": 1, "b": 2}, {"b": 2, "a": 1}, {"a": True, "b": 2}, {1: "x"}, {True: "x"},
          {"a": ()}, {"a": {}}, {"a": [1, {"c": None}]}, {"a": [1, {"c": 0}]}, [[1]], [(1,)]]


def test_same_data_says_whether_the_key_bytes_are_equal() -> None:
    for a in VALUES:
        for b in VALUES:
            assert same_data(a, data_copy(b)) == (key_bytes(a) == key_bytes(b)), (a, b)


def test_kept_parts_are_written_again_when_a_value_changes_in_place() -> None:
    kept = KeptParts()
    head = b"(" + (3).to_bytes(4, "little")
    gates = {"a": {"controller": 1}, "b": {"controller": None}}
    values = ["x", gates, [1, 2]]
    assert kept.joined(head, values) == marshal.dumps(tuple(values), 2)
    gates["a"]["controller"] = True          # in place, deep, and equal under == (1 == True)
    assert kept.joined(head, values) == marshal.dumps(tuple(values), 2)
    gates["c"] = gates.pop("a")              # the same items in another order
    assert kept.joined(head, values) == marshal.dumps(tuple(values), 2)
    values[2].append(3)
    assert kept.joined(head, values) == marshal.dumps(tuple(values), 2)
    values[2] = (1, 2, 3)                    # a tuple where a list was
    assert kept.joined(head, values) == marshal.dumps(tuple(values), 2)


def test_the_position_key_follows_writes_the_state_does_not_count(base_game: Content) -> None:
    """The key's kept parts are compared, not keyed by write counters: a Power or a gate written in
    place changes the key, and writing it back gives the first key again."""
    g = Game(base_game, "duel", ["sleeper", "wind-rider"], 3)
    for _ in range(30):
        d = g.current()
        g.apply(d.options[0])
    first = phases.position_key(g.rules)
    s = g.rules.s
    p = s.players[0]
    s.power[p] += 1
    assert phases.position_key(g.rules) != first
    s.power[p] -= 1
    assert phases.position_key(g.rules) == first
    loc = next(iter(s.gates))
    was = s.gates[loc].get("controller")
    s.gates[loc]["controller"] = "nobody"
    assert phases.position_key(g.rules) != first
    s.gates[loc]["controller"] = was
    assert phases.position_key(g.rules) == first
