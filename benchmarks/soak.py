"""Play many seeded random games with every invariant checked, and count violations (must be 0).

    python benchmarks/soak.py --ruleset duel --games 1000
    python benchmarks/soak.py --ruleset all --games 10000        # rulesets, player counts and factions mixed
    python benchmarks/soak.py --ruleset all --games 500 --expansions independents,azathoth
    python benchmarks/soak.py --ruleset all --games 500 --agents heuristic      # or mixed, or random,heuristic,...
    python benchmarks/soak.py --ruleset all --games 40 --agents mixed+mcts:6:depth=10   # search bots too
    python benchmarks/soak.py --games 1000 --expansions published --featuring sleeper-full --agents mixed+mcts:4:depth=8

With `--ruleset all` each seed picks its ruleset, player count, factions and seating from the seed
(`setup_for`), so a failure names a seed that reproduces it alone. Invariants are checked after
every logged event (conservation, Power, gates, Doom accounting) and after every decision (all).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from necronomicon.interpreter.content import load_content  # noqa: E402
from necronomicon.interpreter.content.build import Content  # noqa: E402
from necronomicon.interpreter.bots import is_search, make_agent  # noqa: E402
from necronomicon.interpreter.engine.agents import HeuristicAgent, RandomAgent  # noqa: E402
from necronomicon.interpreter.engine.game import Game  # noqa: E402
from necronomicon.interpreter.engine.invariants import Checker, InvariantError  # noqa: E402
from necronomicon.interpreter.engine.play import run_game  # noqa: E402

CORE = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"]
DUEL = ["sleeper", "wind-rider"]


def all_setups() -> list[tuple[str, tuple[str, ...]]]:
    """Every ruleset and faction combination (seating aside): the Duel's pair, every two-player
    pair of the core four, and every 3-, 4- and 5-faction set of all six for the multiplayer game."""
    out: list[tuple[str, tuple[str, ...]]] = [("duel", tuple(DUEL))]
    out += [("two-player", pair) for pair in combinations(CORE, 2)]
    out += [("multiplayer", combo) for n in (3, 4, 5) for combo in combinations(CORE + DUEL, n)]
    return out


SETUPS = all_setups()


def setup_for(seed: int, ruleset: str = "all") -> tuple[str, list[str]]:
    """The ruleset and seating a seed plays in a mixed soak: ruleset first (evenly), then a
    combination of that ruleset, then a shuffled seating."""
    r = random.Random(seed)
    rulesets = sorted({s[0] for s in SETUPS}) if ruleset == "all" else [ruleset]
    rs = r.choice(rulesets)
    combo = list(r.choice([s[1] for s in SETUPS if s[0] == rs]))
    r.shuffle(combo)
    return rs, combo


def setup_featuring(seed: int, featured: list[str], content: Content) -> tuple[str, list[str]]:
    """A multiplayer seating for a soak of expansion factions: one of `featured` (by the seed) with
    2 to 4 of the six seed factions (3, 4 or 5 players, from the seed), shuffled. A seed faction
    that starts in the same place (the Duel's board of the same faction) is left out."""
    r = random.Random(seed)
    n = r.choice([3, 4, 5])
    star = featured[seed % len(featured)]
    starts = {fid: {a.id for lay in content.model.layouts.values() for a in lay.areas.values() if fid in a.starts}
              for fid in [star, *CORE, *DUEL]}
    others = [f for f in CORE + DUEL if not starts[f] & starts[star]]
    seats = [star, *r.sample(others, n - 1)]
    r.shuffle(seats)
    return "multiplayer", seats


AGENT_KINDS = {"random": RandomAgent, "heuristic": HeuristicAgent}
SEARCH_MIX = "mixed+"   # `mixed+mcts:6:depth=10`: seats cycle random, heuristic and that search bot


def agents_for(spec: str, seed: int, seats: list[str]) -> dict[str, Any]:
    """The bots of one game: one agent name for every seat ('random', 'heuristic', a search bot
    such as 'mcts:6:depth=10'), 'mixed' (random and heuristic seats alternate, the first seat's
    kind alternating with the seed), 'mixed+SEARCH' (seats cycle random, heuristic and the search
    bot SEARCH, shifted by the seed), or a comma list of names, one per seat."""
    if spec == "mixed":
        kinds = ["random" if (seed + i) % 2 == 0 else "heuristic" for i in range(len(seats))]
    elif spec.startswith(SEARCH_MIX):
        cycle = ["random", "heuristic", spec[len(SEARCH_MIX):]]
        kinds = [cycle[(seed + i) % 3] for i in range(len(seats))]
    elif "," in spec:
        kinds = spec.split(",")
        if len(kinds) != len(seats):
            raise ValueError(f"--agents names {len(kinds)} agents for {len(seats)} seats")
    else:
        kinds = [spec] * len(seats)
    return {p: _agent(k, seed * 13 + i) for i, (p, k) in enumerate(zip(seats, kinds))}


def _agent(name: str, seed: int) -> Any:
    if name in AGENT_KINDS:
        return AGENT_KINDS[name](seed)
    if is_search(name):
        return make_agent(name, seed)      # the search bot; run_game hands it its seat
    raise ValueError(f"unknown agent '{name}'; one of: {', '.join(AGENT_KINDS)}, mcts[:budget...], mixed, "
                     f"{SEARCH_MIX}mcts[:budget...]")


def soak(ruleset: str, games: int, players: int | None = None, factions: list[str] | None = None,
         seed0: int = 0, check: bool = True, content: Content | None = None,
         progress: int = 0, every_event: bool = True, expansions: tuple[str, ...] = (),
         agents: str = "random", featuring: list[str] | None = None) -> dict[str, Any]:
    """Play `games` seeded bot games (`agents`: see agents_for); `ruleset` may be 'all' (mixed by seed);
    `featuring` names factions one of which plays every game (`setup_featuring`).
    With `check`, invariants are checked after every decision, and after every logged event unless not `every_event`."""
    content = content or load_content(expansions=list(expansions)).require_ok()   # the base game unless named
    failures: list[str] = []
    violations = 0
    outcomes: Counter[str] = Counter()
    setups: Counter[str] = Counter()
    decisions = states = events = 0
    t = time.perf_counter()
    for k, seed in enumerate(range(seed0, seed0 + games)):
        if featuring:
            rs, seats = setup_featuring(seed, featuring, content)
        elif ruleset == "all" and not factions:
            rs, seats = setup_for(seed)
        else:
            rs = ruleset
            n = players or content.model.rulesets[rs].get("players")[0]
            seats = list(factions or content.model.rulesets[rs].get("default-factions", {})[str(n)])
        setups[f"{rs}/{len(seats)}"] += 1
        checker = None
        try:
            g = Game(content, rs, list(seats), seed)
            checker = Checker(g, every_event=every_event) if check else None
            run_game(g, agents_for(agents, seed, list(seats)), check=checker or False)
            w = g.winner()
            outcomes["humanity" if not w else "shared" if len(w) > 1 else "single"] += 1
        except InvariantError as exc:
            violations += 1
            failures.append(f"seed {seed} ({rs}: {','.join(seats)}): invariant: {exc}")
        except Exception as exc:  # noqa: BLE001 - a soak reports every failure
            failures.append(f"seed {seed} ({rs}: {','.join(seats)}): {type(exc).__name__}: {exc}")
        finally:
            if checker is not None:
                checker.detach()
                states += checker.states
                events += checker.events
        decisions += len(g.choices) if "g" in locals() else 0
        if progress and (k + 1) % progress == 0:
            dt = time.perf_counter() - t
            print(f"  {k + 1} games, {len(failures)} failures, {states} states checked, "
                  f"{(k + 1) / dt:.1f} games/s", flush=True)
    dt = time.perf_counter() - t
    return {"games": games, "failures": failures, "violations": violations, "outcomes": dict(outcomes),
            "setups": dict(sorted(setups.items())), "seconds": dt, "games_per_s": games / dt,
            "decisions": decisions, "states_checked": states, "events_checked": events, "agents": agents}


def summary(r: dict[str, Any], ruleset: str, check: bool = True, every_event: bool = True) -> str:
    how = ("checked after every logged event and decision" if every_event else "checked after every decision") \
        if check else "off"
    return (f"{r['games']} {r.get('agents', 'random')} {ruleset} games (invariants {how}): "
            f"{r['violations']} violations, {len(r['failures'])} failures, "
            f"{r['states_checked']} states checked ({r['events_checked']} after events, {r['decisions']} decisions), "
            f"{r['games_per_s']:.1f} games/s, outcomes {r['outcomes']}, setups {r['setups']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="duel", help="a ruleset id, or 'all' to mix rulesets, player counts and factions")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--progress", type=int, default=0, help="print a progress line every N games")
    ap.add_argument("--no-check", action="store_true", help="skip the invariant checks (faster)")
    ap.add_argument("--decisions-only", action="store_true", help="check after every decision, not every event")
    ap.add_argument("--expansions", default="", help="comma list of expansions to enable (default: the base game)")
    ap.add_argument("--agents", default="random",
                    help="random (default), heuristic, a search bot (mcts:6:depth=10), mixed (random and "
                         "heuristic seats alternate), mixed+SEARCH (random, heuristic and that search bot), "
                         "or a comma list per seat")
    ap.add_argument("--featuring", default="",
                    help="comma list of (expansion) factions: every game seats one of them with 2-4 seed factions")
    a = ap.parse_args(argv)
    try:
        agents_for(a.agents, 0, ["a", "b", "c"] if "," not in a.agents else a.agents.split(","))
    except ValueError as exc:
        ap.error(str(exc))
    r = soak(a.ruleset, a.games, a.players, seed0=a.seed, check=not a.no_check, progress=a.progress,
             every_event=not a.decisions_only, expansions=tuple(e for e in a.expansions.split(",") if e),
             agents=a.agents, featuring=[f for f in a.featuring.split(",") if f] or None)
    print(summary(r, "featuring " + a.featuring if a.featuring else a.ruleset, not a.no_check, not a.decisions_only))
    for f in r["failures"][:20]:
        print("  " + f)
    return 1 if r["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
