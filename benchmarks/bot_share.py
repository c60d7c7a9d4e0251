"""The bots' share of a decision: CPU time inside the agents' `choose` against the whole decision.

    python benchmarks/bot_share.py --root . --root /tmp/old-tree --rounds 3 --games 6
    python benchmarks/bot_share.py --root . --agent random --ruleset duel --players 2

Each `--root` is a tree (a checkout of any revision, or a copy with its core compiled, as
compare.py's `compiled_copy` makes one); its `interpreter` package and content are the ones
imported, as in measure.py, which this script uses for its games (`Game(...)`, the seats, the
agents; content loading is not timed). Every round measures every tree once, each in a fresh
process, the order of the trees turning from round to round. For seeded whole games it prints
per tree: decisions per CPU second, the bots' CPU time per decision (in `choose`), the rest (the
engine: the pending decision, applying the answer) and the bots' share, each as the median
(min-max) over the rounds, and the hash of every answer (the games must not change).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import measure  # noqa: E402  (the games and their trees)


def one(api: measure.Api, ruleset: str, players: int, agent: str, games: int, seed0: int) -> dict[str, Any]:
    """Whole seeded games as measure.py plays them, the agents' `choose` timed apart."""
    content = api.content([])
    warm = api.new_game(content, ruleset, players, seed0 + 100_000)
    warm_agents = api.agents(warm, agent, seed0 + 100_000)
    for _ in range(measure.WARMUP_DECISIONS):
        if measure._step(warm, warm_agents) is None:
            break
    answers = hashlib.sha256()
    n = bot = total = 0
    clock = time.process_time_ns
    for seed in range(seed0, seed0 + games):
        t0 = clock()
        g = api.new_game(content, ruleset, players, seed)
        ags = api.agents(g, agent, seed)
        total += clock() - t0
        while True:
            t0 = clock()
            d = g.current()
            if d is None:
                total += clock() - t0
                break
            t1 = clock()
            a = ags[d.player].choose(d.player, d.options, d)
            t2 = clock()
            g.apply(a)
            total += clock() - t0
            bot += t2 - t1
            answers.update(a.encode() + b"\n")
            n += 1
    return {"decisions": n, "per_s": n / (total / 1e9), "bot_us": bot / n / 1e3,
            "engine_us": (total - bot) / n / 1e3, "share": bot / total, "answers": answers.hexdigest()[:16]}


def _stats(xs: list[float]) -> str:
    return f"{statistics.median(xs):,.1f} ({min(xs):,.1f}-{max(xs):,.1f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", action="append", type=Path, required=True, help="a tree to measure (repeat it)")
    ap.add_argument("--ruleset", default="multiplayer")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--agent", choices=["random", "heuristic"], default="heuristic")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)   # one measurement, in this process
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.games < 1:
        ap.error("--rounds and --games must be at least 1")
    if (args.ruleset, args.players) not in measure.FACTIONS:
        ap.error(f"no factions for --ruleset {args.ruleset} --players {args.players} (measure.FACTIONS)")
    if args.one:
        root = args.root[0].resolve()
        sys.path.insert(0, str(root))
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
        measure.pin_packages(root)
        print(json.dumps(one(measure.Api(), args.ruleset, args.players, args.agent, args.games, args.seed)))
        return 0
    roots = [r.resolve() for r in args.root]
    runs: dict[Path, list[dict[str, Any]]] = {r: [] for r in roots}
    for k in range(args.rounds):
        for root in roots[k % len(roots):] + roots[:k % len(roots)]:
            cmd = [sys.executable, __file__, "--one", "--root", str(root), "--ruleset", args.ruleset,
                   "--players", str(args.players), "--agent", args.agent, "--games", str(args.games),
                   "--seed", str(args.seed)]
            out = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if out.returncode != 0:
                print(f"bot_share: {root}: {out.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
                return 1
            runs[root].append(json.loads(out.stdout))
            print(f"round {k + 1}/{args.rounds}: {root}", file=sys.stderr, flush=True)
    print(f"{args.ruleset}, {args.players} players, {args.agent}: {args.games} seeded games, {args.rounds} rounds, "
          "CPU time, median (min-max)")
    for root, rs in runs.items():
        hashes = sorted({r["answers"] for r in rs})
        print(f"{root}: {rs[0]['decisions']} decisions, answers {', '.join(hashes)}\n"
              f"  decisions/s {_stats([r['per_s'] for r in rs])}; per decision: bot µs "
              f"{_stats([r['bot_us'] for r in rs])}, engine µs {_stats([r['engine_us'] for r in rs])}, "
              f"bot share % {_stats([100 * r['share'] for r in rs])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
