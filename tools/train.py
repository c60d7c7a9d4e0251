"""`necro train`: self-play games of one content set, then a learned evaluation fitted to them.

Game i plays matchup i mod M of the loaded factions (seats rotated each cycle), with seed
`--seed + i`; its seats' bots are read in turn from `--agents` (a comma list continued from seat
to seat and game to game, turned by one seat each time it comes round, so the default `heuristic`
x7 + `mcts:8` puts a search bot in one seat in eight, and in every seat alike). Every `EVERY`-th decision of a game its position's public features are noted
(search/features.py), and each is labelled with how the game ended. The fit (search/fitting.py)
is written to `--out` with the content's digest; the search bot uses it with `eval=FILE`.

Each finished game's positions are appended at once to `OUT-STEM.positions.jsonl` beside `--out`
(tools/train_positions.py), so a run stopped by Ctrl-C or a kill keeps its games, and the same
command run again plays only the rest before fitting. The games are played by `runners.run`, as
`necro simulate`'s are: its worker processes end with this one, even when it is killed.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from functools import partial
from typing import Any, Callable

from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.game import Game, GameError
from necronomicon.interpreter.engine.play import run_game
from necronomicon.interpreter.search.features import FEATURES_VERSION, game_features, seat_features
from necronomicon.interpreter.search.fitting import Sample, fit

from .batch import _CtrlC
from .loading import add_table_options, content_from_args
from .preflight import check_destination, check_seed, pick_ruleset, player_count
from .runners import ContentArgs, Play, default_jobs, run
from .simulate import GameSpec, matchups
from .train_positions import append_row, positions_path, read_done, samples_of_row

EVERY = 8              # decisions between two positions noted in a game
DEFAULT_AGENTS = ",".join(["heuristic"] * 7 + ["mcts:8"])
MAX_GAMES = 100_000

__all__ = ["add_parser", "cmd_train", "plan_training", "samples_of"]


def plan_training(content: Content, ruleset: str, players: int, games: int, seed: int, agents: list[str],
                  layout: str | None = None) -> list[GameSpec]:
    """The training games: every matchup in turn, seats rotated, bots read in turn from `agents`
    and rotated by one seat each time the list comes round again, so every bot sits in every seat
    alike (the outcome a position is labelled with must not depend on which seat the search bot had)."""
    ms = matchups(content, ruleset, players)
    repeat = len(agents) // math.gcd(len(agents), players)   # games before the bots' order comes round
    specs = []
    for i in range(games):
        m = ms[i % len(ms)]
        k = (i // len(ms)) % players
        seats = tuple(m[k:] + m[:k])
        bots = [agents[(i * players + j) % len(agents)] for j in range(players)]
        r = (i // repeat) % players
        specs.append(GameSpec(i, seed + i, ruleset, seats, tuple(bots[r:] + bots[:r]), layout))
    return specs


def training_row(content: Content, spec: GameSpec, on_decision: Callable[[], None] | None = None,
                 every: int = EVERY) -> dict[str, Any]:
    """One training game played to the end: its line of the positions file (train_positions.py),
    with every `every`-th decision's position and the outcome shares, or `error` if it failed."""
    row: dict[str, Any] = {"game": spec.index, "seed": spec.seed, "ruleset": spec.ruleset,
                           "factions": list(spec.factions), "agents": list(spec.agents), "every": every,
                           "features": FEATURES_VERSION}
    noted: list[dict[str, Any]] = []
    try:
        g = Game(content, spec.ruleset, list(spec.factions), spec.seed, spec.layout)
        bots = {f: make_agent(a, spec.seed * 31 + i) for i, (f, a) in enumerate(zip(spec.factions, spec.agents))}

        def note(game: Game) -> None:
            if on_decision is not None:
                on_decision()
            if len(game.choices) % every == 0 and not game.is_over():
                seats = seat_features(game)
                noted.append({"seats": [seats[p] for p in game.s.players], "game": game_features(game)})
        run_game(g, bots, on_decision=note)
    except (GameError, RuntimeError, ValueError, KeyError) as exc:
        row["error"] = f"{type(exc).__name__}: {exc}"
        return row
    winners = list(g.s.winners or [])
    row["shares"] = [1.0 if not winners else 0.0, *((1 / len(winners) if p in winners else 0.0) for p in g.s.players)]
    row["positions"] = noted
    return row


