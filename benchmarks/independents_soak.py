"""Bot games with the Independent Great Old Ones and Azathoth: 2 to 5 players, every ruleset,
factions and Independents drawn per seed (sometimes the default set, sometimes a random set that
may include a playing faction's own Great Old One); random, heuristic and search bots
(`bots_for`). Failures must be 0.

    python -m benchmarks.independents_soak --games 120
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # this checkout's engine, not an installed copy

from necronomicon.interpreter.bots import is_search
from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.agents import HeuristicAgent, RandomAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.play import run_game

from benchmarks.soak import agents_for

EXPANSIONS = ["independents", "azathoth"]


def setup_for(content: Content, seed: int) -> tuple[str, list[str], list[str] | None]:
    """(ruleset, factions, independents or None for the default set) for one seed."""
    r = random.Random(seed)
    ruleset, n = r.choice([("multiplayer", 3), ("multiplayer", 4), ("multiplayer", 5), ("two-player", 2), ("duel", 2)])
    factions = r.sample(sorted(f for f, fac in content.model.factions.items() if fac.expansion is None), n)
    playable = sorted(c for c in content.model.loyalty_cards if not content.model.loyalty_unknowns.get(c))
    independents = None if r.random() < 0.5 else r.sample(playable, r.randint(1, len(playable)))
    return ruleset, factions, independents


SEARCH = "mcts:4:depth=10"   # the search bot of every tenth game: random bots alone miss positions real play reaches


def bots_for(seed: int, factions: list[str]) -> dict[str, Any]:
    """Random bots in even games, heuristic bots in odd ones, and in every tenth game (seed ending
    in 9) a search bot in the first seat, then heuristic and random seats in turn."""
    if seed % 10 == 9:
        kinds = [SEARCH] + [("heuristic", "random")[i % 2] for i in range(len(factions) - 1)]
        return agents_for(",".join(kinds), seed, factions)
    agent = RandomAgent if seed % 2 == 0 else HeuristicAgent
    return {p: agent(seed * 7 + i) for i, p in enumerate(factions)}


def play_mixed(games: int, seed0: int = 0, check: bool = True, content: Content | None = None) -> dict[str, Any]:
    content = content or load_content(expansions=EXPANSIONS).require_ok()
    failures: list[str] = []
    stats: Counter[str] = Counter()
    t = time.perf_counter()
    for seed in range(seed0, seed0 + games):
        ruleset, factions, independents = setup_for(content, seed)
        try:
            g = Game(content, ruleset, factions, seed, independents=independents)
            bots = bots_for(seed, factions)
            run_game(g, bots, check=check)
            if not g.is_over():
                raise RuntimeError("the game did not end")
            stats[f"{ruleset}-{len(factions)}p"] += 1
            stats["games with a search bot"] += any(is_search(getattr(b, "name", "")) for b in bots.values())
            stats["awakened independents"] += sum(1 for e in g.log if e["type"] == "independent" and e["change"] == "takes")
            stats["independents killed"] += sum(1 for e in g.log if e["type"] == "independent" and e["change"] == "returns")
            stats["azathoth secret picks"] += sum(1 for e in g.log if e["type"] == "secret-picks")
        except Exception as exc:  # noqa: BLE001 - a soak reports every failure
            failures.append(f"seed {seed} ({ruleset}, {','.join(factions)}, {independents}): {type(exc).__name__}: {exc}")
    dt = time.perf_counter() - t
    return {"games": games, "failures": failures, "stats": dict(stats), "seconds": dt}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-check", action="store_true", help="skip the invariant checks (faster)")
    a = ap.parse_args()
    r = play_mixed(a.games, a.seed, not a.no_check)
    print(f"{r['games']} games with {'+'.join(EXPANSIONS)}: {len(r['failures'])} failures in {r['seconds']:.1f} s; {r['stats']}")
    for f in r["failures"][:20]:
        print("  " + f)


if __name__ == "__main__":
    main()
