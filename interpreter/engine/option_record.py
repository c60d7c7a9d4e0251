"""The option record's fields and its tuple behaviour (option.py's `Option` is made of `Record`).

A `Record` reads as the named tuple of its fields did: iterated, indexed and sliced, its length,
equality, ordering and hash those of the tuple of its fields (equal to that tuple too), its repr
`Option(kind=..., ...)`, `_fields`, `_replace`, `_asdict`, pickled and copied by its fields; its
fields are read-only. In the compiled core (option_record.pxd) it is an extension type and its
fields are C fields: a record is made through the type's C `tp_new` and C writes (`fill`; a
listing makes a record or two per new action or unit move), not as a tuple subclass through
`tuple.__new__` called as a method (a generic method call, an argument tuple sliced, a temporary
tuple, an instance dict for the label).
"""
from __future__ import annotations

from typing import Any, Iterator

__all__ = ["FIELDS", "Record", "fill", "keep_label"]

FIELDS = ("kind", "verb", "unit_kind", "unit", "src", "dst", "area", "ability", "player", "spellbook", "cost",
          "value", "word", "gate")
_COST = FIELDS.index("cost")


class Record:
    """An option's fields (option.py's `Option` says what they mean); `_label` its label once made."""

    _fields = FIELDS

    def __init__(self, kind: str, verb: str, unit_kind: str | None = None, unit: int | None = None,
                 src: str | None = None, dst: str | None = None, area: str | None = None, ability: str | None = None,
                 player: str | None = None, spellbook: str | None = None, cost: int | None = None,
                 value: int | None = None, word: str | None = None, gate: bool = False) -> None:
        fill(self, kind, verb, unit_kind, unit, src, dst, area, ability, player, spellbook, cost, value, word, gate,
             None)

    def fields(self) -> tuple[Any, ...]:
        """The fields as a plain tuple, in FIELDS' order."""
        return (self.kind, self.verb, self.unit_kind, self.unit, self.src, self.dst, self.area, self.ability,
                self.player, self.spellbook, self.cost, self.value, self.word, self.gate)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an option's fields are read-only ({name})")

    def __len__(self) -> int:
        return len(FIELDS)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fields())

    def __getitem__(self, i: Any) -> Any:
        if i == _COST:   # (the listings read a record's cost as its item: answered first)
            return self.cost
        return self.fields()[i]

    def __hash__(self) -> int:
        return hash(self.fields())

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, Record):
            return _equal(self, other)
        return self.fields() == other

    def __ne__(self, other: Any) -> bool:
        if isinstance(other, Record):
            return not _equal(self, other)
        return self.fields() != other

    def __lt__(self, other: Any) -> bool:
        return _as_tuple(self) < _as_tuple(other)

    def __le__(self, other: Any) -> bool:
        return _as_tuple(self) <= _as_tuple(other)

    def __gt__(self, other: Any) -> bool:
        return _as_tuple(self) > _as_tuple(other)

    def __ge__(self, other: Any) -> bool:
        return _as_tuple(self) >= _as_tuple(other)

    def __repr__(self) -> str:
        return "Option(" + ", ".join(f"{k}={v!r}" for k, v in zip(FIELDS, self.fields())) + ")"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return type(self), self.fields()

    def _replace(self, **changes: Any) -> Any:
        """A copy with `changes` (field=value), as a named tuple's `_replace`."""
        values = self._asdict()
        for k in changes:
            if k not in values:
                raise ValueError(f"Got unexpected field names: {[k for k in changes if k not in values]!r}")
        values.update(changes)
        return type(self)(**values)

    def _asdict(self) -> dict[str, Any]:
        """The fields by name."""
        return dict(zip(FIELDS, self.fields()))


def _equal(a: Record, b: Record) -> bool:
    """Whether two records' fields are equal, as their tuples compare (each field by identity first),
    without the tuples made."""
    return a is b or (_same(a.verb, b.verb) and _same(a.kind, b.kind) and _same(a.unit_kind, b.unit_kind)
                      and _same(a.unit, b.unit) and _same(a.src, b.src) and _same(a.dst, b.dst)
                      and _same(a.area, b.area) and _same(a.ability, b.ability) and _same(a.player, b.player)
                      and _same(a.spellbook, b.spellbook) and _same(a.cost, b.cost) and _same(a.value, b.value)
                      and _same(a.word, b.word) and _same(a.gate, b.gate))


def _same(x: Any, y: Any) -> bool:
    """`x == y` as a tuple compares its items: identity first."""
    return x is y or bool(x == y)


def _as_tuple(x: Any) -> Any:
    """A record's fields as a tuple (what it compares as); anything else as it is."""
    return x.fields() if isinstance(x, Record) else x


def fill(o: Record, kind: str, verb: str, unit_kind: Any, unit: Any, src: Any, dst: Any, area: Any, ability: Any,
         player: Any, spellbook: Any, cost: Any, value: Any, word: Any, gate: bool, label: str | None) -> None:
    """Set a new record's fields: C writes in the compiled core (read-only from Python), else
    written straight into the instance's dict (`__setattr__` refuses every write)."""
    if _C_FIELDS:
        o.kind = kind
        o.verb = verb
        o.unit_kind = unit_kind
        o.unit = unit
        o.src = src
        o.dst = dst
        o.area = area
        o.ability = ability
        o.player = player
        o.spellbook = spellbook
        o.cost = cost
        o.value = value
        o.word = word
        o.gate = gate
        o._label = label
    else:
        o.__dict__.update(kind=kind, verb=verb, unit_kind=unit_kind, unit=unit, src=src, dst=dst, area=area,
                          ability=ability, player=player, spellbook=spellbook, cost=cost, value=value, word=word,
                          gate=gate, _label=label)


def keep_label(o: Record, label: str) -> None:
    """Keep a record's label, made when first read."""
    if _C_FIELDS:
        o._label = label
    else:
        o.__dict__["_label"] = label


#: whether a record's fields are C fields (the compiled core) rather than the instance's dict's
_C_FIELDS = not hasattr(Record.__new__(Record), "__dict__")
