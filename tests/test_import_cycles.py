"""No import circles among the modules of interpreter/ and tools/.

The import graph is built from the source text with `ast`: every `import`/`from ... import` anywhere in
a module counts (module level, inside functions, and under `if TYPE_CHECKING:`), so a circle cannot hide
behind a late import or a type-only one.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("interpreter", "tools")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _resolve(modules: dict[str, Path], name: str) -> str | None:
    """The known module a dotted name refers to (a name inside a module refers to that module;
    `necronomicon.interpreter.x` is the folder interpreter/x)."""
    name = name.removeprefix("necronomicon.")
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        is_pkg = path.name == "__init__.py"
        package = mod if is_pkg else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[:len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                # `from pkg import sub` imports the submodule pkg.sub when there is one
                targets = [f"{base}.{a.name}" for a in node.names] + [base]
            for t in targets:
                dep = _resolve(modules, t)
                if dep and dep != mod:
                    graph[mod].add(dep)
    return graph


def _package_parents(graph: dict[str, set[str]], mod: str) -> set[str]:
    parts = mod.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the list of modules around it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for d in sorted(graph[m]):
            # importing a submodule runs its package's __init__ first; a package that imports its own
            # submodules is not a circle with them
            if d in _package_parents(graph, m):
                continue
            if state.get(d) == 1:
                return stack[stack.index(d):] + [d]
            if d not in state:
                found = visit(d)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_the_graph_sees_relative_imports() -> None:
    graph = import_graph()
    assert "interpreter.engine.state" in graph["interpreter.engine.game"] or any(
        "interpreter.engine" in d for d in graph["interpreter.engine.game"])
    assert graph["tools.cli"], "tools.cli imports nothing?"


def test_no_import_cycles() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_a_planted_cycle_is_found() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


# Layers, lowest first: a module imports only from its own layer or lower ones, so the arrows point
# downwards (the effect language knows no content; the loader knows no engine; the engine no bot or tool).
LAYERS = (
    ("interpreter.diagnostics", "interpreter.limits", "interpreter.paths", "interpreter.yamlpos",
     "interpreter.build_info"),
    ("interpreter.effects",),
    ("interpreter.content",),
    ("interpreter.engine",),
    ("interpreter.search", "interpreter.rl"),
    ("interpreter.bots",),
    ("interpreter.build_training",),
    ("tools",),
)
def layer_of(module: str) -> int:
    """The index in LAYERS of the layer `module` belongs to."""
    for i, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def upward_arrows(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Every import from a module to one in a higher layer (`from pkg import sub` counts as one
    arrow, to pkg.sub, though it runs pkg's __init__ too)."""
    arrows = {(m, d) for m, deps in graph.items() for d in deps if layer_of(d) > layer_of(m)}
    return {(m, d) for m, d in arrows if not any(e.startswith(d + ".") for n, e in arrows if n == m)}


def test_imports_point_downwards() -> None:
    """No exception: the loader compiles calls against the primitives' declarations (effects/signatures.py),
    and the engine registers its implementations against them."""
    upwards = upward_arrows(import_graph())
    assert not upwards, "imports that run upwards: " + ", ".join(f"{m} -> {d}" for m, d in sorted(upwards))


def test_the_loader_imports_no_engine_tables() -> None:
    """The effect language's tables (primitives, windows, what primitives read or remove) live with the language."""
    graph = import_graph()
    assert not {d for m in graph if layer_of(m) <= layer_of("interpreter.content")
                for d in graph[m] if d == "interpreter.engine" or d.startswith("interpreter.engine.")}


def test_an_upward_arrow_is_found() -> None:
    graph = {"interpreter.effects.x": {"interpreter.engine.y"}, "interpreter.engine.y": {"interpreter.effects.x"}}
    assert upward_arrows(graph) == {("interpreter.effects.x", "interpreter.engine.y")}
