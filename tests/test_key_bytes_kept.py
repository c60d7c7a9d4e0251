"""The position key's kept bytes (`plain_data.RestBytes`, `Turn.chosen`'s kept key) stay exact.

The bytes of the State fields in `plain_data.KEPT` are kept until a write to the field is noted
(`State.wrote`): every engine write to them must note itself, or a position key describes an
older position. Seeded games compare the kept bytes with bytes made afresh at every decision, over
the write paths a game takes (a start area chosen, spellbooks taken, requirements earned, tokens
placed, a Great Old One awakened): a write path that forgets its note fails here. And a free
Unlimited Action's entry in the turn's `seen` list holds the key of the position it was chosen at,
also when the key comes from the listing before it rather than made again."""
from __future__ import annotations

import random
from typing import Any

import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import phases
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.plain_data import KEPT

_GAMES = [
    ("duel", ["sleeper", "wind-rider"], "base_game", 3),
    ("duel", ["great-cthulhu", "crawling-chaos"], "base_game", 4),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], "base_game", 5),
    ("multiplayer", ["sleeper", "wind-rider", "great-cthulhu"], "builtin", 5),   # Independents, Azathoth
]


def _memory(g: Game) -> dict[str, Any]:
    return {k: v for k, v in g.s.memory.items() if k not in ("action_no", "actions")}


def _changed_while_checked(g: Game, seed: int) -> set[str]:
    """Random answers, the kept bytes compared with fresh ones before each; the kept fields written."""
    rng = random.Random(seed)
    changed: set[str] = set()
    before = {name: repr(getattr(g.s, name)) for name in KEPT}
    for _ in range(400):
        if g.pending is None:
            break
        kept = phases._REST.key_bytes(g.s, _memory(g))
        assert kept == phases._REST.fresh(g.s, _memory(g)), "a write to a kept field was not noted"
        assert g.s._kept_bytes is not None and set(g.s._kept_bytes) == KEPT
        now = {name: repr(getattr(g.s, name)) for name in KEPT}
        changed |= {name for name in KEPT if now[name] != before[name]}
        before = now
        g.apply(rng.choice(g.pending.options))
    return changed


def test_kept_field_bytes_equal_fresh_ones_at_every_decision(request: pytest.FixtureRequest) -> None:
    changed: set[str] = set()
    for ruleset, factions, fixture, seed in _GAMES:
        g = Game(request.getfixturevalue(fixture), ruleset, factions, seed)
        changed |= _changed_while_checked(g, seed)
    assert changed == KEPT   # every kept field was written in these games, so each write path was checked


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
