"""Single choices an action's condition or `where` proves to have an option, found from the syntax.

A dry run (engine/feasible.py) finds whether an action can be done in full: whether each single
choice it makes has an option. Some need no dry run. An ability whose condition says
`count(units(owner: me, class: 'cultist')) > 0` and whose effect starts by choosing among
`units(owner: me, class: 'cultist')` always has that option: the effect starts from the state the
condition was checked in. Lists known not to be empty (facts) come from

- a conjunct of the condition (joined by `and`): `count(E) > n` (n >= 0), `count(E) >= n` (n >= 1)
  or `count(E) != 0`, either way round; the same in the condition of an `if` branch, for the
  statements of that branch;
- the action's `where`, `[u.loc for u in units(ARGS) ...]` (in `distinct` or not): the area the
  action ends in holds such a unit, so `units(ARGS, area: area)` is not empty;
- a choice already made: a player `f` picked from `[u.owner for u in L]`, where `L` is
  `units(ARGS)`, a comprehension `[u for u in ...]` of it (filtered or not) or a name `let`
  bound to one, owns such a unit, so `units(ARGS, owner: f)` is not empty;
- `areas()`, every area of the map;

and a list is not empty when it is a fact, or `distinct(L)` or `[x... for x in L]` (no `if`) of one.
A choice whose answer is used only inside the `if x != none { ... }` right after it is optional:
with no option it gives `none` and the effect goes on, so it is not a part that can be missing.

Facts hold only while the state is as it was when they were found. Statements that bind choices'
answers or values of queries change nothing, nor do `if` and `for` whose parts change nothing; a
statement that may change the state ends the proof there (the choices of an `if` or `for` that
changes it are still proven inside it, the facts of a `for` body from that body alone). When the
caller names them (`removals`), verbs that take one unit off the map (`eliminate(a)`) do not end
it: a removal leaves a list of units, or `distinct` or an unfiltered comprehension of one, at most
one item shorter, so a condition's `count(L) >= 2` still proves `L` after one removal. That holds
only while what a removal sets off (its window's abilities) moves no unit: the engine checks it
for the content in play before it trusts such a proof (PAST_REMOVALS, engine/feasible.py).

A fact from the action's condition or `where` reads only `me`, `enemies`, `players`, `self`,
`area` and answers chosen before it, none rebound since, and calls only the queries the caller
names as safe: those whose answer paying the action's cost cannot change (it is paid between the
condition and the effect). Facts found inside the effect may call any query (`pure`). Named
arguments match in any order; `let a = area` makes `a` stand for `area`.
"""
from __future__ import annotations

from typing import Any

from . import ast as A
from .list_views import (as_comprehension, field_of_units, not_owned_by, owners_of_every, peel_distinct, views,
                         without_parts)

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
        if listed is None or not isinstance(right, A.Lit) or type(right.value) is not int:
            continue
        n = right.value
        if op == ">" and n >= 0:
            out.append((listed, n + 1))
        elif (op == ">=" and n >= 1) or (op == "!=" and n == 0):
            out.append((listed, max(n, 1)))
    return out


def _reads(node: object) -> tuple[set[str], set[str]]:
    """(the primitives called, the names read and not bound inside) of an expression (its
    `ast.expression_inputs`)."""
    found = A.expression_inputs(node)
    if found is None:   # (not an expression: taken as calling something unknown)
        return {"<statement>"}, set()
    return set(found[0]), set(found[1])


