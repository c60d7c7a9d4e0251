"""What the compiler knows of a value before the game runs: static types, and the bounds of arguments."""
from __future__ import annotations

from ..limits import MAX_COUNT, MAX_NUMBER
from . import ast as A
from .registry import ID_TYPES, Primitive
from .signatures import REGISTRY

COUNT_PARAMS = frozenset({"count", "most", "least"})  # how many times a verb acts: bounded by MAX_COUNT


def arg_limits(prim: Primitive) -> list[tuple[str, int]]:
    """The numeric arguments of a verb or choice and their bounds (counts are smaller than numbers)."""
    if prim.variadic:
        return []
    return [(p.name, MAX_COUNT if p.name in COUNT_PARAMS else MAX_NUMBER)
            for p in prim.params if p.type in ("int", "num")]


LISTS = {"list", "units", "areas", "players", "kinds", "abilities"}
NUMS = {"int", "num"}
TYPE_WORDS = {"int": "a whole number", "num": "a number", "str": "text", "bool": "true or false",
               "list": "a list", "units": "a list of units", "areas": "a list of areas", "players": "a list of players",
               "unit": "a unit", "player": "a player", "none": "none", "field": "a field name"}


def mismatch(want: str, got: str) -> str | None:
    """The type-error message for a value of static type `got` where `want` is declared (None: it fits)."""
    if compatible(want, got):
        return None
    return f"expected {TYPE_WORDS.get(want, want)}, got {TYPE_WORDS.get(got, got)}"


def static_type(node: A.Expr) -> str:
    """What an expression is known to produce before the game runs ('any' when unknown)."""
    if isinstance(node, A.Lit):
        v = node.value
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, int):
            return "int"
        return "str"
    if isinstance(node, (A.ListLit, A.Comprehension)):
        return "list"
    if isinstance(node, A.Unary):
        return "bool" if node.op == "not" else "num"
    if isinstance(node, A.Binary):
        if node.op in ("and", "or", "in", "not in", "==", "!=", "<", "<=", ">", ">="):
            return "bool"
        return "num"
    if isinstance(node, A.Call):
        prim = REGISTRY.get(node.name)
        return prim.returns if prim is not None else "any"
    return "any"


def unit_items(name: str, source: A.Expr) -> list[str]:
    """A loop over a list of units binds its variable to a unit: [name] when so, else []."""
    return [name] if static_type(source) == "units" else []


def compatible(want: str, got: str) -> bool:
    """Whether a value of static type `got` may be passed where `want` is declared."""
    if want == "any" or got in ("any", "none") or want == got:
        return True
    if want in NUMS:
        return got in NUMS
    if want == "kinds":
        return got == "str" or got in LISTS
    if want in LISTS:
        return got in LISTS
    if want == "bool":
        return got == "bool"
    if want == "field":
        return got == "str"
    if want == "str" or want in ID_TYPES:
        return got == "str" or (want in ("kind", "class", "area", "result") and got in LISTS)
    if want == "player":
        return got in ("player", "str")
    if want in ("unit", "record"):
        return got not in NUMS | {"bool", "str"} | LISTS
    return True


# the fields every unit record holds as data (no computed field, no stand-in's kind)
_UNIT_DATA = frozenset({"loc", "owner", "id"})


def quiet_in_loop(node: A.Comprehension, loops: list[str], units: frozenset[str] | set[str]) -> bool:
    """Whether the item and condition of comprehension `node` are quiet: evaluating them spends no
    evaluation step and cannot fail, whatever the loop binds. They are made of literals, the names
    the comprehensions around them bind (`loops`, its own included: always bound there), the data
    fields every unit holds (`loc`, `owner`, `id`) of such a name known to hold a unit (`units`),
    and `==`, `!=`, `and`, `or`, `not` of those (loops.count_upto_of may skip them)."""
    bound = frozenset(loops)

    def quiet(n: A.Expr | None) -> bool:
        if n is None or isinstance(n, A.Lit):
            return True
        if isinstance(n, A.Var):
            return n.name in bound
        if isinstance(n, A.Field):
            return isinstance(n.obj, A.Var) and n.obj.name in bound and n.obj.name in units and n.name in _UNIT_DATA
        if isinstance(n, A.Unary):
            return n.op == "not" and quiet(n.operand)
        if isinstance(n, A.Binary):
            return n.op in ("==", "!=", "and", "or") and quiet(n.left) and quiet(n.right)
        return False
    return quiet(node.item) and quiet(node.cond)
