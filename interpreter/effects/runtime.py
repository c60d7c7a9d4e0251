"""What compiled effects do while they run: field access, numbers within their limit, errors."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from ..limits import MAX_FORMULA_DEPTH, MAX_NUMBER


# A new effect context's scopes (engine/context.py), shared until it binds a name: the closures
# (closures.py) know by identity that nothing is bound.
NO_SCOPES: list[dict[str, Any]] = [{}]


class RuleError(Exception):
    """An effect failed while running (wrong type, missing value); names the content position."""


class LimitError(RuleError):
    """A budget of limits.py was exceeded by the engine (a roll, Power, Doom); the verb that caused it
    adds its position and ability on the way out (`located` then)."""

    located = False


class FormulaDepthError(RuleError):
    """Combat, cost or modifier formulas nested deeper than limits.MAX_FORMULA_DEPTH: a formula that
    reads itself, directly or through others. Each formula the error passes through on its way out
    adds its name (`through`), so the message names the cycle, innermost formula first."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.where = where
        self.chain: list[str] = []   # innermost first

    def through(self, name: str) -> None:
        if len(self.chain) <= 2 * MAX_FORMULA_DEPTH:
            self.chain.append(name)

    def __str__(self) -> str:
        names = self.chain or [self.where]
        turn = next((names[:p] for p in range(1, len(names) // 2 + 1) if names[:p] == names[p:2 * p]), names)
        cycle = turn[::-1] + [turn[-1]]
        return (f"{names[0]}: formulas nested more than {MAX_FORMULA_DEPTH} deep, a formula that reads itself "
                f"({' -> '.join(cycle)})")


def get_field(obj: Any, name: str, where: str, ctx: Any) -> Any:
    """`obj.name` on a game record (a dict); a computed field through the context; never an attribute."""
    if isinstance(obj, dict):
        if name in obj and not name.startswith("_"):
            if name == "kind" and getattr(ctx, "stand_in", None):
                return ctx.kind_field(obj[name])   # a lent ability's stand-in Great Old One
            return obj[name]
        getter = getattr(ctx, "record_field", None)
        if getter is not None:
            found, value = getter(obj, name)
            if found:
                return value
        raise RuleError(f"{where}: no field '{name}' here")
    raise RuleError(f"{where}: '.{name}' needs a record, got {type(obj).__name__}")


def number(v: Any, where: str) -> Any:
    """`v` when it is a number (not a bool), else a RuleError at `where`."""
    if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
        raise RuleError(f"{where}: expected a number, got {v!r}")
    return v


COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def bounded(v: Any, where: str) -> Any:
    """A number within the limit for numbers (content is untrusted: no unbounded growth)."""
    if abs(v) > MAX_NUMBER:
        raise RuleError(f"{where}: the result {'-' if v < 0 else ''}{'a huge number' if abs(v) > 10**12 else abs(v)} "
                        f"is beyond the limit for numbers ({MAX_NUMBER})")
    return v


def arith(op: str, a: Any, b: Any, where: str) -> Any:
    a, b = number(a, where), number(b, where)
    if op == "+":
        return bounded(a + b, where)
    if op == "-":
        return bounded(a - b, where)
    if op == "*":
        return bounded(a * b, where)
    if b == 0:
        raise RuleError(f"{where}: division by zero")
    if op == "/":
        r = Fraction(a) / Fraction(b)
        return bounded(int(r) if r.denominator == 1 else r, where)
    return a % b


def ticker(ctx: Any) -> Callable[[str], None]:
    """The context's step counter (every loop and comprehension iteration spends one step)."""
    tick = getattr(ctx, "tick", None)
    return tick if tick is not None else (lambda where: None)


def spend_for(ctx: Any, result: Any, where: str) -> None:
    """A query's cost in evaluation steps: one, and one more per item of the list it returns (the
    units, areas or players it visited), spent from the context's budget (MAX_STEPS)."""
    spend = getattr(ctx, "spend", None)
    if spend is not None:
        spend(len(result) + 1 if type(result) is list else 1, where)




# ---- primitives that wait ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Suspend:
    """What a verb or choice returns when it must wait: for `step` (the engine's Ask: a player's
    answer, or Call: a procedure's result). `then` names the resume function (see `resumer`) that
    turns that value and `data` into the primitive's result, or another Suspend; `data` must be
    data (plain values, lists, dicts, units: the engine keeps it in the state while it waits).
    `then=None`: the result is None."""

    step: Any
    then: str | None = None
    data: Any = None


RESUMES: dict[str, Callable[[Any, Any, Any], Any]] = {"value": lambda ctx, data, value: value}


def resumer(name: str) -> Callable[[Callable[[Any, Any, Any], Any]], Callable[[Any, Any, Any], Any]]:
    """Register `fn(ctx, data, value)` as the resume function `name` of a waiting primitive."""
    def deco(fn: Callable[[Any, Any, Any], Any]) -> Callable[[Any, Any, Any], Any]:
        if name in RESUMES:
            raise ValueError(f"resume function '{name}' registered twice")
        RESUMES[name] = fn
        return fn
    return deco


def resume_with(then: str | None, ctx: Any, data: Any, value: Any) -> Any:
    """The result of a waiting primitive, given what it waited for."""
    return None if then is None else RESUMES[then](ctx, data, value)
