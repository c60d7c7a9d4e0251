"""When each seat earns its spellbook requirements, in games of `strength.py`'s plans (issue 33):
which requirements of the search seat stay unmet, who wins, and how far ahead the winner was.

Plays the planned games of `--experiment` (`four` by default) whose search seat plays one of
`--factions`, with the same seeds and seats as `strength.py`, and prints per game the search
seat's requirements in the order earned, with the round of each, every seat's spellbooks by
round, and the winners. The search bot is `--agent` (a playout budget keeps a game reproducible).

    python benchmarks/requirement_timeline.py --agent mcts:30:seek=1 --factions black-goat,wind-rider --games 24
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(_ROOT))
from benchmarks.engine_choice import use_checkout_code  # noqa: E402

sys.path.remove(str(_ROOT))
use_checkout_code(_ROOT, sys.argv)   # this checkout's code, compiled where an installed build has it


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agent", default="mcts:30:seek=1")
    ap.add_argument("--experiment", default="four", choices=["four"])
    ap.add_argument("--games", type=int, default=24, help="the plan's size (default 24)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--factions", required=True, help="comma list of the search seat's factions")
    a = ap.parse_args(argv)
    if not 0 <= a.games <= 10_000:
        raise SystemExit("requirement_timeline: --games must be from 0 to 10000")
    from benchmarks.strength import only_factions, plan, search_faction
    from necronomicon.interpreter.bots import make_agent
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.engine.game import Game
    from necronomicon.interpreter.engine.play import run_game

    content = load_content().require_ok()
    specs = only_factions(plan(a.experiment, a.games, a.seed, a.agent, content),
                          [f.strip() for f in a.factions.split(",")], content)
    for spec in specs:
        me = search_faction(spec)
        g = Game(content, spec.ruleset, list(spec.factions), spec.seed, spec.layout)
        earned: dict[str, int] = {}
        books: dict[str, list[int]] = {f: [] for f in spec.factions}
        last_round = [0]

        def note(game: Game) -> None:
            s = game.s
            for r in s.requirements.get(me) or ():
                earned.setdefault(r, s.round)
            if s.round != last_round[0]:
                last_round[0] = s.round
                for f in spec.factions:
                    books[f].append(len(s.spellbooks.get(f) or ()))

        bots = {f: make_agent(x, spec.seed * 31 + i) for i, (f, x) in enumerate(zip(spec.factions, spec.agents))}
        run_game(g, bots, on_decision=note)
        note(g)
        unmet = [r.id for r in g.content.factions[me].requirements if r.id not in earned]
        print(f"game {spec.index} seed {spec.seed}: search seat {me}; winners {g.s.winners or 'nobody'}; "
              f"round {g.s.round}; doom {dict(g.s.doom)}")
        print("  earned: " + ", ".join(f"{r}@{n}" for r, n in sorted(earned.items(), key=lambda x: x[1]))
              + f"; unmet: {', '.join(unmet) or '-'}")
        print("  spellbooks by round: " + "; ".join(f"{f} {books[f] + [len(g.s.spellbooks.get(f) or ())]}" for f in spec.factions),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
