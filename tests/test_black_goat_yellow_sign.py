"""Black Goat and Yellow Sign abilities: each shown changing the game, and where it stops.

Ported from the content helper's checks; positions are built on the real content."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.position import build_state
from necronomicon.interpreter.engine import actions
from necronomicon.interpreter.engine import basics
from necronomicon.interpreter.engine import core
from necronomicon.interpreter.engine import phases

BG, YS, GC = "black-goat", "yellow-sign", "great-cthulhu"
MET = {BG: ["share-areas-with-all-enemies"]}   # met long ago in these positions


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content().require_ok()


def game(content: Content, factions: list[str], pos: dict[str, Any], ruleset: str = "two-player",
         dice: list[int] | None = None) -> Game:
    rs = content.model.rulesets[ruleset]
    layout = rs.get("map", {})[str(len(factions))]
    pos = {"requirements": MET, **pos}
    st = build_state(content.model, ruleset, layout, factions, 1, pos).to_dict()
    return Game(content, ruleset, factions, 1, layout, forced_dice=dice, _state=st)


def play(g: Game, answers: list[str]) -> Game:
    for a in answers:
        opts = list(g.pending.options) if g.pending else []
        match = a if a in opts else next((o for o in opts if o.startswith(a)), None)
        assert match, f"{a!r} not among {opts}"
        g.apply(match)
    return g


def where(g: Game, owner: str, kind: str) -> list[str]:
    return sorted(u["loc"] for u in g.s.units if u["owner"] == owner and u["kind"] == kind and u["loc"] != "pool")


def combat(g: Game, owner: str, kind: str, area: str) -> int:
    return sum(core.combat_of(g.rules, u, foe=YS if owner == BG else BG) for u in g.s.units
               if u["owner"] == owner and u["kind"] == kind and u["loc"] == area)


def test_group_combat_shub_frenzy_thousand_young_fertility(content: Content) -> None:
    g = game(content, [BG, YS], {"power": {BG: 10, YS: 10},
             "units": {YS: {"europe": ["undead"] * 4 + ["byakhee"] * 2, "asia": ["undead"]},
                       BG: {"africa": ["acolyte"] * 3 + ["shub-niggurath", "dark-young", "dark-young"], "asia": ["acolyte"]}},
             "gates": {"africa": BG}, "spellbooks": {BG: ["frenzy", "the-thousand-young", "the-red-sign"]}})
    assert combat(g, YS, "undead", "europe") == 3        # four Undead roll one fewer
    assert combat(g, YS, "undead", "asia") == 0          # a lone Undead rolls none
    assert combat(g, YS, "byakhee", "europe") == 3       # two Byakhee roll one more
    assert combat(g, BG, "shub-niggurath", "africa") == 1 + 4 + 2   # gates + cultists + Dark Young (Red Sign)
    assert combat(g, BG, "acolyte", "africa") == 3       # Frenzy: cultists have combat 1
    costs = [core.unit_cost(g.rules, BG, basics.faction(g.rules, BG).units[k]) for k in ("ghoul", "fungi", "dark-young")]
    assert costs == [0, 1, 2]                            # The Thousand Young, Shub on the map
    assert [core.doom_value(g.rules, {"owner": BG, "kind": k, "id": 0, "loc": "pool"}) for k in ("ghoul", "fungi", "dark-young")] == [1, 2, 3]
    assert "summon ghoul africa" in [o.label for o in actions.unlimited_actions(g.rules, BG)]   # Fertility Cult


def test_thousand_young_limit_without_shub(content: Content) -> None:
    g = game(content, [BG, YS], {"power": {BG: 10, YS: 10}, "units": {BG: {"africa": ["acolyte"]}, YS: {"europe": ["acolyte"]}},
             "gates": {"africa": BG}, "spellbooks": {BG: ["the-thousand-young"]}})
    assert [core.unit_cost(g.rules, BG, basics.faction(g.rules, BG).units[k]) for k in ("ghoul", "fungi", "dark-young")] == [1, 2, 3]


def test_avatar_swaps_shub_with_a_unit_its_owner_picks(content: Content) -> None:
    g = game(content, [BG, YS], {"power": {BG: 10, YS: 10}, "requirements": {},
             "units": {YS: {"europe": ["acolyte", "undead"]}, BG: {"africa": ["acolyte", "shub-niggurath"]}},
             "gates": {"africa": BG}})
    play(g, ["ability avatar europe", "undead"])
    assert where(g, BG, "shub-niggurath") == ["europe"] and where(g, YS, "undead") == ["africa"]


def test_necrophagy_from_outside_the_battle(content: Content) -> None:
    g = game(content, [GC, BG, YS], {"player": YS, "first": YS, "power": {BG: 10, YS: 10, GC: 10},
             "units": {YS: {"europe": ["acolyte", "undead", "undead", "undead"]},
                       GC: {"europe": ["acolyte", "acolyte"], "south-pacific": ["acolyte"]},
                       BG: {"africa": ["acolyte", "ghoul"], "asia": ["ghoul"]}},
             "gates": {"africa": BG, "south-pacific": GC}, "spellbooks": {BG: ["necrophagy"]}},
             ruleset="multiplayer", dice=[6, 1])
    play(g, ["battle europe great-cthulhu", "acolyte", "necrophagy", "ghoul africa", "ghoul asia"])
    assert where(g, BG, "ghoul") == ["europe", "europe"]
    b = g.s.battle
    assert b is not None and len(b["pending"][GC]) == 2 and len(b["pending"][YS]) == 1   # a Pain each per Ghoul


def test_ghroth_halved_in_two_player_and_its_miss(content: Content) -> None:
    pos = {"power": {BG: 10, YS: 10},
           "units": {YS: {"europe": ["acolyte"] * 3, "asia": ["acolyte"]},
                     BG: {"africa": ["acolyte", "fungi"], "asia": ["fungi"], "europe": ["fungi"], "antarctica": ["fungi"]}},
           "gates": {"africa": BG}, "spellbooks": {BG: ["ghroth"]},
           "requirements": {BG: ["units-in-4-areas", "share-areas-with-all-enemies"]}}
    g = play(game(content, [BG, YS], pos, dice=[4]), ["ability ghroth", "acolyte", "acolyte"])
    assert len(where(g, YS, "acolyte")) == 2             # 4 <= 4 areas with Fungi: 4 halved = 2 cultists
    g = play(game(content, [BG, YS], pos, dice=[6]), ["ability ghroth", "yellow-sign", "north-america"])
    assert "north-america" in where(g, YS, "acolyte")    # a miss: an Acolyte from any pool, placed anywhere


def test_ghroth_full_in_multiplayer(content: Content) -> None:
    pos = {"player": BG, "first": BG, "power": {BG: 10, YS: 10, GC: 10},
           "units": {YS: {"europe": ["acolyte"] * 3}, GC: {"south-pacific": ["acolyte"]},
                     BG: {"africa": ["acolyte", "fungi"], "asia": ["fungi"], "europe": ["fungi"]}},
           "gates": {"africa": BG}, "spellbooks": {BG: ["ghroth"]}}
    g = play(game(content, [GC, BG, YS], pos, ruleset="multiplayer", dice=[3]),
             ["ability ghroth", "great-cthulhu", "acolyte", "acolyte"])
    assert len(where(g, YS, "acolyte")) + len(where(g, GC, "acolyte")) == 1   # three cultists in all


def test_desecrate_third_eye_and_hastur(content: Content) -> None:
    g = game(content, [BG, YS], {"player": YS, "first": YS, "power": {BG: 10, YS: 30},
             "units": {YS: {"africa": ["acolyte", "undead", "king-in-yellow"]}, BG: {"asia": ["acolyte"]}},
             "gates": {"asia": BG}, "spellbooks": {YS: ["the-third-eye"]}}, dice=[3, 2])
    play(g, ["ability desecrate africa", "byakhee", "zingaya"])
    assert g.s.tokens == [{"id": "desecration", "loc": "africa", "owner": YS}]
    assert "desecrate-chevron" in g.s.requirements[YS]
    assert g.s.power[YS] == 28                           # Desecrate cost 2 without Hastur on the map


def test_third_eye_lowers_desecrate_to_one(content: Content) -> None:
    g = game(content, [BG, YS], {"player": YS, "first": YS, "power": {BG: 10, YS: 1},
             "units": {YS: {"africa": ["acolyte", "undead", "king-in-yellow", "hastur"]}, BG: {"asia": ["acolyte"]}},
             "gates": {"asia": BG}, "spellbooks": {YS: ["the-third-eye"]}})
    assert "ability desecrate africa" in g.legal_actions()      # costs 1 with Hastur in play
    assert [o.cost for o in actions.main_actions(g.rules, YS) if o.label == "ability desecrate africa"] == [1]


def test_desecrate_limit_needs_an_area_without_a_token(content: Content) -> None:
    g = game(content, [BG, YS], {"player": YS, "first": YS, "power": {BG: 10, YS: 5},
             "units": {YS: {"africa": ["acolyte", "king-in-yellow"]}, BG: {"asia": ["acolyte"]}},
             "tokens": [{"id": "desecration", "loc": "africa", "owner": YS}]})
    assert not [a for a in g.legal_actions() if a.startswith("ability desecrate")]


def test_zingaya_turns_an_enemy_acolyte_into_undead(content: Content) -> None:
    g = game(content, [BG, YS], {"player": YS, "first": YS, "power": {BG: 3, YS: 3},
             "units": {YS: {"africa": ["undead"]}, BG: {"africa": ["acolyte", "acolyte"]}},
             "spellbooks": {YS: ["zingaya"]}})
    play(g, ["ability zingaya africa", "acolyte"])
    assert where(g, BG, "acolyte") == ["africa"] and where(g, YS, "undead") == ["africa", "africa"]
    assert g.s.doom[YS] == 1                            # two-player: Doom for the eliminated Acolyte


def test_zingaya_limit_needs_an_undead_in_the_pool(content: Content) -> None:
    g = game(content, [BG, YS], {"player": YS, "first": YS, "power": {BG: 3, YS: 3},
             "units": {YS: {"africa": ["undead"] * 6}, BG: {"africa": ["acolyte"]}}, "spellbooks": {YS: ["zingaya"]}})
    assert not [a for a in g.legal_actions() if a.startswith("ability zingaya")]


def test_passion_pays_when_an_enemy_takes_a_cultist_not_when_you_do(content: Content) -> None:
    g = game(content, [BG, YS], {"player": BG, "first": BG, "power": {BG: 3, YS: 0},
             "units": {BG: {"europe": ["fungi"]}, YS: {"europe": ["acolyte"], "asia": ["acolyte"]}},
             "spellbooks": {YS: ["passion"]}})
    play(g, ["capture europe yellow-sign", "passion"])
    assert g.s.power[YS] == 1
    g = game(content, [BG, YS], {"player": YS, "first": YS, "power": {BG: 3, YS: 3},
             "units": {YS: {"europe": ["acolyte", "acolyte"], "asia": ["acolyte"]}, BG: {"africa": ["acolyte"]}},
             "spellbooks": {YS: ["passion"]}, "requirements": {YS: ["give-three-doom"], **MET}})
    assert all("passion" not in o for o in g.legal_actions())


def test_feast_pays_for_desecrated_areas_with_your_units(content: Content) -> None:
    g = game(content, [BG, YS], {"phase": "gather-power", "first": BG, "round": 2,
             "units": {YS: {"africa": ["acolyte"], "asia": ["undead"]}, BG: {"europe": ["acolyte", "acolyte", "acolyte"]}},
             "tokens": [{"id": "desecration", "loc": "africa", "owner": YS}, {"id": "desecration", "loc": "asia", "owner": YS},
                        {"id": "desecration", "loc": "australia", "owner": YS}],
             "requirements": {YS: ["desecrate-chevron"], **MET}})
    while g.pending is not None and g.pending.kind == "ability":
        play(g, ["feast"])
    assert g.s.power[YS] == 1 + 2                       # one cultist + two desecrated areas it occupies


def test_blood_sacrifice_needs_shub_and_gives_an_elder_sign(content: Content) -> None:
    pos = {"phase": "doom", "first": BG, "round": 2, "power": {BG: 2, YS: 0},
           "units": {BG: {"africa": ["acolyte", "acolyte", "shub-niggurath"]}, YS: {"europe": ["acolyte"]}},
           "spellbooks": {BG: ["blood-sacrifice"]}}
    g = play(game(content, [BG, YS], pos), ["blood-sacrifice", "acolyte"])
    assert len(g.s.elder_signs[BG]) == 1 and len(where(g, BG, "acolyte")) == 1
    pos["units"] = {BG: {"africa": ["acolyte", "acolyte"]}, YS: {"europe": ["acolyte"]}}
    g = game(content, [BG, YS], pos)
    assert g.pending is None or "blood-sacrifice" not in g.pending.options


def test_red_sign_dark_young_control_gates_and_give_power(content: Content) -> None:
    g = game(content, [BG, YS], {"player": BG, "first": BG, "power": {BG: 3, YS: 3},
             "units": {BG: {"africa": ["dark-young"]}, YS: {"europe": ["acolyte"]}}, "gates": {"africa": "abandoned"},
             "spellbooks": {BG: ["the-red-sign"]}})
    assert "control-gate africa" in g.legal_actions()


def test_vengeance_lets_yellow_sign_assign_the_enemy_results(content: Content) -> None:
    g = game(content, [BG, YS], {"player": YS, "first": YS, "power": {BG: 3, YS: 3},
             "units": {YS: {"africa": ["hastur", "byakhee"]}, BG: {"africa": ["acolyte", "fungi"]}}},
             dice=[6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,   1])
    play(g, ["battle africa black-goat"])
    d = g.pending
    while d is not None and d.kind == "option" and d.options[0].startswith("use "):
        play(g, [d.options[0]])
        d = g.pending
    assert d is not None and d.player == YS and "assign a kill to one of black-goat's units" in d.prompt


def test_hastur_combat_is_the_ritual_cost(content: Content) -> None:
    g = game(content, [BG, YS], {"power": {BG: 3, YS: 3}, "ritual": 3,
             "units": {YS: {"africa": ["hastur"]}, BG: {"africa": ["acolyte"]}}})
    assert combat(g, YS, "hastur", "africa") == phases.ritual_cost(g.rules, YS) == 7


def test_shriek_gathers_byakhee_and_he_who_moves_hastur_to_a_cultist(content: Content) -> None:
    g = game(content, [BG, YS], {"player": YS, "first": YS, "power": {BG: 3, YS: 5},
             "units": {YS: {"africa": ["byakhee"], "asia": ["byakhee"], "europe": ["hastur"]}, BG: {"australia": ["acolyte"]}},
             "spellbooks": {YS: ["shriek-of-the-byakhee", "he-who-is-not-to-be-named"]}})
    play(g, ["ability shriek south-atlantic", "byakhee africa", "byakhee asia"])
    assert where(g, YS, "byakhee") == ["south-atlantic", "south-atlantic"]
    while g.pending is not None and g.pending.player != YS:
        play(g, [g.pending.options[0]])
    play(g, ["ability he-who-is-not-to-be-named australia"])     # the only area with a cultist elsewhere
    assert [a for a in g.legal_actions() if a.startswith("ability he-who")] == []
    assert where(g, YS, "hastur") == ["australia"]
    assert g.pending is not None and g.pending.player == YS and "capture australia black-goat" in g.legal_actions()
