"""Push: every browser that has a game open hears of each change as it happens (server-sent events).

`Bell.ring(gid, version)` is called on the event loop after a change is stored; each open stream of
that game wakes and sends the new version, and the browser fetches its own view. A stream also
sends a comment every KEEPALIVE seconds, so that a dead connection is noticed and closed.
"""
from __future__ import annotations

import asyncio
from typing import AsyncIterator, Callable

KEEPALIVE = 15.0
MAX_LISTENERS = 256   # open streams on the whole server; more are refused


class Bell:
    """One asyncio.Event per game with listeners, replaced each time it rings."""

    def __init__(self) -> None:
        self._events: dict[str, asyncio.Event] = {}
        self._listeners: dict[str, int] = {}
        self.closing = False
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def listening(self) -> int:
        return sum(self._listeners.values())

    def ring(self, gid: str) -> None:
        ev = self._events.pop(gid, None)
        if ev is not None:
            ev.set()

    def close(self) -> None:
        """Wake and end every stream (the server is stopping); callable from any thread."""
        self.closing = True
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._ring_all)

    def _ring_all(self) -> None:
        for gid in list(self._events):
            self.ring(gid)

    async def stream(self, gid: str, version_of: Callable[[], int]) -> AsyncIterator[str]:
        """The text/event-stream of a game: its version now, then at every change."""
        self._loop = asyncio.get_running_loop()
        self._listeners[gid] = self._listeners.get(gid, 0) + 1
        try:
            sent = -1
            while not self.closing:
                v = version_of()
                if v != sent:
                    sent = v
                    yield f"data: {v}\n\n"
                ev = self._events.setdefault(gid, asyncio.Event())
                try:
                    await asyncio.wait_for(ev.wait(), KEEPALIVE)
                except asyncio.TimeoutError:
                    yield ": still here\n\n"
        finally:
            self._listeners[gid] -= 1
            if not self._listeners[gid]:
                del self._listeners[gid]
                self._events.pop(gid, None)

