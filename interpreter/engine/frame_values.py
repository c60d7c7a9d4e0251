"""How the values an effect holds (its names, loop lists, what a paused verb keeps) are written
into a frame, and read back: as JSON, with live units by reference.

The one encoding:
- None, booleans, numbers (int, float) and strings are themselves;
- a list is a list of encoded items; a tuple is `{"$tuple": [...]}`;
- a Fraction is `{"$frac": [numerator, denominator]}`;
- a unit of the game (the very dict in `state.units`) is `{"$unit": id}`, and reads back as the
  live unit of the state it is decoded in (a copy of a unit, as events carry, stays a copy);
- another dict is a dict of encoded values when its keys are strings that do not start with "$",
  else `{"$dict": [[key, value], ...]}` (both encoded).
Anything else (a set, an object) has no encoding: an internal error names it.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..effects.compiler import RuleError

_ATOMS = frozenset((str, int, float, bool, type(None)))   # the exact classes, tested first (fast path)


def encode(g: Any, v: Any) -> Any:
    """`v` as JSON (see the module note), its units those of game `g` (by reference)."""
    cls = type(v)
    if cls in _ATOMS:
        return v
    if cls is list:
        return [x if type(x) in _ATOMS else encode(g, x) for x in v]
    if isinstance(v, (str, int, float)):   # (a subclass: None and bool are atoms; a literal tuple of
        # built-in classes is a C test in the compiled core, where a named one looks up `__class__` on a miss)
        return v
    if isinstance(v, list):
        return [encode(g, x) for x in v]
    if isinstance(v, dict):
        if "id" in v:
            try:
                live = g.s._index()[2].get(v["id"])   # the state's unit with that id
            except TypeError:   # not an id at all
                live = None
            if live is v:
                return {"$unit": v["id"]}
        for k in v:   # (a loop, not all(...): the compiled core makes no closure in a C function)
            if not isinstance(k, str) or k.startswith("$"):
                return {"$dict": [[encode(g, k), encode(g, x)] for k, x in v.items()]}
        return {k: x if type(x) in _ATOMS else encode(g, x) for k, x in v.items()}
    if isinstance(v, Fraction):
        return {"$frac": [v.numerator, v.denominator]}
    if isinstance(v, tuple):
        return {"$tuple": [encode(g, x) for x in v]}
    raise RuleError(f"internal: an effect holds a value that cannot be kept in the state: {v!r}")


def decode(g: Any, v: Any) -> Any:
    """The value `v` encodes, its units the live units of `g` (looked up by id in the state's
    index of units, with its own error for a lost id)."""
    cls = type(v)
    if cls in _ATOMS:
        return v
    if cls is list:
        return [x if type(x) in _ATOMS else decode(g, x) for x in v]
    if isinstance(v, (str, int, float)):   # (as in encode)
        return v
    if isinstance(v, list):
        return [decode(g, x) for x in v]
    if len(v) == 1:
        tag, x = next(iter(v.items()))
        if tag == "$unit":
            return g.s.unit(x)
        if tag == "$frac":
            return Fraction(x[0], x[1])
        if tag == "$tuple":
            return tuple([decode(g, i) for i in x])
        if tag == "$dict":
            return {decode(g, k): decode(g, i) for k, i in x}
    return {k: x if type(x) in _ATOMS else decode(g, x) for k, x in v.items()}


__all__ = ["decode", "encode"]
