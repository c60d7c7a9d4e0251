"""Syntax tree of the effect language: frozen nodes that remember their (line, col) in the text."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Node:
    line: int
    col: int


# ---- expressions ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Lit(Node):
    value: object


@dataclass(frozen=True)
class Var(Node):
    name: str


@dataclass(frozen=True)
class Field(Node):
    obj: "Expr"
    name: str


@dataclass(frozen=True)
class Index(Node):
    obj: "Expr"
    index: "Expr"


@dataclass(frozen=True)
class ListLit(Node):
    items: tuple["Expr", ...]


@dataclass(frozen=True)
class Comprehension(Node):
    item: "Expr"
    name: str
    source: "Expr"
    cond: "Expr | None"


@dataclass(frozen=True)
class Unary(Node):
    op: str
    operand: "Expr"


@dataclass(frozen=True)
class Binary(Node):
    op: str
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Arg(Node):
    name: str | None
    value: "Expr"


@dataclass(frozen=True)
class Call(Node):
    name: str
    args: tuple[Arg, ...]


Expr = Lit | Var | Field | Index | ListLit | Comprehension | Unary | Binary | Call


# ---- statements ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class If(Node):
    branches: tuple[tuple[Expr, "Program"], ...]
    orelse: "Program | None"


@dataclass(frozen=True)
class For(Node):
    name: str
    iterable: Expr
    body: "Program"


@dataclass(frozen=True)
class Option(Node):
    label: str
    when: Expr | None
    body: "Program"


@dataclass(frozen=True)
class Choose(Node):
    chooser: Expr
    options: tuple[Option, ...]


@dataclass(frozen=True)
class Do(Node):
    call: Call


@dataclass(frozen=True)
class Nothing(Node):
    pass


Stmt = Let | If | For | Choose | Do | Nothing


@dataclass(frozen=True)
class Program(Node):
    body: tuple[Stmt, ...]


def call_names(node: object) -> frozenset[str]:
    """The names of every primitive called anywhere in a tree (a program, an expression)."""
    out: set[str] = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, Call):
            out.add(n.name)
        if isinstance(n, (tuple, list)):
            todo.extend(n)
        elif isinstance(n, Node):
            todo.extend(getattr(n, f) for f in n.__dataclass_fields__ if f not in ("line", "col"))
    return frozenset(out)


def _nodes(node: object) -> list[object]:
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        out.append(n)
        if isinstance(n, (tuple, list)):
            todo.extend(n)
        elif isinstance(n, Node):
            todo.extend(getattr(n, f) for f in n.__dataclass_fields__ if f not in ("line", "col"))
    return out


def argument(call: Call, at: int, param: str) -> Expr | None:
    """The value passed to a call's parameter: positional number `at`, or named `param`."""
    positional = [a for a in call.args if a.name is None]
    if len(positional) > at:
        return positional[at].value
    return next((a.value for a in call.args if a.name == param), None)


def conjuncts(node: object) -> list[object]:
    """The operands of a chain of `and`, in the order they are evaluated (the node itself if it is
    no `and`)."""
    if isinstance(node, Binary) and node.op == "and":
        return conjuncts(node.left) + conjuncts(node.right)
    return [node]


PROVEN = "$condition"   # argument_names' name for a list the text proves not empty (or an optional choice)
# ... proves not empty provided that removing a unit sets off nothing that moves units
PAST_REMOVALS = "$condition-past-removals"
# ... decided by evaluating its list when the action is listed (effects/listed_choices.py)
LISTED = "$listed"


def argument_names(node: object, which: dict[str, tuple[int, str]],
                   proven: frozenset[int] | set[int] = frozenset(),
                   past_removals: frozenset[int] | set[int] = frozenset(),
                   listed: frozenset[int] | set[int] = frozenset()) -> frozenset[tuple[str, str | None]]:
    """For every call of a function in `which` (name -> the position and name of one parameter):
    (function, the name of the variable passed for that parameter), the name None when the argument
    is not a plain name, is missing, or is a name the tree binds itself (let, for, comprehension);
    PROVEN for a call whose `id` is in `proven`, PAST_REMOVALS for one in `past_removals`
    (effects/guarded_choices.py), LISTED for one in `listed` (effects/listed_choices.py)."""
    nodes = _nodes(node)
    bound = {n.name for n in nodes if isinstance(n, (Let, For, Comprehension))}
    out: set[tuple[str, str | None]] = set()
    for n in nodes:
        if not isinstance(n, Call) or n.name not in which:
            continue
        if id(n) in proven:
            out.add((n.name, PROVEN))
            continue
        if id(n) in past_removals:
            out.add((n.name, PAST_REMOVALS))
            continue
        if id(n) in listed:
            out.add((n.name, LISTED))
            continue
        value = argument(n, *which[n.name])
        var = value.name if isinstance(value, Var) else None
        out.add((n.name, var if var not in bound else None))
    return frozenset(out)


