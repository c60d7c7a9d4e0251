"""`--log FILE`: the log is written as the game is played, and written whole when it ends.

While the game runs the file is a stream, each line flushed after every decision: first a
'choices' line with the parameters and the answers given before (a resumed game's), then every
event as it happens, each answer as an 'answer' line (schema/log.schema.json) before the events
it caused. A `kill -9` leaves every line up to the last decision, and `necro replay` replays
such a partial log (it has no 'digest' line) and says it is partial. When the game ends, stops
(`quit`, Ctrl-C, a signal, end of input) or fails, the file is replaced whole (a temporary file,
fsynced, renamed) by the usual log: events, the 'choices' line, the 'digest' line, and for a
failed game an 'error' line naming the failure and the answer that failed, so `necro replay` can
repeat it."""
from __future__ import annotations

import json
from typing import Any, TextIO

from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.savefile import LOG_FORMAT

from .atomic_file import write_whole


class Recorder:
    """Wraps an agent; notes its last answer and how many choices the game had then."""

    def __init__(self, agent: Any, game: Game, last: list[tuple[str, int]]) -> None:
        self.agent, self.game, self.last = agent, game, last
        if hasattr(agent, "sit"):
            self.sit = agent.sit
        elif hasattr(agent, "observe"):
            self.observe = agent.observe

    def choose(self, player: str, options: tuple[str, ...], context: object) -> str:
        answer = self.agent.choose(player, options, context)
        self.last[:] = [(answer, len(self.game.choices))]
        return answer


def recording(agents: dict[str, Any], game: Game) -> tuple[dict[str, Any], list[tuple[str, int]]]:
    """The agents wrapped in Recorders, and the list where the last answer is noted."""
    last: list[tuple[str, int]] = []
    return {p: Recorder(a, game, last) for p, a in agents.items()}, last


def failure_line(game: Game, exc: BaseException, last: list[tuple[str, int]]) -> str:
    """The log's 'error' line: the failure, and the answer that failed (None when the answer was
    taken and the failure came after it, e.g. a broken invariant)."""
    failed = last[0][0] if last and len(game.choices) == last[0][1] else None
    message = "interrupted (Ctrl-C)" if isinstance(exc, KeyboardInterrupt) else f"{type(exc).__name__}: {exc}"
    return json.dumps({"type": "error", "message": " ".join(message.split())[:10000], "answer": failed},
                      sort_keys=True)


def write_log(path: str, game: Game, failure: str | None = None) -> None:
    """The game's whole JSON-lines log (and its failure line), replacing `path` (`--log`) whole."""
    try:
        write_whole(path, "\n".join([*game.log_lines(), *([failure] if failure else [])]) + "\n")
    except OSError as exc:
        raise OSError(f"--log '{path}': could not write it: {exc.strerror or exc}") from None


class LogStream:
    """The log of a game being played, appended to `path` after every decision (see the module)."""

    def __init__(self, path: str, game: Game, err: TextIO) -> None:
        self.path, self.game, self.err = path, game, err
        self.fh: TextIO | None = None
        self.answers = self.events = 0
        self.restart()

    def restart(self) -> None:
        """Write the stream from the start: on opening, and after an undo took answers back."""
        g = self.game
        try:
            if self.fh is None:
                self.fh = open(self.path, "w", encoding="utf-8")
            self.fh.seek(0)
            self.fh.truncate()
            self.fh.write(json.dumps({"type": "choices", "format": LOG_FORMAT, "params": g.params,
                                      "choices": g.choices}, sort_keys=True) + "\n")
        except OSError as exc:
            self._failed(exc)
            return
        self.answers, self.events = len(g.choices), 0
        self.update()

    def update(self, game: Game | None = None) -> None:
        """Append the answers and events since the last call, and flush them."""
        g = self.game
        if self.fh is None:
            return
        if len(g.choices) < self.answers or len(g.log) < self.events:
            self.restart()
            return
        lines = [json.dumps({"type": "answer", "n": i, "answer": g.choices[i]}, sort_keys=True)
                 for i in range(self.answers, len(g.choices))]
        lines += [json.dumps(e, sort_keys=True) for e in g.log[self.events:]]
        try:
            self.fh.write("".join(line + "\n" for line in lines))
            self.fh.flush()
        except OSError as exc:
            self._failed(exc)
            return
        self.answers, self.events = len(g.choices), len(g.log)

    def _failed(self, exc: OSError) -> None:
        print(f"necro: warning: --log '{self.path}': cannot write as the game goes ({exc.strerror or exc}); "
              "it is tried again when the game ends", file=self.err)
        self.close()

    def close(self) -> None:
        if self.fh is not None:
            try:
                self.fh.close()
            except OSError:
                pass
            self.fh = None

    def finish(self, failure: str | None = None) -> None:
        """Replace the stream whole by the game's log (OSError when it cannot be written)."""
        self.close()
        write_log(self.path, self.game, failure)


__all__ = ["LogStream", "Recorder", "failure_line", "recording", "write_log"]
