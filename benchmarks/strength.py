"""How strong is the search bot? The issue's strength experiments (issue 15, 'Strength, measured').

- `duel`: one search seat against one heuristic seat; game i plays Duel matchup (i // 2) mod M
  (every pair of eligible factions) with the search bot in seat i mod 2, so seats alternate and
  every faction is piloted by both bots.
- `four`: one search seat among three heuristic seats; game i plays 4-player matchup i mod M
  (every four eligible factions), its seats rotated by (i // M) mod 4, the search bot in seat i mod 4.
- `table`: four search bots, every 4-player matchup, seats rotated (as `necro simulate
  --all-matchups`): the factions' win rates with 95% intervals, and the report's plots.

Game i of an experiment uses seed `--seed + i` and its seats' bots the seeds `necro play` gives
them, so `necro play --seed S --factions ... --agents ...` replays any game. Every finished game
is appended at once to `OUT/<experiment>-<agent>.jsonl` as a `necro simulate` result row, so a
long run can be stopped (Ctrl-C) and continued by running the same command again: games already
in the file are not played again. `necro report FILE` reads the files too.

`--factions F,G` plays only the games of the plan whose search seat plays one of those factions
(the same games, seeds and seats as the whole plan, so two bots' runs pair up game for game, and a
later run without the filter plays the rest into the same file).

Printed per experiment, from every row in its file: the search bot's win rate with its 95%
Wilson interval and the fair share (a shared victory counts as a win), games nobody won, and by
the faction the search seat played: games, wins, games in which it held all six spellbooks, and
its mean spellbooks and Doom at the end; for
`table`, the faction table, labelled with the bots, and the plots written (`necro report`'s,
whose titles name the agents). A time budget (`0.5s`) is CPU time per decision, so "at most 0.5 s
a decision on one core" holds by construction; run with `--jobs` no higher than the free cores.

`--pair B` plays every game twice, with the search bot `--agent` and with B, one after the
other (each bot's rows in its own file, as a run of its own writes them), and prints how the
pairs went: both won, only one of them won, neither (a paired comparison of two settings on the
same seeds and seats, stoppable and continued like any run).

    python -m benchmarks.strength --games 100 --budget 0.5s --jobs 2              # the issue's sizes
    python -m benchmarks.strength --experiment four --agent mcts:30:seek=1 --pair mcts:30:seek=1:progress=1 \
        --factions black-goat,wind-rider --games 60                             # two settings, paired
    python -m benchmarks.strength --experiment duel --games 2 --budget 4 --out /tmp/s   # a smoke run
"""
from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from pathlib import Path
from typing import Any, Callable

_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(_ROOT))
from benchmarks.engine_choice import use_checkout_code  # noqa: E402

sys.path.remove(str(_ROOT))
use_checkout_code(_ROOT, sys.argv)   # this checkout's code, compiled where an installed build has it

from necronomicon.interpreter.bots import agent_label, is_search, make_agent
from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.tools.batch import _CtrlC
from necronomicon.tools.results import FIELDS
from necronomicon.tools.runners import ContentArgs, run
from necronomicon.tools.simulate import GameSpec, eligible_factions, matchups
from necronomicon.tools.stats import wilson

EXPERIMENTS = ("duel", "four", "table")
Row = dict[str, Any]


