"""Property tests: random and mutated YAML or effect text never crashes the validator, and
every finding it makes carries a position in a file; seeded mutations of every real content file
(benchmarks/fuzz_content.py) are reported with positions and never start a game."""
from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import random

import pytest

from benchmarks.fuzz_content import AGENT_ROTATION, MUTATIONS, fuzz, mutate
from necronomicon.interpreter import paths
from necronomicon.interpreter.content import load_content
from tests.figures import add
from necronomicon.tools.cli import main
from necronomicon.interpreter.diagnostics import Report
from necronomicon.interpreter.effects.parser import EffectSyntaxError, parse

SAMPLE = (Path(__file__).parent.parent / "content" / "factions" / "sleeper.yaml").read_text()
EFFECT_ALPHABET = "abcdefgimnoprstuwy_()[]{}:;,.'=<>!+-*/% 0123456789\n"


def _check(tmp: Path, text: str) -> None:
    f = tmp / "x.yaml"
    f.write_text(text, encoding="utf-8")
    c = load_content([tmp], builtin=False)
    for d in c.report.items:
        assert d.path.endswith("x.yaml") or d.path == str(tmp)
        assert d.line >= 1 and d.col >= 1
        assert d.message


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300))
def test_random_text_never_crashes(tmp_path_factory, text: str) -> None:  # noqa: ANN001
    _check(tmp_path_factory.mktemp("fuzz"), text)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_mutated_faction_never_crashes(tmp_path_factory, data: st.DataObject) -> None:  # noqa: ANN001
    lines = SAMPLE.splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["drop", "dup", "garble", "retype"]))
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "garble" and lines[i]:
            j = data.draw(st.integers(0, len(lines[i]) - 1))
            lines[i] = lines[i][:j] + data.draw(st.sampled_from(list("(){}[]:'\"x9-#&*|"))) + lines[i][j + 1:]
        else:
            lines[i] = lines[i].replace("1", "'one'").replace("true", "7")
    _check(tmp_path_factory.mktemp("mut"), "\n".join(lines))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=EFFECT_ALPHABET, max_size=80))
def test_effect_parser_raises_only_syntax_errors_with_positions(text: str) -> None:
    try:
        parse(text)
    except EffectSyntaxError as exc:
        assert exc.line >= 1 and exc.col >= 1 and exc.message


def test_an_error_that_trips_larks_example_matcher_is_still_a_syntax_error() -> None:
    # found by benchmarks/fuzz_content.py: lark 1.3's match_examples raised TypeError ('%d' of a
    # ParserState) for an error state shared with an example that accepts other tokens
    with pytest.raises(EffectSyntaxError) as err:
        parse("f(a, g(b) not", start="expr_start")
    assert err.value.line == 1 and err.value.col >= 1 and "unexpected" in err.value.message


def test_report_collects_instead_of_raising() -> None:
    r = Report()
    assert not r.items and not r.errors
    out = io.StringIO()
    print("x", file=out)
    assert out.getvalue() == "x\n"


# ---- seeded mutations of the real content tree -------------------------------------------------------------
CONTENT_FILES = sorted(paths.content_dir().rglob("*.yaml"))


def _check_figures(fig, n: int) -> None:  # noqa: ANN001
    add("content fuzz (mutated copies of every content file)", mutations_tried=fig.tried, refused=fig.with_errors,
        findings=fig.findings, still_valid=fig.valid, games_played=fig.games_played, crashes=fig.crashes,
        findings_without_position=fig.bad_findings, games_started_with_errors=fig.games_started_with_errors)
    assert fig.problems == []
    assert fig.crashes == 0 and fig.bad_findings == 0 and fig.games_started_with_errors == 0
    assert fig.tried == n
    # the mutations do break things (not always: expansion cards have many optional keys to drop)
    assert fig.with_errors >= (fig.tried - fig.unchanged) // 3


def test_every_mutation_kind_on_every_content_file_is_reported_and_refused() -> None:
    n = len(CONTENT_FILES) * len(MUTATIONS)                       # each kind once on each file
    fig = fuzz(n, seed=1, play_decisions=30)
    assert set(fig.by_kind) == set(MUTATIONS) and len(set(fig.by_kind.values())) == 1
    # still-valid trees are played by random, heuristic and search bots in turn
    assert set(fig.games_by_agents) == set(AGENT_ROTATION) and sum(fig.games_by_agents.values()) == fig.games_played
    _check_figures(fig, n)


@pytest.mark.slow
def test_a_thousand_content_mutations() -> None:
    fig = fuzz(1000, seed=2, play_decisions=100)
    _check_figures(fig, 1000)


def test_the_fuzzers_parse_cache_changes_no_finding() -> None:
    only = ["factions/sleeper.yaml"]
    cached = fuzz(4, seed=3, play_decisions=0, only=only)
    cold = fuzz(4, seed=3, play_decisions=0, cache=False, only=only)
    assert (cached.with_errors, cached.findings, cached.valid) == (cold.with_errors, cold.findings, cold.valid)


@pytest.mark.parametrize("kind", ["misspell-reference", "swap-type", "garble-effect"])
def test_necro_play_refuses_a_mutated_faction_layered_over_the_content(tmp_path: Path, kind: str,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    text = (paths.content_dir() / "factions" / "sleeper.yaml").read_text(encoding="utf-8")
    for seed in range(50):                                        # the first seed whose mutation is an error
        new = mutate(text, kind, random.Random(seed))
        (tmp_path / "sleeper.yaml").write_text(new or text, encoding="utf-8")
        if load_content([tmp_path]).report.errors:
            break
    else:
        pytest.fail(f"no {kind} mutation made an error")
    code = main(["play", "--content-dir", str(tmp_path), "--ruleset", "duel", "--quiet"])
    out = capsys.readouterr()
    assert code == 1 and out.out == ""                           # refused: no game, no result line
    lines = out.err.strip().splitlines()
    assert lines and all(str(tmp_path / "sleeper.yaml") in l or "sleeper.yaml:" in l for l in lines)
    assert all(l.split(":")[1].isdigit() and l.split(":")[2].isdigit() for l in lines)


def test_a_finding_that_quotes_text_of_several_lines_is_one_line(tmp_path: Path) -> None:
    # found by benchmarks/fuzz_content.py --seed 11: a stray '|' in maps/extinction.yaml turned its
    # 'incomplete-reason' into a literal block, and the warning quoting it spanned several lines
    text = (paths.content_dir() / "maps" / "extinction.yaml").read_text(encoding="utf-8")
    assert "incomplete-reason: >-" in text
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "extinction.yaml").write_text(text.replace("incomplete-reason: >-", "incomplete-reason: |"),
                                                       encoding="utf-8")
    content = load_content([tmp_path])
    quoted = [d for d in content.report.warnings + content.report.readings if d.code == "incomplete-map"]
    assert quoted and all("\n" not in d.render() for d in quoted)
    assert "No available source prints this board, so its full set of zones" in quoted[0].render()