"""Listing legal actions costs less without changing what is listed: dry runs are skipped for
effects whose single choices cannot find an empty list, and run only when they could."""
from __future__ import annotations

from interpreter.content import load_content
from interpreter.effects import ast as A
from interpreter.effects.parser import parse
from interpreter.engine.feasible import may_lack_a_part

WHICH = {"choose_player": (1, "players"), "choose_unit": (1, "units")}


def test_the_list_a_choice_picks_from_is_named_unless_the_effect_binds_that_name() -> None:
    tree = parse("let o = choose_player(me, enemies)\ngain_power(o, 1)")
    assert A.argument_names(tree, WHICH) == {("choose_player", "enemies")}
    named = parse("let o = choose_player(me, players: enemies)")
    assert A.argument_names(named, WHICH) == {("choose_player", "enemies")}
    rebound = parse("let enemies = [me]\nlet o = choose_player(me, enemies)")
    assert A.argument_names(rebound, WHICH) == {("choose_player", None)}
    computed = parse("let u = choose_unit(me, units(owner: me))")
    assert A.argument_names(computed, WHICH) == {("choose_unit", None)}


def test_a_choice_among_the_enemies_needs_no_dry_run_once_there_are_two_players() -> None:
    c = load_content().require_ok()
    sleeper = c.model.factions["sleeper"]
    req = next(r for r in sleeper.requirements if r.id == "spend-3-opponent-gains-1")
    assert req.action_effect.choice_lists == {("choose_player", "enemies")}
    assert not may_lack_a_part(req.action_effect, 2)
    assert may_lack_a_part(req.action_effect, 1)      # alone, 'enemies' is empty
    borrow = next(a for sb in sleeper.spellbooks.values() for a in sb.abilities if a.id == "borrow")
    assert may_lack_a_part(borrow.effect, 2)          # its Serpent Men may be gone
