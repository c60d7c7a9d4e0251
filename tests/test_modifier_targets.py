"""The content fact `ContentTables.modifier_targets` (every modifier target a game of the content can
have in play) and what reads it: `actions.unit_gates` and the requirement checks' key part
`unit-gates` (`actions.unit_gates_bytes`) answer without asking the memo when the content has no
`counts-as-gate` modifier, and give what the modifiers in play give, with and without one."""
from __future__ import annotations

import marshal
from pathlib import Path
from typing import Any, Iterator

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine import actions, core
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.tools.scenario import run_spec

FIXTURE = Path(__file__).parent / "fixtures" / "gate-units"   # the Warden: a Sentinel counts as a Gate


def _slow_unit_gates(g: Any, p: str | None = None) -> list[str]:
    """What the modifiers in play say, asked of every unit on the map (no content fact read)."""
    mods = core.modifiers_of(g, "counts-as-gate")
    return sorted(u["loc"] for u in g.s.on_map(p) if mods and core.modified(g, "counts-as-gate", False, u,
                                                                             u["owner"], mods))


def _play(content: Any, ruleset: str, factions: list[str], seed: int, decisions: int) -> Iterator[Any]:
    """Positions of a seeded random game, one every seventh decision."""
    game = Game(content, ruleset, factions, seed)
    agents = {p: RandomAgent(seed + i) for i, p in enumerate(game.s.players)}
    for n in range(decisions):
        d = game.current()
        if d is None:
            return
        if n % 7 == 0:
            yield game
        game.apply(agents[d.player].choose(d.player, d.options, d))


@pytest.mark.parametrize("expansions, fixtures, ruleset, factions", [
    ((), (), "duel", ["sleeper", "wind-rider"]),
    ((), (), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"]),
    (("independents", "azathoth"), (), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"]),
    ((), (FIXTURE,), "multiplayer", ["warden", "great-cthulhu", "black-goat"]),
    (("published",), (), "multiplayer", ["opener", "great-cthulhu", "black-goat"]),
])
def test_every_modifier_in_play_has_a_target_of_the_fact_and_unit_gates_give_the_slow_answer(
        expansions: tuple[str, ...], fixtures: tuple[Path, ...], ruleset: str, factions: list[str]) -> None:
    content = load_content(list(fixtures), expansions=list(expansions)).require_ok()
    targets = content.model.tables.modifier_targets[ruleset]
    gating = "counts-as-gate" in targets
    assert gating == bool(fixtures or "published" in expansions)   # the Warden's Sentinel, the Opener's
    seen = 0
    for game in _play(content, ruleset, factions, 11, 400):
        g = game.rules
        assert set(core.modifier_index(g)) <= targets
        assert marshal.loads(actions.unit_gates_bytes(g)) == _slow_unit_gates(g)
        for p in g.s.players:
            assert actions.unit_gates(g, p) == _slow_unit_gates(g, p)
        seen += 1
    assert seen > 20


def test_a_unit_that_counts_as_a_gate_is_in_the_key_part() -> None:
    content = load_content([FIXTURE]).require_ok()
    spec = {"ruleset": "multiplayer", "factions": ["warden", "great-cthulhu", "black-goat"], "script": [],
            "expect": {}, "dice": [],
            "position": {"player": "warden", "first": "warden", "power": {"warden": 4, "great-cthulhu": 3, "black-goat": 3},
                         "units": {"warden": {"asia": ["sentinel"], "europe": ["acolyte"]},
                                   "great-cthulhu": {"south-pacific": ["acolyte"]}},
                         "gates": {"europe": "warden"}}}
    out = run_spec(spec, content)
    assert out.ok, out.failures
    g = out.game.rules
    assert marshal.loads(actions.unit_gates_bytes(g)) == ["asia"]
    base = Game(load_content().require_ok(), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat"], 1)
    assert marshal.loads(actions.unit_gates_bytes(base.rules)) == []
