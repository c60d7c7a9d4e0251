"""Independent Great Old Ones and Azathoth: which cards a game accepts, hidden simultaneous picks,
faction spellbooks untouched, saves, and seeded games with the expansions.

The rules themselves (awakening, control, spellbooks falling off, Demon Sultan...) are scenarios
under tests/scenarios/independents/."""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.independents_soak import EXPANSIONS, play_mixed
from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.decisions import IllegalAction
from necronomicon.interpreter.engine.game import Game, GameError
from necronomicon.interpreter.engine.position import build_state
from necronomicon.interpreter.engine import actions
from necronomicon.interpreter.engine import basics
from necronomicon.interpreter.engine import core
from necronomicon.interpreter.engine import independents as independents_rules

ROOT = Path(__file__).parent.parent
CARDS = ROOT / "content" / "expansions" / "independents"
THREE = ["great-cthulhu", "crawling-chaos", "black-goat"]


@pytest.fixture(scope="module")
def expanded() -> Content:
    return load_content(expansions=EXPANSIONS).require_ok()


def _game(content: Content, pos: dict, independents: list[str], factions: list[str] = THREE,
          dice: list[int] | None = None) -> Game:
    layout = content.model.rulesets["multiplayer"].get("map")[str(len(factions))]
    state = build_state(content.model, "multiplayer", layout, factions, 1, pos, independents)
    return Game(content, "multiplayer", factions, 1, layout, forced_dice=dice, independents=independents,
                _state=state.to_dict())


# ---- which cards a game accepts -----------------------------------------------------------------
def test_a_card_with_an_unknown_value_is_refused(expanded: Content) -> None:
    with pytest.raises(GameError, match=r"independent-yog-sothoth.*cost: illegible"):
        Game(expanded, "multiplayer", THREE, independents=["independent-yog-sothoth"])
    with pytest.raises(GameError, match="unknown Independent Great Old One 'hastur'"):
        Game(expanded, "multiplayer", THREE, independents=["hastur"])


def test_the_same_card_is_played_once_the_content_names_an_interpretation(expanded: Content, tmp_path: Path) -> None:
    text = (CARDS / "yog-sothoth.yaml").read_text()
    text = text.replace(', reading: "README: Independent Great Old Ones and Azathoth"}', "}")   # a modder's copy
    text = text.replace("cost: {unknown: \"illegible ('Cost [?]'); no faction card for him in the sources\"}",
                        "cost: {unknown: \"illegible\", interpretation: 6}  # a modder's reading")
    text = text.replace("cost: {unknown: \"illegible ('Cost [?]')\"}", "cost: {unknown: \"illegible\", interpretation: 1}")
    (tmp_path / "yog.yaml").write_text(text)
    modded = load_content([tmp_path], expansions=EXPANSIONS).require_ok()
    assert modded.model.loyalty_unknowns["independent-yog-sothoth"] == ()
    pos = {"player": "black-goat", "power": {"great-cthulhu": 0, "crawling-chaos": 0, "black-goat": 7},
           "units": {"black-goat": {"africa": ["acolyte", "shub-niggurath"]}, "crawling-chaos": {"asia": ["acolyte"]}},
           "gates": {"africa": "black-goat"}}
    g = _game(modded, pos, ["independent-yog-sothoth"])
    assert {o.label: o.cost for o in actions.main_actions(g.rules, "black-goat")}["awaken independent-yog-sothoth africa"] == 6
    g.apply("awaken independent-yog-sothoth africa")
    assert g.s.power["black-goat"] == 1


def test_by_default_a_game_takes_every_playable_card_whose_faction_is_not_playing(expanded: Content) -> None:
    g = Game(expanded, "multiplayer", THREE, 3)
    assert g.independents == ["azathoth", "independent-hastur", "independent-ithaqua", "independent-king-in-yellow",
                              "independent-rhan-tegoth", "independent-tsathoggua"]
    event = next(e for e in g.log if e["type"] == "independents")
    assert any(n.startswith("independent-nyarlathotep: left out because crawling-chaos") for n in event["left_out"])
    assert any(n.startswith("independent-yog-sothoth: refused") for n in event["left_out"])
    figures = [u for u in g.s.units if u["owner"] == ""]
    assert sorted(u["kind"] for u in figures) == g.independents and all(u["loc"] == "pool" for u in figures)
    # without the expansions nothing changes
    plain = Game(load_content(expansions=[]).require_ok(), "multiplayer", THREE, 3)
    assert plain.independents == [] and "independents" not in plain.params and plain.s.loyalty == {}


