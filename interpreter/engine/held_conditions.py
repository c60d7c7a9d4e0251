"""A requirement's condition checked with no event (the "state" check after every action), kept
while the parts of the state it reads are unchanged.

What a condition reads is known from its text (`Requirement.inputs`: the primitives it calls, the
names and fields it reads). A condition is kept only when every one of those is in the tables
of state_parts.py, which say which State fields each query's answer depends on. The kept answer is stored in
the rules context's memo record for the state object (`Rules.held_conditions`: a copy, a clone or
a restored position starts with none) beside the exact values of those fields (marshal bytes);
the units are stood for by the state's write counter and number of units (every write to a unit's
place or owner bumps the counter: `State.written`), or, for a query that reads only who owns which unit ("unit-owners": the gates' controllers), by the
counter of the writes that are not a unit's move (`State.other_writes`), or, for one player's own
units ("units@"), by that counter and the count of moves of that player's units
(`State.moves_of`). What a requirement reads is found once, at its first check (`_plan`); a key
is found once per position a check looks at, for all of a player's conditions that read the
same parts. NECRO_CHECK_MEMO=1 re-evaluates every kept answer and compares.
"""
from __future__ import annotations

from marshal import dumps as marshal_dumps
import sys
from typing import Any

from . import state as state_module
from .context import new_ctx
from .requirements import checked_at, met_in_battle
from .state_parts import READS, SCOPED, parts_read_by   # (READS and SCOPED: the tables it reads, named here for tests)
from . import abilities
from . import actions

# What a condition reads: the parts its calls read (state_parts.py: READS, narrowed per call by its
# arguments: `me` as its player reads the player's part, SCOPED, BY_PARAMETER), and the players,
# which every kept condition reads; the names and record fields a kept condition may read.
NAMES: dict[str, tuple[str, ...]] = {"me": (), "enemies": ("players",), "players": ("players",)}
FIELDS = frozenset({"loc", "owner", "id"})   # fields every unit and token record holds as data

# requirement (by id) -> its plan: (the requirement, the parts its condition reads or None, how
# each part is read (`_READERS`), its evaluation's ability name, its key among the held conditions)
_PARTS: dict[int, tuple[Any, tuple[str, ...] | None, tuple[tuple[int, str], ...], str, str | None]] = {}


def parts_read(r: Any) -> tuple[str, ...] | None:
    """The State fields requirement `r`'s condition reads, or None when that is not known."""
    return _plan(r)[1]  # type: ignore[no-any-return]


def _plan(r: Any) -> tuple[Any, ...]:
    """`r`'s plan (`_PARTS`), made at its first check: what a check of it reads, found once."""
    kept = _PARTS.get(id(r))
    if kept is not None and kept[0] is r:
        return kept
    parts = _parts_of(r)
    reads = []
    for f in parts or ():
        reads.append(_reader(f))
    rid = getattr(r, "id", None)   # (a stand-in whose parts alone are asked may have no id or key)
    plan = (r, parts, tuple(reads), f"requirement {rid}", getattr(r, "key", None))
    _PARTS[id(r)] = plan
    return plan


def _parts_of(r: Any) -> tuple[str, ...] | None:
    """`parts_read`, worked out from the condition's inputs (`state_parts.parts_read_by`), with
    the parts that others it reads hold whole left out."""
    found = parts_read_by(r.inputs, NAMES, FIELDS)
    if found is None:
        return None
    found.add("players")
    found -= {f for f in found if (f[-1] == "@" or f in _WHOLES) and _held_whole(f, found)}
    return tuple(sorted(found))


# how `_part_now` finds a part: by a number (a C switch in the compiled core, no string compares),
# with the State field's name for a player's part or a whole field
# (the players, which every kept condition reads: a field read as such, a C load in the compiled core)
_UNIT_GATES, _UNITS, _UNIT_OWNERS, _MY_UNITS, _MY_GATES, _GATE_PLACES, _MINE, _WHOLE, _PLAYERS = range(9)
_READERS = {"unit-gates": _UNIT_GATES, "units": _UNITS, "unit-owners": _UNIT_OWNERS, "units@": _MY_UNITS,
            "gates@": _MY_GATES, "gate-places": _GATE_PLACES, "players": _PLAYERS}


