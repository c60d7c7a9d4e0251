"""Play a planned batch on one core, on a process pool, or on a Ray cluster.

Every backend yields result rows as games finish, in no particular order; callers sort by game
index. Each worker loads the content once (a pool initializer, a Ray actor's constructor).
Decisions played are counted in `ticks` (a shared integer, `new_ticks()`) while games run, so a
progress display can move inside slow games (search bots); the Ray backend counts games only.
A game is played by `play` (`play_one`, the result row of `necro simulate`, unless a caller such as
`necro train` gives its own module-level function of the same shape).
"""
from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content

from .simulate import GameSpec, play_one

Row = dict[str, Any]
Play = Callable[..., Row]  # (content, spec, on_decision=None) -> the game's row; module-level (sent to workers)
Stop = Callable[[], bool]  # asked between games: True ends the batch early (Ctrl-C)
# `drain`, asked like `stop`: True starts no new game, but the games under way play on to their end
# (a time limit that keeps the work already done); `stop()` still ends them at once.
POLL = 0.2  # seconds between looks at the stop flag while games run elsewhere


def _never() -> bool:
    return False


FLUSH = 16  # decisions counted in a worker before they are added to the shared count


def new_ticks() -> Any:
    """A count of decisions played, shared with worker processes (`.value`)."""
    return multiprocessing.Value("q", 0)


class _Tally:
    """Counts one game's decisions into the shared `ticks`, a few at a time (and the rest at the end)."""

    def __init__(self, ticks: Any) -> None:
        self.ticks, self.n = ticks, 0

    def __call__(self) -> None:
        self.n += 1
        if self.n >= FLUSH:
            self.flush()

    def flush(self) -> None:
        if self.ticks is not None and self.n:
            with self.ticks.get_lock():
                self.ticks.value += self.n
        self.n = 0


def _counted(content: Content, spec: GameSpec, ticks: Any, play: Play | None = None) -> Row:
    play = play or play_one   # looked up at the call (a test may replace play_one)
    if ticks is None:
        return play(content, spec)
    tally = _Tally(ticks)
    try:
        return play(content, spec, tally)
    finally:
        tally.flush()


