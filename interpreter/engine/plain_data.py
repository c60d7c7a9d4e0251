"""JSON-ready data (lists, dicts, str, int, float, bool, None), as a State holds it: deep copies
as JSON would give them back, and bytes that are equal exactly when the data are. `State.copy`
copies its fields with these; the position key and the kept position write them.

The position key's bytes of the State's fields beside the units (`RestBytes`) are kept field by
field. `phases.position_key` hashes the units' kept bytes (unit_chunks.py), then
`key_bytes((rest, memory))`: marshal's format 2 of a tuple of the other keyed fields in field order
and of memory. That format writes no references, so a tuple's bytes are its header and its items'
own bytes joined, and those of a run of neighbouring items are the run's tuple's bytes without its
header. The fields in `KEPT` change seldom (an Elder Sign, a spellbook, a requirement, a token, an
awakening, a start area) but hold most of the rest's strings, and marshalling strings is most of its cost:
their bytes are kept on the State, each beside the value object it was made from, and used while
that object is still the field's value and no write to it was noted since (`State.wrote(name)`
drops it; every engine write to those fields notes itself). The other fields, which change with
most actions (Power, gates, the step, memory), are made afresh, a run at a time. Checking mode
(NECRO_CHECK_MEMO=1) compares every key's bytes with bytes made afresh, so a write not noted raises.
"""
from __future__ import annotations

import json
import marshal
import operator
import struct
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
    cls = v.__class__
    if cls in _ATOMS:
        return v
    if cls is dict:
        return {(k if k.__class__ is str else _key(k)): (x if x.__class__ in _ATOMS else plain_copy(x))
                for k, x in v.items()}
    if cls is list:
        return [x if x.__class__ in _ATOMS else plain_copy(x) for x in v]
    if isinstance(v, dict):
        return {(k if k.__class__ is str else _key(k)): plain_copy(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain_copy(x) for x in v]
    if isinstance(v, (str, int, float)):
        return json.loads(json.dumps(v))
    raise TypeError(f"Object of type {v.__class__.__name__} is not JSON serializable")


def _key(k: Any) -> str:
    if isinstance(k, str):
        return str(k)
    if k is True or k is False or k is None or isinstance(k, (int, float)):
        return json.dumps(k)  # type: ignore[no-any-return]
    raise TypeError(f"keys must be str, int, float, bool or None, not {k.__class__.__name__}")


def records_copy(v: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of a list of flat records of strings and numbers (units, tokens)."""
    return [r.copy() for r in v]


def lists_copy(v: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """A copy of a dict of flat lists of strings or numbers (per player: elder signs, spellbooks, ...)."""
    return {k: list(x) for k, x in v.items()}


# the fields a position key reads beside the units (first) and memory (last), in field order
NOT_KEYED = ("seq", "memory", "flow", "pending", "units")
# the fields whose key bytes are kept until a write to them is noted (`State.wrote`)
KEPT = frozenset(("elder_signs", "revealed", "es_bag", "spellbooks", "requirements", "tokens", "awakened", "home"))


_KEPT, _ONE, _RUN = 0, 1, 2   # the kinds of a key's pieces (`RestBytes.pieces`)


def _plan(names: tuple[str, ...]) -> tuple[bytes, tuple[tuple[int, Any], ...], Any]:
    """The key's header (the outer pair's and the fields' tuple headers), its pieces in order
    ((_KEPT, name) for a kept field, (_ONE, name) for a lone field made afresh, (_RUN, getter of
    their values as a tuple) for a run of them) and the getter of the last run's values, which
    memory, the pair's second item, follows."""
    pieces: list[tuple[int, Any]] = []
    run: list[str] = []
    for name in names:
        if name not in KEPT:
            run.append(name)
            continue
        if len(run) == 1:
            pieces.append((_ONE, run[0]))
        elif run:
            pieces.append((_RUN, operator.attrgetter(*run)))
        run = []
        pieces.append((_KEPT, name))
    head = b"(" + struct.pack("<i", 2) + b"(" + struct.pack("<i", len(names))
    last = operator.attrgetter(*run) if len(run) > 1 else (lambda s: (getattr(s, run[0]),)) if run else (lambda s: ())
    return head, tuple(pieces), last


class RestBytes:
    """The keyed fields but the units and memory (`names`, in field order), as the key's bytes."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.whole = operator.attrgetter(*names)
        self.head, self.pieces, self.last = _plan(names)

    def key_bytes(self, s: Any, memory: dict[str, Any]) -> bytes:
        """`key_bytes((the fields' values, memory))`, with the kept fields' bytes reused. `memory`
        is the caller's (the position key leaves its action counters out): it replaces s.memory."""
        kept = s._kept_bytes
        if kept is None:
            kept = s._kept_bytes = {}
        values = s.__dict__
        parts = [self.head]
        for kind, x in self.pieces:
            if kind == _KEPT:
                v = values[x]
                k = kept.get(x)
                if k is None or k[0] is not v:
                    k = kept[x] = (v, marshal.dumps(v, 2))
                parts.append(k[1])
            elif kind == _ONE:
                parts.append(marshal.dumps(values[x], 2))
            else:   # (a run's tuple's bytes without their header: 5 bytes)
                parts.append(marshal.dumps(x(s), 2)[5:])
        parts.append(marshal.dumps((*self.last(s), memory), 2)[5:])
        return b"".join(parts)

    def fresh(self, s: Any, memory: dict[str, Any]) -> bytes:
        """The same bytes made afresh (what checking mode compares the kept ones with)."""
        return key_bytes((self.whole(s), memory))


__all__ = ["KEPT", "NOT_KEYED", "RestBytes", "key_bytes", "lists_copy", "plain_copy", "records_copy"]
