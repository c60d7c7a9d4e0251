"""The `necro` command."""
from __future__ import annotations

import argparse
import sys

from necronomicon.interpreter.diagnostics import ContentError
from necronomicon.interpreter.engine.decisions import IllegalAction
from necronomicon.interpreter.engine.game import Game, GameError, replay
from necronomicon.interpreter.bots import is_search, make_agent
from necronomicon.interpreter.engine.invariants import InvariantError
from necronomicon.interpreter.engine.savefile import GameLog, read_log, read_save

from .auto_answers import AutoAnswers
from .game_setup import SEATINGS, Setup, make_game
from .loading import content_from_args
from .preflight import check_destination, check_seed, pick_factions, pick_ruleset, player_count
from .validate import validate


def _auto_flag(text: str) -> tuple[str, ...]:
    """`--auto`: none, or a comma list of one-option and end-turn."""
    words = tuple(w.strip() for w in text.split(",") if w.strip())
    if words == ("none",):
        return ()
    bad = [w for w in words if w not in ("one-option", "end-turn")]
    if bad or not words:
        raise argparse.ArgumentTypeError(f"'{text[:60]}': give none, or a comma list of one-option and end-turn")
    return words


def _content(args: argparse.Namespace, log: GameLog | None = None):  # noqa: ANN202
    return content_from_args(args, log)


def _new_game(args: argparse.Namespace) -> Game:
    args.seed = 1 if args.seed is None else args.seed
    check_seed(args.seed)
    content = _content(args)
    ruleset = pick_ruleset(content, args.ruleset)
    factions = pick_factions(content, ruleset, args.players, args.factions)
    independents = None if args.independents is None else tuple(c for c in args.independents.split(",") if c)
    return make_game(content, Setup(ruleset, tuple(factions), args.seed, args.map, args.seating, args.first,
                                    independents))


def _resumed_game(args: argparse.Namespace) -> Game:
    """The game in a save file, over the expansions it was played with (unless --expansions), with
    the seats the save keeps (unless --agents; a save without seats: heuristic bots)."""
    from .saves import load_saved_game, saved_seats
    given = [f"--{k}" for k in ("ruleset", "players", "factions", "map", "independents", "first") if getattr(args, k) is not None]
    given += ["--seating"] if args.seating != "as-given" else []
    if given:
        raise GameError(f"--resume continues the saved game's own set-up; drop {', '.join(given)}")
    data = read_save(args.resume)   # through the size cap, with bounded numbers and depth
    if args.expansions is None:
        params = data.get("params")
        exps = params.get("expansions", []) if isinstance(params, dict) else []
        args.expansions = ",".join(exps) if isinstance(exps, list) and all(isinstance(e, str) for e in exps) else ""
    game = load_saved_game(_content(args), args.resume, data)
    if args.agents is None:
        seats = saved_seats(data, game.params["factions"], args.resume)
        args.agents = ",".join(seats) if seats else "heuristic"
    if args.seed is None:
        args.seed = game.params["seed"]   # the bots are seeded as in the game that was saved
    check_seed(args.seed)
    return game


def cmd_play(args: argparse.Namespace) -> int:
    from .play_session import make_seats, play_session
    if args.log:
        check_destination(args.log, "--log")
    game = _resumed_game(args) if args.resume else _new_game(args)
    names = [a.strip() for a in (args.agents or "heuristic").split(",")]
    agents, seat = make_seats(game.params["factions"], names, args.seed,
                              out=sys.stderr if args.format == "json" else None)
    seats = dict(zip(game.params["factions"], names * len(game.params["factions"]) if len(names) == 1 else names))
    if args.resume and args.format != "json":
        from .words import words_for
        print(f"resumed {args.resume}: {len(game.choices)} decisions so far, round {game.s.round}; seats: "
              + ", ".join(f"{words_for(game.content, args.ids).name(f)} {a}" for f, a in seats.items()))
    auto = AutoAnswers(one_option="one-option" in args.auto, end_turn="end-turn" in args.auto)
    return play_session(game, agents, seat, quiet=args.quiet, check=args.check, log=args.log, fmt=args.format,
                        seats=seats, ids=args.ids, auto=auto)


