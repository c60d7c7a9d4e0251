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


class _Mod:
    """A battle modifier (target `combat`) with subject guards and a `when` that counts its calls."""

    def __init__(self, guards: tuple[Any, ...], holds: bool) -> None:
        self.target, self.guards, self.holds, self.calls = "combat", guards, holds, 0

    def when(self, ctx: Any) -> bool:
        self.calls += 1
        return self.holds


def _in_battle(seed: int = 3) -> Game:
    g = Game(content(False), "multiplayer", FACTIONS["multiplayer", 4], seed)
    agent = HeuristicAgent(seed)
    while g.s.battle is None or not any(battle_queries.participants(g.rules, p) for p in battle_queries.battle_sides(g.rules)):
        d = g.current()
        assert d is not None and len(g.choices) < 1500
        g.apply(agent.choose(d.player, d.options, d))
    return g


def test_a_declinable_modifier_its_guards_reject_makes_no_context(monkeypatch: pytest.MonkeyPatch) -> None:
    """DeclinesProc asks about an ongoing ability only if one of its battle modifiers would apply
    to something in the battle: a subject the modifier's guards reject (effects/subject_guards.py)
    is not judged by its `when`; in checking mode the `when` is run and must be false."""
    from necronomicon.interpreter.effects.subject_guards import ME
    from necronomicon.interpreter.engine import abilities, battle_parts, state
    g = _in_battle()
    p = battle_queries.battle_sides(g.rules)[0]
    ab = next(ab for _, ab in abilities.active_abilities_all(g.rules))
    nobody = _Mod((("owner", "==", "no-such-player"),), holds=False)   # every unit rejected
    assert not battle_parts._modifier_applies(g.rules, p, ab, [nobody]) and nobody.calls == 0
    mine = _Mod((("owner", "==", ME),), holds=True)                     # p's own units judged
    assert battle_parts._modifier_applies(g.rules, p, ab, [mine]) == any(battle_queries.participants(g.rules, p))
    other = battle_queries.opponent_in_battle(g.rules, p)
    theirs = _Mod((("owner", "==", ME),), holds=True)
    judged = battle_parts._modifier_applies(g.rules, other, ab, [theirs])
    assert judged == bool(battle_queries.participants(g.rules, other)) and theirs.calls == int(judged)
    wrong = _Mod((("owner", "==", "no-such-player"),), holds=True)      # guards that contradict the `when`
    assert not battle_parts._modifier_applies(g.rules, p, ab, [wrong]) and wrong.calls == 0
    monkeypatch.setattr(state, "CHECK_MEMO", True)
    with pytest.raises(AssertionError, match="subject guards"):
        battle_parts._modifier_applies(g.rules, p, ab, [wrong])
