"""The record fields the compiler accepts (registry.RECORD_FIELDS) cover every record the engine hands to effects.

Whole bot games over the real content record the keys of every window event, modifier subject and
battle record; a key missing from the declaration would make a correct `.field` a load-time error.
"""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import ALL_EXPANSIONS
from necronomicon.interpreter.effects.registry import RECORD_FIELDS, UNIT_FIELDS
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine import core
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.play import run_game


def _keys(record: Any, into: set[str]) -> None:
    if isinstance(record, dict):
        into.update(k for k in record if isinstance(k, str) and not k.startswith("_"))


@pytest.mark.parametrize("ruleset,factions", [
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign", "sleeper"]),
    ("two-player", ["wind-rider", "black-goat"]),
])
def test_every_record_key_the_engine_hands_to_effects_is_declared(ruleset: str, factions: list[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    seen: set[str] = set()
    window, modified = core.window_call, core.modified   # every window opens through window_call

    def spy_window(self: Game, name: str, event: Any, *a: Any, **k: Any) -> Any:
        _keys(event, seen)
        for v in (event or {}).values():
            _keys(v, seen)
        if self.s.battle is not None:
            _keys(self.s.battle, seen)
            for r in self.s.battle.get("rolled", {}).values():
                _keys(r, seen)
        return window(self, name, event, *a, **k)

    def spy_modified(self: Game, target: str, value: Any, subject: Any = None, *a: Any, **k: Any) -> Any:
        _keys(subject, seen)
        return modified(self, target, value, subject, *a, **k)

    monkeypatch.setattr(core, "window_call", spy_window)
    monkeypatch.setattr(core, "modified", spy_modified)
    content = load_content(expansions=ALL_EXPANSIONS).require_ok()
    for seed in (1, 2):
        g = Game(content, ruleset, factions, seed)
        for u in g.s.units:
            _keys(u, seen)
        run_game(g, {p: RandomAgent(seed + i) for i, p in enumerate(g.s.players)}, max_decisions=20_000)
    assert seen - RECORD_FIELDS == set()
    assert {"owner", "kind", "loc", "id"} <= UNIT_FIELDS


@pytest.mark.parametrize("ruleset,factions,expansions", [
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign", "sleeper"], ALL_EXPANSIONS),
    ("duel", ["wind-rider", "sleeper"], ()),
])
def test_every_window_event_has_exactly_its_declared_fields(ruleset: str, factions: list[str], expansions: object,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """windows.py declares each window's (and each action's) event fields; the engine hands exactly those."""
    from necronomicon.interpreter.effects.windows import ACTION_FIELD, action_fields, event_fields
    wrong: list[str] = []
    seen: set[str] = set()
    window = core.window_call   # every window opens through it (generator callers too)

    def spy_window(self: Game, name: str, event: Any, *a: Any, **k: Any) -> Any:
        declared = event_fields(name)
        if name == "after-action":
            declared = action_fields().get(event.get(ACTION_FIELD))
        keys = {k for k in (event or {}) if not k.startswith("_")}
        seen.add(name if name != "after-action" else f"after-action:{event.get(ACTION_FIELD)}")
        if declared is None or keys != declared:
            wrong.append(f"{name} {event.get(ACTION_FIELD, '')}: has {sorted(keys)}, declared {sorted(declared or ())}")
        return window(self, name, event, *a, **k)

    monkeypatch.setattr(core, "window_call", spy_window)
    content = load_content(expansions=expansions).require_ok()  # type: ignore[arg-type]
    for seed in (1, 2, 3):
        g = Game(content, ruleset, factions, seed)
        run_game(g, {p: RandomAgent(seed + i) for i, p in enumerate(g.s.players)}, max_decisions=20_000)
    assert sorted(set(wrong)) == []
    assert {"after-action:move", "after-action:battle", "unit-removed", "battle-roll"} <= seen
