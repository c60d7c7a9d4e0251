"""Closures the compiler (compiler.py) builds for the commonest expression shapes, specialised when
an expression is compiled (its name, field or argument list known) so that evaluating it makes
fewer generic calls. Each behaves exactly as the generic form it replaces."""
from __future__ import annotations

import inspect
from typing import Any, Callable

from ..limits import MAX_FOR_ITEMS
from .registry import param_name
from .runtime import COMPARE, NO_SCOPES, RuleError, arith, get_field, number, ticker

Ev = Callable[[Any], Any]


# names a context holds as attributes of the same name (engine/context.py), read directly when no
# let/for binding hides them; None, for those of _UNSET_IF_NONE, goes through lookup for its error
_ATTRS = frozenset({"me", "subject", "value", "event", "area"})
_UNSET_IF_NONE = frozenset({"me", "event", "area"})
_MISSING = object()


def constant(value: Any) -> Ev:
    """An expression that is a plain value (a YAML number where an expression may stand); `.const`
    holds it (a reader may skip making a context). Made here, compiled in the compiled core."""
    def const(ctx: Any) -> Any:
        return value
    const.const = value   # type: ignore[attr-defined]
    return const


def var_of(name: str, where: str) -> Ev:
    """A name: the innermost let/for binding, else what the context binds (me, subject, ...)."""
    if name in _ATTRS:
        unset_if_none = name in _UNSET_IF_NONE

        def attr(ctx: Any) -> Any:
            scopes = ctx.scopes   # (a new context's: nothing bound, known by identity)
            if scopes is NO_SCOPES or (len(scopes) == 1 and name not in scopes[0]):
                v = getattr(ctx, name, _MISSING)
                if v is not _MISSING and (v is not None or not unset_if_none):
                    return v
            return ctx.lookup(name, where)
        attr.ctx_name = (name, where, unset_if_none)   # type: ignore[attr-defined]  (field_of reads it)
        return attr

    def var(ctx: Any) -> Any:
        scopes = ctx.scopes
        if len(scopes) == 1:
            scope = scopes[0]
            if name in scope:
                return scope[name]
        return ctx.lookup(name, where)
    return var


def field_of(obj: Ev, name: str, where: str) -> Ev:
    """`obj.name`: a plain record key directly, anything else (computed fields, a lent ability's
    kind, errors) through `get_field`."""
    if name.startswith("_") or name == "kind":
        return lambda ctx: get_field(obj(ctx), name, where, ctx)
    bound = getattr(obj, "ctx_name", None)
    if bound is not None:   # `subject.area`: the name read as `var_of`'s `attr` reads it, in one closure
        var, var_where, unset_if_none = bound

        def bound_field(ctx: Any) -> Any:
            scopes = ctx.scopes
            o = getattr(ctx, var, _MISSING) if scopes is NO_SCOPES or (len(scopes) == 1 and var not in scopes[0]) else _MISSING
            if o is _MISSING or (o is None and unset_if_none):
                o = ctx.lookup(var, var_where)
            if type(o) is dict:
                v = dict.get(o, name, _MISSING)
                if v is not _MISSING:
                    return v
            return get_field(o, name, where, ctx)
        return bound_field

    def field(ctx: Any) -> Any:
        o = obj(ctx)
        if type(o) is dict:   # (dict.get: one lookup, a C call in the compiled core)
            v = dict.get(o, name, _MISSING)
            if v is not _MISSING:
                return v
        return get_field(o, name, where, ctx)
    return field


def binary_of(op: str, left: Ev, right: Ev, where: str) -> Ev:
    """A binary operator over two compiled operands (`where`: the source position, for errors)."""
    if op == "and":
        return all_of([*getattr(left, "conjuncts", (left,)), right])
    if op == "or":
        return any_of([*getattr(left, "disjuncts", (left,)), right])
    if op in ("in", "not in"):
        neg = op == "not in"

        def contains(ctx: Any) -> bool:
            coll = right(ctx)
            if not isinstance(coll, (list, tuple, set, frozenset)):
                raise RuleError(f"{where}: 'in' needs a list on its right")
            return (left(ctx) in coll) != neg
        return contains
    c = getattr(right, "const", _MISSING)   # a literal on the right: no closure call for it
    if op == "==":
        return (lambda ctx: left(ctx) == right(ctx)) if c is _MISSING else (lambda ctx: left(ctx) == c)
    if op == "!=":
        return (lambda ctx: left(ctx) != right(ctx)) if c is _MISSING else (lambda ctx: left(ctx) != c)
    if op in COMPARE:
        b = getattr(right, "const", _MISSING)
        fast = compare_const(op, left, b, where) if type(b) is int else None
        if fast is not None:
            return fast
        cmp = COMPARE[op]

        def compare(ctx: Any) -> bool:
            a, b = left(ctx), right(ctx)
            if type(a) is not int or type(b) is not int:   # (ints: the common case)
                number(a, where), number(b, where)
            return cmp(a, b)
        return compare
    return lambda ctx: arith(op, left(ctx), right(ctx), where)


def all_of(parts: list[Ev]) -> Ev:
    """`a and b and c ...` (`and` groups to the left: `(a and b) and c`): one closure over every
    conjunct, each evaluated in turn until one is false, instead of one closure per `and`. True or
    False, as `bool(left) and bool(right)` at each level gives."""
    if len(parts) == 2:
        a, b = parts

        def both(ctx: Any) -> bool:
            return bool(a(ctx)) and bool(b(ctx))
        both.conjuncts = parts   # type: ignore[attr-defined]
        return both

    def every(ctx: Any) -> bool:
        for f in parts:
            if not f(ctx):
                return False
        return True
    every.conjuncts = parts   # type: ignore[attr-defined]
    return every


