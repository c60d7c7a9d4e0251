"""What a search decision costs and gets, per bot setting: playouts, CPU seconds (this process's
and its forked workers') and wall seconds a decision, at the same positions for every setting.

The positions are every `--every`-th decision with more than one option of seeded heuristic
four-player games of the core factions (the first `--positions`). Each round plays every setting
at every position, the settings' order turned by one each round (interleaved, so a change of load
falls on all of them alike); the figures are the median over rounds of each round's mean, with the
range. Settings are search agent names, such as

    python -m benchmarks.search_cost --agents mcts:0.2s mcts:0.1s:workers=2 --rounds 3
    python -m benchmarks.search_cost --agents mcts:40 mcts:40:tt=1 mcts:40:reuse=1

(with `workers=2` and a time budget each tree has that CPU time, so `mcts:0.1s:workers=2` spends
the CPU of `mcts:0.2s`). A time budget's playouts depend on the machine and its load: the machine's
load average is printed with the figures.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(_ROOT))
from benchmarks.engine_choice import use_checkout_code  # noqa: E402

sys.path.remove(str(_ROOT))
use_checkout_code(_ROOT, sys.argv)   # this checkout's code, compiled where an installed build has it

from necronomicon.interpreter.content import load_content  # noqa: E402
from necronomicon.interpreter.engine.agents import HeuristicAgent  # noqa: E402
from necronomicon.interpreter.engine.game import Game  # noqa: E402
from necronomicon.interpreter.engine.seat import Seat  # noqa: E402
from necronomicon.interpreter.search import make_search_agent  # noqa: E402

FACTIONS = ("great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign")


def positions(count: int, every: int, seed: int) -> list[Game]:
    """The first `count` positions: every `every`-th decision with a choice in seeded heuristic games."""
    content = load_content().require_ok()
    out: list[Game] = []
    game_seed = seed
    while len(out) < count and game_seed < seed + 1000:
        g = Game(content, "multiplayer", list(FACTIONS), game_seed)
        bot = HeuristicAgent(game_seed)
        for p in g.s.players:
            bot.sit(Seat(g, p))
        n = 0
        while len(out) < count and (d := g.current()) is not None:
            if len(d.options) > 1:
                n += 1
                if n % every == 0:
                    out.append(g.clone())
            g.apply(bot.choose(d.player, d.options, d))
        game_seed += 1
    return out


def one_round(name: str, games: list[Game], seed: int) -> tuple[float, float, float]:
    """Mean playouts, CPU seconds and wall seconds a decision of `name` over the positions."""
    playouts = cpu = wall = 0.0
    for i, g in enumerate(games):
        d = g.current()
        assert d is not None
        bot = make_search_agent(name, seed + i)
        bot.sit(Seat(g, d.player))
        t0, w0 = os.times(), time.perf_counter()
        bot.choose(d.player, d.options, d)
        t1, w1 = os.times(), time.perf_counter()
        playouts += bot.stats.playouts
        cpu += (t1.user + t1.system + t1.children_user + t1.children_system
                - t0.user - t0.system - t0.children_user - t0.children_system)
        wall += w1 - w0
    n = len(games)
    return playouts / n, cpu / n, wall / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", nargs="+", required=True, help="search agent names to compare")
    ap.add_argument("--positions", type=int, default=12, help="positions (default 12)")
    ap.add_argument("--every", type=int, default=20, help="decisions with a choice between two positions (default 20)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not 1 <= args.positions <= 1000 or not 1 <= args.rounds <= 100 or not 1 <= args.every <= 1000:
        sys.exit("search_cost: --positions 1-1000, --rounds 1-100, --every 1-1000")
    for name in args.agents:
        make_search_agent(name, 0)   # a bad name is one line before anything is played
    games = positions(args.positions, args.every, args.seed)
    results: dict[str, list[tuple[float, float, float]]] = {a: [] for a in args.agents}
    for r in range(args.rounds):
        k = r % len(args.agents)
        for name in args.agents[k:] + args.agents[:k]:
            results[name].append(one_round(name, games, args.seed))
    print(f"{len(games)} four-player positions, {args.rounds} interleaved rounds; load average "
          + " ".join(f"{x:.1f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores")
    print("| agent | playouts a decision | CPU s a decision | wall s a decision |")
    print("|---|---|---|---|")
    for name, rows in results.items():
        cells = []
        for i in range(3):
            xs = [row[i] for row in rows]
            fmt = "{:.0f}" if i == 0 else "{:.3f}"
            cells.append(f"{fmt.format(statistics.median(xs))} ({fmt.format(min(xs))}–{fmt.format(max(xs))})")
        print(f"| `{name}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
