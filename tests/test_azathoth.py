"""Azathoth expansion: neutral monsters' loyalty cards, neutral spellbooks and the FAQ rulings on them.

Rulings cite the Azathoth rulebook (seed 003): "Neutral Spellbooks", the loyalty cards, and its FAQ.
Scenario files in tests/scenarios/azathoth/ cover the Mao Ceremony's timing, the Servitor and
Glorification; these tests cover what needs several turns or a look at the state.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import neutral
from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.engine.decisions import IllegalAction
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.invariants import violations
from necronomicon.interpreter.engine.play import run_game
from necronomicon.interpreter.engine.position import PositionError, build_state
from necronomicon.interpreter.engine import actions
from necronomicon.interpreter.engine import core

FIXTURES = Path(__file__).parent / "fixtures"
THREE = ["crawling-chaos", "black-goat", "yellow-sign"]
NEUTRAL_BOOKS = {"consequences", "the-stars-are-right", "the-mao-ceremony"}


@pytest.fixture(scope="module")
def azathoth() -> Content:
    return load_content(expansions=["azathoth"]).require_ok()


def game_at(content: Content, pos: dict[str, Any], factions: list[str] | None = None,
            ruleset: str = "multiplayer", dice: list[int] | None = None) -> Game:
    factions = factions or THREE
    layout = content.model.rulesets[ruleset].get("map")[str(len(factions))]
    state = build_state(content.model, ruleset, layout, factions, 1, pos).to_dict()
    return Game(content, ruleset, factions, 1, layout, forced_dice=dice, _state=state)


def base(**extra: Any) -> dict[str, Any]:
    pos: dict[str, Any] = {
        "player": "crawling-chaos", "first": "crawling-chaos",
        "power": {"crawling-chaos": 10, "black-goat": 0, "yellow-sign": 0},
        "units": {"crawling-chaos": {"north-america": ["acolyte", "acolyte", "nyarlathotep"]},
                  "black-goat": {"africa": ["acolyte", "acolyte", "acolyte"]},
                  "yellow-sign": {"europe": ["acolyte"]}},
        "gates": {"north-america": "crawling-chaos", "africa": "black-goat"},
    }
    pos.update(extra)
    return pos


def play(g: Game, *answers: str) -> None:
    for a in answers:
        g.apply(a)


# ---- neutral spellbooks: taken instead of a faction spellbook ---------------------------------------------
def test_the_spellbook_pick_offers_own_spellbooks_and_every_neutral_one(azathoth: Content) -> None:
    g = game_at(azathoth, base(power={"crawling-chaos": 10, "black-goat": 10, "yellow-sign": 0},
                               player="black-goat", first="black-goat"))
    play(g, "awaken shub-niggurath africa", "acolyte africa", "acolyte africa")
    d = g.current()
    assert d is not None and d.kind == "spellbook"
    assert set(d.options) == set(azathoth.model.factions["black-goat"].spellbooks) | NEUTRAL_BOOKS


def test_a_neutral_spellbook_once_taken_is_offered_to_no_one_else(azathoth: Content) -> None:
    g = game_at(azathoth, base(spellbooks={"yellow-sign": ["the-mao-ceremony"]}))
    for p in THREE:
        assert "the-mao-ceremony" not in neutral.spellbook_choices(g.rules, p)
    assert "the-stars-are-right" in neutral.spellbook_choices(g.rules, "black-goat")


def test_each_neutral_spellbook_taken_costs_one_faction_spellbook_slot(azathoth: Content) -> None:
    own = list(azathoth.model.factions["crawling-chaos"].spellbooks)
    # four of its own plus one neutral taken: one faction spellbook is still open
    g = game_at(azathoth, base(spellbooks={"crawling-chaos": own[:4] + ["the-mao-ceremony"]},
                               **{"neutral-taken": {"crawling-chaos": ["the-mao-ceremony"]}}))
    assert set(neutral.spellbook_choices(g.rules, "crawling-chaos")) == set(own[4:]) | {"consequences", "the-stars-are-right"}
    # five of its own plus one neutral: the sixth faction spellbook is out of reach for the game
    g = game_at(azathoth, base(spellbooks={"crawling-chaos": own[:5] + ["the-mao-ceremony"]},
                               **{"neutral-taken": {"crawling-chaos": ["the-mao-ceremony"]}}))
    assert set(neutral.spellbook_choices(g.rules, "crawling-chaos")) == {"consequences", "the-stars-are-right"}
    # ... even after the neutral spellbook left the card again (the access is lost for the game)
    g = game_at(azathoth, base(spellbooks={"crawling-chaos": own[:5]},
                               **{"neutral-taken": {"crawling-chaos": ["the-mao-ceremony"]}}))
    assert set(neutral.spellbook_choices(g.rules, "crawling-chaos")) == NEUTRAL_BOOKS


def test_a_neutral_spellbook_counts_for_unlimited_battle(azathoth: Content) -> None:
    own = list(azathoth.model.factions["crawling-chaos"].spellbooks)
    g = game_at(azathoth, base(spellbooks={"crawling-chaos": own[:5]}))
    assert not actions.extra_battle_allowed(g.rules, "crawling-chaos")
    g = game_at(azathoth, base(spellbooks={"crawling-chaos": own[:5] + ["consequences"]}))
    assert actions.extra_battle_allowed(g.rules, "crawling-chaos")


# ---- Consequences ---------------------------------------------------------------------------------------
def consequences_game(azathoth: Content, books: list[str], dice: list[int] | None = None, **extra: Any) -> Game:
    taken = [b for b in books if b in NEUTRAL_BOOKS]
    met = [r.id for r in azathoth.model.factions["crawling-chaos"].requirements]   # no spellbook picks on the way
    return game_at(azathoth, base(spellbooks={"crawling-chaos": books}, requirements={"crawling-chaos": met},
                                  **{"neutral-taken": {"crawling-chaos": taken}}, **extra), dice=dice)


def test_consequences_replaces_with_an_own_or_a_neutral_spellbook(azathoth: Content) -> None:
    g = consequences_game(azathoth, ["madness", "consequences"])
    play(g, "ability consequences", "madness")
    d = g.current()
    own = set(azathoth.model.factions["crawling-chaos"].spellbooks)
    # FAQ: own available faction spellbooks or an available neutral one; never the one removed
    assert set(d.options) == (own - {"madness"}) | {"the-stars-are-right", "the-mao-ceremony"}
    play(g, "abduct")
    assert g.s.spellbooks["crawling-chaos"] == ["consequences", "abduct"]
    assert g.s.power["crawling-chaos"] == 9          # Consequences costs 1


def test_consequences_may_remove_itself_and_it_returns_to_the_general_supply(azathoth: Content) -> None:
    g = consequences_game(azathoth, ["madness", "consequences"])
    play(g, "ability consequences", "consequences", "the-stars-are-right", "end-turn")
    assert g.s.spellbooks["crawling-chaos"] == ["madness", "the-stars-are-right"]
    assert g.s.neutral_taken["crawling-chaos"] == ["consequences", "the-stars-are-right"]
    # FAQ: every neutral spellbook not on a faction card may be taken by anyone meeting a requirement
    assert "consequences" in neutral.spellbook_choices(g.rules, "black-goat")
    assert "consequences" in neutral.spellbook_choices(g.rules, "crawling-chaos")
    assert any(e["type"] == "spellbook-removed" and e["spellbook"] == "consequences" for e in g.log)


def test_a_returned_neutral_spellbook_is_taken_by_another_player_through_the_normal_pick(azathoth: Content) -> None:
    g = consequences_game(azathoth, ["madness", "consequences"],
                          power={"crawling-chaos": 10, "black-goat": 10, "yellow-sign": 0})
    play(g, "ability consequences", "consequences", "the-mao-ceremony", "end-turn")
    # the Black Goat's turn: awakening Shub-Niggurath meets a requirement
    play(g, "awaken shub-niggurath africa", "acolyte africa", "acolyte africa")
    assert "consequences" in g.current().options
    assert "the-mao-ceremony" not in g.current().options
    play(g, "consequences")
    assert g.s.spellbooks["black-goat"] == ["consequences"]


def test_a_turned_over_spellbook_stays_used_after_consequences(azathoth: Content) -> None:
    # FAQ (Rising/Descending Dragon; "the same applies to The Thousand Forms"): taking a used spellbook
    # back with Consequences does not turn it face up again.
    g = consequences_game(azathoth, ["thousand-forms", "consequences"], dice=[3])
    assert "ability thousand-forms" in g.legal_actions()
    play(g, "ability thousand-forms", "end-turn")                     # used: once per Action Phase
    play(g, "ability consequences", "thousand-forms", "madness", "end-turn")
    play(g, "ability consequences", "madness", "thousand-forms")
    play(g, "end-turn")
    assert "thousand-forms" in g.s.spellbooks["crawling-chaos"]
    assert "ability thousand-forms" not in g.legal_actions()
    assert "ability consequences" in g.legal_actions()


def test_consequences_is_not_offered_without_a_replacement(azathoth: Content) -> None:
    own = list(azathoth.model.factions["crawling-chaos"].spellbooks)
    books = own[:5] + ["consequences"]
    # It once swapped Consequences for The Stars Are Right (now on the Black Goat's card) and took
    # Consequences back: two neutral spellbooks taken, so even with one of its own removed it has no
    # free slot, and the other neutral spellbooks are on other cards.
    g = game_at(azathoth, base(spellbooks={"crawling-chaos": books, "black-goat": ["the-stars-are-right"],
                                           "yellow-sign": ["the-mao-ceremony"]},
                               **{"neutral-taken": {"crawling-chaos": ["consequences", "the-stars-are-right"]}}))
    assert "ability consequences" not in g.legal_actions()
    with pytest.raises(IllegalAction):
        g.apply("ability consequences")


def test_consequences_never_offers_an_independent_great_old_ones_spellbook(azathoth: Content) -> None:
    c = load_content([FIXTURES / "azathoth-independent"], expansions=["azathoth"]).require_ok()
    assert "test-independent-book" in {b for card in c.model.loyalty_cards.values() for b in card.spellbooks}
    g = consequences_game(c, ["madness", "consequences"])
    play(g, "ability consequences", "madness")
    assert "test-independent-book" not in g.current().options
    assert "test-independent-book" not in neutral.spellbook_choices(g.rules, "black-goat")


# ---- The Stars Are Right --------------------------------------------------------------------------------
def doom_game(azathoth: Content, books: list[str]) -> Game:
    return game_at(azathoth, base(phase="doom", power={"crawling-chaos": 1, "black-goat": 0, "yellow-sign": 0},
                                  spellbooks={"crawling-chaos": books}, **{"elder-signs": {"crawling-chaos": [2, 3]}}))


def test_the_stars_are_right_gives_power_for_elder_signs_traded_in_the_doom_phase(azathoth: Content) -> None:
    g = doom_game(azathoth, ["the-stars-are-right"])
    d = g.current()
    assert d.player == "crawling-chaos" and d.kind == "doom" and "the-stars-are-right" in d.options
    doom = g.s.doom["crawling-chaos"]
    play(g, "the-stars-are-right", "elder-sign-1", "elder-sign-2")
    assert g.s.power["crawling-chaos"] == 1 + 5
    assert g.s.doom["crawling-chaos"] == doom + 5
    assert g.s.elder_signs["crawling-chaos"] == []


def test_the_stars_are_right_trades_the_signs_the_player_picks_and_keeps_the_rest(azathoth: Content) -> None:
    """Core rulebook, Elder Sign Trophies: "you decide when to gain the Doom for each Elder Sign"."""
    g = doom_game(azathoth, ["the-stars-are-right"])
    doom = g.s.doom["crawling-chaos"]
    play(g, "the-stars-are-right")
    assert g.current().options == ("elder-sign-1", "elder-sign-2")   # at least one sign is traded
    play(g, "elder-sign-2")
    assert g.current().options == ("elder-sign-1", "done")
    play(g, "done")
    assert g.s.power["crawling-chaos"] == 1 + 3 and g.s.doom["crawling-chaos"] == doom + 3
    assert g.s.elder_signs["crawling-chaos"] == [2]
    assert not any(e.get("type") == "elder-signs-revealed" and e.get("values") != [3] for e in g.log)


def test_picking_elder_signs_shows_others_their_places_never_their_values(azathoth: Content) -> None:
    seen = []
    for signs in ([2, 3], [1, 1]):
        g = game_at(azathoth, base(phase="doom", power={"crawling-chaos": 1, "black-goat": 0, "yellow-sign": 0},
                                   spellbooks={"crawling-chaos": ["the-stars-are-right"]},
                                   **{"elder-signs": {"crawling-chaos": signs}}))
        play(g, "the-stars-are-right")
        seen.append((g.current().options, g.view("black-goat")["pending"]))
    assert seen[0] == seen[1]


def test_without_the_stars_are_right_no_power_and_no_doom_phase_trade(azathoth: Content) -> None:
    g = doom_game(azathoth, ["madness"])
    assert g.current() is None or "the-stars-are-right" not in g.current().options
    assert g.s.power["crawling-chaos"] == 1


def test_the_stars_are_right_gives_nothing_for_a_trade_in_the_action_phase(azathoth: Content) -> None:
    g = game_at(azathoth, base(spellbooks={"crawling-chaos": ["the-stars-are-right"]},
                               **{"elder-signs": {"crawling-chaos": [2]}}))
    play(g, "reveal-elder-signs")
    assert g.s.power["crawling-chaos"] == 10
    assert g.s.doom["crawling-chaos"] == 2


# ---- loyalty cards -----------------------------------------------------------------------------------------
def test_an_illegible_card_is_refused_with_a_reason_and_the_state_unchanged(azathoth: Content) -> None:
    g = game_at(azathoth, base(phase="doom", doom={"crawling-chaos": 5}))
    assert g.current().kind == "doom" and "take-servitor-of-the-outer-gods" in g.current().options
    before = g.digest()
    with pytest.raises(IllegalAction) as exc:
        g.apply("take-star-vampire")
    assert exc.value.code == "unknown-card" and "Star Vampire (combat ability)" in exc.value.message
    assert g.digest() == before
    assert azathoth.model.neutral_cards["star-vampire"].unknown
    assert not azathoth.model.neutral_cards["servitor-of-the-outer-gods"].unknown


def test_a_card_with_an_interpreted_value_is_offered_and_plays_as_interpreted(azathoth: Content) -> None:
    c = load_content([FIXTURES / "interpreted-neutral"], expansions=["azathoth"]).require_ok()
    assert any(d.code == "unknown-value" and "interpreted-beast" in d.path for d in c.report.warnings)
    g = game_at(c, base(doom={"crawling-chaos": 5}))
    assert "ability take-interpreted-beast" in g.legal_actions()
    play(g, "ability take-interpreted-beast", "end-turn")
    beasts = [u for u in g.s.units if u["kind"] == "interpreted-beast"]
    assert len(beasts) == 2 and all(u["owner"] == "crawling-chaos" for u in beasts)
    assert core.combat_of(g.rules, beasts[0]) == 4
    assert g.s.doom["crawling-chaos"] == 3


def test_paying_doom_is_not_an_invariant_violation_but_losing_it_otherwise_is(azathoth: Content) -> None:
    g = game_at(azathoth, base(phase="doom", doom={"crawling-chaos": 5}))
    before = {"doom": dict(g.s.doom), "ritual": g.s.ritual, "log": len(g.log)}
    play(g, "take-servitor-of-the-outer-gods", "black-goat")
    assert violations(g, before) == []
    g.s.doom["crawling-chaos"] -= 1
    assert any("Doom went down" in v for v in violations(g, before))


def test_a_summoned_servitor_fights_with_no_dice(azathoth: Content) -> None:
    g = game_at(azathoth, base(**{"neutral-cards": {"servitor-of-the-outer-gods": "crawling-chaos"}}))
    play(g, "summon servitor-of-the-outer-gods north-america")
    u = next(u for u in g.s.units if u["kind"] == "servitor-of-the-outer-gods" and u["loc"] == "north-america")
    assert core.combat_of(g.rules, u) == 0          # printed -1; a unit never rolls fewer than 0 dice
    assert g.s.power["crawling-chaos"] == 8


def test_glorification_explains_a_refused_summon(azathoth: Content) -> None:
    g = game_at(azathoth, base(**{"neutral-cards": {"servitor-of-the-outer-gods": "yellow-sign"}}, player="yellow-sign",
                               first="yellow-sign", power={"crawling-chaos": 0, "black-goat": 0, "yellow-sign": 8},
                               gates={"europe": "yellow-sign"}))
    assert g.why_illegal("summon byakhee europe")[0] == "may-not-summon"


def test_loyalty_cards_and_taken_spellbooks_survive_a_save(azathoth: Content) -> None:
    g = consequences_game(azathoth, ["madness", "consequences"], doom={"crawling-chaos": 5}, phase="doom")
    play(g, "take-servitor-of-the-outer-gods", "yellow-sign")
    g2 = Game.from_json(azathoth, g.to_json(), check_by_replay=False)   # a position set up by hand
    assert g2.s.card_holders == {"servitor-of-the-outer-gods": "yellow-sign"}
    assert g2.s.neutral_taken == {"crawling-chaos": ["consequences"]}
    assert g2.digest() == g.digest()


def test_a_neutral_monster_is_acquired_in_the_doom_phase_not_as_an_action(azathoth: Content) -> None:
    """Core rulebook, Doom Phase, Special Events and Abilities: "acquiring Neutral Monsters"."""
    g = game_at(azathoth, base(doom={"crawling-chaos": 5}))
    assert not [a for a in g.legal_actions() if "take-" in a]
    g = game_at(azathoth, base(phase="doom", doom={"crawling-chaos": 5}))
    assert g.current().player == "crawling-chaos" and "take-servitor-of-the-outer-gods" in g.current().options


def test_the_base_game_offers_no_neutral_content() -> None:
    c = load_content(expansions=[]).require_ok()
    assert not c.model.neutral_cards and not c.model.neutral_spellbooks
    g = game_at(c, base(phase="doom", doom={"crawling-chaos": 5}))
    assert g.current().kind == "doom" and not [a for a in g.current().options if a.startswith("take-")]
    with pytest.raises(PositionError):
        game_at(c, base(**{"neutral-cards": {"servitor-of-the-outer-gods": "yellow-sign"}}))


# ---- FAQ: the cost a withered unit gives back ----------------------------------------------------------------
# The FAQ's Wither gives a withered unit's owner its summoning cost at that moment. The Duel's Wither in
# this repository is a different rule (the turn surcharge) that withers no unit, so these check the cost
# such an effect reads (`cost(u)` / unit_cost): the reduced and current costs the FAQ names.
def test_a_ghoul_costs_the_black_goat_0_with_the_thousand_young(azathoth: Content) -> None:
    pos = base(spellbooks={"black-goat": ["the-thousand-young"]})
    pos["units"]["black-goat"]["africa"] += ["shub-niggurath", "ghoul"]
    g = game_at(azathoth, pos)
    bg = azathoth.model.factions["black-goat"]
    assert core.unit_cost(g.rules, "black-goat", bg.units["ghoul"]) == 0
    assert core.unit_cost(g.rules, "black-goat", bg.units["dark-young"]) == 2


def test_a_gnoph_keh_costs_0_when_all_four_are_in_play(azathoth: Content) -> None:
    pos = {"units": {"wind-rider": {"antarctica": ["gnoph-keh"] * 4}, "sleeper": {"europe": ["acolyte"]}}}
    g = game_at(azathoth, pos, ["sleeper", "wind-rider"], "duel")
    assert core.unit_cost(g.rules, "wind-rider", azathoth.model.factions["wind-rider"].units["gnoph-keh"]) == 0


# ---- bots -------------------------------------------------------------------------------------------------
def test_seeded_random_games_with_the_expansion_finish_and_use_it(azathoth: Content) -> None:
    used: set[str] = set()
    for seed in range(1, 21):
        ruleset, factions = (("duel", ["sleeper", "wind-rider"]) if seed % 3 == 0 else
                             ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"]))
        g = Game(azathoth, ruleset, factions, seed)
        agents = {f: make_agent("heuristic" if seed % 4 == 0 else "random", seed * 31 + i) for i, f in enumerate(factions)}
        run_game(g, agents, check=True)
        assert g.is_over()
        for e in g.log:
            if e["type"] == "spellbook" and e["spellbook"] in NEUTRAL_BOOKS:
                used.add("took " + e["spellbook"])
            if e["type"] == "loyalty-card":
                used.add("card " + e["card"])
            if e["type"] == "ability" and e["ability"].split("/")[0] in NEUTRAL_BOOKS:
                used.add("used " + e["ability"].split("/")[0])
    assert {"took the-mao-ceremony", "took consequences", "card servitor-of-the-outer-gods",
            "used the-mao-ceremony", "used consequences"} <= used


def test_a_held_card_is_refused_with_its_holder_named(azathoth: Content) -> None:
    g = game_at(azathoth, base(phase="doom", doom={"crawling-chaos": 5}))
    play(g, "take-servitor-of-the-outer-gods", "yellow-sign")
    assert g.current().kind == "doom"
    assert g.why_illegal("take-servitor-of-the-outer-gods") == (
        "card-taken", "the Servitor of the Outer Gods card is held by yellow-sign")
    with pytest.raises(IllegalAction):
        play(g, "take-servitor-of-the-outer-gods")
    assert g.s.card_holders == {"servitor-of-the-outer-gods": "yellow-sign"}


def test_a_neutral_spellbook_counts_for_nyarlathoteps_combat(azathoth: Content) -> None:
    # Azathoth rulebook, Neutral Spellbooks: it counts for rules that count spellbooks on the card,
    # "such as Nyarlathotep's combat value"
    g = game_at(azathoth, base(spellbooks={"crawling-chaos": ["madness", "the-mao-ceremony"]}))
    nya = next(u for u in g.s.units if u["kind"] == "nyarlathotep")
    assert core.combat_of(g.rules, nya) == 2


def test_the_servitor_card_goes_only_to_another_player_and_glorification_binds_only_its_holder(azathoth: Content) -> None:
    g = game_at(azathoth, base(phase="doom", doom={"crawling-chaos": 5}))
    play(g, "take-servitor-of-the-outer-gods")
    assert set(g.current().options) == {"black-goat", "yellow-sign"}
    play(g, "black-goat")
    # Crawling Chaos (no card) still summons; the Black Goat (the holder) may summon only Servitors
    assert actions.may_summon(g.rules, "crawling-chaos", azathoth.model.factions["crawling-chaos"].units["nightgaunt"])
    assert not actions.may_summon(g.rules, "black-goat", azathoth.model.factions["black-goat"].units["ghoul"])
    assert actions.may_summon(g.rules, "black-goat", azathoth.model.neutral_units["servitor-of-the-outer-gods"])
