"""Root parallelism: one decision searched by several independent trees, their root visits summed.

Each of the `workers` trees gets its own seeds, drawn in order from the bot's generator, so the
answer to a decision depends only on the bot's seed and its settings: with a playout budget (shared
out among the trees, the first ones taking the remainder) the same seed gives the same answer
whether the trees grew at once in separate processes or one after the other in this one. A time
budget is each tree's own CPU time when the trees grow at once, and is divided among them when they
grow one after the other.

The trees grow at once in forked processes where that is safe: on a system with `fork`, when this
process runs a single thread (forking a threaded process, such as the web board's, can deadlock
the child) and no stop was asked for. Anywhere else they grow one after the other, and a stop
asked for from another thread (`SearchAgent.halt`) ends the tree being grown and skips the rest.

Root parallelism (Chaslot, Winands and van den Herik 2008) shares nothing between the trees while
they grow; summing their visits is a vote that loses little against a tree of the same total size
and needs no locks.
"""
from __future__ import annotations

import copy
import json
import os
import threading
from typing import Protocol

from ..engine.agents import HeuristicAgent
from ..engine.rng import Rng
from ..engine.seat import Seat
from .budget import SearchConfig
from .determinize import Known
from .rivals import SeatBots, rollout_bot
from .tree import Node

__all__ = ["Tally", "grow_trees", "best_of", "can_fork", "shares"]

# per root option: (visits, prior), summed over the trees (the prior is the first tree's)
Tally = dict[str, tuple[int, float]]



class SearchAgent(Protocol):
    """What the trees need of the search bot (agent.py): its settings, generators, stop flag and playouts."""

    config: SearchConfig
    rng: Rng
    rollout_bot: HeuristicAgent | SeatBots
    halt: threading.Event

    def grow(self, root: Node, seat: Seat, known: Known, back: frozenset[str],
             playouts: int | None, seconds: float | None) -> int: ...


_SEED = 1 << 62
_MAX_REPLY = 64 << 20   # bytes a worker may send back (a root's tally is a few kilobytes)


def shares(playouts: int, workers: int) -> list[int]:
    """A playout budget shared among `workers` trees, the first ones taking the remainder (no zero shares)."""
    base, extra = divmod(playouts, workers)
    return [n for n in (base + (1 if i < extra else 0) for i in range(workers)) if n > 0]


def grow_trees(agent: SearchAgent, seat: Seat, known: Known, back: frozenset[str],
               options: tuple[str, ...]) -> tuple[Tally, int, float]:
    """The summed root tally of `agent.config.workers` independent trees, the playouts they made, and
    the CPU seconds spent by worker processes (0 when the trees grew in this thread)."""
    cfg = agent.config
    k = cfg.workers
    budgets: list[tuple[int | None, float | None]]
    if cfg.playouts is not None:
        budgets = [(n, None) for n in shares(cfg.playouts, k)]
    else:
        budgets = [(None, cfg.seconds)] * k
    seeds = [(agent.rng.below(_SEED), agent.rng.below(_SEED)) for _ in budgets]
    at_once = can_fork() and not agent.halt.is_set()
    if not at_once and cfg.seconds is not None:
        budgets = [(None, cfg.seconds / len(budgets))] * len(budgets)
    runs = [(s, b) for s, b in zip(seeds, budgets)]
    before = os.times()
    results = _forked(agent, seat, known, back, options, runs) if at_once else \
        [_one_tree(agent, seat, known, back, options, s, b) for s, b in runs if not agent.halt.is_set()]
    after = os.times()
    cpu = (after.children_user - before.children_user + after.children_system - before.children_system) \
        if at_once else 0.0
    tally: Tally = {}
    total = 0
    for part, n in results:
        total += n
        for o, (visits, prior) in part.items():
            v, p = tally.get(o, (0, prior))
            tally[o] = (v + visits, p)
    return tally, total, cpu


def can_fork() -> bool:
    """Whether trees may grow in forked processes here: `fork` exists and this process runs one thread."""
    return hasattr(os, "fork") and threading.active_count() == 1


def best_of(tally: Tally, options: tuple[str, ...]) -> str:
    """The most visited option over all trees (ties: the higher prior, then the first in option order)."""
    def key(o: str) -> tuple[int, float, int]:
        visits, prior = tally.get(o, (-1, 0.0))
        return visits, prior, -options.index(o)
    return max(options, key=key)


def _one_tree(agent: SearchAgent, seat: Seat, known: Known, back: frozenset[str], options: tuple[str, ...],
              seeds: tuple[int, int], budget: tuple[int | None, float | None]) -> tuple[Tally, int]:
    """One tree grown by a copy of the bot with its own generators; its root's tally and playouts."""
    worker = copy.copy(agent)
    worker.rng = Rng(seeds[0])
    # the same rollout bot as the single tree's (seek=, progress=, reach=, own=), its own generator
    worker.rollout_bot = rollout_bot(agent.config, seeds[1])
    root = Node()
    n = worker.grow(root, seat, known, back, *budget)
    tally = {o: (ch.visits, ch.prior) for o, ch in root.children.items() if o in options}
    return tally, n


def _forked(agent: SearchAgent, seat: Seat, known: Known, back: frozenset[str], options: tuple[str, ...],
            runs: list[tuple[tuple[int, int], tuple[int | None, float | None]]]) -> list[tuple[Tally, int]]:
    """Each run's tree grown in a child process at once; the results in run order."""
    children: list[tuple[int, int]] = []
    try:
        for seeds, budget in runs:
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:   # the child: grow, write the tally, leave without running the parent's cleanup
                os.close(r)
                code = 0
                try:
                    reply = json.dumps(_one_tree(agent, seat, known, back, options, seeds, budget))
                except BaseException as e:  # noqa: BLE001 - reported to the parent as one line
                    reply, code = json.dumps({"error": f"{type(e).__name__}: {e}"}), 1
                with os.fdopen(w, "w") as out:
                    out.write(reply)
                os._exit(code)
            os.close(w)
            children.append((pid, r))
        results = []
        while children:
            pid, r = children[0]
            results.append(_collect(pid, r))
            os.close(r)
            children.pop(0)
        return results
    finally:
        for pid, r in children:   # after an error, no child is left running or unreaped
            os.close(r)
            try:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


def _collect(pid: int, r: int) -> tuple[Tally, int]:
    """A child's tally, read from its pipe (RuntimeError naming what went wrong in it)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := os.read(r, 1 << 16):
        size += len(chunk)
        if size > _MAX_REPLY:
            raise RuntimeError("a search worker sent back more than a root's tally")
        chunks.append(chunk)
    os.waitpid(pid, 0)
    data = json.loads(b"".join(chunks) or b'{"error": "it ended without a reply"}')
    if isinstance(data, dict):
        raise RuntimeError(f"a search worker failed: {data.get('error')}")
    part, n = data
    return {o: (int(v), float(p)) for o, (v, p) in part.items()}, int(n)
