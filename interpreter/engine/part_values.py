"""The values of the state parts a requirement's condition reads (held_conditions.py keeps a
condition's answer beside them), and whether they are unchanged.

A part is named as state_parts.py names it ("units", "units@", "gates@", "gate-places", a State
field, a player's entry of one, ...). `reader` says how it is read: a number (a C switch in the
compiled core, no string compares) and the State field's name. `read` gives its value now: bytes,
a number or None (a player's Power or Doom), or a tuple standing for it (the units: write
counters); a value that could change with the state is copied (`value_of`), so that a kept value
never changes. `unchanged` compares kept values with the state in place, without making them.
"""
from __future__ import annotations

from marshal import dumps as marshal_dumps
import sys
from typing import Any

from . import actions

__all__ = ["WHOLES", "held_whole", "inputs_now", "key_of", "part_now", "read", "reader", "same", "unchanged",
           "value_of"]


# how `part_now` finds a part: by a number (a C switch in the compiled core, no string compares),
# with the State field's name for a player's part or a whole field
# (the players, which every kept condition reads: a field read as such, a C load in the compiled core)
_UNIT_GATES, _UNITS, _UNIT_OWNERS, _MY_UNITS, _MY_GATES, _GATE_PLACES, _MINE, _WHOLE, _PLAYERS = range(9)
_READERS = {"unit-gates": _UNIT_GATES, "units": _UNITS, "unit-owners": _UNIT_OWNERS, "units@": _MY_UNITS,
            "gates@": _MY_GATES, "gate-places": _GATE_PLACES, "players": _PLAYERS}


def reader(f: str) -> tuple[int, str]:
    """How part `f` is read (`read`): its number, and the State field's name where one is read."""
    code = _READERS.get(f)
    if code is not None:
        return code, f
    return (_MINE, sys.intern(f[:-1])) if f[-1] == "@" else (_WHOLE, sys.intern(f))


# a part -> the parts that hold it whole, when it is not simply the field it is part of
WHOLES = {"gates@": (("gates", "unit-owners"), ("gates", "units")), "gate-places": (("gates",),)}


def held_whole(part: str, found: set[str]) -> bool:
    """Whether the parts `found` hold `part` already (the whole field, or all it is made of)."""
    return any(all(w in found for w in whole) for whole in WHOLES.get(part, ((part[:-1],),)))


def inputs_now(g: Any, parts: tuple[str, ...], p: str) -> tuple[Any, ...]:
    """The values of `parts` now in game `g`, for player `p`: a condition's key
    (held_conditions.condition_holds)."""
    return key_of(g, tuple([reader(f) for f in parts]), p)


def part_now(g: Any, f: str, p: str) -> Any:
    """One part's value: bytes, a number or None (a player's Power or Doom), or a tuple of numbers
    (the units: their write counters). An immutable value stands for itself; any other is copied
    as bytes, so that the value kept never changes with the state."""
    code, name = reader(f)
    return read(g, code, name, p)


def key_of(g: Any, reads: tuple[tuple[int, str], ...], p: str, seen: dict[Any, Any] | None = None) -> tuple[Any, ...]:
    """The values of the parts a plan reads (held_conditions.py), in its order: `inputs_now` of
    its parts. `seen`: a check's (held_conditions.condition_holds), where a part that is not one
    player's is read once for all the players checked."""
    out = []
    for code, name in reads:
        if seen is None or code == _MY_UNITS or code == _MINE or code == _MY_GATES:
            out.append(read(g, code, name, p))
        else:
            value = seen.get(name, _UNREAD)
            if value is _UNREAD:
                value = seen[name] = read(g, code, name, p)
            out.append(value)
    return tuple(out)


_UNREAD = object()   # a part not read yet in a check (a part's value may be None)


def read(g: Any, code: int, name: str, p: str) -> Any:
    """`part_now` of the part read as (`code`, `name`) (`reader`)."""
    s = g.s
    if code == _MY_UNITS:   # p's units are where they were while none of them moved and no other write
        return (s.other_writes, s.moves_of(p), len(s.units))
    if code == _MY_GATES:   # the gates p controls (areas: a tuple of strings stands for itself)
        return tuple(s.controlled_gates(p))
    if code == _MINE:
        value = getattr(s, name).get(p)
        return value if value is None or type(value) is int else marshal_dumps(value)
    if code == _WHOLE:
        return value_of(getattr(s, name))
    if code == _PLAYERS:
        return value_of(s.players)
    if code == _UNIT_GATES:   # the units that count as Gates (modifiers may read anything: their answer)
        return actions.unit_gates_bytes(g)
    if code == _UNITS:
        return (s.writes, len(s.units))
    if code == _UNIT_OWNERS:
        return (s.other_writes, len(s.units))
    return tuple(s.gates)   # _GATE_PLACES: where gates stand


