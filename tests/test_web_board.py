"""The board a browser draws, built from a player's view for every decision of a random game with
the expansions: plain JSON, and no other player's Elder Sign value in it."""
from __future__ import annotations

import json

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.engine.game import Game
from necronomicon.tools.web.board import board_json
from necronomicon.interpreter.engine import phases


def test_a_board_for_every_decision_of_a_game_with_the_expansions() -> None:
    c = load_content(expansions=["independents", "azathoth"]).require_ok()
    g = Game(c, "duel", ["sleeper", "wind-rider"], 41)
    # the heuristic bot keeps its Elder Signs hidden (a random one reveals them as soon as it may)
    bots = {f: make_agent("heuristic", i) for i, f in enumerate(g.s.players)}
    hidden_seen = 0
    while g.current() is not None and len(g.choices) < 2000:
        d = g.current()
        b = board_json(g.content, g.layout, g.view(d.player), g.log, phases.ritual_track(g.rules))
        assert json.loads(json.dumps(b)) == b
        for f in b["factions"]:
            if f["id"] != d.player:
                assert all(v is None for v in f["elder_signs"])
                hidden_seen += len(f["elder_signs"])
            else:
                assert f["elder_signs"] == g.s.elder_signs[f["id"]]
        assert b["pending"]["player"] == d.player and b["pending"]["groups"]
        assert {u["loc"] for u in b["units"]} <= {a["id"] for a in b["map"]["areas"]}
        g.apply(bots[d.player].choose(d.player, d.options, d))  # type: ignore[attr-defined]
    assert g.is_over() and hidden_seen > 0
