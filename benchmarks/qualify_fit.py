"""How well does the search's chance to qualify predict who ends with six spellbooks? (issue 33)

Plays seeded heuristic games (every matchup of the eligible factions in turn, seats rotated, seed
`--seed + i`), notes every seat at one decision in `--every`: the spellbooks it misses and the
Doom clock (the top Doom's share of the Doom that ends the game), and at the end whether it held
all six. Then it fits the logistic `1 / (1 + e^-(a + b m + c t + d m t))` (m spellbooks missing,
t the clock) by Newton's method, and prints the log loss of the fit, of the base rate, and of the
weights search/reward.py uses (`QUALIFY`), with the fitted weights. reward.py's weights come from:

    python -m benchmarks.qualify_fit --games 150 --every 8 --seed 5000
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from necronomicon.interpreter.content import load_content  # noqa: E402
from necronomicon.interpreter.content.build import Content  # noqa: E402
from necronomicon.interpreter.engine import phases  # noqa: E402
from necronomicon.interpreter.engine.agents import HeuristicAgent  # noqa: E402
from necronomicon.interpreter.engine.game import Game  # noqa: E402
from necronomicon.interpreter.engine.seat import Seat  # noqa: E402
from necronomicon.interpreter.search.reward import QUALIFY, chance_to_qualify  # noqa: E402
from necronomicon.tools.simulate import matchups  # noqa: E402

__all__ = ["positions", "fit", "log_loss", "main"]

Point = tuple[int, float, bool]   # spellbooks missing, Doom clock, held six at the end
MAX_DECISIONS = 20_000            # a game longer than this is a bug, not a sample


def positions(content: Content, ruleset: str, players: int, games: int, seed: int, every: int) -> list[Point]:
    """The noted positions of `games` heuristic games (seats not yet holding six)."""
    ms = matchups(content, ruleset, players)
    out: list[Point] = []
    for i in range(games):
        m = list(ms[i % len(ms)])
        k = (i // len(ms)) % players
        seats = m[k:] + m[:k]
        g = Game(content, ruleset, seats, seed + i)
        bot = HeuristicAgent(seed + i)
        for f in seats:
            bot.sit(Seat(g, f))
        goal = float(phases.doom_goal(g.rules) or 30)
        noted: list[tuple[str, int, float]] = []
        for t in range(MAX_DECISIONS):
            d = g.current()
            if d is None:
                break
            if t % every == 0:
                clock = min(1.0, max(g.s.doom.values()) / goal)
                noted += [(f, phases.SPELLBOOKS - len(g.s.spellbooks[f]), clock) for f in seats
                          if len(g.s.spellbooks[f]) < phases.SPELLBOOKS]
            g.apply(bot.choose(d.player, d.options, d))
        six = {f: phases.has_all_spellbooks(g.rules, f) for f in seats}
        out += [(missing, clock, six[f]) for f, missing, clock in noted]
    return out


def _inputs(m: int, t: float) -> list[float]:
    return [1.0, float(m), t, m * t]


def fit(points: list[Point], steps: int = 50) -> list[float]:
    """The logistic's weights (a, b, c, d) of maximum likelihood (Newton's method, a tiny ridge)."""
    import numpy as np
    x = np.array([_inputs(m, t) for m, t, _ in points])
    y = np.array([1.0 if q else 0.0 for _, _, q in points])
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        hess = (x * (p * (1 - p))[:, None]).T @ x + 1e-6 * np.eye(len(w))
        w -= np.linalg.solve(hess, x.T @ (p - y))
    return [float(v) for v in w]


def log_loss(points: list[Point], chance: object) -> float:
    """The mean log loss of `chance(missing, clock)` over the points."""
    total = 0.0
    for m, t, q in points:
        p = min(max(chance(m, t), 1e-4), 1 - 1e-4)   # type: ignore[operator]
        total -= math.log(p if q else 1 - p)
    return total / max(len(points), 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--every", type=int, default=8, help="note one decision in N (default 8)")
    ap.add_argument("--ruleset", default="multiplayer")
    ap.add_argument("--players", type=int, default=4)
    a = ap.parse_args(argv)
    if a.games < 1 or a.every < 1:
        raise SystemExit("qualify_fit: --games and --every must be 1 or more")
    content = load_content().require_ok()
    pts = positions(content, a.ruleset, a.players, a.games, a.seed, a.every)
    if not pts:
        raise SystemExit("qualify_fit: no positions noted (no seat ever lacked a spellbook)")
    rate = sum(q for _, _, q in pts) / len(pts)
    w = fit(pts)

    def fitted(m: int, t: float) -> float:
        return 1 / (1 + math.exp(-sum(wi * xi for wi, xi in zip(w, _inputs(m, t)))))

    print(f"{len(pts):,} seat positions of {a.games} games; {100 * rate:.1f}% of them ended with six spellbooks")
    print(f"  log loss: fitted {log_loss(pts, fitted):.3f}, reward.py {log_loss(pts, chance_to_qualify):.3f}, "
          f"base rate {log_loss(pts, lambda m, t: rate):.3f}")
    print(f"  fitted weights (constant, per book missing, per clock, per both): {', '.join(f'{v:.2f}' for v in w)}"
          f"; reward.py's: {', '.join(f'{v:g}' for v in QUALIFY)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
