"""Games being played in the browser: the Game, who sits in each seat, the bots' agents and the
secret keys that let a browser read a seat's view or act for it.

A seat is 'human', a bot name from interpreter.engine.agents (heuristic, random) or the search bot
with a budget (the menu offers `SEARCH_SEAT`; any valid `mcts:...` name within the server's cap is
accepted). Bots are handed their player's seat (its view), never the game, and are seeded as `necro
play` seeds them, so the same seed, seats and answers give the same game in the browser, the
terminal and the API. A key (`secrets.token_urlsafe`) holds some of a game's human seats, or none (a
spectator's); the server knows a game only by an unguessable id.
"""
from __future__ import annotations

import hashlib
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.bots import AGENTS, is_search, make_agent
from necronomicon.interpreter.engine.seat import hand_seats
from necronomicon.interpreter.engine.decisions import IllegalAction
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.search.budget import parse_agent
from necronomicon.tools.auto_answers import MAX_AUTO_IN_A_ROW, AutoAnswers, auto_answer
from necronomicon.tools.words import words_for

SEARCH_SEAT = "mcts:0.5s"   # the search bot at half a CPU second a decision: a strong, patient opponent
SEATS = ["human"] + [a for a in AGENTS if a != "human"] + [SEARCH_SEAT]
MAX_BOT_SECONDS = 10.0      # the default cap on a search seat's time a decision (necro serve --max-bot-seconds)
PLAYOUTS_PER_SECOND = 200   # a playout budget is capped at this many per second of the time cap
CONTENT_SETS = 4            # distinct content sets (expansion choices) held in memory at once


class SessionError(Exception):
    """A request the board cannot honour; the message is shown to the person."""


def new_key() -> str:
    """An unguessable secret (144 random bits, URL-safe)."""
    return secrets.token_urlsafe(18)


def key_hash(key: str) -> str:
    """What the server keeps of a key (the store never holds a key itself)."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def check_seat(seat: str, player: str, max_seconds: float) -> None:
    """Refuse an unknown seat, or a search bot whose budget passes the server's cap."""
    if seat not in SEATS and not is_search(seat):
        raise SessionError(f"unknown seat '{seat[:60]}' for {player}; one of: {', '.join(SEATS)} (or mcts:BUDGET)")
    if is_search(seat):
        try:
            cfg = parse_agent(seat)
        except ValueError as exc:
            raise SessionError(str(exc)) from None
        if cfg.seconds is not None and cfg.seconds > max_seconds:
            raise SessionError(f"{player}: this server lets a bot think at most {max_seconds:g}s a decision, not {cfg.seconds:g}s")
        if cfg.playouts is not None and cfg.playouts > max_seconds * PLAYOUTS_PER_SECOND:
            raise SessionError(f"{player}: this server lets a bot search at most "
                               f"{int(max_seconds * PLAYOUTS_PER_SECOND):,} playouts a decision, not {cfg.playouts:,}")


