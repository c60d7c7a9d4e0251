"""The replay viewer's side: a `--log` file (JSON lines) stepped through choice by choice.

A replay is the log's parameters and choices (interpreter.engine.game.replay); stepping forward
applies the next choice to the game at hand, stepping back rebuilds it (as Game.undo does). The
round each choice was made in is measured once, so the viewer can jump to a round.
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.decisions import IllegalAction
from necronomicon.interpreter.engine.game import Game, GameError
from necronomicon.interpreter.engine.savefile import SaveError, check_params, parse_log

from necronomicon.tools.words import words_for

from .board import board_json
from .log_pages import log_page
from .sessions import ContentCache, SessionError
from necronomicon.interpreter.engine import phases

REPLAYS = 8   # replays held at once; the least recently used is dropped first


@dataclass
class Replay:
    content: Content
    params: dict[str, Any]
    choices: list[str]
    game: Game
    rounds: list[int]  # the round before each choice, and after the last one
    logged: list[int]  # the log's length before each choice, and after the last one
    digest: str | None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def step(self) -> int:
        return len(self.game.choices)

    def _fresh(self) -> Game:
        p = self.params
        return Game(self.content, p["ruleset"], p["factions"], p["seed"], p["layout"],
                    forced_dice=p.get("forced_dice"), independents=p.get("independents"), first=p.get("first"))

    def goto(self, step: int) -> None:
        """Show the position after `step` choices (clamped to the log)."""
        step = max(0, min(int(step), len(self.choices)))
        if step < self.step:
            self.game = self._fresh()
        while self.step < step:
            self.game.apply(self.choices[self.step])

    def event_step(self, seq: int) -> int:
        """The step just after the log's event `seq` (the first decision that follows it)."""
        return next((i for i, n in enumerate(self.logged) if n >= seq), len(self.choices))

    def round_start(self, rnd: int) -> int:
        """The first step of a round (the last step when the log never reached it)."""
        return next((i for i, r in enumerate(self.rounds) if r >= rnd), len(self.choices))


def open_replay(contents: ContentCache, text: str) -> Replay:
    """Read a log's text; refuse, with the reason, a file that is not a game log (checked as
    `necro replay` checks one: interpreter/engine/savefile.py)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    try:
        log = parse_log(lines)
    except SaveError as exc:
        raise SessionError(f"not a game log: {exc}") from None
    params = log.params
    content = contents.get(list(params.get("expansions", [])))
    try:
        check_params(content, params, "log")
        r = Replay(content, params, list(log.choices), None, [], [], log.digest)  # type: ignore[arg-type]
        g = r._fresh()
        rounds, logged = [], []
        for c in r.choices:
            rounds.append(g.s.round)
            logged.append(len(g.log))
            g.apply(c)
        rounds.append(g.s.round)
        logged.append(len(g.log))
    except (GameError, IllegalAction, KeyError, TypeError, ValueError) as exc:
        raise SessionError(f"the log cannot be replayed: {exc}") from None
    r.rounds, r.logged, r.game = rounds, logged, g
    return r


class Replays:
    """The replays this server holds, by unguessable id, at most REPLAYS of them."""

    def __init__(self, contents: ContentCache) -> None:
        self.contents = contents
        self._held: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._held)

    def open(self, text: str) -> tuple[str, Replay]:
        r = open_replay(self.contents, text)
        rid = secrets.token_urlsafe(12)
        with self._lock:
            self._held[rid] = r
            while len(self._held) > REPLAYS:
                self._held.popitem(last=False)
        return rid, r

    def _get(self, rid: str) -> Replay:
        with self._lock:
            r = self._held.get(rid)
            if r is None:
                raise SessionError("no such replay on this server (open the log again)")
            self._held.move_to_end(rid)
        return r

    def lines(self, rid: str, before: int) -> dict[str, Any]:
        """The page of readable log lines before the line `before` (the same at every step that shows it)."""
        r = self._get(rid)
        with r.lock:
            return log_page(r.game.log, words_for(r.game.content), before)

    def board(self, rid: str, where: dict[str, int]) -> dict[str, Any]:
        """The board at a step, a round's start or just after a log event (`where`), every value shown."""
        r = self._get(rid)
        with r.lock:
            if "event" in where:
                r.goto(r.event_step(where["event"]))
            elif "round" in where:
                r.goto(r.round_start(where["round"]))
            elif "step" in where:
                r.goto(where["step"])
            g = r.game
            view = g.view(None)
            view["state"] = g.s.to_dict()   # a replay is a public record: every value shown
            board = board_json(g.content, g.layout, view, g.log, phases.ritual_track(g.rules), g)
            for f in board["factions"]:
                f["own"] = True
            d = g.current()
            board.update({"step": r.step, "total": len(r.choices), "seats": {}, "humans": [],
                          "next": {"player": d.player, "prompt": d.prompt, "answer": r.choices[r.step],
                                   "question": words_for(g.content).question(d, g),
                                   "answer_words": words_for(g.content).text(r.choices[r.step])}
                          if d is not None and r.step < len(r.choices) else None,
                          "digest_ok": (g.digest() == r.digest) if r.step == len(r.choices) and r.digest else None})
        return board
