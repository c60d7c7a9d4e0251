"""Loop-invariant query calls in the effect language's comprehensions (compiler.py `_hoisted`,
loops.invariant_of): a query call whose plain arguments read none of the names a comprehension
binds is made once per evaluation of that comprehension, and behaves exactly as the call made for
every item: the same value, the same error, the same evaluation steps spent in the same order."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.diagnostics import Pos, Report
from necronomicon.interpreter.effects import compiler as compiler_module
from necronomicon.interpreter.effects.compiler import CompileEnv, Compiler, RuleError
from necronomicon.interpreter.effects.parser import parse
import necronomicon.interpreter.engine.primitives  # noqa: F401  (registers the primitives)


class Tokens(list):   # type: ignore[type-arg]
    """The game's tokens, counting how often a query reads them."""
    reads = 0

    def __iter__(self) -> Any:
        Tokens.reads += 1
        return super().__iter__()


class Ctx:
    """Scopes, a game with tokens, and every evaluation step spent (ticks and queries), in order;
    with `budget`, a LimitError-like RuleError once more steps than that are spent."""

    def __init__(self, budget: int | None = None, **names: Any) -> None:
        self.scopes = [dict(names)]
        self.spent: list[tuple[int, str]] = []
        self.budget = budget
        self.game = type("G", (), {})()
        self.game.s = type("S", (), {})()
        self.game.s.tokens = Tokens(TOKENS)

    def lookup(self, name: str, where: str) -> Any:
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        raise RuleError(f"{where}: unknown name '{name}'")

    def spend(self, steps: int, where: str) -> None:
        self.spent.append((steps, where))
        if self.budget is not None and sum(n for n, _ in self.spent) > self.budget:
            raise RuleError(f"{where}: more than {self.budget} steps")

    def tick(self, where: str) -> None:
        self.spend(1, where)

    def bind(self, name: str, value: Any) -> None:
        self.scopes[-1][name] = value

    def push_scope(self) -> None:
        self.scopes.append({})

    def pop_scope(self) -> None:
        self.scopes.pop()


TOKENS = [{"id": "ice-age", "loc": "arctic", "owner": "wr"}, {"id": "ice-age", "loc": "north", "owner": "wr"},
          {"id": "other", "loc": "arctic", "owner": "gc"}, {"id": "ice-age", "loc": "south", "owner": "gc"}]
AREAS = ["arctic", "north", "south", "east"]


def _compile(text: str, hoist: bool = True, monkeypatch: Any = None) -> Any:
    r = Report()
    env = CompileEnv(r, lambda line, col: Pos("t", line, col), {}, {"me", "xs", "k", "n"})
    if not hoist:
        monkeypatch.setattr(compiler_module, "invariant_of", lambda ev, memo, slot, where: ev)
    f = Compiler(env).expr(parse(text, start="expr_start"), env)  # type: ignore[arg-type]
    assert not r.items, r.items
    return f


def _outcome(f: Any, ctx: Ctx) -> Any:
    Tokens.reads = 0
    try:
        return ("value", f(ctx), ctx.spent)
    except RuleError as exc:
        return ("error", str(exc), ctx.spent)


SHAPES = [
    # the inner query reads no loop name: made once per evaluation of the outer comprehension
    "[a for a in xs if count([t for t in tokens(owner: me, token: 'ice-age') if t.loc != a]) > 0]",
    "[count(tokens(owner: me)) + count([t for t in tokens(token: k) if t.loc == a]) for a in xs]",
    "[[b for b in xs if count(tokens(area: b, owner: me)) > n] for a in xs]",   # reads the inner name only
    "[a for a in xs if a == 'north' and count(tokens(owner: me)) > 1]",          # reached for one item only
    "[a for a in xs if count(tokens(owner: a)) > 0]",                             # reads the name: not hoisted
    "[a for a in xs if count(tokens(owner: me.owner)) > 0]",                      # an error where it came
    "[a for a in xs if count(tokens(owner: [me][n])) >= 0]",
]


@pytest.mark.parametrize("text", SHAPES)
def test_a_hoisted_call_behaves_as_the_call_made_for_every_item(text: str, monkeypatch: Any) -> None:
    fast = _compile(text)
    with monkeypatch.context() as m:
        slow = _compile(text, hoist=False, monkeypatch=m)
    for names in ({"me": "wr", "xs": AREAS, "k": "ice-age", "n": 0}, {"me": "gc", "xs": AREAS, "k": None, "n": 1},
                  {"me": "wr", "xs": [], "k": "other", "n": 0}, {"me": "nobody", "xs": AREAS[:2], "k": 3, "n": 5}):
        for budget in (None, 3, 9, 17, 30):
            got = _outcome(fast, Ctx(budget, **names))
            assert got == _outcome(slow, Ctx(budget, **names)), (text, names, budget)


