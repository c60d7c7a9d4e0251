"""`necro play`'s session: seats, the readable log, saving on Ctrl-C / SIGTERM / SIGHUP / end of
input / `quit`, `--resume`, `--log` and the closing line (text or `--format json`).

Ctrl-C, SIGTERM or SIGHUP (the terminal closed) while a person is typing stops at once; while the
bots play it stops after the decision being applied, so the saved game is always at a decision
boundary. Either way the game is saved whole (Game.to_json with the seats' agents; continue it with
`necro play --resume FILE`) and the exit status is 128 + the signal (130 for Ctrl-C).
"""
from __future__ import annotations

import json
import os
import signal
import sys
import time
from typing import Any, TextIO

from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.engine.game import Game, GameError
from necronomicon.interpreter.engine.play import run_game

from .auto_answers import AutoAnswers, auto_answer
from .game_log import LogStream, failure_line, recording
from .human_seat import HumanSeat, SeatQuit, SeatStopped
from .render import events_text
from .saves import save_to_new_file, write_save
from .words import Words, words_for

__all__ = ["LogPrinter", "SignalStop", "make_seats", "play_session", "write_save", "save_to_new_file"]

INTERRUPTED = 130
HANGUP_GRACE = 0.25   # seconds a closed terminal's SIGHUP may come after the input's end
#: the signals that stop a game and save it, and what the message says of each
STOP_SIGNALS = {signal.SIGINT: "interrupted (Ctrl-C)", signal.SIGTERM: "terminated (SIGTERM)",
                signal.SIGHUP: "the terminal was closed (SIGHUP)"}


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
    if humans and (inp or sys.stdin) is None:
        raise GameError("standard input is closed, so no one can answer for the human seat(s) "
                        f"{', '.join(humans)}; run necro play from a terminal, or give bots: --agents heuristic")
    seat = HumanSeat(humans, inp, out) if humans else None
    agents = {f: seat if a == "human" else make_agent(a, seed * 31 + i)
              for i, (f, a) in enumerate(zip(factions, names))}
    return agents, seat


def _save_and_say(game: Game, why: str, err: TextIO, seats: dict[str, str] | None) -> None:
    try:
        path = save_to_new_file(game, seats)
    except OSError as exc:
        _say(f"necro: {why}; the game could not be saved: {exc.strerror or exc}", err)
        return
    _say(f"necro: {why}; game saved to {path} ({len(game.choices)} decisions)\n"
         f"continue with: necro play --resume {path}", err)


def _say(text: str, out: TextIO) -> None:
    """Print, unless the terminal is gone (after SIGHUP writing to it fails)."""
    try:
        print(text, file=out, flush=True)
    except (OSError, ValueError):
        pass


def summary(game: Game) -> dict[str, Any]:
    """The end of a game as JSON (`--format json`)."""
    s = game.s
    return {"params": game.params, "over": s.over, "winners": game.winner(), "round": s.round,
            "doom": dict(s.doom), "power": dict(s.power), "end_reason": s.end_reason,
            "decisions": len(game.choices), "digest": game.digest(), "result": game.result_line()}


class SignalStop(KeyboardInterrupt):
    """A stop signal (Ctrl-C, SIGTERM, SIGHUP) came: the game is saved and the program stops."""

    def __init__(self, signum: int) -> None:
        super().__init__(STOP_SIGNALS.get(signum, f"signal {signum}"))
        self.signum = signum


