"""The machinery of the effect-language primitives' table: declarations, and the implementations
registered against them.

A primitive is one of three sorts:
- ``query``: pure; returns a value (``count``, ``power``, ``units``).
- ``verb``: changes the game; returns nothing; may ask players (``kill``, ``place``, ``gain_power``).
- ``choice``: asks a player and returns the answer (``choose_unit``, ``choose_area``).

Every primitive is declared with the language (effects/signatures.py: name, sort, parameters with
their types and defaults, result, one line of what it does), so the compiler checks calls and the
documentation lists them without the engine. The engine implements each as a plain function
``(ctx, **args)``, registered with ``@implements(name)``, which refuses a function whose parameters
disagree with the declaration. A verb or choice returns its result, or a ``runtime.Suspend`` when it
must wait for a player's answer or for a procedure of the engine (its resume function, registered
with ``runtime.resumer``, then gives the result); a query returns a value.
"""
from __future__ import annotations

import inspect
import keyword
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
    """A primitive's declaration: what the compiler checks a call against and the documentation lists."""
    name: str
    sort: str  # query | verb | choice
    params: tuple[Param, ...]
    returns: str
    doc: str
    variadic: bool = False  # accepts any number of positional arguments of params[0].type

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass
class Registry:
    """The declared primitives, and the engine's function for each (registered by `implements`)."""
    items: dict[str, Primitive] = field(default_factory=dict)
    functions: dict[str, Callable[..., Any]] = field(default_factory=dict)
    # a query's counter: `len(query(...))` for the same arguments, without the list (registered by
    # `counts`; closures.query_of calls it for `count(query(...))`)
    counters: dict[str, Callable[..., Any]] = field(default_factory=dict)

    def add(self, prim: Primitive) -> None:
        if prim.name in self.items:
            raise ValueError(f"primitive '{prim.name}' declared twice")
        self.items[prim.name] = prim

    def get(self, name: str) -> Primitive | None:
        return self.items.get(name)

    def names(self) -> list[str]:
        return sorted(self.items)

    def implements(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register the decorated function as the implementation of the declared primitive `name`,
        its docstring the declaration's line (the one description of what it does); a TypeError
        (at import) when it is undeclared, implemented twice, or takes other parameters."""
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            prim = self.items.get(name)
            if prim is None:
                raise TypeError(f"{fn.__qualname__} implements '{name}', which effects/signatures.py does not declare")
            if name in self.functions:
                raise TypeError(f"primitive '{name}' implemented twice")
            wrong = disagreement(prim, fn)
            if wrong:
                raise TypeError(f"{fn.__qualname__} does not match the declaration of '{name}': {wrong}")
            self.functions[name] = fn
            fn.__doc__ = prim.doc
            return fn
        return register

    def counts(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register the decorated function as the counter of query `name`: called as the query is, it
        returns the length of the list the query returns, and raises what the query raises."""
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            prim = self.items.get(name)
            if prim is None or prim.sort != "query" or name in self.counters:
                raise TypeError(f"{fn.__qualname__} counts '{name}', not a declared query counted once")
            wrong = disagreement(prim, fn)
            if wrong:
                raise TypeError(f"{fn.__qualname__} does not match the declaration of '{name}': {wrong}")
            self.counters[name] = fn
            return fn
        return register

    def implementation(self, name: str) -> Callable[..., Any]:
        """The engine's function for `name`; one that finds it when called if the engine has not
        registered it yet (content compiled before the engine was imported)."""
        fn = self.functions.get(name)
        if fn is not None:
            return fn
        functions = self.functions

        def late(*args: Any, **kwargs: Any) -> Any:
            found = functions.get(name)
            if found is None:
                raise LookupError(f"primitive '{name}' has no implementation: the engine "
                                  "(necronomicon.interpreter.engine) registers them when imported")
            return found(*args, **kwargs)
        return late

    def unimplemented(self) -> list[str]:
        """The declared primitives no function implements."""
        return sorted(self.items.keys() - self.functions.keys())


def param_name(name: str) -> str:
    """The implementation's parameter for a declared parameter `name`: `name` itself, or `class_`
    for `class` (a Python keyword), so that a call may pass every parameter by name or by position."""
    return name + "_" if keyword.iskeyword(name) else name


def disagreement(prim: Primitive, fn: Callable[..., Any]) -> str:
    """How `fn`'s parameters differ from `prim`'s declaration ("" when they agree): after `ctx`, a
    variadic primitive takes `(where, *values)`; any other takes each declared parameter by name
    (one named by a Python keyword, like `class`, as `class_`: `param_name`), with the declared default
    exactly where it declares one, and no parameter it does not declare."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):   # no introspection (a compiled build may lack it): the tests check the source
        return ""
    P = inspect.Parameter
    params = list(sig.parameters.values())[1:]
    if prim.variadic:
        shape = [p.kind for p in params]
        return "" if shape == [P.POSITIONAL_OR_KEYWORD, P.VAR_POSITIONAL] else "takes (ctx, where, *values)"
    named = {p.name: p for p in params if p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY)}
    if any(p.kind is P.VAR_KEYWORD for p in params):
        return "takes **kwargs (a parameter named by a Python keyword, `class`, is `class_`)"
    wrong: list[str] = []
    for decl in prim.params:
        got = named.pop(param_name(decl.name), None)
        if got is None:
            wrong.append(f"no parameter '{decl.name}'")
        elif decl.required and got.default is not P.empty:
            wrong.append(f"'{decl.name}' is declared required but has a default")
        elif not decl.required and (got.default is P.empty or got.default != decl.default):
            wrong.append(f"'{decl.name}' is declared with the default {decl.default!r}, the function's is "
                         + ("none" if got.default is P.empty else repr(got.default)))
    wrong += [f"undeclared parameter '{n}'" for n in named]
    return "; ".join(wrong)


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


def declarations(registry: Registry) -> tuple[Callable[..., None], Callable[..., None], Callable[..., None]]:
    """The three ways to declare a primitive in `registry`: `query`, `verb` and `choice`, each
    `(name, doc, /, [returns=...,] **parameters)` where a parameter is `type` or `(type, default)`."""
    def query(name: str, doc: str, /, returns: str = "any", variadic: bool = False, **params: object) -> None:
        registry.add(Primitive(name, "query", _parse_params(params), returns, doc, variadic))

    def verb(name: str, doc: str, /, **params: object) -> None:
        registry.add(Primitive(name, "verb", _parse_params(params), "none", doc))

    def choice(name: str, doc: str, /, returns: str = "any", **params: object) -> None:
        registry.add(Primitive(name, "choice", _parse_params(params), returns, doc))
    return query, verb, choice
