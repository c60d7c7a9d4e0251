"""The compiled core (hatch_build.py) plays exactly the games of the Python engine it is compiled from.

The checkout's tests run the Python source; `pip install .` ships the same modules compiled with
Cython. Here the installed engine and the checkout play the same seeded games (tests/
compiled_core_games.py) and must agree on every answer, digest, clone, save, load and undo. Where
no compiled engine of this very checkout is installed the comparison is skipped, unless
NECRO_EXPECT_COMPILED_CORE=1 (set by .ci/run after its `pip install`) makes that a failure.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import hatch_build  # the build hook's module, at the checkout's root (on the path: tests/ is a package)

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "compiled_core_games.py"

EXPECTED = os.environ.get("NECRO_EXPECT_COMPILED_CORE") == "1"


def _games(pythonpath: str | None, cwd: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    r = subprocess.run([sys.executable, str(GAMES)], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=600, check=False)
    if r.returncode != 0:
        return {"error": (r.stderr.strip().splitlines() or ["no output"])[-1]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def _not_this_checkout(folder: Path) -> list[str]:
    """The compiled modules whose installed Python source differs from the checkout's (a stale install)."""
    out = []
    for name, src in hatch_build.core_modules(ROOT):
        installed = folder.parent.joinpath(*name.split(".")[1:]).with_suffix(".py")
        if not installed.is_file() or installed.read_bytes() != src.read_bytes():
            out.append(name)
    return out


def _skip_or_fail(reason: str) -> None:
    if EXPECTED:
        pytest.fail(reason)
    pytest.skip(reason)


def test_the_installed_compiled_core_plays_the_python_engines_games(tmp_path: Path) -> None:
    installed = _games(None, tmp_path)
    if "error" in installed:
        _skip_or_fail(f"no installed engine could play ({installed['error']}): pip install . again")
    folder = Path(installed["folder"])
    assert folder != ROOT / "interpreter", "the installed run imported the checkout"
    if installed["compiled_modules"] == 0:
        _skip_or_fail(f"the installed engine at {folder} is pure Python (no C compiler or Cython at install?)")
    stale = _not_this_checkout(folder)
    if stale:
        _skip_or_fail(f"the installed engine is not this checkout's ({', '.join(stale[:3])} differ): "
                      "pip install . again")
    asked = hatch_build.full_build_asked(os.environ) if EXPECTED else installed["modules"] > len(
        hatch_build.core_modules(ROOT))
    assert installed["compiled_modules"] == installed["modules"] == len(hatch_build.core_modules(ROOT, asked)), \
        "every module of the build's set is compiled (build_info.CORE without PYTHON_BY_DEFAULT; NECRO_COMPILE_ALL=1: all)"
    if EXPECTED and hatch_build.profiles_supported() and hatch_build.profile_guided_asked(os.environ):
        assert installed["profile_guided"] is True, "NECRO_PGO=1 did not train the compiled core (see pip -v)"
    elif EXPECTED:   # the default build (.ci/run) compiles without the training games
        assert installed["profile_guided"] is False, "the default build is not profile-guided (NECRO_PGO=1 asks)"
    reference = _games(str(ROOT), tmp_path)
    assert "error" not in reference, reference
    assert reference["compiled_modules"] == 0 and Path(reference["folder"]) == ROOT / "interpreter"
    assert len(reference["games"]) == len(installed["games"]) >= 18
    differ = [i for i, (a, b) in enumerate(zip(reference["games"], installed["games"])) if a != b]
    assert not differ, f"the compiled core played games {differ} differently from the Python engine"
    assert installed["decision"] == reference["decision"], "the compiled Decision behaves unlike the Python one"
    assert installed["option"] == reference["option"], "the compiled Option behaves unlike the Python one"
    assert reference["trues_lost"] == 0
    assert installed["trues_lost"] == 0, "the compiled core lost references to True in failing checks " \
        "(a chained comparison? see tests/test_compiled_refcounts.py)"


