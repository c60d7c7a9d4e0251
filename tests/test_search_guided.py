"""The search bot guided by the heuristic bot (issue 15: a search bot that beats the heuristic one)
and the value of a cut-off playout where only players with six spellbooks can win."""
from __future__ import annotations

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.agents import HeuristicAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.options import option_info
from necronomicon.interpreter.engine.seat import Seat
from necronomicon.interpreter.search import SearchAgent, parse_agent
from necronomicon.interpreter.search.reward import values
from necronomicon.interpreter.engine import phases


@pytest.fixture(scope="module")
def core() -> Content:
    return load_content().require_ok()


def test_the_prior_is_read_and_named_in_the_label() -> None:
    cfg = parse_agent("mcts:0.5s:heuristic:prior=10:depth=30")
    assert cfg.prior == 10 and cfg.label() == "mcts:0.5s:heuristic:depth=30:c=1:prior=10:root=0.5"
    assert parse_agent(cfg.label()) == cfg
    with pytest.raises(ValueError, match="prior must be a number"):
        parse_agent("mcts:prior=x")


def test_with_one_playout_the_guided_bot_plays_the_heuristic_bots_favourite(core: Content) -> None:
    g = Game(core, "duel", ["sleeper", "wind-rider"], 4)
    scorer = HeuristicAgent(0)
    bot = SearchAgent(parse_agent("mcts:1:heuristic:prior=10:depth=0"), seed=2)
    for p in g.s.players:
        bot.sit(Seat(g, p))
    checked = 0
    while checked < 25 and not g.is_over():
        d = g.current()
        assert d is not None
        infos = option_info(d, g.s.players, g.layout.areas)
        scores = [scorer.score(d.player, o, d, g) for o in infos]
        answer = bot.choose(d.player, d.options, d)
        if len(d.options) > 1:
            assert scores[d.options.index(answer)] == max(scores), (d.prompt, answer)
            checked += 1
        g.apply(answer)
    assert checked == 25


def _late(core: Content, doom: dict[str, int], books: dict[str, int]) -> Game:
    g = Game(core, "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat"], 1)
    for p in g.s.players:          # the estimate counts spellbooks; which ones does not matter to it
        g.s.doom[p] = doom[p]
        g.s.spellbooks[p] = [f"book-{i}" for i in range(books[p])]
    return g


def test_a_doom_lead_without_the_spellbooks_is_not_a_win(core: Content) -> None:
    g = _late(core, {"great-cthulhu": 26, "crawling-chaos": 22, "black-goat": 10},
              {"great-cthulhu": 2, "crawling-chaos": 6, "black-goat": 2})
    v = values(g)
    assert v["crawling-chaos"] > v["great-cthulhu"] > v["black-goat"]
    early = _late(core, {"great-cthulhu": 4, "crawling-chaos": 2, "black-goat": 1},
                  {"great-cthulhu": 2, "crawling-chaos": 6, "black-goat": 2})
    assert values(early)["great-cthulhu"] > values(early)["black-goat"]   # early on, books matter less


def test_the_duel_counts_doom_without_spellbooks(core: Content) -> None:
    g = Game(core, "duel", ["sleeper", "wind-rider"], 1)
    g.s.doom["sleeper"], g.s.doom["wind-rider"] = 20, 12
    v = values(g)
    assert v["sleeper"] > v["wind-rider"]


def test_the_ritual_markers_last_step_leaves_each_seat_its_chance_and_each_spellbook_its_worth(core: Content) -> None:
    # four-player games spend their second half with the marker on the track's last step (nobody pays
    # for Instant Death); the pace model read that as the end, gave every seat short of six no chance
    # to qualify, and a search seat one spellbook short raced Doom (#33)
    from necronomicon.interpreter.search.reward import _ready
    doom = {"great-cthulhu": 20, "crawling-chaos": 14, "black-goat": 8}
    g = _late(core, doom, {"great-cthulhu": 4, "crawling-chaos": 3, "black-goat": 2})
    g.s.ritual = len(phases.ritual_track(g.rules)) - 1            # the next Ritual is Instant Death
    ready = _ready(g)
    assert 0 < ready["black-goat"] < ready["crawling-chaos"] < ready["great-cthulhu"] < 1
    one_more = _late(core, doom, {"great-cthulhu": 5, "crawling-chaos": 3, "black-goat": 2})
    one_more.s.ritual = g.s.ritual
    assert values(one_more)["great-cthulhu"] > values(g)["great-cthulhu"] + 0.05   # the fifth book is worth having


def test_lateness_on_the_ritual_markers_last_step_mid_game_is_below_one(core: Content) -> None:
    # the reward's lateness read 1 ("the game is over") from the marker's last step on, half of a
    # four-player game (#33); the evaluation's features keep a clock that reads either track
    from necronomicon.interpreter.search import features
    from necronomicon.interpreter.search.reward import lateness
    doom = {"great-cthulhu": 15, "crawling-chaos": 12, "black-goat": 8}
    g = _late(core, doom, {"great-cthulhu": 3, "crawling-chaos": 3, "black-goat": 2})
    g.s.ritual = len(phases.ritual_track(g.rules)) - 1
    assert lateness(g) == pytest.approx(15 / phases.doom_goal(g.rules)) and lateness(g) < 1
    assert features.lateness(g) == 1.0 == features.game_features(g)[1]          # the marker's clock
    assert features.seat_features(g)["great-cthulhu"][-3] == pytest.approx(15.0)  # doom x the features' clock
    g.s.ritual = 0
    assert features.lateness(g) == pytest.approx(lateness(g))                     # the Doom clock is further
    g.s.doom["great-cthulhu"] = phases.doom_goal(g.rules) + 3                     # past the goal: the end
    assert lateness(g) == 1.0


