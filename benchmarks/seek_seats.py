"""What requirement seeking changes in the heuristic bot's own play (engine/seeking.py, issue 33).

Game i plays the four-player matchup i mod M of the core factions (as `strength.py --experiment
four` plans them: seats rotated by (i // M) mod 4) with a test heuristic seat in seat i mod 4 and
plain heuristic bots in the others; `--seek` turns requirement seeking on for the test seat. Per
faction the test seat played: games, wins, and how many games earned each of its requirements.
Run it with and without `--seek` (the same games) and compare.

    python benchmarks/seek_seats.py --games 240
    python benchmarks/seek_seats.py --games 240 --seek
    python benchmarks/seek_seats.py --games 240 --seek --progress

`--progress` adds requirement progress (the bot's `progress`: placements scored by how much closer
they bring its unmet board-state requirements, engine/seeking.py `Trial`); `--reach` walks a unit
toward where it would close one further off than a move (the bot's `reach`, `Trial.gain_reach`);
`--awaken` reaches for an awakening that would meet a requirement and keeps its Power (the bot's
`awaken`, engine/awaken_steps.py); `--company` brings units beside a serving ability that counts
units (the bot's `company`, engine/company.py); `--brake` performs no ritual that would bring the
test seat to the Doom goal short of six spellbooks (the bot's `brake`). `--factions F,G` plays only
the games whose test seat plays one of them (the same games as the whole plan).
"""
from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(_ROOT))
from benchmarks.engine_choice import use_checkout_code  # noqa: E402

sys.path.remove(str(_ROOT))
use_checkout_code(_ROOT, sys.argv)   # this checkout's code, compiled where an installed build has it


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=240)
    ap.add_argument("--seed", type=int, default=1, help="game i uses seed SEED + i")
    ap.add_argument("--seek", action="store_true", help="requirement seeking on for the test seat")
    ap.add_argument("--progress", action="store_true", help="requirement progress on for the test seat")
    ap.add_argument("--reach", action="store_true", help="progress over several steps on for the test seat")
    ap.add_argument("--awaken", action="store_true", help="awakenings as requirement steps on for the test seat")
    ap.add_argument("--company", action="store_true", help="company for a serving ability on for the test seat")
    ap.add_argument("--brake", action="store_true", help="no ritual to the Doom goal short of six spellbooks")
    ap.add_argument("--factions", default="", help="comma list: play only the games whose test seat plays one of them")
    a = ap.parse_args(argv)
    if not 0 <= a.games <= 100_000:
        raise SystemExit("seek_seats: --games must be from 0 to 100000")
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.engine.agents import HeuristicAgent
    from necronomicon.interpreter.engine.game import Game
    from necronomicon.interpreter.engine.play import run_game
    from necronomicon.tools.simulate import matchups

    content = load_content().require_ok()
    ms = matchups(content, "multiplayer", 4)
    wanted = {f.strip() for f in a.factions.split(",") if f.strip()}
    games: collections.Counter[str] = collections.Counter()
    wins: collections.Counter[str] = collections.Counter()
    met: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    names: dict[str, list[str]] = {}
    for i in range(a.games):
        m = ms[i % len(ms)]
        k = (i // len(ms)) % 4
        seats = list(m[k:] + m[:k])
        if wanted and seats[i % 4] not in wanted:
            continue
        g = Game(content, "multiplayer", seats, a.seed + i)
        run_game(g, {f: HeuristicAgent(31 * (a.seed + i) + j, seek=a.seek and j == i % 4,
                                       progress=a.progress and j == i % 4, reach=a.reach and j == i % 4,
                                       awaken=a.awaken and j == i % 4, company=a.company and j == i % 4,
                                       brake=a.brake and j == i % 4)
                           for j, f in enumerate(seats)})
        f = seats[i % 4]
        games[f] += 1
        wins[f] += f in (g.s.winners or [])
        met[f].update(g.s.requirements[f])
        names[f] = [r.id for r in g.content.factions[f].requirements]
    print(f"{a.games} games, test seat {'with' if a.seek else 'without'} requirement seeking, "
          f"{'with' if a.progress else 'without'} requirement progress, "
          f"{'with' if a.reach else 'without'} reach, {'with' if a.awaken else 'without'} awaken, "
          f"{'with' if a.company else 'without'} company, {'with' if a.brake else 'without'} brake: "
          f"won {sum(wins.values())}")
    for f in sorted(games):
        print(f"  {f:<16} played {games[f]:>3}  won {wins[f]:>3}  requirements earned: "
              + ", ".join(f"{r} {met[f][r]}" for r in names[f]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
