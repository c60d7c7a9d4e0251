"""The bot author's API: legal_actions/apply/clone/to_json/from_json, transactional apply, replay."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.decisions import IllegalAction
from necronomicon.interpreter.engine.game import Game, GameError, replay
from necronomicon.interpreter.engine.play import run_game
from necronomicon.interpreter.engine.position import build_state

from .conftest import BASIC


def _game(c: Content, seed: int = 5, players: tuple[str, ...] = ("red", "blue", "green")) -> Game:
    return Game(c, "test-multi", list(players), seed)


def _random_steps(g: Game, n: int, seed: int) -> None:
    agent = RandomAgent(seed)
    for _ in range(n):
        if g.pending is None:
            return
        d = g.pending
        g.apply(agent.choose(d.player, d.options, d))


def test_illegal_answer_names_why_and_changes_nothing(basic: Content) -> None:
    state = build_state(basic.model, "test-multi", "testland", ["red", "blue"], 1,
                        {"player": "red", "power": {"red": 1, "blue": 3},
                         "units": {"red": {"a": ["acolyte"]}, "blue": {"c": ["acolyte"]}}, "gates": {"a": "red"}})
    g = Game(basic, "test-multi", ["red", "blue"], 1, _state=state.to_dict())
    before = json.dumps(g.to_json(), sort_keys=True)
    log_before = len(g.log)
    assert g.why_illegal("summon brute a") == ("not-enough-power", "Summon Brute costs 2, you have 1")
    with pytest.raises(IllegalAction) as info:
        g.apply("summon brute a")
    assert info.value.code == "not-enough-power"
    assert str(info.value) == "not-enough-power: Summon Brute costs 2, you have 1"
    with pytest.raises(IllegalAction) as info:
        g.apply("fly to the moon")
    assert info.value.code == "not-an-option"
    assert json.dumps(g.to_json(), sort_keys=True) == before
    assert len(g.log) == log_before
    assert g.why_illegal("summon grunt a") is None


def test_a_rule_failure_restores_the_state(tmp_path: Path) -> None:
    bad = tmp_path / "mod"
    bad.mkdir()
    text = (BASIC / "factions" / "red.yaml").read_text()
    text = text.replace("spellbooks:\n", "abilities:\n  - id: boom\n    name: Boom\n    window: action\n"
                        "    effect: \"gain_power(me, 1)\\ngain_power(me, 1 / 2)\"\nspellbooks:\n")
    (bad / "red.yaml").write_text(text)
    c = load_content([BASIC, bad], builtin=False).require_ok()
    state = build_state(c.model, "test-multi", "testland", ["red", "blue"], 1,
                        {"player": "red", "power": {"red": 3, "blue": 3},
                         "units": {"red": {"a": ["acolyte"]}, "blue": {"c": ["acolyte"]}}})
    g = Game(c, "test-multi", ["red", "blue"], 1, _state=state.to_dict())
    before = json.dumps(g.to_json(), sort_keys=True)
    with pytest.raises(GameError, match="whole number"):
        g.apply("ability boom")
    assert json.dumps(g.to_json(), sort_keys=True) == before
    assert g.s.power["red"] == 3
    g.apply("move")  # the game goes on


def test_same_seed_same_game_and_seeds_differ(basic: Content) -> None:
    def play(seed: int) -> str:
        g = _game(basic, seed)
        run_game(g, {p: RandomAgent(seed + i) for i, p in enumerate(g.s.players)})
        return g.digest()
    assert play(3) == play(3)
    assert play(3) != play(4)


def test_clone_continues_exactly_like_the_original(basic: Content) -> None:
    g = _game(basic)
    _random_steps(g, 57, 1)
    c = g.clone()
    assert c.to_json() == g.to_json()
    _random_steps(g, 200, 9)
    _random_steps(c, 200, 9)
    assert c.digest() == g.digest()
    assert c.legal_actions() == g.legal_actions()


def test_json_round_trip_is_lossless_and_continues_identically(basic: Content) -> None:
    g = _game(basic)
    _random_steps(g, 83, 2)
    saved = json.loads(json.dumps(g.to_json()))
    loaded = Game.from_json(basic, saved)
    assert loaded.to_json() == saved
    _random_steps(g, 300, 4)
    _random_steps(loaded, 300, 4)
    assert loaded.digest() == g.digest()


def test_replay_from_the_log_reproduces_the_final_state(basic: Content) -> None:
    g = _game(basic, 11)
    run_game(g, {p: RandomAgent(i) for i, p in enumerate(g.s.players)})
    lines = g.log_lines()
    digest = json.loads(lines[-1])["digest"]
    again = replay(basic, lines)
    assert again.digest() == digest == g.digest()
    assert again.result_line() == g.result_line()
    # undo = replay to step N
    half = replay(basic, lines, upto=len(g.choices) // 2)
    assert not half.is_over() and len(half.choices) == len(g.choices) // 2


def test_random_games_always_offer_a_choice_until_they_end(basic: Content) -> None:
    for seed in range(8):
        g = _game(basic, seed)
        agent = RandomAgent(seed)
        steps = 0
        while not g.is_over():
            assert g.legal_actions(), "no legal action but the game is not over"
            d = g.pending
            assert d is not None
            g.apply(agent.choose(d.player, d.options, d))
            steps += 1
        assert g.winner() is not None
        assert g.legal_actions() == []
        with pytest.raises(IllegalAction, match="game-over"):
            g.apply("pass")


def test_incomplete_map_is_refused_with_a_reason(builtin: Content | None = None) -> None:  # noqa: PT028
    c = load_content().require_ok() if builtin is None else builtin
    with pytest.raises(GameError, match="incomplete"):
        Game(c, "duel", ["sleeper", "wind-rider"], 1, "extinction")


def test_bad_setups_are_refused(basic: Content) -> None:
    with pytest.raises(GameError, match="for 2, 3 players"):
        Game(basic, "test-multi", ["red"], 1)
    with pytest.raises(GameError, match="did you mean 'green'"):
        Game(basic, "test-multi", ["red", "gren"], 1)
    with pytest.raises(GameError, match="unknown ruleset"):
        Game(basic, "nope", ["red", "blue"], 1)


def test_a_log_replays_only_over_the_expansions_it_was_played_with() -> None:
    from necronomicon.interpreter.engine.game import GameError, log_params, replay
    plain = load_content(expansions=[]).require_ok()
    with_azathoth = load_content(expansions=["azathoth"]).require_ok()
    g = Game(with_azathoth, "duel", ["sleeper", "wind-rider"], seed=3)
    for _ in range(30):
        g.apply(g.legal_actions()[0])
    lines = g.log_lines()
    assert log_params(lines)["expansions"] == ["azathoth"]
    assert replay(with_azathoth, lines).digest() == g.digest()
    with pytest.raises(GameError, match=r"played with expansions \[azathoth\] but the content loaded has \[\]"):
        replay(plain, lines)
    with pytest.raises(GameError, match="played with expansions"):
        Game.from_json(plain, g.to_json())


@pytest.mark.parametrize("pick", [0, -1])
@pytest.mark.parametrize("ruleset, factions", [("duel", ["sleeper", "wind-rider"]),
                                               ("two-player", ["black-goat", "yellow-sign"]),
                                               ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat"])])
def test_always_the_same_option_still_ends_the_game(ruleset: str, factions: list[str], pick: int) -> None:
    """The README's bot (always the first option) once never ended a Duel: 'abandon-gate a' and
    'control-gate a' cost nothing and undid each other forever. A free unlimited action is now
    not offered again from a position where it was already taken this turn."""
    game = Game(load_content(expansions=["independents", "azathoth"]).require_ok(), ruleset, factions, seed=7)
    for _ in range(5000):
        if game.is_over():
            break
        game.apply(game.current().options[pick])
    assert game.is_over()


def test_undo_returns_to_the_earlier_decision(basic: Content) -> None:
    g = _game(basic, seed=11)
    _random_steps(g, 15, seed=3)
    ref = _game(basic, seed=11)
    for c in g.choices[:10]:
        ref.apply(c)
    n = len(g.choices) - 10
    g.undo(n)
    assert g.choices == ref.choices
    assert g.digest() == ref.digest()
    assert g.current().options == ref.current().options
    with pytest.raises(IllegalAction):
        g.undo(11)
    assert g.digest() == ref.digest()


def _scenario_start(name: str) -> Game:
    """The game at a scenario's position, before its scripted answers (the scenario runner builds it)."""
    from necronomicon.tools.scenario import load_spec, run_spec
    spec = load_spec(Path(__file__).parent / "scenarios" / name)
    spec.update(script=[], expect={})
    return run_spec(spec, load_content().require_ok(), name).game


def test_why_illegal_names_a_unique_action_that_cannot_be_done_in_full() -> None:
    """Core rulebook, Unique Actions: all parts must be possible; the refusal says so."""
    g = _scenario_start("core/unique-action-all-parts-desecrate.yaml")
    why = g.why_illegal("ability desecrate")
    assert why is not None and why[0] == "missing-part", why


def test_why_illegal_asks_for_the_area_of_a_per_area_action() -> None:
    """An action ability with `where:` is one action per area ('ability ID AREA'); naming it
    without the area is refused with the areas it may end in."""
    g = _scenario_start("wind-rider/ice-age-desecrate.yaml")
    why = g.why_illegal("ability desecrate")
    assert why is not None and why[0] == "needs-area" and "ability desecrate AREA" in why[1] and "asia" in why[1], why
    assert g.why_illegal("ability desecrate asia") is None
