"""How many Python functions still run interpreted inside a compiled core, per decision, and which.

    python benchmarks/interpreted_calls.py --root TREE                        # 10 random Duels
    python benchmarks/interpreted_calls.py --root TREE --ruleset multiplayer --players 4 --agent heuristic

`TREE` is a tree whose core is compiled in place (compare.py's `compiled_copy`, or a checkout after
`pip install .` has put the extensions beside the source); on the Python source every engine
function counts. A profile hook, set only around `Game.apply` (the engine's work, not the agents'),
counts every Python frame that starts: compiled functions start none, so what is counted is what
the compiled core still runs as interpreted Python, such as a dataclass's or a named tuple's
generated `__init__`/`__new__` (made at import, `<string>`), the content model's methods (the
loader is not compiled) and the standard library's Python parts. Prints the calls per decision and
the commonest functions (file:line name). Seeded games with `measure.py`'s factions and agents.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import measure  # noqa: E402  (the API every revision has, and the tree's packages pinned)


def count(root: Path, ruleset: str, players: int, agent: str, games: int, seed0: int = 1) -> dict[str, Any]:
    """Interpreted calls inside `apply` over seeded games: their number per decision and per function."""
    measure.pin_packages(root)
    api = measure.Api()
    content = api.content([])
    calls: Counter[Any] = Counter()

    def hook(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            code = frame.f_code
            owner = ""
            if code.co_filename.startswith("<"):   # generated: say whose (self, or a named tuple's cls)
                local = frame.f_locals
                made = local.get("self", local.get("_cls"))
                owner = (made if isinstance(made, type) else type(made)).__name__ if made is not None else ""
            calls[code, owner] += 1

    decisions = 0
    for seed in range(seed0, seed0 + games):
        g = api.new_game(content, ruleset, players, seed)
        agents = api.agents(g, agent, seed)
        while (d := g.current()) is not None:
            answer = agents[d.player].choose(d.player, d.options, d)
            sys.setprofile(hook)
            try:
                g.apply(answer)
            finally:
                sys.setprofile(None)
            decisions += 1
    top = [{"function": f"{Path(c.co_filename).name}:{c.co_firstlineno} {c.co_name}" + (f" of {owner}" if owner else ""),
            "per_decision": n / decisions} for (c, owner), n in calls.most_common(12)]
    return {"decisions": decisions, "per_decision": sum(calls.values()) / max(1, decisions), "top": top}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=HERE.parent, help="the tree to measure (default: this checkout)")
    ap.add_argument("--ruleset", default="duel", choices=sorted({r for r, _ in measure.FACTIONS}))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--agent", default="random", choices=["random", "heuristic"])
    ap.add_argument("--games", type=int, default=10)
    a = ap.parse_args(argv)
    if (a.ruleset, a.players) not in measure.FACTIONS:
        ap.error(f"no factions are set for {a.ruleset} with {a.players} players (measure.FACTIONS)")
    if a.games < 1 or a.games > 1000:
        ap.error("--games is 1 to 1000")
    out = count(a.root.resolve(), a.ruleset, a.players, a.agent, a.games)
    print(f"{out['decisions']} decisions: {out['per_decision']:.2f} interpreted calls a decision inside apply")
    for row in out["top"]:
        print(f"  {row['per_decision']:6.2f}  {row['function']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
