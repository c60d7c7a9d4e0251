"""Property tests: random and mutated YAML or effect text never crashes the validator, and
every finding it makes carries a position in a file."""
from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.content import load_content
from interpreter.diagnostics import Report
from interpreter.effects.parser import EffectSyntaxError, parse

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


def test_report_collects_instead_of_raising() -> None:
    r = Report()
    assert not r.items and not r.errors
    out = io.StringIO()
    print("x", file=out)
    assert out.getvalue() == "x\n"
