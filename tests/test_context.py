"""A new EffectCtx shares one empty scope list and one empty stand-in map (engine/context.py) until it
binds a name: binding, opening and closing a scope give it its own, and the shared ones stay empty
through whole games (a write into them would leak a name into every later context)."""
from __future__ import annotations

import random

from necronomicon.interpreter.engine import context
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.context import NO_SCOPES, NO_STAND_IN, EffectCtx
from necronomicon.interpreter.engine.game import Game

from .test_copies_property import FACTIONS, content


def _ctx() -> EffectCtx:
    g = Game(content(False), "duel", FACTIONS["duel", 2], 1)
    return EffectCtx(g.rules, g.s.players[0])


def test_a_new_context_shares_the_empty_scopes_until_it_binds() -> None:
    c = _ctx()
    assert c.scopes is NO_SCOPES and c.stand_in is NO_STAND_IN
    c.bind("x", 1)
    assert c.scopes is not NO_SCOPES and c.scopes == [{"x": 1}] and c.lookup("x", "here") == 1
    d = _ctx()
    d.push_scope()
    d.bind("y", 2)
    assert d.scopes == [{}, {"y": 2}]
    d.pop_scope()
    assert d.scopes == [{}]
    e = _ctx()
    e.pop_scope()   # (unbalanced: pops its own copy, not the shared list)
    assert e.scopes == []
    assert NO_SCOPES == [{}] and NO_STAND_IN == {}


def test_the_shared_scopes_stay_empty_through_games() -> None:
    r = random.Random("shared-scopes")
    for ruleset, players in (("duel", 2), ("multiplayer", 4)):
        for expanded in (False, True):
            seed = r.randrange(10_000)
            g = Game(content(expanded), ruleset, FACTIONS[ruleset, players], seed)
            agent = RandomAgent(seed)
            for _ in range(300):
                d = g.current()
                if d is None:
                    break
                g.apply(agent.choose(d.player, d.options, d))
                assert context.NO_SCOPES == [{}] and context.NO_STAND_IN == {}
