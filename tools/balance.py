"""`necro balance`: one command for a designer. It plays every matchup of the chosen factions with
search bots in every seat, at the budget asked and at a quarter of it, over every core (the
process pool `necro simulate` uses), for at most `--time-limit` minutes, and writes the report
(tools/balance_report.py) and plots into `--out DIR`.

Pair k of games plays the k-th matchup of `balanced_order` (each matchup once before any twice),
seed `--seed + k`: game 2k at the full budget, game 2k+1 at the quarter budget, so both budgets
see the same matchups, seats and seeds, and the time limit cuts both alike. An hour on two cores
plays a few dozen pairs of the 35 matchups of seven factions at three players, so the order is
what makes such a run readable: every prefix of it gives each faction about its share of games
and seats (the alphabetical order gave the first faction 15 games before the last had one).
After `--time-limit` minutes no new game starts and the games under way may finish within a
tenth of the limit more (`GRACE`; a search-bot game on a busy machine takes minutes, and
dropping it wastes them); then the report is written, so a run at the defaults ends within the
hour. Every game's row is appended to DIR/games.jsonl as it finishes (tools/result_stream.py),
so the same command run again (after Ctrl-C, a kill or the time limit) continues where it
stopped; changed settings are refused unless `--overwrite`.
"""
from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.diagnostics import did_you_mean
from necronomicon.interpreter.engine.game import Game, GameError
from necronomicon.interpreter.search.budget import parse_agent

from .batch import finish, play_batch, streamed
from .balance_report import ranking_stability, write_report_text
from .display_names import DisplayNames
from .loading import add_table_options, content_from_args
from .preflight import check_seed, pick_ruleset, player_count
from .result_stream import ResultSink
from .runners import ContentArgs, default_jobs, new_ticks, run
from .simulate import GameSpec, eligible_factions, matchups

# Playouts a decision (reproducible); a quarter is 5. Measured on docs/modding.md's example at three
# players (Python engine, 2026-12-05): a decision costs 0.0057 CPU s a playout (0.058 s at 10, 0.114 at
# 20), and stronger bots play longer games (one matchup: 190 decisions at 10 playouts, 642 at 40). The
# pair measured at 40 and 10 took 166 CPU s (quarter games alone: 10-19 s), so an idle two-core hour
# would play some 35 pairs: one game a matchup of the 35, and 95% intervals some 40 points wide. At 20
# and 5 a pair is estimated at a third of that, so the hour gives each faction about three times the
# games, with bots that still search (a quarter of 20 is close to the heuristic bot: the stability line
# then says whether search changes the ranking at all).
DEFAULT_BUDGET = "20"
DEFAULT_MINUTES = 50.0         # the default time limit: a designer's run ends within the hour
GRACE = 0.1                    # after the time limit, the games under way may finish in a tenth of it more
MAX_PAIRS = 100_000
HEARTBEAT = 30.0

__all__ = ["add_parser", "cmd_balance", "plan_balance", "quarter_budget"]