def cmd_replay(args: argparse.Namespace) -> int:
    if args.upto is not None and args.upto < 0:
        raise GameError(f"--upto {args.upto}: give 0 or more choices")
    log = read_log(args.file)
    content = _content(args, log)
    game = replay(content, log, args.upto)
    if args.upto is None and log.error is not None:
        return _replay_failure(game, log)
    diverged = args.upto is None and log.digest is not None and log.digest != game.digest()
    if log.partial:
        cut = "; its last line was cut off and is left out" if log.cut else ""
        print(f"necro: {args.file} is a partial log: the game stopped (was it killed?) before its log was "
              f"finished{cut}; replayed the {len(log.choices)} answers it has", file=sys.stderr)
    if getattr(args, "format", "text") == "json":
        import json
        from .play_session import summary
        print(json.dumps({**summary(game), "log_digest": log.digest, "diverged": diverged, "upto": args.upto,
                          "partial": log.partial}, sort_keys=True))
        return 1 if diverged else 0
    if diverged:
        print(f"replay diverged: log digest {log.digest}, replayed {game.digest()}", file=sys.stderr)
        return 1
    from .words import words_for
    print(words_for(game.content).text(game.result_line() if game.s.over else   # in words, as `necro play` says it
          f"game not over: round {game.s.round}, {len(game.choices)} decisions, next: {game.pending.player if game.pending else '-'}"))
    return 0


def _replay_failure(game: Game, log: GameLog) -> int:
    """A log of a failed game: replay up to the failure, then give the failing answer again."""
    err = log.error or {}
    answer = err.get("answer")
    if answer is not None:
        try:
            game.apply(answer)
        except (GameError, IllegalAction) as exc:
            print(f"necro: the logged failure recurs after {len(log.choices)} choices, answering '{answer}': {exc}",
                  file=sys.stderr)
            return 1
    print(f"necro: the game failed after {len(log.choices)} choices: {err.get('message')}"
          + ("" if answer is None else f" (answering '{answer}' now succeeds: the failure did not recur)"),
          file=sys.stderr)
    return 1


def cmd_scenario(args: argparse.Namespace) -> int:
    from .scenario import run_scenarios
    return run_scenarios(args.files, content_dirs=args.content_dir or [])


MAX_GAMES = 1_000_000  # games in one `necro simulate` (the plan is held in memory)
HEARTBEAT = 30.0       # seconds between plain progress lines of search-bot batches without a terminal


def cmd_simulate(args: argparse.Namespace) -> int:
    from .batch import finish, play_batch, streamed
    from .display_names import DisplayNames
    from .result_stream import ResultSink
    from .results import file_format
    from .runners import ContentArgs, default_jobs, new_ticks, run
    from .simulate import matchups, plan
    content = _content(args)
    ruleset = pick_ruleset(content, args.ruleset)
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if "human" in agents:
        raise GameError("necro simulate plays bots only; choose random or heuristic agents")
    for a in agents:
        make_agent(a, 0)  # an unknown agent is one clear line, before any work
    if not 0 <= args.games <= MAX_GAMES:
        raise GameError(f"--games {args.games}: give 0 to {MAX_GAMES:,} games")
    check_seed(args.seed)
    check_seed(args.seed + max(args.games - 1, 0), "--seed plus --games")
    if args.all_matchups:
        if args.factions:
            raise GameError("give either --factions or --all-matchups, not both")
        n = player_count(content, ruleset, args.players)
        specs = plan(ruleset, args.games, args.seed, agents, all_matchups=matchups(content, ruleset, n), layout=args.map)
    else:
        factions = pick_factions(content, ruleset, args.players, args.factions)
        Game(content, ruleset, factions, args.seed, args.map)  # refuses a bad set-up with one clear line, before any work
        specs = plan(ruleset, args.games, args.seed, agents, factions=factions, layout=args.map)
    sink = None
    if args.out:  # refuse a bad destination before the games, not after them
        check_destination(args.out, "--out")
        file_format(args.out, args.format)
        sink = ResultSink.open(args.out, args.format, specs, overwrite=args.overwrite)   # continues a file of this batch
        if sink.previous:
            cut = " (its cut-off last line dropped)" if sink.dropped else ""
            print(f"necro: continuing {args.out}{cut}: {len(sink.previous)} of {len(specs)} games are there already",
                  file=sys.stderr)
        done = sink.done()
        specs = [s for s in specs if s.index not in done]
    cargs = ContentArgs(tuple(args.content_dir or ()), tuple(e for e in (args.expansions or "").split(",") if e))
    if args.jobs is not None and args.jobs < 1:
        raise ValueError("--jobs must be 1 or more")
    if args.backend == "ray":
        jobs_text = "ray backend" + (f" at {args.address}" if args.address else " (local)")
    else:
        jobs = args.jobs or default_jobs()
        jobs_text = f"{jobs} job{'s' if jobs > 1 else ''}"
    progress = not args.no_progress and sys.stderr.isatty()
    # search bots' games are slow: without a terminal, a plain line now and then says how far it got
    heartbeat = HEARTBEAT if not args.no_progress and not progress and any(is_search(a) for a in agents) else None
    ticks = new_ticks() if (progress or heartbeat) and args.backend != "ray" else None   # decisions, inside games too
    failed = (lambda: sink.error is not None) if sink is not None else (lambda: False)  # a full disk stops the batch
    result = play_batch(specs, lambda stop: streamed(
        run(specs, cargs, backend=args.backend, jobs=args.jobs, address=args.address, content=content,
            stop=lambda: stop() or failed(), ticks=ticks), sink), progress, ticks=ticks, heartbeat=heartbeat)
    result.planned = args.games
    return finish(result, sink, ruleset, jobs_text, names=DisplayNames.of(content.model))


