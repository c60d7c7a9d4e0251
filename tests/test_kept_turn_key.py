"""A free Unlimited Action's entry in its turn's `seen` list holds the key of the position it was
chosen at, also when `Turn.chosen` takes the key its turn's listing made at that position instead
of making it again (`turn.POSITION_KEPT`): a key kept past its answer would describe an older
position."""
from __future__ import annotations

import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import phases
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.game import Game


@pytest.mark.parametrize("ruleset,factions,seed", [
    ("duel", ["sleeper", "wind-rider"], 4),
    # here a key kept from one turn's listing would be taken at a later free action of that turn
    # if `chosen` did not drop it at every answer (the memo, which holds it, outlives a change of Power)
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 16),
])
def test_a_free_actions_seen_entry_holds_the_key_of_its_position(base_game: Content, ruleset: str,
                                                                 factions: list[str], seed: int) -> None:
    """Each free Unlimited Action taken is recorded with the key of the position where it was
    chosen, whether `chosen` made that key or took the one its turn's listing made there."""
    g = Game(base_game, ruleset, factions, seed)
    agents = {p: RandomAgent(seed * 7 + i) for i, p in enumerate(factions)}   # (as benchmarks/measure.py)
    recorded = 0
    while (d := g.current()) is not None:
        f = g.s.flow[-1]
        ans = agents[d.player].choose(d.player, d.options, d)
        if f["proc"] == "turn" and f["at"] == "chosen" and f["costs"].get(ans) == 0:
            here, seen = phases.position_key(g.rules), len(f["seen"])
            g.apply(ans)
            if len(f["seen"]) > seen:
                assert f["seen"][-1] == [here, ans]
                recorded += 1
        else:
            g.apply(ans)
    assert recorded >= 20