def _reader(f: str) -> tuple[int, str]:
    """How part `f` is read (`_read`): its number, and the State field's name where one is read."""
    code = _READERS.get(f)
    if code is not None:
        return code, f
    return (_MINE, sys.intern(f[:-1])) if f[-1] == "@" else (_WHOLE, sys.intern(f))


# a part -> the parts that hold it whole, when it is not simply the field it is part of
_WHOLES = {"gates@": (("gates", "unit-owners"), ("gates", "units")), "gate-places": (("gates",),)}


def _held_whole(part: str, found: set[str]) -> bool:
    """Whether the parts `found` hold `part` already (the whole field, or all it is made of)."""
    return any(all(w in found for w in whole) for whole in _WHOLES.get(part, ((part[:-1],),)))


def _inputs_now(g: Any, parts: tuple[str, ...], p: str) -> tuple[Any, ...]:
    """The values of `parts` now in game `g`, for player `p`: a condition's key (`condition_holds`)."""
    return _key(g, tuple([_reader(f) for f in parts]), p)


def _part_now(g: Any, f: str, p: str) -> Any:
    """One part's value: bytes, a number or None (a player's Power or Doom), or a tuple of numbers
    (the units: their write counters). An immutable value stands for itself; any other is copied
    as bytes, so that the value kept never changes with the state."""
    code, name = _reader(f)
    return _read(g, code, name, p)


def _key(g: Any, reads: tuple[tuple[int, str], ...], p: str, seen: dict[Any, Any] | None = None) -> tuple[Any, ...]:
    """The values of the parts a plan reads (`_plan`), in its order: `_inputs_now` of its parts.
    `seen`: a check's (`condition_holds`), where a part that is not one player's is read once for
    all the players checked."""
    out = []
    for code, name in reads:
        if seen is None or code == _MY_UNITS or code == _MINE or code == _MY_GATES:
            out.append(_read(g, code, name, p))
        else:
            value = seen.get(name, _UNREAD)
            if value is _UNREAD:
                value = seen[name] = _read(g, code, name, p)
            out.append(value)
    return tuple(out)


_UNREAD = object()   # a part not read yet in a check (a part's value may be None)


def _read(g: Any, code: int, name: str, p: str) -> Any:
    """`_part_now` of the part read as (`code`, `name`) (`_reader`)."""
    s = g.s
    if code == _MY_UNITS:   # p's units are where they were while none of them moved and no other write
        return (s.other_writes, s.moves_of(p), len(s.units))
    if code == _MY_GATES:   # the gates p controls (areas: a tuple of strings stands for itself)
        return tuple(s.controlled_gates(p))
    if code == _MINE:
        value = getattr(s, name).get(p)
        return value if value is None or type(value) is int else marshal_dumps(value)
    if code == _WHOLE:
        return _value_of(getattr(s, name))
    if code == _PLAYERS:
        return _value_of(s.players)
    if code == _UNIT_GATES:   # the units that count as Gates (modifiers may read anything: their answer)
        return actions.unit_gates_bytes(g)
    if code == _UNITS:
        return (s.writes, len(s.units))
    if code == _UNIT_OWNERS:
        return (s.other_writes, len(s.units))
    return tuple(s.gates)   # _GATE_PLACES: where gates stand


def _value_of(v: Any) -> Any:
    """A field's value as `_part_now` keeps it: None, a string (the first player) or an integer
    (not a bool) as itself, a list of strings (the players) as their tuple, an empty list (no
    tokens) as (), a dict of strings to strings, None or lists of strings (the home areas, the
    spellbooks) as `_dict_value`, any other as marshal bytes. Each kind compares equal only to its
    own kind, exactly when the values are equal, and is made without marshal's encoding of every
    string into a new bytes object."""
    if v is None:
        return None
    cls = type(v)
    if cls is str or cls is int:   # (immutable: it stands for itself)
        return v
    if cls is list:
        for x in v:
            if type(x) is not str:
                return marshal_dumps(v)
        return tuple(v)
    if cls is dict:
        out = _dict_value(v)
        if out is not None:
            return out
    return marshal_dumps(v)


