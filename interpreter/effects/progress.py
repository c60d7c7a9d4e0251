"""How far a condition is from holding: a *distance* read from its compiled expression, for bots
that reach for an unmet requirement step by step (engine/seeking.py). 0 when the condition holds.

Read from the syntax tree alone, whatever the content:
- a comparison of a number with a literal whole number (`count(areas(with_units_of: me)) >= 8`,
  `... == 0`, `3 < x`) is as far as the number is from the nearest value that passes: `x >= k`
  gives max(0, k - x), `x == k` gives |x - k|, `x != k` gives 1 or 0;
- `a and b` is the sum of the parts' distances (each must be closed), `a or b` the least;
- anything else (`not`, a call, a comparison of two expressions) is 0 when it holds, else 1;
  so is a comparison whose side turns out not to be a number when evaluated.

    >>> from .parser import parse
    >>> tree = parse("count(xs) >= 4 or flag", start="expr_start")
    >>> gap = distance_of(tree, lambda node: (lambda ctx: ctx[repr(node)[:3]]))
    >>> isinstance(gap, Least) and len(gap.parts) == 2
    True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import ast as A

__all__ = ["Distance", "Gap", "Holds", "Sum", "Least", "distance_of", "MAX_DISTANCE"]

MAX_DISTANCE = 1000   # a distance is capped here: content numbers are untrusted
_FLIP = {">=": "<=", ">": "<", "<=": ">=", "<": ">", "==": "==", "!=": "!="}


@dataclass(frozen=True)
class Holds:
    """0 when the compiled expression `test` holds, else 1."""

    test: Callable[[Any], Any]

    def __call__(self, ctx: Any) -> int:
        return 0 if self.test(ctx) else 1


@dataclass(frozen=True)
class Gap:
    """How far `value` (compiled) is from passing `value OP threshold`; `whole`: the comparison
    itself, read as a yes or no when `value` is no whole number."""

    value: Callable[[Any], Any]
    op: str
    threshold: int
    whole: Callable[[Any], Any]

    def __call__(self, ctx: Any) -> int:
        x = self.value(ctx)
        if isinstance(x, list):
            x = len(x)
        if not isinstance(x, int) or isinstance(x, bool):
            return 0 if self.whole(ctx) else 1
        k, op = self.threshold, self.op
        if op == ">=":
            d = k - x
        elif op == ">":
            d = k + 1 - x
        elif op == "<=":
            d = x - k
        elif op == "<":
            d = x - k + 1
        elif op == "==":
            d = abs(x - k)
        else:
            d = 1 if x == k else 0
        return min(max(d, 0), MAX_DISTANCE)


@dataclass(frozen=True)
class Sum:
    """`and`: every part must close, so their distances add up."""

    parts: tuple["Distance", ...]

    def __call__(self, ctx: Any) -> int:
        return min(sum(p(ctx) for p in self.parts), MAX_DISTANCE)


@dataclass(frozen=True)
class Least:
    """`or`: the nearest part."""

    parts: tuple["Distance", ...]

    def __call__(self, ctx: Any) -> int:
        return min(p(ctx) for p in self.parts)


Distance = Holds | Gap | Sum | Least


def _chain(node: A.Expr, op: str) -> list[A.Expr]:
    if isinstance(node, A.Binary) and node.op == op:
        return _chain(node.left, op) + _chain(node.right, op)
    return [node]


def distance_of(node: A.Expr, compile_expr: Callable[[A.Expr], Callable[[Any], Any]]) -> Distance:
    """The distance of condition `node` (see the module), its parts compiled by `compile_expr`
    (an expression node -> a function of the rules context, as the condition itself is compiled)."""
    if isinstance(node, A.Binary) and node.op in ("and", "or"):
        parts = tuple(distance_of(p, compile_expr) for p in _chain(node, node.op))
        return Sum(parts) if node.op == "and" else Least(parts)
    if isinstance(node, A.Binary) and node.op in _FLIP:
        literal = _whole(node.right), _whole(node.left)
        if literal[0] is not None and literal[1] is None:
            return Gap(compile_expr(node.left), node.op, literal[0], compile_expr(node))
        if literal[1] is not None and literal[0] is None:
            return Gap(compile_expr(node.right), _FLIP[node.op], literal[1], compile_expr(node))
    return Holds(compile_expr(node))


def _whole(node: A.Expr) -> int | None:
    """The value of a literal whole number (a minus sign allowed), else None."""
    if isinstance(node, A.Unary) and node.op == "-":
        inner = _whole(node.operand)
        return None if inner is None else -inner
    if isinstance(node, A.Lit) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return max(-MAX_DISTANCE, min(node.value, MAX_DISTANCE))
    return None