class ContentCache:
    """Content per set of expansions, over the server's --content-dir folders (loaded once each;
    at most CONTENT_SETS sets kept, the least recently used dropped first)."""

    def __init__(self, folders: list[Path], default_expansions: list[str]) -> None:
        self.folders = folders
        self.default = sorted(default_expansions)
        self._cache: OrderedDict[tuple[str, ...], Content] = OrderedDict()
        self._lock = threading.Lock()
        self._available: list[str] | None = None

    def get(self, expansions: list[str] | None = None) -> Content:
        key = tuple(sorted(set(self.default if expansions is None else (str(e) for e in expansions if e))))
        with self._lock:
            if key not in self._cache:
                known = set(self.available_expansions())
                for e in key:
                    if e not in known:
                        raise SessionError(f"no expansion named '{e[:60]}'; one of: {', '.join(sorted(known))}")
                c = load_content(self.folders, expansions=list(key))
                if not c.ok:
                    raise SessionError("the content has errors: " + "; ".join(d.message for d in c.report.errors[:3]))
                self._cache[key] = c
                while len(self._cache) > CONTENT_SETS:
                    self._cache.popitem(last=False)
            self._cache.move_to_end(key)
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
    keys: dict[str, tuple[str, ...]] = field(default_factory=dict)   # a player's key's hash -> the human seats it holds
    watchers: set[str] = field(default_factory=set)                   # the spectators' keys' hashes
    agents: dict[str, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    paused: bool = False
    version: int = 0           # counts the changes a browser should redraw for
    auto: dict[str, AutoAnswers] = field(default_factory=dict)       # a human seat's auto-answer setting

    def __post_init__(self) -> None:
        self._stopped = threading.Event()   # a person's request stopped the bot's thought: drop its answer
        self._gate = threading.Lock()       # orders a thought's start against Pause and stop_thinking
        for i, p in enumerate(self.game.s.players):
            seat = self.seats.get(p, "human")
            if seat != "human":
                try:
                    agent = make_agent(seat, self.seed * 31 + i)   # as `necro play` seeds its bots
                except ValueError as exc:
                    raise SessionError(str(exc)) from None
                hand_seats(self.game, {p: agent})              # a bot gets its player's seat, not the game
                if hasattr(agent, "halt"):
                    agent.halt = self._stopped                 # the search bot ends its search when it is set
                self.agents[p] = agent

    def seats_of(self, key: str) -> tuple[str, ...] | None:
        """The human seats a player's key holds (maybe none: the creator of a game of bots);
        None for a spectator's key or a key of no one."""
        return self.keys.get(key_hash(key))

    def watches(self, key: str) -> bool:
        """Whether `key` is a spectator's."""
        return key_hash(key) in self.watchers

    def stop_thinking(self, pause: bool = False) -> None:
        """Stop a bot's thought in progress (a search ends after its current playout) and drop its
        answer: a person's request comes first. `pause`: no bot moves until resumed."""
        with self._gate:
            self.paused = self.paused or pause
            self._stopped.set()

    @property
    def humans(self) -> list[str]:
        return [p for p in self.game.s.players if self.seats.get(p) == "human"]

    def answer(self, player: str, answer: str) -> None:
        """A person answers for their seat; an illegal answer raises IllegalAction with the reason,
        said in the content's names."""
        try:
            self._answer(player, answer)
        except IllegalAction as exc:
            said = words_for(self.game.content).refusal(exc.code, exc.message, self.game.current(), self.game)
            raise IllegalAction(exc.code, said) from None

    def _answer(self, player: str, answer: str) -> None:
        d = self.game.current()
        if d is None:
            raise IllegalAction("game-over", "the game is over")
        if d.player != player:
            raise IllegalAction("not-your-turn", f"{d.player} is choosing now, not {player}")
        if self.seats.get(player) != "human":
            raise IllegalAction("bot-seat", f"{player} is played by the {self.seats.get(player)} bot")
        self.game.apply(answer)
        self.auto_steps()

    def auto_of(self, player: str) -> AutoAnswers:
        """The seat's auto-answer setting (the default until its person changes it)."""
        return self.auto.get(player) or AutoAnswers()

    def auto_steps(self) -> int:
        """Answer, as their seats' settings ask, the people's decisions that need no person
        (through Game.apply, so they are logged and undone like any answer); how many."""
        for n in range(MAX_AUTO_IN_A_ROW):
            d = self.game.current()
            if d is None or d.player in self.agents or self.seats.get(d.player) != "human":
                return n
            said = auto_answer(self.game, d, self.auto_of(d.player))
            if said is None:
                return n
            self.game.apply(said)
        return MAX_AUTO_IN_A_ROW

    def bot_step(self) -> bool:
        """Let the bot whose decision is pending answer it; False when a person (or nobody) must,
        when the game's bots are paused, or when the thought was stopped (nothing applied)."""
        d = self.game.current()
        with self._gate:
            if d is None or d.player not in self.agents or self.paused:
                return False
            self._stopped.clear()
        choice = self.agents[d.player].choose(d.player, d.options, d)
        if self._stopped.is_set():
            return False
        self.game.apply(choice)
        self.auto_steps()
        return True

    def undo_mine(self, held: tuple[str, ...]) -> int:
        """Take back the last answer a person gave (not one their seat's setting gave for them)
        and the answers after it; how many were undone."""
        players, _, autos = self._history()
        k = len(players)
        while k > 0 and (self.seats.get(players[k - 1]) != "human" or autos[k - 1]):
            k -= 1
        if k == 0:
            raise IllegalAction("nothing-to-undo", "no decision of a person to take back")
        n = len(players) - (k - 1)
        self.undoable_by(held, n, players)
        self.game.undo(n)
        return n

    def undo_to_event(self, seq: int, held: tuple[str, ...]) -> int:
        """Go back to the first decision after the log's event `seq`; how many answers were undone."""
        players, logged, _ = self._history()
        k = next((i for i, n in enumerate(logged) if n >= seq), None)
        if k is None:
            raise IllegalAction("no-such-event", f"the log has no event {seq}")
        n = len(self.game.choices) - k
        self.undoable_by(held, n, players)
        self.game.undo(n)
        return n

    def _history(self) -> tuple[list[str], list[int], list[bool]]:
        """Who answered each of the game's choices, the log's length before each choice and at
        the end, and which answers the seats' auto-answer settings gave (replayed from the
        parameters: exact)."""
        p = self.game.params
        g = Game(self.content, p["ruleset"], p["factions"], p["seed"], p["layout"],
                 forced_dice=p.get("forced_dice"), independents=p.get("independents"), first=p.get("first"))
        who, logged, autos = [], [], []
        for c in self.game.choices:
            d = g.current()
            assert d is not None
            who.append(d.player)
            logged.append(len(g.log))
            autos.append(self.seats.get(d.player) == "human" and auto_answer(g, d, self.auto_of(d.player)) == c)
            g.apply(c)
        logged.append(len(g.log))
        return who, logged, autos

    def save(self) -> dict[str, Any]:
        return {**self.game.to_json(), "seats": dict(self.seats)}

    def undo(self, n: int, held: tuple[str, ...]) -> int:
        """Take back the last `n` answers (each a bot's or one of `held`'s)."""
        self.undoable_by(held, n, self._history()[0])
        self.game.undo(n)
        return n

    def undoable_by(self, held: tuple[str, ...], n: int, players: list[str]) -> None:
        """Refuse to take back the last `n` answers unless each was a bot's or one of `held`'s
        (a friend's move is not yours to take back)."""
        for p in players[len(players) - n:]:
            if p not in self.agents and p not in held:
                raise IllegalAction("not-yours-to-undo", f"going back that far would take back {p}'s decision")
