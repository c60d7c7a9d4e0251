"""The units in marshal bytes chunk by chunk, each chunk kept until one of its units moves.

A State packs its units at every checkpoint (`State.pack`, the position kept for undo and
rollback) and hashes them for the position key (`State.units_hash`). Most decisions move one or
two units, so the bytes are kept per chunk of CHUNK units (in the order of `State.units`): a move
drops only its unit's chunk (`State.moved`), any other write to the units drops them all. The
key's sha1 is kept the same way: sha1 is sequential, so the hash after chunk c is the hash after
chunk c - 1 fed with chunk c's bytes; a move rehashes from its chunk on, to the same digest.
"""
from __future__ import annotations

import hashlib
import marshal
from typing import Any, Callable

CHUNK = 16
_LIST = b"["   # marshal's code for a list, followed by its length (4 bytes, little-endian)


class UnitChunks:
    """The kept bytes of one State's units (`n` of them), by chunk number."""

    __slots__ = ("n", "packed_", "keyed", "hashed")

    def __init__(self, n: int) -> None:
        self.n = n
        self.packed_: dict[int, bytes] = {}   # chunk -> marshal.dumps(chunk) (the current format)
        self.keyed: dict[int, bytes] = {}     # chunk -> its items in marshal format 2
        # hashed[c]: the sha1 of key_bytes' first bytes up to the end of chunk c (the list's header
        # first); only the chunks before the first one dropped since are kept
        self.hashed: list[Any] = []

    def drop(self, position: int) -> None:
        """The unit at `position` in the units changed: its chunk is made again when next asked."""
        c = position // CHUNK
        self.packed_.pop(c, None)
        self.keyed.pop(c, None)
        if c < len(self.hashed):
            del self.hashed[c:]

    def packed(self, units: list[dict[str, Any]]) -> tuple[bytes, ...]:
        """Each chunk packed by marshal (`unpacked` gives the units back)."""
        return tuple(self._chunks(self.packed_, units, marshal.dumps))

    def key_bytes(self, units: list[dict[str, Any]]) -> bytes:
        """Exactly `marshal.dumps(units, 2)`: format 2 writes each item without references to
        others, so the list's header and its chunks' items joined are the same bytes."""
        items = self._chunks(self.keyed, units, lambda chunk: marshal.dumps(chunk, 2)[1 + 4:])
        return b"".join([_LIST + self.n.to_bytes(4, "little"), *items])

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
                b = keyed.get(c)
                if b is None:
                    b = keyed[c] = marshal.dumps(units[c * CHUNK:(c + 1) * CHUNK], 2)[1 + 4:]
                h.update(b)
                hashed.append(h.copy() if c + 1 < chunks else h)
        return hashed[-1].copy()

    def _chunks(self, kept: dict[int, bytes], units: list[dict[str, Any]],
                dump: Callable[[list[dict[str, Any]]], bytes]) -> list[bytes]:
        """Each chunk's bytes: kept, or made by `dump` and kept."""
        out = []
        for c in range(0, (self.n + CHUNK - 1) // CHUNK):
            b = kept.get(c)
            if b is None:
                b = kept[c] = dump(units[c * CHUNK:(c + 1) * CHUNK])
            out.append(b)
        return out


def unpacked(chunks: tuple[bytes, ...]) -> list[dict[str, Any]]:
    """The units `UnitChunks.packed` packed, as new records."""
    return [u for b in chunks for u in marshal.loads(b)]


__all__ = ["CHUNK", "UnitChunks", "unpacked"]