_DICT = object()   # the first item of `_dict_value`'s tuples: no other kind of value starts with it


def _dict_value(d: dict[Any, Any]) -> tuple[Any, ...] | None:
    """A dict of strings to strings, None or lists of strings as a tuple (`_DICT`, key, value, key,
    value, ...) in its order, a list as the tuple of its strings (equal exactly when the dicts are
    equal in the same order, as their marshal bytes are); None for any other dict."""
    out = [_DICT]
    for k, x in d.items():
        if type(k) is not str:
            return None
        out.append(k)
        cls = type(x)
        if cls is str or x is None:
            out.append(x)
        elif cls is list:
            for y in x:
                if type(y) is not str:
                    return None
            out.append(tuple(x))
        else:
            return None
    return tuple(out)


def _unchanged(g: Any, reads: tuple[tuple[int, str], ...], p: str, kept: tuple[Any, ...]) -> bool:
    """Whether the parts a plan reads still have the values `kept` (`_key`'s, in its order): a whole
    field or where gates stand compared in place (`_same`), with no value made for it."""
    s = g.s
    i = 0
    for code, name in reads:
        value = kept[i]
        i += 1
        if code == _WHOLE or code == _PLAYERS:
            if not _same(s.players if code == _PLAYERS else getattr(s, name), value):
                return False
        elif code == _GATE_PLACES:
            gates = s.gates
            if type(value) is not tuple or len(gates) != len(value):
                return False
            j = 0
            for area in gates:
                if area != value[j]:
                    return False
                j += 1
        elif _read(g, code, name, p) != value:
            return False
    return True


def _same(v: Any, kept: Any) -> bool:
    """`_value_of(v) == kept`, found without making `_value_of(v)` for a string, an integer, a list
    of strings or a dict `_dict_value` takes."""
    if v is None:
        return kept is None
    cls = type(v)
    if cls is str or cls is int:
        return type(kept) is cls and v == kept  # type: ignore[no-any-return]
    if type(kept) is not tuple:
        return _value_of(v) == kept  # type: ignore[no-any-return]
    t = kept   # (a tuple)
    if cls is list:
        if len(t) == len(v):
            i = 0
            for x in v:
                if type(x) is not str:
                    return _value_of(v) == kept  # type: ignore[no-any-return]
                if x != t[i]:
                    return False
                i += 1
            return True
    elif cls is dict and len(t) == 2 * len(v) + 1 and t[0] is _DICT:
        i = 1
        for k, x in v.items():
            if type(k) is not str:
                return _value_of(v) == kept  # type: ignore[no-any-return]
            if k != t[i]:
                return False
            y = t[i + 1]
            i += 2
            cls = type(x)
            if x is None:
                if y is not None:
                    return False
            elif cls is str:
                if type(y) is not str or x != y:
                    return False
            elif cls is list and type(y) is tuple and len(x) == len(y):
                u = y   # (a tuple)
                j = 0
                for z in x:
                    if type(z) is not str or z != u[j]:
                        return _value_of(v) == kept  # type: ignore[no-any-return]
                    j += 1
            else:
                return _value_of(v) == kept  # type: ignore[no-any-return]
        return True
    return _value_of(v) == kept  # type: ignore[no-any-return]


_HELD = object()   # `seen`'s entry for (the held conditions' dict, the checking switch): one state object a check


def condition_holds(g: Any, p: str, r: Any, event: Any, seen: dict[Any, Any] | None = None) -> bool:
    """Whether `r`'s condition holds for player `p` now (kept across checks: see the module).
    `seen`: for a caller that checks several conditions at one position, a dict it starts empty
    there and drops (or clears) before the state changes; conditions that read the same parts for
    the same player share their key there."""
    plan = _plan(r)
    return _holds(g, p, r, plan, (p, plan[4]), (plan[1], p), event, seen)


