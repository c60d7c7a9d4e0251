"""How much a cache of action listings could save at most: for each listing category, how often
its list equals the same player's previous list of that category, or any earlier one in the game,
and the CPU time those repeats took.

    python benchmarks/listing_reuse.py --ruleset duel --players 2 --games 20

A cache keyed on what a listing reads (docs/design/speed-next.md, step 1) can at best skip the
repeats (equal inputs give an equal list, not the other way round), and it still pays for its
keys. The line printed last keeps every whole listing (main, Unlimited) that repeats an earlier
one and, inside the others, every category that does: its share of the play time bounds that
step's gain from above, for a cache of any size. Plays seeded random games with the factions
`measure.py` uses; listings inside a dry run are not counted (they are a search, not a listing).
Times are CPU time (time.process_time_ns). The shares are of the same games played without the
tally; the tally's own work is left out of each listing's time as far as it can be measured, so
the listing times still hold a little of it and the shares lean high.
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
from necronomicon.interpreter.content import load_content  # noqa: E402
from necronomicon.interpreter.engine import actions  # noqa: E402
from necronomicon.interpreter.engine.agents import RandomAgent  # noqa: E402
from necronomicon.interpreter.engine.game import Game  # noqa: E402

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
        self.repeats: Counter[str] = Counter()      # equal to the player's previous list
        self.seen_before: Counter[str] = Counter()  # equal to any earlier list of the player
        self.time: Counter[str] = Counter()
        self.repeat_time: Counter[str] = Counter()
        self.seen_time: Counter[str] = Counter()
        self.own_same: Counter[str] = Counter()    # a whole listing whose player's units and Power are as before
        self._own: dict[tuple[str, str], Any] = {}
        self._last: dict[tuple[str, str], Any] = {}
        self._seen: dict[tuple[str, str], tuple[set[tuple[Any, ...]], bool]] = {}   # lists; last one seen before
        self._depth: Counter[str] = Counter()
        self.best_ns = 0      # what kept whole listings and categories could save at most
        self.overhead_ns = 0  # the tally's own work, taken out of every time above
        self._stack: list[list[int]] = []   # per wrapped listing running: [repeats' time, overhead] within

    def new_game(self) -> None:
        """Forget the lists of the game before (a repeat is counted within one game)."""
        self._last.clear()
        self._seen.clear()
        self._own.clear()

    def install(self) -> Callable[[], None]:
        """Wrap the listing methods; returns the function that unwraps them."""
        cls = actions   # the listing functions, looked up in their module at every call
        originals = {name: cls.__dict__[name] for name in CATEGORIES}
        for name, orig in originals.items():
            setattr(cls, name, self._wrapped(name, orig, CATEGORIES[name]))

        def uninstall() -> None:
            for name, orig in originals.items():
                setattr(cls, name, orig)
        return uninstall

    def _wrapped(self, name: str, orig: Callable[..., Any], label: Label) -> Callable[..., Any]:
        def listing(game: Any, p: str, *a: Any, **k: Any) -> Any:
            if self._depth[name] or getattr(game, "_dry_run_notes", None) is not None:
                return orig(game, p, *a, **k)
            begin = time.process_time_ns()
            cat = label((p, *a), k)
            within = [0, 0]
            self._stack.append(within)
            self._depth[name] += 1
            t0 = time.process_time_ns()
            try:
                out = orig(game, p, *a, **k)
            finally:
                self._depth[name] -= 1
                self._stack.pop()
            t1 = time.process_time_ns()
            dt = t1 - t0 - within[1]   # without the tally's work in the listings it called
            self._count(p, cat, out, dt)
            if cat in WHOLE:
                self._own_inputs(game.s, p, cat)
            saved = dt if self._seen[p, cat][1] else within[0]   # this list again, or repeats within it
            overhead = within[1] + (t0 - begin) + (time.process_time_ns() - t1)
            if self._stack:
                self._stack[-1][0] += saved
                self._stack[-1][1] += overhead
            else:
                self.best_ns += saved
                self.overhead_ns += overhead
            return out
        return listing

    def _own_inputs(self, s: Any, p: str, cat: str) -> None:
        """Whether `p`'s units (none moved, no other unit write: the `units@` key of
        engine/held_conditions.py) and Power are as at its previous listing of this kind: the
        narrowest key a kept listing could have that reads no other player's part."""
        now = (s, s.other_writes, s.moves_of(p), len(s.units), s.power[p])
        before = self._own.get((p, cat))
        if before is not None and before[0] is now[0] and before[1:] == now[1:]:
            self.own_same[cat] += 1
        self._own[p, cat] = now

    def _count(self, p: str, cat: str, out: Any, dt: int) -> None:
        self.calls[cat] += 1
        self.time[cat] += dt
        key = (p, cat)
        if self._last.get(key) == out:
            self.repeats[cat] += 1
            self.repeat_time[cat] += dt
        self._last[key] = list(out)
        lists, _ = self._seen.get(key) or (set(), False)
        frozen = tuple(out)
        again = frozen in lists
        if again:
            self.seen_before[cat] += 1
            self.seen_time[cat] += dt
        lists.add(frozen)
        self._seen[key] = (lists, again)


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
            if tally is not None:
                tally.new_game()
            agents = {p: RandomAgent(s * 7 + i) for i, p in enumerate(g.s.players)}
            while (d := g.current()) is not None:
                answers.append(agents[d.player].choose(d.player, d.options, d))
                g.apply(answers[-1])
    finally:
        uninstall()
    return answers, time.process_time_ns() - t0


def report(tally: Tally, decisions: int, total_ns: int) -> str:
    """The table: per category, calls, the share equal to the player's previous list ("as last")
    and to any earlier one ("as any"), CPU ms of all calls and of those repeats."""
    lines = [f"{decisions} decisions, {total_ns / 1e6:.0f} ms CPU in all, played without the tally",
             f"{'category':26} {'calls':>6} {'as last':>8} {'as any':>7} {'time ms':>8} {'last ms':>8} {'any ms':>7}"]
    for cat in sorted(tally.calls, key=lambda c: (c not in WHOLE, c)):
        n = tally.calls[cat]
        lines.append(f"{cat:26} {n:6} {tally.repeats[cat] / n:8.1%} {tally.seen_before[cat] / n:7.1%} "
                     f"{tally.time[cat] / 1e6:8.1f} {tally.repeat_time[cat] / 1e6:8.1f} {tally.seen_time[cat] / 1e6:7.1f}")
    for cat in WHOLE:
        if tally.calls[cat]:
            lines.append(f"{cat}: the player's units and Power as at its previous one in "
                         f"{tally.own_same[cat] / tally.calls[cat]:.1%} of the calls")
    for what, times in (("the previous list", tally.repeat_time), ("any earlier list", tally.seen_time)):
        parts = sum(v for c, v in times.items() if c not in WHOLE)
        lines.append(f"repeats of {what}, over the categories: {parts / 1e6:.1f} ms, "
                     f"{parts / max(total_ns, 1):.1%} of the play time")
    lines.append(f"kept whole listings and categories, any earlier list: {tally.best_ns / 1e6:.1f} ms, "
                 f"{tally.best_ns / max(total_ns, 1):.1%} of the play time "
                 "(the most a perfect cache whose keys cost nothing could save)")
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
    plain, total = play(args.ruleset, args.players, args.games, args.seed, None)   # the time shares are of this
    tally = Tally()
    answers, _ = play(args.ruleset, args.players, args.games, args.seed, tally)
    if answers != plain:
        raise SystemExit("internal: the tally changed the games")
    print(report(tally, len(answers), total))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
