"""Single choices an action's condition proves to have an option, found from the syntax alone.

A dry run (engine/feasible.py) finds whether an action can be done in full: whether each single
choice it makes has an option. Some need no dry run: an ability whose condition says
`count(units(owner: me, class: 'cultist')) > 0` and whose effect starts by choosing among
`units(owner: me, class: 'cultist')` always has that option, since the state the effect starts
from is the one the condition was checked in. A choice is proven when

- it is in the effect's opening run of statements, which only bind choices' answers or values
  computed without calling anything (nothing happens to the state before it is asked);
- its list is, letter for letter (positions aside), an expression `E` of which a conjunct of the
  condition (joined by `and`) says `count(E) > n` (n >= 0), `count(E) >= n` (n >= 1) or
  `count(E) != 0` (either way round);
- `E` reads only `me`, `enemies`, `players` and `self`, none of them rebound before the choice,
  and calls only the queries the caller names as safe: those whose answer paying the action's cost
  cannot change (the cost is paid between the condition and the effect).
"""
from __future__ import annotations

from typing import Iterable

from . import ast as A

# names whose value is the same where the condition is checked and where the effect starts
STABLE_NAMES = frozenset({"me", "enemies", "players", "self"})
_FLIPPED = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "!=": "!=", "==": "=="}


def shape(node: object) -> object:
    """A node as nested tuples without its line and column (equal shapes: the same expression)."""
    if isinstance(node, (tuple, list)):
        return tuple(shape(n) for n in node)
    if isinstance(node, A.Node):
        return (type(node).__name__,) + tuple(shape(getattr(node, f)) for f in node.__dataclass_fields__
                                              if f not in ("line", "col"))
    return node


def _conjuncts(cond: object) -> Iterable[object]:
    if isinstance(cond, A.Binary) and cond.op == "and":
        yield from _conjuncts(cond.left)
        yield from _conjuncts(cond.right)
    else:
        yield cond


def _counted(node: object) -> object | None:
    """E when `node` is `count(E)`."""
    if isinstance(node, A.Call) and node.name == "count" and len(node.args) == 1 and node.args[0].name is None:
        return node.args[0].value
    return None


def nonempty_lists(cond: object) -> set[object]:
    """The shapes of the lists `cond` (an expression tree, or None) says are not empty when it holds."""
    out: set[object] = set()
    for c in _conjuncts(cond):
        if not isinstance(c, A.Binary) or c.op not in _FLIPPED:
            continue
        op, left, right = c.op, c.left, c.right
        if _counted(left) is None:
            op, left, right = _FLIPPED[op], right, left
        listed = _counted(left)
        if listed is None or not isinstance(right, A.Lit) or right.value.__class__ is not int:
            continue
        n = right.value
        if (op == ">" and n >= 0) or (op == ">=" and n >= 1) or (op == "!=" and n == 0):
            out.add(shape(listed))
    return out


def _reads(node: object) -> tuple[set[str], set[str]]:
    """(the primitives called, the names read and not bound inside) of an expression."""
    calls, names, bound = set(), set(), set()
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, A.Call):
            calls.add(n.name)
        elif isinstance(n, A.Var):
            names.add(n.name)
        elif isinstance(n, A.Comprehension):
            bound.add(n.name)
        if isinstance(n, (tuple, list)):
            todo.extend(n)
        elif isinstance(n, A.Node):
            todo.extend(getattr(n, f) for f in n.__dataclass_fields__ if f not in ("line", "col"))
    return calls, names - bound


def _list_argument(call: A.Call, at: int, param: str) -> object | None:
    positional = [a for a in call.args if a.name is None]
    if len(positional) > at:
        return positional[at].value
    return next((a.value for a in call.args if a.name == param), None)


def proven_choices(program: A.Program, cond: object, choices: dict[str, tuple[int, str]],
                   noting: frozenset[str], safe_calls: frozenset[str]) -> set[int]:
    """The `id`s of the Call nodes of `program` that are single choices (`noting`) proven to have an
    option when `cond` holds (see the module). `choices`: every choice primitive -> the position and
    name of its list parameter."""
    known = nonempty_lists(cond)
    if not known:
        return set()
    proven: set[int] = set()
    rebound: set[str] = set()
    for stmt in program.body:
        if isinstance(stmt, A.Let):
            value, name = stmt.value, stmt.name
        elif isinstance(stmt, A.Do):
            value, name = stmt.call, None
        else:
            break
        if isinstance(value, A.Call) and value.name in choices:
            if value.name in noting:
                listed = _list_argument(value, *choices[value.name])
                if listed is not None and shape(listed) in known:
                    calls, names = _reads(listed)
                    if calls <= safe_calls and names <= STABLE_NAMES and not names & rebound:
                        proven.add(id(value))
            calls, _ = _reads(value.args)
            if calls - safe_calls:
                break   # an argument that may do anything: what follows is not at the same state
        elif _reads(value)[0]:
            break       # a call that is not a choice may change the state
        if name is not None:
            rebound.add(name)
    return proven


__all__ = ["STABLE_NAMES", "nonempty_lists", "proven_choices", "shape"]
