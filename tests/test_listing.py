"""Listing legal actions costs less without changing what is listed: dry runs are skipped for
effects whose single choices cannot find an empty list, and run only when they could."""
from __future__ import annotations

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.effects import ast as A
from necronomicon.interpreter.effects.parser import parse
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.feasible import may_lack_a_part
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.option import Option
from necronomicon.interpreter.engine import actions
from necronomicon.interpreter.engine import core
from necronomicon.interpreter.engine import moves

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
    # its Serpent Men may be gone, but its condition says one is there (tests/test_guarded_choices.py)
    assert may_lack_a_part(borrow.effect, 2, proofs=False) and not may_lack_a_part(borrow.effect, 2)


def test_the_unlimited_actions_listed_at_the_end_of_an_action_are_offered_without_listing_them_again(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from necronomicon.interpreter.engine import state as state_module, turn
    from necronomicon.interpreter.engine.agents import RandomAgent
    from necronomicon.interpreter.engine.game import Game
    c = load_content().require_ok()
    listed = turn._list_unlimited
    calls = [0]

    def counting(g, f):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return listed(g, f)
    monkeypatch.setattr(turn, "_list_unlimited", counting)

    def play() -> tuple[list[str], int]:
        calls[0] = 0
        answers = []
        for seed in range(4):
            g = Game(c, "duel", ["sleeper", "wind-rider"], seed)
            agents = {p: RandomAgent(seed * 7 + i) for i, p in enumerate(g.s.players)}
            while not g.is_over():
                d = g.current()
                answers.append(agents[d.player].choose(d.player, d.options, d))
                g.apply(answers[-1])
        return answers, calls[0]
    kept, fewer = play()
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)   # every kept list is compared with a fresh one
    checked, every = play()
    assert kept == checked and fewer < every


def test_listings_ask_action_cost_modifiers_only_where_they_may_apply(monkeypatch: pytest.MonkeyPatch) -> None:
    """`action_mods` skips the action-cost modifiers whose subject guards reject the player (Ice
    Age's surcharge for Wind-rider's own actions); the listings are those of asking every one."""
    content = load_content().require_ok()
    seen: list[tuple[list[Option], list[Option]]] = []
    skipped = 0
    for seed in range(1, 7):
        g = Game(content, "duel", ["sleeper", "wind-rider"], seed)
        agent = RandomAgent(seed)
        while g.current() is not None and len(seen) < 400:
            for p in g.s.players:
                quick = actions.main_actions(g.rules, p) + actions.unlimited_actions(g.rules, p)
                skipped += sum(1 for a in ("battle", "summon", None) if not moves.action_mods(g.rules, p, a)
                               and core.modifiers_of(g.rules, "action-cost"))
                with monkeypatch.context() as m:
                    m.setattr(moves, "action_mods", lambda rules, p, action=None: core.modifiers_of(rules, "action-cost"))
                    seen.append((quick, actions.main_actions(g.rules, p) + actions.unlimited_actions(g.rules, p)))
            d = g.current()
            g.apply(agent.choose(d.player, d.options, d))
    assert all(quick == asked for quick, asked in seen)
    assert skipped > 0    # some listings did skip the modifiers
