"""The battle runs as frames (issue #13): at every decision reached in seeded games of every
ruleset, with and without the expansions, a battle in
progress is its frames (`State.flow`) and its record (`State.battle`), all plain JSON."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from necronomicon.interpreter.engine.agents import HeuristicAgent, RandomAgent
from necronomicon.interpreter.engine import flow
from necronomicon.interpreter.engine.game import Game

from .test_copies_property import CASES, FACTIONS, content
from necronomicon.interpreter.engine import battle_queries

BATTLE_PROCS = {"battle", "battle-declines", "battle-assign", "battle-apply"}
WANTED = 10          # decisions inside battles to check per case
MAX_DECISIONS = 4000


def _check(g: Game) -> bool:
    """Check the position; True when it is a decision inside a battle."""
    flow = g.s.flow
    procs = [f["proc"] for f in flow]
    if g.s.battle is None:
        return False
    assert "battle" in procs
    ours = [f for f in flow if f["proc"] in BATTLE_PROCS]
    assert json.loads(json.dumps(ours)) == ours      # plain JSON: ids, keys, players, areas, numbers
    assert not any(isinstance(v, dict) and "kind" in v for f in ours for v in f.values())   # no unit dicts
    return True


@pytest.mark.parametrize(("ruleset", "players", "expanded"), CASES)
def test_a_battle_in_progress_is_data(ruleset: str, players: int, expanded: bool) -> None:
    """Seeded games (random and heuristic players in turn) until some decisions inside battles
    were checked."""
    r = random.Random(f"battle-{ruleset}-{players}-{expanded}")
    in_battle = decisions = 0
    for agent_type in (RandomAgent, HeuristicAgent) * 3:
        if in_battle >= WANTED or decisions >= MAX_DECISIONS:
            break
        seed = r.randrange(10_000)
        g = Game(content(expanded), ruleset, FACTIONS[ruleset, players], seed)
        agent: Any = agent_type(seed)
        while (d := g.current()) is not None and decisions < MAX_DECISIONS:
            decisions += 1
            in_battle += _check(g)
            g.apply(agent.choose(d.player, d.options, d))
    assert in_battle > 0   # the games reached decisions inside battles


def _battle_alone(expanded: bool, ruleset: str, players: int, seed: int) -> Game | None:
    """A seeded heuristic game up to its first offered battle, which then runs as the only frame
    on its own: its decisions are then positions the state alone describes."""
    g = Game(content(expanded), ruleset, FACTIONS[ruleset, players], seed)
    agent = HeuristicAgent(seed)
    while (d := g.current()) is not None:
        fights = [o for o in d.options if o.split()[0] == "battle"]
        if fights:
            _, area, foe = fights[0].split()[:3]
            g.s.flow = [dict(battle_queries.battle_call(g.rules, d.player, foe, area).frame)]
            g.s.pending = None
            flow.run(g.rules)
            return g
        g.apply(agent.choose(d.player, d.options, d))
    return None


@pytest.mark.parametrize("expanded", [False, True], ids=["core", "expanded"])
def test_a_battle_resumes_from_its_frames_alone(expanded: bool) -> None:
    """At every decision of a battle run with no generator on the stack, a clone and a saved and
    loaded copy continue exactly as the battle itself (the frames are the battle's whole progress)."""
    checked = 0
    for seed in range(40):
        g = _battle_alone(expanded, "multiplayer", 4, seed)
        if g is None or g.current() is None:
            continue
        agent = RandomAgent(seed)
        copies: list[tuple[Game, int]] = []
        while (d := g.current()) is not None:
            copies.append((g.clone(), len(g.log)))
            copies.append((Game.from_json(content(expanded), g.to_json(), check_by_replay=False), len(g.log)))  # frames set by hand
            g.apply(agent.choose(d.player, d.options, d))
        answers = g.choices
        for c, mark in copies:
            for a in answers[len(c.choices):]:
                c.apply(a)
            assert c.current() is None and c.s.flow == [] and c.s.battle is None
            assert c.digest() == g.digest()
            assert c.log[mark:] == g.log[mark:]
            checked += 1
        if checked >= 20:
            break
    assert checked > 0
