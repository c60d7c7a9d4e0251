"""Does the learned evaluation make the search stronger? (issue 33, 'Strength, measured': "search
with the learned evaluation against search without it, same CPU budget, four players: >= 60% of the
seats' wins over 100 games").

Every game is four players (the multiplayer ruleset, every four eligible factions): two seats
play the search bot with the evaluation (`--eval FILE`: `mcts:BUDGET:depth=D:eval=FILE`), two the
same search bot without it (`mcts:BUDGET`), each with the same budget per decision (CPU seconds of
its own thread, `0.1s`, or playouts, `400`; the acceptance figure is at a time budget, since the
evaluation's point is more playouts in the same time). Games come in pairs: game 2j and 2j+1 play
pair j's matchup with the same seed (the same setup and dice), the second with every seat's bot
swapped, so each faction, each seat and each deal is played by both bots equally. Pair j plays
4-player matchup j mod M (M = 15 for the six core factions), with the eval seats {0,1}, {0,2} or
{0,3} (and their complements in the paired game), (j // M) mod 3, and the factions' seats rotated
by (j // 3M) mod 4: 90 games cover every matchup with every split of the seats once.

The figure: each game with a winner gives one win, shared equally among its winners (a shared
victory of k seats gives 1/k to each); the evaluation's share is its seats' part of those wins
(fair: 50%), with a 95% Wilson interval over the games with a winner. Games nobody won (humanity)
are counted apart, as are failed games. The issue's target reads: share >= 60% over 100 games.

Every finished game is appended at once to `OUT/eval-<evaluated bot>-vs-<plain bot>.jsonl` as a
`necro simulate` result row (`necro report` reads it), so a stopped run (Ctrl-C, kill) continues
when the same command is run again. Game i's seat bots have the seeds `necro play` gives them.

    python -m benchmarks.eval_strength --eval core-eval.json --games 100 --budget 0.1s --jobs 1
    python -m benchmarks.eval_strength --eval core-eval.json --games 20 --budget 40   # quick, reproducible
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))
from benchmarks.strength import exit_status, play_missing  # noqa: E402  (importing it picks the engine first)

from necronomicon.interpreter.bots import agent_label, make_agent  # noqa: E402
from necronomicon.interpreter.content import load_content  # noqa: E402
from necronomicon.interpreter.content.build import Content  # noqa: E402
from necronomicon.tools.simulate import GameSpec, matchups  # noqa: E402
from necronomicon.tools.stats import wilson  # noqa: E402

SPLITS = ((0, 1), (0, 2), (0, 3))   # the evaluated bot's seats in the first game of a pair
Row = dict[str, Any]

__all__ = ["plan", "figures", "main", "results_path", "SPLITS"]


def plan(games: int, seed: int, evaluated: str, plain: str, content: Content) -> list[GameSpec]:
    """The games, in pairs with the bots swapped, as the module docstring describes."""
    ev, pl = agent_label(evaluated), agent_label(plain)
    ms = matchups(content, "multiplayer", 4)
    out = []
    for i in range(games):
        j = i // 2
        m = ms[j % len(ms)]
        k = (j // (3 * len(ms))) % 4
        seats = tuple(m[k:] + m[:k])
        split = SPLITS[(j // len(ms)) % len(SPLITS)]
        first = tuple(ev if s in split else pl for s in range(4))
        agents = first if i % 2 == 0 else tuple(pl if a == ev else ev for a in first)
        out.append(GameSpec(i, seed + j, "multiplayer", seats, agents))
    return out


def results_path(out: Path, evaluated: str, plain: str) -> Path:
    """The run's result file: one per pair of bot settings."""
    name = f"eval-{agent_label(evaluated)}-vs-{agent_label(plain)}"
    return out / (re.sub(r"[^A-Za-z0-9.=-]+", "_", name) + ".jsonl")


