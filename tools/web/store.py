"""Games kept in one SQLite file (the standard library's sqlite3): each game's record (its save,
seats and the hashes of its keys) is written after every change, so a reload, a closed tab or a
server restart loses nothing.

Expiry, run when the server starts and whenever a game is created: a finished game is deleted
FINISHED_DAYS after its last change, an unfinished one IDLE_DAYS after its last change.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

FINISHED_DAYS = 30
IDLE_DAYS = 365
DAY = 86_400.0


class GameStore:
    """One table, `games(id, record, over, touched)`; `path` None keeps it in memory (tests)."""

    def __init__(self, path: Path | None = None) -> None:
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path) if path is not None else ":memory:", check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.execute("CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, record TEXT NOT NULL, "
                             "over INTEGER NOT NULL, touched REAL NOT NULL)")

    def put(self, gid: str, record: dict[str, Any], over: bool, now: float | None = None) -> None:
        text = json.dumps(record, separators=(",", ":"))
        with self._lock, self._db:
            self._db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?)",
                             (gid, text, int(over), time.time() if now is None else now))

    def get(self, gid: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE id = ?", (gid,)).fetchone()
        return None if row is None else json.loads(row[0])

    def expire(self, now: float | None = None) -> int:
        """Delete the games the README's rule lets go; how many were deleted."""
        t = time.time() if now is None else now
        with self._lock, self._db:
            cur = self._db.execute("DELETE FROM games WHERE (over = 1 AND touched < ?) OR touched < ?",
                                   (t - FINISHED_DAYS * DAY, t - IDLE_DAYS * DAY))
        return cur.rowcount

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
