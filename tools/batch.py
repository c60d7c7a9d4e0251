"""`necro simulate`: play a batch, show progress, survive Ctrl-C, write the rows, summarise."""
from __future__ import annotations

import signal
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterator, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text

from .results import write_rows
from .simulate import GameSpec

Row = dict[str, Any]


class _RateColumn(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f} games/s" if speed else "– games/s", style="cyan")


class _DecisionsColumn(ProgressColumn):
    """Decisions played so far in every game, finished or not: moves while slow games run."""

    def __init__(self, ticks: Any) -> None:
        super().__init__()
        self.ticks = ticks

    def render(self, task: Task) -> Text:
        return Text(f"{self.ticks.value:,} decisions" if self.ticks is not None else "", style="magenta")


@dataclass
class BatchResult:
    """What a batch left: its rows (sorted by game index), whether Ctrl-C stopped it, its time."""

    rows: list[Row]
    planned: int
    interrupted: bool
    seconds: float


class _CtrlC:
    """While active, the first Ctrl-C only raises a flag (the runners stop between games, so no
    lock is left half-held); a second one interrupts at once."""

    def __init__(self) -> None:
        self.hit = False
        self._old: Any = None

    def __call__(self) -> bool:
        return self.hit

    def _handle(self, signum: int, frame: object) -> None:
        self.hit = True
        signal.signal(signal.SIGINT, signal.default_int_handler)

    def __enter__(self) -> "_CtrlC":
        # not when Ctrl-C is ignored (the process was started so): it stays ignored
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            self._old = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


class _Heartbeat:
    """Without a terminal: one plain line on stderr every `every` seconds while games run
    (games done, decisions played), so a redirected batch of slow games is seen to move."""

    def __init__(self, every: float | None, total: int, done: list[Row], ticks: Any, err: TextIO) -> None:
        self.every, self.total, self.done, self.ticks, self.err = every, total, done, ticks, err
        self.stop = threading.Event()
        self.t0 = time.perf_counter()
        self.thread = threading.Thread(target=self._run, daemon=True) if every else None

    def _run(self) -> None:
        while not self.stop.wait(self.every):
            decisions = f", {self.ticks.value:,} decisions" if self.ticks is not None else ""
            print(f"simulate: {len(self.done)}/{self.total} games{decisions}, "
                  f"{time.perf_counter() - self.t0:.0f} s", file=self.err, flush=True)

    def __enter__(self) -> "_Heartbeat":
        if self.thread is not None:
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join()


def play_batch(specs: list[GameSpec], rows: Callable[[Callable[[], bool]], Iterator[Row]], progress: bool,
               err: TextIO | None = None, ticks: Any = None, heartbeat: float | None = None) -> BatchResult:
    """Drain `rows(stop)` (the backend) with an optional progress bar; Ctrl-C keeps finished rows.
    With `ticks` (decisions played, counted by the backend) the bar shows them too, refreshed
    while games run, so a batch of slow search-bot games is seen to move; `heartbeat` (seconds)
    prints a plain progress line that often instead, for a stderr that is not a terminal."""
    done: list[Row] = []
    t0 = time.perf_counter()
    interrupted = False
    bar = Progress(TextColumn("[bold]simulate"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                   _RateColumn(), *([_DecisionsColumn(ticks)] if ticks is not None else []),
                   TextColumn("left"), TimeRemainingColumn(),
                   console=Console(file=err or sys.stderr), disable=not progress, transient=True)
    with _CtrlC() as ctrl_c, _Heartbeat(heartbeat, len(specs), done, ticks, err or sys.stderr):
        try:
            with bar:
                task = bar.add_task("games", total=len(specs))
                for row in rows(ctrl_c):
                    done.append(row)
                    bar.advance(task)
        except KeyboardInterrupt:
            interrupted = True
        interrupted = interrupted or ctrl_c.hit
    done.sort(key=lambda r: r["game"])
    return BatchResult(done, len(specs), interrupted, time.perf_counter() - t0)


def summary_lines(result: BatchResult, ruleset: str, jobs_text: str) -> list[str]:
    """The closing summary: games, wins per faction, failed games, games/s."""
    rows = result.rows
    ok = [r for r in rows if r.get("outcome") != "error"]
    rate = len(rows) / result.seconds if result.seconds > 0 else 0.0
    lines = [f"{len(rows)} games ({ruleset}) in {result.seconds:.1f} s: {rate:.1f} games/s, {jobs_text}"]
    agents = Counter(a for r in rows for a in r.get("agents") or [])
    if agents:
        lines.append("  agents: " + ", ".join(f"{a} ({n} seats)" for a, n in sorted(agents.items())))
    seats: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    shared: Counter[str] = Counter()
    for r in ok:
        seats.update(r["factions"])
        for w in r["winners"]:
            (wins if r["outcome"] == "win" else shared)[w] += 1
    width = max((len(f) for f in seats), default=8)
    for f in sorted(seats, key=lambda f: (-wins[f] - shared[f], f)):
        won = wins[f] + shared[f]
        lines.append(f"  {f:<{width}}  played {seats[f]:>5}  won {won:>5} ({100.0 * won / seats[f]:5.1f}%)"
                     f"  of which shared {shared[f]}")
    humanity = sum(1 for r in ok if r["outcome"] == "humanity")
    lines.append(f"  {'humanity':<{width}}  {humanity} game(s) with no winner")
    failed = len(rows) - len(ok)
    if failed:
        first = next(r for r in rows if r.get("outcome") == "error")
        lines.append(f"  {failed} game(s) failed; the first, game {first['game']} (seed {first['seed']}): {first['error']}")
    return lines


def finish(result: BatchResult, out: str | None, fmt: str | None, ruleset: str, jobs_text: str,
           stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Write the rows, print the summary; the exit status (130 interrupted, 1 a game failed)."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    failed_write = False
    if out:
        try:
            write_rows(out, result.rows, fmt)
        except OSError as exc:  # e.g. a disk that filled up: one line; the summary is still printed
            print(f"necro: error: --out '{out}': could not write {len(result.rows)} rows: {exc.strerror or exc}",
                  file=stderr)
            out, failed_write = None, True
    for line in summary_lines(result, ruleset, jobs_text):
        print(line, file=stdout)
    if out:
        print(f"wrote {len(result.rows)} rows to {out}", file=stdout)
    if result.interrupted:
        kept = f"; {len(result.rows)} finished game(s) kept" + (f" in {out}" if out else "")
        print(f"necro: interrupted after {len(result.rows)} of {result.planned} games{kept}", file=stderr)
        return 130
    if failed_write or any(r.get("outcome") == "error" for r in result.rows):
        return 1
    return 0


__all__ = ["BatchResult", "finish", "play_batch", "summary_lines"]