def test_an_invariant_query_is_made_once_per_evaluation_of_its_comprehension() -> None:
    shriek = _compile(SHAPES[0])
    for _ in range(2):   # each evaluation starts afresh: the tokens may have changed in between
        got = _outcome(shriek, Ctx(**{"me": "wr", "xs": AREAS}))
        assert got[1] == AREAS and Tokens.reads == 1
    ctx = Ctx(**{"me": "wr", "xs": AREAS})
    ctx.game.s.tokens = Tokens([TOKENS[0]])
    assert shriek(ctx) == ["north", "south", "east"]
    nested = _compile(SHAPES[2])   # hoisted to the inner comprehension: once per outer item
    _outcome(nested, Ctx(**{"me": "wr", "xs": AREAS, "n": 0}))
    assert Tokens.reads == len(AREAS) * len(AREAS)   # reads `b`: made for every inner item
    outer = _compile("[[b for b in xs if count(tokens(owner: me)) > n] for a in xs]")
    _outcome(outer, Ctx(**{"me": "wr", "xs": AREAS, "n": 0}))
    assert Tokens.reads == 1   # reads neither name: once for the whole evaluation
    _outcome(_compile(SHAPES[4]), Ctx(**{"me": "wr", "xs": AREAS}))
    assert Tokens.reads == len(AREAS)
    _outcome(_compile(SHAPES[3]), Ctx(**{"me": "wr", "xs": ["east"]}))
    assert Tokens.reads == 0   # never reached: never made


LOOP_SHAPES = [
    "[t.loc for t in xs if t.loc != 'north']",
    "[[b.loc for b in xs if b.loc != a.loc] for a in xs]",     # the outer name inside the inner loop
    "[[y for y in [x.loc, x.owner]] for x in xs]",              # the inner list reads the outer name
    "[x for x in xs if count([x for x in [x, x.loc]]) > 1]",    # the name bound again inside
    "[t.kind for t in xs]",                                      # a field read through get_field
    "[t.owner == me for t in xs]",
]
ROWS = [{"loc": "north", "owner": "wr", "kind": "a"}, {"loc": "south", "owner": "gc", "kind": "b"}]


@pytest.mark.parametrize("text", LOOP_SHAPES)
def test_a_loop_name_read_from_its_own_scope_is_what_lookup_finds(text: str, monkeypatch: Any) -> None:
    fast = _compile(text)
    with monkeypatch.context() as m:
        m.setattr(Compiler, "_in_loop", lambda self, name: False)
        slow = _compile(text)
    for xs in (ROWS, [], [ROWS[0], {"owner": "wr"}], [ROWS[1], 3, "x"], [[1], ROWS[0]]):
        assert _outcome(fast, Ctx(**{"me": "wr", "xs": xs})) == _outcome(slow, Ctx(**{"me": "wr", "xs": xs})), (text, xs)


def test_the_loop_name_and_its_fields_are_read_without_lookup() -> None:
    r = Report()
    env = CompileEnv(r, lambda line, col: Pos("t", line, col), {}, {"xs"})
    c = Compiler(env)
    c._loops.append(("t", [None], [0]))
    inner = env.child(["t"])
    assert c.expr(parse("t.loc", start="expr_start"), inner).__name__ == "loop_field"   # type: ignore[arg-type]
    assert c.expr(parse("t", start="expr_start"), inner).__name__ == "loop_var"   # type: ignore[arg-type]
    assert c.expr(parse("xs", start="expr_start"), inner).__name__ == "var"   # type: ignore[arg-type]
    assert _compile(LOOP_SHAPES[1])(Ctx(xs=ROWS)) == [["south"], ["north"]]
    ctx = Ctx(xs=ROWS)
    ctx.lookup = None   # type: ignore[assignment,method-assign]   (never asked: a call would fail)
    assert _compile("[t.loc for t in [t for t in xs if t.loc != 'east']]")(ctx) == ["north", "south"]


FIELD_SHAPES = [
    "[t.loc for t in xs if t.loc != me.loc]",                      # `me.loc` reads no loop name: read once
    "[[b.loc for b in xs if b.owner == a.owner and b.loc != me.loc] for a in xs]",   # one read per inner loop
    "[t.loc for t in xs if t.loc == 'south' or t.owner == me.owner]",   # reached for some items only
    "[t.loc for t in xs if count(tokens(owner: me.owner)) >= 0]",  # inside a hoisted call's argument
]
RECORD = {"loc": "south", "owner": "wr"}


@pytest.mark.parametrize("text", FIELD_SHAPES)
def test_a_hoisted_field_read_behaves_as_the_read_made_for_every_item(text: str, monkeypatch: Any) -> None:
    fast = _compile(text)
    with monkeypatch.context() as m:
        m.setattr(compiler_module, "invariant_read_of", lambda ev, memo, slot: ev)
        slow = _compile(text)
    for me in (RECORD, {"loc": "north"}, None, 3, ["x"]):
        for xs in (ROWS, [], [ROWS[0], {"owner": "wr", "loc": "east"}], [ROWS[1], 3]):
            for budget in (None, 1, 4):
                assert _outcome(fast, Ctx(budget, me=me, xs=xs)) == _outcome(slow, Ctx(budget, me=me, xs=xs)), (text, me, xs)


class Reads(Ctx):
    """A context counting how often each name is looked up."""
    reads: dict[str, int] = {}

    def lookup(self, name: str, where: str) -> Any:
        Reads.reads[name] = Reads.reads.get(name, 0) + 1
        return super().lookup(name, where)


def test_a_field_of_a_record_no_loop_binds_is_read_once_per_evaluation_of_its_comprehension() -> None:
    Reads.reads = {}
    assert _compile(FIELD_SHAPES[0])(Reads(me=RECORD, xs=ROWS * 5)) == ["north"] * 5
    assert Reads.reads == {"me": 1}
    Reads.reads = {}
    _compile(FIELD_SHAPES[1])(Reads(me=RECORD, xs=ROWS * 3))
    assert Reads.reads == {"me": 1, "a": 6, "xs": 6}   # `a.owner`: once in each evaluation of the inner comprehension
