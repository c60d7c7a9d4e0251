"""The compiled core: the engine's modules compiled to C extensions with Cython when the wheel is built.

`pip install .` runs `CompiledCoreHook` (declared in pyproject.toml): every module of the rule
engine, the effect language and the search bot (`CORE` in interpreter/build_info.py) is compiled
from its unchanged Python source and shipped beside that source, so the installed engine imports
the extension and plays the same games faster. The Python source stays the reference: the checkout runs it, the tests compare
the installed engine's games against it (tests/test_compiled_core.py), and `benchmarks/compare.py`
measures both. The build falls back to the pure Python wheel, with a warning, when there is no C
compiler or Cython; `NECRO_PURE_PYTHON=1` asks for the pure wheel, and editable installs are
always pure, so an edit takes effect at once.

    python hatch_build.py TREE OUT      # compile TREE's core into OUT (what compare.py does)
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path


def _load_build_info():  # type: ignore[no-untyped-def]
    """interpreter/build_info.py, by its path: the list of core modules lives there, once (the
    build has no `interpreter` package to import, and compare.py must not take an installed one)."""
    path = Path(__file__).resolve().parent / "interpreter" / "build_info.py"
    spec = importlib.util.spec_from_file_location("_necronomicon_build_info", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


build_info = _load_build_info()
# Cython reads annotations as C types by default; the engine's annotations are hints, not contracts.
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}


class CoreBuildError(Exception):
    """The core could not be compiled (no Cython, no C compiler, or a module Cython refuses)."""


def core_modules(tree: Path) -> list[tuple[str, Path]]:
    """(dotted module name, source) of every core module (`build_info.CORE`) under `tree`, in path order."""
    return [(".".join(p.relative_to(tree).with_suffix("").parts), p)
            for p in build_info.core_sources(tree / "interpreter")]


def compile_flags() -> list[str]:
    """The C compiler's flags beyond Python's own: no debug symbols (a fifth of the size); with GCC
    on Linux, calls into libpython straight through its table of addresses instead of the PLT,
    and no interposition of the module's own functions (about 2% in a Duel, measured)."""
    if sys.platform == "win32":
        return []
    if sys.platform.startswith("linux"):
        return ["-g0", "-fno-plt", "-fno-semantic-interposition"]
    return ["-g0"]


def compile_core(tree: Path, out: Path, jobs: int | None = None) -> list[Path]:
    """Compile `tree`'s core modules into `out` (laid out as packages) with `jobs` processes (default:
    one per core); return the extension files."""
    jobs = jobs or os.cpu_count() or 1
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
    except ImportError as exc:
        raise CoreBuildError(f"Cython and setuptools are needed ({exc})") from None
    tree, out = tree.resolve(), out.resolve()
    temp = Path(tempfile.mkdtemp(prefix="necro-core-"))
    cwd = os.getcwd()
    os.chdir(tree)  # Cython names each extension's source by its path from here
    try:
        flags = compile_flags()
        exts = [Extension(name, [str(src.relative_to(tree))], extra_compile_args=flags)
                for name, src in core_modules(tree)]
        exts = cythonize(exts, compiler_directives=DIRECTIVES, build_dir=str(temp / "c"), nthreads=jobs,
                         quiet=True, force=True)
        dist = Distribution({"ext_modules": exts, "script_name": "hatch_build.py",
                             "script_args": ["-q", "build_ext", "--build-lib", str(out), "--build-temp",
                                             str(temp / "o"), "--parallel", str(jobs)]})
        dist.parse_command_line()
        dist.run_commands()
    except (Exception, SystemExit) as exc:  # cythonize and distutils report failures both ways
        raise CoreBuildError(f"{type(exc).__name__}: {exc}") from None
    finally:
        os.chdir(cwd)
        shutil.rmtree(temp, ignore_errors=True)
    built = []
    for name, _ in core_modules(tree):
        *package, module = name.split(".")
        built += [p for p in out.joinpath(*package).glob(module + ".*") if p.suffix in (".so", ".pyd")]
    return sorted(built)


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # compare.py imports this file only for compile_core
    BuildHookInterface = object  # type: ignore[assignment,misc]


class CompiledCoreHook(BuildHookInterface):  # type: ignore[misc,valid-type]
    """Adds the compiled core to a wheel (never to an sdist or an editable install)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get("NECRO_PURE_PYTHON") == "1":
            self.app.display_info("necronomicon: NECRO_PURE_PYTHON=1, building the pure Python wheel")
            return
        root = Path(self.root)
        out = root / "build" / "compiled-core"
        shutil.rmtree(out, ignore_errors=True)   # nothing of an earlier build goes into the wheel
        try:
            built = compile_core(root, out)
        except CoreBuildError as exc:
            self.app.display_warning(f"necronomicon: the compiled core was not built, the engine stays "
                                     f"pure Python ({exc})")
            return
        for so in built:
            build_data["force_include"][str(so)] = so.relative_to(out).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"necronomicon: compiled core, {len(built)} modules")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python hatch_build.py TREE OUT")
    if Path(sys.argv[2]).resolve() == Path(__file__).resolve().parent:
        sys.exit("hatch_build.py: not into the checkout itself: the extensions would hide its Python source")
    try:
        print(len(compile_core(Path(sys.argv[1]), Path(sys.argv[2]))), "modules compiled")
    except CoreBuildError as exc:
        sys.exit(f"hatch_build.py: {exc}")
