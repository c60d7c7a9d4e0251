"""share_power_loss: enemies agree one after another how much Power each gives up (The Thousand Forms)."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.decisions import IllegalAction
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.position import build_state

FACTIONS = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"]


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content().require_ok()


def thousand_forms(content: Content, power: dict[str, int], roll: int) -> Game:
    """The Crawling Chaos about to answer: its Thousand Forms rolled `roll`."""
    pos: dict[str, Any] = {
        "player": "crawling-chaos", "first": "crawling-chaos", "power": power,
        "spellbooks": {"crawling-chaos": ["thousand-forms"]},
        "units": {"great-cthulhu": {"south-pacific": ["acolyte"]}, "crawling-chaos": {"north-america": ["nyarlathotep"]},
                  "black-goat": {"west-africa": ["acolyte"]}, "yellow-sign": {"europe": ["acolyte"]}},
    }
    layout = content.model.rulesets["multiplayer"].get("map")["4"]
    state = build_state(content.model, "multiplayer", layout, FACTIONS, 1, pos).to_dict()
    g = Game(content, "multiplayer", FACTIONS, 1, layout, forced_dice=[roll], _state=state)
    g.apply("ability thousand-forms")
    return g


def test_each_enemy_is_offered_only_shares_the_others_can_still_complete(content: Content) -> None:
    g = thousand_forms(content, {"great-cthulhu": 5, "crawling-chaos": 1, "black-goat": 1, "yellow-sign": 2}, 6)
    d = g.current()
    assert (d.player, d.options) == ("great-cthulhu", ("3", "4", "5", "refuse"))   # the others have 3
    g.apply("4")
    assert (g.current().player, g.current().options) == ("black-goat", ("0", "1", "refuse"))
    g.apply("0")
    assert (g.current().player, g.current().options) == ("yellow-sign", ("2", "refuse"))
    g.apply("2")
    assert g.s.power == {"great-cthulhu": 1, "crawling-chaos": 1, "black-goat": 1, "yellow-sign": 0}


def test_once_the_roll_is_covered_the_rest_are_not_asked(content: Content) -> None:
    g = thousand_forms(content, {"great-cthulhu": 6, "crawling-chaos": 1, "black-goat": 3, "yellow-sign": 3}, 2)
    assert g.current().options == ("0", "1", "2", "refuse")
    g.apply("2")
    assert g.current().kind == "action"   # the next turn: no one else was asked
    assert g.s.power["great-cthulhu"] == 4 and g.s.power["black-goat"] == 3


def test_a_refusal_by_the_last_enemy_gives_the_roll_to_the_crawling_chaos(content: Content) -> None:
    g = thousand_forms(content, {"great-cthulhu": 1, "crawling-chaos": 1, "black-goat": 1, "yellow-sign": 4}, 5)
    g.apply("1")
    g.apply("1")
    g.apply("refuse")
    assert g.s.power == {"great-cthulhu": 1, "crawling-chaos": 6, "black-goat": 1, "yellow-sign": 4}


def test_a_share_out_of_bounds_is_refused_and_changes_nothing(content: Content) -> None:
    g = thousand_forms(content, {"great-cthulhu": 5, "crawling-chaos": 1, "black-goat": 1, "yellow-sign": 2}, 6)
    before = g.digest()
    for bad in ("2", "6", "-1", "3.0", "refuse "):
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert g.digest() == before
