"""What a long game costs the web board: the board a browser fetches after every move (its log as
the last page against the whole log in words), and Load of the game's save (the check's replay
kept against a second replay for the log), in interleaved rounds, CPU time, median and range.

    python benchmarks/web_board.py [--answers 2000] [--seed 2] [--rounds 7]

Plays a 4-player game of heuristic bots (the factions `measure.py` uses) to `--answers` answers or
its end, then times each way once a round, alternating, so both see the same machine.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from necronomicon.interpreter.bots import make_agent  # noqa: E402
from necronomicon.interpreter.content import load_content  # noqa: E402
from necronomicon.interpreter.engine.game import Game  # noqa: E402
from necronomicon.tools.web import board as web_board  # noqa: E402
from necronomicon.tools.web import log_pages  # noqa: E402
from necronomicon.interpreter.engine import phases

FACTIONS = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"]


def long_game(answers: int, seed: int) -> Game:
    g = Game(load_content([]).require_ok(), "multiplayer", FACTIONS, seed)
    bots = {p: make_agent("heuristic", seed * 31 + i) for i, p in enumerate(FACTIONS)}
    while g.current() is not None and len(g.choices) < answers:
        d = g.current()
        g.apply(bots[d.player].choose(d.player, d.options, d))  # type: ignore[union-attr]
    return g


def board(g: Game, whole_log: bool) -> None:
    most = 10**9 if whole_log else log_pages.LOG_PAGE
    real = web_board.log_page
    web_board.log_page = lambda log, words: real(log, words, None, most)   # type: ignore[assignment]
    try:
        web_board.board_json(g.content, g.layout, g.view(None), g.log, phases.ritual_track(g.rules), g)
    finally:
        web_board.log_page = real   # type: ignore[assignment]


def load(g: Game, save: dict[str, Any], again: bool) -> None:
    loaded = Game.from_json(g.bundle, save, replayed=not again)
    if again:   # the log from a second replay of the answers (the board's Load before)
        p = loaded.params
        r = Game(g.bundle, p["ruleset"], p["factions"], p["seed"], p["layout"], forced_dice=p.get("forced_dice"),
                 independents=p.get("independents"))
        for c in loaded.choices:
            r.apply(c)


def timed(fn: Callable[[], None]) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args(argv)
    g = long_game(max(1, min(a.answers, 100_000)), a.seed)
    save = json.loads(json.dumps(g.to_json()))
    ways: dict[str, Callable[[], None]] = {
        "board, last page of the log": lambda: board(g, False), "board, whole log": lambda: board(g, True),
        "load, replayed once": lambda: load(g, save, False), "load, replayed twice": lambda: load(g, save, True)}
    times: dict[str, list[float]] = {k: [] for k in ways}
    for _ in range(max(1, min(a.rounds, 1000))):
        for name, fn in ways.items():
            times[name].append(timed(fn))
    print(f"a game of {len(g.choices)} answers, {len(g.log)} events; CPU time over {a.rounds} interleaved rounds")
    for name, ts in times.items():
        print(f"  {name:30} median {1000 * statistics.median(ts):8.1f} ms  ({1000 * min(ts):.1f}-{1000 * max(ts):.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
