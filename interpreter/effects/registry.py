"""The table of effect-language primitives: every function and verb, with declared parameters.

A primitive is one of three sorts:
- ``query``: pure; returns a value (``count``, ``power``, ``units``).
- ``verb``: changes the game; returns nothing; may ask players (``kill``, ``place``, ``gain_power``).
- ``choice``: asks a player and returns the answer (``choose_unit``, ``choose_area``).

All are plain functions ``(ctx, **args)``. A verb or choice returns its result, or a
``runtime.Suspend`` when it must wait for a player's answer or for a procedure of the engine (its
resume function, registered with ``runtime.resumer``, then gives the result); a query returns a value. The compiler checks every call against
the declared parameters, so a misspelt name or argument is a load-time error with a position.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

REQUIRED = object()

# Parameter types. Id types name content and are resolved when the argument is a literal.
ID_TYPES = {"kind", "faction", "area", "spellbook", "ability", "token", "class", "window", "result"}
TYPES = ID_TYPES | {"any", "int", "num", "bool", "str", "player", "players", "unit", "units",
                    "areas", "list", "record", "kinds", "abilities",
                    "field"}   # the name of a field of game records (RECORD_FIELDS), checked when literal

# Every field a game record handed to effect text can have, so that `.name` is checked at load time.
# The engine builds these records; keep this in step with it (tests/test_record_fields.py watches games).
UNIT_FIELDS = frozenset({
    "id", "owner", "kind", "loc",              # stored on each unit (state.units)
    "class", "name", "area", "in_play",        # computed by the engine's record_field
})
RECORD_FIELDS = UNIT_FIELDS | {
    # window events (the dicts passed to window(...)) and modifier subjects (modified(...))
    "player", "attacker", "defender", "unit", "result", "side", "by", "how", "cause", "replaced",
    "in_battle", "src", "dst", "moved", "action", "label", "spent", "capturer", "victim", "dice", "kills",
    "pains", "controller",
    # the battle record (`battle`) and its per-side roll
    "exempt", "results", "taken", "pending", "rolled", "avoided", "earned", "flags", "killed", "declined",
    "counts", "rolls",
    # secret picks ({player, value})
    "value",
}


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: object = REQUIRED

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass(frozen=True)
class Primitive:
    name: str
    sort: str  # query | verb | choice
    params: tuple[Param, ...]
    returns: str
    fn: Callable[..., Any]
    doc: str
    variadic: bool = False  # accepts any number of positional arguments of params[0].type

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass
class Registry:
    items: dict[str, Primitive] = field(default_factory=dict)

    def add(self, prim: Primitive) -> None:
        if prim.name in self.items:
            raise ValueError(f"primitive '{prim.name}' registered twice")
        self.items[prim.name] = prim

    def get(self, name: str) -> Primitive | None:
        return self.items.get(name)

    def names(self) -> list[str]:
        return sorted(self.items)


REGISTRY = Registry()


def _parse_params(spec: dict[str, object]) -> tuple[Param, ...]:
    out = []
    for name, t in spec.items():
        if isinstance(t, tuple):
            typ, default = t
        else:
            typ, default = t, REQUIRED
        assert typ in TYPES, f"unknown parameter type {typ!r}"
        out.append(Param(name, str(typ), default))
    return tuple(out)


def _register(sort: str, name: str, returns: str, params: dict[str, object], variadic: bool):
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        REGISTRY.add(Primitive(name, sort, _parse_params(params), returns, fn,
                               (fn.__doc__ or "").strip().split("\n")[0], variadic))
        return fn
    return deco


def query(name: str, /, returns: str = "any", variadic: bool = False, **params: object):
    """Register a pure function of the game state."""
    return _register("query", name, returns, params, variadic)


def verb(name: str, /, **params: object):
    """Register a verb: it changes the game and may ask players (returns a Suspend to wait)."""
    return _register("verb", name, "none", params, False)


def choice(name: str, /, returns: str = "any", **params: object):
    """Register a choice: it asks a player (returns a Suspend) and gives the answer as its result."""
    return _register("choice", name, returns, params, False)