class _Facts:
    """Lists known not to be empty at a point of the effect, with the names each reads."""

    def __init__(self, safe_calls: frozenset[str]) -> None:
        self.safe = safe_calls
        self.known: dict[object, set[str]] = {}
        self.least: dict[object, int] = {}   # facts known to hold more than one item: how many
        self.alias: dict[str, str] = {}
        self.defs: dict[str, object] = {}    # names bound to a list by `let`, the state unchanged since
        self.past_removal = False            # whether a removal was followed to get here

    def copy(self) -> "_Facts":
        out = _Facts(self.safe)
        out.known, out.least, out.alias, out.defs = dict(self.known), dict(self.least), dict(self.alias), dict(self.defs)
        out.past_removal = self.past_removal
        return out

    def names(self, node: object) -> tuple[set[str], set[str]]:
        """`_reads` of a node, the names through the aliases (what a fact's value depends on)."""
        calls, names = _reads(node)
        return calls, {self.alias.get(n, n) for n in names}

    def add(self, listed: object, allowed: frozenset[str] | set[str] | None, least: int = 1,
            calls_allowed: frozenset[str] | None = None) -> None:
        """`listed` holds at least `least` items, if it calls only safe queries (or `calls_allowed`)
        and reads only `allowed` names (None: any)."""
        calls, names = self.names(listed)
        if calls <= (self.safe if calls_allowed is None else calls_allowed) and (allowed is None or names <= allowed):
            key = shape(listed, self.alias)
            self.known[key] = names
            if least > 1 and _one_item_per_unit(listed):
                self.least[key] = max(least, self.least.get(key, 1))

    def removed_one_unit(self) -> None:
        """A unit left the map: only lists of units with an item per unit keep their fact, one
        item shorter (those that held only one are dropped)."""
        self.known = {k: names for k, names in self.known.items() if self.least.get(k, 1) > 1}
        self.least = {k: n - 1 for k, n in self.least.items() if k in self.known and n > 2}
        self.defs = {}
        self.past_removal = True

    def changed(self) -> None:
        """The state may have changed in any way: nothing is known but what names stand for."""
        self.known, self.least, self.defs = {}, {}, {}

    def nonempty(self, listed: object) -> bool:
        """Whether `listed` is a fact, `areas()`, or `distinct` or an unfiltered comprehension of one."""
        for view in views(listed):
            key = shape(view, self.alias)
            if key in self.known or key == _EVERY_AREA or self._others_own(view):
                return True
        return False

    def _others_own(self, listed: object) -> bool:
        """Whether `listed` is `without(O, [X])`, O holding the owner of every unit of a list that
        holds a unit X does not own (a fact `OTHERS_OWN`)."""
        parts = without_parts(listed)
        if parts is None or not isinstance(parts[1], A.ListLit) or len(parts[1].items) != 1:
            return False
        owned = owners_of_every(parts[0])
        return owned is not None and \
            (OTHERS_OWN, shape(owned, self.alias), shape(parts[1].items[0], self.alias)) in self.known

    def rebind(self, name: str) -> None:
        """`name` takes a new value: facts about its old one and aliases to or of it are dropped."""
        self.alias = {k: v for k, v in self.alias.items() if name not in (k, v)}
        self.known = {k: names for k, names in self.known.items() if name not in names}
        self.least = {k: n for k, n in self.least.items() if k in self.known}
        self.defs = {k: v for k, v in self.defs.items() if k != name and name not in _reads(v)[1]}


_EVERY_AREA = ("Call", "areas", (), ())
OTHERS_OWN = "others-own"   # a fact (OTHERS_OWN, L, X): the list of units L holds a unit X does not own   # `areas()`: every area of the map, never none


# queries listing units, one item per unit, whose other units' places cannot change an item
_UNIT_LISTS = frozenset({"units", "pool"})


def _one_item_per_unit(node: object) -> bool:
    """Whether `node` lists units one by one (`units(...)` or `pool(...)` with named arguments,
    not `where`), or is `distinct` or an unfiltered comprehension of such a list: removing one unit
    removes at most one item."""
    base = views(node)[-1]
    return isinstance(base, A.Call) and base.name in _UNIT_LISTS \
        and all(a.name is not None and a.name != "where" for a in base.args)


