"""What `event` is known to carry where a piece of effect text runs, narrowed by the tests it passes.

A window declares the fields of its event; `after-action` adds fields by action (`event.action`).
The compiler refuses `event.<field>` unless every event that can reach that point carries the
field. A condition such as `event.action == 'battle'` (or `event.action in ['battle', 'capture']`)
narrows what follows it: the right side of `and`, the body of an `if`, an option's body after its
`when`, and an ability's effect after its `condition`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from . import ast as A


@dataclass(frozen=True)
class EventType:
    """The event of one window: fields every event carries, and variants keyed by a discriminant."""

    window: str
    fields: frozenset[str]
    discriminant: str = ""                                       # e.g. 'action' in after-action
    variants: Mapping[str, frozenset[str]] = field(default_factory=dict)  # discriminant value -> fields
    possible: frozenset[str] | None = None                      # variants still possible (None: all)
    carriers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # field -> windows carrying it

    def live(self) -> list[str]:
        """The variants that can still reach this point."""
        return sorted(self.variants if self.possible is None else self.possible)

    def guaranteed(self) -> frozenset[str]:
        """Fields every event reaching this point carries."""
        if not self.variants:
            return self.fields
        live = self.live()
        if not live:
            return frozenset(set().union(*self.variants.values()) | self.fields)  # unreachable: anything goes
        out = set(self.variants[live[0]])
        for v in live[1:]:
            out &= self.variants[v]
        return frozenset(out | self.fields)

    def narrowed(self, values: set[str] | None) -> "EventType":
        if values is None or not self.variants:
            return self
        now = set(self.live()) & values
        return replace(self, possible=frozenset(now))

    def missing(self, name: str) -> str:
        """Why `event.<name>` is refused here, naming where it is carried."""
        if self.variants and any(name in f for f in self.variants.values()):
            having = sorted(v for v, f in self.variants.items() if name in f)
            live = self.live()
            scope = (f"window '{self.window}'" if self.possible is None
                     else f"window '{self.window}' for {self.discriminant} {', '.join(repr(v) for v in live)}")
            return (f"'event.{name}' is not guaranteed in {scope}: only the {self.discriminant}s "
                    f"{', '.join(repr(h) for h in having)} carry it; test it first, e.g. "
                    f"\"event.{self.discriminant} == '{having[0]}' and ...\"")
        where = self.carriers.get(name, ())
        also = f"; windows whose event carries it: {', '.join(where)}" if where else ""
        return f"the event of window '{self.window}' has no field '{name}'{also}"


def _discriminant(node: A.Expr, etype: EventType) -> bool:
    return (isinstance(node, A.Field) and node.name == etype.discriminant and isinstance(node.obj, A.Var)
            and node.obj.name == "event")


def literal_strings(node: A.Expr) -> list[A.Lit] | None:
    """The string literals of a literal or a list of literals (None when not all literal)."""
    if isinstance(node, A.Lit) and isinstance(node.value, str):
        return [node]
    if isinstance(node, A.ListLit) and all(isinstance(i, A.Lit) and isinstance(i.value, str) for i in node.items):
        return list(node.items)  # type: ignore[arg-type]
    return None


def tested_values(cond: A.Expr, etype: EventType | None) -> set[str] | None:
    """The discriminant values `cond` being true implies (None: it says nothing about them)."""
    if etype is None or not etype.variants:
        return None
    if isinstance(cond, A.Binary):
        if cond.op == "and":
            left, right = tested_values(cond.left, etype), tested_values(cond.right, etype)
            if left is None or right is None:
                return left if right is None else right
            return left & right
        if cond.op == "or":
            left, right = tested_values(cond.left, etype), tested_values(cond.right, etype)
            return None if left is None or right is None else left | right
        if cond.op == "==":
            for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
                if _discriminant(a, etype) and isinstance(b, A.Lit) and isinstance(b.value, str):
                    return {b.value}
        if cond.op == "!=":
            for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
                if _discriminant(a, etype) and isinstance(b, A.Lit) and isinstance(b.value, str):
                    return set(etype.variants) - {b.value}
        if cond.op in ("in", "not in") and _discriminant(cond.left, etype):
            lits = literal_strings(cond.right)
            if lits is not None and isinstance(cond.right, A.ListLit):
                named = {str(x.value) for x in lits}
                return named if cond.op == "in" else set(etype.variants) - named
    return None


def compared_literals(cond: A.Binary, etype: EventType | None) -> list[A.Lit]:
    """String literals compared against the discriminant (to check they name real variants)."""
    if etype is None or not etype.variants or cond.op not in ("==", "!=", "in", "not in"):
        return []
    pairs = [(cond.left, cond.right)]
    if cond.op in ("==", "!="):
        pairs.append((cond.right, cond.left))
    for a, b in pairs:
        if _discriminant(a, etype):
            lits = literal_strings(b)
            if lits is not None and (cond.op in ("==", "!=") or isinstance(b, A.ListLit)):
                return lits
    return []
