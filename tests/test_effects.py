"""The effect language: friendly syntax errors, load-time checks, runtime bounds."""
from __future__ import annotations

import pytest

from necronomicon.interpreter.diagnostics import Pos, Report
from necronomicon.interpreter.effects import ast as A
from necronomicon.interpreter.effects.compiler import MAX_FOR_ITEMS, CompileEnv, Compiler, RuleError
from necronomicon.interpreter.effects.parser import DSL_ERRORS, EffectSyntaxError, parse
from necronomicon.interpreter.effects.program import drive
from necronomicon.interpreter.effects.runtime import Suspend, resume_with
import necronomicon.interpreter.engine.primitives  # noqa: F401  (registers the primitives)


@pytest.mark.parametrize("label,examples", DSL_ERRORS, ids=[d[0] for d in DSL_ERRORS])
def test_every_error_example_gets_its_message(label: str, examples: list[str]) -> None:
    for text in examples:
        with pytest.raises(EffectSyntaxError) as info:
            parse(text)
        assert info.value.message.startswith(label), (text, info.value.message)


def _env(names: set[str] | None = None) -> tuple[CompileEnv, Report]:
    r = Report()
    return CompileEnv(r, lambda line, col: Pos("t", line, col), {"kind": {"ghoul"}},
                      names or {"me", "enemy"}), r


class Ctx:
    """A minimal context: names only (enough for pure expressions)."""

    def __init__(self, **names: object) -> None:
        self.scopes = [dict(names)]
        self.where = ""

    def lookup(self, name: str, where: str) -> object:
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        raise RuleError(name)

    def bind(self, name: str, value: object) -> None:
        self.scopes[-1][name] = value

    def push_scope(self) -> None:
        self.scopes.append({})

    def pop_scope(self) -> None:
        self.scopes.pop()


def _run(text: str, **names: object) -> Ctx:
    env, report = _env(set(names) | {"me"})
    prog = Compiler(env).program(parse(text), env)  # type: ignore[arg-type]
    assert not report.items, report.items
    ctx = Ctx(**names)
    for _ in drive(prog, ctx):
        raise AssertionError("no decision expected")
    return ctx


def test_exact_arithmetic_and_rounding() -> None:
    env, report = _env({"x"})
    f = Compiler(env).expr(parse("ceil(x / 2) + floor(7 / 2) * 10", start="expr_start"), env)  # type: ignore[arg-type]
    assert f(Ctx(x=5)) == 3 + 30


def test_let_if_for_bind_and_branch() -> None:
    ctx = _run("let t = 0\nfor i in xs { if i > 1 { let t = t + i } }", xs=[1, 2, 3])
    assert "t" in ctx.scopes[0]


def test_literal_ids_are_checked_with_did_you_mean() -> None:
    env, report = _env()
    Compiler(env).expr(parse("count(units(owner: me, kind: 'ghol'))", start="expr_start"), env)  # type: ignore[arg-type]
    assert [d.message for d in report.items] == ["unknown unit kind 'ghol' (did you mean 'ghoul'?)"]


def test_a_choice_cannot_hide_inside_an_expression() -> None:
    env, report = _env()
    Compiler(env).expr(parse("count(choose_unit(me, []))", start="expr_start"), env)  # type: ignore[arg-type]
    assert "choice-in-expression" in {d.code for d in report.items}


def test_undefined_names_and_useless_queries_are_reported() -> None:
    env, report = _env()
    Compiler(env).program(parse("power(me)\nlet y = zz + 1"), env)  # type: ignore[arg-type]
    assert sorted(d.code for d in report.items) == ["unknown-name", "useless-query"]


def test_type_errors_are_found_at_load_time() -> None:
    env, report = _env()
    Compiler(env).program(parse("gain_power(me, 'lots')\nlet n = count(power(me))\nlet m = power(me) + 'x'"), env)  # type: ignore[arg-type]
    assert [d.message for d in report.items] == [
        "expected a whole number, got text", "expected a list, got a whole number", "'+' needs numbers, got text"]
    assert [(d.line, d.col) for d in report.items] == [(1, 16), (2, 15), (3, 21)]


