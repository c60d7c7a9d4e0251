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

from typing import Any

from . import state as state_module
from .context import new_ctx
from .requirements import checked_at, met_in_battle
from .part_values import WHOLES, held_whole, key_of, reader, unchanged
from .state_parts import READS, SCOPED, parts_read_by   # (READS and SCOPED: the tables it reads, named here for tests)
from . import abilities

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
        reads.append(reader(f))
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
    found -= {f for f in found if (f[-1] == "@" or f in WHOLES) and held_whole(f, found)}
    return tuple(sorted(found))


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
        now = key_of(g, plan[2], p)
        held = g.held_conditions()
    else:
        mark = seen.get(_HELD)   # (the held conditions and the checking switch, read once a check)
        if mark is None:
            mark = seen[_HELD] = (g.held_conditions(), state_module.CHECK_MEMO)
        held, checking = mark
        now = seen.get(at)
        if now is None:
            now = seen[at] = key_of(g, plan[2], p, seen)
        if checking and now != key_of(g, plan[2], p):
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
    if kept is not None and kept[1] == done and unchanged(g, whole[0], p, kept[0]):
        if mark[1] and (kept[0] != key_of(g, whole[0], p) or _first_of(g, p, checks, done, None, 0, seen) != kept[2]):
            raise AssertionError(f"stale requirement check of {p} at {when}")
        return kept[2]  # type: ignore[no-any-return]
    now = key_of(g, whole[0], p, seen)
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
        whole = None if parts is None else (tuple([reader(f) for f in sorted(parts)]), object())
        plans = by_when[when] = (tuple(out), whole)
    return plans


__all__ = ["condition_holds", "first_holding", "holds_unmet", "met_now", "parts_read"]
