"""Hostile saves and logs (issue 14): every case of the generated corpus in tests/hostile_corpus.py
is refused with one line naming what is wrong, and a refusal changes nothing."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from necronomicon.interpreter.engine.game import Game, replay
from necronomicon.interpreter.engine.game import load_save
from necronomicon.interpreter.engine.savefile import SaveError, read_log
from tests import hostile_corpus as corpus

CASES = {c.name: c for c in corpus.cases()}


@pytest.fixture(autouse=True, scope="module")
def _content_loaded_once():  # noqa: ANN202
    """`necro replay` and `show state` load the content on every call; here, once (same content)."""
    import necronomicon.tools.loading as loading
    real = loading.load_content
    cache: dict[tuple[object, ...], object] = {}

    def cached(folders, expansions=None, **kw):  # noqa: ANN001, ANN202
        key = (tuple(map(str, folders)), tuple(expansions or ()), tuple(sorted(kw.items())))
        if key not in cache:
            cache[key] = real(folders, expansions=expansions, **kw)
        return cache[key]

    loading.load_content = cached
    yield
    loading.load_content = real


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hostile_save_or_log_is_refused_in_one_line(name: str, tmp_path: Path) -> None:
    out = CASES[name].run(tmp_path)
    assert out.clean, out.message
    assert not out.half, f"the refusal changed its input: {out.message}"


def test_the_issue_examples_are_refused_with_the_path_in_the_file(tmp_path: Path) -> None:
    data = corpus.base_save()
    data["params"]["seed"] = "5"                           # built a 2.65 GB string before
    with pytest.raises(SaveError, match=r"^save: params\.seed: should be 'integer', not str$"):
        Game.from_json(corpus.content(), data)
    data = corpus.base_save()
    data["log_length"] = 10_000_000                        # cost 2.5 GB before
    with pytest.raises(SaveError, match="^save: log_length: 10000000 is greater than the maximum of 200000$"):
        Game.from_json(corpus.content(), data)
    data = corpus.base_save()
    data["snapshot"]["power"]["sleeper"] = -50             # loaded silently before
    with pytest.raises(SaveError, match="^save: the snapshot breaks the rules: sleeper has negative Power -50$"):
        Game.from_json(corpus.content(), data)


def test_a_good_save_and_log_still_load_and_match(tmp_path: Path) -> None:
    g = corpus.base_game()
    f = tmp_path / "g.save.json"
    f.write_text(json.dumps(g.to_json()))
    assert load_save(corpus.content(), f).to_json() == g.to_json()
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(g.log_lines()) + "\n")
    parsed = read_log(log)
    assert parsed.choices == g.choices and parsed.digest == g.digest() and parsed.error is None
    assert replay(corpus.content(), parsed).digest() == g.digest()


def test_the_readme_lists_the_save_and_log_limits_with_their_numbers() -> None:
    from necronomicon.interpreter.engine import savefile
    text = (Path(__file__).parent.parent / "README.md").read_text()
    for name in ("MAX_SAVE_BYTES", "MAX_LOG_BYTES", "MAX_LOG_LINES", "MAX_DEPTH", "MAX_STRING", "MAX_INT_DIGITS",
                 "MAX_CHOICES", "MAX_ANSWER", "MAX_LOG_LENGTH"):
        value = getattr(savefile, name)
        shown = f"{value // 2**20} MiB" if name.endswith("_BYTES") else f"{value:,}"
        row = next((line for line in text.splitlines() if f"(`savefile.{name}`)" in line), "")
        assert shown in row, f"README's Limits table has no row for savefile.{name} = {shown}"


def test_a_web_board_save_with_its_seats_still_loads() -> None:
    data = corpus.base_save()
    data["seats"] = {"sleeper": "human", "wind-rider": "heuristic"}   # what the board's Save button adds
    assert Game.from_json(corpus.content(), data).digest() == corpus.base_game().digest()
