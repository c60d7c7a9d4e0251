"""One measurement inside one revision of the engine; `compare.py` runs it in a fresh process per figure.

    python benchmarks/measure.py --root TREE decisions --ruleset duel --players 2 --agent random --games 20
    python benchmarks/measure.py --root TREE positions --per-setup 25

`TREE` is a checkout of any revision (the current working tree or an extracted older commit); its
`interpreter` package and built-in content are the ones imported. The script uses only the public
API every revision has: `load_content`, `Game(content, ruleset, factions, seed)`, `current()`,
`apply()`, `clone()`, `to_json()`, `Game.from_json(content, data)`, `RandomAgent`, `HeuristicAgent`.
A figure whose API a revision lacks comes back as {"na": reason}. Times are CPU seconds of this
process (time.process_time_ns), never wall-clock. Prints one JSON object on stdout.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

# The factions each ruleset and player count is measured with (the rulesets' defaults), in seat order.
FACTIONS: dict[tuple[str, int], list[str]] = {
    ("duel", 2): ["sleeper", "wind-rider"],
    ("two-player", 2): ["great-cthulhu", "black-goat"],
    ("multiplayer", 3): ["great-cthulhu", "crawling-chaos", "black-goat"],
    ("multiplayer", 4): ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"],
    ("multiplayer", 5): ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign", "sleeper"],
}
# Every ruleset and player count, with and without the expansions: where the positions come from.
SETUPS = list(FACTIONS)
EXPANSIONS = ["independents", "azathoth"]
WARMUP_DECISIONS = 100
STRIDE = 9          # a position every STRIDE decisions of a seeded random game
REPEATS = 3         # each position's time is the fastest of REPEATS calls


def _find(modules: tuple[str, ...], name: str) -> Any:
    """`name` from the first of `modules` that has it (the API may move between revisions)."""
    for m in modules:
        try:
            obj = getattr(importlib.import_module(m), name, None)
        except ImportError:
            continue
        if obj is not None:
            return obj
    raise ImportError(f"no {name} in {', '.join(modules)}")


class Api:
    """The few names both revisions are measured through."""

    def __init__(self) -> None:
        self.load_content = _find(("interpreter.content", "interpreter"), "load_content")
        self.Game = _find(("interpreter.engine.game", "interpreter.engine", "interpreter"), "Game")
        agents = ("interpreter.engine.agents", "interpreter.agents", "interpreter")
        self.RandomAgent = _find(agents, "RandomAgent")
        try:
            self.HeuristicAgent = _find(agents, "HeuristicAgent")
        except ImportError:
            self.HeuristicAgent = None

    def content(self, expansions: list[str]) -> Any:
        c = self.load_content(expansions=expansions) if expansions else self.load_content()
        return c.require_ok()

    def new_game(self, content: Any, ruleset: str, players: int, seed: int) -> Any:
        return self.Game(content, ruleset, list(FACTIONS[ruleset, players]), seed)

    def agents(self, game: Any, kind: str, seed: int) -> dict[str, Any]:
        cls = self.RandomAgent if kind == "random" else self.HeuristicAgent
        if cls is None:
            raise NotImplementedError(f"this revision has no {kind} agent")
        out = {}
        for i, p in enumerate(_players(game)):
            a = cls(seed * 7 + i)
            if hasattr(a, "sit"):            # a bot handed its player's seat (engine/seat.py)
                a.sit(_seat(game, p))
            elif hasattr(a, "observe"):      # older revisions handed bots the game
                a.observe(game)
            out[p] = a
        return out


def _seat(game: Any, player: str) -> Any:
    return importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".seat").Seat(game, player)


def _players(game: Any) -> list[str]:
    return list(game.params["factions"]) if hasattr(game, "params") else list(game.s.players)


def _step(game: Any, agents: dict[str, Any]) -> str | None:
    d = game.current()
    if d is None:
        return None
    answer = agents[d.player].choose(d.player, d.options, d)
    game.apply(answer)
    return answer


def decisions(api: Api, ruleset: str, players: int, agent: str, games: int, seed0: int) -> dict[str, Any]:
    """Whole seeded games: decisions per CPU second; a hash of every answer says the games are the same."""
    content = api.content([])
    warm = api.new_game(content, ruleset, players, seed0 + 100_000)
    warm_agents = api.agents(warm, agent, seed0 + 100_000)
    for _ in range(WARMUP_DECISIONS):
        if _step(warm, warm_agents) is None:
            break
    answers = hashlib.sha256()
    n = 0
    cpu = 0
    for seed in range(seed0, seed0 + games):
        t0 = time.process_time_ns()
        g = api.new_game(content, ruleset, players, seed)
        ags = api.agents(g, agent, seed)
        k = 0
        while True:
            a = _step(g, ags)
            if a is None:
                break
            answers.update(a.encode() + b"\n")
            k += 1
        cpu += time.process_time_ns() - t0
        n += k
    return {"decisions": n, "cpu_s": cpu / 1e9, "per_s": n / (cpu / 1e9), "answers": answers.hexdigest()[:16]}


def _fastest(fn: Callable[[], Any], prepare: Callable[[], Any] | None = None) -> float:
    best = None
    for _ in range(REPEATS):
        arg = prepare() if prepare is not None else None
        t0 = time.process_time_ns()
        fn() if prepare is None else fn(arg)
        dt = time.process_time_ns() - t0
        best = dt if best is None or dt < best else best
    return best / 1e3  # microseconds


def positions(api: Api, per_setup: int, seed0: int) -> dict[str, Any]:
    """clone(), to_json() and from_json() at positions of seeded random games in every ruleset."""
    times: dict[str, list[float]] = {"clone": [], "to_json": [], "from_json": []}
    na: dict[str, str] = {}
    count = 0
    for expanded in (False, True):
        content = api.content(EXPANSIONS if expanded else [])
        for ruleset, players in SETUPS:
            taken, seed = 0, seed0
            while taken < per_setup:
                g = api.new_game(content, ruleset, players, seed)
                ags = api.agents(g, "random", seed)
                rng = random.Random(seed)
                k = rng.randrange(STRIDE)
                while taken < per_setup and g.current() is not None:
                    if k % STRIDE == 0:
                        _measure_here(g, content, api, times, na)
                        taken += 1
                    _step(g, ags)
                    k += 1
                seed += 1
            count += taken
    out: dict[str, Any] = {"positions": count}
    for name, ts in times.items():
        out[name] = {"na": na[name]} if name in na else {"us": ts}
    return out


def _measure_here(g: Any, content: Any, api: Api, times: dict[str, list[float]], na: dict[str, str]) -> None:
    for name in ("clone", "to_json"):
        if name in na:
            continue
        try:
            times[name].append(_fastest(getattr(g, name)))
        except (AttributeError, NotImplementedError) as exc:
            na[name] = f"{type(exc).__name__}: {exc}"
    if "from_json" in na:
        return
    try:
        text = json.dumps(g.to_json())
        times["from_json"].append(_fastest(lambda data: api.Game.from_json(content, data),
                                           lambda: json.loads(text)))
    except (AttributeError, NotImplementedError, TypeError) as exc:
        na["from_json"] = f"{type(exc).__name__}: {exc}"


PACKAGES = ("interpreter", "tools")   # the project's top-level packages (namespace packages: no __init__.py)


def pin_packages(root: Path) -> None:
    """Make `import interpreter` (and `tools`) read `root`'s folders only. Both are namespace
    packages, so with the project installed (`pip install .`) the installed copy's folders would
    join them, and a module missing from `root` (an older revision) would come from the install."""
    for name in PACKAGES:
        folder = root / name
        if name in sys.modules or not folder.is_dir():
            continue   # already imported (then `modules_outside` checks where from), or not in this revision
        init = folder / "__init__.py"
        if init.is_file():
            spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(folder)])
        else:
            spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
            spec.submodule_search_locations = [str(folder)]
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        if spec.loader is not None:
            spec.loader.exec_module(module)


def modules_outside(root: Path) -> list[str]:
    """The project modules imported so far whose file is not in `root`'s folders."""
    out = []
    for name, module in list(sys.modules.items()):
        top = name.split(".")[0]
        where = getattr(module, "__file__", None)
        if top in PACKAGES and where and not Path(where).resolve().is_relative_to(root / top):
            out.append(f"{name} ({where})")
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True, type=Path, help="the revision's tree (its interpreter/ and content/)")
    sub = ap.add_subparsers(dest="task", required=True)
    d = sub.add_parser("decisions")
    d.add_argument("--ruleset", required=True)
    d.add_argument("--players", type=int, required=True)
    d.add_argument("--agent", choices=["random", "heuristic"], default="random")
    d.add_argument("--games", type=int, default=20)
    d.add_argument("--seed", type=int, default=1)
    p = sub.add_parser("positions")
    p.add_argument("--per-setup", type=int, default=25)
    p.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    root = args.root.resolve()
    sys.path.insert(0, str(root))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    try:
        pin_packages(root)
        api = Api()
        strays = modules_outside(root)
        if strays:
            raise ImportError(f"{strays[0]} imported from outside {root} ({len(strays)} such modules)")
        if args.task == "decisions":
            out = decisions(api, args.ruleset, args.players, args.agent, args.games, args.seed)
        else:
            out = positions(api, args.per_setup, args.seed)
    except (ImportError, NotImplementedError) as exc:
        out = {"na": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
