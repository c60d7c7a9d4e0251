"""The engine core's procedures are frames (issue #13): timing windows, ability uses, unit removal,
spellbook requirements (faction and loyalty cards) and earning them.

At every decision of seeded games in every ruleset (with and without the expansions), no legacy
frame on the stack hosts one of these procedures' generators, their frames are plain JSON, and
the procedures really run as frames (window and ability frames are seen on the stack).
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from interpreter.engine.agents import RandomAgent
from interpreter.engine.game import Game

from .test_copies_property import CASES, FACTIONS, content

# the generators these procedures were (legacy frames name their generator function)
CORE_GENERATORS = {"window", "use_ability", "remove_unit", "check_requirements", "earn", "earn_after_battle",
                   "check_loyalty_requirements", "earn_loyalty"}
CORE_PROCS = {"window", "ability", "remove-unit", "requirements", "earn", "loyalty-requirements", "earn-loyalty"}
DECISIONS = 220   # per game


def _play(ruleset: str, players: int, expanded: bool, seed: int, seen: Counter[str]) -> None:
    g = Game(content(expanded), ruleset, FACTIONS[ruleset, players], seed)
    agent = RandomAgent(seed)
    for _ in range(DECISIONS):
        d = g.current()
        if d is None:
            return
        for f in g.s.flow:
            assert not (f["proc"] == "legacy" and f.get("fn") in CORE_GENERATORS), (f, g.s.flow)
            if f["proc"] in CORE_PROCS:
                seen[f["proc"]] += 1
                assert json.loads(json.dumps(f)) == f, f
        g.apply(agent.choose(d.player, d.options, d))


@pytest.mark.parametrize(("ruleset", "players", "expanded"), CASES)
def test_the_core_procedures_run_as_frames(ruleset: str, players: int, expanded: bool) -> None:
    seen: Counter[str] = Counter()
    r = random.Random(f"frames-{ruleset}-{players}-{expanded}")
    for _ in range(2):
        _play(ruleset, players, expanded, r.randrange(10_000), seen)
    assert seen["window"], seen   # decisions asked inside a window
