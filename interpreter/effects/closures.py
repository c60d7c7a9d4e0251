"""Closures the compiler (compiler.py) builds for the commonest expression shapes, specialised when
an expression is compiled (its name, field or argument list known) so that evaluating it makes
fewer generic calls. Each behaves exactly as the generic form it replaces."""
from __future__ import annotations

import inspect
from typing import Any, Callable

from .registry import param_name
from .signatures import REGISTRY
from .runtime import COMPARE, NO_SCOPES, RuleError, arith, get_field, number

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
    """`_query_of`'s closure, which keeps its call as `.query_parts`; `count(q(...))`, where query `q`
    has a counter (`REGISTRY.counters`), is `counted_of`'s closure instead."""
    if name == "count" and len(slots) == 1:
        parts = getattr(slots[0][1], "query_parts", None)
        counter = None if parts is None else REGISTRY.counters.get(parts[1])
        if counter is not None:
            return counted_of(counter, parts, name, where)
    q = _query_of(fn, name, where, template, slots)
    q.query_parts = (fn, name, where, template, slots)   # type: ignore[attr-defined]
    return q


def counted_of(counter: Callable[..., Any], parts: tuple[Any, ...], name: str, where: str) -> Ev:
    """`count(q(...))` (`name`: count, at `where`) with `q`'s counter called as `q` would be
    (`parts`: q's call, as `query_of` got it): the same value (the list's length), the same errors and
    the same evaluation steps spent (q's: one and one per item, at q's place; count's: one), with
    neither q's list nor a closure call between the two."""
    _, qname, qwhere, template, slots = parts
    seen: list[Any] = [None, None]

    def counted(ctx: Any) -> Any:
        try:
            try:
                values = list(template)
                for i, f in slots:
                    values[i] = f(ctx)
                n = counter(ctx, *values)
            except RuleError:
                raise
            except (TypeError, ValueError, KeyError) as exc:
                raise RuleError(f"{qwhere}: {qname}: {exc}") from None
            t = type(ctx)
            spend = seen[1] if t is seen[0] else _spend_of(t, seen)
            if spend is not None:
                spend(ctx, n + 1, qwhere)
        except RuleError:
            raise
        except (TypeError, ValueError, KeyError) as exc:
            raise RuleError(f"{where}: {name}: {exc}") from None
        if spend is not None:
            spend(ctx, 1, where)
        return n
    return counted


def _query_of(fn: Callable[..., Any], name: str, where: str, template: list[Any],
              slots: list[tuple[int, Ev]]) -> Ev:
    """A query's call by position (`by_position(fn, ...)` holds): `template` holds every parameter's
    default in order, `slots` (position, compiled argument) the arguments given, evaluated in that
    order. It does what the keyword call of compiler.py's `_query_call` does (the same values
    passed, the same errors, the same evaluation steps spent) without a dict of arguments; with
    every parameter given in order (most calls), without a list either. `spend` is read off the
    context's type (a context's methods are its class's) once per type met (`_spend_of`), so no
    bound method is made per call."""
    n = len(template)
    seen: list[Any] = [None, None]   # the last context type met and its `spend` (`_spend_of`)
    counting = name == "count"   # count(a list): its length, without the call (the same value)
    if [i for i, _ in slots] == list(range(n)) and 1 <= n <= 3:
        fs = [f for _, f in slots]
        if n == 1:
            f1, = fs

            def q1(ctx: Any) -> Any:
                try:
                    a = f1(ctx)
                    result = len(a) if counting and type(a) is list else fn(ctx, a)
                except RuleError:
                    raise
                except (TypeError, ValueError, KeyError) as exc:
                    raise RuleError(f"{where}: {name}: {exc}") from None
                t = type(ctx)
                spend = seen[1] if t is seen[0] else _spend_of(t, seen)
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
                t = type(ctx)
                spend = seen[1] if t is seen[0] else _spend_of(t, seen)
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
            t = type(ctx)
            spend = seen[1] if t is seen[0] else _spend_of(t, seen)
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
        t = type(ctx)
        spend = seen[1] if t is seen[0] else _spend_of(t, seen)
        if spend is not None:
            spend(ctx, len(result) + 1 if type(result) is list else 1, where)
        return result
    return query


def _spend_of(t: type, seen: list[Any]) -> Any:
    """`t`'s `spend` (None: it has none), kept in `seen` as (t, spend): a query's closures read it
    off the context's type once per type met, not at every call."""
    seen[0], seen[1] = t, getattr(t, "spend", None)
    return seen[1]
