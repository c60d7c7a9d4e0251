"""The search bot (issue 15, 'A generic search bot'): budgets, determinism, one-option decisions,
no reading of hidden information, and whole games with a modder's faction."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.decisions import Decision
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.play import run_game
from necronomicon.interpreter.engine.position import build_state
from necronomicon.interpreter.engine.rng import Rng
from necronomicon.interpreter.engine.seat import Seat
from necronomicon.interpreter.search import SearchAgent, parse_agent
from necronomicon.interpreter.search.determinize import determinize
from necronomicon.interpreter.search.reward import values
from necronomicon.tools.cli import main

ROOT = Path(__file__).parent.parent
MODDED = ROOT / "docs" / "modding" / "example-faction" / "drowned-choir"
TINY = "mcts:4:depth=6"


@pytest.mark.parametrize("name, playouts, seconds, policy, depth", [
    ("mcts", 200, None, "heuristic", 30), ("mcts:400", 400, None, "heuristic", 30),
    ("mcts:0.5s", None, 0.5, "heuristic", 30), ("mcts:400:random", 400, None, "random", 30),
    ("mcts:heuristic:1.5s:depth=10:c=2", None, 1.5, "heuristic", 10)])
def test_budgets_are_read(name: str, playouts: int | None, seconds: float | None, policy: str, depth: int) -> None:
    cfg = parse_agent(name)
    assert (cfg.playouts, cfg.seconds, cfg.policy, cfg.depth) == (playouts, seconds, policy, depth)
    assert parse_agent(cfg.label()) == cfg           # the label a report shows is itself a valid name


@pytest.mark.parametrize("name, message", [
    ("mcts:0", "playouts must be between 1"), ("mcts:0s", "time budget must be above 0"),
    ("mcts:abc", "cannot read 'abc'"), ("mcts:-3", "cannot read '-3'"), ("mcts:", "cannot read ''"),
    ("mcts:400:800", "gives the budget twice"), ("mcts:depth=x", "depth must be a whole number"),
    ("mcts:c=-1", "c must be a number"), ("mcts:1.5", "cannot read '1.5'")])
def test_bad_budgets_are_one_line(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as err:
        make_agent(name, 1)
    assert str(err.value).startswith(f"agent '{name}': ") and "\n" not in str(err.value)


def test_a_bad_budget_on_the_command_line_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--ruleset", "duel", "--games", "1", "--agents", "heuristic,mcts:0.0s"]) == 1
    assert capsys.readouterr().err == "necro: error: agent 'mcts:0.0s': a time budget must be above 0 and at most 3600s, got '0.0s'\n"


def _play(content: Content, ruleset: str, factions: list[str], agents: list[str], seed: int,
          layout: str | None = None) -> tuple[Game, dict[str, Any]]:
    g = Game(content, ruleset, factions, seed, layout)
    bots = {f: make_agent(a, seed * 31 + i) for i, (f, a) in enumerate(zip(factions, agents))}
    run_game(g, bots)
    return g, bots


def test_the_same_seed_gives_the_same_game(basic: Content) -> None:
    a, _ = _play(basic, "test-multi", ["red", "green"], [TINY, TINY], seed=3)
    b, bots = _play(basic, "test-multi", ["red", "green"], [TINY, TINY], seed=3)
    assert a.is_over() and a.choices == b.choices and a.digest() == b.digest()
    assert bots["red"].stats.searched > 0


def test_a_decision_with_one_option_costs_nothing() -> None:
    bot = SearchAgent(parse_agent("mcts:1000"), seed=1)
    # no seat at all: any search would fail
    d = Decision("red", "unit", ("acolyte a#3",), "choose a unit")
    assert bot.choose("red", d.options, d) == "acolyte a#3"
    assert (bot.stats.searched, bot.stats.playouts, bot.stats.forced) == (0, 0, 1)


FACTIONS = ["great-cthulhu", "crawling-chaos", "black-goat"]


def test_a_search_halted_from_outside_answers_after_one_playout(base_game: Content) -> None:
    g = _position_game(base_game, {}, seed=1)
    bot = SearchAgent(parse_agent("mcts:1000000"), seed=5)
    bot.sit(Seat(g, "great-cthulhu"))
    d = g.current()
    assert d is not None and len(d.options) > 1
    bot.halt.set()       # as another thread sets it mid-search (the web board's Pause)
    answer = bot.choose(d.player, d.options, d)
    assert answer in d.options and bot.stats.playouts == 1
    bot.halt.clear()
    bot.config = parse_agent("mcts:3")
    bot.choose(d.player, d.options, d)
    assert bot.stats.playouts == 1 + 3


def _position_game(content: Content, signs: dict[str, list[int]], seed: int, pos: dict[str, Any] | None = None,
                   independents: list[str] | None = None) -> Game:
    layout = content.model.rulesets["multiplayer"].get("map")["3"]
    position = {"player": "great-cthulhu", "power": {f: 6 for f in FACTIONS},
                "units": {"great-cthulhu": {"south-pacific": ["acolyte", "acolyte"]},
                          "crawling-chaos": {"asia": ["acolyte"]}, "black-goat": {"africa": ["acolyte"]}},
                "gates": {"south-pacific": "great-cthulhu"}, "elder-signs": signs, **(pos or {})}
    state = build_state(content.model, "multiplayer", layout, FACTIONS, seed, position, independents or [])
    return Game(content, "multiplayer", FACTIONS, seed, layout, independents=independents, _state=state.to_dict())


def test_hidden_elder_signs_and_the_generator_do_not_change_its_decisions(base_game: Content) -> None:
    a = _position_game(base_game, {"great-cthulhu": [2], "crawling-chaos": [1, 1]}, seed=1)
    b = _position_game(base_game, {"great-cthulhu": [2], "crawling-chaos": [3, 3]}, seed=2)
    assert a.s.elder_signs != b.s.elder_signs and a.s.es_bag != b.s.es_bag and a.s.rng != b.s.rng
    copies = [determinize(Seat(g, "great-cthulhu"), Rng(7)) for g in (a, b)]
    assert copies[0].s.to_dict() == copies[1].s.to_dict()   # all the search ever sees is the same
    answers = []
    for g in (a, b):
        bot = SearchAgent(parse_agent("mcts:6:depth=8"), seed=5)
        bot.sit(Seat(g, "great-cthulhu"))
        mine = []
        for _ in range(3):      # great-cthulhu's decisions in a row (up to three): the same answers in both games
            d = g.current()
            assert d is not None
            if d.player != "great-cthulhu":
                break
            mine.append(bot.choose(d.player, d.options, d))
            g.apply(mine[-1])
        answers.append(mine)
    assert answers[0] and answers[0] == answers[1]


def test_a_determinization_keeps_what_the_player_knows_and_redraws_the_rest(base_game: Content) -> None:
    g = _position_game(base_game, {"great-cthulhu": [2], "crawling-chaos": [3, 3]}, seed=1)
    d = determinize(Seat(g, "great-cthulhu"), Rng(9))
    assert d.view("great-cthulhu")["state"]["units"] == g.view("great-cthulhu")["state"]["units"]
    assert d.s.elder_signs["great-cthulhu"] == [2] and len(d.s.elder_signs["crawling-chaos"]) == 2
    assert sorted(d.s.elder_signs["crawling-chaos"] + d.s.es_bag) == sorted(g.s.elder_signs["crawling-chaos"] + g.s.es_bag)
    assert d.s.rng != g.s.rng and d.current() == g.current()
    draws = {tuple(determinize(Seat(g, "great-cthulhu"), Rng(k)).s.elder_signs["crawling-chaos"]) for k in range(12)}
    assert len(draws) > 1      # re-sampled, not copied


def test_another_players_pending_secret_pick_is_redrawn() -> None:
    expanded = load_content(expansions=["azathoth"]).require_ok()
    pos = {"round": 2, "doom": {"great-cthulhu": 6, "crawling-chaos": 5, "black-goat": 3},
           "units": {"great-cthulhu": {"south-pacific": ["acolyte", "cthulhu"]},
                     "crawling-chaos": {"asia": ["acolyte", "nyarlathotep"]},
                     "black-goat": {"africa": ["acolyte", "shub-niggurath"]}},
           "power": {"great-cthulhu": 10, "crawling-chaos": 4, "black-goat": 4}}
    picks = []
    for secret in ("6", "2"):
        g = _position_game(expanded, {}, seed=1, pos=pos, independents=["azathoth"])
        g.rules._forced_dice = [3]
        g.apply("awaken azathoth south-pacific")
        g.apply(secret)                                    # crawling-chaos picks face down
        d = g.current()
        assert d is not None and d.player == "black-goat" and d.kind == "secret"
        copy = determinize(Seat(g, "black-goat"), Rng(4))
        copy.apply(d.options[0])
        while not any(e.get("type") == "secret-picks" for e in copy.log):
            copy.apply(copy.current().options[0])
        picks.append(next(e["picks"] for e in copy.log if e.get("type") == "secret-picks"))
    assert picks[0] == picks[1]                            # the real pick (6 or 2) never reached the copy


def test_values_are_per_seat_and_favour_the_winner(basic: Content) -> None:
    g, _ = _play(basic, "test-multi", ["red", "green"], ["random", "random"], seed=2)
    v = values(g)
    assert set(v) == {"red", "green"} and all(0 <= x <= 1 for x in v.values())
    for w in g.winner() or []:
        assert v[w] == max(v.values())
    start = Game(basic, "test-multi", ["red", "green"], 2)
    start.s.power = {"red": 4, "green": 8}                 # a cut-off playout is estimated: more Power, more value
    est = values(start)
    # at the start neither is sure to hold six spellbooks by the end (reward.chance_to_qualify), so
    # the estimate leaves room for nobody winning: the seats' values sum to well under one victory
    assert est["green"] > est["red"] and 0.2 < sum(est.values()) < 0.9


def test_it_plays_a_modders_faction_to_the_end() -> None:
    content = load_content([MODDED], expansions=[]).require_ok()
    g, bots = _play(content, "multiplayer", ["drowned-choir", "sleeper", "wind-rider"],
                    ["mcts:2:depth=5:heuristic", "random", "random"], seed=1, layout="drowned-coast")
    assert g.is_over() and "drowned-choir" in g.result_line()
    assert bots["drowned-choir"].stats.searched > 0 and isinstance(bots["sleeper"], RandomAgent)


def test_a_time_budget_counts_only_the_thinking_threads_cpu() -> None:
    """Another thread's work does not eat a bot's budget (two bots thinking at once each get their own)."""
    import threading
    from necronomicon.interpreter.search import agent as search_agent

    def spin() -> None:
        end = time.thread_time() + 0.3
        while time.thread_time() < end:
            pass

    before = search_agent.cpu_clock()
    other = threading.Thread(target=spin)
    other.start()
    other.join()
    assert search_agent.cpu_clock() - before < 0.15   # the 0.3 s spent by the other thread is not counted