def plan(experiment: str, games: int, seed: int, agent: str, content: Content) -> list[GameSpec]:
    """The experiment's games, as the module docstring describes (agents recorded with their settings)."""
    search, heuristic = agent_label(agent), "heuristic"
    if experiment == "duel":
        ms = list(itertools.combinations(eligible_factions(content), 2))
        out = []
        for i in range(games):
            seats = ms[(i // 2) % len(ms)]
            agents = (search, heuristic) if i % 2 == 0 else (heuristic, search)
            out.append(GameSpec(i, seed + i, "duel", tuple(seats), agents))
        return out
    ms = matchups(content, "multiplayer", 4)
    out = []
    for i in range(games):
        m = ms[i % len(ms)]
        k = (i // len(ms)) % 4
        seats = tuple(m[k:] + m[:k])
        agents = (search,) * 4 if experiment == "table" else tuple(search if j == i % 4 else heuristic for j in range(4))
        out.append(GameSpec(i, seed + i, "multiplayer", seats, agents))
    return out


def search_faction(spec_or_row: GameSpec | Row) -> str | None:
    """The faction of the (first) search seat of a planned game or a result row; None without one."""
    factions, agents = (spec_or_row.factions, spec_or_row.agents) if isinstance(spec_or_row, GameSpec) \
        else (spec_or_row["factions"], spec_or_row["agents"])
    return next((f for f, a in zip(factions, agents) if is_search(a)), None)


def only_factions(specs: list[GameSpec], factions: list[str], content: Content) -> list[GameSpec]:
    """The specs whose search seat plays one of `factions` (SystemExit naming an unknown one)."""
    known = eligible_factions(content)
    for f in factions:
        if f not in known:
            raise SystemExit(f"strength: --factions: unknown faction '{f}'; one of: {', '.join(known)}")
    return [s for s in specs if search_faction(s) in factions]


def results_file(out: Path, experiment: str, agent: str) -> Path:
    """Where an experiment's rows go: one file per experiment and search bot setting."""
    return out / f"{experiment}-{re.sub(r'[^A-Za-z0-9.=-]+', '_', agent_label(agent))}.jsonl"


def load_done(path: Path, specs: list[GameSpec]) -> dict[int, Row]:
    """The rows already in `path` (a torn last line, from a run killed mid-write, is dropped);
    a row whose game differs from the plan's is refused (another experiment's file)."""
    if not path.is_file():
        return {}
    rows: dict[int, Row] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    good = []
    for n, line in enumerate(lines, 1):
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            if n == len(lines):
                break       # torn by a kill: the game is played again
            raise SystemExit(f"strength: {path}:{n}: not a result row") from None
        i = r.get("game")
        spec = specs[i] if isinstance(i, int) and 0 <= i < len(specs) else None
        if spec is not None and (r.get("seed"), r.get("factions"), r.get("agents")) != \
                (spec.seed, list(spec.factions), list(spec.agents)):
            raise SystemExit(f"strength: {path}:{n}: game {i} was played with other settings "
                             "(seed, seats or agents); give another --out or the same options")
        rows[int(i)] = r
        good.append(line)
    if len(good) != len(lines):
        path.write_text("".join(x + "\n" for x in good), encoding="utf-8")
    return rows


def play(specs: list[GameSpec], path: Path, jobs: int, content: Content) -> tuple[int, bool]:
    """Play the specs, appending each finished game's row to `path`; (games played, interrupted)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    played = 0
    with _CtrlC() as ctrl_c, open(path, "a", encoding="utf-8") as fh:
        try:
            for row in run(specs, ContentArgs(), jobs=jobs, content=content, stop=ctrl_c):
                fh.write(json.dumps({k: row.get(k) for k in FIELDS}) + "\n")
                fh.flush()
                played += 1
                print(f"  {path.name}: game {row['game']} done ({played}/{len(specs)} this run)",
                      file=sys.stderr, flush=True)
        except KeyboardInterrupt:
            return played, True
        return played, ctrl_c.hit


def play_missing(title: str, specs: list[GameSpec], path: Path, jobs: int, content: Content,
                 playing: bool = True,
                 keep: Callable[[list[GameSpec]], list[GameSpec]] | None = None) -> tuple[list[Row], bool]:
    """Play the games of `specs` that `path` does not hold yet (none unless `playing`; only those
    `keep` keeps, when given), after a line naming the run (`title`) and how many are there; then
    the rows of every planned game in the file, and whether Ctrl-C stopped the games (the end of
    `main` here and in eval_strength.py)."""
    done = load_done(path, specs)
    todo = [s for s in specs if s.index not in done]
    if keep is not None:
        todo = keep(todo)
    print(f"{title}; {len(done)} of {len(specs)} games already in {path}")
    interrupted = False
    if todo and playing:
        _, interrupted = play(todo, path, jobs, content)
    return [r for i, r in sorted(load_done(path, specs).items()) if i < len(specs)], interrupted


def exit_status(program: str, interrupted: bool) -> int:
    """0, or 130 after saying that the same command continues a run Ctrl-C stopped."""
    if interrupted:
        print(f"{program}: interrupted; run the same command again to continue", file=sys.stderr)
        return 130
    return 0


def search_figures(rows: list[Row], players: int) -> list[str]:
    """The search seats' win rate with its interval, for games with one search seat."""
    ok = [r for r in rows if r.get("outcome") != "error"]
    wins = sum(1 for r in ok for f, a in zip(r["factions"], r["agents"]) if is_search(a) and f in r["winners"])
    n = len(ok)
    if not n:
        return ["  no finished games"]
    lo, hi = wilson(wins, n)
    return [f"  search bot won {wins}/{n} = {100 * wins / n:.1f}%  95% CI [{100 * lo:.1f}-{100 * hi:.1f}]"
            f"  (fair share {100 / players:.0f}%); no winner in {sum(1 for r in ok if not r['winners'])}; "
            f"failed {len(rows) - n}", *by_faction(ok)]


def by_faction(rows: list[Row]) -> list[str]:
    """Per faction the search seat played: games, wins, games it held six spellbooks, mean spellbooks and Doom."""
    lines = []
    for f in sorted({search_faction(r) or "" for r in rows} - {""}):
        mine = [r for r in rows if search_faction(r) == f]
        won = sum(1 for r in mine if f in r["winners"])
        books = [len((r.get("spellbooks") or {}).get(f, [])) for r in mine]
        doom = [(r.get("doom") or {}).get(f, 0) for r in mine]
        lines.append(f"    {f:<16} played {len(mine):>3}  won {won:>3}  six spellbooks {sum(b >= 6 for b in books):>3}"
                     f"  mean spellbooks {sum(books) / len(mine):.1f}  mean Doom {sum(doom) / len(mine):.1f}")
    return lines


def play_pairs(specs: list[GameSpec], pair_specs: list[GameSpec], paths: tuple[Path, Path],
               content: Content, keep: Callable[[list[GameSpec]], list[GameSpec]] | None) -> bool:
    """Play each planned game missing from either file with both bots, one after the other (see
    the module); whether Ctrl-C stopped it."""
    done = [load_done(paths[0], specs), load_done(paths[1], pair_specs)]
    todo = [s for s in specs if s.index not in done[0] or s.index not in done[1]]
    todo = keep(todo) if keep is not None else todo
    for spec in todo:
        for k, game in enumerate((spec, pair_specs[spec.index])):
            if game.index not in done[k]:
                _, stopped = play([game], paths[k], 1, content)
                if stopped:
                    return True
    return False


def pair_figures(rows: list[Row], pair_rows: list[Row]) -> list[str]:
    """How the paired games went for the search seats: both won, only one did, neither."""
    won = {r["game"]: any(is_search(a) and f in r["winners"] for f, a in zip(r["factions"], r["agents"]))
           for r in rows if r.get("outcome") != "error"}
    other = {r["game"]: any(is_search(a) and f in r["winners"] for f, a in zip(r["factions"], r["agents"]))
             for r in pair_rows if r.get("outcome") != "error"}
    both = sorted(set(won) & set(other))
    tally = [sum(1 for i in both if (won[i], other[i]) == x) for x in ((True, True), (True, False), (False, True), (False, False))]
    return [f"  paired games {len(both)}: both won {tally[0]}, only --agent won {tally[1]}, "
            f"only --pair won {tally[2]}, neither {tally[3]}"]


def table_figures(rows: list[Row], path: Path, plots: bool) -> list[str]:
    """The factions' win rates with intervals (four search bots), and the report's plots."""
    from necronomicon.tools.report import compute
    rep = compute(rows)
    agents = sorted({a for r in rows for a in r.get("agents") or []})
    lines = [f"  faction win rates, {rep['games']} games, every seat played by {', '.join(agents)}:"]
    for f in rep["factions"]:
        lines.append(f"    {f['faction']:<16} played {f['games']:>4}  won {f['wins']:>4}  "
                     f"{100 * f['rate']:5.1f}%  95% CI [{100 * f['ci'][0]:.1f}-{100 * f['ci'][1]:.1f}]")
    lines.append(f"    {'humanity':<16} {rep['humanity']['wins']} game(s) with no winner")
    if plots and rep["games"]:
        from necronomicon.tools.plots import write_plots
        written = write_plots(rep, rows, path.with_suffix(""))
        lines.append(f"  plots: {', '.join(str(p) for p in written)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--experiment", choices=[*EXPERIMENTS, "all"], default="all")
    ap.add_argument("--games", type=int, default=100, help="games per experiment (default 100)")
    ap.add_argument("--budget", default="0.5s", help="the search bot's budget: playouts (400) or CPU seconds (0.5s)")
    ap.add_argument("--agent", help="the search bot's full agent name (overrides --budget), e.g. mcts:400:heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--factions", help="comma list: play only the games whose search seat plays one of these")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--out", default="strength-results", help="folder of the result files (default strength-results)")
    ap.add_argument("--no-plots", action="store_true", help="no plots for the table experiment")
    ap.add_argument("--report-only", action="store_true", help="play nothing: print the figures of the files")
    ap.add_argument("--pair", help="a second search bot: every game is played with both, one after the other")
    a = ap.parse_args(argv)
    agent = a.agent or f"mcts:{a.budget}"
    try:
        for name in (agent, a.pair) if a.pair else (agent,):
            make_agent(name, 0)
    except ValueError as exc:
        raise SystemExit(f"strength: {exc}") from None
    if a.pair is not None and (a.experiment not in ("duel", "four") or not is_search(a.pair)):
        raise SystemExit("strength: --pair needs a search bot and --experiment duel or four")
    if a.games < 0 or a.jobs < 1:
        raise SystemExit("strength: --games must be 0 or more and --jobs 1 or more")
    content = load_content().require_ok()
    interrupted = False
    for exp in (EXPERIMENTS if a.experiment == "all" else (a.experiment,)):
        path = results_file(Path(a.out), exp, agent)
        specs = plan(exp, a.games, a.seed, agent, content)
        keep = (lambda todo: only_factions(todo, [f.strip() for f in a.factions.split(",")], content)) \
            if a.factions is not None else None
        if a.pair is not None:
            pair_path = results_file(Path(a.out), exp, a.pair)
            pair_specs = plan(exp, a.games, a.seed, a.pair, content)
            print(f"{exp}: {agent_label(agent)} paired with {agent_label(a.pair)}")
            if not a.report_only:
                interrupted = play_pairs(specs, pair_specs, (path, pair_path), content, keep)
            rows = [r for i, r in sorted(load_done(path, specs).items())]
            pair_rows = [r for i, r in sorted(load_done(pair_path, pair_specs).items())]
            for name, got in ((agent, rows), (a.pair, pair_rows)):
                print(f"  {agent_label(name)}:")
                print("\n".join(search_figures(got, 2 if exp == "duel" else 4)))
            print("\n".join(pair_figures(rows, pair_rows)))
            continue
        rows, stopped = play_missing(f"{exp}: {agent_label(agent)}", specs, path, a.jobs, content,
                                     playing=not a.report_only and not interrupted, keep=keep)
        interrupted = interrupted or stopped
        lines = table_figures(rows, path, not a.no_plots) if exp == "table" else \
            search_figures(rows, 2 if exp == "duel" else 4)
        print("\n".join(lines))
    return exit_status("strength", interrupted)


if __name__ == "__main__":
    sys.exit(main())