def proven_choices(program: A.Program, cond: object, choices: dict[str, tuple[int, str]],
                   noting: frozenset[str], safe_calls: frozenset[str], where: object = None,
                   removals: frozenset[str] = frozenset(), pure_calls: frozenset[str] | None = None) -> set[int]:
    """The `id`s of the Call nodes of `program` that are single choices (`noting`) proven to have an
    option when `cond` holds and the action ends in an area of `where`, or optional (see the module).
    `choices`: every choice primitive -> the position and name of its list parameter. `removals`:
    verbs that take their one unit off the map, which the proof may then follow. `pure_calls`: the
    calls that change nothing a fact reads (queries; `safe_calls` when not given)."""
    proven, past_removals = choice_proofs(program, cond, choices, noting, safe_calls, where, removals, pure_calls)
    return proven | past_removals


def choice_proofs(program: A.Program, cond: object, choices: dict[str, tuple[int, str]],
                  noting: frozenset[str], safe_calls: frozenset[str], where: object = None,
                  removals: frozenset[str] = frozenset(),
                  pure_calls: frozenset[str] | None = None) -> tuple[set[int], set[int]]:
    """`proven_choices` in two parts, found in one walk: the choices proven with no removal followed
    to reach them, and those proven only past one."""
    facts = _Facts(safe_calls)
    for listed, least in counted_lists(cond):
        facts.add(listed, STABLE_NAMES, least)   # (the condition is checked where `area` is not bound)
    source = field_of_units(where, "loc")
    if source is not None:   # the action ends in an area holding one of those units
        calls, names = _reads(source)
        fact = _with_arg(shape(source), AREA, ("Var", AREA))
        if fact is not None and calls <= safe_calls and names <= STABLE_NAMES:
            facts.known[fact] = names | {AREA}
            _unowned_there(where, facts, safe_calls)
    prover = _Prover(choices, noting, pure_calls if pure_calls is not None else safe_calls, removals)
    prover.body(program.body, facts, set())
    return prover.proven, prover.past_removals


def _unowned_there(where: object, facts: _Facts, safe_calls: frozenset[str]) -> None:
    """The fact that the area the action ends in holds a unit of `units(ARGS)` that X does not own,
    when `where` is `[u.loc for u in without(units(ARGS), units(ARGS, owner: X))]` (list_views.py)."""
    inner = as_comprehension(peel_distinct(where))
    if not (isinstance(inner, A.Comprehension) and isinstance(inner.item, A.Field) and inner.item.name == "loc"
            and isinstance(inner.item.obj, A.Var) and inner.item.obj.name == inner.name):
        return
    source = inner.source
    found = not_owned_by(source, shape)
    if found is None:
        return
    calls, names = _reads(source)
    there = _with_arg(shape(found[0]), AREA, ("Var", AREA))
    if there is not None and calls <= safe_calls and names <= STABLE_NAMES:
        facts.known[(OTHERS_OWN, there, shape(found[1]))] = names | {AREA}


