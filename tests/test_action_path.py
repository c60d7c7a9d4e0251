"""The one action path: actions limited to an area (a spellbook's "take any action in that zone"),
unique actions that end in an area (`where:`), and a lent ability's stand-in Great Old One."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import flow
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.position import build_state
from necronomicon.tools.validate import validate
from necronomicon.interpreter.engine import abilities
from necronomicon.interpreter.engine import actions
from necronomicon.interpreter.engine import basics
from necronomicon.interpreter.engine import core

ROOT = Path(__file__).parent


@pytest.fixture(scope="module")
def duel() -> Content:
    return load_content().require_ok()


def _game(content: Content, pos: dict, factions: list[str] | None = None) -> Game:
    factions = factions or ["sleeper", "wind-rider"]
    state = build_state(content.model, "duel", "earth-3w3e", factions, 1, pos)
    return Game(content, "duel", factions, 1, "earth-3w3e", _state=state.to_dict())


def test_where_is_refused_outside_action_abilities(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT.parent)
    out = io.StringIO()
    assert validate([str(ROOT / "bad" / "misplaced-where")], only=True, out=out) == 1
    assert out.getvalue().splitlines()[0] == (
        "tests/bad/misplaced-where/f.yaml:10:49: error: 'where' (the areas an action ends in) is for action "
        "abilities; 'a' has window 'doom-phase' [misplaced-where]")


def test_actions_within_an_area_are_the_turns_actions_in_that_area(duel: Content) -> None:
    g = _game(duel, {"player": "sleeper", "first": "sleeper", "power": {"sleeper": 5, "wind-rider": 3},
                     "requirements": {"sleeper": ["awaken-tsathoggua"]},
                     "spellbooks": {"sleeper": ["capture-a-monster"]},
                     "units": {"sleeper": {"europe": [], "asia": [], "africa": ["tsathoggua", "acolyte"]},
                               "wind-rider": {"africa": ["windigo"], "europe": ["acolyte"]}}})
    every = {o.label for o in actions.main_actions(g.rules, "sleeper")}
    within = {o.label for o in actions.main_actions(g.rules, "sleeper", within="africa")}
    assert within <= every
    assert "ability capture-monster africa" in within and "recruit acolyte africa" in within
    assert "move" in within                          # a unit can leave africa
    assert not any(label.startswith(("battle", "requirement", "ability lethargy")) for label in within)
    assert {o.label for o in actions.main_actions(g.rules, "sleeper", within="australia")} == set()   # nothing moves in or out


def test_no_action_outside_the_turn_at_zero_power(duel: Content) -> None:
    g = _game(duel, {"player": "wind-rider", "first": "wind-rider", "power": {"sleeper": 0, "wind-rider": 3},
                     "spellbooks": {"sleeper": ["chain-of-events"]},
                     "requirements": {"wind-rider": ["be-first-player"]},
                     "units": {"sleeper": {"europe": ["sorcerer"], "asia": ["acolyte"]},
                               "wind-rider": {"europe": ["windigo", "windigo"]}}})
    call = actions.action_in_call(g.rules, "sleeper", "europe", "test")
    step = flow.PROCS[call.frame["proc"]].step(g, call.frame, None)
    assert step == flow.Return(None)                 # "this will not work if you have no Power": nothing asked


def test_a_stand_in_reads_as_the_lent_abilitys_great_old_one(duel: Content) -> None:
    g = _game(duel, {"player": "sleeper", "first": "sleeper", "power": {"sleeper": 3, "great-cthulhu": 0},
                     "units": {"sleeper": {"europe": ["acolyte"]}, "great-cthulhu": {"south-pacific": ["acolyte"]}}},
              ["sleeper", "great-cthulhu"])
    immortal = abilities.ability_by_key(g.rules, "great-cthulhu/immortal")
    assert immortal is not None
    tsathoggua = basics.faction(g.rules, "sleeper").units["tsathoggua"]
    assert core.unit_cost(g.rules, "sleeper", tsathoggua) == 8
    g.s.awakened["sleeper"] = ["tsathoggua"]
    g.s.grants.append({"ability": immortal.key, "to": "sleeper", "until": "end-of-doom-phase", "round": 1})
    g.rules.state_written()   # a change made by hand is noted, so the active abilities are worked out again
    assert core.unit_cost(g.rules, "sleeper", tsathoggua) == 8   # lent without a stand-in: Immortal names only Cthulhu
    g.s.grants[-1]["stand_in"] = {"cthulhu": "tsathoggua"}
    g.rules.state_written()
    assert core.unit_cost(g.rules, "sleeper", tsathoggua) == 4
    assert core.ctx(g.rules, "sleeper", ability=immortal).kind_arg(["cthulhu"], True) == ["cthulhu", "tsathoggua"]


def test_lending_again_renews_the_grant_rather_than_doubling_it(duel: Content) -> None:
    g = _game(duel, {"player": "sleeper", "first": "sleeper", "power": {"sleeper": 5, "wind-rider": 0},
                     "spellbooks": {"sleeper": ["ancient-sorcery"]},
                     "requirements": {"wind-rider": ["be-first-player"]},
                     "units": {"sleeper": {"europe": ["serpent-man", "serpent-man"]}, "wind-rider": {"antarctica": ["acolyte"]}}})
    g.apply("ability borrow")
    g.apply("serpent-man europe")
    g.apply("ability borrow")   # the Wind-Rider has no Power: the Sleeper's next turn follows
    assert len([u for u in g.s.units if u["loc"] == "held:sleeper:sorcery"]) == 2
    lent = [x for x in g.s.grants if x["ability"] == "wind-rider/hibernation"]
    assert len(lent) == 1 and lent[0]["stand_in"] == {"rhan-tegoth": "tsathoggua", "itaqua": "tsathoggua"}
