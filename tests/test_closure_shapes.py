"""The effect language's specialised closures (effects/closures.py) for the commonest shapes: a
comparison with a literal, a query called by position. Each must be chosen where it applies and
behave exactly as the generic form it replaces: the same value, the same error, the same
evaluation steps spent."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from necronomicon.interpreter.diagnostics import Pos, Report
from necronomicon.interpreter.effects import closures, compiler as compiler_module
from necronomicon.interpreter.effects.closures import binary_of, constant
from necronomicon.interpreter.effects.compiler import CompileEnv, Compiler, RuleError
from necronomicon.interpreter.effects.runtime import get_field
from necronomicon.interpreter.effects.parser import parse
import necronomicon.interpreter.engine.primitives  # noqa: F401  (registers the primitives)


class Ctx:
    """Names, a game with tokens, and a record of the evaluation steps spent."""

    def __init__(self, tokens: list[dict[str, Any]], **names: Any) -> None:
        self.scopes = [dict(names)]
        self.where = ""
        self.spent: list[tuple[int, str]] = []
        self.game = type("G", (), {})()
        self.game.s = type("S", (), {})()
        self.game.s.tokens = tokens

    def lookup(self, name: str, where: str) -> Any:
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        raise RuleError(name)

    def spend(self, steps: int, where: str) -> None:
        self.spent.append((steps, where))


TOKENS = [{"id": "ice-age", "loc": "arctic", "owner": "wr"}, {"id": "ice-age", "loc": "north", "owner": "wr"},
          {"id": "other", "loc": "arctic", "owner": "gc"}]


def _compile(text: str, keyword_calls: bool = False, monkeypatch: Any = None) -> Any:
    r = Report()
    env = CompileEnv(r, lambda line, col: Pos("t", line, col), {}, {"me", "x", "a", "xs"})
    if keyword_calls:
        monkeypatch.setattr(compiler_module, "by_position", lambda fn, names: False)
    f = Compiler(env).expr(parse(text, start="expr_start"), env)  # type: ignore[arg-type]
    assert not r.items, r.items
    return f


def _outcome(f: Any, ctx: Ctx) -> Any:
    try:
        return ("value", f(ctx), ctx.spent)
    except RuleError as exc:
        return ("error", str(exc), ctx.spent)


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
def test_a_comparison_with_a_literal_is_the_generic_comparison(op: str) -> None:
    left = lambda ctx: ctx.lookup("x", "t")   # noqa: E731
    fast = binary_of(op, left, constant(2), "t:1:1")
    generic = binary_of(op, left, lambda ctx: 2, "t:1:1")   # no `.const`: the generic form
    if op in ("<", "<=", ">", ">="):
        assert fast.__name__ in ("lt", "le", "gt", "ge")
    for x in (1, 2, 3, -5, Fraction(5, 2), True, "a", None, [1]):
        assert _outcome(fast, Ctx([], x=x)) == _outcome(generic, Ctx([], x=x)), (op, x)


def test_a_literal_is_a_constant_and_its_comparison_reads_no_closure() -> None:
    assert _compile("3").const == 3
    assert _compile("x > 0").__name__ == "gt"
    assert _compile("x <= 2").__name__ == "le"
    assert _compile("x >= a").__name__ == "compare"   # no literal: the generic form


@pytest.mark.parametrize("text", [
    "count(tokens(token: 'ice-age', area: a, owner: me))",
    "count(tokens(token: 'ice-age', owner: me))",
    "count(tokens(area: a))",
    "count(tokens(owner: me, token: 'ice-age'))",
    "tokens()",
    "count(x)",
])
def test_a_query_by_position_gives_what_the_keyword_call_gives(text: str, monkeypatch: Any) -> None:
    fast = _compile(text)
    slow = _compile(text, keyword_calls=True, monkeypatch=monkeypatch)
    for names in ({"me": "wr", "a": "arctic", "x": [1, 2]}, {"me": "gc", "a": "north", "x": 3},
                  {"me": "wr", "a": None, "x": "no list"}):
        assert _outcome(fast, Ctx(TOKENS, **names)) == _outcome(slow, Ctx(TOKENS, **names)), (text, names)


def test_queries_are_called_by_position_where_their_parameters_allow() -> None:
    r = Report()
    env = CompileEnv(r, lambda line, col: Pos("t", line, col), {}, {"me", "a"})
    c = Compiler(env)
    count = c.expr(parse("count(tokens(token: 'ice-age', area: a, owner: me))", start="expr_start"), env)  # type: ignore[arg-type]
    assert count.__name__ == "q1"   # every parameter given, in order: no list, no dict
    some = c.expr(parse("tokens(owner: me, token: 'ice-age')", start="expr_start"), env)  # type: ignore[arg-type]
    assert some.__name__ == "query"
    units = c.expr(parse("units(owner: me, class: 'cultist')", start="expr_start"), env)  # type: ignore[arg-type]
    assert units.__name__ == "query"   # `class` is the implementation's `class_`: by position too


def test_by_position_needs_the_declared_parameters_in_order() -> None:
    def f(ctx: Any, token: Any = None, area: Any = None) -> None: ...

    def g(ctx: Any, area: Any = None, token: Any = None) -> None: ...

    def h(ctx: Any, token: Any = None, **kw: Any) -> None: ...
    assert closures.by_position(f, ["token", "area"])
    assert not closures.by_position(g, ["token", "area"])
    assert not closures.by_position(h, ["token", "class"])
    assert not closures.by_position(f, ["token"])


@pytest.mark.parametrize("op", ["and", "or"])
def test_a_chain_of_and_or_or_is_one_closure_with_the_nested_form_s_answers(op: str) -> None:
    seen: list[int] = []

    def part(i: int) -> Any:
        def f(ctx: Any) -> Any:
            seen.append(i)
            return ctx.lookup("xs", "t")[i]
        return f
    chain = binary_of(op, binary_of(op, binary_of(op, part(0), part(1), "t"), part(2), "t"), part(3), "t")
    assert chain.__name__ == ("every" if op == "and" else "some")
    nested = {"and": lambda a, b: (lambda ctx: bool(a(ctx)) and bool(b(ctx))),
              "or": lambda a, b: (lambda ctx: bool(a(ctx)) or bool(b(ctx)))}[op]
    generic = nested(nested(nested(part(0), part(1)), part(2)), part(3))
    for xs in ([1, 1, 1, 1], [1, 0, 1, 1], [0, 0, 0, 0], [0, 0, 0, 5], [1, 1, 1, ""], ["a", None, [], 2]):
        seen.clear()
        got = _outcome(chain, Ctx([], xs=xs))
        order = list(seen)
        seen.clear()
        assert got == _outcome(generic, Ctx([], xs=xs)) and order == seen, (op, xs)   # same answer, same parts asked
    assert _compile("x > 0 and x < 3 and x != 2").__name__ == "every"
    assert _compile("x > 0 and x < 3").__name__ == "both"


class _Named(Ctx):
    """A context holding `me` and `subject` as attributes (EffectCtx's way), perhaps also bound in a scope."""

    def __init__(self, who: Any, what: Any, **names: Any) -> None:
        super().__init__([], **names)
        self.me, self.subject, self.value = who, what, None

    def lookup(self, name: str, where: str) -> Any:
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        if name == "me" and self.me is None:
            raise RuleError(f"{where}: 'me' is not bound here")
        return getattr(self, name)


@pytest.mark.parametrize("var", ["me", "subject"])
def test_a_bound_name_s_field_in_one_closure_is_the_two_closures(var: str) -> None:
    fused = closures.field_of(closures.var_of(var, "t:1:1"), "area", "t:1:5")
    attr = closures.var_of(var, "t:1:1")
    generic = closures.field_of(lambda ctx: attr(ctx), "area", "t:1:5")   # (no `ctx_name`: the generic form)
    assert fused.__name__ == "bound_field" and generic.__name__ == "field"
    for me, subject, names in ((None, {"area": "a"}, {}), ({"area": "m"}, {"area": "b"}, {}),
                               ({"area": "m"}, {"x": 1}, {}), ("p", None, {}), ({"area": "m"}, {"area": "c"},
                               {var: {"area": "bound"}}), (None, 3, {"other": 1})):
        assert _outcome(fused, _Named(me, subject, **names)) == _outcome(generic, _Named(me, subject, **names)), \
            (var, me, subject, names)


@pytest.mark.parametrize("var", ["me", "subject", "value", "event", "area"])
def test_a_name_the_context_holds_reads_as_lookup_finds_it(var: str) -> None:
    """`var_of`'s direct read of a context's attribute (and `field_of` over it) gives what
    `EffectCtx.lookup` gives (the same value, the same error): unset (None), set, and hidden or not
    by a binding in one scope or in two."""
    from necronomicon.interpreter.engine.context import EffectCtx
    attr = closures.var_of(var, "t:1:1")
    fused = closures.field_of(attr, "area", "t:1:5")
    assert attr.__name__ == "attr" and fused.__name__ == "bound_field"

    def read(ctx: Any) -> Any:
        return get_field(ctx.lookup(var, "t:1:1"), "area", "t:1:5", ctx)
    for held in (None, {"area": "held"}, "p"):
        for binds in ([], [{var: {"area": "bound"}}], [{"other": 1}], [{}, {var: {"area": "inner"}}], [{"other": 1}, {}]):
            def make() -> EffectCtx:
                c = EffectCtx(None, held, event=held, subject=held, value=held, area=held)   # type: ignore[arg-type]
                for i, scope in enumerate(binds):
                    if i:
                        c.push_scope()
                    for k, v in scope.items():
                        c.bind(k, v)
                    if not scope and not i:
                        c.push_scope(), c.pop_scope()   # (an empty scope of its own)
                return c
            for mine, generic in ((attr, lambda ctx: ctx.lookup(var, "t:1:1")), (fused, read)):
                assert _value(mine, make()) == _value(generic, make()), (var, held, binds)


def _value(f: Any, ctx: Any) -> Any:
    try:
        return ("value", f(ctx))
    except RuleError as exc:
        return ("error", str(exc))


def test_a_query_spends_through_each_context_type_s_own_spend() -> None:
    """A query's closure keeps the `spend` of the last context type it met (closures._spend_of):
    contexts of other types, met in turn, each spend through their own type's (or none)."""
    class Other(Ctx):
        def spend(self, steps: int, where: str) -> None:
            self.spent.append((-steps, where))

    class Quiet(Ctx):
        spend = None   # type: ignore[assignment]
    f = _compile("count(tokens(token: 'ice-age', owner: me))")
    for kind in (Ctx, Other, Quiet, Ctx, Quiet, Other, Other, Ctx):
        ctx = kind(TOKENS, me="wr")
        assert f(ctx) == 2
        sign = {Ctx: 1, Other: -1, Quiet: 0}[kind]
        assert ctx.spent == ([] if not sign else [(sign * 3, "t:1:7"), (sign * 1, "t:1:1")]), kind