# games played through the terminal front end (tools/), by every kind of bot: what a person reads
PLAYED = [["--ruleset", "duel", "--players", "2", "--agents", "random,mcts:4:depth=10", "--seed", "3"],
          ["--ruleset", "multiplayer", "--players", "4", "--agents", "heuristic", "--seed", "5",
           "--expansions", "independents,azathoth"]]


def _played(args: list[str], pythonpath: str | None, cwd: Path) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    r = subprocess.run([sys.executable, "-m", "necronomicon.tools.necro", "play", *args], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=600, check=False)
    return r.returncode, r.stdout, r.stderr


def test_the_installed_compiled_core_shows_the_terminal_the_python_engines_games(tmp_path: Path) -> None:
    """The front ends and bots read the engine's records, and the compiled core refuses what its
    typed declarations do not take (a bot that handed a `Game` where the rules context is typed
    once failed only compiled): `necro play` through the installed compiled core prints exactly
    what it prints through the checkout's Python engine, line for line."""
    installed = _games_folder(tmp_path)
    for args in PLAYED:
        code, out, err = _played(args, None, tmp_path)
        assert code == 0, f"necro play {' '.join(args)} on the installed core: {err.strip()[-800:]}"
        ref_code, ref_out, ref_err = _played(args, str(ROOT), tmp_path)
        assert ref_code == 0, ref_err[-800:]
        differ = [i for i, (a, b) in enumerate(zip(ref_out.splitlines(), out.splitlines())) if a != b]
        assert out == ref_out, (f"necro play {' '.join(args)}: the compiled core ({installed}) printed otherwise "
                                f"from line {differ[0] if differ else min(len(out.splitlines()), len(ref_out.splitlines()))}")
        assert "game over" in out or "winner" in out or "humanity" in out