def samples_of(content: Content, spec: GameSpec, every: int = EVERY) -> list[Sample]:
    """The positions noted in one training game, labelled with its outcome ([] if the game failed)."""
    return samples_of_row(training_row(content, spec, every=every))


def _row_every(every: int) -> Play:
    """`training_row` noting every `every`-th decision (a module-level function: sent to workers)."""
    return training_row if every == EVERY else partial(training_row, every=every)


def _play_all(specs: list[GameSpec], done: list[dict[str, Any]], path: str, cargs: ContentArgs, content: Content,
              jobs: int, every: int) -> tuple[list[dict[str, Any]], bool]:
    """Play the games not in `done`, appending each finished game's line to `path` at once; every
    row (the file's and the new) and whether Ctrl-C stopped the run. Workers end with this process
    (runners.run_pool)."""
    todo = [s for s in specs if s.index not in {r["game"] for r in done}]
    rows = list(done)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        with _CtrlC() as ctrl_c:
            try:
                for row in run(todo, cargs, jobs=jobs, content=content, stop=ctrl_c, play=_row_every(every)):
                    append_row(fd, row)
                    rows.append(row)
            except KeyboardInterrupt:
                return rows, True
            return rows, ctrl_c.hit
    finally:
        os.close(fd)


def cmd_train(args: argparse.Namespace) -> int:
    """Play the training games (over `--jobs` processes, continuing the positions file), fit, write `--out`."""
    content = content_from_args(args)
    ruleset = pick_ruleset(content, args.ruleset)
    players = player_count(content, ruleset, args.players)
    if not 1 <= args.games <= MAX_GAMES:
        raise GameError(f"--games {args.games}: give 1 to {MAX_GAMES:,} games")
    if not 1 <= args.every <= 1000:
        raise GameError(f"--every {args.every}: give 1 to 1000 decisions")
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
    path = positions_path(args.out)
    check_destination(path, "the positions file")
    if args.overwrite and os.path.isfile(path):
        os.unlink(path)
    done = read_done(path, specs, args.every)
    jobs = min(args.jobs or default_jobs(), max(1, args.games - len(done)))
    if done:
        print(f"continuing {path}: {len(done)} of {args.games} games already played")
    t0 = time.perf_counter()
    cargs = ContentArgs(tuple(args.content_dir or ()), tuple(e for e in (args.expansions or "").split(",") if e))
    rows, interrupted = _play_all(specs, done, path, cargs, content, jobs, args.every)
    played = time.perf_counter() - t0
    if interrupted:
        print(f"necro: interrupted after {len(rows)} of {args.games} games (kept in {path}); "
              "run the same command again to continue", file=sys.stderr)
        return 130
    samples = [x for r in sorted(rows, key=lambda r: r["game"]) for x in samples_of_row(r)]
    info: dict[str, Any] = {"ruleset": ruleset, "players": players, "seed": args.seed, "agents": agents,
                            "every": args.every,
                            "content_dirs": [os.path.basename(os.path.normpath(d)) for d in args.content_dir or []],
                            "expansions": [e for e in (args.expansions or "").split(",") if e],
                            "failed_games": sum(1 for r in rows if r.get("error"))}
    model = fit(samples, content.digest, info)
    model.save(args.out)
    figs = model.info
    held = (f"; held-out games: log loss {figs['held_out_log_loss']} (outcome frequencies alone: "
            f"{figs['held_out_base_log_loss']}), likeliest outcome right {100 * figs['held_out_top_outcome_right']:.1f}%"
            if "held_out_log_loss" in figs else "")
    print(f"trained on {figs['positions']:,} positions of {figs['games']} games ({ruleset}, {players} players; "
          f"{len(rows) - len(done)} played in {played:.0f} s on {jobs} job{'s' if jobs > 1 else ''}){held}")
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
    t.add_argument("--every", type=int, default=EVERY, help=f"decisions between two positions noted (default {EVERY})")
    t.add_argument("--jobs", type=int, help="worker processes (default: all cores)")
    t.add_argument("--out", default="evaluation.json", help="the evaluation file to write (default evaluation.json); "
                   "each game's positions are appended to OUT-STEM.positions.jsonl beside it as the game "
                   "finishes, and the same command run again continues them")
    t.add_argument("--overwrite", action="store_true", help="start the positions file again")
