"""The compiled core: the engine's modules compiled to C extensions with Cython when the wheel is built.

`pip install .` runs `CompiledCoreHook` (declared in pyproject.toml): every module of the rule
engine, the effect language and the search bot that runs during play (`CORE` without
`PYTHON_BY_DEFAULT`, in interpreter/build_info.py, each left out with its reason) is compiled from
its unchanged Python source (typed where a Cython `.pxd` sits beside it: engine/state.pxd,
engine/unit_index.pxd, the listings' engine/actions.pxd, moves.pxd, abilities.pxd and core.pxd,
the requirement checks' engine/held_conditions.pxd, the heuristic bot's engine/rng.pxd and
options.pxd, the rules' commonest reads' engine/basics.pxd, phases.pxd and core_procs.pxd, and
the extension types of engine/rules_fields.pxd (the rules context, by which the others type it),
state_fields.pxd (the State's unsaved fields, by which the rules context types its state) and
context.pxd; see `declarations`) and shipped beside that source, so the installed engine
imports the extension and plays the same games faster. The default build is made to be quick: those modules
only, on every core at once (largest first), at `-O2` (DEFAULT_OPTIMIZATION: measured against
`-O1` and Python's own `-O3` by benchmarks/compiled_set.py). The Python source stays the
reference: the checkout runs it, the tests compare the installed engine's games against it
(tests/test_compiled_core.py), and `benchmarks/compare.py` measures both.

`NECRO_COMPILE_ALL=1` asks for the full build: every module of CORE, at Python's own optimisation
(what earlier versions built by default). `NECRO_PGO=1` asks for the full build profile-guided
(GCC): compiled once counting what runs, trained on the seeded games of
interpreter/build_training.py, compiled again with the counts. The build falls back to the pure
Python wheel when there is no C compiler or Cython; pip hides a build's output unless `-v`, so the
hook then writes one line to the terminal (`/dev/tty`, else stderr: `announce`), and the wheel
carries a record of why (`build_info.RECORD`) that `necro --version` and the first `necro` run
print. `NECRO_PURE_PYTHON=1` asks for the pure wheel, and editable installs are always pure, so an
edit takes effect at once.

    python hatch_build.py TREE OUT      # compile TREE's full core into OUT, trained (what NECRO_PGO=1 builds)
"""
from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any, Callable


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
# The one import package: the extensions are named in it (`necronomicon.interpreter.engine.flow`), and
# the wheel lays the checkout's interpreter/ out as necronomicon/interpreter/ (pyproject.toml).
PACKAGE = "necronomicon"
# Cython reads annotations as C types by default; the engine's annotations are hints, not contracts.
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}
TRAINING_TIMEOUT = 900   # seconds the training games of a profile-guided build may take
# The default build's optimisation (Python's own is -O3). Measured on the default set
# (benchmarks/compiled_set.py, 3 rounds, 2026-12-05): -O2 took 194 s of build CPU against -O3's
# 291 s (all modules) and played as fast within the machine's noise (0.98x, 1.05x, 0.96x of the full
# build); -O1 took 118 s but played the Duel and the 4-player heuristic games 6% and 12% slower.
DEFAULT_OPTIMIZATION = "-O2"


def profile_guided_asked(env: dict[str, str] | os._Environ[str]) -> bool:
    """Whether the environment asks for the profile-guided build (`NECRO_PGO=1`; off by default,
    as the training games double the install's time)."""
    return env.get("NECRO_PGO", "").strip() == "1"


def full_build_asked(env: dict[str, str] | os._Environ[str]) -> bool:
    """Whether the environment asks for the full build: every module of CORE at Python's own
    optimisation (`NECRO_COMPILE_ALL=1`, or `NECRO_PGO=1`, which trains the full build)."""
    return env.get("NECRO_COMPILE_ALL", "").strip() == "1" or profile_guided_asked(env)