# ---- Azathoth's hidden die faces ------------------------------------------------------------------
AWAKEN_AZATHOTH = {
    "player": "great-cthulhu", "round": 2,
    "power": {"great-cthulhu": 10, "crawling-chaos": 4, "black-goat": 4},
    "doom": {"great-cthulhu": 6, "crawling-chaos": 5, "black-goat": 3},
    "units": {"great-cthulhu": {"south-pacific": ["acolyte", "cthulhu"]},
              "crawling-chaos": {"asia": ["acolyte", "nyarlathotep"]},
              "black-goat": {"africa": ["acolyte", "shub-niggurath"]}},
    "gates": {"south-pacific": "great-cthulhu"},
}


def test_each_opponent_picks_a_face_without_seeing_the_earlier_picks(expanded: Content) -> None:
    g = _game(expanded, AWAKEN_AZATHOTH, ["azathoth"], dice=[3])
    g.apply("awaken azathoth south-pacific")
    first = g.current()
    assert first is not None and first.player == "crawling-chaos" and first.kind == "secret"
    assert first.options == ("1", "2", "3", "4", "5", "6")
    n = len(g.log)
    before = g.digest()
    with pytest.raises(IllegalAction):
        g.apply("7")                                      # not a die face: refused, nothing changes
    assert g.digest() == before and g.current() == first
    g.apply("6")
    second = g.current()
    assert second is not None and second.player == "black-goat"
    assert (second.prompt, second.options, second.kind) == (first.prompt, first.options, first.kind)
    assert second.context == first.context
    assert g.log[n:] == []                                # nothing revealed or paid out yet
    assert g.s.power["crawling-chaos"] == 4
    g.apply("1")
    picks = next(e for e in g.log if e["type"] == "secret-picks")
    assert picks["picks"] == [["crawling-chaos", 6], ["black-goat", 1]]
    assert (g.s.power["crawling-chaos"], g.s.power["black-goat"]) == (10, 5)
    assert (g.s.doom["crawling-chaos"], g.s.doom["black-goat"]) == (5, 1)
    assert g.s.markers["azathoth"] == 7


def test_azathoth_fights_with_his_glyph_and_his_state_survives_a_save(expanded: Content) -> None:
    g = _game(expanded, AWAKEN_AZATHOTH, ["azathoth"], dice=[1])
    for answer in ("awaken azathoth south-pacific", "4", "4"):
        g.apply(answer)
    az = next(u for u in g.s.units if u["kind"] == "azathoth")
    assert az["owner"] == "great-cthulhu" and core.combat_of(g.rules, az, foe="crawling-chaos") == 8
    saved = g.to_json()
    back = Game.from_json(expanded, saved, check_by_replay=False)   # a position set up by hand
    assert back.digest() == g.digest()
    assert back.s.markers == {"azathoth": 8} and back.s.loyalty == g.s.loyalty
    assert back.legal_actions() == g.legal_actions()
    low = _game(expanded, {**AWAKEN_AZATHOTH, "markers": {"azathoth": 3},
                           "units": {**AWAKEN_AZATHOTH["units"], "great-cthulhu": {"south-pacific": ["acolyte", "azathoth"]}}},
                ["azathoth"])
    az = next(u for u in low.s.units if u["kind"] == "azathoth")
    assert core.combat_of(low.rules, az, foe="crawling-chaos") == 3


