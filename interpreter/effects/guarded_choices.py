"""Single choices an action's condition or `where` proves to have an option, found from the syntax.

A dry run (engine/feasible.py) finds whether an action can be done in full: whether each single
choice it makes has an option. Some need no dry run. An ability whose condition says
`count(units(owner: me, class: 'cultist')) > 0` and whose effect starts by choosing among
`units(owner: me, class: 'cultist')` always has that option: the effect starts from the state the
condition was checked in. Lists known not to be empty (facts) come from

- a conjunct of the condition (joined by `and`): `count(E) > n` (n >= 0), `count(E) >= n` (n >= 1)
  or `count(E) != 0`, either way round;
- the action's `where`, `[u.loc for u in units(ARGS) ...]` (in `distinct` or not): the area the
  action ends in holds such a unit, so `units(ARGS, area: area)` is not empty;
- a choice already made: a player `f` picked from `[u.owner for u in units(ARGS) ...]` owns such a
  unit, so `units(ARGS, owner: f)` is not empty;

and a list is not empty when it is a fact, or `distinct(L)` or `[x... for x in L]` (no `if`) of one.
Only the effect's opening run of statements counts: statements that bind choices' answers or
values computed with safe queries only (nothing happens to the state before the choices are
asked), and, when the caller names them (`removals`), verbs that take one unit off the map
(`eliminate(a)`): a removal leaves a list of units, or `distinct` or an unfiltered comprehension of
one, at most one item shorter, so a condition's `count(L) >= 2` still proves `L` after one removal.
That holds only while what a removal sets off (its window's abilities) moves no unit: the engine
checks it for the content in play before it trusts such a proof (PAST_REMOVALS, engine/feasible.py). A fact reads only `me`, `enemies`, `players`, `self`, `area` and answers chosen before it,
none rebound since, and calls only the queries the caller names as safe: those whose answer paying
the action's cost cannot change (it is paid between the condition and the effect). Named arguments
match in any order; `let a = area` makes `a` stand for `area`.
"""
from __future__ import annotations

from typing import Any

from . import ast as A

# names whose value is the same where the condition is checked and where the effect starts
STABLE_NAMES = frozenset({"me", "enemies", "players", "self"})
AREA = "area"   # bound to the area the action ends in (an ability with `where`)
_FLIPPED = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "!=": "!=", "==": "=="}


def shape(node: object, alias: dict[str, str] | None = None) -> object:
    """A node as nested tuples without line and column, named arguments sorted, names through
    `alias` (equal shapes: the same expression)."""
    if isinstance(node, A.Var):
        return ("Var", (alias or {}).get(node.name, node.name))
    if isinstance(node, A.Call):
        positional = tuple(shape(a.value, alias) for a in node.args if a.name is None)
        named = tuple(sorted((a.name, shape(a.value, alias)) for a in node.args if a.name is not None))
        return ("Call", node.name, positional, named)
    if isinstance(node, (tuple, list)):
        return tuple(shape(n, alias) for n in node)
    if isinstance(node, A.Node):
        return (type(node).__name__,) + tuple(shape(getattr(node, f), alias) for f in node.__dataclass_fields__
                                              if f not in ("line", "col"))
    return node


def _with_arg(units_shape: Any, name: str, value: object) -> object | None:
    """`units(ARGS)`'s shape with `name: value` added (None if it has positional args or `name`)."""
    _, fn, positional, named = units_shape
    if positional or any(n == name for n, _ in named):
        return None
    return ("Call", fn, (), tuple(sorted(named + ((name, value),))))


def _counted(node: object) -> object | None:
    """E when `node` is `count(E)`."""
    if isinstance(node, A.Call) and node.name == "count" and len(node.args) == 1 and node.args[0].name is None:
        return node.args[0].value
    return None


def nonempty_lists(cond: object) -> list[object]:
    """The lists `cond` (an expression tree, or None) says are not empty when it holds."""
    return [listed for listed, _ in counted_lists(cond)]


def counted_lists(cond: object) -> list[tuple[object, int]]:
    """(list, n) for each list `cond` says holds at least n >= 1 items when it holds."""
    out = []
    for c in A.conjuncts(cond):
        if not isinstance(c, A.Binary) or c.op not in _FLIPPED:
            continue
        op, left, right = c.op, c.left, c.right
        if _counted(left) is None:
            op, left, right = _FLIPPED[op], right, left
        listed = _counted(left)
        if listed is None or not isinstance(right, A.Lit) or right.value.__class__ is not int:
            continue
        n = right.value
        if op == ">" and n >= 0:
            out.append((listed, n + 1))
        elif (op == ">=" and n >= 1) or (op == "!=" and n == 0):
            out.append((listed, max(n, 1)))
    return out


def _peel(node: object) -> object:
    """L for `distinct(L)`, else the node."""
    if isinstance(node, A.Call) and node.name == "distinct" and len(node.args) == 1 and node.args[0].name is None:
        return node.args[0].value
    return node


def _field_of_units(node: object, field: str) -> A.Call | None:
    """The `units(...)` call of `[u.FIELD for u in units(...) ...]` (in `distinct` or not)."""
    node = _peel(node)
    if isinstance(node, A.Comprehension) and isinstance(node.source, A.Call) and node.source.name == "units" \
            and isinstance(node.item, A.Field) and node.item.name == field \
            and isinstance(node.item.obj, A.Var) and node.item.obj.name == node.name:
        return node.source
    return None


def _reads(node: object) -> tuple[set[str], set[str]]:
    """(the primitives called, the names read and not bound inside) of an expression (its
    `ast.expression_inputs`)."""
    found = A.expression_inputs(node)
    if found is None:   # (not an expression: taken as calling something unknown)
        return {"<statement>"}, set()
    return set(found[0]), set(found[1])


