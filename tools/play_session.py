"""`necro play`'s session: seats, the readable log, saving on Ctrl-C / end of input / `quit`,
`--resume`, `--log` and the closing line (text or `--format json`).

Ctrl-C while a person is typing stops at once; while the bots play it stops after the decision
being applied, so the saved game is always at a decision boundary. Either way the game is written
with Game.to_json (continue it with `necro play --resume FILE`) and the exit status is 130.
"""
from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import Any, TextIO

from interpreter.bots import make_agent
from interpreter.engine.game import Game, GameError
from interpreter.engine.play import run_game

from .game_log import failure_line, recording, write_log
from .human_seat import HumanSeat, SeatQuit, SeatStopped
from .render import events_text
from .saves import default_save_path, write_save
from .words import Words, words_for

__all__ = ["LogPrinter", "make_seats", "play_session", "write_save", "default_save_path"]

INTERRUPTED = 130


class LogPrinter:
    """Prints the game's new log events as readable lines (in content names, unless `words` is
    `Words.ids()`) after every decision."""

    def __init__(self, game: Game, out: TextIO, quiet: bool = False, words: Words | None = None) -> None:
        self.game, self.out, self.quiet = game, out, quiet
        self.words = words if words is not None else words_for(game.content)
        self.shown = 0

    def __call__(self, game: Game | None = None) -> None:
        g = self.game
        if not self.quiet:
            for line in events_text(g.log[self.shown:], self.words):
                print(line, file=self.out)
            self.out.flush()
        self.shown = len(g.log)

    def rewind(self) -> None:
        """After an undo the log was rebuilt: continue from its end."""
        self.shown = len(self.game.log)


def make_seats(factions: list[str], names: list[str], seed: int, inp: TextIO | None = None,
               out: TextIO | None = None) -> tuple[dict[str, Any], HumanSeat | None]:
    """One agent per seat; every human seat shares one HumanSeat (one terminal, hot-seat)."""
    if len(names) == 1:
        names = names * len(factions)
    if len(names) != len(factions):
        raise GameError(f"--agents names {len(names)} agents for {len(factions)} players")
    humans = [f for f, a in zip(factions, names) if a == "human"]
    seat = HumanSeat(humans, inp, out) if humans else None
    agents = {f: seat if a == "human" else make_agent(a, seed * 31 + i)
              for i, (f, a) in enumerate(zip(factions, names))}
    return agents, seat


def _save_and_say(game: Game, why: str, err: TextIO) -> None:
    try:
        path = default_save_path(game)
        write_save(game, path)
    except OSError as exc:
        print(f"necro: {why}; the game could not be saved: {exc}", file=err)
        return
    print(f"necro: {why}; game saved to {path} ({len(game.choices)} decisions)\n"
          f"continue with: necro play --resume {path}", file=err)


def summary(game: Game) -> dict[str, Any]:
    """The end of a game as JSON (`--format json`)."""
    s = game.s
    return {"params": game.params, "over": s.over, "winners": game.winner(), "round": s.round,
            "doom": dict(s.doom), "power": dict(s.power), "end_reason": s.end_reason,
            "decisions": len(game.choices), "digest": game.digest(), "result": game.result_line()}


class _Interrupts:
    """Ctrl-C at the prompt stops at once; during the bots' play, after the current decision."""

    def __init__(self, seat: HumanSeat | None) -> None:
        self.seat, self.pending = seat, False
        self._old: Any = None

    def __enter__(self) -> "_Interrupts":
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:   # started ignoring Ctrl-C: it stays so
            return self
        try:
            self._old = signal.signal(signal.SIGINT, self._handler)
        except ValueError:  # not the main thread: leave Ctrl-C as it is
            self._old = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)

    def _handler(self, signum: int, frame: object) -> None:
        if self.seat is not None and self.seat.reading:
            raise KeyboardInterrupt
        self.pending = True

    def check(self) -> None:
        if self.pending:
            raise KeyboardInterrupt


def play_session(game: Game, agents: dict[str, Any], seat: HumanSeat | None, *, quiet: bool = False,
                 check: bool = False, log: str | None = None, fmt: str = "text",
                 out: TextIO | None = None, err: TextIO | None = None, ids: bool = False) -> int:
    """Play the game to its end (or until a stop); the exit status. `ids`: the log and the prompts
    name things by their content ids, as files and scripts do, instead of their names."""
    out, err = out or sys.stdout, err or sys.stderr
    words = words_for(game.content, ids)
    printer = LogPrinter(game, out, quiet=quiet or fmt == "json", words=words)
    if seat is not None:
        seat.on_rewind = printer.rewind
        seat.words = words
    printer()
    stop: str | None = None
    with _Interrupts(seat) as irq:
        def after(g: Game) -> None:
            printer(g)
            irq.check()
        recorded, last = recording(agents, game)
        try:
            run_game(game, recorded, after, check=check)
        except KeyboardInterrupt:
            stop = "interrupted (Ctrl-C)"
        except SeatStopped:
            stop = "end of input"
        except SeatQuit:
            stop = "quit"
        except Exception as exc:   # a failed game: its log keeps the failure, to inspect and replay it
            if log:
                write_log(log, game, failure_line(game, exc, last))
            raise
    printer()
    if stop is not None:
        print(file=out)
        _save_and_say(game, stop, err)
    if log:
        try:
            Path(log).write_text("\n".join(game.log_lines()) + "\n", encoding="utf-8")
        except OSError as exc:
            print(f"necro: error: cannot write the log to '{log}': {exc.strerror or exc}", file=err)
            return INTERRUPTED if stop not in (None, "quit") else 1
    if stop is not None:
        return 0 if stop == "quit" else INTERRUPTED
    if fmt == "json":
        print(json.dumps(summary(game), sort_keys=True), file=out)
    else:
        print(words.text(game.result_line()), file=out)
    return 0