class _Prover:
    """Walks an effect's statements with the facts that hold at each (see the module)."""

    def __init__(self, choices: dict[str, tuple[int, str]], noting: frozenset[str], pure: frozenset[str],
                 removals: frozenset[str]) -> None:
        self.choices, self.noting, self.pure, self.removals = choices, noting, pure, removals
        self.proven: set[int] = set()
        self.past_removals: set[int] = set()   # those proven only past a removal

    def changes(self, node: object) -> bool:
        """Whether a statement may change the state: it calls something other than a query or a choice."""
        return bool(A.call_names(node) - self.pure - self.choices.keys())

    def body(self, stmts: tuple[Any, ...], facts: _Facts, chosen: set[str]) -> bool:
        """Prove the choices of a block; False once a statement may have changed the state in a
        way the facts do not follow (nothing after it in the effect is proven)."""
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, A.Nothing):
                continue
            if isinstance(stmt, A.If):
                if not self.branches(stmt, facts, chosen):
                    return False
                continue
            if isinstance(stmt, A.For):
                if not self.loop(stmt, facts, chosen):
                    return False
                continue
            if isinstance(stmt, A.Let):
                value, name = stmt.value, stmt.name
            elif isinstance(stmt, A.Do):
                value, name = stmt.call, None
            else:
                return False
            if isinstance(value, A.Call) and value.name in self.choices:
                if not self.choice(value, name, facts, chosen, stmts[i + 1:]):
                    return False
                continue
            if name is None and isinstance(value, A.Call) and value.name in self.removals \
                    and len(value.args) == 1 and not _reads(value.args)[0] - self.pure:
                facts.removed_one_unit()
                continue
            if _reads(value)[0] - self.pure:
                return False       # a call that is not a choice or a query may change the state
            if name is not None:
                facts.rebind(name)
                chosen.discard(name)
                if isinstance(value, A.Var) and value.name in STABLE_NAMES | {AREA} | chosen:
                    facts.alias[name] = facts.alias.get(value.name, value.name)   # `let a = area`
                else:
                    facts.defs[name] = value
        return True

    def choice(self, call: A.Call, name: str | None, facts: _Facts, chosen: set[str], rest: tuple[Any, ...]) -> bool:
        if _reads(call.args)[0] - self.pure:
            return False   # an argument that may do anything: what follows is not at the same state
        listed = A.argument(call, *self.choices[call.name])
        if call.name in self.noting and listed is not None and \
                (facts.nonempty(listed) or (name is not None and _optional(name, rest))):
            (self.past_removals if facts.past_removal else self.proven).add(id(call))
        if name is not None:
            facts.rebind(name)
            owners = field_of_units(listed, "owner", facts.defs)
            if owners is not None:   # the player picked owns one of those units
                fact = _with_arg(shape(owners, facts.alias), "owner", ("Var", name))
                calls, names = facts.names(owners)
                if fact is not None and calls <= self.pure and name not in names \
                        and names <= STABLE_NAMES | chosen | {AREA}:
                    facts.known[fact] = names | {name}
            chosen.add(name)
        return True

    def branches(self, stmt: A.If, facts: _Facts, chosen: set[str]) -> bool:
        """Prove the choices of each branch, its condition holding; whether what follows the `if`
        is at the state before it (no branch changes it)."""
        if any(_reads(test)[0] - self.pure for test, _ in stmt.branches):
            return False
        for test, block in stmt.branches:
            inner = facts.copy()
            for listed, least in counted_lists(test):
                inner.add(listed, None, least, calls_allowed=self.pure)
            self.body(block.body, inner, set(chosen))
        if stmt.orelse is not None:
            self.body(stmt.orelse.body, facts.copy(), set(chosen))
        return not self.changes(stmt)

    def loop(self, stmt: A.For, facts: _Facts, chosen: set[str]) -> bool:
        """Prove the choices of a `for` body: with the facts before it when the body changes
        nothing, else only with those found in the body itself."""
        if _reads(stmt.iterable)[0] - self.pure:
            return False
        changes = self.changes(stmt.body)
        inner = facts.copy()
        if changes:
            inner.changed()
        inner.rebind(stmt.name)
        self.body(stmt.body.body, inner, set(chosen) - {stmt.name})
        return not changes


def _optional(name: str, rest: tuple[Any, ...]) -> bool:
    """Whether `rest` (the statements after `let name = CHOICE`) uses `name` only inside an
    `if name != none { ... }` that comes first, with no other branch."""
    if not rest or not isinstance(rest[0], A.If) or len(rest[0].branches) != 1 or rest[0].orelse is not None:
        return False
    test = rest[0].branches[0][0]
    checked = any(isinstance(c, A.Binary) and c.op == "!=" and
                  {_kind(c.left), _kind(c.right)} == {("Var", name), ("Lit", None)} for c in A.conjuncts(test))
    return checked and not any(isinstance(n, A.Var) and n.name == name for n in A._nodes(rest[1:]))


def _kind(node: object) -> tuple[str, object]:
    if isinstance(node, A.Var):
        return ("Var", node.name)
    if isinstance(node, A.Lit):
        return ("Lit", node.value)
    return ("", None)


__all__ = ["AREA", "STABLE_NAMES", "choice_proofs", "counted_lists", "nonempty_lists", "proven_choices", "shape"]
