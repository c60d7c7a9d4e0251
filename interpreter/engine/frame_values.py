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

_PLAIN = (str, int, float, type(None))   # bool is an int
_ATOMS = frozenset((str, int, float, bool, type(None)))   # the exact classes, tested first (fast path)


class Encoder:
    """Encodes values of one game (it knows that game's live units)."""

    __slots__ = ("g",)

    def __init__(self, g: Any) -> None:
        self.g = g

    def __call__(self, v: Any) -> Any:
        cls = v.__class__
        if cls in _ATOMS:
            return v
        if cls is list:
            return [x if x.__class__ in _ATOMS else self(x) for x in v]
        if isinstance(v, _PLAIN):
            return v
        if isinstance(v, list):
            return [self(x) for x in v]
        if isinstance(v, dict):
            if "id" in v:
                try:
                    live = self.g.s._index()[2].get(v["id"])   # the state's unit with that id
                except TypeError:   # not an id at all
                    live = None
                if live is v:
                    return {"$unit": v["id"]}
            if all(k.__class__ is str and not k.startswith("$") for k in v) \
                    or all(isinstance(k, str) and not k.startswith("$") for k in v):
                return {k: x if x.__class__ in _ATOMS else self(x) for k, x in v.items()}
            return {"$dict": [[self(k), self(x)] for k, x in v.items()]}
        if isinstance(v, Fraction):
            return {"$frac": [v.numerator, v.denominator]}
        if isinstance(v, tuple):
            return {"$tuple": [self(x) for x in v]}
        raise RuleError(f"internal: an effect holds a value that cannot be kept in the state: {v!r}")


def encode(g: Any, v: Any) -> Any:
    """`v` as JSON (see the module note)."""
    return Encoder(g)(v)


def decode(g: Any, v: Any) -> Any:
    """The value `v` encodes, its units the live units of `g`."""
    if isinstance(v, _PLAIN):
        return v
    return Decoder(g)(v)


class Decoder:
    """Decodes values into one game (its live units, looked up by id)."""

    __slots__ = ("g",)

    def __init__(self, g: Any) -> None:
        self.g = g

    def unit(self, uid: Any) -> Any:
        return self.g.s.unit(uid)   # by the state's index of units by id (its own error for a lost id)

    def __call__(self, v: Any) -> Any:
        cls = v.__class__
        if cls in _ATOMS:
            return v
        if cls is list:
            return [x if x.__class__ in _ATOMS else self(x) for x in v]
        if isinstance(v, _PLAIN):
            return v
        if isinstance(v, list):
            return [self(x) for x in v]
        if len(v) == 1:
            tag, x = next(iter(v.items()))
            if tag == "$unit":
                return self.unit(x)
            if tag == "$frac":
                return Fraction(x[0], x[1])
            if tag == "$tuple":
                return tuple(self(i) for i in x)
            if tag == "$dict":
                return {self(k): self(i) for k, i in x}
        return {k: x if x.__class__ in _ATOMS else self(x) for k, x in v.items()}


__all__ = ["Decoder", "Encoder", "decode", "encode"]
