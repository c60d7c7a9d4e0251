"""Every scenario under tests/scenarios/ (rulebook examples and engine rules) must pass."""
from __future__ import annotations

from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.tools.scenario import EXPECT_KEYS, content_for, load_spec, run_spec

ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(ROOT.rglob("*.yaml"))
_CACHE: dict[tuple[str, ...], Content] = {}


@pytest.fixture(scope="module")
def default_content() -> Content | None:
    c = load_content(expansions="all")   # as `necro scenario` loads it
    return c if c.ok else None


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path: Path, default_content: Content | None) -> None:
    spec = load_spec(path)
    if default_content is None and not spec.get("content"):
        pytest.fail("the built-in content does not load")
    outcome = run_spec(spec, content_for(spec, path, default_content, _CACHE), str(path))  # type: ignore[arg-type]
    assert outcome.ok, f"{outcome.name}:\n  " + "\n  ".join(outcome.failures)


def test_strict_mode_rejects_unused_dice_and_wrong_answers(basic: Content) -> None:
    spec = load_spec(ROOT / "engine" / "recruit.yaml")
    spec["dice"] = [6]
    out = run_spec(spec, basic)
    assert out.failures == ["1 scripted dice were never rolled: [6]"]
    spec = load_spec(ROOT / "engine" / "recruit.yaml")
    spec["script"] = ["summon brute a"]
    out = run_spec(spec, basic)
    assert out.failures[0].startswith("step 1: no-controlled-gate: you control no gate in 'a'")


def test_a_misspelt_expectation_fails_instead_of_passing_unchecked(basic: Content) -> None:
    spec = load_spec(ROOT / "engine" / "recruit.yaml")
    spec["expect"] = {**(spec.get("expect") or {}), "not-first": "red", "powr": {"red": 99}}
    out = run_spec(spec, basic)
    assert not out.ok
    assert [f for f in out.failures if f.startswith("expect: no expectation named")] == [
        f"expect: no expectation named 'not-first' (did you mean 'first'?); known: {', '.join(EXPECT_KEYS)}",
        f"expect: no expectation named 'powr' (did you mean 'power'?); known: {', '.join(EXPECT_KEYS)}"]


def test_until_fails_when_the_script_leaves_a_question_open(basic: Content) -> None:
    spec = load_spec(ROOT / "engine" / "capture.yaml")
    spec["script"] = ["capture b blue"]   # the victim's choice is left unanswered
    out = run_spec(spec, basic)
    assert out.failures[0].startswith("after the script: not at 'phase first-player'; waiting on blue")


def test_a_scenario_may_name_the_expansions_it_plays_with(default_content: Content | None, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from necronomicon.tools.scenario import run_scenarios
    assert default_content is not None and default_content.model.neutral_cards   # the default: every expansion
    path = ROOT / "core" / "ritual.yaml"
    cache: dict[tuple[str, ...], Content] = {}
    base = content_for({"expansions": []}, path, default_content, cache)
    assert not base.model.neutral_cards and not base.model.loyalty_cards
    assert content_for({"expansions": ["azathoth"]}, path, default_content, cache).model.neutral_cards
    for bad in ("expansions: azathoth", "expansions: [atlantis]"):
        f = tmp_path / "bad.yaml"
        f.write_text(f"name: bad\n{bad}\nruleset: duel\nfactions: [sleeper, wind-rider]\n")
        assert run_scenarios([str(f)]) == 1
        out = capsys.readouterr().out.splitlines()
        assert len(out) == 2 and out[0].startswith(f"FAIL {f}: ") and "expansion" in out[0], out