class _Facts:
    """Lists known not to be empty at a point of the opening statements, with the names each reads."""

    def __init__(self, safe_calls: frozenset[str]) -> None:
        self.safe = safe_calls
        self.known: dict[object, set[str]] = {}
        self.least: dict[object, int] = {}   # facts known to hold more than one item: how many
        self.alias: dict[str, str] = {}

    def names(self, node: object) -> tuple[set[str], set[str]]:
        """`_reads` of a node, the names through the aliases (what a fact's value depends on)."""
        calls, names = _reads(node)
        return calls, {self.alias.get(n, n) for n in names}

    def add(self, listed: object, allowed: frozenset[str] | set[str], least: int = 1) -> None:
        """`listed` holds at least `least` items, if it reads only safe queries and `allowed` names."""
        calls, names = self.names(listed)
        if calls <= self.safe and names <= allowed:
            key = shape(listed, self.alias)
            self.known[key] = names
            if least > 1 and _one_item_per_unit(listed):
                self.least[key] = max(least, self.least.get(key, 1))

    def removed_one_unit(self) -> None:
        """A unit left the map: only lists of units with an item per unit keep their fact, one
        item shorter (those that held only one are dropped)."""
        self.known = {k: names for k, names in self.known.items() if self.least.get(k, 1) > 1}
        self.least = {k: n - 1 for k, n in self.least.items() if k in self.known and n > 2}

    def nonempty(self, listed: object) -> bool:
        """Whether `listed` is a fact, or `distinct` or an unfiltered comprehension of one."""
        while True:
            if shape(listed, self.alias) in self.known:
                return True
            inner = _peel(listed)
            if isinstance(inner, A.Comprehension) and inner.cond is None:
                inner = inner.source
            if inner is listed:
                return False
            listed = inner

    def rebind(self, name: str) -> None:
        """`name` takes a new value: facts about its old one and aliases to or of it are dropped."""
        self.alias = {k: v for k, v in self.alias.items() if name not in (k, v)}
        self.known = {k: names for k, names in self.known.items() if name not in names}
        self.least = {k: n for k, n in self.least.items() if k in self.known}


# queries listing units, one item per unit, whose other units' places cannot change an item
_UNIT_LISTS = frozenset({"units", "pool"})


def _one_item_per_unit(node: object) -> bool:
    """Whether `node` lists units one by one (`units(...)` or `pool(...)` with named arguments,
    not `where`), or is `distinct` or an unfiltered comprehension of such a list: removing one unit
    removes at most one item."""
    while True:
        if isinstance(node, A.Call) and node.name in _UNIT_LISTS:
            return all(a.name is not None and a.name != "where" for a in node.args)
        inner = _peel(node)
        if isinstance(inner, A.Comprehension) and inner.cond is None:
            inner = inner.source
        if inner is node:
            return False
        node = inner


def proven_choices(program: A.Program, cond: object, choices: dict[str, tuple[int, str]],
                   noting: frozenset[str], safe_calls: frozenset[str], where: object = None,
                   removals: frozenset[str] = frozenset()) -> set[int]:
    """The `id`s of the Call nodes of `program` that are single choices (`noting`) proven to have an
    option when `cond` holds and the action ends in an area of `where` (see the module).
    `choices`: every choice primitive -> the position and name of its list parameter. `removals`:
    verbs that take their one unit off the map, which the opening statements may then hold."""
    facts = _Facts(safe_calls)
    for listed, least in counted_lists(cond):
        facts.add(listed, STABLE_NAMES, least)   # (the condition is checked where `area` is not bound)
    source = _field_of_units(where, "loc")
    if source is not None:   # the action ends in an area holding one of those units
        calls, names = _reads(source)
        fact = _with_arg(shape(source), AREA, ("Var", AREA))
        if fact is not None and calls <= safe_calls and names <= STABLE_NAMES:
            facts.known[fact] = names | {AREA}
    proven: set[int] = set()
    chosen: set[str] = set()   # names bound to answers so far (facts may read them)
    for stmt in program.body:
        if isinstance(stmt, A.Let):
            value, name = stmt.value, stmt.name
        elif isinstance(stmt, A.Do):
            value, name = stmt.call, None
        else:
            break
        if isinstance(value, A.Call) and value.name in choices:
            if _reads(value.args)[0] - safe_calls:
                break   # an argument that may do anything: what follows is not at the same state
            listed = A.argument(value, *choices[value.name])
            if value.name in noting and listed is not None and facts.nonempty(listed):
                proven.add(id(value))
            if name is not None:
                facts.rebind(name)
                owners = _field_of_units(listed, "owner")
                if owners is not None:   # the player picked owns one of those units
                    fact = _with_arg(shape(owners, facts.alias), "owner", ("Var", name))
                    calls, names = facts.names(owners)
                    if fact is not None and calls <= safe_calls and name not in names \
                            and names <= STABLE_NAMES | chosen | {AREA}:
                        facts.known[fact] = names | {name}
                chosen.add(name)
            continue
        if name is None and isinstance(value, A.Call) and value.name in removals \
                and len(value.args) == 1 and not _reads(value.args)[0] - safe_calls:
            facts.removed_one_unit()
            continue
        if _reads(value)[0] - safe_calls:
            break       # a call that is not a choice or a safe query may change the state
        if name is not None:
            facts.rebind(name)
            chosen.discard(name)
            if isinstance(value, A.Var) and value.name in STABLE_NAMES | {AREA} | chosen:
                facts.alias[name] = facts.alias.get(value.name, value.name)   # `let a = area`
    return proven


__all__ = ["AREA", "STABLE_NAMES", "counted_lists", "nonempty_lists", "proven_choices", "shape"]
