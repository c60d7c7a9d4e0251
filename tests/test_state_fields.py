"""The State's unsaved working fields (engine/state_fields.py): its write counters and the indexes
and bytes it keeps of its units, which the compiled core makes C fields of an extension type
(state_fields.pxd) that `State` subclasses.

- The declared C fields are exactly the unsaved fields (a field missing from the declarations could
  not be set in the compiled core; a saved one there would leave the State's `__dict__`, which
  `copy`, `unpack` and the position key read), and `State` has no class attribute of their names,
  which would hide the base's C field.
- A new State (`copy`, `unpack`, JSON) starts them afresh and holds only its saved fields in its
  `__dict__`; a bot's shared view (`view.shared_state`) reads the game's own indexes.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.state import _IN_C, STATE_FIELDS, State
from necronomicon.interpreter.engine.state_fields import DEFAULTS, SAVED_IN_C, StateFields
from necronomicon.interpreter.engine.view import shared_state

ROOT = Path(__file__).resolve().parents[1]
SAVED = {f.name for f in STATE_FIELDS}


def _declared() -> list[str]:
    text = (ROOT / "interpreter" / "engine" / "state_fields.pxd").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        code = line.split("#")[0].strip()
        if code.startswith("cdef public "):
            out += [n.strip() for n in code.split(None, 3)[3].split(",")]
    return out


def test_the_compiled_fields_are_the_unsaved_ones_and_nothing_hides_them() -> None:
    assert sorted(_declared()) == sorted([*DEFAULTS, *SAVED_IN_C])
    assert not set(DEFAULTS) & SAVED and set(SAVED_IN_C) <= SAVED
    assert _IN_C in ((), SAVED_IN_C)   # (the Python source: none; compiled: all)
    assert issubclass(State, StateFields)
    # a class attribute on State would hide the C field, a C field taken for a default would be one
    assert not {*DEFAULTS, *SAVED_IN_C} & set(vars(State))
    with_default = [f.name for f in dataclasses.fields(State) if f.default is not dataclasses.MISSING]
    assert not set(with_default) & set(SAVED_IN_C)


def _played(builtin: Any, answers: int) -> Game:
    g = Game(builtin, "duel", ["sleeper", "wind-rider"], 5)
    bot = RandomAgent(5)
    for _ in range(answers):
        d = g.pending
        assert d is not None
        g.apply(bot.choose(d.player, d.options, d))
    return g


def test_a_new_state_starts_its_unsaved_fields_afresh(builtin: Any) -> None:
    g = _played(builtin, 40)
    s = g.s
    s.units_key_bytes()
    s.units_at(s.units[0]["loc"])
    assert s.writes > 0 and s.other_writes > 0 and s._ix is not None and s._chunks is not None
    for c in (s.copy(), State.unpack(s.pack()), State.from_text(s.to_text()), State.from_dict(s.to_dict())):
        assert c == s
        assert {name: getattr(c, name) for name in DEFAULTS} == DEFAULTS
        assert set(c.__dict__) == SAVED - set(_IN_C)   # (saved fields only: what copy, unpack and the key read)
        assert all(getattr(c, name) == getattr(s, name)
                   and (getattr(c, name) is not getattr(s, name) or type(getattr(s, name)) is int)   # (`seq`)
                   for name in SAVED_IN_C)
        assert c.units_at(s.units[0]["loc"]) == s.units_at(s.units[0]["loc"])
        c.written()
        assert (c.writes, c.other_writes, c.unit_writes) == (1, 1, 1)


def test_a_shared_view_reads_the_games_own_indexes(builtin: Any) -> None:
    g = _played(builtin, 30)
    s = g.s
    s.units_key_bytes()
    loc = s.units[0]["loc"]
    s.units_at(loc)
    for p in s.players:
        shared = shared_state(g, p)
        assert shared is not s and {n: getattr(shared, n) for n in DEFAULTS} == {n: getattr(s, n) for n in DEFAULTS}
        assert shared._ix is s._ix and shared._chunks is s._chunks   # the same objects: nothing rebuilt
        assert shared.units is s.units and shared.memory is s.memory and shared.units_at(loc) == s.units_at(loc)
        assert shared.flow is not s.flow and s.flow   # (masked: a view never shows the rule flow)


def test_the_position_key_reads_the_keyed_fields_in_field_order(builtin: Any) -> None:
    """phases.position_key reads most keyed fields from `__dict__` and those of SAVED_IN_C as
    attributes: the same values in the same order as reading every one by name."""
    from necronomicon.interpreter.engine import phases
    s = _played(builtin, 20).s
    assert {"players", "power", "gates"} <= set(phases._KEYED) and "units" not in phases._KEYED
    assert phases._keyed_rest(s) == tuple(getattr(s, name) for name in phases._KEYED)
    assert [f.name for f in STATE_FIELDS if f.name in phases._KEYED] == list(phases._KEYED)
