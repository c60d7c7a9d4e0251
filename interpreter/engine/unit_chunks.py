"""The units' key bytes kept unit by unit and chunk by chunk, each kept until its unit moves.

The position key hashes the units (`State.units_hash`) and the kept position packs them
(`State.pack`, the position kept for undo and rollback), both as marshal's format 2 of
`State.units`: that format writes each item without references to others, so the list's bytes
are its header and its units' own bytes joined. Most decisions move one or two units, so each
unit's bytes are kept (a move makes only that unit's again), and so are those of each chunk of
CHUNK units joined (a key joins a few chunks, not every unit). A move drops its unit
(`State.moved`); any other write to the units drops them all. The key's sha1 is kept the same
way: sha1 is sequential, so the hash after chunk c is the hash after chunk c - 1 fed with chunk
c's bytes, and a move rehashes from its chunk on, to the same digest.
"""
from __future__ import annotations

import hashlib
import marshal
from marshal import dumps as marshal_dumps
from typing import Any

CHUNK = 16
_LIST = b"["   # marshal's code for a list, followed by its length (4 bytes, little-endian)


class UnitChunks:
    """The kept bytes of one State's units (`n` of them), by unit and by chunk."""

    __slots__ = ("n", "items", "keyed", "whole", "hashed")

    def __init__(self, n: int) -> None:
        self.n = n
        self.items: list[bytes | None] = [None] * n   # unit i -> marshal.dumps(unit, 2)
        self.keyed: dict[int, bytes] = {}              # chunk -> its units' bytes joined
        self.whole: bytes | None = None                # key_bytes, until a unit is dropped
        # hashed[c]: the sha1 of key_bytes' first bytes up to the end of chunk c (the list's header
        # first); only the chunks before the first one dropped since are kept
        self.hashed: list[Any] = []

    def drop(self, position: int) -> None:
        """The unit at `position` in the units changed: its bytes are made again when next asked."""
        self.items[position] = None
        c = position // CHUNK
        self.keyed.pop(c, None)
        self.whole = None
        if c < len(self.hashed):
            del self.hashed[c:]

    def key_bytes(self, units: list[dict[str, Any]]) -> bytes:
        """Exactly `marshal.dumps(units, 2)` (`marshal.loads` gives the units back)."""
        b = self.whole
        if b is None:
            keyed = self.keyed
            parts = [_LIST + self.n.to_bytes(4, "little")]
            for c in range((self.n + CHUNK - 1) // CHUNK):
                x = keyed.get(c)   # (read here: a method call per kept chunk costs more than the read)
                parts.append(x if x is not None else self._chunk(c, units))
            b = self.whole = b"".join(parts)
        return b

    def sha1(self, units: list[dict[str, Any]]) -> Any:
        """A sha1 object fed with `key_bytes(units)` (a new copy: the caller may feed it more),
        rehashed only from the first chunk dropped since the last call."""
        hashed = self.hashed
        chunks = (self.n + CHUNK - 1) // CHUNK
        if len(hashed) < chunks or not hashed:
            if hashed:
                h = hashed[-1].copy()
            else:
                h = hashlib.sha1(_LIST + self.n.to_bytes(4, "little"))
                if not chunks:
                    return h
            keyed = self.keyed
            for c in range(len(hashed), chunks):
                x = keyed.get(c)
                h.update(x if x is not None else self._chunk(c, units))
                hashed.append(h.copy() if c + 1 < chunks else h)
        return hashed[-1].copy()

    def _chunk(self, c: int, units: list[dict[str, Any]]) -> bytes:
        """Chunk `c`'s units' bytes joined from the kept units' bytes (each unit's made if
        dropped), and kept."""
        items = self.items
        parts = []
        for i in range(c * CHUNK, min(self.n, (c + 1) * CHUNK)):
            x = items[i]
            if x is None:
                x = items[i] = marshal_dumps(units[i], 2)
            parts.append(x)
        b = self.keyed[c] = b"".join(parts)
        return b


__all__ = ["CHUNK", "UnitChunks"]
