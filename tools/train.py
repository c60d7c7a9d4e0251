"""`necro train`: self-play games of one content set, then a learned evaluation fitted to them.

Game i plays matchup i mod M of the loaded factions (seats rotated each cycle), with seed
`--seed + i`; its seats' bots are read in turn from `--agents` (a comma list continued from seat
to seat and game to game, so the default `heuristic` x7 + `mcts:8` puts a search bot in one seat
in eight). Every `EVERY`-th decision of a game its position's public features are noted
(search/features.py), and each is labelled with how the game ended. The fit (search/fitting.py)
is written to `--out` with the content's digest; the search bot uses it with `eval=FILE`.
"""
from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.game import Game, GameError
from necronomicon.interpreter.engine.play import run_game
from necronomicon.interpreter.search.features import game_features, seat_features
from necronomicon.interpreter.search.fitting import Sample, fit

from .loading import add_table_options, content_from_args
from .preflight import check_destination, check_seed, pick_ruleset, player_count
from .runners import ContentArgs, default_jobs
from .simulate import GameSpec, matchups

EVERY = 8              # decisions between two positions noted in a game
DEFAULT_AGENTS = ",".join(["heuristic"] * 7 + ["mcts:8"])
MAX_GAMES = 100_000

__all__ = ["add_parser", "cmd_train", "plan_training", "samples_of"]


def plan_training(content: Content, ruleset: str, players: int, games: int, seed: int, agents: list[str],
                  layout: str | None = None) -> list[GameSpec]:
    """The training games: every matchup in turn, seats rotated, bots read in turn from `agents`."""
    ms = matchups(content, ruleset, players)
    specs = []
    for i in range(games):
        m = ms[i % len(ms)]
        k = (i // len(ms)) % players
        seats = tuple(m[k:] + m[:k])
        bots = tuple(agents[(i * players + j) % len(agents)] for j in range(players))
        specs.append(GameSpec(i, seed + i, ruleset, seats, bots, layout))
    return specs


def samples_of(content: Content, spec: GameSpec, every: int = EVERY) -> list[Sample]:
    """The positions noted in one training game, labelled with its outcome ([] if the game failed)."""
    noted: list[tuple[dict[str, list[float]], list[float]]] = []
    try:
        g = Game(content, spec.ruleset, list(spec.factions), spec.seed, spec.layout)
        bots = {f: make_agent(a, spec.seed * 31 + i) for i, (f, a) in enumerate(zip(spec.factions, spec.agents))}

        def note(game: Game) -> None:
            if len(game.choices) % every == 0 and not game.is_over():
                noted.append((seat_features(game), game_features(game)))
        run_game(g, bots, on_decision=note)
    except (GameError, RuntimeError, ValueError, KeyError):
        return []
    players = list(g.s.players)
    winners = list(g.s.winners or [])
    shares = (1.0 if not winners else 0.0, *((1 / len(winners) if p in winners else 0.0) for p in players))
    return [Sample(spec.index, tuple(tuple(seats[p]) for p in players), tuple(glob), shares) for seats, glob in noted]


_CONTENT: Content | None = None


def _init(args: ContentArgs) -> None:
    global _CONTENT  # noqa: PLW0603 - one content per worker process
    _CONTENT = args.load()


def _play(spec: GameSpec) -> list[Sample]:
    assert _CONTENT is not None
    return samples_of(_CONTENT, spec)


def cmd_train(args: argparse.Namespace) -> int:
    """Play the training games (over `--jobs` processes), fit, write `--out`."""
    content = content_from_args(args)
    ruleset = pick_ruleset(content, args.ruleset)
    players = player_count(content, ruleset, args.players)
    if not 1 <= args.games <= MAX_GAMES:
        raise GameError(f"--games {args.games}: give 1 to {MAX_GAMES:,} games")
    check_seed(args.seed)
    check_seed(args.seed + args.games - 1, "--seed plus --games")
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if not agents:
        raise GameError("--agents names no bot")
    for a in agents:
        if "eval=" in a:
            raise GameError(f"--agents '{a}': training games are played without a learned evaluation")
        make_agent(a, 0)   # an unknown bot is one clear line, before any work
    if args.jobs is not None and args.jobs < 1:
        raise ValueError("--jobs must be 1 or more")
    check_destination(args.out, "--out")
    specs = plan_training(content, ruleset, players, args.games, args.seed, agents, args.map)
    Game(content, ruleset, list(specs[0].factions), args.seed, args.map)   # a bad --map is one line, before any work
    jobs = min(args.jobs or default_jobs(), len(specs))
    t0 = time.perf_counter()
    samples: list[Sample] = []
    if jobs == 1:
        for spec in specs:
            samples.extend(samples_of(content, spec))
    else:
        cargs = ContentArgs(tuple(args.content_dir or ()), tuple(e for e in (args.expansions or "").split(",") if e))
        with ProcessPoolExecutor(max_workers=jobs, initializer=_init, initargs=(cargs,)) as pool:
            for got in pool.map(_play, specs, chunksize=1):
                samples.extend(got)
    played = time.perf_counter() - t0
    info: dict[str, Any] = {"ruleset": ruleset, "players": players, "seed": args.seed, "agents": agents,
                            "content_dirs": [os.path.basename(os.path.normpath(d)) for d in args.content_dir or []],
                            "expansions": [e for e in (args.expansions or "").split(",") if e],
                            "failed_games": args.games - len({s.game for s in samples})}
    model = fit(samples, content.digest, info)
    model.save(args.out)
    figs = model.info
    held = (f"; held-out games: log loss {figs['held_out_log_loss']} (outcome frequencies alone: "
            f"{figs['held_out_base_log_loss']}), likeliest outcome right {100 * figs['held_out_top_outcome_right']:.1f}%"
            if "held_out_log_loss" in figs else "")
    print(f"trained on {figs['positions']:,} positions of {figs['games']} games ({ruleset}, {players} players) "
          f"in {played:.0f} s on {jobs} job{'s' if jobs > 1 else ''}{held}")
    print(f"wrote {args.out} (content digest {content.digest}); use it as mcts:0.5s:depth=10:eval={args.out}")
    return 0


def add_parser(sub: Any) -> None:
    """The `necro train` sub-command's options."""
    t = sub.add_parser("train", help="learn an evaluation of positions for the search bot from self-play games")
    add_table_options(t)
    t.add_argument("--games", type=int, default=300, help="self-play games (default 300)")
    t.add_argument("--seed", type=int, default=1, help="the first game's seed; game i uses seed + i")
    t.add_argument("--agents", default=DEFAULT_AGENTS, help="bots read in turn, seat after seat and game after "
                   "game (default: heuristic x7, mcts:8: a search bot in one seat in eight)")
    t.add_argument("--jobs", type=int, help="worker processes (default: all cores)")
    t.add_argument("--out", default="evaluation.json", help="the evaluation file to write (default evaluation.json)")