def any_of(parts: list[Ev]) -> Ev:
    """`a or b or c ...`, as `all_of` is `and`: the first true one gives True, else False."""
    if len(parts) == 2:
        a, b = parts

        def either(ctx: Any) -> bool:
            return bool(a(ctx)) or bool(b(ctx))
        either.disjuncts = parts   # type: ignore[attr-defined]
        return either

    def some(ctx: Any) -> bool:
        for f in parts:
            if f(ctx):
                return True
        return False
    some.disjuncts = parts   # type: ignore[attr-defined]
    return some


def args_of(defaults: dict[str, Any], bound: list[tuple[str, Ev]]) -> Callable[[Any], dict[str, Any]]:
    """A primitive's arguments: its defaults, overridden by the compiled arguments `bound`."""
    if not bound:
        return lambda ctx: dict(defaults)
    if len(bound) == 1:
        (one, f1), = bound

        def one_arg(ctx: Any) -> dict[str, Any]:
            out = dict(defaults)
            out[one] = f1(ctx)
            return out
        return one_arg

    def args(ctx: Any) -> dict[str, Any]:
        out = dict(defaults)
        for name, f in bound:
            out[name] = f(ctx)
        return out
    return args


def compare_const(op: str, left: Ev, b: int, where: str) -> Ev | None:
    """`left OP b` for an order comparison with a whole-number literal on the right (`count(...) > 0`):
    `binary_of`'s `compare` with the literal's closure call and its number check (a no-op for an int)
    left out and the operator inline. None for any other operator."""
    if op == ">":
        def gt(ctx: Any) -> bool:
            a = left(ctx)
            if type(a) is not int:
                number(a, where)
            return a > b
        return gt
    if op == ">=":
        def ge(ctx: Any) -> bool:
            a = left(ctx)
            if type(a) is not int:
                number(a, where)
            return a >= b
        return ge
    if op == "<":
        def lt(ctx: Any) -> bool:
            a = left(ctx)
            if type(a) is not int:
                number(a, where)
            return a < b
        return lt
    if op == "<=":
        def le(ctx: Any) -> bool:
            a = left(ctx)
            if type(a) is not int:
                number(a, where)
            return a <= b
        return le
    return None


def by_position(fn: Callable[..., Any], names: list[str]) -> bool:
    """Whether `fn(ctx, ...)` takes exactly `names`, in that order, as plain parameters (a Python
    keyword, `class`, as `class_`), so that a call may pass them by position; False when its
    signature cannot be read."""
    try:
        params = list(inspect.signature(fn).parameters.values())[1:]
    except (TypeError, ValueError):
        return False
    return len(params) == len(names) and all(p.name == param_name(n)
                                             and p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p, n in zip(params, names))


def query_of(fn: Callable[..., Any], name: str, where: str, template: list[Any],
             slots: list[tuple[int, Ev]]) -> Ev:
    """A query's call by position (`by_position(fn, ...)` holds): `template` holds every parameter's
    default in order, `slots` (position, compiled argument) the arguments given, evaluated in that
    order. It does what the keyword call of compiler.py's `_query_call` does (the same values
    passed, the same errors, the same evaluation steps spent) without a dict of arguments; with
    every parameter given in order (most calls), without a list either. `spend` is read off the
    context's type (a context's methods are its class's), so no bound method is made per call."""
    n = len(template)
    if [i for i, _ in slots] == list(range(n)) and 1 <= n <= 3:
        fs = [f for _, f in slots]
        if n == 1:
            f1, = fs

            def q1(ctx: Any) -> Any:
                try:
                    result = fn(ctx, f1(ctx))
                except RuleError:
                    raise
                except (TypeError, ValueError, KeyError) as exc:
                    raise RuleError(f"{where}: {name}: {exc}") from None
                spend = getattr(type(ctx), "spend", None)
                if spend is not None:
                    spend(ctx, len(result) + 1 if type(result) is list else 1, where)
                return result
            return q1
        if n == 2:
            f1, f2 = fs

            def q2(ctx: Any) -> Any:
                try:
                    result = fn(ctx, f1(ctx), f2(ctx))
                except RuleError:
                    raise
                except (TypeError, ValueError, KeyError) as exc:
                    raise RuleError(f"{where}: {name}: {exc}") from None
                spend = getattr(type(ctx), "spend", None)
                if spend is not None:
                    spend(ctx, len(result) + 1 if type(result) is list else 1, where)
                return result
            return q2
        f1, f2, f3 = fs

        def q3(ctx: Any) -> Any:
            try:
                result = fn(ctx, f1(ctx), f2(ctx), f3(ctx))
            except RuleError:
                raise
            except (TypeError, ValueError, KeyError) as exc:
                raise RuleError(f"{where}: {name}: {exc}") from None
            spend = getattr(type(ctx), "spend", None)
            if spend is not None:
                spend(ctx, len(result) + 1 if type(result) is list else 1, where)
            return result
        return q3

    def query(ctx: Any) -> Any:
        try:
            values = list(template)
            for i, f in slots:
                values[i] = f(ctx)
            result = fn(ctx, *values)
        except RuleError:
            raise
        except (TypeError, ValueError, KeyError) as exc:
            raise RuleError(f"{where}: {name}: {exc}") from None
        spend = getattr(type(ctx), "spend", None)
        if spend is not None:
            spend(ctx, len(result) + 1 if type(result) is list else 1, where)
        return result
    return query


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
