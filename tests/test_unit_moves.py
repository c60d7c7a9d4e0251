"""A unit's moves at 1 Power kept across Move listings (moves._UNIT_MOVES): the same listing as
one made afresh, made again once the unit has moved, and checked in checking mode."""
from __future__ import annotations

from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine import core, moves, state as state_module
from necronomicon.interpreter.engine.game import Game


def _scenario_start(name: str) -> Game:
    from necronomicon.tools.scenario import load_spec, run_spec
    spec = load_spec(Path(__file__).parent / "scenarios" / name)
    spec.update(script=[], expect={})
    return run_spec(spec, load_content().require_ok(), name).game


def _listing(r, p: str) -> tuple[dict, dict]:  # type: ignore[no-untyped-def]
    costs: dict[str, int] = {}
    return moves.move_options(r, p, set(), set(), costs=costs), costs


def test_a_kept_unit_listing_is_the_fresh_one_and_follows_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state_module, "CHECK_MEMO", False)
    r = _scenario_start("wind-rider/ice-age.yaml").rules
    moves._UNIT_MOVES.clear()
    fresh = _listing(r, "sleeper")
    assert fresh[0] and moves._UNIT_MOVES
    assert _listing(r, "sleeper") == fresh   # (kept)
    u = next(u for u in r.s.on_map("sleeper"))
    src = u["loc"]
    dst = moves.neighbours(r.layout)[src][0]
    core.shift(r, u, dst)
    after = _listing(r, "sleeper")
    mine = [label for label in after[0] if label.endswith(f"#{u['id']}")]
    assert mine and all(after[0][label].src == dst for label in mine), mine
    moves._UNIT_MOVES.clear()
    assert _listing(r, "sleeper") == after   # (what a listing made afresh lists)
    core.shift(r, u, src)
    assert _listing(r, "sleeper") == fresh


def test_checking_mode_catches_a_stale_kept_unit_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _scenario_start("wind-rider/ice-age.yaml").rules
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    moves._UNIT_MOVES.clear()
    _listing(r, "sleeper")
    uid, (src, kind, dsts, made) = next(iter(moves._UNIT_MOVES.items()))
    moves._UNIT_MOVES[uid] = (src, kind, dsts, made[1:] + made[:1] if len(made) > 1 else [])
    try:
        with pytest.raises(AssertionError, match="stale kept moves"):
            _listing(r, "sleeper")
    finally:
        moves._UNIT_MOVES.clear()   # (no stale entry left for the tests after this one)


def test_a_move_answer_names_what_parse_reads() -> None:
    from necronomicon.interpreter.engine.option import move_answer, move_label, parse
    for kind, src, dst, uid in [("cultist", "arctic-ocean", "north-america", 3), ("great-cthulhu", "a", "b-c", 12),
                                ("deep-one", "held:red", "pool", 0)]:
        label = move_label(kind, src, dst, uid)
        o = parse("move", label)
        assert move_answer(label) == (o.unit, o.dst), label


def test_a_listing_is_by_unit_id_when_the_units_are_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """The listing skips its sort only when the unit index says the units ascend by id."""
    monkeypatch.setattr(state_module, "CHECK_MEMO", False)
    r = _scenario_start("wind-rider/ice-age.yaml").rules
    by_id = list(_listing(r, "sleeper")[0])
    assert r.s._ix is not None and r.s._ix[3]
    r.s.units.reverse()   # (a state whose units are not by id: the index is rebuilt, not ascending)
    r.s.written()
    assert list(_listing(r, "sleeper")[0]) == by_id
    assert r.s._ix is not None and not r.s._ix[3]