def test_spellbooks_on_loyalty_cards_never_count_as_faction_spellbooks(expanded: Content) -> None:
    fixture = load_content([ROOT / "tests" / "fixtures" / "independents"], expansions=EXPANSIONS).require_ok()
    pos = {"player": "black-goat", "power": {"great-cthulhu": 0, "crawling-chaos": 0, "black-goat": 4},
           "spellbooks": {"black-goat": ["frenzy", "ghroth", "necrophagy", "the-red-sign", "the-thousand-young"]},
           "units": {"black-goat": {"africa": ["acolyte", "shub-niggurath", "test-idol"]},
                     "crawling-chaos": {"africa": ["acolyte"]}},
           "gates": {"africa": "black-goat"}, "loyalty-spellbooks": {"test-idol": ["idol-book"]}}
    g = _game(fixture, pos, ["test-idol"])
    idol = next(u for u in g.s.units if u["kind"] == "test-idol")
    assert core.combat_of(g.rules, idol, foe="crawling-chaos") == 3          # 1, +2 from its spellbook
    assert not actions.extra_battle_allowed(g.rules, "black-goat")              # five faction spellbooks + one on the card
    assert [o for o in actions.unlimited_actions(g.rules, "black-goat") if o.verb == "extra-battle"] == []
    assert len(g.s.spellbooks["black-goat"]) == 5


# ---- seeded games with the expansions ----------------------------------------------------------------
def test_seeded_games_with_the_expansions_finish(expanded: Content) -> None:
    r = play_mixed(12, seed0=500, content=expanded)
    assert r["failures"] == []
    assert r["stats"]["awakened independents"] > 0
    assert r["stats"]["games with a search bot"] == 1   # seed 509: random bots alone miss positions


def test_cli_plays_with_the_expansions(capsys: pytest.CaptureFixture[str]) -> None:
    from necronomicon.tools.cli import main
    assert main(["play", "--expansions", "independents,azathoth", "--seed", "3", "--quiet",
                 "--independents", "azathoth,independent-tsathoggua"]) == 0
    assert "round" in capsys.readouterr().out
    assert main(["play", "--expansions", "independents", "--seed", "3", "--quiet",
                 "--independents", "independent-ubbo-sathla"]) == 1
    assert "cannot be played" in capsys.readouterr().err


def test_combat_formulas_of_the_cards(expanded: Content) -> None:
    pos = {"player": "black-goat", "round": 2, "ritual": 3,
           "power": {"great-cthulhu": 0, "crawling-chaos": 0, "black-goat": 0},
           "spellbooks": {"crawling-chaos": ["madness", "abduct"]},
           "loyalty-spellbooks": {},
           "units": {"black-goat": {"africa": ["independent-hastur", "independent-nyarlathotep", "independent-tsathoggua",
                                              "shub-niggurath", "acolyte"]},
                     "crawling-chaos": {"africa": ["nyarlathotep", "independent-shub-niggurath"]},
                     "great-cthulhu": {"asia": ["cthulhu"]}},
           "gates": {"africa": "black-goat"}}
    g = _game(expanded, pos, ["independent-hastur", "independent-nyarlathotep", "independent-tsathoggua",
                              "independent-shub-niggurath"])
    kind = {u["kind"]: u for u in g.s.units if basics.is_area(g.rules, u["loc"])}
    assert core.combat_of(g.rules, kind["independent-hastur"], foe="crawling-chaos") == 4       # ritual costs 8: half
    assert core.combat_of(g.rules, kind["independent-nyarlathotep"], foe="crawling-chaos") == 2  # the enemy's spellbooks
    assert core.combat_of(g.rules, kind["independent-nyarlathotep"], foe="great-cthulhu") == 0
    # enemy faction Great Old Ones only: Nyarlathotep counts, the enemy's Independent does not
    assert core.combat_of(g.rules, kind["independent-tsathoggua"], foe="crawling-chaos") == 1
    assert core.combat_of(g.rules, kind["independent-shub-niggurath"], foe="black-goat") == 0     # no gates of its own


def test_an_independent_id_may_not_reuse_a_faction_unit_id(tmp_path: Path) -> None:
    text = (CARDS / "tsathoggua.yaml").read_text().replace("id: independent-tsathoggua\n  name", "id: tsathoggua\n  name")
    (tmp_path / "t.yaml").write_text(text)
    c = load_content([tmp_path], expansions=EXPANSIONS)
    assert any(d.code == "duplicate-id" and "also a unit of faction 'sleeper'" in d.message for d in c.report.errors)


