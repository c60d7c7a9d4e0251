"""Every game this server holds, by unguessable id: made from a new-game form or a save, kept in the
store after every change, brought back from it after a restart, at most LIVE_GAMES in memory.

Making a game hands out its keys: one per human seat (the link a friend is sent), one for the
seats the creator plays at their own screen (several for hot-seat) and one for spectators. The
server keeps only the keys' hashes.
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.game import Game, GameError

from necronomicon.tools.auto_answers import AutoAnswers
from necronomicon.tools.game_setup import seated, make_game

from . import checks
from .guard import RequestRefused
from .new_game import new_game_setup, seats_by_row
from .sessions import (MAX_BOT_SECONDS, ContentCache, Session, SessionError, check_seat, key_hash,
                       new_key)
from .store import GameStore

LIVE_GAMES = 32   # games held in memory at once; the rest wait in the store


class Games:
    """The games of one server, over its content cache and its store."""

    def __init__(self, contents: ContentCache, store: GameStore, max_bot_seconds: float = MAX_BOT_SECONDS) -> None:
        self.contents = contents
        self.store = store
        self.max_bot_seconds = max_bot_seconds
        self._live: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        store.expire()

    def get(self, gid: str) -> Session:
        """The game `gid`, from memory or from the store."""
        with self._lock:
            s = self._live.get(gid)
            if s is not None:
                self._live.move_to_end(gid)
                return s
        record = self.store.get(gid) if isinstance(gid, str) and len(gid) < 100 else None
        if record is None:
            raise RequestRefused("no such game on this server (it may have expired)", 404)
        s = self._restore(record)
        with self._lock:
            s = self._live.setdefault(gid, s)
            self._evict()
        return s

    def keep(self, gid: str, s: Session) -> None:
        """Write the game to the store (after every change) and count the change for the browsers."""
        s.version += 1
        self.store.put(gid, self._record(s), s.game.current() is None)

    def new(self, spec: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """A game from the new-game form (tools/game_setup.py: factions, some maybe `random`,
        seating, layout, first player, Independents); its id and its links' keys. `seats` and
        `mine` name factions, or seat rows by number (a drawn faction is not known beforehand)."""
        known = self.contents.available_expansions()
        exps = spec.get("expansions")
        content = self.contents.get(None if exps is None else checks.names(exps, "expansions", known))
        setup = new_game_setup(spec, content)
        try:
            rows, factions = seated(content, setup)
            game = make_game(content, setup)
        except GameError as exc:
            raise SessionError(str(exc)) from None
        seats = seats_by_row(spec.get("seats"), rows)
        mine = spec.get("mine")
        if isinstance(mine, list) and all(isinstance(m, int) and not isinstance(m, bool) for m in mine):
            mine = [rows[checks.whole(m, "mine", 0, len(rows) - 1)] for m in mine]
        return self._add(game, content, seats, setup.seed, mine)

    def load(self, save: Any, seats: Any = None, mine: Any = None) -> tuple[str, dict[str, Any]]:
        """A game from a save (its seats unless `seats` overrides them); its id and its links' keys."""
        if not isinstance(save, dict) or not isinstance(save.get("params"), dict):
            raise SessionError("not a saved game (a save is the JSON a board's Save button downloads)")
        p = save["params"]
        exps = p.get("expansions", [])
        content = self.contents.get(checks.names(exps, "params.expansions", self.contents.available_expansions())
                                    if exps else [])
        try:
            game = Game.from_json(content, save, replayed=True)   # the check's replay: its whole log
        except (GameError, KeyError, TypeError, ValueError) as exc:
            raise SessionError(f"cannot load the save: {exc}") from None
        chosen = checks.mapping(seats or save.get("seats") or {}, "seats", game.s.players)
        return self._add(game, content, chosen, int(game.params["seed"]), mine)

    def _add(self, game: Game, content: Content, seats: dict[str, str], seed: int,
             mine: Any) -> tuple[str, dict[str, Any]]:
        seats = {p: seats.get(p, "human") for p in game.s.players}
        for p in game.s.players:
            check_seat(seats[p], p, self.max_bot_seconds)
        humans = [p for p in game.s.players if seats[p] == "human"]
        held = humans if mine is None else checks.names(mine, "mine", humans)
        links = {"seats": {p: new_key() for p in humans}, "mine": new_key(), "spectator": new_key()}
        keys = {key_hash(k): (p,) for p, k in links["seats"].items()}
        keys[key_hash(links["mine"])] = tuple(held)
        s = Session(game, content, seats, seed, keys, {key_hash(links["spectator"])})
        s.auto_steps()   # the people's first decisions that need no person
        gid = secrets.token_urlsafe(12)
        with self._lock:
            self._live[gid] = s
            self._evict()
        self.keep(gid, s)
        self.store.expire()
        return gid, links

    def _evict(self) -> None:
        for gid in list(self._live)[:max(0, len(self._live) - LIVE_GAMES)]:
            if not self._live[gid].lock.locked():
                del self._live[gid]

    def _record(self, s: Session) -> dict[str, Any]:
        return {"save": s.save(), "keys": {h: list(held) for h, held in s.keys.items()},
                "watchers": sorted(s.watchers), "paused": s.paused,
                "auto": {p: a.as_json() for p, a in s.auto.items()}}

    def _restore(self, record: dict[str, Any]) -> Session:
        save = record["save"]
        p = save["params"]
        content = self.contents.get(list(p.get("expansions") or []))
        try:
            game = Game.from_json(content, save, replayed=True)
        except (GameError, KeyError, TypeError, ValueError) as exc:
            raise SessionError(f"the stored game cannot be read back: {exc}") from None
        keys = {h: tuple(held) for h, held in record["keys"].items()}
        s = Session(game, content, dict(save.get("seats") or {}), int(p["seed"]), keys, set(record["watchers"]))
        s.paused = bool(record.get("paused"))
        s.auto = {p: AutoAnswers.from_json(a) for p, a in (record.get("auto") or {}).items() if p in s.humans}
        return s