def _holds(g: Any, p: str, r: Any, plan: tuple[Any, ...], mine: tuple[Any, ...], at: tuple[Any, ...],
           event: Any, seen: dict[Any, Any] | None) -> bool:
    """`condition_holds` of `r` with its plan (`_plan`), its key among the held conditions (`mine`:
    (p, the plan's key)) and in `seen` (`at`: (the plan's parts, p)), all found by the caller."""
    if event is not None or plan[1] is None:
        return bool(_evaluate(g, p, r, event))
    if seen is None:
        checking = state_module.CHECK_MEMO   # (a module attribute, which tests may switch)
        now = _key(g, plan[2], p)
        held = g.held_conditions()
    else:
        mark = seen.get(_HELD)   # (the held conditions and the checking switch, read once a check)
        if mark is None:
            mark = seen[_HELD] = (g.held_conditions(), state_module.CHECK_MEMO)
        held, checking = mark
        now = seen.get(at)
        if now is None:
            now = seen[at] = _key(g, plan[2], p, seen)
        if checking and now != _key(g, plan[2], p):
            raise AssertionError("the state changed during one requirement check")
    kept = held.get(mine)
    if kept is not None and kept[0] == now:
        if checking and bool(_evaluate(g, p, r, None, plan[3])) != kept[1]:
            raise AssertionError(f"stale requirement condition {r.key} for {p}")
        return kept[1]  # type: ignore[no-any-return]
    result = bool(_evaluate(g, p, r, None, plan[3]))
    held[mine] = (now, result)
    return result


def _evaluate(g: Any, p: str, r: Any, event: Any, ability: str | None = None) -> Any:
    """`r`'s condition for `p` (with `event`), in a context of its own, as `core.ctx` makes one
    (`ability`: its name there, `_plan`'s, when the caller has it)."""
    return r.condition(new_ctx(g, p, None, event, None, None, None, ability if ability is not None else _plan(r)[3], None))


def met_now(g: Any, p: str, key: str, r: Any, when: str, event: Any, seen: dict[Any, Any] | None = None) -> bool:
    """Whether `p` meets requirement `r` (found by `key`, requirements.py) at `when`: checked then,
    not met already in the battle under way, and its condition holds (`seen` as in `condition_holds`)."""
    return checked_at(r, when) and holds_unmet(g, p, key, r, event, seen)


def holds_unmet(g: Any, p: str, key: str, r: Any, event: Any, seen: dict[Any, Any] | None = None) -> bool:
    """`met_now` for a caller that picked `r` among those checked at this moment already (the
    content's table of them, `abilities.checked_positions`): not met already in the battle under
    way, and its condition holds."""
    plan = _plan(r)
    return _unmet_holding(g, p, key, r, plan, (p, plan[4]), (plan[1], p), event, seen)


def _unmet_holding(g: Any, p: str, key: str, r: Any, plan: tuple[Any, ...], mine: tuple[Any, ...],
                   at: tuple[Any, ...], event: Any, seen: dict[Any, Any] | None) -> bool:
    """`holds_unmet` with `r`'s plan and keys found by the caller (as `_holds` takes them)."""
    return (g.s.battle is None or not met_in_battle(g, p, key)) and _holds(g, p, r, plan, mine, at, event, seen)


