"""Hostile web requests (tests/hostile_web_corpus.py; benchmarks/hostile.py runs them in their own
processes): each is refused with a 4xx and one JSON line, and the game on the board is unchanged."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from tests import hostile_web_corpus as corpus  # noqa: E402

CASES = {c.name: c for c in corpus.cases()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hostile_request_is_refused_in_one_line_and_changes_nothing(name: str, tmp_path: Path) -> None:
    out = CASES[name].run(tmp_path)
    assert out.clean, out.message
    assert not out.half, f"the refusal changed the game: {out.message}"
