"""The unit kinds in play (`basics.in_play_kinds`) kept on the state across the memo's drops
(`StateFields._kinds`): kept while the player's units are unchanged, found again after a unit
write, a move of the player's units or a new unit, and checked in checking mode."""
from __future__ import annotations

from functools import cache

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import basics, rules_fields as rules_fields_module, state as state_module
from necronomicon.interpreter.engine.game import Game


@cache
def _content() -> Content:
    return load_content(expansions=["independents", "azathoth"]).require_ok()


def _game() -> tuple[Game, str]:
    g = Game(_content(), "duel", ["sleeper", "wind-rider"], 3)
    return g, g.s.players[0]


def test_a_write_of_no_unit_keeps_them_and_a_unit_write_finds_them_again() -> None:
    g, p = _game()
    kinds = basics.in_play_kinds(g.rules, p)
    g.s.written(units=False)   # (a spellbook or a grant: the memo is dropped)
    assert basics.in_play_kinds(g.rules, p) is kinds
    u = next(u for u in g.s.pool(p) if u["kind"] not in kinds)
    u["loc"] = sorted(g.layout.areas)[0]
    g.s.written()
    assert u["kind"] in basics.in_play_kinds(g.rules, p)


def test_a_move_of_the_players_units_finds_them_again() -> None:
    g, p = _game()
    kinds = basics.in_play_kinds(g.rules, p)
    u = next(u for u in g.s.pool(p) if u["kind"] not in kinds)
    src, u["loc"] = u["loc"], sorted(g.layout.areas)[0]
    g.s.moved(u, src)
    assert u["kind"] in basics.in_play_kinds(g.rules, p)
    assert basics.in_play_kinds(g.rules, p) == basics._kinds_of(g.rules, p)


def test_a_copy_starts_without_them() -> None:
    g, p = _game()
    basics.in_play_kinds(g.rules, p)
    assert g.s._kinds is not None and g.s.copy()._kinds is None


def test_a_unit_written_unnoted_is_caught_in_checking_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    g, p = _game()
    kinds = basics.in_play_kinds(g.rules, p)
    g.s.written(units=False)
    u = next(u for u in g.s.pool(p) if u["kind"] not in kinds)
    u["loc"] = sorted(g.layout.areas)[0]   # (behind the state's back)
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    monkeypatch.setattr(rules_fields_module, "CHECK_MEMO", True)
    with pytest.raises(AssertionError, match="stale"):
        basics.in_play_kinds(g.rules, p)
