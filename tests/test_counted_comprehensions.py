"""`count([...]) OP n` over a comprehension whose item and condition are quiet (compiler.py
`_counted`, loops.count_upto_of, static.quiet_in_loop): counted only as far as the comparison
needs, without the list, and exactly as the list counted whole: the same value, the same error,
the same evaluation steps spent."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.effects import ast as A
from necronomicon.interpreter.effects.compiler import Compiler
from necronomicon.interpreter.effects.parser import parse
from necronomicon.interpreter.effects.static import quiet_in_loop
from necronomicon.interpreter.limits import MAX_FOR_ITEMS
from .test_hoisting import AREAS, Ctx, _compile, _outcome


class Visits(Ctx):
    """A context counting the items a loop visits (one step each)."""
    visits = 0

    def tick(self, where: str) -> None:
        Visits.visits += 1
        super().tick(where)


COUNTED = [
    "count([x for x in xs if x != 'north']) > 0",
    "count([x for x in xs]) >= 2",
    "count([x for x in xs if not (x == 'north' or x == 'south')]) < 1",
    "count([x for x in xs if x != 'east']) != 3",
    "count([x for x in xs if x == 'east']) <= 0",
    "count([x for x in xs if x == 'east' and x != 'north']) == 1",
    "[a for a in xs if count([b for b in xs if b != a]) > 0]",
    "[a for a in xs if count([b for b in xs if b == a]) == 0]",
    "count([x for x in xs if x != 'north']) > 0 and count([y for y in xs]) == 0",
    "count([x for x in xs if x != 'north']) >= 0",
    "count([x for x in xs if x == 'north']) < 0",
    "count([x for x in xs if x != 'north']) < 2",
    "count([x for x in xs if x == 'north']) >= 2",
]


def _totals(outcome: tuple[Any, Any, list[tuple[int, str]]], budget: int | None) -> tuple[Any, Any, Any]:
    """An outcome with the steps it spent summed (the iterations skipped are spent at once) and
    the places spent at; when the budget ran out, only that it did (the iterations skipped are
    spent together, past the budget at once where one by one they stop at it)."""
    kind, value, spent = outcome
    total = sum(n for n, _ in spent)
    if kind == "error" and budget is not None and total > budget:
        return kind, value, "over the budget"
    return kind, value, (total, {w for _, w in spent})


@pytest.mark.parametrize("text", COUNTED)
def test_a_count_cut_short_behaves_as_the_list_counted_whole(text: str, monkeypatch: Any) -> None:
    fast = _compile(text)
    with monkeypatch.context() as m:
        m.setattr(Compiler, "_counted", lambda self, node, env: None)
        whole = _compile(text)
    for xs in (AREAS, [], AREAS[:1], ["east"] * 3 + AREAS, ["north"] * 5, 3, "north", list(range(MAX_FOR_ITEMS + 1))):
        for budget in (None, 0, 1, 2, 3, 5, 8, 20):
            got = _totals(_outcome(fast, Ctx(budget, xs=xs)), budget)
            assert got == _totals(_outcome(whole, Ctx(budget, xs=xs)), budget), (text, xs, budget)


def test_the_count_stops_where_the_comparison_is_decided() -> None:
    Visits.visits = 0
    assert _compile(COUNTED[0])(Visits(xs=AREAS * 10)) is True
    assert Visits.visits == 1   # 'arctic' is not 'north': more than 0 already
    Visits.visits = 0
    assert _compile("count([x for x in xs if x != 'north']) >= 3")(Visits(xs=AREAS * 10)) is True
    assert Visits.visits == 4   # arctic, north (not counted), south, east: three
    Visits.visits = 0
    shriek = _compile(COUNTED[6])   # the outer list is made whole: each inner count stops at its first item
    assert shriek(Visits(xs=AREAS)) == AREAS
    assert Visits.visits == len(AREAS) + len(AREAS) + 1   # one inner item each, two for the first area
    ctx = Ctx(xs=AREAS * 10)
    _compile(COUNTED[0])(ctx)
    assert ctx.spent == [(1, "t:1:7"), (len(AREAS) * 10 - 1, "t:1:7"), (1, "t:1:1")]


@pytest.mark.parametrize("text,quiet", [
    ("[x for x in xs if x != 'north']", True),
    ("[x.loc for x in xs if x.owner == a]", False),         # a field of a name not known to hold a unit
    ("[x for x in xs if x == k]", False),                   # a name no loop binds may be unbound
    ("[x for x in xs if x > 1]", False),                    # an order comparison may fail
    ("[x for x in xs if count(xs) > 0]", False),            # a call spends steps
    ("[x for x in xs if x in xs]", False),
])
def test_only_items_and_conditions_that_spend_nothing_and_cannot_fail_are_quiet(text: str, quiet: bool) -> None:
    node = parse(text, start="expr_start")
    assert isinstance(node, A.Comprehension)
    assert quiet_in_loop(node, [node.name, "a"], set()) is quiet
    assert quiet_in_loop(parse("[u.loc for u in xs if u.owner != a and u.id == 3]", start="expr_start"),  # type: ignore[arg-type]
                         ["u", "a"], {"u"})
