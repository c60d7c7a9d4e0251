"""`--log FILE` for a game that may fail: the log is written whatever happens, and a failed game's
log ends with an `error` line (schema/log.schema.json) naming the failure and the answer that
failed, so `necro replay` can repeat it."""
from __future__ import annotations

import json
from typing import Any

from interpreter.engine.game import Game

from .preflight import write_text


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
    """The game's JSON-lines log (and its failure line), written to `path` (`--log`)."""
    write_text(path, "\n".join([*game.log_lines(), *([failure] if failure else [])]) + "\n", "--log")


__all__ = ["Recorder", "failure_line", "recording", "write_log"]
