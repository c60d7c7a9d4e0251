"""The search's transposition table and its reuse of statistics between decisions (#33): keyed by
the position as the bot's player knows it (search/positions.py), so a reused root holds what the
previous search gathered for the line the game followed, two answers meeting at one position share
its statistics, and the same seed and playout budget give the same game whether or not the game
was rebuilt from a save on the way."""
from __future__ import annotations

from typing import Any

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.agents import HeuristicAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.rng import Rng
from necronomicon.interpreter.engine.seat import Seat
from necronomicon.interpreter.search import SearchAgent, parse_agent
from necronomicon.interpreter.search.determinize import determinize
from necronomicon.interpreter.search.positions import search_key
from necronomicon.interpreter.search.tree import Node, Stats

FACTIONS = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"]
ME = "great-cthulhu"


def _table_game(content: Content, seed: int = 3) -> tuple[Game, HeuristicAgent]:
    g = Game(content, "multiplayer", FACTIONS, seed)
    others = HeuristicAgent(1)
    for p in g.s.players:
        others.sit(Seat(g, p))
    return g, others


def test_the_names_read_and_label_the_table_and_reuse() -> None:
    cfg = parse_agent("mcts:40:tt=1:reuse=1")
    assert cfg.tt and cfg.reuse and cfg.label().endswith(":tt=1:reuse=1") and parse_agent(cfg.label()) == cfg
    assert not parse_agent("mcts:40").tt and ":tt" not in parse_agent("mcts:40").label()
    for bad in ("mcts:tt=2", "mcts:reuse=yes"):
        try:
            parse_agent(bad)
        except ValueError as e:
            assert "must be 0 (off) or 1 (on)" in str(e)
        else:
            raise AssertionError(bad)


def test_a_reused_root_holds_what_the_previous_search_gathered_for_that_line(base_game: Content) -> None:
    g, others = _table_game(base_game)
    bot = SearchAgent(parse_agent("mcts:30:tt=1:reuse=1"), 5)
    bot.sit(Seat(g, ME))
    previous: Stats | None = None
    line: list[tuple[int, str]] = []    # (options on offer, answer) since the bot's last search
    reused = 0
    while reused < 3 and len(g.choices) < 400:
        d = g.current()
        assert d is not None
        if d.player != ME or len(d.options) == 1:
            a = others.choose(d.player, d.options, d) if d.player != ME else d.options[0]
            line.append((len(d.options), a))
            g.apply(a)
            continue
        expected: Any = previous     # follow the answers given since, down the last search's graph
        for n, a in line:
            if expected is None:
                break
            if n > 1:               # a decision with one option has no node (it is passed through)
                edge = expected.children.get(a)
                expected = edge.stats if edge is not None else None
        seen = (expected.visits, {o: ch.visits for o, ch in expected.children.items()}) if expected else None
        a = bot.choose(d.player, d.options, d)
        root = bot.root
        assert root is not None
        if expected is not None and seen is not None and seen[0] > 0:
            assert root.stats is expected                       # the very statistics of that line
            assert root.visits == seen[0] + 30                  # what was gathered, and this search's 30
            assert all(root.children[o].visits >= v for o, v in seen[1].items())
            reused += 1
        else:
            assert root.visits == 30                            # nothing gathered there: a fresh root
        previous = root.stats
        line = [(len(d.options), a)]
        g.apply(a)
    assert reused == 3


def test_two_answers_that_meet_at_one_position_share_its_statistics(base_game: Content) -> None:
    g, _ = _table_game(base_game)
    d = g.current()
    assert d is not None
    seat = Seat(g, d.player)
    for tt, shared in ((True, True), (False, False)):
        bot = SearchAgent(parse_agent(f"mcts:10:tt={int(tt)}"), 1)
        bot.sit(seat)
        bot.choose(d.player, d.options, d)                  # a search: the table holds its positions
        first, second = Node(), Node()
        here = determinize(seat, Rng(7))
        again = determinize(seat, Rng(8))                   # other draws of what the player cannot see
        assert search_key(here, d.player) == search_key(again, d.player)
        here.apply(d.options[0])
        again.apply(d.options[0])
        assert bot._arrive(here, first, []) and bot._arrive(again, second, [])
        assert (first.stats is second.stats) is shared
        if shared:
            assert first.visits > 0                          # the statistics the search gathered there
        before = second.visits
        first.update({p: 1.0 for p in g.s.players})
        assert second.visits == before + (1 if shared else 0)


def test_the_search_graph_shares_positions_only_with_the_table(base_game: Content) -> None:
    """Answers in another order sometimes meet (about 1 new node in 300 in four-player play)."""
    counts = {0: 0, 1: 0}
    for tt in (0, 1):
        g, others = _table_game(base_game)
        bot = SearchAgent(parse_agent(f"mcts:40:depth=3:tt={tt}"), 4)
        bot.sit(Seat(g, ME))
        while len(g.choices) < 120:
            d = g.current()
            assert d is not None
            if d.player != ME:
                g.apply(others.choose(d.player, d.options, d))
                continue
            a = bot.choose(d.player, d.options, d)
            parents: dict[int, int] = {}       # per position of this search's graph: answers leading to it
            if bot.root is not None:
                todo, seen = [bot.root.stats], {id(bot.root.stats)}
                while todo:
                    for ch in todo.pop().children.values():
                        parents[id(ch.stats)] = parents.get(id(ch.stats), 0) + 1
                        if id(ch.stats) not in seen:
                            seen.add(id(ch.stats))
                            todo.append(ch.stats)
            counts[tt] += sum(1 for n in parents.values() if n > 1)
            g.apply(a)
    assert counts[0] == 0 and counts[1] > 0


def test_the_same_seed_and_budget_give_the_same_game_when_it_is_rebuilt_from_a_save(base_game: Content) -> None:
    """The table is keyed by the position, not by the game object: a bot that goes on at a game
    loaded from a save reuses what it gathered, and plays as it does when the game is not saved."""
    runs = []
    for saved_at in (None, 60):
        g, others = _table_game(base_game, seed=8)
        bot = SearchAgent(parse_agent("mcts:12:tt=1:reuse=1"), 9)
        bot.sit(Seat(g, ME))
        answers, reused = [], 0
        while len(g.choices) < 140 and not g.is_over():
            if len(g.choices) == saved_at:
                g = Game.from_json(base_game, g.to_json())
                for p in g.s.players:
                    others.sit(Seat(g, p))
                bot.sit(Seat(g, ME))
            d = g.current()
            assert d is not None
            a = bot.choose(d.player, d.options, d) if d.player == ME else others.choose(d.player, d.options, d)
            if d.player == ME and bot.root is not None and len(d.options) > 1:
                reused += bot.root.visits > 12
            answers.append(a)
            g.apply(a)
        runs.append((answers, reused))
    assert runs[0] == runs[1] and runs[0][1] > 0
