"""The listings written as plain loops that skip the modifiers none has in play (session 21, issue
29) list the same options in the same order as before, at seeded positions of Duel, 4-player and
expansion games, for every player; unit costs and combat too (tests/listings_before.py holds the
code as it was)."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.effects.compiler import RuleError
from necronomicon.interpreter.engine import actions, basics, core, moves
from necronomicon.interpreter.engine.agents import HeuristicAgent, RandomAgent
from necronomicon.interpreter.engine.game import Game
from tests import listings_before as before

GAMES = [  # (expansions, ruleset, factions, agent, seed)
    ((), "duel", ["sleeper", "wind-rider"], RandomAgent, 1),
    ((), "duel", ["sleeper", "wind-rider"], HeuristicAgent, 2),
    ((), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], RandomAgent, 1),
    ((), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], HeuristicAgent, 3),
    (("independents", "azathoth"), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"],
     RandomAgent, 4),
    (("independents", "azathoth"), "multiplayer", ["sleeper", "wind-rider", "black-goat"], RandomAgent, 5),
]
DECISIONS = 300
EVERY = 5


def _or_error(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except RuleError as exc:   # a unit whose cost or combat is unknown: both ways must say so
        return ("RuleError", str(exc))


def _compare(g: Any) -> int:
    """Every listing and cost at this position, both ways, for every player; how many compared."""
    s = g.s
    n = 0
    for p in s.players:
        assert actions.main_actions(g, p) == before.main_actions(g, p)
        assert actions.unlimited_actions(g, p) == before.unlimited_actions(g, p)
        for unlimited in (False, True):
            assert actions.summon_actions(g, p, unlimited) == before.summon_actions(g, p, unlimited)
        assert actions.battle_actions(g, p, "battle") == before.battle_actions(g, p, "battle")
        assert actions.unit_gates(g, p) == before.unit_gates(g, p)
        for within in (None, *sorted(s.places_of(p))[:2]):   # dicts: the order of the labels too
            assert list(moves.move_options(g, p, set(), set(), within).items()) == \
                list(before.move_options(g, p, set(), set(), within).items())
        for a in sorted(s.places_of(p)):
            assert actions._captors(g, p, a) == before._captors(g, p, a)
            for e in s.others(p):
                assert actions.capture_targets(g, p, e, a) == before.capture_targets(g, p, e, a)
        for t in basics.faction(g, p).units.values():
            assert _or_error(core.unit_cost, g, p, t) == _or_error(before.unit_cost, g, p, t)
        mods = core.modifiers_of(g, "combat")
        for u in s.on_map(p):
            for foe in (None, *s.others(p)):
                assert _or_error(core.combat_of, g, u, foe) == _or_error(before.combat_of, g, u, foe)
                assert _or_error(core.combat_of, g, u, foe, mods) == _or_error(before.combat_of, g, u, foe, mods)
        n += 1
    return n


@pytest.mark.parametrize(("expansions", "ruleset", "factions", "agent", "seed"), GAMES,
                         ids=[f"{r}-{len(f)}p-{a.__name__}-{'+'.join(e) or 'core'}" for e, r, f, a, _ in GAMES])
def test_the_loops_list_what_the_listings_listed_before(expansions: tuple[str, ...], ruleset: str,
                                                         factions: list[str], agent: Any, seed: int) -> None:
    c = load_content(expansions=list(expansions)).require_ok()
    g = Game(c, ruleset, factions, seed)
    agents = {p: agent(seed * 7 + i) for i, p in enumerate(g.s.players)}
    compared = 0
    for k in range(DECISIONS):
        d = g.pending
        if d is None:
            break
        if k % EVERY == 0:
            compared += _compare(g.rules)
        g.apply(agents[d.player].choose(d.player, d.options, d))
    assert compared >= 40   # the game went on long enough to say something
