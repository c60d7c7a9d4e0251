"""benchmarks/compare.py and measure.py: a revision is extracted, a measurement names the games it
played, and a figure a revision cannot give is printed as n/a (no timing is asserted)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import compare, measure


def test_a_revision_is_extracted_beside_the_working_tree(tmp_path: Path) -> None:
    commit = compare.extract("HEAD", tmp_path)
    assert len(commit) == 40
    assert (tmp_path / "interpreter" / "engine" / "game.py").is_file()
    assert (tmp_path / "content").is_dir()
    with pytest.raises(compare.CompareError, match="no-such-rev"):
        compare.extract("no-such-rev", tmp_path / "x")


def test_a_measurement_reports_the_same_games_each_time(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--root", str(compare.ROOT), "decisions", "--ruleset", "duel", "--players", "2", "--games", "1"]
    runs = []
    for _ in range(2):
        assert measure.main(args) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0]["decisions"] == runs[1]["decisions"] > 0
    assert runs[0]["answers"] == runs[1]["answers"]
    assert runs[0]["per_s"] > 0


def _figure(unit: str, base: list[float | None], current: list[float | None]) -> dict[str, object]:
    return {"unit": unit, "better": "higher", "base": base, "current": current, "extra": {"base": [], "current": []}}


def test_the_table_shows_ratios_and_n_a_for_a_missing_api() -> None:
    figures = {"Duel random (decisions/s)": _figure("decisions/s", [1000.0, 1200.0], [3000.0, 3300.0]),
               "clone() median (µs)": _figure("µs", [None, None], [40.0, 50.0])}
    figures["clone() median (µs)"]["na_base"] = "AttributeError: 'Game' object has no attribute 'clone'"
    figures["Duel random (decisions/s)"]["extra"] = {"base": [{"decisions": 9, "answers": "a"}] * 2,
                                                     "current": [{"decisions": 8, "answers": "b"}] * 2}
    compare.summarise(figures)
    assert figures["Duel random (decisions/s)"]["ratio_stats"]["median"] == pytest.approx(2.875)
    text = compare.table({"base": {"rev": "HEAD~1", "commit": "0" * 40}, "current": {"commit": "1" * 40, "dirty": True},
                          "rounds": 2, "games": 5, "figures": figures})
    assert "2.88×" in text
    row = next(line for line in text.splitlines() if line.startswith("clone() median"))
    assert row.split()[3:5] == ["n/a", "45.0"] and row.rstrip().endswith("n/a")
    assert "clone() median (µs), base: n/a (AttributeError" in text
    assert "played different games (9 vs 8 decisions)" in text


def test_each_tree_is_measured_from_its_own_files(tmp_path: Path) -> None:
    """With the project installed (`pip install .`, as the README and CI do), the installed copy
    must neither join a measured tree's packages nor stand in for a module the tree lacks."""
    tree = tmp_path / "base"
    tree.mkdir()
    compare.extract("HEAD", tree)
    args = ["decisions", "--ruleset", "duel", "--players", "2", "--games", "1"]
    out = compare.run_measure(tree, args, timeout=300)
    assert "na" not in out, out
    assert out["decisions"] > 0
    (tree / "interpreter" / "engine" / "flow.py").unlink()   # a module this revision lacks
    out = compare.run_measure(tree, args, timeout=300)
    assert out.get("na", "").startswith("ImportError"), out   # not the installed flow.py


def test_the_compiled_tree_gets_its_own_column_and_ratio_against_the_same_base() -> None:
    f = _figure("decisions/s", [1000.0, 1200.0], [2000.0, 2400.0])
    f["compiled"] = [2600.0, 3600.0]
    f["extra"] = {side: [{"decisions": 9, "answers": "a"}] * 2 for side in ("base", "current", "compiled")}
    figures = {"Duel random (decisions/s)": f}
    compare.summarise(figures)
    assert f["ratio_stats"]["median"] == pytest.approx(2.0)
    assert f["ratio_compiled_stats"] == {"median": pytest.approx(2.8), "min": 2.6, "max": 3.0}
    assert f["same_games"] is True
    text = compare.table({"base": {"rev": "b", "commit": "0" * 40}, "current": {"commit": "1" * 40, "dirty": False},
                          "rounds": 2, "games": 5, "figures": figures})
    header = next(line for line in text.splitlines() if line.startswith("figure"))
    assert header.split()[-2:] == ["compiled", "compiled/base"]
    row = next(line for line in text.splitlines() if line.startswith("Duel random"))
    assert row.rstrip().endswith("3,100 (2,600–3,600)  2.80× (2.60–3.00)")
    f2 = _figure("decisions/s", [1000.0], [2000.0])
    f2["compiled"] = [2100.0]
    f2["extra"] = {"base": [{"decisions": 9, "answers": "a"}], "current": [{"decisions": 9, "answers": "a"}],
                   "compiled": [{"decisions": 8, "answers": "c"}]}
    compare.summarise({"x": f2})
    assert f2["same_games"] is False and f2["decisions"] == {"base": 9, "current": 9, "compiled": 8}