def cores() -> int:
    """The cores this process may run on (its affinity, where the system says; else all)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def announce(line: str, tty: str = "/dev/tty") -> str:
    """Write `line` where the person running pip sees it: their terminal (`tty`), which pip does
    not capture, or stderr (pip's log, shown with -v or on failure) when there is none; which one."""
    try:
        with open(tty, "w", encoding="utf-8") as out:
            out.write(line + "\n")
        return tty
    except OSError:
        print(line, file=sys.stderr, flush=True)
        return "stderr"


class CoreBuildError(Exception):
    """The core could not be compiled (no Cython, no C compiler, or a module Cython refuses)."""


def core_modules(tree: Path, everything: bool = False) -> list[tuple[str, Path]]:
    """(dotted module name in the package, source) of every core module under `tree`, in path
    order: `build_info.CORE` without `PYTHON_BY_DEFAULT`, or all of it (`everything`)."""
    return [(".".join((PACKAGE, *p.relative_to(tree).with_suffix("").parts)), p)
            for p in build_info.core_sources(tree / "interpreter", everything)]


def compile_flags(everything: bool = False) -> list[str]:
    """The C compiler's flags beyond Python's own: no debug symbols (a fifth of the size); with GCC
    on Linux, calls into libpython straight through its table of addresses instead of the PLT,
    and no interposition of the module's own functions (about 2% in a Duel, measured); and, but
    for the full build (`everything`), DEFAULT_OPTIMIZATION after Python's own."""
    if sys.platform == "win32":
        return []
    quick = [] if everything else [DEFAULT_OPTIMIZATION]
    if sys.platform.startswith("linux"):
        return ["-g0", "-fno-plt", "-fno-semantic-interposition", *quick]
    return ["-g0", *quick]


def compile_core(tree: Path, out: Path, jobs: int | None = None, train: bool = False,
                 notice: Callable[[str], None] | None = None, everything: bool = False) -> list[Path]:
    """Compile `tree`'s core modules into `out` (laid out as the tree is, each beside where its
    source sits: out/interpreter/engine/flow.so for necronomicon.interpreter.engine.flow) with `jobs` processes (default:
    one per core); return the extension files. The default set at DEFAULT_OPTIMIZATION, or
    `everything` at Python's own. `train`: a profile-guided build, where the compiler
    supports it (`profiles_supported`): compiled once counting what runs, trained on the games of
    the tree's `interpreter/build_training.py`, compiled again with the counts. If the training
    cannot run, the core is compiled without a profile, and `notice` is told why."""
    jobs = jobs or cores()
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as exc:
        raise CoreBuildError(f"Cython and setuptools are needed ({exc})") from None
    tree, out = tree.resolve(), out.resolve()
    temp = Path(tempfile.mkdtemp(prefix="necro-core-"))
    cwd = os.getcwd()
    os.chdir(tree)  # Cython names each extension's source by its path from here
    try:
        flags = compile_flags(everything)
        # the largest first, so that no core is left with a big module at the end
        modules = sorted(core_modules(tree, everything), key=lambda m: -m[1].stat().st_size)
        exts = [Extension(name, [str(src.relative_to(tree))]) for name, src in modules]
        exts = cythonize(exts, compiler_directives=DIRECTIVES, build_dir=str(temp / "c"), nthreads=jobs,
                         quiet=True, force=True, include_path=[str(declarations(tree, temp / "pxd"))])
        for ext in exts:
            relative_cimports(Path(ext.sources[0]), ext.name)
        profile: list[str] = []
        if train and not profiles_supported():
            (notice or print)("the C compiler takes no GCC profiles: the compiled core is built without one")
        elif train:
            why = _counted(tree, exts, flags, temp, jobs)
            if why:
                (notice or print)(f"the compiled core is built without a profile: {why}")
            else:
                profile = ["-fprofile-use", "-fprofile-correction", "-Wno-missing-profile"]
        _build_ext(exts, flags + profile, [], temp / "lib", temp / "o", jobs)
        _unpack(temp / "lib", out)
    except (Exception, SystemExit) as exc:  # cythonize and distutils report failures both ways
        raise CoreBuildError(f"{type(exc).__name__}: {exc}") from None
    finally:
        os.chdir(cwd)
        shutil.rmtree(temp, ignore_errors=True)
    built = []
    for name, _ in core_modules(tree, everything):
        *package, module = name.split(".")[1:]
        built += [p for p in out.joinpath(*package).glob(module + ".*") if p.suffix in (".so", ".pyd")]
    return sorted(built)


def declarations(tree: Path, into: Path) -> Path:
    """The Cython declarations beside the core's sources (`state.pxd` beside `state.py`: typed
    locals and C-level functions for the compiled core; the Python source stays the reference),
    copied under `into` by their module names (into/necronomicon/interpreter/engine/state.pxd):
    Cython finds a module's .pxd by its dotted name, and the checkout's folders are mapped into
    the package, not named after it, so beside the source it would not see them. Returns `into`."""
    for pxd in sorted((tree / "interpreter").rglob("*.pxd")):
        target = into / PACKAGE / pxd.relative_to(tree)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(pxd, target)
    # an empty __init__.pxd in every folder makes it a package to Cython, so that a declaration can
    # cimport modules from it (`from necronomicon.interpreter.engine cimport core`) in a clean build
    # environment, where no installed copy of the package shows Cython its __init__.py files
    top = into / PACKAGE
    for folder in [top, *(p for p in top.rglob("*") if p.is_dir())] if top.is_dir() else []:
        (folder / "__init__.pxd").touch()
    return into


# A relative import for the type imports of a module's cimports (below): its package's module `name`,
# `level` packages up, imported as `from . import name` would (a non-empty fromlist: the module itself).
_RELATIVE_IMPORT = r"""
static PyObject *__necro_import_relative(PyObject *globals, const char *name, int level) {
    PyObject *fromlist = Py_BuildValue("(s)", "*"), *module;
    if (!fromlist) return NULL;
    module = PyImport_ImportModuleLevel(name, globals, NULL, fromlist, level);
    Py_DECREF(fromlist);
    return module;
}
"""
_MODULE_INIT = "static int __Pyx_modinit_"   # (the first of the functions run as the module is imported)


def relative_cimports(source: Path, module: str) -> bool:
    """Make the C source `source` of core module `module` import the modules it cimports (for their
    extension types: rules_fields.pxd's RulesFields, which context.pxd and others cimport)
    relative to its own package instead of by their names in the wheel
    (`necronomicon.interpreter.engine.rules_fields`), so that the core runs under whatever name it
    is imported, as its Python source does: benchmarks/measure.py and compare.py import a tree's
    compiled core as `interpreter`. Whether the source had such an import."""
    text = source.read_text(encoding="utf-8")
    here = module.split(".")[:-1]

    def relative(match: re.Match[str]) -> str:
        there = match.group(1).split(".")
        shared = 0
        while shared < min(len(here), len(there) - 1) and here[shared] == there[shared]:
            shared += 1
        name = ".".join(there[shared:])
        return f'__necro_import_relative(__pyx_mstate->__pyx_d, "{name}", {len(here) - shared + 1})'

    changed = re.sub(r'PyImport_ImportModule\("(' + PACKAGE + r'\.[\w.]+)"\)', relative, text)
    if changed == text:
        return False
    at = changed.index(_MODULE_INIT)
    source.write_text(changed[:at] + _RELATIVE_IMPORT + changed[at:], encoding="utf-8")
    return True


def _counted(tree: Path, exts: list[Any], flags: list[str], temp: Path, jobs: int) -> str:
    """Build `exts` counting what runs and play the training games on them, leaving each module's
    counts beside its object in `temp / "o"` (where the next build of the same objects finds
    them); why that could not be done, or "" when it was."""
    try:
        _build_ext(exts, flags + ["-fprofile-generate"], ["-fprofile-generate"], temp / "counting",
                   temp / "o", jobs)
    except (Exception, SystemExit) as exc:  # a compiler without GCC's profile runtime, say
        return f"the counting build failed ({type(exc).__name__}: {exc})"
    why = _train(tree, temp / "counting", temp / "train")
    if not why and not any((temp / "o").rglob("*.gcda")):
        why = "the training games wrote no profile"
    return why


def _unpack(lib: Path, out: Path) -> None:
    """Move the extensions built into `lib` (as lib/necronomicon/interpreter/...) to `out` as the
    tree lays them out (out/interpreter/...)."""
    for ext in (lib / PACKAGE).rglob("*"):
        if ext.is_file():
            target = out / ext.relative_to(lib / PACKAGE)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(ext), target)


