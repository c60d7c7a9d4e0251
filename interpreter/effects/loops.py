"""Closures the compiler (compiler.py) builds for comprehensions: a comprehension's evaluation, its
loop variable and fields read off the scope on top, the query calls and field reads hoisted to it,
and a count that stops where its comparison is decided. Each behaves exactly as the generic form
it replaces (split from closures.py, the other shapes)."""
from __future__ import annotations

from typing import Any, Callable

from ..limits import MAX_FOR_ITEMS
from .runtime import RuleError, get_field, ticker

Ev = Callable[[Any], Any]
_MISSING = object()
_UNSET = object()


def invariant_of(ev: Ev, memo: list[Any], slot: int, where: str) -> Ev:
    """A query call (`ev`, at `where`) inside a comprehension whose arguments read none of the
    names the comprehension binds (ast.plain_call_reads): the enclosing comprehension's evaluation
    puts a fresh list in `memo[0]`; the first evaluation of the call in it is `ev`'s, later ones
    give the same value (queries are pure while an expression is evaluated) and spend the same
    evaluation steps `ev` spends (its plain arguments spend none), so the budget (MAX_STEPS) runs
    out where it did. Evaluated lazily: a call never reached is never made, and an error comes
    where it came. Outside such an evaluation (memo[0] None) simply `ev`."""
    def invariant(ctx: Any) -> Any:
        values = memo[0]
        if values is None:
            return ev(ctx)
        got = values[slot]
        if got is _UNSET:
            got = values[slot] = ev(ctx)
            return got
        spend = getattr(type(ctx), "spend", None)
        if spend is not None:
            spend(ctx, len(got) + 1 if type(got) is list else 1, where)
        return got
    return invariant


def invariant_read_of(ev: Ev, memo: list[Any], slot: int) -> Ev:
    """A field read (`ev`: `self.loc`) inside a comprehension whose record reads none of the names
    the comprehension binds: `invariant_of` for a value that spends no evaluation step (the same
    at every item). Read lazily: the first read is `ev`'s, with its error where it came."""
    def invariant_read(ctx: Any) -> Any:
        values = memo[0]
        if values is None:
            return ev(ctx)
        got = values[slot]
        if got is _UNSET:
            got = values[slot] = ev(ctx)
        return got
    return invariant_read


def fresh_memo(size: int) -> list[Any]:
    """The values of `size` hoisted calls (`invariant_of`) for one evaluation of a comprehension."""
    return [_UNSET] * size


def loop_var_of(name: str) -> Ev:
    """The name the innermost comprehension around it binds, read where no scope but that
    comprehension's can be on top (its item and condition, outside any comprehension inside them,
    and the lists those iterate): its own scope, the one `ctx.lookup` would find it in first."""
    def loop_var(ctx: Any) -> Any:
        return ctx.scopes[-1][name]
    return loop_var


def loop_field_of(name: str, field: str, where: str) -> Ev:
    """`x.field` for `x` as `loop_var_of` reads it: `field_of` over it in one closure."""
    if field.startswith("_") or field == "kind":
        return lambda ctx: get_field(ctx.scopes[-1][name], field, where, ctx)

    def loop_field(ctx: Any) -> Any:
        o = ctx.scopes[-1][name]
        if type(o) is dict:   # (as in `field_of`)
            v = dict.get(o, field, _MISSING)
            if v is not _MISSING:
                return v
        return get_field(o, field, where, ctx)
    return loop_field


def comprehension_of(source: Ev, name: str, item: Ev, cond: Ev | None, memo: list[Any], size: int, where: str) -> Ev:
    """`[item for name in source if cond]` (at `where`), with a fresh cell for the `size` query
    calls hoisted to it (`invariant_of`) at each evaluation."""
    def comprehension(ctx: Any) -> list[Any]:
        items = _loop_items(source(ctx), name, where)
        out = []
        tick = ticker(ctx)
        if size:
            saved, memo[0] = memo[0], fresh_memo(size)
        ctx.push_scope()
        scope = ctx.scopes[-1]   # the loop's own scope, where `ctx.bind` would bind its name (`loop_var_of` reads it)
        try:
            for x in items:
                tick(where)
                scope[name] = x
                if cond is None or cond(ctx):
                    out.append(item(ctx))
        finally:
            ctx.pop_scope()
            if size:
                memo[0] = saved
        return out
    return comprehension


def _loop_items(items: Any, name: str, where: str) -> list[Any]:
    """The list a comprehension runs over, refused when it is none or too long."""
    if not isinstance(items, list):
        raise RuleError(f"{where}: '[... for {name} in ...]' needs a list, got {type(items).__name__}")
    if len(items) > MAX_FOR_ITEMS:
        raise RuleError(f"{where}: a list of {len(items)} items exceeds {MAX_FOR_ITEMS}")
    return items


def count_upto_of(source: Ev, name: str, cond: Ev | None, cap: int, where: str, call: str) -> Ev:
    """`count([item for name in source if cond])` (the comprehension at `where`, the call at
    `call`) where the item and the condition are quiet (static.quiet_in_loop: no step spent, no
    failure possible), counted only up to `cap`: compared with a whole number n, every count from
    `cap` on compares alike (n + 1 on, or n on for `>=` and `<`). The items past the one that reaches `cap` are not
    visited, and each spends the one evaluation step its loop iteration would have spent, at once;
    the count's own step as the call spends it. The same value compared, the same errors, the same
    steps spent as the list counted whole, without the list."""
    def count_upto(ctx: Any) -> int:
        try:
            items = _loop_items(source(ctx), name, where)
            tick = getattr(ctx, "tick", None)
            n = visited = 0
            ctx.push_scope()
            scope = ctx.scopes[-1]   # (as in `comprehension_of`)
            try:
                for x in items:
                    if n >= cap:
                        break
                    visited += 1
                    if tick is not None:
                        tick(where)
                    scope[name] = x
                    if cond is None or cond(ctx):
                        n += 1
            finally:
                ctx.pop_scope()
        except RuleError:
            raise
        except (TypeError, ValueError, KeyError) as exc:
            raise RuleError(f"{call}: count: {exc}") from None
        spend = getattr(ctx, "spend", None)
        if tick is not None and visited < len(items):   # the steps of the iterations not made
            if spend is not None:
                spend(len(items) - visited, where)
            else:
                for _ in range(len(items) - visited):
                    tick(where)
        if spend is not None:
            spend(1, call)
        return n
    return count_upto