_EXPRESSION_NODES = (Lit, Var, Field, Index, ListLit, Comprehension, Unary, Binary, Arg, Call)


def expression_inputs(node: object) -> tuple[frozenset[str], frozenset[str], frozenset[str]] | None:
    """What an expression reads from outside itself: (the primitives it calls, the names it does
    not bind, the fields it reads); None when the tree holds anything but expression nodes."""
    nodes = _nodes(node)
    if any(isinstance(n, Node) and not isinstance(n, _EXPRESSION_NODES) for n in nodes):
        return None
    bound = {n.name for n in nodes if isinstance(n, Comprehension)}
    return (frozenset(n.name for n in nodes if isinstance(n, Call)),
            frozenset(n.name for n in nodes if isinstance(n, Var) and n.name not in bound),
            frozenset(n.name for n in nodes if isinstance(n, Field)))


UNNAMED = "#"   # a positional argument beyond a call's known parameter names is named "#0", "#1", ...


def unnamed(position: int) -> str:
    """The name given to the positional argument at `position` when the call's parameter names
    do not reach it (`call_arguments`, `literal_arguments`)."""
    return f"{UNNAMED}{position}"


def is_unnamed(param: str) -> bool:
    """Whether `param` is such a name (see `unnamed`): the parameter it stands for is not known."""
    return param[:1] == UNNAMED


def call_arguments(node: object, params: dict[str, list[str]]) -> frozenset[tuple[str, frozenset[tuple[str, str]]]]:
    """Every call in an expression as (name, {(parameter, what is passed)}), what is passed being
    "me" (the name `me`, not rebound inside), "literal" or "other"; positional arguments are named
    through `params` (a call's parameter names in order)."""
    nodes = _nodes(node)
    me_bound = any(isinstance(n, Comprehension) and n.name == "me" for n in nodes)
    out = set()
    for n in nodes:
        if not isinstance(n, Call):
            continue
        names = params.get(n.name, [])
        args = []
        for i, a in enumerate(x for x in n.args if x.name is None):
            args.append((names[i] if i < len(names) else unnamed(i), a.value))
        args.extend((a.name, a.value) for a in n.args if a.name is not None)
        out.add((n.name, frozenset(
            (k, "me" if isinstance(v, Var) and v.name == "me" and not me_bound
             else "literal" if isinstance(v, Lit) else "other") for k, v in args)))
    return frozenset(out)


def literal_arguments(node: object, params: dict[str, list[str]]) -> frozenset[tuple[str, str, object]]:
    """Every literal passed to a call anywhere in a tree, as (call, parameter, value): a text or
    number, or each item of a list literal of them (`pool(me, class: ['monster', 'cultist'])` gives
    ('pool', 'class', 'monster') and ('pool', 'class', 'cultist')); positional arguments are named
    through `params` (a call's parameter names in order). What an effect writes and a condition
    reads, for a bot that links the two (engine/seeking.py)."""
    out: set[tuple[str, str, object]] = set()
    for n in _nodes(node):
        if not isinstance(n, Call):
            continue
        names = params.get(n.name, [])
        positional = [a for a in n.args if a.name is None]
        named = [(names[i] if i < len(names) else unnamed(i), a.value) for i, a in enumerate(positional)]
        named.extend((a.name, a.value) for a in n.args if a.name is not None)
        for k, v in named:
            items = v.items if isinstance(v, ListLit) else (v,)
            for item in items:
                if isinstance(item, Lit) and isinstance(item.value, (str, int)) and not isinstance(item.value, bool):
                    out.add((n.name, k, item.value))
    return frozenset(out)



def plain_call_reads(call: Call) -> frozenset[str] | None:
    """The names a call's arguments read when they hold no call and no comprehension (literals,
    names, fields, indexes, lists and operators of those): such a query call costs only its own
    evaluation steps, and gives the same value wherever those names hold the same values
    (compiler.py hoists it out of a comprehension's loop). None for any other argument."""
    return plain_reads([a.value for a in call.args])


def plain_reads(nodes: "list[object]") -> frozenset[str] | None:
    """The names expressions `nodes` read when they hold no call and no comprehension (as
    `plain_call_reads` of a call's arguments), else None."""
    out: set[str] = set()
    todo = list(nodes)
    while todo:
        n = todo.pop()
        if isinstance(n, Var):
            out.add(n.name)
        elif isinstance(n, (Call, Comprehension)):
            return None
        elif isinstance(n, ListLit):
            todo.extend(n.items)
        elif isinstance(n, (Field, Index, Unary, Binary)):
            todo.extend(getattr(n, f) for f in n.__dataclass_fields__ if f not in ("line", "col", "op", "name"))
        elif not isinstance(n, Lit):
            return None
    return frozenset(out)
