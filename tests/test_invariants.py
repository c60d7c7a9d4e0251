"""The invariant checker finds broken states (so a clean soak means something)."""
from __future__ import annotations

from interpreter.content.build import Content
from interpreter.engine.agents import RandomAgent
from interpreter.engine.game import Game
from interpreter.engine.invariants import violations
from interpreter.engine.play import run_game


def test_a_played_game_keeps_every_invariant(basic: Content) -> None:
    g = Game(basic, "test-multi", ["red", "blue", "green"], 3)
    run_game(g, {p: RandomAgent(i) for i, p in enumerate(g.s.players)}, check=True)
    assert violations(g) == []


def test_broken_states_are_reported(basic: Content) -> None:
    g = Game(basic, "test-multi", ["red", "blue"], 1)
    before = {"doom": {"red": 5, "blue": 0}, "ritual": 2}
    g.s.units.append(dict(g.s.units[0], id=999))          # an extra acolyte
    g.s.units[1]["loc"] = "the-moon"
    g.s.power["blue"] = -1
    loc = next(iter(g.s.gates))
    g.s.gates[loc]["controller"] = next(u["id"] for u in g.s.units if u["loc"] == "pool")
    found = violations(g, before)
    assert any("has 7 acolyte, the card prints 6" in v for v in found)
    assert any("impossible place 'the-moon'" in v for v in found)
    assert any("negative Power" in v for v in found)
    assert any("which is not there" in v for v in found)
    assert any("Doom went down" in v for v in found)
    assert any("ritual marker went back" in v for v in found)


def test_broken_independent_states_are_reported(builtin: Content) -> None:
    g = Game(builtin, "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat"], 1,
             independents=["azathoth", "independent-hastur"])
    az = next(u for u in g.s.units if u["kind"] == "azathoth")
    az["loc"] = "south-pacific"                          # on the map, yet nobody controls it
    g.s.loyalty["independent-hastur"]["spellbooks"] = ["hastur-spellbook"]
    found = violations(g)
    assert any("figure #" in v and "owned by ''" in v for v in found)
    assert any("keeps spellbooks ['hastur-spellbook'] in the general pool" in v for v in found)
    # a Doom loss is fine when an effect logged it, not otherwise
    before = {"doom": {p: 3 for p in g.s.players}, "ritual": 0, "log": len(g.log)}
    g.emit("doom", player="black-goat", change=-2, total=1, why="test")
    g.s.doom["black-goat"] = 1
    found = violations(g, before)
    assert not any(v.startswith("black-goat's Doom") for v in found)
    g.s.doom["black-goat"] = 0                           # one point more than the log accounts for
    assert any(v.startswith("black-goat's Doom went down") for v in violations(g, before))
    assert any(v.startswith("crawling-chaos's Doom went down") for v in found)
