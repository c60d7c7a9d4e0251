"""A battle's participants (engine/battle_queries.py) are read from the State's unit index: at
every decision inside a battle of seeded heuristic 4-player games they are the units a scan of
`State.units` finds (that side's, in the battle's area, not exempt; in the order of `units`),
with the battle's exempt list empty and with a unit in it, and the scan is not made."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.engine.agents import HeuristicAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine import battle_queries

from .test_copies_property import FACTIONS, content


def _scanned(g: Game, side: str) -> list[dict[str, Any]]:
    b = g.s.battle
    return [u for u in g.s.units if u["owner"] == side and u["loc"] == b["area"] and u["id"] not in b["exempt"]]


class _Unscannable(list):  # type: ignore[type-arg]
    """`State.units` that refuses to be gone through (its length is still read by the index's check)."""

    def __iter__(self) -> Any:
        raise AssertionError("participants scanned every unit")


def _check(g: Game) -> int:
    rules, b = g.rules, g.s.battle
    for side in (b["attacker"], b["defender"]):
        want = _scanned(g, side)
        assert [u["id"] for u in battle_queries.participants(rules, side)] == [u["id"] for u in want]
        assert all(x is y for x, y in zip(battle_queries.participants(rules, side), want))
        if want:   # with one of them exempt from the battle, the others
            saved = b["exempt"]
            b["exempt"] = saved + [want[0]["id"]]
            assert battle_queries.participants(rules, side) == _scanned(g, side) == want[1:]
            b["exempt"] = saved
        units, g.s.units = g.s.units, _Unscannable(g.s.units)
        try:
            got = battle_queries.participants(rules, side)
        finally:
            g.s.units = units
        assert got == want
        got.append(None)   # a new list: the index's own is not changed through it
        assert battle_queries.participants(rules, side) == want
    return 1


@pytest.mark.parametrize("seed", [3, 11])
def test_participants_are_the_scanned_units_without_a_scan(seed: int) -> None:
    g = Game(content(False), "multiplayer", FACTIONS["multiplayer", 4], seed)
    agent = HeuristicAgent(seed)
    checked = 0
    while (d := g.current()) is not None and len(g.choices) < 1500 and checked < 40:
        if g.s.battle is not None:
            checked += _check(g)
        g.apply(agent.choose(d.player, d.options, d))
    assert checked >= 5   # the game reached decisions inside battles
