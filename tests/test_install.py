"""The installed `necro` finds its content, schemas and grammar without the source checkout."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path


def test_installed_command_validates_builtin_content_from_any_folder(tmp_path: Path) -> None:
    exe = shutil.which("necro")
    assert exe, "install the project first (see README): the `necro` command is missing"
    r = subprocess.run([exe, "validate"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith("ok: content is valid")


def test_paths_point_at_real_folders() -> None:
    from necronomicon.interpreter import paths
    assert (paths.content_dir() / "rulesets").is_dir()
    assert paths.grammar_file().is_file()
    assert any(paths.schema_dir().glob("*.schema.json"))
    assert sys.version_info >= (3, 11)


def test_the_profile_guided_build_is_asked_for_with_necro_pgo_1() -> None:
    import hatch_build
    assert not hatch_build.profile_guided_asked({})             # the default: compiled, not trained
    assert not hatch_build.profile_guided_asked({"NECRO_PGO": "0"})
    assert not hatch_build.profile_guided_asked({"NECRO_PGO": "yes"})
    assert hatch_build.profile_guided_asked({"NECRO_PGO": "1"})
    assert hatch_build.profile_guided_asked({"NECRO_PGO": " 1\n"})


def test_the_full_build_is_asked_for_with_necro_compile_all_1_or_by_the_profile_guided_one() -> None:
    import hatch_build
    assert not hatch_build.full_build_asked({}) and not hatch_build.full_build_asked({"NECRO_COMPILE_ALL": "0"})
    assert hatch_build.full_build_asked({"NECRO_COMPILE_ALL": "1"})
    assert hatch_build.full_build_asked({"NECRO_PGO": "1"})   # the profile-guided build trains the full one


def test_the_fallback_line_goes_to_the_terminal_when_there_is_one(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    import hatch_build
    terminal = tmp_path / "tty"   # stands for /dev/tty, which pip does not capture
    terminal.write_text("")
    assert hatch_build.announce("necronomicon: pure Python", tty=str(terminal)) == str(terminal)
    assert terminal.read_text() == "necronomicon: pure Python\n" and capsys.readouterr().err == ""
    assert hatch_build.announce("necronomicon: pure Python", tty=str(tmp_path / "none" / "tty")) == "stderr"
    assert capsys.readouterr().err == "necronomicon: pure Python\n"


def test_without_a_terminal_the_fallback_line_goes_to_stderr_and_nothing_fails(tmp_path: Path) -> None:
    """A new session has no controlling terminal: /dev/tty cannot be opened (CI, a pipe, a cron job)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import hatch_build; "
            "print(hatch_build.announce('necronomicon: pure Python'))")
    r = subprocess.run([sys.executable, "-c", code, str(Path(__file__).resolve().parent.parent)], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60, start_new_session=True, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "stderr" and r.stderr == "necronomicon: pure Python\n"


class _App:
    def __init__(self) -> None:
        self.said: list[str] = []

    def display_info(self, text: str) -> None:
        self.said.append(text)

    display_warning = display_info


def _hook(root: Path):  # type: ignore[no-untyped-def]
    import hatch_build
    # class attributes over hatchling's properties, whether or not hatchling is installed here
    hook_class = type("Hook", (hatch_build.CompiledCoreHook,), {"target_name": "wheel", "root": str(root),
                                                               "app": _App(), "__init__": lambda self: None})
    return hook_class()


def test_a_build_that_cannot_compile_ships_a_record_of_why(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """No compiler: the wheel is pure Python and carries the reason, which --version and the first run read."""
    import json

    import hatch_build
    from necronomicon.interpreter import build_info

    def no_compiler(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise hatch_build.CoreBuildError("error: command 'gcc' failed: No such file or directory")
    monkeypatch.setattr(hatch_build, "compile_core", no_compiler)
    monkeypatch.delenv("NECRO_PURE_PYTHON", raising=False)
    announced: list[str] = []
    monkeypatch.setattr(hatch_build, "announce", announced.append)
    hook, data = _hook(tmp_path), {"force_include": {}}
    hook.initialize("standard", data)
    assert "pure_python" not in data and any("not built" in line for line in hook.app.said)
    # the one line a person running plain `pip install .` sees (pip hides the hook's own output)
    assert len(announced) == 1 and "pure Python" in announced[0] and "gcc" in announced[0]
    (source, target), = data["force_include"].items()
    assert target == f"necronomicon/interpreter/{build_info.RECORD}"   # inside the one package
    facts = json.loads(Path(source).read_text())
    assert facts["compiled"] is False and "gcc" in facts["why"]

    package = tmp_path / "installed" / "interpreter"   # the installed package, as the wheel lays it out
    (package / "engine").mkdir(parents=True)
    (package / "engine" / "flow.py").write_text("")
    Path(source).replace(package / build_info.RECORD)
    monkeypatch.setattr(build_info, "CORE", ("engine",))
    monkeypatch.setattr(build_info, "_ROOT", package)
    build = build_info.engine_build()
    assert build.compiled == 0 and "gcc" in build.fallback
    assert build.describe().startswith("Python source: the install could not build the compiled core (")
    first = build_info.first_run_notice()
    assert first.startswith("necro: the engine runs as pure Python") and "gcc" in first
    assert build_info.first_run_notice() == ""     # said once
    (package / build_info.TOLD).unlink()
    (package / build_info.RECORD).write_text('{"compiled": true, "profile_guided": false, "why": "NECRO_PGO=1 not set"}')
    assert build_info.first_run_notice() == "" and build_info.engine_build().fallback == ""


def test_the_default_build_records_that_it_was_not_profile_guided(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import json

    import hatch_build
    asked: list[tuple[bool, bool]] = []

    def compiled(root, out, train, notice, everything):  # type: ignore[no-untyped-def]
        asked.append((train, everything))
        so = out / "interpreter" / "engine" / "flow.so"
        so.parent.mkdir(parents=True)
        so.write_bytes(b"")
        return [so]
    monkeypatch.setattr(hatch_build, "compile_core", compiled)
    monkeypatch.delenv("NECRO_PURE_PYTHON", raising=False)
    monkeypatch.delenv("NECRO_COMPILE_ALL", raising=False)
    for env, guided in (("", False), ("1", True)):
        monkeypatch.setenv("NECRO_PGO", env)
        hook, data = _hook(tmp_path), {"force_include": {}}
        hook.initialize("standard", data)
        assert data["pure_python"] is False and len(data["force_include"]) == 2
        record = next(Path(s) for s, t in data["force_include"].items() if t.endswith(".json"))
        facts = json.loads(record.read_text())
        assert facts["compiled"] is True and facts["profile_guided"] is guided and facts["everything"] is guided
        assert ("profile-guided" if guided else "not profile-guided (NECRO_PGO=1 not set)") in hook.app.said[-1]
    assert asked == [(False, False), (True, True)]   # the profile-guided build is the full one, trained


def test_the_running_build_is_counted_against_the_set_its_record_names(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import importlib.machinery

    from necronomicon.interpreter import build_info
    package = tmp_path / "interpreter"
    (package / "engine").mkdir(parents=True)
    for name in ("flow.py", "savefile.py"):
        (package / "engine" / name).write_text("")
    (package / "engine" / ("flow" + importlib.machinery.EXTENSION_SUFFIXES[0])).write_bytes(b"")
    monkeypatch.setattr(build_info, "CORE", ("engine",))
    monkeypatch.setattr(build_info, "PYTHON_BY_DEFAULT", {"engine/savefile.py": "read once per file"})
    monkeypatch.setattr(build_info, "_ROOT", package)
    build = build_info.engine_build()   # the default build: savefile.py is left in Python on purpose
    assert (build.compiled, build.modules) == (1, 1) and build.describe().startswith("compiled core (1 modules")
    (package / build_info.RECORD).write_text('{"compiled": true, "everything": true}')
    build = build_info.engine_build()   # a full build that lacks one of its modules
    assert (build.compiled, build.modules) == (1, 2) and build.describe().startswith("partly compiled (1 of 2")
