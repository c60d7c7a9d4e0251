"""A Move's surcharges kept across positions (`action_cost` per destination area, moves.py): most
of a listing's asks repeat one made at an earlier position with the same inputs.

What a modifier reads is known from its text (`Modifier.inputs`: the queries it calls, the names
and fields it reads). Where every active action-cost modifier reads only `me`, `subject`, `value`,
the players, the subject's own fields and the data fields of records (`loc`, `owner`, `id`), and
calls only queries whose answer depends on State fields kept whole below (tokens, Power, Doom,
spellbooks, ...: effects/primitive_facts.READS), the modified cost is a function of the modifiers
(with their owners), the action, the player, the area, the base cost and those fields' values.
The costs by area are kept in a table keyed by exactly those but the area (the fields' values as
`_part` makes them), so that no write can leave them stale; the map and content tables are pinned beside it (compared by identity). Not kept
when a grant is in play (a lent ability reads kinds through a stand-in), or at a formula depth
that would raise. NECRO_CHECK_MEMO=1 works every kept cost out afresh at each use and compares
(moves.move_options).
"""
from __future__ import annotations

from marshal import dumps as marshal_dumps
from typing import Any

from ..limits import MAX_FORMULA_DEPTH
from .state_parts import parts_read_by

# State fields a kept cost may read, each kept whole (marshal bytes): small, plain data
PARTS = frozenset({"tokens", "power", "doom", "spellbooks", "first", "round", "players", "home", "battle"})
NAMES = {"me": (), "subject": (), "value": (), "enemies": ("players",), "players": ("players",)}
SUBJECT_FIELDS = frozenset({"action", "player", "area"})   # `action_cost`'s subject record
DATA_FIELDS = frozenset({"loc", "owner", "id"})   # fields every unit and token record holds as data
FIELDS = SUBJECT_FIELDS | DATA_FIELDS   # the record fields a kept cost's modifier may read
_LIMIT = 50_000   # entries kept at most (the table starts afresh past it)
_KEPT: dict[tuple[Any, ...], tuple[Any, ...]] = {}   # key -> (map, tables, modifiers, costs by area)
_LIST, _DICT = object(), object()   # the first item of `_part`'s tuples (no other value starts so)
_LAST: list[Any] = [None, None]   # the last modifier list planned, its plan


def parts_of(m: Any) -> tuple[str, ...] | None:
    """The State fields modifier `m` reads (sorted), or None when its cost cannot be kept: the
    fields each query it calls reads, whatever its arguments (`state_parts.parts_read_by`: a kept
    cost is keyed by whole fields), all of them among PARTS."""
    found = parts_read_by(m.inputs, NAMES, FIELDS, by_call=True)
    if found is None or not found <= PARTS:
        return None
    return tuple(sorted(found))


def plan(mods: Any) -> tuple[Any, ...] | None:
    """What keeping a cost modified by `mods` (one position's action-cost modifiers) reads: (the
    modifiers' identities with their owners, the parts, the modifiers), or None when it cannot
    be kept. Found once per list (the last list asked is kept beside its plan)."""
    if _LAST[0] is mods:
        return _LAST[1]  # type: ignore[no-any-return]
    found: set[str] = set()
    ident = []
    ms = []
    out: tuple[Any, ...] | None = None
    for owner, _, m in mods:
        parts = parts_of(m)
        if parts is None:
            break
        found.update(parts)
        ident.append((owner, id(m)))
        ms.append(m)
    else:
        out = (tuple(ident), tuple(sorted(found)), tuple(ms))
    _LAST[0], _LAST[1] = mods, out
    return out


def _part(s: Any, f: str) -> Any:
    """State field `f`'s value as a key holds it: None, a string or an integer (not a bool) as
    itself, a list of strings and of dicts of strings to strings or None (the tokens) as a tuple
    (`_LIST`, then each string, or each dict as (`_DICT`, key, value, ...)), any other as marshal
    bytes. Each kind compares equal only to its own kind, exactly when the values are equal."""
    v = getattr(s, f)
    cls = type(v)
    if v is None or cls is str or cls is int:
        return v
    if cls is list:
        out = [_LIST]
        for x in v:
            if type(x) is str:
                out.append(x)
                continue
            if type(x) is not dict:
                return marshal_dumps(v)
            items = [_DICT]
            for k, y in x.items():
                if type(k) is not str or not (y is None or type(y) is str):
                    return marshal_dumps(v)
                items.append(k)
                items.append(y)
            out.append(tuple(items))
        return tuple(out)
    return marshal_dumps(v)


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether tuples `a` and `b` hold the same objects."""
    n = len(a)
    if n != len(b):
        return False
    i = 0
    while i < n:
        if a[i] is not b[i]:
            return False
        i += 1
    return True


def costs_at(g: Any, p: str, action: str, base: int, mods: Any) -> dict[str, int] | None:
    """The costs of `action` for `p` from base cost `base` modified by `mods` (one position's
    action-cost modifiers, not empty), by area, kept for the state as it is now: a dict that the
    caller fills with `action_cost`'s answers (moves.py) and reads back at any position where the
    modifiers and the State fields they read are the same; None when they cannot be kept."""
    s = g.s
    if type(base) is not int or s.grants or g.formula_depth >= MAX_FORMULA_DEPTH:
        return None
    pl = plan(mods)
    if pl is None:
        return None
    key = (pl[0], action, p, base, tuple([_part(s, f) for f in pl[1]]))
    kept = _KEPT.get(key)
    if kept is not None and kept[0] is g.layout and kept[1] is g.tables and _same(kept[2], pl[2]):
        return kept[3]  # type: ignore[no-any-return]
    if len(_KEPT) >= _LIMIT:
        _KEPT.clear()
    costs: dict[str, int] = {}
    _KEPT[key] = (g.layout, g.tables, pl[2], costs)
    return costs
