"""The Ancients (`--expansions published`): seeded games finish at 3, 4 and 5 players with the
neutral monsters, neutral spellbooks and Independent Great Old Ones in play, with every kind of bot;
the card says where it comes from. Each ability has its scenarios in tests/scenarios/published/ancients/."""
from __future__ import annotations

import pytest

from benchmarks.soak import soak
from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.agents import HeuristicAgent, RandomAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.invariants import Checker
from necronomicon.interpreter.engine.play import run_game
from necronomicon.tools.cli import main

EXPANSIONS = ["published", "azathoth", "independents", "neutrals"]


@pytest.fixture(scope="module")
def content():  # noqa: ANN201
    return load_content(expansions=EXPANSIONS).require_ok()


def test_the_ancients_load_only_with_their_expansion_and_have_no_great_old_one(content) -> None:  # noqa: ANN001
    base = load_content().require_ok()
    assert "ancients" not in base.model.factions
    assert not [a for lay in base.model.layouts.values() for a in lay.areas.values() if "ancients" in a.starts]
    f = content.model.factions["ancients"]
    assert list(f.goos) == []
    assert sorted(t.cls for t in f.units.values()) == ["cultist", "monster", "monster", "terror"]


def test_show_faction_marks_the_ancients_as_taken_from_public_descriptions(capsys: pytest.CaptureFixture[str],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["show", "faction", "ancients", "--expansions", "published"]) == 0
    out = capsys.readouterr().out
    assert "Taken from public descriptions of the published card, not from a rulebook shipped here." in out
    assert "solo/FactionAN.scala" in out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_seeded_games_with_the_ancients_and_the_neutral_cards_finish(content, players: int) -> None:  # noqa: ANN001
    others = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"][: players - 1]
    seats = ["ancients", *others]
    seed = 60 + players
    agents = {p: (RandomAgent(seed + i) if i % 3 == 0 else HeuristicAgent(seed + i) if i % 3 == 1
                  else make_agent("mcts:3:depth=6", seed + i)) for i, p in enumerate(seats)}
    if players == 3:   # the Ancients themselves played by the search bot once
        agents["ancients"] = make_agent("mcts:3:depth=6", seed)
    assert {"ghast", "gug", "shantak"} <= set(content.model.neutral_cards)
    assert {"shriveling", "umr-at-tawil", "undimensioned", "consequences"} <= set(content.model.neutral_spellbooks)
    g = Game(content, "multiplayer", seats, seed)
    checker = Checker(g)
    run_game(g, agents, check=checker)
    checker.detach()
    assert g.is_over() and checker.states > 0
    assert g.result_line()
    acted = [e for e in g.log if e.get("type") == "unit" and e.get("owner") == "ancients" and e.get("why") != "setup"]
    assert acted   # the Ancients did more than set up


def test_a_small_mixed_soak_featuring_the_ancients_has_no_violation() -> None:
    r = soak("multiplayer", 9, seed0=700, expansions=tuple(EXPANSIONS), agents="mixed+mcts:3:depth=6",
             featuring=["ancients"])
    assert r["failures"] == [] and r["violations"] == 0
    assert set(r["setups"]) == {"multiplayer/3", "multiplayer/4", "multiplayer/5"}
