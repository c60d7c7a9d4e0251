"""The games a profile-guided build of the compiled core is trained on (hatch_build.py).

The build compiles the core once with the compiler counting what runs, plays these games on it,
and compiles it again with the counts, so the compiler lays out the paths real play takes. The
mix is what the engine spends its time on: random Duels and four-player games, heuristic bots,
the expansions, and a few decisions of the search bot. Its seeds are not the benchmarks' seeds
(benchmarks/measure.py plays seeds 0 and up), so the build is not trained on what is measured.

    python -m interpreter.build_training      # run by the build, in a copy of the tree
"""
from __future__ import annotations

import sys
import time

from .bots import make_agent
from .content import load_content
from .engine.game import Game
from .engine.seat import Seat

SEED = 900_000
# (ruleset, factions, expansions, agent, games, decisions per game at most)
MIX = [
    ("duel", ["sleeper", "wind-rider"], [], "random", 24, 400),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], [], "random", 4, 600),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], [], "heuristic", 2, 600),
    ("two-player", ["yellow-sign", "crawling-chaos"], [], "heuristic", 2, 400),
    ("multiplayer", ["sleeper", "yellow-sign", "crawling-chaos"], ["independents", "azathoth"], "random", 2, 500),
    ("duel", ["sleeper", "wind-rider"], [], "mcts:8:depth=10", 1, 40),
]


def play(mix: list[tuple[str, list[str], list[str], str, int, int]] = MIX) -> int:
    """Play the mix; the number of decisions answered."""
    answered = 0
    contents = {}
    for k, (ruleset, factions, expansions, agent, games, most) in enumerate(mix):
        key = tuple(expansions)
        if key not in contents:
            contents[key] = load_content(expansions=expansions).require_ok()
        for i in range(games):
            seed = SEED + 100 * k + i
            g = Game(contents[key], ruleset, factions, seed)
            bots = {}
            for j, p in enumerate(factions):
                bot = make_agent(agent, seed * 7 + j)
                if hasattr(bot, "sit"):
                    bot.sit(Seat(g, p))
                bots[p] = bot
            for _ in range(most):
                d = g.current()
                if d is None:
                    break
                g.apply(bots[d.player].choose(d.player, d.options, d))
                answered += 1
    return answered


def main() -> int:
    start = time.process_time()
    answered = play()
    print(f"{answered} decisions in {time.process_time() - start:.1f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