class _Interrupts:
    """A stop signal at the prompt stops at once; during the bots' play, after the current decision.
    A signal this process was started ignoring (`nohup`: SIGHUP) stays ignored."""

    def __init__(self, seat: HumanSeat | None) -> None:
        self.seat, self.pending = seat, 0
        self._old: dict[int, Any] = {}

    def __enter__(self) -> "_Interrupts":
        for signum in STOP_SIGNALS:
            try:
                if signal.getsignal(signum) is not signal.SIG_IGN:
                    self._old[signum] = signal.signal(signum, self._handler)
            except ValueError:  # not the main thread: leave the signals as they are
                break
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, old in self._old.items():
            signal.signal(signum, old)

    def _handler(self, signum: int, frame: object) -> None:
        if self.seat is not None and self.seat.reading:
            raise SignalStop(signum)
        self.pending = self.pending or signum

    def check(self) -> None:
        if self.pending:
            raise SignalStop(self.pending)

    def settle(self) -> None:
        """Input ended at a terminal: when the terminal was closed, the kernel wakes the reader
        before it sends SIGHUP, so wait a moment (at most HANGUP_GRACE s) for that signal, so that
        the stop is named and its exit status given for what it was."""
        try:
            at_terminal = sys.stdin is not None and os.isatty(sys.stdin.fileno())
        except (OSError, ValueError):
            at_terminal = False
        deadline = time.monotonic() + HANGUP_GRACE
        while at_terminal and not self.pending and time.monotonic() < deadline:
            time.sleep(0.01)


def play_session(game: Game, agents: dict[str, Any], seat: HumanSeat | None, *, quiet: bool = False,
                 check: bool = False, log: str | None = None, fmt: str = "text",
                 out: TextIO | None = None, err: TextIO | None = None, seats: dict[str, str] | None = None,
                 ids: bool = False, auto: AutoAnswers | None = None) -> int:
    """Play the game to its end (or until a stop); the exit status. `seats` (faction -> agent name)
    is kept in a save, so that `--resume` seats the same people and bots. `ids`: the log and the
    prompts name things by their content ids, as files and scripts do, instead of their names.
    `auto`: the people's auto-answer setting (tools/auto_answers.py; None: every decision is asked)."""
    out = out or sys.stdout or open(os.devnull, "w", encoding="utf-8")   # noqa: SIM115 - stdout closed
    err = err or sys.stderr or out
    words = words_for(game.content, ids)
    printer = LogPrinter(game, out, quiet=quiet or fmt == "json", words=words)
    stream = LogStream(log, game, err) if log else None
    if seat is not None:
        seat.seats = seats
        seat.words = words
        if auto is not None:
            seat.auto = lambda g, d: auto_answer(g, d, auto)

        def rewound() -> None:
            printer.rewind()
            if stream is not None:
                stream.restart()
        seat.on_rewind = rewound
    printer()
    stop: str | None = None
    status = 0
    with _Interrupts(seat) as irq:
        if seat is not None:
            seat.before_read = irq.check

        def after(g: Game) -> None:
            if stream is not None:
                stream.update()
            printer(g)
            irq.check()
        recorded, last = recording(agents, game)
        try:
            run_game(game, recorded, after, check=check)
        except KeyboardInterrupt as exc:
            signum = exc.signum if isinstance(exc, SignalStop) else signal.SIGINT
            stop, status = STOP_SIGNALS[signum], INTERRUPTED if signum == signal.SIGINT else 128 + signum
        except (SeatStopped, OSError) as exc:   # input ended, or the terminal went away (SIGHUP)
            irq.settle()
            if isinstance(exc, OSError) and not irq.pending:   # a failed game, as below
                if stream is not None:
                    stream.finish(failure_line(game, exc, last))
                raise
            signum = irq.pending
            stop = STOP_SIGNALS[signum] if signum else str(exc) or "end of input"
            status = (INTERRUPTED if signum in (0, signal.SIGINT) else 128 + signum)
        except SeatQuit:
            stop = "quit"
        except Exception as exc:   # a failed game: its log keeps the failure, to inspect and replay it
            if stream is not None:
                stream.finish(failure_line(game, exc, last))
            raise
        if stop is not None:   # the terminal may be gone (SIGHUP): writing to it must not stop the save
            try:
                printer()
            except (OSError, ValueError):
                pass
            _say("", out)
            _save_and_say(game, stop, err, seats)
    if stream is not None:
        try:
            stream.finish()
        except OSError as exc:
            _say(f"necro: error: {exc}", err)
            return status if stop is not None else 1
    if stop is not None:
        return status
    printer()
    if fmt == "json":
        print(json.dumps(summary(game), sort_keys=True), file=out)
    else:
        print(words.text(game.result_line()), file=out)
    return 0
