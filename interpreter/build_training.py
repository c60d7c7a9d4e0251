"""The games a profile-guided build of the compiled core is trained on (hatch_build.py).

The build compiles the core once with the compiler counting what runs, plays these games on it,
and compiles it again with the counts, so the compiler lays out the paths real play takes. The
mix is what the engine spends its time on: random Duels and four-player games, heuristic bots,
the expansions, and a few decisions of the search bot. Its seeds are not the benchmarks' seeds
(benchmarks/measure.py plays seeds 0 and up), so the build is not trained on what is measured.

    python -m necronomicon.interpreter.build_training      # run by the build, in a copy of the tree
"""
from __future__ import annotations

import random
import sys
import time
from typing import Any

from .bots import make_agent
from .content import load_content
from .engine.game import Game
from .engine.seat import hand_seats
from .paths import content_dir

SEED = 900_000
# (ruleset, players, with every expansion, agent, games, decisions per game at most); the factions
# are the ruleset's default seats for that many players, those the benchmarks play, but with
# five players or the expansions a seeded draw of the base factions (the paths other factions take)
MIX: list[tuple[str, int, bool, str, int, int]] = [
    ("duel", 2, False, "random", 24, 400),
    ("multiplayer", 4, False, "random", 4, 600),
    ("multiplayer", 4, False, "heuristic", 2, 600),
    ("two-player", 2, False, "heuristic", 2, 400),
    ("multiplayer", 3, True, "random", 2, 500),
    ("multiplayer", 5, False, "random", 2, 500),
    ("duel", 2, False, "mcts:8:depth=10", 1, 40),
]


def seats(content: Any, ruleset: str, players: int, seed: int, drawn: bool) -> list[str]:
    """The ruleset's default seats for `players`, or (`drawn`, or no default) a seeded draw of the
    base factions whose card data is all known."""
    chosen = content.model.rulesets[ruleset].get("default-factions", {}).get(str(players))
    if chosen and not drawn:
        return list(chosen)
    pool = sorted(f for f, fac in content.model.factions.items()
                  if fac.expansion is None and not any(t.unknown for t in fac.units.values()))
    return random.Random(seed).sample(pool, players)


def play(mix: list[tuple[str, int, bool, str, int, int]] = MIX) -> int:
    """Play the mix; the number of decisions answered."""
    answered = 0
    every = sorted(p.name for p in (content_dir() / "expansions").iterdir() if p.is_dir())
    contents = {}
    for k, (ruleset, players, expanded, agent, games, most) in enumerate(mix):
        if expanded not in contents:
            contents[expanded] = load_content(expansions=every if expanded else []).require_ok()
        content = contents[expanded]
        for i in range(games):
            seed = SEED + 100 * k + i
            g = Game(content, ruleset, seats(content, ruleset, players, seed, players >= 5 or expanded), seed)
            bots = {p: make_agent(agent, seed * 7 + j) for j, p in enumerate(g.s.players)}
            hand_seats(g, bots)
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
