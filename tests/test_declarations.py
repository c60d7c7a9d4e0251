"""Declarations stay honest: schema enums match the engine, every primitive is documented."""
from __future__ import annotations

import json
import re
from pathlib import Path

from necronomicon.interpreter.effects.registry import REGISTRY, TYPES
from necronomicon.interpreter.engine import primitives  # noqa: F401
from necronomicon.interpreter.effects.windows import WINDOWS

ROOT = Path(__file__).parent.parent
ENGINE = ROOT / "interpreter" / "engine"


def test_schema_windows_are_the_engine_windows() -> None:
    defs = json.loads((ROOT / "schema" / "defs.schema.json").read_text())
    assert list(defs["$defs"]["window"]["enum"]) == list(WINDOWS)


def test_every_window_the_engine_opens_is_declared() -> None:
    opened = set()
    for p in ENGINE.rglob("*.py"):
        opened |= set(re.findall(r'window(?:_call)?\((?:[\w.]+, )?"([a-z-]+)"', p.read_text()))
    abilities_only = {"action", "unlimited-action", "doom-phase", "static"}  # used by listing, not window()
    assert opened <= set(WINDOWS)
    assert set(WINDOWS) - opened <= abilities_only


def test_every_modifier_target_is_applied_somewhere() -> None:
    defs = json.loads((ROOT / "schema" / "defs.schema.json").read_text())
    targets = set(defs["$defs"]["modifier"]["properties"]["target"]["enum"])
    used = set()
    for p in ENGINE.rglob("*.py"):
        used |= set(re.findall(r'modified\((?:[\w.]+, )?"([a-z-]+)"', p.read_text()))
    assert targets - used == set(), "declared modifiers the engine never applies"
    assert used - targets == set(), "modifiers the engine applies but the schema does not allow"


def test_every_primitive_has_a_docstring_and_known_types() -> None:
    for name in REGISTRY.names():
        prim = REGISTRY.get(name)
        assert prim is not None and prim.doc, f"{name} has no docstring"
        assert all(p.type in TYPES for p in prim.params), name
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name)


def test_the_documented_primitive_table_is_the_registry() -> None:
    from necronomicon.interpreter.effects.docs import table
    text = (ROOT / "docs" / "effect-language.md").read_text()
    assert table() in text, "regenerate with: python -m necronomicon.interpreter.effects.docs"


def test_the_documented_windows_and_actions_are_the_declarations() -> None:
    from necronomicon.interpreter.effects.docs import actions_table, windows_table
    text = (ROOT / "docs" / "effect-language.md").read_text()
    assert windows_table() in text, "regenerate with: python -m necronomicon.interpreter.effects.docs"
    assert actions_table() in text, "regenerate with: python -m necronomicon.interpreter.effects.docs"


def test_every_action_name_an_effect_can_compare_is_declared() -> None:
    """`event.action` is the first word of an action label; `subject.action` what action_cost is given."""
    from necronomicon.interpreter.effects.windows import ACTION_EVENTS, COST_ACTIONS
    src = "\n".join((ENGINE / name).read_text() for name in ("actions.py", "moves.py", "perform.py"))
    costed = set(re.findall(r'action_cost\((?:[\w.]+, )?p, "([a-z-]+)"', src))
    assert costed == set(COST_ACTIONS)
    performed = set(re.findall(r'verb == "([a-z-]+)"', src)) | {
        v for group in re.findall(r'verb in \(([^)]*)\)', src) for v in re.findall(r'"([a-z-]+)"', group)}
    assert performed == set(ACTION_EVENTS)
