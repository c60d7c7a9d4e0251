"""The primitives the Opener of the Way needed, each on its own with a modder's faction that is no
published card (tests/fixtures/gate-units: the Warden): a unit that counts as a Gate
(`counts-as-gate`), Summoning at Gates one does not control (`summon-at-gate`), rerolling missed
battle dice (`reroll_misses`, `rolled(what: 'misses')`), a pool of dice at once (`roll_dice`), and a
start in any area without a Gate (`setup: start-anywhere`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.game import Game
from necronomicon.tools.scenario import run_spec
from necronomicon.interpreter.engine import actions
from necronomicon.interpreter.engine import core

FIXTURE = Path(__file__).parent / "fixtures" / "gate-units"
SEATS = ["warden", "great-cthulhu", "black-goat"]


@pytest.fixture(scope="module")
def content():  # noqa: ANN201
    return load_content([FIXTURE]).require_ok()


def _run(content: Any, position: dict[str, Any] | None, script: list[str], expect: dict[str, Any],
         dice: list[int] | None = None) -> Any:
    spec: dict[str, Any] = {"ruleset": "multiplayer", "factions": SEATS, "script": script, "expect": expect,
                            "dice": dice or []}
    if position is not None:
        spec["position"] = {"player": "warden", "first": "warden",
                            "power": {"warden": 4, "great-cthulhu": 3, "black-goat": 3}, **position}
    out = run_spec(spec, content)
    assert out.ok, out.failures
    return out.game


def test_a_faction_that_starts_anywhere_chooses_last_among_areas_without_a_gate(content: Any) -> None:
    g = _run(content, None, [], {"legal": ["europe", "north-atlantic"], "not-legal": ["africa", "south-pacific"]})
    assert g.pending.player == "warden"   # the others were placed first


def test_a_unit_that_counts_as_a_gate_gives_power_doom_and_a_place_to_summon(content: Any) -> None:
    units = {"warden": {"asia": ["sentinel"], "europe": ["acolyte"]}, "great-cthulhu": {"south-pacific": ["acolyte"]}}
    _run(content, {"units": units, "gates": {"europe": "warden"}}, ["summon hound asia"],
         {"units": {"warden": {"asia": ["sentinel", "hound"]}}, "power": {"warden": 3}})
    _run(content, {"units": units, "phase": "gather-power", "power": {"warden": 0, "great-cthulhu": 0, "black-goat": 0}},
         [], {"power": {"warden": 3}})    # 1 Acolyte + 2 for the Sentinel: no real Gate at all
    _run(content, {"units": units, "phase": "doom", "power": {"warden": 0, "great-cthulhu": 0, "black-goat": 0}},
         [], {"doom": {"warden": 1}})


def test_gates_counts_the_units_that_count_as_gates_and_a_requirement_reads_it(content: Any) -> None:
    units = {"warden": {"asia": ["sentinel"], "europe": ["acolyte"]}, "great-cthulhu": {"south-pacific": ["acolyte"]}}
    _run(content, {"units": units, "gates": {"europe": "warden"}}, ["recruit acolyte europe", "b4"],
         {"spellbooks": {"warden": ["b4"]}, "log-contains": ["requirement=two-gates"]})
    g = _run(content, {"units": {**units, "warden": {"europe": ["acolyte"]}}, "gates": {"europe": "warden"}},
             ["recruit acolyte europe"], {"spellbook-count": {"warden": 0}})
    assert actions.unit_gates(g.rules, "warden") == [] and actions.gate_count(g.rules, "warden") == 1


def test_without_the_modifier_a_sentinel_is_no_gate(content: Any) -> None:
    units = {"warden": {"asia": ["sentinel"], "europe": ["acolyte"]}, "great-cthulhu": {"south-pacific": ["acolyte"]}}
    g = _run(content, {"units": units, "gates": {"europe": "warden"}}, [], {"legal": ["summon hound asia"]})
    assert actions.unit_gates(g.rules, "warden") == ["asia"] and actions.unit_gates(g.rules, "great-cthulhu") == []
    base = load_content().require_ok()   # the seed factions: nothing counts as a Gate
    plain = Game(base, "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat"], 1)
    assert all(actions.unit_gates(plain.rules, p) == [] for p in plain.s.players)


def test_summon_at_gate_opens_the_gates_its_condition_names_and_no_other(content: Any) -> None:
    units = {"warden": {"europe": ["acolyte"]}, "great-cthulhu": {"south-pacific": ["acolyte"]}}
    gates = {"europe": "warden", "south-pacific": "great-cthulhu", "asia": "abandoned"}
    _run(content, {"units": units, "gates": gates, "spellbooks": {"warden": ["open-doors"]},
                   "requirements": {"warden": ["w2"]}},
         [], {"legal": ["summon hound europe", "summon hound asia"], "not-legal": ["summon hound south-pacific"]})
    _run(content, {"units": units, "gates": gates}, [],
         {"legal": ["summon hound europe"], "not-legal": ["summon hound asia"]})


def test_reroll_misses_rolls_only_the_missed_dice_and_their_results_count(content: Any) -> None:
    pos = {"units": {"warden": {"africa": ["hound", "sentinel"]}, "black-goat": {"africa": ["acolyte", "acolyte"]}},
           "spellbooks": {"warden": ["second-wind"]}, "requirements": {"warden": ["w2"]}}
    # the Hound kills, the Sentinel misses; the reroll of that one die kills the second Acolyte
    g = _run(content, pos, ["battle africa black-goat", "second-wind", "acolyte africa"], {"units": {"black-goat": {"africa": []}},
                                                                        "power": {"warden": 2}}, dice=[6, 2, 6])
    assert g.s.battle is None
    # no miss: not offered (rolled(what: 'misses') is 0)
    _run(content, pos, ["battle africa black-goat", "acolyte africa"], {"units": {"black-goat": {"africa": []}},
                                                      "log-lacks": ["second-wind"]}, dice=[6, 6])


def test_roll_dice_rolls_a_pool_at_once_from_the_seeded_generator(content: Any) -> None:
    pos = {"units": {"warden": {"europe": ["acolyte"]}, "great-cthulhu": {"south-pacific": ["acolyte"]}},
           "spellbooks": {"warden": ["hail"]}, "requirements": {"warden": ["w2"]}}
    _run(content, pos, ["ability hail"], {"power": {"warden": 5}}, dice=[6, 3, 6])   # 4 - 1 + two sixes
    _run(content, pos, ["ability hail"], {"power": {"warden": 3}}, dice=[1, 2, 5])


def test_a_kept_requirement_answer_is_read_again_when_a_unit_becomes_a_gate(content: Any) -> None:
    """held_conditions keeps a condition's answer while what it reads is unchanged; a Sentinel
    arriving changes no real Gate, yet `gates(controlled_by: me)` now counts one more."""
    from necronomicon.interpreter.engine.held_conditions import condition_holds
    units = {"warden": {"europe": ["acolyte"]}, "great-cthulhu": {"south-pacific": ["acolyte"]}}
    g = _run(content, {"units": units, "gates": {"europe": "warden"}}, [], {})
    r = next(q for q in content.model.factions["warden"].requirements if q.id == "two-gates")
    assert condition_holds(g.rules, "warden", r, None) is False
    core.relocate(g.rules, g.s.pool("warden", "sentinel")[0], "asia", "test")
    assert condition_holds(g.rules, "warden", r, None) is True