def value_of(v: Any) -> Any:
    """A field's value as `part_now` keeps it: None, a string (the first player) or an integer
    (not a bool) as itself, a list of strings (the players) as their tuple, an empty list (no
    tokens) as (), a dict of strings to strings, None or lists of strings (the home areas, the
    spellbooks) as `dict_value`, any other as marshal bytes. Each kind compares equal only to its
    own kind, exactly when the values are equal, and is made without marshal's encoding of every
    string into a new bytes object."""
    if v is None:
        return None
    cls = type(v)
    if cls is str or cls is int:   # (immutable: it stands for itself)
        return v
    if cls is list:
        for x in v:
            if type(x) is not str:
                return marshal_dumps(v)
        return tuple(v)
    if cls is dict:
        out = dict_value(v)
        if out is not None:
            return out
    return marshal_dumps(v)


_DICT = object()   # the first item of `dict_value`'s tuples: no other kind of value starts with it


def dict_value(d: dict[Any, Any]) -> tuple[Any, ...] | None:
    """A dict of strings to strings, None or lists of strings as a tuple (`_DICT`, key, value, key,
    value, ...) in its order, a list as the tuple of its strings (equal exactly when the dicts are
    equal in the same order, as their marshal bytes are); None for any other dict."""
    out = [_DICT]
    for k, x in d.items():
        if type(k) is not str:
            return None
        out.append(k)
        cls = type(x)
        if cls is str or x is None:
            out.append(x)
        elif cls is list:
            for y in x:
                if type(y) is not str:
                    return None
            out.append(tuple(x))
        else:
            return None
    return tuple(out)


def unchanged(g: Any, reads: tuple[tuple[int, str], ...], p: str, kept: tuple[Any, ...]) -> bool:
    """Whether the parts a plan reads still have the values `kept` (`key_of`'s, in its order): a whole
    field or where gates stand compared in place (`same`), with no value made for it."""
    s = g.s
    i = 0
    for code, name in reads:
        value = kept[i]
        i += 1
        if code == _WHOLE or code == _PLAYERS:
            if not same(s.players if code == _PLAYERS else getattr(s, name), value):
                return False
        elif code == _GATE_PLACES:
            gates = s.gates
            if type(value) is not tuple or len(gates) != len(value):
                return False
            j = 0
            for area in gates:
                if area != value[j]:
                    return False
                j += 1
        elif read(g, code, name, p) != value:
            return False
    return True


def same(v: Any, kept: Any) -> bool:
    """`value_of(v) == kept`, found without making `value_of(v)` for a string, an integer, a list
    of strings or a dict `dict_value` takes."""
    if v is None:
        return kept is None
    cls = type(v)
    if cls is str or cls is int:
        return type(kept) is cls and v == kept  # type: ignore[no-any-return]
    if type(kept) is not tuple:
        return value_of(v) == kept  # type: ignore[no-any-return]
    t = kept   # (a tuple)
    if cls is list:
        if len(t) == len(v):
            i = 0
            for x in v:
                if type(x) is not str:
                    return value_of(v) == kept  # type: ignore[no-any-return]
                if x != t[i]:
                    return False
                i += 1
            return True
    elif cls is dict and len(t) == 2 * len(v) + 1 and t[0] is _DICT:
        i = 1
        for k, x in v.items():
            if type(k) is not str:
                return value_of(v) == kept  # type: ignore[no-any-return]
            if k != t[i]:
                return False
            y = t[i + 1]
            i += 2
            cls = type(x)
            if x is None:
                if y is not None:
                    return False
            elif cls is str:
                if type(y) is not str or x != y:
                    return False
            elif cls is list and type(y) is tuple and len(x) == len(y):
                u = y   # (a tuple)
                j = 0
                for z in x:
                    if type(z) is not str or z != u[j]:
                        return value_of(v) == kept  # type: ignore[no-any-return]
                    j += 1
            else:
                return value_of(v) == kept  # type: ignore[no-any-return]
        return True
    return value_of(v) == kept  # type: ignore[no-any-return]
