"""The units in marshal bytes chunk by chunk, each chunk kept until one of its units moves.

A State packs its units at every decision (`State.pack`, the position kept for undo and rollback)
and writes them for the position key (`State.units_key_bytes`). Most decisions move one or two
units, so the bytes are kept per chunk of CHUNK units (in the order of `State.units`): a move
drops only its unit's chunk (`State.moved`), any other write to the units drops them all.
"""
from __future__ import annotations

import marshal
from typing import Any, Callable

CHUNK = 16
_LIST = b"["   # marshal's code for a list, followed by its length (4 bytes, little-endian)


class UnitChunks:
    """The kept bytes of one State's units (`n` of them), by chunk number."""

    __slots__ = ("n", "packed_", "keyed")

    def __init__(self, n: int) -> None:
        self.n = n
        self.packed_: dict[int, bytes] = {}   # chunk -> marshal.dumps(chunk) (the current format)
        self.keyed: dict[int, bytes] = {}     # chunk -> its items in marshal format 2

    def drop(self, position: int) -> None:
        """The unit at `position` in the units changed: its chunk is made again when next asked."""
        c = position // CHUNK
        self.packed_.pop(c, None)
        self.keyed.pop(c, None)

    def packed(self, units: list[dict[str, Any]]) -> tuple[bytes, ...]:
        """Each chunk packed by marshal (`unpacked` gives the units back)."""
        return tuple(self._chunks(self.packed_, units, marshal.dumps))

    def key_bytes(self, units: list[dict[str, Any]]) -> bytes:
        """Exactly `marshal.dumps(units, 2)`: format 2 writes each item without references to
        others, so the list's header and its chunks' items joined are the same bytes."""
        items = self._chunks(self.keyed, units, lambda chunk: marshal.dumps(chunk, 2)[1 + 4:])
        return b"".join([_LIST + self.n.to_bytes(4, "little"), *items])

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