def test_arithmetic_on_a_player_or_a_unit_is_a_type_error() -> None:
    """Found by benchmarks/fuzz_content.py (seed 27): `first_player() == -me` validated, then
    failed when the condition was checked. A name known to hold a player (`me`, `enemy`) or a unit
    (`self`, a loop over units) is not a number; the same name rebound by `let` is whatever it holds."""
    env, report = _env({"me", "enemy", "self"})
    Compiler(env).program(parse(  # type: ignore[arg-type]
        "let a = first_player() == -me\nlet b = power(me) + enemy\nlet c = self * 2\n"
        "for u in units(owner: me) { gain_power(me, u - 1) }\nlet enemy = 3\nlet d = -enemy"), env)
    assert [d.message for d in report.items] == [
        "'-' needs numbers, got a player", "'+' needs numbers, got a player", "'*' needs numbers, got a unit",
        "'-' needs numbers, got a unit"]
    assert [(d.line, d.col) for d in report.items] == [(1, 28), (2, 21), (3, 9), (4, 44)]


def test_for_loops_are_bounded() -> None:
    with pytest.raises(RuleError, match="exceeds"):
        _run("for i in xs { nothing }", xs=list(range(MAX_FOR_ITEMS + 1)))


def test_no_python_attribute_access() -> None:
    env, report = _env({"x"})
    f = Compiler(env).expr(parse("x.__class__", start="expr_start"), env)  # type: ignore[arg-type]
    with pytest.raises(RuleError):
        f(Ctx(x={"a": 1}))
    with pytest.raises(RuleError):
        f(Ctx(x=3))
    # field names starting with an underscore are refused, and only game records have fields
    assert isinstance(parse("x.a_b", start="expr_start"), A.Field)


def test_text_size_is_bounded() -> None:
    with pytest.raises(EffectSyntaxError, match="limit"):
        parse("nothing\n" * 5000)


class _Units:
    """Just enough of a game for choose_units: three units, and a decision per question."""

    def __init__(self) -> None:
        self.units = {i: {"id": i, "kind": "ghoul", "owner": "p", "loc": "a"} for i in (1, 2, 3)}
        self.s = self
        self.players = ["p"]
        self.gates: dict[str, object] = {}   # no gate: a unit's label is 'kind area#id'

    def unit(self, uid: int) -> dict[str, object]:
        return self.units[uid]



def _offers(least: int | None, answers: list[str]) -> list[list[str]]:
    from necronomicon.interpreter.effects.signatures import REGISTRY

    class C:
        game = _Units()
        ability = "test"
        where = "t:1:1"
    fn = REGISTRY.functions["choose_units"]
    r = fn(C(), "p", list(C.game.units.values()), least=least)
    seen = []
    for a in answers:
        if not isinstance(r, Suspend):
            break
        seen.append(list(r.step.decision.options))
        r = resume_with(r.then, C(), r.data, a)
    return seen


def test_choose_units_least_offers_done_only_after_the_minimum() -> None:
    seen = _offers(2, ["ghoul a#1", "ghoul a#2", "done"])
    assert "done" not in seen[0] and "done" not in seen[1] and "done" in seen[2]


def test_choose_units_least_beyond_the_list_takes_them_all() -> None:
    seen = _offers(5, ["ghoul a#1", "ghoul a#2", "ghoul a#3"])
    assert all("done" not in offered for offered in seen)


def test_choose_units_least_is_a_declared_argument() -> None:
    env, report = _env()
    Compiler(env).program(parse("let us = choose_units(me, units(owner: me), least: 1, most: 2)"), env)  # type: ignore[arg-type]
    assert report.items == []