def cmd_report(args: argparse.Namespace) -> int:
    from .report import report
    return report(args.file, fmt=args.input_format, output=args.format, plots=args.plots)


class _Version(argparse.Action):
    """`necro --version`: the package's version and the engine's build (read only when asked)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        from necronomicon.interpreter.build_info import engine_build
        try:
            v = version("necronomicon")
        except PackageNotFoundError:
            v = "(not installed)"
        print(f"necro {v}; engine: {engine_build().describe()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="necro", description="The rules-as-data board game engine: validate content, play, replay, run scenarios, simulate, report and show cards, maps and positions.")
    p.add_argument("--version", action=_Version, nargs=0, help="the version, and whether the engine is compiled")
    sub = p.add_subparsers(dest="command")
    v = sub.add_parser("validate", help="check content folders (built-in content when none given)")
    v.add_argument("dirs", nargs="*", help="folders layered over the built-in content")
    v.add_argument("--only", action="store_true", help="check the folders alone, as a complete content tree")
    v.add_argument("--format", choices=["text", "json"], default="text")
    v.add_argument("--all-warnings", action="store_true",
                   help="with folders to check, list the built-in content's own warnings too (default: one summary line)")
    pl = sub.add_parser("play", help="play one complete seeded game between bots")
    pl.add_argument("--seed", type=int, help="the game's seed (default 1); with --resume, the bots' (default: the saved game's)")
    pl.add_argument("--ruleset")
    pl.add_argument("--players", type=int)
    pl.add_argument("--factions", help="comma list, in seating order; an entry 'random' is drawn by the seeded "
                    "generator from the factions not named")
    pl.add_argument("--seating", choices=SEATINGS, default="as-given",
                    help="random: the factions sit in an order drawn by the seeded generator")
    pl.add_argument("--first", metavar="FACTION", help="the first player at the start, or 'random' (drawn by the "
                    "seeded generator), where the factions' setup rules leave a choice (a faction that must go "
                    "first does; one that may not, does not); default: alphabetical by faction name, as the "
                    "rulebook recommends")
    pl.add_argument("--agents", help="one agent for all seats or a comma list per seat "
                    "(random, heuristic, human, mcts[:budget][:policy]); default heuristic, or with --resume the "
                    "seats the save keeps")
    pl.add_argument("--map", help="map layout id (default: the ruleset's for this player count)")
    pl.add_argument("--log", help="write the JSON-lines game log here")
    pl.add_argument("--expansions", help="comma list of expansions to enable")
    pl.add_argument("--independents", help="comma list of Independent Great Old Ones (loyalty cards) in the game; "
                    "default: every playable one whose faction is not playing")
    pl.add_argument("--content-dir", action="append", help="a modder's folder layered over the content")
    pl.add_argument("--quiet", action="store_true", help="print only the result line")
    pl.add_argument("--check", action="store_true", help="verify the engine's invariants after every logged event and every decision")
    pl.add_argument("--resume", metavar="FILE", help="continue a saved game (written by `save FILE`, `quit`, Ctrl-C or end of input)")
    pl.add_argument("--format", choices=["text", "json"], default="text", help="json: one JSON object at the end, no log")
    pl.add_argument("--auto", type=_auto_flag, default=("one-option",), metavar="LIST",
                    help="what the human seats let the terminal answer for them: one-option (a decision whose "
                    "options are all alike; the default), end-turn (end the turn when only Unlimited Actions "
                    "are left), both as one-option,end-turn, or none")
    pl.add_argument("--ids", action="store_true",
                    help="the log and the prompts name things by their content ids (lower-case-with-hyphens), as files do, not by name")
    r = sub.add_parser("replay", help="replay a game log and print its result")
    r.add_argument("file")
    r.add_argument("--upto", type=int, help="stop after this many choices")
    r.add_argument("--expansions", help="comma list (default: the expansions recorded in the log)")
    r.add_argument("--content-dir", action="append")
    r.add_argument("--format", choices=["text", "json"], default="text", help="json: the result as one JSON object")
    si = sub.add_parser("simulate", help="play many seeded bot games (in parallel) and write one result row per game")
    si.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    si.add_argument("--seed", type=int, default=1, help="the first game's seed; game i uses seed + i")
    si.add_argument("--ruleset")
    si.add_argument("--players", type=int)
    si.add_argument("--factions", help="comma list, in seating order (the same for every game)")
    si.add_argument("--all-matchups", action="store_true",
                    help="spread the games over every combination of the eligible factions")
    si.add_argument("--agents", default="heuristic", help="one agent for all seats or a comma list per seat: "
                    "random, heuristic, or the search bot mcts[:400|:0.5s][:random|:heuristic][:depth=N][:c=X]")
    si.add_argument("--map", help="map layout id for every game (default: the ruleset's for the player count)")
    si.add_argument("--expansions", help="comma list of expansions to enable")
    si.add_argument("--content-dir", action="append", help="a modder's folder layered over the content")
    si.add_argument("--jobs", type=int, help="worker processes (default: all cores)")
    si.add_argument("--backend", choices=["process", "ray"], default="process")
    si.add_argument("--address", help="the Ray cluster to join (default: start Ray here)")
    si.add_argument("--out", help="results file: .jsonl or .csv; each game's row is appended as it finishes, "
                    "and the same command run again continues it")
    si.add_argument("--format", choices=["jsonl", "csv"], help="results format (default: from --out's extension)")
    si.add_argument("--overwrite", action="store_true", help="start --out again; without it an existing file of "
                    "the same batch is continued (its games skipped) and a file of another batch is refused")
    si.add_argument("--no-progress", action="store_true", help="no progress bar (it shows only on a terminal; without one, search-bot batches print a progress line every 30 s)")
    rp = sub.add_parser("report", help="win rates, first-player advantage, game length and plots from a results file")
    rp.add_argument("file", help="a `necro simulate` results file (.jsonl or .csv)")
    rp.add_argument("--input-format", choices=["jsonl", "csv"], help="the file's format (default: from its extension)")
    rp.add_argument("--format", choices=["text", "json"], default="text")
    rp.add_argument("--plots", help="write PNG plots into this folder")
    sc = sub.add_parser("scenario", help="run scenario files")
    sc.add_argument("files", nargs="+")
    sc.add_argument("--content-dir", action="append")
    from .show import add_parser as add_show_parser
    add_show_parser(sub)
    from .web.serve import add_parser as add_serve_parser
    add_serve_parser(sub)
    from .train import add_parser as add_train_parser
    add_train_parser(sub)
    from .balance import add_parser as add_balance_parser
    add_balance_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "validate":
            return validate(args.dirs, args.only, args.format, all_warnings=args.all_warnings)
        if args.command == "play" or args.command is None:
            if args.command is None:
                args = build_parser().parse_args(["play"])
            return cmd_play(args)
        if args.command == "replay":
            return cmd_replay(args)
        if args.command == "scenario":
            return cmd_scenario(args)
        if args.command == "show":
            from .show import cmd_show
            return cmd_show(args)
        if args.command == "simulate":
            return cmd_simulate(args)
        if args.command == "report":
            return cmd_report(args)
        if args.command == "train":
            from .train import cmd_train
            return cmd_train(args)
        if args.command == "balance":
            from .balance import cmd_balance
            return cmd_balance(args)
        if args.command == "serve":
            from .web.serve import cmd_serve
            return cmd_serve(args)
    except ContentError as exc:
        for d in exc.diagnostics:
            print(d.render(), file=sys.stderr)
        return 1
    except BrokenPipeError:
        raise
    except (GameError, IllegalAction, OSError, ValueError, InvariantError) as exc:
        print(f"necro: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C outside a batch's own handling (loading content, setting up)
        print("necro: interrupted", file=sys.stderr)
        return 130
    return 2


def entry() -> None:
    """The console script: like main(), but quiet when the reader goes away (e.g. `| head`) or
    standard output or error was closed (`>&-`: what would go there is dropped). The first run
    after an install that fell back to pure Python says so (`first_run_notice`)."""
    import os
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 - for the process's life
    from necronomicon.interpreter.build_info import first_run_notice
    notice = first_run_notice()
    if notice:
        print(notice, file=sys.stderr)
    try:
        code = main()
        sys.stdout.flush()
    except KeyboardInterrupt:  # between main's own handling and the exit
        print("necro: interrupted", file=sys.stderr)
        code = 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code)


if __name__ == "__main__":
    entry()
