"""Play many seeded random games and count failures (must be 0), with games/s.

    python benchmarks/soak.py --ruleset duel --games 1000
    python benchmarks/soak.py --ruleset multiplayer --players 4 --games 100 --expansions azathoth
"""
from __future__ import annotations

import argparse
import time
from collections import Counter

from interpreter.content import load_content
from interpreter.engine.agents import RandomAgent
from interpreter.engine.game import Game
from interpreter.engine.play import run_game


def soak(ruleset: str, games: int, players: int | None = None, factions: list[str] | None = None,
         seed0: int = 0, check: bool = True, expansions: list[str] | None = None) -> dict[str, object]:
    content = load_content(expansions=list(expansions or [])).require_ok()   # the base game unless named
    rs = content.model.rulesets[ruleset]
    n = players or rs.get("players")[0]
    seats = factions or rs.get("default-factions", {})[str(n)]
    failures: list[str] = []
    outcomes: Counter[str] = Counter()
    decisions = 0
    t = time.perf_counter()
    for seed in range(seed0, seed0 + games):
        try:
            g = Game(content, ruleset, list(seats), seed)
            run_game(g, {p: RandomAgent(seed * 13 + i) for i, p in enumerate(seats)}, check=check)
            decisions += len(g.choices)
            w = g.winner()
            outcomes["humanity" if not w else "shared" if len(w) > 1 else "single"] += 1
        except Exception as exc:  # noqa: BLE001 - a soak reports every failure
            failures.append(f"seed {seed}: {type(exc).__name__}: {exc}")
    dt = time.perf_counter() - t
    return {"games": games, "failures": failures, "outcomes": dict(outcomes), "seconds": dt,
            "games_per_s": games / dt, "decisions": decisions}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="duel")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-check", action="store_true", help="skip the invariant checks (faster)")
    ap.add_argument("--expansions", default="", help="comma list of expansions to enable (default: none)")
    a = ap.parse_args()
    exps = [e for e in a.expansions.split(",") if e]
    r = soak(a.ruleset, a.games, a.players, seed0=a.seed, check=not a.no_check, expansions=exps)
    print(f"{r['games']} random {a.ruleset} games{' with ' + ', '.join(exps) if exps else ''} (invariants {'off' if a.no_check else 'checked after every decision'}): "
          f"{len(r['failures'])} failures, outcomes {r['outcomes']}, "
          f"{r['games_per_s']:.1f} games/s, {r['decisions']} decisions")
    for f in r["failures"][:20]:
        print("  " + f)


if __name__ == "__main__":
    main()