def _build_ext(exts: list[Any], cflags: list[str], ldflags: list[str], lib: Path, objects: Path, jobs: int) -> None:
    """Compile and link `exts` (Cython's C) into `lib`, every object made afresh in `objects`."""
    from setuptools import Distribution
    for ext in exts:
        ext.extra_compile_args, ext.extra_link_args = list(cflags), list(ldflags)
    dist = Distribution({"ext_modules": exts, "script_name": "hatch_build.py",
                         "script_args": ["-q", "build_ext", "--force", "--build-lib", str(lib), "--build-temp",
                                         str(objects), "--parallel", str(jobs)]})
    dist.parse_command_line()
    dist.run_commands()


def profiles_supported() -> bool:
    """Whether the C compiler takes GCC's profile options (GCC on Linux; clang's profiles differ)."""
    if not sys.platform.startswith("linux"):
        return False
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")   # "ccache gcc" too
    try:
        said = subprocess.run([*cc, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, ValueError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in said


def _train(tree: Path, counting: Path, run: Path) -> str:
    """Play `interpreter/build_training.py` on the counting build, in a copy of `tree` at `run` (its
    Python, its content and the counting extensions); why it could not, or "" when it did."""
    if not (tree / "interpreter" / "build_training.py").is_file():
        return "the tree has no interpreter/build_training.py"
    skip = shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
    for package in (PACKAGE, "interpreter"):
        shutil.copytree(tree / package, run / package, ignore=skip)
    for data in ("content", "schema", "grammar"):
        if (tree / data).is_dir():
            shutil.copytree(tree / data, run / data)
    for ext in (counting / PACKAGE).rglob("*"):
        if ext.suffix in (".so", ".pyd"):
            shutil.copy2(ext, run / ext.relative_to(counting / PACKAGE))
    # the tree first; pip's isolated build environment reaches its packages through PYTHONPATH too
    path = os.pathsep.join(p for p in (str(run), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run([sys.executable, "-m", "necronomicon.interpreter.build_training"], cwd=run, env=env,
                              capture_output=True, text=True, timeout=TRAINING_TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"the training games took more than {TRAINING_TIMEOUT} s"
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return f"the training games failed ({lines[-1] if lines else f'exit {done.returncode}'})"
    return ""


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
        root = Path(self.root)
        out = root / "build" / "compiled-core"
        shutil.rmtree(out, ignore_errors=True)   # nothing of an earlier build goes into the wheel
        if os.environ.get("NECRO_PURE_PYTHON") == "1":
            self.app.display_info("necronomicon: NECRO_PURE_PYTHON=1, building the pure Python wheel")
            return
        train, everything = profile_guided_asked(os.environ), full_build_asked(os.environ)
        said: list[str] = []
        try:
            built = compile_core(root, out, train=train, notice=said.append, everything=everything)
        except CoreBuildError as exc:
            # pip shows the hook's own output only with -v: one line on the terminal, and the record
            # makes `necro --version` and the first run say it
            announce(f"necronomicon: the compiled core could not be built ({str(exc)[:160]}); the engine "
                     "installs as pure Python: the same games, slower (`pip install -v .` shows the build)")
            self.app.display_warning(f"necronomicon: the compiled core was not built, the engine stays "
                                     f"pure Python ({exc})")
            self._ship(build_data, out, [], {"compiled": False, "profile_guided": False, "why": str(exc),
                                             "everything": everything})
            return
        for why in said:
            self.app.display_warning(f"necronomicon: {why}")
        why = "; ".join(said) if train else "NECRO_PGO=1 not set"
        self._ship(build_data, out, built, {"compiled": True, "profile_guided": train and not said, "why": why,
                                            "everything": everything})
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"necronomicon: compiled core, {len(built)} modules"
                              + (", every one of CORE" if everything else f" ({DEFAULT_OPTIMIZATION})") + ", "
                              + ("profile-guided" if train and not said else f"not profile-guided ({why})"))

    @staticmethod
    def _ship(build_data: dict, out: Path, built: list[Path], facts: dict[str, Any]) -> None:
        """Put `built` and the build record (`facts`, which `necro --version` reads) into the wheel."""
        record = out / "interpreter" / build_info.RECORD
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps(facts) + "\n")
        for path in [*built, record]:
            build_data["force_include"][str(path)] = f"{PACKAGE}/{path.relative_to(out).as_posix()}"

if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python hatch_build.py TREE OUT")
    if Path(sys.argv[2]).resolve() == Path(__file__).resolve().parent:
        sys.exit("hatch_build.py: not into the checkout itself: the extensions would hide its Python source")
    try:
        print(len(compile_core(Path(sys.argv[1]), Path(sys.argv[2]), train=True, everything=True)), "modules compiled")
    except CoreBuildError as exc:
        sys.exit(f"hatch_build.py: {exc}")
