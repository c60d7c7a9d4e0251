"""What a list expression holds, read from its syntax alone: the identities the choice proofs
(effects/guarded_choices.py) use to see that two texts list the same things, or that one lists
some of another's.

- `distinct(L)` and `without(L, M)` hold only items of `L` (`distinct` one of each of them);
- `pluck(L, 'f')` (a literal field) is `[x.f for x in L]`, one item per record of `L`;
- `[x... for x in L]` without `if` holds an item for each of `L`'s; with one, for some of them;
- `without(units(ARGS), units(ARGS, owner: X))` lists the units of `units(ARGS)` that `X` does not
  own (the second list is the part of the first that `X` owns).
"""
from __future__ import annotations

from typing import Callable

from . import ast as A

_ITEM = "$item"   # the name a `pluck` read as a comprehension binds (no text can bind it)


def peel_distinct(node: object) -> object:
    """L for `distinct(L)`, else the node."""
    if isinstance(node, A.Call) and node.name == "distinct" and len(node.args) == 1 and node.args[0].name is None:
        return node.args[0].value
    return node


def as_comprehension(node: object) -> object:
    """`[x.f for x in L]` for `pluck(L, 'f')` with a literal field (the same list), else the node."""
    if isinstance(node, A.Call) and node.name == "pluck" and len(node.args) == 2 \
            and all(a.name is None for a in node.args) and isinstance(node.args[1].value, A.Lit) \
            and type(node.args[1].value.value) is str:
        at = (node.line, node.col)
        item = A.Field(*at, A.Var(*at, _ITEM), node.args[1].value.value)
        return A.Comprehension(*at, item, _ITEM, node.args[0].value, None)
    return node


def without_parts(node: object) -> tuple[object, object] | None:
    """(L, M) for `without(L, M)` with positional arguments, else None."""
    if isinstance(node, A.Call) and node.name == "without" and len(node.args) == 2 \
            and all(a.name is None for a in node.args):
        return node.args[0].value, node.args[1].value
    return None


def views(node: object) -> list[object]:
    """`node`, then the list it is `distinct`, a `pluck` or an unfiltered comprehension
    `[x... for x in L]` of, and so on: lists holding an item for each of the next one's."""
    out = [node]
    while True:
        inner = as_comprehension(peel_distinct(node))
        if isinstance(inner, A.Comprehension) and inner.cond is None:
            inner = inner.source
        if inner is node or inner is out[-1]:
            return out
        out.append(inner)
        node = inner


def _within(node: object) -> object:
    """The list that `node` holds some items of, through `distinct` and `without`."""
    for _ in range(16):   # (nested calls: bounded)
        inner = peel_distinct(node)
        parts = without_parts(inner)
        if parts is not None:
            inner = parts[0]
        if inner is node:
            return node
        node = inner
    return node


def field_of_units(node: object, field: str, defs: dict[str, object] | None = None) -> A.Call | None:
    """The `units(...)` call whose units hold every `u` of `[u.FIELD for u in L ...]` or
    `pluck(L, 'FIELD')` (in `distinct` or `without`, or not): `L` is that call, a comprehension
    `[u for u in ...]` of it, a `without` of it, or a name `defs` binds to one."""
    node = as_comprehension(_within(node))
    if isinstance(node, A.Comprehension) and isinstance(node.item, A.Field) and node.item.name == field \
            and isinstance(node.item.obj, A.Var) and node.item.obj.name == node.name:
        return units_holding(node.source, defs or {})
    return None


def units_holding(node: object, defs: dict[str, object]) -> A.Call | None:
    """The `units(...)` call whose units hold every item of `node` (see `field_of_units`)."""
    for _ in range(16):   # (a chain of names: bounded)
        node = _within(node)
        if isinstance(node, A.Call):
            return node if node.name == "units" else None
        if isinstance(node, A.Var) and node.name in defs:
            node = defs[node.name]
        elif isinstance(node, A.Comprehension) and isinstance(node.item, A.Var) and node.item.name == node.name:
            node = node.source
        else:
            return None
    return None


def not_owned_by(node: object, shape: Callable[[object], object]) -> tuple[A.Call, object] | None:
    """(`units(ARGS)`, X) when every item of `node` is a unit of `units(ARGS)` that X does not own:
    `node` is `without(units(ARGS), units(ARGS, owner: X))` (named arguments in any order; `shape`:
    guarded_choices.shape, which tells equal expressions)."""
    parts = without_parts(node)
    if parts is None or not isinstance(parts[0], A.Call) or parts[0].name != "units" \
            or not isinstance(parts[1], A.Call) or parts[1].name != "units":
        return None
    listed, owned = parts
    if any(a.name is None or a.name == "owner" for a in listed.args) or any(a.name is None for a in owned.args):
        return None
    owner = next((a.value for a in owned.args if a.name == "owner"), None)
    unowned = shape(listed)
    if owner is None or not isinstance(unowned, tuple):
        return None
    with_owner = unowned[:3] + (tuple(sorted(unowned[3] + (("owner", shape(owner)),))),)
    return (listed, owner) if with_owner == shape(owned) else None


def owners_of_every(node: object) -> A.Call | None:
    """The `units(...)` call of whose units `node` holds every owner: `[u.owner for u in units(...)]`
    or `pluck(units(...), 'owner')`, in `distinct` or not."""
    node = as_comprehension(peel_distinct(node))
    if isinstance(node, A.Comprehension) and node.cond is None and isinstance(node.item, A.Field) \
            and node.item.name == "owner" and isinstance(node.item.obj, A.Var) \
            and node.item.obj.name == node.name and isinstance(node.source, A.Call) and node.source.name == "units":
        return node.source
    return None


__all__ = ["as_comprehension", "field_of_units", "not_owned_by", "owners_of_every", "peel_distinct",
           "units_holding", "views", "without_parts"]
