"""`necro simulate`: play a batch, show progress, survive Ctrl-C, write the rows, summarise."""
from __future__ import annotations

import signal
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text

from .display_names import DisplayNames
from .simulate import GameSpec

if TYPE_CHECKING:
    from .result_stream import ResultSink

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
    played: int | None = None   # games played by this run (None: all the rows; a continued file has more)


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

    def __init__(self, every: float | None, total: int, done: list[Row], ticks: Any, err: TextIO,
                 label: str = "simulate") -> None:
        self.every, self.total, self.done, self.ticks, self.err, self.label = every, total, done, ticks, err, label
        self.stop = threading.Event()
        self.t0 = time.perf_counter()
        self.thread = threading.Thread(target=self._run, daemon=True) if every else None

    def _run(self) -> None:
        while not self.stop.wait(self.every):
            decisions = f", {self.ticks.value:,} decisions" if self.ticks is not None else ""
            print(f"{self.label}: {len(self.done)}/{self.total} games{decisions}, "
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
               err: TextIO | None = None, ticks: Any = None, heartbeat: float | None = None,
               label: str = "simulate") -> BatchResult:
    """Drain `rows(stop)` (the backend) with an optional progress bar; Ctrl-C keeps finished rows.
    With `ticks` (decisions played, counted by the backend) the bar shows them too, refreshed
    while games run, so a batch of slow search-bot games is seen to move; `heartbeat` (seconds)
    prints a plain progress line that often instead, for a stderr that is not a terminal; `label`
    names the command in both (`simulate`, `balance`)."""
    done: list[Row] = []
    t0 = time.perf_counter()
    interrupted = False
    bar = Progress(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                   _RateColumn(), *([_DecisionsColumn(ticks)] if ticks is not None else []),
                   TextColumn("left"), TimeRemainingColumn(),
                   console=Console(file=err or sys.stderr), disable=not progress, transient=True)
    with _CtrlC() as ctrl_c, _Heartbeat(heartbeat, len(specs), done, ticks, err or sys.stderr, label):
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


def summary_lines(result: BatchResult, ruleset: str, jobs_text: str, names: "DisplayNames | None" = None) -> list[str]:
    """The closing summary: games, wins per faction (by `names`), failed games, games a second (a
    minute, for slow search-bot games)."""
    nm = names or DisplayNames()
    rows = result.rows
    ok = [r for r in rows if r.get("outcome") != "error"]
    played = len(rows) if result.played is None else result.played
    rate = played / result.seconds if result.seconds > 0 else 0.0
    earlier = f" (and {len(rows) - played} from an earlier run)" if played != len(rows) else ""
    speed = f"{rate:.1f} games/s" if rate >= 0.1 or rate == 0 else f"{60 * rate:.2f} games/min"
    lines = [f"{played} games ({ruleset}) in {result.seconds:.1f} s: {speed}, {jobs_text}{earlier}"]
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
    width = max((len(nm.faction(f)) for f in seats), default=8)
    for f in sorted(seats, key=lambda f: (-wins[f] - shared[f], f)):
        won = wins[f] + shared[f]
        lines.append(f"  {nm.faction(f):<{width}}  played {seats[f]:>5}  won {won:>5} ({100.0 * won / seats[f]:5.1f}%)"
                     f"  of which shared {shared[f]}")
    humanity = sum(1 for r in ok if r["outcome"] == "humanity")
    lines.append(f"  {'humanity':<{width}}  {humanity} game(s) with no winner")
    failed = len(rows) - len(ok)
    if failed:
        first = next(r for r in rows if r.get("outcome") == "error")
        lines.append(f"  {failed} game(s) failed; the first, game {first['game']} (seed {first['seed']}): {first['error']}")
    return lines


def streamed(rows: Iterator[Row], sink: "ResultSink | None") -> Iterator[Row]:
    """The backend's rows, each appended to the results file as it arrives (`--out`)."""
    for row in rows:
        if sink is not None:
            sink.append(row)
        yield row


def finish(result: BatchResult, sink: "ResultSink | None", ruleset: str, jobs_text: str,
           stdout: TextIO | None = None, stderr: TextIO | None = None, names: "DisplayNames | None" = None) -> int:
    """Close the results file (rewritten sorted by game), print the summary of the whole batch
    (rows from an earlier run included); the exit status (130 interrupted, 1 a game or a write failed)."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    failed_write = False
    result.played = len(result.rows)
    if sink is not None:
        result.rows = sorted([*sink.previous, *result.rows], key=lambda r: r["game"])
        try:
            sink.close(result.rows)
        except OSError as exc:  # e.g. a disk that filled up: the appended rows are all there, unsorted
            sink.error = sink.error or (f"--out '{sink.path}': could not rewrite it sorted by game: "
                                        f"{exc.strerror or exc}; its rows are whole, in the order the games finished")
        if sink.error is not None:
            print(f"necro: error: {sink.error}", file=stderr)
            failed_write = True
    for line in summary_lines(result, ruleset, jobs_text, names):
        print(line, file=stdout)
    if sink is not None:
        earlier = f" ({len(sink.previous)} from an earlier run, {sink.appended} new)" if sink.previous else ""
        print(f"{'wrote' if sink.error is None else 'kept'} {len(sink.previous) + sink.appended} rows in {sink.path}{earlier}",
              file=stdout)
    if result.interrupted:
        where = f" in {sink.path}" if sink is not None else ""
        again = "; run the same command again to continue" if sink is not None else ""
        print(f"necro: interrupted after {len(result.rows)} of {result.planned} games; "
              f"{len(result.rows)} finished game(s) kept{where}{again}", file=stderr)
        return 130
    if failed_write or any(r.get("outcome") == "error" for r in result.rows):
        return 1
    return 0


__all__ = ["BatchResult", "finish", "play_batch", "streamed", "summary_lines"]
