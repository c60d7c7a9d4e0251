"""Root-parallel search and progressive widening (#33, 'Stronger search'): the same seed gives the
same answer whether the trees grow in forked processes or one after the other; shares of a playout
budget; widening keeps the options the prior likes best."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.play import run_game
from necronomicon.interpreter.search import parse_agent
from necronomicon.interpreter.search.parallel import shares
from necronomicon.interpreter.search.tree import Node

ROOT = Path(__file__).parent.parent

# grows a 4-worker search (24 playouts) at one Duel decision with forking allowed, then not, and
# prints both results; run in a fresh process, which has one thread, so forking is safe
PROBE = """
import json, os
from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.seat import Seat
from necronomicon.interpreter.search import SearchAgent, parse_agent, parallel
from necronomicon.interpreter.search.determinize import known_to
content = load_content()
out = {}
for mode in ("forked", "serial"):
    parallel.can_fork = (lambda: True) if mode == "forked" else (lambda: False)
    g = Game(content, "duel", ["sleeper", "wind-rider"], 5)
    while len(g.current().options) < 3:
        g.apply(g.current().options[0])
    d = g.current()
    bot = SearchAgent(parse_agent("mcts:24:depth=8:workers=4"), seed=9)
    bot.sit(Seat(g, d.player))
    before = os.times().children_user
    tally, n, cpu = parallel.grow_trees(bot, bot.seats[d.player], known_to(bot.seats[d.player]), frozenset(), d.options)
    used = os.times().children_user > before
    bot2 = SearchAgent(parse_agent("mcts:24:depth=8:workers=4"), seed=9)
    bot2.sit(Seat(g, d.player))
    out[mode] = {"tally": sorted(tally.items()), "playouts": n, "children_cpu": cpu, "used_fork": used,
                 "answer": bot2.choose(d.player, d.options, d)}
print(json.dumps(out))
"""

def test_a_playout_budget_is_shared_out_with_no_empty_share() -> None:
    assert shares(10, 3) == [4, 3, 3] and sum(shares(1001, 7)) == 1001
    assert shares(2, 4) == [1, 1]


def test_workers_and_widening_are_read_and_labelled() -> None:
    cfg = parse_agent("mcts:40:workers=2:widen=1.5")
    assert (cfg.workers, cfg.widen, cfg.playouts) == (2, 1.5, 40)
    assert cfg.label().endswith(":workers=2:widen=1.5") and parse_agent(cfg.label()) == cfg
    assert parse_agent("mcts:0.5s").label() == "mcts:0.5s:heuristic:depth=30:c=1:prior=10:root=0.5"   # unchanged
    for bad, msg in (("mcts:workers=0", "workers must be a whole number from 1 to 64"),
                     ("mcts:workers=x", "workers must be"), ("mcts:widen=-1", "widen must be a number")):
        with pytest.raises(ValueError, match=msg):
            parse_agent(bad)


def test_widening_keeps_the_options_the_prior_likes_best_in_option_order() -> None:
    node = Node()
    options = tuple(f"o{i}" for i in range(10))
    node.expand(options, [0.01, 0.3, 0.02, 0.2, 0.05, 0.1, 0.02, 0.2, 0.05, 0.05])
    assert node.widened(options, 1.0) == ("o1", "o3")            # sqrt(1) x 1 -> at least two
    node.stats.visits = 8
    assert node.widened(options, 1.0) == ("o1", "o3", "o7")      # int(sqrt(9)) = 3
    assert node.widened(options, 5.0) == options                 # room for all


def test_the_trees_give_the_same_answer_forked_or_one_after_another() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout)
    assert result["forked"]["used_fork"] and not result["serial"]["used_fork"]
    assert result["forked"]["tally"] == result["serial"]["tally"]
    assert result["forked"]["answer"] == result["serial"]["answer"]
    assert result["forked"]["playouts"] == result["serial"]["playouts"] == 24
    assert result["forked"]["children_cpu"] > 0 and result["serial"]["children_cpu"] == 0


def test_a_seeded_game_with_parallel_search_bots_replays_exactly(basic) -> None:  # type: ignore[no-untyped-def]
    def play() -> Game:
        g = Game(basic, "test-multi", ["red", "green"], 3)
        run_game(g, {"red": make_agent("mcts:8:depth=6:workers=2", 11), "green": make_agent("mcts:8:depth=6:widen=1", 12)})
        return g
    a, b = play(), play()
    assert a.is_over() and a.choices == b.choices and a.digest() == b.digest()
