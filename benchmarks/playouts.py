"""Full random games per second and decisions per second on one core; cost of clone() and to_json()."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(_ROOT))
from benchmarks.engine_choice import use_checkout_code  # noqa: E402

sys.path.remove(str(_ROOT))
use_checkout_code(_ROOT, sys.argv)   # this checkout's code, compiled where an installed build has it

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.game import Game


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--ruleset", default="multiplayer")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--expansions", default="", help="comma list of expansions to enable (default: none)")
    args = ap.parse_args()
    content = load_content(expansions=[e for e in args.expansions.split(",") if e]).require_ok()
    rs = content.model.rulesets[args.ruleset]
    factions = rs.get("default-factions", {})[str(args.players)]
    decisions = 0
    t0 = time.perf_counter()
    mid = None
    for seed in range(args.games):
        g = Game(content, args.ruleset, factions, seed)
        agents = {p: RandomAgent(seed * 7 + i) for i, p in enumerate(factions)}
        n = 0
        while g.pending is not None:
            d = g.pending
            g.apply(agents[d.player].choose(d.player, d.options, d))
            n += 1
            if mid is None and n == 100:
                mid = g.clone()
        decisions += n
    dt = time.perf_counter() - t0
    print(f"{args.games} random {args.ruleset} games ({len(factions)} players): {args.games / dt:.2f} games/s, "
          f"{decisions / dt:.0f} decisions/s, {decisions / args.games:.0f} decisions/game")
    if mid is not None:
        k = 200
        t = time.perf_counter()
        for _ in range(k):
            mid.clone()
        tc = (time.perf_counter() - t) / k
        t = time.perf_counter()
        for _ in range(k):
            json.dumps(mid.to_json())
        tj = (time.perf_counter() - t) / k
        print(f"clone(): {tc * 1e3:.2f} ms; to_json() + dumps: {tj * 1e3:.2f} ms (mid-game position)")


if __name__ == "__main__":
    main()
