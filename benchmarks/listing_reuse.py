"""How much a cache of action listings could save at most: for each listing category, how often
its list equals the same player's previous list of that category, and the CPU time those repeats took.

    python benchmarks/listing_reuse.py --ruleset duel --players 2 --games 20

A cache keyed on what a category reads (docs/design/speed-next.md, step 1) can at best skip the
repeats; it still pays for its keys. So the share printed last, repeats' time over the whole play
time, bounds that step's gain from above. Plays seeded random games with the factions
`measure.py` uses. Listings inside a dry run are not counted (they are a search, not a listing).
Times are CPU time (time.process_time_ns), and each wrapped call adds a little of its own.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.measure import FACTIONS  # noqa: E402
from interpreter.content import load_content  # noqa: E402
from interpreter.engine import actions  # noqa: E402
from interpreter.engine.agents import RandomAgent  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402

Label = Callable[[tuple[Any, ...], dict[str, Any]], str]

# The listings of engine/actions.py and the category each call lists, from its arguments.
CATEGORIES: dict[str, Label] = {
    "main_actions": lambda a, k: "main (all)",
    "unlimited_actions": lambda a, k: "unlimited (all)",
    "summon_actions": lambda a, k: "summon, unlimited" if k.get("unlimited", a[1] if len(a) > 1 else False)
    else "summon",
    "battle_actions": lambda a, k: f"battle: {a[1]}",
    "ability_actions": lambda a, k: f"abilities: {a[1]}",
    "requirement_actions": lambda a, k: "requirements, unlimited" if k.get("unlimited", a[1] if len(a) > 1 else False)
    else "requirements",
}
WHOLE = ("main (all)", "unlimited (all)")   # these contain the others: not summed with them


class Tally:
    """Calls, repeats and CPU time per category, over every game played while it is installed."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.repeats: Counter[str] = Counter()
        self.time: Counter[str] = Counter()
        self.repeat_time: Counter[str] = Counter()
        self._last: dict[tuple[int, str, str], Any] = {}
        self._depth: Counter[str] = Counter()

    def install(self) -> Callable[[], None]:
        """Wrap the listing methods; returns the function that unwraps them."""
        cls = actions.ActionsMixin
        originals = {name: cls.__dict__[name] for name in CATEGORIES}
        for name, orig in originals.items():
            setattr(cls, name, self._wrapped(name, orig, CATEGORIES[name]))

        def uninstall() -> None:
            for name, orig in originals.items():
                setattr(cls, name, orig)
        return uninstall

    def _wrapped(self, name: str, orig: Callable[..., Any], label: Label) -> Callable[..., Any]:
        def listing(game: Any, p: str, *a: Any, **k: Any) -> Any:
            if self._depth[name] or game.__dict__.get("_dry_run_notes") is not None:
                return orig(game, p, *a, **k)
            self._depth[name] += 1
            t0 = time.process_time_ns()
            try:
                out = orig(game, p, *a, **k)
            finally:
                self._depth[name] -= 1
            dt = time.process_time_ns() - t0
            cat = label((p, *a), k)
            self.calls[cat] += 1
            self.time[cat] += dt
            key = (id(game), p, cat)
            if self._last.get(key) == out:
                self.repeats[cat] += 1
                self.repeat_time[cat] += dt
            self._last[key] = list(out)
            return out
        return listing


def play(ruleset: str, players: int, games: int, seed: int, tally: Tally | None) -> tuple[list[str], int]:
    """Seeded random games, with the listings tallied unless `tally` is None: (every answer given,
    CPU ns of the whole play)."""
    content = load_content().require_ok()
    uninstall = tally.install() if tally is not None else (lambda: None)
    answers: list[str] = []
    t0 = time.process_time_ns()
    try:
        for s in range(seed, seed + games):
            g = Game(content, ruleset, list(FACTIONS[ruleset, players]), s)
            agents = {p: RandomAgent(s * 7 + i) for i, p in enumerate(g.s.players)}
            while (d := g.current()) is not None:
                answers.append(agents[d.player].choose(d.player, d.options, d))
                g.apply(answers[-1])
    finally:
        uninstall()
    return answers, time.process_time_ns() - t0


def report(tally: Tally, decisions: int, total_ns: int) -> str:
    lines = [f"{decisions} decisions, {total_ns / 1e6:.0f} ms CPU in all",
             f"{'category':26} {'calls':>6} {'repeats':>8} {'time ms':>8} {'repeats ms':>10}"]
    for cat in sorted(tally.calls, key=lambda c: (c not in WHOLE, c)):
        lines.append(f"{cat:26} {tally.calls[cat]:6} {tally.repeats[cat] / tally.calls[cat]:8.1%} "
                     f"{tally.time[cat] / 1e6:8.1f} {tally.repeat_time[cat] / 1e6:10.1f}")
    parts = sum(v for c, v in tally.repeat_time.items() if c not in WHOLE)
    lines.append(f"repeats of the categories: {parts / 1e6:.1f} ms, {parts / max(total_ns, 1):.1%} of the play time "
                 "(the most a perfect, free cache per category could save)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ruleset", default="duel", choices=sorted({r for r, _ in FACTIONS}))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if (args.ruleset, args.players) not in FACTIONS:
        ap.error(f"no factions set for {args.ruleset} with {args.players} players "
                 f"(known: {', '.join(f'{r} {n}' for r, n in FACTIONS)})")
    if not 1 <= args.games <= 10_000:
        ap.error("--games is from 1 to 10000")
    tally = Tally()
    answers, total = play(args.ruleset, args.players, args.games, args.seed, tally)
    print(report(tally, len(answers), total))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