def figures(rows: list[Row], evaluated: str, seats: str = "the evaluation's seats") -> list[str]:
    """`seats`' (the evaluated bot's) share of the games' wins with its 95% interval, games nobody won,
    per faction. The issue's 60% target is judged only for an evaluation against plain search."""
    ev = agent_label(evaluated)
    ok = [r for r in rows if r.get("outcome") != "error"]
    won = [r for r in ok if r.get("winners")]
    share = 0.0
    by_faction: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for r in ok:
        for f, a in zip(r["factions"], r["agents"]):
            if a == ev:
                played[f] += 1
                if f in r["winners"]:
                    by_faction[f] += 1 / len(r["winners"])
                    share += 1 / len(r["winners"])
    n = len(won)
    if not n:
        return [f"  no game with a winner yet ({len(ok)} finished, {len(rows) - len(ok)} failed)"]
    lo, hi = wilson(share, n)
    head = (f"  {seats} won {share:g} of the {n} games with a winner = {100 * share / n:.1f}%"
            f"  95% CI [{100 * lo:.1f}-{100 * hi:.1f}]  (fair share 50%")
    if seats == "the evaluation's seats":
        target = "met" if share / n >= 0.6 and len(ok) >= 100 else "not shown"
        head += f"; the issue's target, >= 60% over 100 games: {target}"
    lines = [head + ")",
             f"  games: {len(ok)} finished, {len(ok) - n} nobody won, {len(rows) - len(ok)} failed",
             f"  by faction ({seats}): " + ", ".join(
                 f"{f} {by_faction[f]:g}/{played[f]}" for f in sorted(played))]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--eval", required=True, help="the learned evaluation (written by necro train)")
    ap.add_argument("--games", type=int, default=100, help="games (default 100; pairs of two)")
    ap.add_argument("--budget", default="0.1s", help="each bot's budget per decision: CPU seconds (0.1s) or playouts (40)")
    ap.add_argument("--depth", type=int, default=10, help="the evaluated bot's rollout cut-off (default 10)")
    ap.add_argument("--evaluated", help="the evaluated bot's full agent name (overrides --budget, --depth, --eval)")
    ap.add_argument("--plain", help="the plain bot's full agent name (default mcts:BUDGET)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--out", default="strength-results", help="folder of the result files (default strength-results)")
    ap.add_argument("--report-only", action="store_true", help="play nothing: print the figures of the file")
    a = ap.parse_args(argv)
    evaluated = a.evaluated or f"mcts:{a.budget}:depth={a.depth}:eval={a.eval}"
    plain = a.plain or f"mcts:{a.budget}"
    if a.games < 0 or a.jobs < 1:
        raise SystemExit("eval_strength: --games must be 0 or more and --jobs 1 or more")
    try:
        for name in (evaluated, plain):
            make_agent(name, 0)
    except ValueError as exc:
        raise SystemExit(f"eval_strength: {exc}") from None
    if agent_label(evaluated) == agent_label(plain):
        raise SystemExit("eval_strength: the evaluated and the plain bot are the same agent")
    content = load_content().require_ok()
    model = getattr(make_agent(evaluated, 0), "evaluation", None)
    try:
        if model is not None:
            model.check_content(content.digest)   # refused before any game, not in every game's row
    except ValueError as exc:
        raise SystemExit(f"eval_strength: {exc}") from None
    rows, interrupted = play_missing(f"eval: {agent_label(evaluated)} against {agent_label(plain)}",
                                     plan(a.games, a.seed, evaluated, plain, content),
                                     results_path(Path(a.out), evaluated, plain), a.jobs, content,
                                     playing=not a.report_only)
    if a.evaluated:
        print(f"  A = {agent_label(evaluated)}, B = {agent_label(plain)}")
    print("\n".join(figures(rows, evaluated, "A's seats" if a.evaluated else "the evaluation's seats")))
    return exit_status("eval_strength", interrupted)


if __name__ == "__main__":
    sys.exit(main())
