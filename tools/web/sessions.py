"""Games being played in the browser: the Game, who sits in each seat, and the bots' agents.

A seat is 'human', a bot name from interpreter.engine.agents (heuristic, random) or the search bot
with a budget (the menu offers `SEARCH_SEAT`; any valid `mcts:...` name is accepted). Bots are
handed their player's seat (its view), never the game, and are seeded as `necro play` seeds them, so the same seed, seats and answers give the same game in the
browser, the terminal and the API.
"""
from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.content import load_content
from interpreter.content.build import Content
from interpreter.bots import AGENTS, is_search, make_agent
from interpreter.engine.seat import hand_seats
from interpreter.engine.decisions import IllegalAction
from interpreter.engine.game import Game, GameError

SEARCH_SEAT = "mcts:0.5s"   # the search bot at half a CPU second a decision: a strong, patient opponent
SEATS = ["human"] + [a for a in AGENTS if a != "human"] + [SEARCH_SEAT]


class SessionError(Exception):
    """A request the board cannot honour; the message is shown to the person."""


class ContentCache:
    """Content per set of expansions, over the server's --content-dir folders (loaded once each)."""

    def __init__(self, folders: list[Path], default_expansions: list[str]) -> None:
        self.folders = folders
        self.default = sorted(default_expansions)
        self._cache: dict[tuple[str, ...], Content] = {}
        self._lock = threading.Lock()
        self._available: list[str] | None = None

    def get(self, expansions: list[str] | None = None) -> Content:
        key = tuple(sorted(self.default if expansions is None else (str(e) for e in expansions if e)))
        with self._lock:
            if key not in self._cache:
                c = load_content(self.folders, expansions=list(key))
                if not c.ok:
                    raise SessionError("the content has errors: " + "; ".join(d.message for d in c.report.errors[:3]))
                self._cache[key] = c
            return self._cache[key]

    def available_expansions(self) -> list[str]:
        """Every expansion the built-in content and the folders hold (looked up once)."""
        if self._available is None:
            self._available = sorted(load_content(self.folders, expansions="all").model.expansions)
        return self._available


