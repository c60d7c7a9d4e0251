"""The unit queries of the effect language (engine/primitives/units.py) that read the state's unit
index instead of scanning every unit: the same units, in the same order, as the scan, and no stale
answer after units move (the index follows every move; checking mode compares it with a fresh build)."""
from __future__ import annotations

from typing import Any

from necronomicon.interpreter.content.build import Content
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