@dataclass(frozen=True)
class ContentArgs:
    """How to load the content: modders' folders and expansions (picklable, sent to workers)."""

    dirs: tuple[str, ...] = ()
    expansions: tuple[str, ...] = field(default=())

    def load(self) -> Content:
        return load_content([Path(d) for d in self.dirs], expansions=list(self.expansions)).require_ok()


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def chunks(specs: list[GameSpec], jobs: int) -> list[list[GameSpec]]:
    """Split the batch into runs of a few games: big enough to hide the hand-over cost, small
    enough that every worker stays busy and progress moves smoothly."""
    size = max(1, min(8, len(specs) // (jobs * 8) or 1))
    return [specs[i:i + size] for i in range(0, len(specs), size)]


def run_serial(specs: list[GameSpec], content: Content, stop: Stop = _never, ticks: Any = None,
               drain: Stop = _never, play: Play | None = None) -> Iterator[Row]:
    """One game after another in this process."""
    for spec in specs:
        if stop() or drain():
            return
        yield _counted(content, spec, ticks, play)


_WORKER_CONTENT: Content | None = None
_WORKER_TICKS: Any = None
_WORKER_CLOSING: Any = None   # a shared flag: set, a worker starts no new game (the pool drains)


PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def _end_with_parent(parent: int) -> None:
    """This worker is killed when the process that started it dies (even by kill -9): on Linux by
    PR_SET_PDEATHSIG, elsewhere by a thread that watches the parent's pid."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):   # pragma: no cover - not Linux
        armed = False
    if not armed:   # pragma: no cover - not Linux
        import threading
        import time

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1.0)
            os._exit(1)
        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:   # the parent died before the signal was armed
        os._exit(1)


def _init_worker(args: ContentArgs, ticks: Any = None, parent: int | None = None, closing: Any = None) -> None:
    global _WORKER_CONTENT, _WORKER_TICKS, _WORKER_CLOSING  # noqa: PLW0603 - one content per worker process
    if parent is not None:
        _end_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _WORKER_TICKS, _WORKER_CLOSING = ticks, closing
    if _WORKER_CONTENT is None:  # not inherited from the parent by fork
        _WORKER_CONTENT = args.load()


def _play_chunk(chunk: list[GameSpec], play: Play | None = None) -> list[Row]:
    assert _WORKER_CONTENT is not None
    if _WORKER_CLOSING is not None and _WORKER_CLOSING.value:
        return []   # handed over before the pool began to drain, and not started: dropped
    return [_counted(_WORKER_CONTENT, s, _WORKER_TICKS, play) for s in chunk]


def run_pool(specs: list[GameSpec], args: ContentArgs, jobs: int, stop: Stop = _never,
             content: Content | None = None, ticks: Any = None, drain: Stop = _never,
             play: Play | None = None) -> Iterator[Row]:
    """The batch on `jobs` worker processes, one game per task so that every finished game is
    yielded at once. When `stop()` turns true (Ctrl-C) the games not started are cancelled and
    the workers are ended at once: only the games still being played are lost. The workers also
    end when this process dies, even by kill -9 (`_end_with_parent`). When `drain()` turns true
    the games not started are cancelled and the ones under way play on. Forked workers
    inherit `content` (the same `args` loaded) instead of loading it again."""
    global _WORKER_CONTENT  # noqa: PLW0603
    fork = multiprocessing.get_start_method() == "fork"
    _WORKER_CONTENT = content if fork else None
    closing = multiprocessing.Value("b", 0)
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                               initargs=(args, ticks, os.getpid(), closing))
    stopped = False
    try:
        queue = iter(specs)
        pending: set[Future[list[Row]]] = set()
        draining = False
        while True:
            if not draining and drain():
                draining = True
                closing.value = 1   # games handed to a worker but not started are dropped there
                pending = {f for f in pending if not f.cancel()}   # and the ones still here at once
            while not draining and len(pending) < 2 * jobs:  # a few games queued per worker, not the whole batch
                spec = next(queue, None)
                if spec is None:
                    break
                pending.add(pool.submit(_play_chunk, [spec], play))
            _WORKER_CONTENT = None  # the workers are forked by now
            if not pending:
                break
            if stop():
                stopped = True
                break
            done, pending = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
            for fut in done:
                if not fut.cancelled():
                    yield from fut.result()
        if stopped:  # games that finished while we looked at the flag are kept too
            for fut in [f for f in pending if f.done() and not f.cancelled() and f.exception() is None]:
                yield from fut.result()
    finally:
        _WORKER_CONTENT = None
        if stopped:
            _end_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel the queued games and end the workers now, not after the games they are playing."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:  # pragma: no cover - newer Python
        terminate()
        return
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.terminate()


def run_ray(specs: list[GameSpec], args: ContentArgs, jobs: int | None, address: str | None,
            stop: Stop = _never, play: Play | None = None) -> Iterator[Row]:
    """The batch on a Ray cluster (`address`), or on a Ray started here when none is given. One
    actor per CPU (or `jobs`) loads the content once. The cluster's workers need this package."""
    try:
        import ray
    except ImportError as exc:
        raise OSError("the ray backend needs Ray: pip install 'necronomicon[ray]'") from exc
    started = False
    if not ray.is_initialized():
        opts: dict[str, Any] = {"include_dashboard": False, "logging_level": "ERROR", "log_to_driver": False}
        if address:
            _reachable(address)
        try:
            if address:
                ray.init(address=address, **opts)
            else:  # "local": a Ray of our own, never one found through RAY_ADDRESS or `ray start`
                ray.init(address="local", num_cpus=jobs, **opts)
        except Exception as exc:  # noqa: BLE001 - Ray raises many kinds; the user needs one line
            where = f"at {address}" if address else "here"
            raise OSError(f"the ray backend could not start {where}: {type(exc).__name__}: "
                          f"{' '.join(str(exc).split())[:200]}") from None
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        n = min(jobs or cpus, cpus)  # an actor beyond the cluster's CPUs would never start
        actor = ray.remote(num_cpus=1)(_RayWorker)
        workers = [actor.remote(args) for _ in range(n)]
        queue = chunks(specs, n)
        running: dict[Any, Any] = {}
        for w in workers:
            if queue:
                running[w.play.remote(queue.pop(0), play)] = w
        while running and not stop():
            ready, _ = ray.wait(list(running), num_returns=1, timeout=POLL)
            if not ready:
                continue
            w = running.pop(ready[0])
            if queue:
                running[w.play.remote(queue.pop(0), play)] = w
            yield from ray.get(ready[0])
    finally:
        if started:
            ray.shutdown()


def _reachable(address: str, timeout: float = 5.0) -> None:
    """Refuse at once a cluster address nobody answers at (Ray itself retries for minutes)."""
    import re
    import socket
    m = re.fullmatch(r"(?:ray://)?\[?([^\]/]+?)\]?:(\d+)", address)
    if m is None:  # "auto" and other forms: left to Ray
        return
    try:
        socket.create_connection((m.group(1), int(m.group(2))), timeout=timeout).close()
    except (OSError, ValueError) as exc:
        raise OSError(f"the ray backend could not start at {address}: nothing answers there "
                      f"({getattr(exc, 'strerror', None) or exc})") from None


class _RayWorker:
    """A Ray actor: loads the content once, then plays chunks of games."""

    def __init__(self, args: ContentArgs) -> None:
        self.content = args.load()

    def play(self, chunk: list[GameSpec], play: Play | None = None) -> list[Row]:
        return [(play or play_one)(self.content, s) for s in chunk]


def run(specs: list[GameSpec], args: ContentArgs, *, backend: str = "process", jobs: int | None = None,
        address: str | None = None, content: Content | None = None, stop: Stop = _never,
        ticks: Any = None, drain: Stop = _never, play: Play | None = None) -> Iterator[Row]:
    """Rows of the batch's games (each played by `play`) as they finish, from the chosen backend,
    until `stop()` (or, after `drain()`, until the games under way end; Ray stops at `drain()` as
    at `stop()`); decisions played are added to `ticks` as they happen (process backend)."""
    if backend == "ray":
        return run_ray(specs, args, jobs, address, lambda: stop() or drain(), play)
    if backend != "process":
        raise ValueError(f"unknown backend '{backend}'; one of: process, ray")
    jobs = jobs or default_jobs()
    if jobs == 1 or len(specs) <= 1:
        return run_serial(specs, content if content is not None else args.load(), stop, ticks, drain, play)
    return run_pool(specs, args, min(jobs, len(specs)), stop, content, ticks, drain, play)


__all__ = ["ContentArgs", "Play", "Row", "Stop", "default_jobs", "new_ticks", "run", "run_pool", "run_ray", "run_serial"]
