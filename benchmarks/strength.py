"""How strong is the search bot? It plays the heuristic bot (issue 15, 'Strength, measured').

- Duel: one search seat against one heuristic seat; game i plays Duel matchup (i // 2) mod M
  (every pair of eligible factions) with the search bot in seat i mod 2, so seats alternate and
  every faction is piloted by both bots.
- 4 players: one search seat among three heuristic seats; game i plays matchup i mod M (every four
  eligible factions), its seats rotated by (i // M) mod 4, the search bot in seat i mod 4.

Printed: the search bot's win rate with its 95% Wilson interval and the fair share (a shared
victory counts as a win), games nobody won, and the CPU time the search bot spent per searched
decision (and playouts per decision). Game i uses seed `--seed + i`.

    python -m benchmarks.strength --games 100 --agent mcts:0.5s          # the issue's sizes
    python -m benchmarks.strength --duel 4 --four 4 --agent mcts:50      # a smoke run
"""
from __future__ import annotations

import argparse
import itertools
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from interpreter.content import load_content
from interpreter.content.build import Content
from interpreter.bots import make_agent
from interpreter.engine.game import Game
from interpreter.engine.play import run_game
from interpreter.search import SearchAgent
from tools.simulate import eligible_factions
from tools.stats import wilson


@dataclass(frozen=True)
class Outcome:
    """One game: did the search seat win, did anyone, and what the search cost."""

    won: bool
    nobody: bool
    searched: int
    playouts: int
    cpu: float


def plan(ruleset: str, players: int, games: int, content: Content) -> list[tuple[tuple[str, ...], int]]:
    """(seats, search seat) per game, as the module docstring describes."""
    pool = eligible_factions(content)
    allowed = content.model.rulesets[ruleset].get("players", [])
    if players not in allowed:
        raise SystemExit(f"strength: ruleset '{ruleset}' is not for {players} players")
    ms = list(itertools.combinations(pool, players))
    out = []
    for i in range(games):
        if players == 2:
            seats = ms[(i // 2) % len(ms)]
        else:
            m = ms[i % len(ms)]
            k = (i // len(ms)) % players
            seats = m[k:] + m[:k]
        out.append((tuple(seats), i % players))
    return out


_CONTENT: Content | None = None


def play(ruleset: str, seats: tuple[str, ...], search_seat: int, agent: str, seed: int) -> Outcome:
    """One game: the search bot in `search_seat`, heuristic bots elsewhere."""
    global _CONTENT  # noqa: PLW0603 - one content per worker process
    if _CONTENT is None:
        _CONTENT = load_content().require_ok()
    g = Game(_CONTENT, ruleset, list(seats), seed)
    bots = {f: make_agent(agent if i == search_seat else "heuristic", seed * 31 + i) for i, f in enumerate(seats)}
    run_game(g, bots)
    bot = bots[seats[search_seat]]
    assert isinstance(bot, SearchAgent)
    winners = g.winner() or []
    return Outcome(seats[search_seat] in winners, not winners, bot.stats.searched, bot.stats.playouts, bot.stats.cpu)


def run(label: str, ruleset: str, players: int, games: int, agent: str, seed: int, jobs: int, content: Content) -> None:
    """Play the games and print the figures."""
    if games <= 0:
        return
    games_plan = plan(ruleset, players, games, content)
    t0 = time.perf_counter()
    args = [(ruleset, seats, k, agent, seed + i) for i, (seats, k) in enumerate(games_plan)]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            outs = list(pool.map(play, *zip(*args)))
    else:
        outs = [play(*a) for a in args]
    wins = sum(o.won for o in outs)
    lo, hi = wilson(wins, len(outs))
    searched = sum(o.searched for o in outs)
    cpu = sum(o.cpu for o in outs)
    print(f"{label}: {agent} against heuristic bots, {len(outs)} games, seeds {seed}-{seed + len(outs) - 1}")
    print(f"  search bot won {wins}/{len(outs)} = {100 * wins / len(outs):.1f}%  95% CI [{100 * lo:.1f}–{100 * hi:.1f}]"
          f"  (fair share {100 / players:.0f}%); no winner in {sum(o.nobody for o in outs)}")
    print(f"  {searched} searched decisions: {1000 * cpu / max(searched, 1):.1f} ms CPU each, "
          f"{sum(o.playouts for o in outs) / max(searched, 1):.0f} playouts each; "
          f"wall {time.perf_counter() - t0:.1f} s with {jobs} job(s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agent", default="mcts:0.5s", help="the search bot's agent name (default mcts:0.5s)")
    ap.add_argument("--games", type=int, default=100, help="games of each kind (default 100)")
    ap.add_argument("--duel", type=int, help="Duel games (default: --games)")
    ap.add_argument("--four", type=int, help="4-player games (default: --games)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1: one core per game)")
    a = ap.parse_args()
    try:
        make_agent(a.agent, 0)
    except ValueError as exc:
        raise SystemExit(f"strength: {exc}") from exc
    content = load_content().require_ok()
    run("Duel", "duel", 2, a.games if a.duel is None else a.duel, a.agent, a.seed, a.jobs, content)
    run("4 players", "multiplayer", 4, a.games if a.four is None else a.four, a.agent, a.seed, a.jobs, content)


if __name__ == "__main__":
    main()
