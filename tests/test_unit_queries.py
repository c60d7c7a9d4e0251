"""The unit queries of the effect language (engine/primitives/units.py) that read the state's unit
index instead of scanning every unit: the same units, in the same order, as the scan, and no stale
answer after units move (the index follows every move; checking mode compares it with a fresh build)."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.diagnostics import Pos, Report
from necronomicon.interpreter.effects.compiler import CompileEnv, Compiler, RuleError
from necronomicon.interpreter.effects.parser import parse
from necronomicon.interpreter.effects.signatures import REGISTRY
from necronomicon.interpreter.engine import core
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.primitives.areas_and_gates import _area_names, _sorted_areas


def _scan_held(g: Any, owner: str, tag: Any) -> list[dict[str, Any]]:
    prefix = f"held:{owner}:{tag}" if tag else f"held:{owner}:"
    return [u for u in g.s.units if u["loc"] == prefix or (not tag and u["loc"].startswith(prefix))]


def test_held_with_a_tag_reads_the_index_as_the_scan_does(basic: Content) -> None:
    game = Game(basic, "test-multi", ["red", "blue"], 1)
    g = game.rules
    held = REGISTRY.implementation("held")
    ctx = core.ctx(g, "red")
    assert held(ctx, "red", "aside") == [] == _scan_held(g, "red", "aside")
    units = g.s.units
    for i, (u, tag) in enumerate(zip(units[::2], ["aside", "card", "aside", "aside"])):
        u["loc"] = f"held:red:{tag}"
        g.state_written()
        for t in ("aside", "card", "other", None, ""):
            got = held(core.ctx(g, "red"), "red", t)
            assert got == _scan_held(g, "red", t), (i, t)
            assert [u["id"] for u in got] == [u["id"] for u in _scan_held(g, "red", t)]
    assert len(held(core.ctx(g, "red"), "red", "aside")) == 3
    units[0]["loc"] = "a"   # moved back: no longer held
    g.state_written()
    assert len(held(core.ctx(g, "red"), "red", "aside")) == 2


def test_all_areas_are_the_layouts_sorted_ids(basic: Content) -> None:
    game = Game(basic, "test-multi", ["red", "blue"], 1)
    g = game.rules
    areas = REGISTRY.implementation("areas")
    got = areas(core.ctx(g, "red"))
    assert got == [a for a, _ in _sorted_areas(g.layout)] == sorted(g.layout.areas)
    got.append("x")   # a new list each time: the kept names are not changed
    assert list(_area_names(g.layout)) == sorted(g.layout.areas)


def _compile(text: str) -> Any:
    r = Report()
    env = CompileEnv(r, lambda line, col: Pos("t", line, col), {}, {"me", "x", "k", "a"})
    f = Compiler(env).expr(parse(text, start="expr_start"), env)  # type: ignore[arg-type]
    assert not r.items, r.items
    return f


def _outcome(f: Any, g: Any, names: dict[str, Any]) -> Any:
    ctx = core.ctx(g, "red")
    for name, v in names.items():
        ctx.bind(name, v)
    g.steps = 0
    try:
        return ("value", f(ctx), g.steps)
    except RuleError as exc:
        return ("error", str(exc), g.steps)


@pytest.mark.parametrize("text", [
    "count(units(owner: me))", "count(units(owner: x))", "count(units(owner: me, kind: k))",
    "count(units(owner: x, kind: k, class: 'cultist'))", "count(units(owner: me, class: k))",
    "count(units(owner: me, area: a))", "count(units(owner: me, where: 'pool'))", "count(units(kind: k))",
    "count(units(owner: me, where: 'nowhere'))", "count(units(owner: me, area: a, kind: k))",
])
def test_a_counted_unit_query_is_the_length_of_the_query(basic: Content, text: str, monkeypatch: Any) -> None:
    """`count(units(...))` calls the counter (closures.counted_of): the same value, the same error and
    the same evaluation steps as counting the list `units(...)` gives, as the state changes."""
    counted = _compile(text)
    assert counted.__name__ == "counted"
    monkeypatch.setattr(REGISTRY, "counters", {})
    listed = _compile(text)
    assert listed.__name__ == "q1"
    game = Game(basic, "test-multi", ["red", "blue"], 1)
    g = game.rules
    kinds = sorted({u["kind"] for u in g.s.units}) + [["acolyte", "grunt"], None, 3]
    places = sorted({u["loc"] for u in g.s.units}) + [None, ["a", "b"]]
    for step in range(3):
        for x, k, a in zip(["red", "blue", ["red"], None, 7] * 3, kinds * 3, places * 3):
            names = {"x": x, "k": k, "a": a}
            assert _outcome(counted, g, names) == _outcome(listed, g, names), (text, names, step)
        for u in g.s.units[step::3]:   # units move (the index follows them)
            u["loc"] = "b" if u["loc"] != "b" else "pool"
        g.state_written()