def first_holding(g: Any, p: str, when: str, event: Any, first: int,
                  seen: dict[Any, Any]) -> tuple[int, Any] | None:
    """The first of `p`'s faction requirements checked at `when`, at position `first` or later in
    its list, not earned yet and holding unmet now (`holds_unmet`; `seen` as in `condition_holds`):
    (position, requirement), or None. It only reads the game. (Here, beside `holds_unmet`, so that
    the compiled core calls it as a C function: core_procs.py's CheckRequirements asks.)

    A whole check (from the first, with no event and no battle) is kept too, beside the values of
    all the parts its conditions read and the requirements earned: while they are the same, each
    condition's kept answer is, and so is the first that holds (`_at`)."""
    fac = g.factions.get(p)
    if fac is None:
        return None
    plans = _at(g, p, fac, when)
    checks = plans[0]
    if not checks:   # (most players at most moments: nothing of theirs is checked then)
        return None
    s = g.s
    done = s.requirements[p]
    whole = plans[1]
    if whole is None or first != 0 or event is not None or s.battle is not None:
        return _first_of(g, p, checks, done, event, first, seen)
    mark = seen.get(_HELD)   # (as `_holds` reads it: once a check)
    if mark is None:
        mark = seen[_HELD] = (g.held_conditions(), state_module.CHECK_MEMO)
    held = mark[0]
    kept = held.get(whole[1])
    if kept is not None and kept[1] == done and _unchanged(g, whole[0], p, kept[0]):
        if mark[1] and (kept[0] != _key(g, whole[0], p) or _first_of(g, p, checks, done, None, 0, seen) != kept[2]):
            raise AssertionError(f"stale requirement check of {p} at {when}")
        return kept[2]  # type: ignore[no-any-return]
    now = _key(g, whole[0], p, seen)
    found = _first_of(g, p, checks, done, None, 0, seen)
    held[whole[1]] = (now, list(done), found)
    return found


def _first_of(g: Any, p: str, checks: tuple[tuple[Any, ...], ...], done: list[str], event: Any, first: int,
              seen: dict[Any, Any]) -> tuple[int, Any] | None:
    """`first_holding` of `checks` (`_checks`), each check asked (`_unmet_holding`)."""
    for check in checks:
        j = check[0]
        if j < first:
            continue
        r = check[1]
        rid = check[2]
        if rid not in done and _unmet_holding(g, p, rid, r, check[3], check[4], check[5], event, seen):
            return j, r
    return None


# a player -> (its faction (a frozen record: its requirements never change), {moment: (their checks,
# the whole check's plan)}); a check is (position, requirement, its id, its plan, its key among the
# held conditions, its key in a check's `seen`) of each requirement checked at that moment
# (`abilities.checked_positions`: the content's table), in list order; the whole check's plan is (how
# each part any of them reads is read (`_READERS`), its key among the held conditions: a new object
# with each plan, hashed by identity), or None when a part one of them reads is not known. Found at the first check of
# that faction at that moment (made again when the player plays another faction or content: the
# faction is another object)
_CHECKS: dict[str, tuple[Any, dict[str, tuple[Any, ...]]]] = {}


def _checks(g: Any, p: str, fac: Any, when: str) -> tuple[tuple[Any, ...], ...]:
    """The checks of the requirements of `p`'s faction `fac` at `when` (`_CHECKS`)."""
    return _at(g, p, fac, when)[0]  # type: ignore[no-any-return]


def _at(g: Any, p: str, fac: Any, when: str) -> tuple[Any, ...]:
    """The checks of `p`'s faction `fac` at `when` and the whole check's plan (`_CHECKS`)."""
    kept = _CHECKS.get(p)
    if kept is None or kept[0] is not fac:
        kept = _CHECKS[p] = (fac, {})
    by_when = kept[1]
    plans = by_when.get(when)
    if plans is None:
        reqs = fac.requirements
        out = []
        parts: set[str] | None = set()
        for j in abilities.checked_positions(g, p, when):
            r = reqs[j]
            plan = _plan(r)
            out.append((j, r, r.id, plan, (p, plan[4]), (plan[1], p)))
            if plan[1] is None:
                parts = None
            elif parts is not None:
                parts.update(plan[1])
        whole = None if parts is None else (tuple([_reader(f) for f in sorted(parts)]), object())
        plans = by_when[when] = (tuple(out), whole)
    return plans


__all__ = ["condition_holds", "first_holding", "holds_unmet", "met_now", "parts_read"]