def test_a_logged_game_with_independents_replays_to_the_same_state(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from necronomicon.tools.cli import main
    log = tmp_path / "g.jsonl"
    assert main(["play", "--expansions", "independents,azathoth", "--seed", "2", "--quiet", "--agents", "random",
                 "--log", str(log)]) == 0
    assert '"independents": [' in log.read_text()
    assert main(["replay", str(log), "--expansions", "independents,azathoth"]) == 0
    assert "diverged" not in capsys.readouterr().err


def test_a_house_reading_in_a_layered_folder_makes_a_refused_card_playable(tmp_path: Path) -> None:
    """A modder names an interpretation beside the unknown value in a copy of the card, layered
    with --content-dir; the built-in card stays refused."""
    card = ROOT / "content" / "expansions" / "independents" / "yog-sothoth.yaml"
    text = card.read_text(encoding="utf-8").replace(', reading: "README: Independent Great Old Ones and Azathoth"}', "}")
    text = text.replace("""cost: {unknown: "illegible ('Cost [?]'); no faction card for him in the sources"}""",
                        """cost: {unknown: "illegible ('Cost [?]')", interpretation: 6}""")
    text = text.replace("""cost: {unknown: "illegible ('Cost [?]')"}""",
                        """cost: {unknown: "illegible ('Cost [?]')", interpretation: 1}""")
    assert text.count("interpretation: 6") == 1 and text.count("interpretation: 1}") == 1
    layer = tmp_path / "expansions" / "independents"
    layer.mkdir(parents=True)
    (layer / "yog-sothoth.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(GameError, match="cannot be played: independent-yog-sothoth.great-old-one.cost: illegible"):
        Game(load_content(expansions=["independents"]).require_ok(), "multiplayer", THREE, 1,
             independents=["independent-yog-sothoth"])
    house = load_content([tmp_path], expansions=["independents"]).require_ok()
    g = Game(house, "multiplayer", THREE, 1, independents=["independent-yog-sothoth"])
    yog = independents_rules.awaken_type(g.rules, "great-cthulhu", "independent-yog-sothoth")
    assert core.unit_cost(g.rules, "great-cthulhu", yog) == 6


def test_azathoth_killed_by_a_second_death_keeps_the_invariants(expanded: Content) -> None:
    # found by `python -m benchmarks.independents_soak --games 500 --seed 10000`: Demon Sultan
    # absorbs the first Death, the second kills him, and he is back in the general pool holding
    # two results while the battle goes on
    r = play_mixed(1, seed0=10197, content=expanded)
    assert r["failures"] == []


def test_an_earned_requirements_effect_runs_the_same_way_for_a_faction_and_a_loyalty_card(
        expanded: Content, monkeypatch: pytest.MonkeyPatch) -> None:
    """`core.requirement_effect_call` is the one step both earning procedures (core_procs.Earn,
    loyalty_procs.EarnLoyalty) end with: the requirement's program runs, named by its key."""
    g = Game(expanded, "multiplayer", THREE, 1)
    r = next(r for r in expanded.model.factions["great-cthulhu"].requirements if r.effect is not None)
    call = core.requirement_effect_call(g.rules, "great-cthulhu", r.id)
    assert call is not None and call.frame["program"] == r.effect.key
    assert call.frame["ctx"]["me"] == "great-cthulhu" and call.frame["ctx"]["ability"] == f"requirement {r.id}"
    card = next(c for c, lc in expanded.model.loyalty_cards.items() if lc.requirements)
    key = f"{card}/{expanded.model.loyalty_cards[card].requirements[0].id}"
    assert core.requirement_effect_call(g.rules, "great-cthulhu", key) is None   # no effect: the procedure ends
    assert core.requirement_effect_call(g.rules, "great-cthulhu", "no-such-requirement") is None
    monkeypatch.setattr(core, "requirement", lambda game, p, k: r if k == key else None)   # a card's with an effect
    call = core.requirement_effect_call(g.rules, "great-cthulhu", key)
    assert call is not None and call.frame["ctx"]["ability"] == f"requirement {key}"
