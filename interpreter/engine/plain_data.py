"""JSON-ready data (lists, dicts, str, int, float, bool, None), as a State holds it: deep copies
as JSON would give them back, and bytes that are equal exactly when the data are. `State.copy`
copies its fields with these; the position key and the kept position write them."""
from __future__ import annotations

import json
import marshal
from typing import Any


def key_bytes(value: Any) -> bytes:
    """JSON-ready data as bytes that are equal exactly when the data are (as JSON texts are, dicts
    in their order): marshal's format 2, which writes no back-references and no interned-string
    marks (later formats do, so that equal data may give other bytes). About 3x cheaper than
    `json.dumps`. A state holds only lists, dicts, str, int, bool and None, as JSON gives back."""
    return marshal.dumps(value, 2)


_ATOMS = frozenset((str, int, bool, float, type(None)))


def plain_copy(v: Any) -> Any:
    """A deep copy of JSON-ready data as JSON would give it back."""
    cls = type(v)
    if cls in _ATOMS:
        return v
    if cls is dict:
        return {(k if type(k) is str else _key(k)): (x if type(x) in _ATOMS else plain_copy(x))
                for k, x in v.items()}
    if cls is list:
        return [x if type(x) in _ATOMS else plain_copy(x) for x in v]
    if isinstance(v, dict):
        return {(k if type(k) is str else _key(k)): plain_copy(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain_copy(x) for x in v]
    if isinstance(v, (str, int, float)):
        return json.loads(json.dumps(v))
    raise TypeError(f"Object of type {type(v).__name__} is not JSON serializable")


def _key(k: Any) -> str:
    if isinstance(k, str):
        return str(k)
    if k is True or k is False or k is None or isinstance(k, (int, float)):
        return json.dumps(k)  # type: ignore[no-any-return]
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")


def records_copy(v: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of a list of flat records of strings and numbers (units, tokens)."""
    return [r.copy() for r in v]


def lists_copy(v: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """A copy of a dict of flat lists of strings or numbers (per player: elder signs, spellbooks, ...)."""
    return {k: list(x) for k, x in v.items()}


def data_copy(v: Any) -> Any:
    """A copy of JSON-ready `v` for `same_data`: atoms themselves, a list a list of copies, a dict a
    plain tuple of None then its keys' and values' copies interleaved in its order, a tuple a
    `_TupleCopy`, anything else (a float) its `key_bytes` as `_Written`. No container's copy is
    ever a live value (none is the empty tuple)."""
    t = type(v)
    if t is str or t is int or t is bool or v is None:
        return v
    if t is dict:
        d = v
        out = [None]
        for k, x in d.items():
            out.append(data_copy(k))
            out.append(data_copy(x))
        return tuple(out)
    if t is list:
        return [data_copy(x) for x in v]
    if t is tuple:
        return _TupleCopy([data_copy(x) for x in v])
    return _Written(key_bytes(v))


class _TupleCopy(tuple):  # type: ignore[type-arg]
    """A tuple's copy (`data_copy`: a plain tuple is a dict's)."""
    __slots__ = ()


class _Written(bytes):
    """The copy of a value `data_copy` does not walk: its key bytes."""
    __slots__ = ()


def same_data(v: Any, c: Any) -> bool:
    """Whether `key_bytes(v)` is the key bytes of the value `c` is a copy of (`data_copy`), without
    writing them: the same types all through (1 is not True, a tuple not a list), the same keys
    in the same order, equal atoms."""
    if v is c:
        return True   # (an atom: a container's copy is a new object, never a live value)
    t = type(v)
    if t is str or t is int or t is bool:
        return type(c) is t and v == c  # type: ignore[no-any-return]
    tc = type(c)
    if t is dict:
        if tc is not tuple:
            return False
        d, dc = v, c
        if len(dc) != 2 * len(d) + 1:
            return False
        j = 1
        for k, x in d.items():
            y = dc[j + 1]
            if not (x is y or same_data(x, y)) or not (k is dc[j] or same_data(k, dc[j])):
                return False
            j += 2
        return True
    if t is list or t is tuple:
        if tc is not (list if t is list else _TupleCopy):
            return False
        n = len(v)
        if n != len(c):
            return False
        for i in range(n):
            x, y = v[i], c[i]
            if not (x is y or same_data(x, y)):
                return False
        return True
    return tc is _Written and key_bytes(v) == c  # type: ignore[no-any-return]


class KeptParts:
    """The `key_bytes` of a sequence of values kept value by value: `joined(head, values)` is
    `head` and each value's bytes joined, and writes again only the values that changed since the
    last call, which it finds by comparing each with a copy of the one its kept bytes were written
    from (`data_copy`, `same_data`: exact, whoever changed the value, in place or not, and
    whatever object it is). Marshal's format 2 writes each item of a tuple without references to
    the others, so `joined(b"(" + n.to_bytes(4, "little"), values)` is `key_bytes(tuple(values))`.
    Each value's copy and bytes are kept as one pair, replaced whole, so that games in two threads
    may share one (each call joins the pairs it compared)."""

    __slots__ = ("kept",)

    def __init__(self) -> None:
        self.kept: list[tuple[Any, bytes]] = []   # value i -> (the copy its bytes were written from, the bytes)

    def joined(self, head: bytes, values: Any) -> bytes:
        """`head` and the values' `key_bytes`, joined (see the class)."""
        kept = self.kept
        n = len(values)
        if len(kept) != n:
            kept = self.kept = [(_NOTHING, b"")] * n
        parts = [head] * (n + 1)
        for i in range(n):
            v = values[i]
            pair = kept[i]
            c = pair[0]
            if v is not c and not same_data(v, c):
                b = key_bytes(v)   # (first: a value marshal cannot write raises as it did)
                pair = kept[i] = (data_copy(v), b)
            parts[i + 1] = pair[1]
        return b"".join(parts)


_NOTHING = object()   # a kept copy that no value is the same as (no bytes kept yet)


__all__ = ["KeptParts", "key_bytes", "lists_copy", "plain_copy", "records_copy", "data_copy", "same_data"]