def test_the_base_compiled_tree_is_compared_with_the_compiled_one() -> None:
    f = _figure("decisions/s", [1000.0, 1200.0], [2000.0, 2400.0])
    f["compiled"] = [2600.0, 3600.0]
    f["base_compiled"] = [1300.0, 1500.0]
    f["extra"] = {side: [{"decisions": 9, "answers": "a"}] * 2
                  for side in ("base", "current", "compiled", "base_compiled")}
    compare.summarise({"x": f})
    assert f["ratio_compiled_base_compiled_stats"] == {"median": pytest.approx(2.2), "min": 2.0, "max": 2.4}
    assert f["ratio_compiled_stats"]["median"] == pytest.approx(2.8)
    text = compare.table({"base": {"rev": "b", "commit": "0" * 40}, "current": {"commit": "1" * 40, "dirty": False},
                          "rounds": 2, "games": 5, "figures": {"Duel random (decisions/s)": f}})
    header = next(line for line in text.splitlines() if line.startswith("figure"))
    assert header.split()[-4:] == ["base", "compiled", "compiled/base", "compiled"]
    row = next(line for line in text.splitlines() if line.startswith("Duel random"))
    assert row.split()[-4:] == ["1,400", "(1,300–1,500)", "2.20×", "(2.00–2.40)"]
    f2 = _figure("decisions/s", [1000.0], [2000.0])
    f2["compiled"], f2["base_compiled"] = [2100.0], [None]   # the base's core failed to play
    f2["extra"] = {side: [] for side in ("base", "current", "compiled", "base_compiled")}
    compare.summarise({"x": f2})
    assert f2["ratio_compiled_base_compiled_stats"] is None


_FAKE_BUILD = '''
import os
from pathlib import Path

class CoreBuildError(Exception):
    pass

def compile_core(tree, out, train=False, notice=None):
    if (tree / "interpreter" / "refuse").exists():
        raise CoreBuildError("no C compiler here")
    notice("built by the base's own script")
    (out / "built.txt").write_text(f"{tree} {out} train={train} NECRO_PGO={os.environ.get('NECRO_PGO')}")
    return []
'''


def test_each_tree_is_compiled_by_its_own_build_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The base's core is built by the base's hatch_build.py (not the working tree's), into a copy,
    without the profile-guided training unless NECRO_PGO=1 asks; a base that cannot be built, or
    has no build script, is one line."""
    base = tmp_path / "base"
    (base / "interpreter").mkdir(parents=True)
    (base / "interpreter" / "x.py").write_text("X = 1\n")
    (base / "hatch_build.py").write_text(_FAKE_BUILD)
    monkeypatch.delenv("NECRO_PGO", raising=False)
    into = compare.compiled_copy(base, compare._made(tmp_path / "copy"))
    assert (into / "interpreter" / "x.py").read_text() == "X = 1\n"
    assert (into / "built.txt").read_text() == f"{into} {into} train=False NECRO_PGO=0"
    assert "compare: built by the base's own script" in capsys.readouterr().err
    monkeypatch.setenv("NECRO_PGO", "1")
    into = compare.compiled_copy(base, compare._made(tmp_path / "trained"))
    assert (into / "built.txt").read_text().endswith("train=True NECRO_PGO=1")
    (base / "interpreter" / "refuse").mkdir()
    with pytest.raises(compare.CompareError, match="could not be built .*: no C compiler here"):
        compare.compiled_copy(base, compare._made(tmp_path / "refused"))
    (base / "hatch_build.py").unlink()
    with pytest.raises(compare.CompareError, match="no hatch_build.py"):
        compare.compiled_copy(base, compare._made(tmp_path / "none"))


def test_the_base_core_is_built_once_and_then_taken_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A second run against the same base and build settings reuses the first run's core; another
    commit or NECRO_PGO builds again; no cache builds every time."""
    base = tmp_path / "base"
    (base / "interpreter").mkdir(parents=True)
    (base / "interpreter" / "x.py").write_text("X = 1\n")
    (base / "hatch_build.py").write_text(_FAKE_BUILD)
    monkeypatch.delenv("NECRO_PGO", raising=False)
    cache, commit = tmp_path / "cache", "ab" * 20

    def core(run: str, c: str = commit, kept: Path | None = cache) -> Path:
        (tmp_path / run).mkdir()
        return compare.cached_core(base, c, tmp_path / run, kept)
    first = core("one")
    assert "built by the base's own script" in capsys.readouterr().err
    again = core("two")
    assert "from the cache" in capsys.readouterr().err and again.parent == cache
    assert (again / "built.txt").read_text() == (first / "built.txt").read_text()
    assert (again / "interpreter" / "x.py").read_text() == "X = 1\n"
    core("three", "cd" * 20)
    monkeypatch.setenv("NECRO_PGO", "1")
    core("four")
    assert capsys.readouterr().err.count("built by the base's own script") == 2
    assert len([p for p in cache.iterdir() if (p / ".complete").is_file()]) == 3
    assert core("five", kept=None).parent == tmp_path / "five"
    assert "built by the base's own script" in capsys.readouterr().err


def test_a_tree_that_tells_the_full_build_apart_is_built_as_the_environment_asks(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """As `pip install .` of that tree: its default set, or everything with NECRO_COMPILE_ALL=1."""
    tree = tmp_path / "tree"
    (tree / "interpreter").mkdir(parents=True)
    (tree / "hatch_build.py").write_text(_FAKE_BUILD.replace("train=False, notice=None):", "train=False, notice=None, everything=False):")
                                         .replace("train={train} ", "train={train} everything={everything} ")
                                         + "def full_build_asked(env):\n    return env.get('NECRO_COMPILE_ALL') == '1'\n")
    monkeypatch.delenv("NECRO_PGO", raising=False)
    for asked, everything in (("0", False), ("1", True)):
        monkeypatch.setenv("NECRO_COMPILE_ALL", asked)
        into = compare.compiled_copy(tree, compare._made(tmp_path / f"copy{asked}"))
        assert f"everything={everything} " in (into / "built.txt").read_text()