def _games_folder(tmp_path: Path) -> Path:
    """The installed compiled core of this very checkout, or skip (fail with NECRO_EXPECT_COMPILED_CORE=1)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-c", "from necronomicon.interpreter.build_info import engine_build; "
                        "b = engine_build(); print(b.compiled, b.folder)"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120, check=False)
    if r.returncode != 0:
        _skip_or_fail(f"no installed engine ({(r.stderr.strip().splitlines() or ['no output'])[-1]}): pip install . again")
    compiled, folder_text = r.stdout.strip().split(" ", 1)
    folder = Path(folder_text)
    if folder == ROOT / "interpreter" or compiled == "0":
        _skip_or_fail(f"no installed compiled core apart from the checkout ({folder})")
    stale = _not_this_checkout(folder)
    if stale:
        _skip_or_fail(f"the installed engine is not this checkout's ({', '.join(stale[:3])} differ)")
    return folder


def test_core_modules_are_the_engine_effects_and_search_but_not_the_loader() -> None:
    everything = [n for n, _ in hatch_build.core_modules(ROOT, everything=True)]
    assert "necronomicon.interpreter.engine.flow" in everything and "necronomicon.interpreter.effects.runtime" in everything
    assert "necronomicon.interpreter.search.tree" in everything and "necronomicon.interpreter.bots" in everything
    assert not any(n.startswith(("necronomicon.interpreter.content.", "necronomicon.interpreter.rl.")) or n.endswith("__init__")
                   for n in everything)
    assert "necronomicon.interpreter.paths" not in everything   # it finds the content through its own __file__


def test_the_default_set_is_the_core_without_the_declared_modules_each_with_its_reason() -> None:
    from necronomicon.interpreter import build_info
    package = ROOT / "interpreter"
    everything = build_info.core_sources(package, everything=True)
    left = build_info.PYTHON_BY_DEFAULT
    for name, why in left.items():   # each names a module the full build compiles, and says why not by default
        assert package / name in everything, f"PYTHON_BY_DEFAULT names {name}, which is no module of CORE"
        assert isinstance(why, str) and len(why) > 10
    default = build_info.core_sources(package)
    assert default == [p for p in everything if p.relative_to(package).as_posix() not in left]
    assert [p for _, p in hatch_build.core_modules(ROOT)] == default
    # what runs in every decision stays compiled: the rules engine, the effect language's evaluation
    # (the compiler's closures run then too), the search bot
    names = {p.relative_to(package).as_posix() for p in default}
    assert {"engine/flow.py", "engine/state.py", "engine/actions.py", "engine/agents.py", "engine/view.py",
            "effects/runtime.py", "effects/program.py", "effects/closures.py", "effects/compiler.py",
            "search/agent.py", "search/tree.py", "search/evaluation.py"} <= names
    assert all(n in names for n in (p.relative_to(package).as_posix() for p in (package / "engine").rglob("*.py"))
               if n.startswith("engine/primitives/") and not n.endswith("__init__.py"))


def test_each_cython_declaration_file_sits_beside_a_compiled_module_and_reaches_cython(tmp_path: Path) -> None:
    """A .pxd types its module only in the compiled core, and Cython finds it by the module's
    dotted name: `declarations` lays each out under necronomicon/, and each sits beside a module
    the default build compiles (a .pxd beside a module left in Python would type nothing)."""
    from necronomicon.interpreter import build_info
    package = ROOT / "interpreter"
    found = sorted(package.rglob("*.pxd"))
    assert found, "the compiled core's typed queries need their declarations (engine/state.pxd)"
    compiled = set(build_info.core_sources(package))
    out = hatch_build.declarations(ROOT, tmp_path)
    for pxd in found:
        assert pxd.with_suffix(".py") in compiled, f"{pxd.name} types a module the default build leaves in Python"
        laid = out / hatch_build.PACKAGE / pxd.relative_to(ROOT)
        assert laid.read_bytes() == pxd.read_bytes()


def test_the_default_build_is_quicker_flags_the_full_build_pythons_own() -> None:
    default, full = hatch_build.compile_flags(), hatch_build.compile_flags(everything=True)
    if sys.platform != "win32":
        assert default == full + [hatch_build.DEFAULT_OPTIMIZATION]
        assert not any(f.startswith("-O") for f in full)   # Python's own optimisation (its CFLAGS)
    assert hatch_build.cores() >= 1


def _package(folder: Path) -> None:
    """The one import package's __init__ in `folder`, which then imports the folder's interpreter/."""
    (folder / "necronomicon").mkdir(parents=True, exist_ok=True)
    (folder / "necronomicon" / "__init__.py").write_bytes((ROOT / "necronomicon" / "__init__.py").read_bytes())


@pytest.fixture
def small_tree(tmp_path: Path) -> Path:
    _package(tmp_path)
    engine = tmp_path / "interpreter" / "engine"
    engine.mkdir(parents=True)
    (engine / "__init__.py").write_text("")
    (engine / "sums.py").write_text("def total(xs: list[int]) -> int:\n    return sum(x * x for x in xs)\n\n\n"
                                    "def as_tuple() -> list:\n    return (1, 2)  # an annotation is a hint\n")
    return tmp_path


def test_compile_core_builds_an_importable_extension_from_unchanged_source(small_tree: Path) -> None:
    pytest.importorskip("Cython", reason="pip install '.[bench]' to compile the core")
    out = small_tree / "out"
    built = hatch_build.compile_core(small_tree, out, jobs=1)
    assert [p.relative_to(out).parts[:2] for p in built] == [("interpreter", "engine")]
    assert built[0].name.startswith("sums.") and built[0].suffix in (".so", ".pyd")
    # -S: no site-packages, so an installed `necronomicon` does not hide the small tree's
    _package(out)
    r = subprocess.run([sys.executable, "-S", "-c", "from necronomicon.interpreter.engine import sums; "
                        "print(sums.__file__, sums.total([1, 2, 3]), sums.as_tuple())"],
                       cwd=out, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    file, total, pair = r.stdout.split(" ", 2)
    assert file.endswith(built[0].name) and total == "14" and pair.strip() == "(1, 2)"


def test_a_module_that_cimports_a_type_of_another_imports_it_under_the_name_the_core_is_imported_by(
        small_tree: Path) -> None:
    """A declaration may cimport another module's extension type (rules_fields.pxd's RulesFields):
    the compiled module imports that module at its own import, relative to its own package, so
    the core runs as `necronomicon.interpreter` (the wheel) and as `interpreter` (measure.py and
    compare.py import a tree's core so), not only under the name it was compiled with."""
    pytest.importorskip("Cython", reason="pip install '.[bench]' to compile the core")
    engine = small_tree / "interpreter" / "engine"
    (engine / "box.py").write_text("class Box:\n    __slots__ = (\"v\",)\n")
    (engine / "box.pxd").write_text("cdef class Box:\n    cdef public object v\n")
    (engine / "reads.py").write_text("def read(b):\n    return b.v\n")
    (engine / "reads.pxd").write_text("from necronomicon.interpreter.engine.box cimport Box\n\n"
                                      "cpdef object read(Box b)\n")
    out = small_tree / "out"
    built = hatch_build.compile_core(small_tree, out, jobs=1)
    assert sorted(p.name.split(".")[0] for p in built) == ["box", "reads", "sums"]
    (out / "interpreter" / "engine" / "__init__.py").write_text("")
    _package(out)
    for package in ("interpreter", "necronomicon.interpreter"):
        # -S: no site-packages, so an installed `necronomicon` does not hide the small tree's
        # (a Box of another copy of box.so would be refused by `read`; Cython enters each compiled
        # module in sys.modules under its compiled name too, the same module object)
        r = subprocess.run([sys.executable, "-S", "-c", f"import sys; from {package}.engine import reads, box; "
                            "b = box.Box(); b.v = 7; print(reads.read(b), reads.__file__.endswith('.so'), "
                            "'necronomicon' in sys.modules)"],
                           cwd=out, capture_output=True, text=True, check=False)
        assert r.returncode == 0, r.stderr
        assert r.stdout.split() == ["7", "True", str(package.startswith("necronomicon"))]


def test_a_declaration_cimports_modules_from_a_package_where_no_copy_is_installed(
        small_tree: Path, tmp_path: Path) -> None:
    """`from necronomicon.interpreter.engine cimport box` (actions.pxd cimports its helpers' modules
    so) compiles in pip's clean build environment, where no installed copy of the package shows
    Cython its __init__.py files: the copied declarations make each folder a package themselves."""
    pytest.importorskip("Cython", reason="pip install '.[bench]' to compile the core")
    import Cython
    import setuptools
    engine = small_tree / "interpreter" / "engine"
    (engine / "box.py").write_text("def twice(x):\n    return 2 * x\n")
    (engine / "box.pxd").write_text("cpdef object twice(object x)\n")
    (engine / "calls.py").write_text("from . import box\n\n\ndef four(x):\n    return box.twice(box.twice(x))\n")
    (engine / "calls.pxd").write_text("from necronomicon.interpreter.engine cimport box\n\ncpdef object four(object x)\n")
    # the build in a Python that sees the build's packages and the hook, but no copy of necronomicon
    # (-S: no site-packages; an installed or editable necronomicon would show Cython the package)
    clean = tmp_path / "clean"
    clean.mkdir()
    for module in (Cython, setuptools):
        folder = Path(module.__file__).parent
        (clean / folder.name).symlink_to(folder)
    site = Path(Cython.__file__).parent.parent
    for name in ("cython.py", "pkg_resources", "_distutils_hack", "pyximport"):
        if (site / name).exists():
            (clean / name).symlink_to(site / name)
    (clean / "hatch_build.py").symlink_to(ROOT / "hatch_build.py")
    out = small_tree / "out"
    r = subprocess.run([sys.executable, "-S", "-c", "import sys, hatch_build; from pathlib import Path; "
                        f"print(len(hatch_build.compile_core(Path({str(small_tree)!r}), Path({str(out)!r}), jobs=1)))"],
                       cwd=clean, env={**os.environ, "PYTHONPATH": str(clean)}, capture_output=True, text=True,
                       check=False)
    assert r.returncode == 0 and r.stdout.split()[-1] == "3", r.stderr[-2000:]
    _package(out)
    r = subprocess.run([sys.executable, "-S", "-c", "from necronomicon.interpreter.engine import calls; "
                        "print(calls.four(5), calls.__file__.endswith('.so'))"],
                       cwd=out, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["20", "True"]


TRAINING = """import sys
from necronomicon.interpreter.engine import sums
if not sums.__file__.endswith(('.so', '.pyd')):
    sys.exit('trained on ' + sums.__file__)
for _ in range(1000):
    sums.total(list(range(50)))
"""


def test_a_trained_build_plays_the_training_games_on_the_counting_extension(small_tree: Path) -> None:
    pytest.importorskip("Cython", reason="pip install '.[bench]' to compile the core")
    if not hatch_build.profiles_supported():
        pytest.skip("the C compiler takes no GCC profiles: the build is not trained")
    (small_tree / "interpreter" / "build_training.py").write_text(TRAINING)
    said: list[str] = []
    built = hatch_build.compile_core(small_tree, small_tree / "out", jobs=1, train=True, notice=said.append)
    assert said == [] and len(built) == 1   # trained, and the counts were found (else a notice says why)
    _package(small_tree / "out")
    r = subprocess.run([sys.executable, "-S", "-c", "from necronomicon.interpreter.engine import sums; "
                        "print(sums.total([1, 2, 3]))"], cwd=small_tree / "out", capture_output=True, text=True, check=False)
    assert r.returncode == 0 and r.stdout.strip() == "14", r.stderr


def test_training_that_fails_gives_a_build_without_a_profile_and_says_why(small_tree: Path) -> None:
    pytest.importorskip("Cython", reason="pip install '.[bench]' to compile the core")
    if not hatch_build.profiles_supported():
        pytest.skip("the C compiler takes no GCC profiles: the build is not trained")
    (small_tree / "interpreter" / "build_training.py").write_text("raise ValueError('no games today')\n")
    said: list[str] = []
    built = hatch_build.compile_core(small_tree, small_tree / "out", jobs=1, train=True, notice=said.append)
    assert len(built) == 1 and len(said) == 1
    assert "without a profile" in said[0] and "ValueError: no games today" in said[0]


def test_a_module_cython_refuses_is_one_error_naming_it(small_tree: Path) -> None:
    pytest.importorskip("Cython", reason="pip install '.[bench]' to compile the core")
    (small_tree / "interpreter" / "engine" / "broken.py").write_text("def f(:\n    pass\n")
    with pytest.raises(hatch_build.CoreBuildError, match="broken.py"):
        hatch_build.compile_core(small_tree, small_tree / "out", jobs=1)


def test_no_c_compiler_is_one_error_so_the_install_falls_back_to_python(small_tree: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("Cython", reason="pip install '.[bench]' to compile the core")
    monkeypatch.setenv("CC", str(small_tree / "no-such-compiler"))
    with pytest.raises(hatch_build.CoreBuildError, match="CompileError|no-such-compiler|exit status"):
        hatch_build.compile_core(small_tree, small_tree / "out", jobs=1)
    assert not list((small_tree / "out").rglob("*.so"))


def test_the_running_build_is_read_from_the_files_and_agrees_with_what_hatch_build_compiles(tmp_path: Path) -> None:
    from necronomicon.interpreter import build_info
    assert hatch_build.build_info.CORE == build_info.CORE   # the build reads the same file
    assert [p for _, p in hatch_build.core_modules(ROOT)] == build_info.core_sources(ROOT / "interpreter")
    here = build_info.engine_build()
    assert here.folder == ROOT / "interpreter" and here.compiled == 0
    assert here.modules == len(hatch_build.core_modules(ROOT))
    assert here.describe() == f"Python source, {ROOT / 'interpreter'}"
    assert build_info.EngineBuild(65, 65, tmp_path).describe() == f"compiled core (65 modules), {tmp_path}"
    assert build_info.EngineBuild(65, 65, tmp_path, True).describe() == \
        f"compiled core (65 modules, profile-guided), {tmp_path}"
    assert build_info.EngineBuild(3, 65, tmp_path).describe().startswith("partly compiled (3 of 65 core modules)")
    r = subprocess.run([sys.executable, "-m", "necronomicon.tools.necro", "--version"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60, check=False)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.startswith("necro ") and r.stdout.rstrip().endswith(f"engine: {here.describe()}")


def test_the_build_record_says_whether_the_compiled_core_was_profile_guided(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.machinery

    from necronomicon.interpreter import build_info
    package = tmp_path / "interpreter"
    (package / "engine").mkdir(parents=True)
    (package / "engine" / "flow.py").write_text("")
    monkeypatch.setattr(build_info, "CORE", ("engine",))
    monkeypatch.setattr(build_info, "_ROOT", package)
    assert build_info.engine_build().profile_guided is None   # pure Python: no record read
    (package / "engine" / ("flow" + importlib.machinery.EXTENSION_SUFFIXES[0])).write_bytes(b"")
    assert build_info.engine_build().profile_guided is None   # compiled, no record
    record = package / build_info.RECORD
    for text, guided in (('{"profile_guided": true, "why": ""}', True), ('{"profile_guided": false}', False),
                         ("not json", None), ('{"profile_guided": "yes"}', None), ("[1]", None)):
        record.write_text(text)
        assert build_info.engine_build().profile_guided is guided, text


def test_a_counting_build_that_fails_gives_a_build_without_a_profile(small_tree: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("Cython", reason="pip install '.[bench]' to compile the core")
    if not hatch_build.profiles_supported():
        pytest.skip("the C compiler takes no GCC profiles: the build is not trained")
    (small_tree / "interpreter" / "build_training.py").write_text(TRAINING)
    real = hatch_build._build_ext

    def no_profile_runtime(exts, cflags, *rest):  # type: ignore[no-untyped-def]
        if "-fprofile-generate" in cflags:
            raise SystemExit("error: command 'gcc' failed: cannot find -lgcov")
        return real(exts, cflags, *rest)
    monkeypatch.setattr(hatch_build, "_build_ext", no_profile_runtime)
    said: list[str] = []
    built = hatch_build.compile_core(small_tree, small_tree / "out", jobs=1, train=True, notice=said.append)
    assert len(built) == 1 and len(said) == 1 and "counting build failed" in said[0] and "lgcov" in said[0]


def test_the_readme_gives_the_number_of_modules_the_default_build_compiles_and_leaves() -> None:
    """The README's install paragraph counts the modules `pip install .` compiles and the ones it
    leaves in Python; a module added to the core (or to PYTHON_BY_DEFAULT) must change both numbers."""
    import re
    from necronomicon.interpreter import build_info
    package = ROOT / "interpreter"
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    m = re.search(r"`hatch_build.py`\): the (\d+) modules that run while a game is played "
                  r"\(`interpreter/build_info.py` lists the (\d+) it leaves in Python", text)
    assert m, "the README's install paragraph no longer gives the two counts"
    assert int(m.group(1)) == len(build_info.core_sources(package))
    assert int(m.group(2)) == len(build_info.PYTHON_BY_DEFAULT)