def test_doom_nearer_the_end_costs_most_the_player_furthest_from_six(core: Content) -> None:
    from necronomicon.interpreter.search.reward import chance_to_qualify
    for clock in (0.0, 0.5, 0.9):
        chances = [chance_to_qualify(m, clock) for m in range(6, -1, -1)]
        assert chances == sorted(chances) and chances[-1] == 1.0 and 0 < chances[0]   # each book adds chance
    for far, near in ((4, 1), (3, 2)):
        kept = [chance_to_qualify(m, 0.9) / chance_to_qualify(m, 0.2) for m in (far, near)]
        assert kept[0] < kept[1]          # a late Doom clock costs the player further from six more


def test_ending_the_game_with_nobody_qualified_is_no_prize(core: Content) -> None:
    g = _late(core, {"great-cthulhu": 24, "crawling-chaos": 18, "black-goat": 10},
              {"great-cthulhu": 4, "crawling-chaos": 4, "black-goat": 2})
    g.s.ritual = 1
    going_on = values(g)["great-cthulhu"]
    g.s.over, g.s.winners = True, []
    assert values(g) == dict.fromkeys(g.s.players, 0.0) and going_on > 0   # a loss for all, no best loss to spoil for


def test_for_two_players_without_the_spellbook_rule_the_chance_is_a_two_way_softmax(core: Content) -> None:
    import math
    from necronomicon.interpreter.search.reward import TEMPERATURE, WIN, _score
    g = Game(core, "duel", ["sleeper", "wind-rider"], 1)
    g.s.doom["sleeper"], g.s.doom["wind-rider"] = 17, 12
    a, b = _score(g, "sleeper"), _score(g, "wind-rider")
    softmax = math.exp(a / TEMPERATURE) / (math.exp(a / TEMPERATURE) + math.exp(b / TEMPERATURE))
    assert values(g)["sleeper"] == pytest.approx(WIN * softmax + (1 - WIN) * 1.0)


def test_a_rival_sure_to_qualify_beats_a_doom_leader_unlikely_to(core: Content) -> None:
    g = _late(core, {"great-cthulhu": 22, "crawling-chaos": 10, "black-goat": 12},
              {"great-cthulhu": 2, "crawling-chaos": 5, "black-goat": 3})
    g.s.ritual = 2
    v = values(g)
    assert v["crawling-chaos"] > v["great-cthulhu"]


def test_root_spreads_a_share_of_the_prior_evenly_over_the_roots_options(core: Content) -> None:
    from necronomicon.interpreter.search.determinize import determinize, known_to
    from necronomicon.interpreter.search.tree import Node
    g = Game(core, "duel", ["sleeper", "wind-rider"], 4)
    while len(g.current().options) < 3:
        g.apply(g.current().options[0])
    d = g.current()
    assert parse_agent("mcts:0.5s:root=0.5").label().endswith(":prior=10:root=0.5")
    priors = {}
    for spread in (0.0, 0.5, 1.0):
        bot = SearchAgent(parse_agent(f"mcts:1:prior=10:depth=0:root={spread}"), seed=2)
        seat = Seat(g, d.player)
        bot.sit(seat)
        root = Node()
        bot._descend_puct(determinize(seat, bot.rng, known_to(seat)), root, [root])
        priors[spread] = [root.children[o].prior for o in d.options]
    n = len(d.options)
    assert max(priors[0.0]) > 100 * min(priors[0.0])                    # the heuristic bot has favourites
    assert priors[1.0] == pytest.approx([1 / n] * n)                      # all spread: even
    assert priors[0.5] == pytest.approx([(a + 1 / n) / 2 for a in priors[0.0]])
    assert sum(priors[0.5]) == pytest.approx(1)


def test_free_answers_that_only_undo_earlier_ones_are_left_out(core: Content) -> None:
    """Abandoning a Gate and controlling it again is no move: the bot does not search, nor play, the way back."""
    g = Game(core, "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 1)
    g.apply(g.current().options[0])
    d = g.current()
    assert d.player == "great-cthulhu" and "abandon-gate south-pacific" in d.options
    bot = SearchAgent(parse_agent("mcts:8"), 1)
    seat = Seat(g, d.player)
    bot.sit(seat)
    bot.choose(d.player, d.options, d)           # it stands here once
    g.apply("abandon-gate south-pacific")         # then (say) gives the Gate up, a free action
    d = g.current()
    assert d.player == "great-cthulhu" and "control-gate south-pacific" in d.options
    assert bot.repeats.back_again(seat, d) == {"control-gate south-pacific"}   # the way back; `move` begins an action
    assert bot.choose(d.player, d.options, d) != "control-gate south-pacific"


def test_the_way_back_is_found_while_others_hold_face_down_elder_signs(core: Content) -> None:
    """Each free option is tried on a determinized copy: on a masked one (others' signs None) the
    check of whether a reveal could end the game fails, and the way back was passed over as illegal."""
    g = Game(core, "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 1)
    g.apply(g.current().options[0])
    g.s.elder_signs["crawling-chaos"] = [1, 2]     # face down: hidden from Great Cthulhu
    d = g.current()
    bot = SearchAgent(parse_agent("mcts:4"), 1)
    seat = Seat(g, d.player)
    bot.sit(seat)
    assert bot.repeats.back_again(seat, d) == frozenset()
    g.apply("abandon-gate south-pacific")
    d = g.current()
    assert bot.repeats.back_again(seat, d) == {"control-gate south-pacific"}
