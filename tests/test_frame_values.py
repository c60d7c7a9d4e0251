"""The encoding of effect values in frames (engine/frame_values.py): JSON, live units by reference."""
from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.effects.compiler import RuleError
from necronomicon.interpreter.engine.frame_values import decode, encode
from necronomicon.interpreter.engine.game import Game


def _game(basic: Content) -> Game:
    return Game(basic, "test-multi", ["red", "blue"], 3)


def test_values_round_trip_through_json(basic: Content) -> None:
    g = _game(basic)
    live = g.s.units[0]
    value = {"n": 3, "half": Fraction(1, 2), "t": (1, "a", None), "flag": True, "xs": [live, dict(live)],
             "odd": {"$x": 1, 4: "four"}, "nested": [[Fraction(-7, 3)], {"u": live}], "f": 1.5}
    data = json.loads(json.dumps(encode(g.rules, value)))
    back = decode(g.rules, data)
    assert back == value
    assert back["xs"][0] is live                 # a live unit comes back as the live unit
    assert back["xs"][1] is not live             # a copy stays a copy
    assert back["nested"][1]["u"] is live
    assert type(back["half"]) is Fraction and type(back["t"]) is tuple
    assert data["xs"][0] == {"$unit": live["id"]} and data["half"] == {"$frac": [1, 2]}
    assert data["odd"] == {"$dict": [["$x", 1], [4, "four"]]}   # keys that are not plain names


def test_units_decode_into_the_state_they_are_read_in(basic: Content) -> None:
    g = _game(basic)
    data = encode(g.rules, [g.s.units[2]])
    other = copy.copy(g.rules)
    other.s = copy.deepcopy(g.s)
    u = decode(other, data)[0]
    assert u is other.s.units[2] and u is not g.s.units[2]


def test_a_value_with_no_encoding_is_named(basic: Content) -> None:
    with pytest.raises(RuleError, match="cannot be kept in the state: {1}"):
        encode(_game(basic), [{1}])
