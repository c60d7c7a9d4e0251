"""A single choice whose list can be evaluated when the action is listed, found from the syntax.

A dry run (engine/feasible.py) plays an action's effect on a copy to find whether each single
choice has an option. Some choices come after statements that change the state, so no condition
proves their list (effects/guarded_choices.py), yet nothing those statements write is read by
the list. Such a choice's list is the same when the action is listed as when the effect reaches
it, so evaluating it at listing time decides the action: empty, the choice has no option on any
line of play; not empty, it has one. A choice is *listed* when

- it is a statement `let NAME = CHOICE(...)` of the effect's top level (every run reaches it),
  picking from a list (NOTING_CHOICES);
- every statement before it calls only queries and verbs whose writes are declared (WRITES,
  effects/primitive_facts.py: each opens no window and starts no procedure), and makes no
  decision (no choice with a list), so one line of play leads to it;
- its arguments read only `me`, `enemies`, `players`, `self` and `area`, none rebound before it,
  call only queries whose reads are declared (READS, LIST_READS; `cost` reads UNIT_COSTS, what the
  content's unit costs read, checked when the content is built: content/tables.py) and read only
  plain unit fields (UNIT_FIELDS);
- what they read is disjoint from what the statements before it write, and from PAYMENT_WRITES
  (starting the action pays its cost and notes its once-limit);
- the statement right after it passes NAME to a verb that fails on `none` before it writes
  anything (NONE_REJECTED): with no option, the effect then fails, as a dry run finds.

The engine trusts a listed choice only when its content's unit costs read nothing the statements
before it write (`unit_cost_reads`), and every other single choice of the effect is proven; in
checking mode (NECRO_CHECK_MEMO=1) it compares each answer with a dry run's.
"""
from __future__ import annotations

from typing import Any, Iterable

from . import ast as A
from .guarded_choices import AREA, STABLE_NAMES
from .primitive_facts import (LIST_READS, NONE_REJECTED, PAYMENT_WRITES, READS, UNIT_COSTS, UNIT_FIELDS,
                              WRITES)

# (the choice's Call node, its list's node, the parts its arguments read, the parts written before it)
Listed = tuple[A.Call, object, frozenset[str], frozenset[str]]


def parts_read(node: object) -> frozenset[str] | None:
    """The State parts an expression reads through the queries it calls (READS, LIST_READS), or
    None when it calls anything else or reads a field that is not a plain unit field."""
    found = A.expression_inputs(node)
    if found is None:
        return None
    calls, _, fields = found
    if not fields <= UNIT_FIELDS:
        return None
    parts: set[str] = set()
    for name in calls:
        reads = READS.get(name, LIST_READS.get(name))
        if reads is None:
            return None
        parts.update(reads)
    return frozenset(parts)


def reads_of_texts(texts: Iterable[Any]) -> frozenset[str] | None:
    """`parts_read` over expression texts (a number or None reads nothing; bad syntax reads anything)."""
    from .parser import EffectSyntaxError, parse
    parts: set[str] = set()
    for text in texts:
        if text is None or isinstance(text, (int, float)):
            continue
        try:
            read = parts_read(parse(str(text), start="expr_start"))
        except EffectSyntaxError:
            return None
        if read is None:
            return None
        parts |= read
    return frozenset(parts)


def listed_choice(program: A.Program, choices: dict[str, tuple[int, str]], noting: frozenset[str],
                  proven: set[int], pure: frozenset[str]) -> Listed | None:
    """The effect's listed choice (see the module), if it has one. `choices`: every choice with a
    list -> the position and name of its list parameter; `proven`: the `id`s of the choices already
    proven; `pure`: the calls that change nothing (queries, choices with no list)."""
    writes: set[str] = set(PAYMENT_WRITES)
    rebound: set[str] = set()
    body = program.body
    for i, stmt in enumerate(body):
        if isinstance(stmt, A.Let) and isinstance(stmt.value, A.Call) and stmt.value.name in noting:
            call = stmt.value
            if id(call) in proven:
                return None   # a decision before what follows
            return _checked(call, stmt.name, body[i + 1:], choices, writes, rebound)
        if not isinstance(stmt, (A.Let, A.Do, A.If, A.For, A.Nothing)):
            return None
        for name in A.call_names(stmt):
            if name in choices or (name not in WRITES and name not in pure):
                return None   # a decision, or a call that may write anything
            writes.update(WRITES.get(name, ()))
        rebound.update(n.name for n in A._nodes(stmt) if isinstance(n, (A.Let, A.For)))
    return None


def _checked(call: A.Call, name: str, rest: tuple[Any, ...], choices: dict[str, tuple[int, str]],
             writes: set[str], rebound: set[str]) -> Listed | None:
    listed = A.argument(call, *choices[call.name])
    if listed is None:
        return None
    parts: set[str] = set()
    for arg in call.args:
        read = parts_read(arg.value)
        found = A.expression_inputs(arg.value)
        if read is None or found is None or not found[1] <= (STABLE_NAMES | {AREA}) - rebound:
            return None
        parts |= read
    if parts & writes or not _fails_on_none(name, rest):
        return None
    return call, listed, frozenset(parts), frozenset(writes)


def _fails_on_none(name: str, rest: tuple[Any, ...]) -> bool:
    """Whether the statement after the choice passes `name` where a verb rejects `none` (NONE_REJECTED)."""
    if not rest or not isinstance(rest[0], A.Do) or not isinstance(rest[0].call, A.Call):
        return False
    verb = rest[0].call
    at = NONE_REJECTED.get(verb.name)
    positional = [a.value for a in verb.args if a.name is None]
    return at is not None and len(positional) > at and isinstance(positional[at], A.Var) \
        and positional[at].name == name


def sound(listed: tuple[frozenset[str], frozenset[str]], unit_cost_reads: frozenset[str] | None) -> bool:
    """Whether a listed choice's (reads, writes before it) stays disjoint once UNIT_COSTS stands for
    what the content's unit costs read (None: anything)."""
    reads, writes = listed
    if UNIT_COSTS not in reads:
        return True
    return unit_cost_reads is not None and not (unit_cost_reads - {UNIT_COSTS}) & writes


__all__ = ["Listed", "listed_choice", "parts_read", "reads_of_texts", "sound"]
