"""The project installs and imports as one package, `necronomicon` (issue #29): the checkout's
interpreter/ and tools/ folders are its `necronomicon.interpreter` and `necronomicon.tools`, in the
checkout (necronomicon/__init__.py) and in the wheel (pyproject.toml maps them) alike, and no
module imports them as top-level packages, so one process never holds two copies of the engine."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("interpreter", "tools")   # the folders the package maps; never imported by these names
SOURCES = ("interpreter", "tools", "tests", "benchmarks", "necronomicon")


def absolute_imports(path: Path, tops: tuple[str, ...]) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in `path` of a package whose top name is in `tops`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
        found += [(node.lineno, n) for n in names if n.split(".")[0] in tops]
    return found


def top_level_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import of `interpreter...` or `tools...` in `path`."""
    return absolute_imports(path, FOLDERS)


def test_no_module_imports_the_folders_as_top_level_packages() -> None:
    bad = [f"{p.relative_to(ROOT)}:{line}: import {name}" for folder in SOURCES
           for p in sorted((ROOT / folder).rglob("*.py")) for line, name in top_level_imports(p)]
    bad += [f"hatch_build.py:{line}: import {name}" for line, name in top_level_imports(ROOT / "hatch_build.py")]
    assert not bad, "import these as necronomicon.interpreter/necronomicon.tools: " + "; ".join(bad[:5])


def test_the_guard_finds_a_top_level_import(tmp_path: Path) -> None:
    planted = tmp_path / "m.py"
    planted.write_text("import os\nfrom tools.cli import main\nimport interpreter.engine as e\n"
                       "from necronomicon.tools import cli\nfrom . import tools\n")
    assert top_level_imports(planted) == [(2, "tools.cli"), (3, "interpreter.engine")]


def package_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import of `necronomicon...` in `path`."""
    return absolute_imports(path, ("necronomicon",))


def test_the_engine_imports_itself_relatively() -> None:
    """interpreter/ reaches its own modules by relative imports only: benchmarks/measure.py loads a
    tree under another name (`interpreter.*`), and an absolute import inside it would load a second
    copy of the engine's modules beside the measured ones."""
    bad = [f"{p.relative_to(ROOT)}:{line}: import {name}" for p in sorted((ROOT / "interpreter").rglob("*.py"))
           for line, name in package_imports(p)]
    assert not bad, "import engine modules relatively: " + "; ".join(bad[:5])


def test_the_guard_finds_an_absolute_package_import(tmp_path: Path) -> None:
    planted = tmp_path / "m.py"
    planted.write_text("from ..engine import phases\nfrom necronomicon.interpreter.engine import core\n"
                       "import necronomicon.tools.cli\nimport necronomiconx\n")
    assert package_imports(planted) == [(2, "necronomicon.interpreter.engine"), (3, "necronomicon.tools.cli")]


def test_the_command_and_a_game_load_one_copy_of_the_engine() -> None:
    """`necro`'s modules, a game and the web board load under `necronomicon.` only."""
    code = ("import sys; import necronomicon.tools.necro, necronomicon.tools.cli, necronomicon.tools.web.app; "
            "from necronomicon.interpreter.content import load_content; "
            "from necronomicon.interpreter.engine.game import Game; "
            "g = Game(load_content().require_ok(), 'duel', ['sleeper', 'wind-rider'], seed=1); "
            "print(sorted({m.split('.')[0] for m in sys.modules if m.split('.')[0] in "
            "('interpreter', 'tools', 'necronomicon')}))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['necronomicon']"


def test_the_wheel_holds_one_top_level_package(tmp_path: Path) -> None:
    """`pip wheel .` (pure Python here, for speed: the compiled core adds extensions beside the
    modules) has `necronomicon` and its dist-info at the top, the folders and data inside."""
    env = {**os.environ, "NECRO_PURE_PYTHON": "1"}
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q",
                        "-w", str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    wheel, = tmp_path.glob("necronomicon-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"necronomicon", next(t for t in tops if t.endswith(".dist-info"))}, tops
    for inside in ("necronomicon/__init__.py", "necronomicon/interpreter/engine/game.py", "necronomicon/tools/necro.py",
                   "necronomicon/interpreter/_data/grammar/effects.lark",
                   "necronomicon/interpreter/_data/content/rulesets/duel.yaml"):
        assert inside in names, inside
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "necro = necronomicon.tools.necro:entry" in zipfile.ZipFile(wheel).read(entry).decode()