def quarter_budget(budget: str) -> str:
    """A quarter of a budget: `20` -> `5` playouts (at least 1), `0.5s` -> `0.125s`."""
    if budget.endswith("s"):
        return f"{float(budget[:-1]) / 4:g}s"
    return str(max(1, int(budget) // 4))


def agent_names(budget: str, evaluation: str | None) -> tuple[str, str]:
    """The search bots of the full and the quarter budget, as canonical agent names (with a learned
    evaluation, rollouts are cut off after 10 decisions: it values the position there)."""
    tail = f":depth=10:eval={evaluation}" if evaluation else ""
    return (parse_agent(f"mcts:{budget}{tail}").label(), parse_agent(f"mcts:{quarter_budget(budget)}{tail}").label())


def _budget_ok(budget: str) -> bool:
    try:
        parse_agent(f"mcts:{budget}")
    except ValueError:
        return False
    return budget.endswith("s") or budget.isdigit()


def pick_pool(content: Content, factions: str | None, players: int) -> list[str]:
    """The factions whose matchups are played: `--factions` (checked by name) or every eligible one."""
    pool = eligible_factions(content)
    if factions is None:
        return pool
    names = [f.strip() for f in factions.split(",") if f.strip()]
    for f in names:
        if f not in content.model.factions:
            raise GameError(f"--factions: unknown faction '{f}'{did_you_mean(f, content.model.factions)}")
        if f not in pool:
            raise GameError(f"--factions: '{f}' has unknown card data and cannot be set up")
    if len(set(names)) < players:
        raise GameError(f"--factions names {len(set(names))} faction(s); {players} players need at least {players}")
    return sorted(set(names))


def balanced_order(ms: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The matchups in the order they are played: each next one is the matchup whose factions have
    been seen least so far (fewest appearances of its most-seen faction, then fewest in all, then
    the earlier in `ms`), so that every prefix of the order gives every faction about its share of
    games and a run stopped by the time limit has games for every faction, not only the first
    alphabetically."""
    seen: dict[str, int] = {f: 0 for m in ms for f in m}
    left = list(range(len(ms)))
    order = []
    while left:
        i = min(left, key=lambda j: (max(seen[f] for f in ms[j]), sum(seen[f] for f in ms[j]), j))
        left.remove(i)
        order.append(ms[i])
        for f in ms[i]:
            seen[f] += 1
    return order


def plan_balance(ms: list[tuple[str, ...]], pairs: int, seed: int, ruleset: str, agents: tuple[str, str],
                 layout: str | None) -> list[GameSpec]:
    """Pairs of games (full budget, quarter budget) over every matchup in `balanced_order`, each
    matchup once before any twice. Each pair's seating is, among the rotations its matchup has had
    fewest times, the one that sits its factions in the seats they have had least (the first of
    equals), so seats are spread from the first games on and every rotation comes round."""
    order = balanced_order(ms)
    rotations: dict[tuple[str, ...], list[int]] = {m: [0] * len(m) for m in order}
    at_seat: dict[tuple[str, int], int] = {}
    specs = []
    for k in range(pairs):
        m = order[k % len(order)]
        used = rotations[m]
        fewest = min(used)
        r = min((r for r in range(len(m)) if used[r] == fewest),
                key=lambda r: (sum(at_seat.get((f, i), 0) for i, f in enumerate(m[r:] + m[:r])), r))
        used[r] += 1
        seats = tuple(m[r:] + m[:r])
        for i, f in enumerate(seats):
            at_seat[f, i] = at_seat.get((f, i), 0) + 1
        for j, agent in enumerate(agents):
            specs.append(GameSpec(2 * k + j, seed + k, ruleset, seats, (agent,) * len(seats), layout))
    return specs


def cmd_balance(args: argparse.Namespace) -> int:
    """Play (or continue) the balance batch within the time limit, then write the report."""
    content = content_from_args(args)
    ruleset = pick_ruleset(content, args.ruleset)
    players = player_count(content, ruleset, args.players)
    pool = pick_pool(content, args.factions, players)
    ms = [m for m in matchups(content, ruleset, players) if set(m) <= set(pool)]
    if not _budget_ok(args.budget):
        raise GameError(f"--budget '{args.budget}': give playouts (40) or CPU seconds (0.5s) a decision")
    agents = agent_names(args.budget, args.eval)
    for a in agents:
        bot: Any = make_agent(a, 0)   # a bad evaluation file is one clear line, before any work
        if bot.evaluation is not None:
            bot.evaluation.check_content(content.digest)
    pairs = args.games if args.games is not None else len(ms) * players * 2
    if not 1 <= pairs <= MAX_PAIRS:
        raise GameError(f"--games {pairs}: give 1 to {MAX_PAIRS:,} pairs of games")
    if not 0 < args.time_limit <= 7 * 24 * 60:
        raise GameError(f"--time-limit {args.time_limit:g}: give minutes above 0, at most a week")
    if args.jobs is not None and args.jobs < 1:
        raise ValueError("--jobs must be 1 or more")
    check_seed(args.seed)
    check_seed(args.seed + pairs - 1, "--seed plus --games")
    Game(content, ruleset, list(ms[0]), args.seed, args.map)   # a bad --map is one line, before any work
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise OSError(f"--out '{args.out}' is a file; name a folder")
    out.mkdir(parents=True, exist_ok=True)
    specs = plan_balance(ms, pairs, args.seed, ruleset, agents, args.map)
    sink = ResultSink.open(str(out / "games.jsonl"), "jsonl", specs, overwrite=args.overwrite)
    if sink.previous:
        print(f"necro: continuing {out / 'games.jsonl'}: {len(sink.previous)} of {len(specs)} games are there already",
              file=sys.stderr)
    done = sink.done()
    todo = [s for s in specs if s.index not in done]
    jobs = args.jobs or default_jobs()
    start = time.monotonic()
    closing, deadline = start + 60 * args.time_limit, start + 60 * args.time_limit * (1 + GRACE)
    progress = not args.no_progress and sys.stderr.isatty()
    ticks = new_ticks() if not args.no_progress else None
    cargs = ContentArgs(tuple(args.content_dir or ()), tuple(e for e in (args.expansions or "").split(",") if e))
    late = [False]

    def out_of_time() -> bool:   # the games under way are dropped
        return time.monotonic() >= deadline or sink.error is not None

    def closing_time() -> bool:  # no new game starts; the ones under way play on
        late[0] = late[0] or time.monotonic() >= closing
        return late[0]
    result = play_batch(todo, lambda stop: streamed(
        run(todo, cargs, jobs=jobs, content=content, stop=lambda: stop() or out_of_time(), ticks=ticks,
            drain=closing_time), sink),
        progress, ticks=ticks, heartbeat=None if progress or args.no_progress else HEARTBEAT, label="balance")
    result.planned = len(specs)
    code = finish(result, sink, ruleset, f"{jobs} job{'s' if jobs > 1 else ''}", names=DisplayNames.of(content.model))
    rows = result.rows
    if late[0] and len(rows) < len(specs):
        print(f"necro: the time limit ({args.time_limit:g} min) stopped the batch after {len(rows)} of {len(specs)} "
              "games; run the same command again to continue", file=sys.stderr)
    stopped = (f"the time limit ({args.time_limit:g} min) stopped it after {len(rows)} of the {len(specs)} games planned; "
               "the same command again adds games" if late[0] and len(rows) < len(specs) else "")
    write_report(out, rows, agents, content, ruleset, players, args, stopped, len(ms))
    return code


def write_report(out: Path, rows: list[dict[str, Any]], agents: tuple[str, str], content: Content, ruleset: str,
                 players: int, args: argparse.Namespace, stopped: str = "", matchup_count: int = 0) -> None:
    """DIR/report.md and DIR/plots/ (full budget) and DIR/plots-quarter/ from the finished games;
    the header says what played, why it stopped (`stopped`) and how many of the `matchup_count`
    matchups have a game."""
    full = [r for r in rows if r["game"] % 2 == 0]
    quarter = [r for r in rows if r["game"] % 2 == 1]
    names = DisplayNames.of(content.model)
    command = "necro balance " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if sys.argv[1:2] == ["balance"] else ""
    header = ["# Balance report", "",
              f"{len(full)} games at the full budget and {len(quarter)} at a quarter of it; {ruleset}, "
              f"{players} players; content digest `{content.digest}`; search bots in every seat"
              + (f"; {stopped}." if stopped else "."),
              *([f"Made by `{command}`."] if command else [])]
    if matchup_count:
        seen = len({tuple(sorted(r["factions"])) for r in full})
        header += ["", f"{seen} of the {matchup_count} matchups have a game at the full budget (each matchup gets one "
                       "before any gets a second, and every faction about its share of games and seats)."]
    text = write_report_text(full, quarter, agents, header, names)
    plots: list[str] = []
    if full or quarter:
        from .plots import write_plots
        from .report import compute
        for folder, part in (("plots", full), ("plots-quarter", quarter)):
            if part and any(r.get("outcome") != "error" for r in part):
                plots += [str(p.relative_to(out)) for p in write_plots(compute(part), part, out / folder, content.model)]
    if plots:
        text += "\n## Plots\n\n" + "\n".join(f"![{p}]({p})" for p in plots) + "\n"
    (out / "report.md").write_text(text, encoding="utf-8")
    print(ranking_stability(full, quarter, names)["line"])
    print(f"wrote {out / 'report.md'}" + (f" and {len(plots)} plots" if plots else ""))


def add_parser(sub: Any) -> None:
    """The `necro balance` sub-command's options."""
    b = sub.add_parser("balance", help="play every matchup with search bots at two budgets and write a balance report")
    add_table_options(b)
    b.add_argument("--factions", help="comma list: the factions whose matchups are played (default: every one)")
    b.add_argument("--budget", default=DEFAULT_BUDGET, help="the search bot's budget a decision: playouts (20, "
                   "the default) or CPU seconds (0.5s); a quarter of it is played too")
    b.add_argument("--eval", metavar="FILE", help="a learned evaluation for the search bots (necro train)")
    b.add_argument("--games", type=int, help="pairs of games (one per budget); default: every matchup in every "
                   "seat rotation twice")
    b.add_argument("--time-limit", type=float, default=DEFAULT_MINUTES,
                   help=f"minutes in which games are started (default {DEFAULT_MINUTES:g}); the games under way then "
                   f"may finish in a tenth of that more ({DEFAULT_MINUTES * GRACE:g}), then the report is written; "
                   "run again to continue")
    b.add_argument("--seed", type=int, default=1, help="the first pair's seed; pair k uses seed + k")
    b.add_argument("--jobs", type=int, help="worker processes (default: all cores)")
    b.add_argument("--out", default="balance", help="the folder for games.jsonl, report.md and plots (default balance)")
    b.add_argument("--overwrite", action="store_true", help="start the folder's games again (other settings)")
    b.add_argument("--no-progress", action="store_true", help="no progress bar or progress lines")
