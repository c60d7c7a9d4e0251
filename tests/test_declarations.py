"""Declarations stay honest: schema enums match the engine, every primitive is documented."""
from __future__ import annotations

import json
import re
from pathlib import Path

from necronomicon.interpreter.effects.registry import TYPES
from necronomicon.interpreter.effects.signatures import REGISTRY
from necronomicon.interpreter.engine import core, primitives  # noqa: F401
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
    used |= {*core.COST_TARGETS.values(), core.SUMMON_COST}   # a unit's cost: modified(g, its class's target, ...)
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
    src = "\n".join((ENGINE / name).read_text() for name in ("actions.py", "unique_actions.py", "moves.py", "perform.py"))
    costed = set(re.findall(r'action_cost\((?:[\w.]+, )?p, "([a-z-]+)"', src))
    assert costed == set(COST_ACTIONS)
    performed = set(re.findall(r'verb == "([a-z-]+)"', src)) | {
        v for group in re.findall(r'verb in \(([^)]*)\)', src) for v in re.findall(r'"([a-z-]+)"', group)}
    assert performed == set(ACTION_EVENTS)


def test_every_declared_primitive_is_implemented_by_the_engine_and_nothing_else_is() -> None:
    assert REGISTRY.unimplemented() == []
    assert set(REGISTRY.functions) == set(REGISTRY.items)


def _declared(**params: object):  # type: ignore[no-untyped-def]
    from necronomicon.interpreter.effects.registry import Registry, declarations
    registry = Registry()
    query, _verb, _choice = declarations(registry)
    query("q", "A test query.", **params)
    query("many", "A variadic one.", variadic=True, values="any")
    return registry


def test_an_implementation_that_disagrees_with_its_declaration_is_refused_at_import() -> None:
    import pytest
    registry = _declared(player="player", count=("int", 1), **{"class": ("class", None)})

    def agrees(ctx, player, count=1, class_=None): ...  # type: ignore[no-untyped-def]
    registry.implements("q")(agrees)
    assert registry.functions["q"] is agrees
    wrong = {
        "no parameter 'player'": lambda ctx, count=1, class_=None: None,
        "no parameter 'class'": lambda ctx, player, count=1: None,
        "takes \\*\\*kwargs": lambda ctx, player, count=1, **kw: None,
        "declared required but has a default": lambda ctx, player=None, count=1, class_=None: None,
        "the function's is 2": lambda ctx, player, count=2, class_=None: None,
        "the function's is none": lambda ctx, player, count, class_=None: None,
        "undeclared parameter 'area'": lambda ctx, player, count=1, area=None, class_=None: None,
    }
    for said, fn in wrong.items():
        fresh = _declared(player="player", count=("int", 1), **{"class": ("class", None)})
        with pytest.raises(TypeError, match=said):
            fresh.implements("q")(fn)
        assert "q" not in fresh.functions
    with pytest.raises(TypeError, match=r"takes \(ctx, where, \*values\)"):
        registry.implements("many")(lambda ctx, *values: None)
    registry.implements("many")(lambda ctx, where, *values: None)
    with pytest.raises(TypeError, match="implemented twice"):
        registry.implements("q")(agrees)
    with pytest.raises(TypeError, match="does not declare"):
        registry.implements("nowhere")(agrees)


def test_content_compiled_before_the_engine_is_imported_plays_the_same_game() -> None:
    """The loader imports no engine: its calls find the engine's functions once it is imported."""
    import subprocess
    import sys
    play = ("from necronomicon.interpreter.engine.game import Game\n"
            "from necronomicon.interpreter.engine.agents import RandomAgent\n"
            "g = Game(c, 'duel', ['great-cthulhu', 'crawling-chaos'], 3)\n"
            "bot = RandomAgent(seed=3)\n"
            "for _ in range(400):\n"
            "    d = g.current()\n"
            "    if d is None: break\n"
            "    g.apply(bot.choose(d.player, d.options, d))\n"
            "print(g.digest())\n")
    load = "from necronomicon.interpreter.content import load_content\nc = load_content().require_ok()\n"
    first = ("import sys\n" + load + "assert not [m for m in sys.modules if m.startswith('necronomicon.interpreter.engine')]\n"
             + play)
    after = "import necronomicon.interpreter.engine\n" + load + play
    outs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
            for code in (first, after)]
    assert all(r.returncode == 0 for r in outs), [r.stderr[-500:] for r in outs]
    assert outs[0].stdout == outs[1].stdout and len(outs[0].stdout.strip()) == 16


def _implementations_with_docstrings(path: Path) -> list[str]:
    """The functions in `path` registered with `@implements(...)` that carry a docstring of their own."""
    import ast
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                isinstance(d, ast.Call) and ast.unparse(d.func).split(".")[-1] == "implements"
                for d in node.decorator_list) and ast.get_docstring(node) is not None:
            found.append(f"{path.name}:{node.lineno}: {node.name}")
    return found


def test_a_primitive_is_described_once_in_its_declaration() -> None:
    """The declaration's line (effects/signatures.py) is the primitive's one description: `@implements`
    makes it the implementation's docstring, and no implementation writes one of its own."""
    assert all(REGISTRY.functions[n].__doc__ == REGISTRY.items[n].doc for n in REGISTRY.names())
    doubled = [hit for p in sorted((ROOT / "interpreter").rglob("*.py")) for hit in _implementations_with_docstrings(p)]
    assert not doubled, "describe a primitive in its declaration only: " + "; ".join(doubled)


def test_the_scan_finds_an_implementation_that_describes_itself(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('@implements("x")\ndef _x(ctx):\n    """Again."""\n    return 1\n\n\n'
                   '@REGISTRY.implements("y")\ndef _y(ctx):\n    return 2\n')
    assert _implementations_with_docstrings(bad) == ["bad.py:2: _x"]
