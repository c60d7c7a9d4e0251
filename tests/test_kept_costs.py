"""A Move listing's surcharges kept across positions (engine/kept_costs.py): kept only for
modifiers whose reads are known, and never used once a State field they read has changed."""
from __future__ import annotations

from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine import kept_costs, moves, state as state_module
from necronomicon.interpreter.engine.game import Game


def _modifier(content, key: str):  # type: ignore[no-untyped-def]
    import gc
    from necronomicon.interpreter.content.model import Modifier
    return next(o for o in gc.get_objects() if type(o) is Modifier and o.source == key)


def _scenario_start(name: str) -> Game:
    from necronomicon.tools.scenario import load_spec, run_spec
    spec = load_spec(Path(__file__).parent / "scenarios" / name)
    spec.update(script=[], expect={})
    return run_spec(spec, load_content().require_ok(), name).game


def test_the_fields_a_modifier_reads_come_from_its_text() -> None:
    content = load_content().require_ok()
    assert kept_costs.parts_of(_modifier(content, "wind-rider/ice-age-surcharge")) == ("tokens",)
    assert kept_costs.parts_of(_modifier(content, "yellow-sign/third-eye")) is None  # (in_play: not a query of READS)


@pytest.mark.parametrize("checking", [False, True])
def test_a_kept_surcharge_follows_the_tokens_it_reads(monkeypatch: pytest.MonkeyPatch, checking: bool) -> None:
    """The Sleeper's moves into an Ice Age area cost 1 more; placing and removing the token (a
    write to the tokens alone, which no write counter notes) changes the costs listed next."""
    monkeypatch.setattr(state_module, "CHECK_MEMO", checking)
    g = _scenario_start("wind-rider/ice-age.yaml")
    r = g.rules

    def costs() -> dict[str, int]:
        out: dict[str, int] = {}
        moves.move_options(r, "sleeper", set(), set(), costs=out)
        return {label.split("->")[1].split("#")[0]: c for label, c in out.items()}

    before = costs()
    assert before and set(before.values()) == {1}, before
    area = sorted(before)[0]
    assert costs() == before   # (asked again: kept)
    r.s.tokens.append({"id": "ice-age", "loc": area, "owner": "wind-rider"})
    after = costs()
    assert after[area] == 2 and all(c == 1 for a, c in after.items() if a != area), after
    r.s.tokens.pop()
    assert costs() == before