@dataclass
class Session:
    game: Game
    content: Content
    seats: dict[str, str]
    seed: int
    agents: dict[str, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        for i, p in enumerate(self.game.s.players):
            seat = self.seats.get(p, "human")
            if seat not in SEATS and not is_search(seat):
                raise SessionError(f"unknown seat '{seat}' for {p}; one of: {', '.join(SEATS)} (or mcts:BUDGET)")
            if seat != "human":
                try:
                    agent = make_agent(seat, self.seed * 31 + i)   # as `necro play` seeds its bots
                except ValueError as exc:
                    raise SessionError(str(exc)) from None
                hand_seats(self.game, {p: agent})              # a bot gets its player's seat, not the game
                self.agents[p] = agent

    @property
    def humans(self) -> list[str]:
        return [p for p in self.game.s.players if self.seats.get(p) == "human"]

    def answer(self, player: str, answer: str) -> None:
        """A person answers for their seat; an illegal answer raises IllegalAction with the reason."""
        d = self.game.current()
        if d is None:
            raise IllegalAction("game-over", "the game is over")
        if d.player != player:
            raise IllegalAction("not-your-turn", f"{d.player} is choosing now, not {player}")
        if self.seats.get(player) != "human":
            raise IllegalAction("bot-seat", f"{player} is played by the {self.seats.get(player)} bot")
        self.game.apply(answer)

    def bot_step(self) -> bool:
        """Let the bot whose decision is pending answer it; False when a person (or nobody) must."""
        d = self.game.current()
        if d is None or d.player not in self.agents:
            return False
        self.game.apply(self.agents[d.player].choose(d.player, d.options, d))
        return True

    def undo_mine(self) -> int:
        """Take back the last human answer and the bots' answers after it; how many were undone."""
        players, _ = self._history()
        k = len(players)
        while k > 0 and self.seats.get(players[k - 1]) != "human":
            k -= 1
        if k == 0:
            raise IllegalAction("nothing-to-undo", "no decision of a person to take back")
        n = len(players) - (k - 1)
        self.game.undo(n)
        return n

    def undo_to_event(self, seq: int) -> int:
        """Go back to the first decision after the log's event `seq`; how many answers were undone."""
        _, logged = self._history()
        k = next((i for i, n in enumerate(logged) if n >= seq), None)
        if k is None:
            raise IllegalAction("no-such-event", f"the log has no event {seq}")
        n = len(self.game.choices) - k
        self.game.undo(n)
        return n

    def _history(self) -> tuple[list[str], list[int]]:
        """Who answered each of the game's choices, and the log's length before each choice and at
        the end (replayed from the parameters: exact)."""
        p = self.game.params
        g = Game(self.content, p["ruleset"], p["factions"], p["seed"], p["layout"],
                 forced_dice=p.get("forced_dice"), independents=p.get("independents"))
        who, logged = [], []
        for c in self.game.choices:
            who.append(g.current().player)  # type: ignore[union-attr]
            logged.append(len(g.log))
            g.apply(c)
        logged.append(len(g.log))
        return who, logged

    def save(self) -> dict[str, Any]:
        return {**self.game.to_json(), "seats": dict(self.seats)}


class Sessions:
    """Every game this server holds, by id."""

    def __init__(self, contents: ContentCache) -> None:
        self.contents = contents
        self._games: dict[str, Session] = {}
        self._ids = itertools.count(1)

    def _add(self, s: Session) -> str:
        gid = f"g{next(self._ids)}"
        self._games[gid] = s
        return gid

    def get(self, gid: str) -> Session:
        if gid not in self._games:
            raise SessionError(f"no game '{gid}' on this server (it may have been restarted)")
        return self._games[gid]

    def new(self, spec: dict[str, Any]) -> str:
        content = self.contents.get(spec.get("expansions"))
        factions = [str(f) for f in spec.get("factions") or []]
        try:
            seed = int(spec.get("seed", 1))
        except (TypeError, ValueError):
            raise SessionError(f"the seed must be a whole number, not {spec.get('seed')!r}") from None
        seats = {str(k): str(v) for k, v in (spec.get("seats") or {}).items()}
        try:
            game = Game(content, str(spec.get("ruleset")), factions, seed)
        except GameError as exc:
            raise SessionError(str(exc)) from None
        return self._add(Session(game, content, seats, seed))

    def load(self, save: dict[str, Any], seats: dict[str, str] | None = None) -> str:
        if not isinstance(save, dict) or not isinstance(save.get("params"), dict):
            raise SessionError("not a saved game (a save is the JSON a board's Save button downloads)")
        p = save["params"]
        exps = p.get("expansions", [])
        content = self.contents.get([e for e in exps if isinstance(e, str)] if isinstance(exps, list) else [])
        try:
            game = Game.from_json(content, save)
        except (GameError, KeyError, TypeError, ValueError) as exc:
            raise SessionError(f"cannot load the save: {exc}") from None
        game = _with_log(content, game)
        chosen = seats or save.get("seats") or {}
        return self._add(Session(game, content, {str(k): str(v) for k, v in chosen.items()}, int(p.get("seed", 1))))


def _with_log(content: Content, loaded: Game) -> Game:
    """The loaded game with its readable log: a save keeps the position, not the log, so the
    game is replayed from its parameters and answers; the save is kept if the two disagree."""
    p = loaded.params
    try:
        g = Game(content, p["ruleset"], p["factions"], p["seed"], p["layout"], forced_dice=p.get("forced_dice"),
                 independents=p.get("independents"))
        for c in loaded.choices:
            g.apply(c)
    except (GameError, IllegalAction):
        return loaded
    return g if g.digest() == loaded.digest() and g.legal_actions() == loaded.legal_actions() else loaded
