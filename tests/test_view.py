"""Player views: the position as one player may know it (issue 15, 'Player views')."""
from __future__ import annotations

import json
from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.position import build_state

FACTIONS = ["great-cthulhu", "crawling-chaos", "black-goat"]


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content().require_ok()


def _game(content: Content, signs: dict[str, list[int]], seed: int = 1, independents: list[str] | None = None,
          pos: dict[str, Any] | None = None) -> Game:
    layout = content.model.rulesets["multiplayer"].get("map")["3"]
    position = {"player": "great-cthulhu", "power": {f: 6 for f in FACTIONS},
                "units": {"great-cthulhu": {"south-pacific": ["acolyte"]}, "crawling-chaos": {"asia": ["acolyte"]},
                          "black-goat": {"africa": ["acolyte"]}},
                "gates": {"south-pacific": "great-cthulhu"}, "elder-signs": signs, **(pos or {})}
    state = build_state(content.model, "multiplayer", layout, FACTIONS, seed, position, independents or [])
    return Game(content, "multiplayer", FACTIONS, seed, layout, independents=independents, _state=state.to_dict())


def test_games_differing_only_in_an_opponents_hidden_elder_signs_look_the_same(content: Content) -> None:
    a = _game(content, {"great-cthulhu": [2], "crawling-chaos": [1, 1]}, seed=1)
    b = _game(content, {"great-cthulhu": [2], "crawling-chaos": [3, 2]}, seed=2)
    assert a.s.elder_signs != b.s.elder_signs and a.s.es_bag != b.s.es_bag
    assert a.view("great-cthulhu") == b.view("great-cthulhu")
    assert a.view("black-goat") == b.view("black-goat")
    assert a.view(None) == b.view(None)
    # the owner sees its own values, and so tells the two games apart
    assert a.view("crawling-chaos")["state"]["elder_signs"]["crawling-chaos"] == [1, 1]
    assert a.view("crawling-chaos") != b.view("crawling-chaos")
    # the number of face-down signs is public
    assert a.view("great-cthulhu")["state"]["elder_signs"]["crawling-chaos"] == [None, None]


def test_a_view_is_plain_json_and_hides_what_predicts_dice(content: Content) -> None:
    g = Game(content, "multiplayer", FACTIONS, 5)
    v = g.view("black-goat")
    assert json.loads(json.dumps(v)) == v
    assert v["state"]["rng"] is None and v["state"]["seed"] is None and "seed" not in v["params"]
    assert set(v["state"]["es_bag"]) == {None} and len(v["state"]["es_bag"]) == len(g.s.es_bag)
    assert v["state"]["units"] == g.s.to_dict()["units"]
    with pytest.raises(ValueError, match="not playing"):
        g.view("sleeper")


def test_a_view_copies_all_it_shows_and_only_that(content: Content) -> None:
    g = Game(content, "multiplayer", FACTIONS, 7)
    g.apply(g.legal_actions()[0])
    full = g.s.to_dict()
    v = g.view("great-cthulhu")["state"]
    assert v["flow"] is None and v["pending"] is None and full["flow"] and full["pending"]
    assert {k: x for k, x in v.items() if k not in ("flow", "pending", "rng", "seed", "elder_signs", "es_bag")} \
        == {k: x for k, x in full.items() if k not in ("flow", "pending", "rng", "seed", "elder_signs", "es_bag")}
    before = g.to_json()
    v["units"][0]["loc"] = "nowhere"
    v["gates"].clear()
    v["memory"]["x"] = 1
    assert g.to_json() == before   # the view shares nothing with the state


def test_a_pending_secret_pick_shows_its_options_to_the_chooser_only() -> None:
    expanded = load_content(expansions=["azathoth"]).require_ok()
    pos = {"round": 2, "doom": {"great-cthulhu": 6, "crawling-chaos": 5, "black-goat": 3},
           "units": {"great-cthulhu": {"south-pacific": ["acolyte", "cthulhu"]},
                     "crawling-chaos": {"asia": ["acolyte", "nyarlathotep"]},
                     "black-goat": {"africa": ["acolyte", "shub-niggurath"]}},
           "power": {"great-cthulhu": 10, "crawling-chaos": 4, "black-goat": 4}}
    g = _game(expanded, {}, independents=["azathoth"], pos=pos)
    g.rules._forced_dice = [3]
    g.apply("awaken azathoth south-pacific")
    d = g.current()
    assert d is not None and d.kind == "secret" and d.player == "crawling-chaos"
    assert g.view("crawling-chaos")["pending"]["options"] == ["1", "2", "3", "4", "5", "6"]
    assert "options" not in g.view("black-goat")["pending"]
    g.apply("6")                                   # crawling-chaos's pick lives in no state field
    first = _game(expanded, {}, independents=["azathoth"], pos=pos)
    first.rules._forced_dice = [3]
    first.apply("awaken azathoth south-pacific")
    first.apply("2")
    assert g.view("black-goat") == first.view("black-goat")
