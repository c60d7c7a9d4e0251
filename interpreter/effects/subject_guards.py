"""The cheap front of a modifier's `when`: its leading comparisons of a subject field with `me` or a
literal, tested on the subject record before the whole expression is run.

Most modifiers start `subject.owner == me and ...`: for every other player's subject the answer is
no, and running the expression to find that out costs a context and a chain of closures. A guard
is a leading conjunct (in the order `and` evaluates them) of one of the forms

    subject.F == me     me == subject.F     subject.F != me     subject.F == 'x'     subject.F != 3

with F a plain record field (not `kind`, which a lent ability reads through its stand-in, nor a
computed one). Where the subject is a record holding F and `me` is bound, such a conjunct reads
exactly `subject[F]` and cannot fail, so a guard found false means `when` is false, with nothing
left unevaluated that could have raised. Where a guard cannot be decided that way (the field is
not in the record), it and every guard after it are left to `when`.
"""
from __future__ import annotations

from typing import Any

from . import ast as A

ME = object()   # the guard's value is the modifier owner's `me`
_OPS = ("==", "!=")
_UNGUARDED_FIELDS = frozenset({"kind"})   # read through a lent ability's stand-in (runtime.get_field)


def _subject_field(node: object) -> str | None:
    if isinstance(node, A.Field) and isinstance(node.obj, A.Var) and node.obj.name == "subject" \
            and node.name not in _UNGUARDED_FIELDS and not node.name.startswith("_"):
        return node.name
    return None


def _value(node: object) -> Any:
    """ME for `me`, a literal's value, else None (not a guard's value)."""
    if isinstance(node, A.Var) and node.name == "me":
        return ME
    if isinstance(node, A.Lit) and type(node.value) in (str, int, bool):
        return node.value
    return None


def guards_of(when: object) -> tuple[tuple[str, str, Any], ...]:
    """The guards of a `when` expression tree (None: no `when`), in evaluation order."""
    if when is None:
        return ()
    out = []
    for c in A.conjuncts(when):
        if not isinstance(c, A.Binary) or c.op not in _OPS:
            break
        field, value = _subject_field(c.left), _value(c.right)
        if field is None:
            field, value = _subject_field(c.right), _value(c.left)
        if field is None or value is None:
            break
        out.append((field, c.op, value))
    return tuple(out)


def rejects(guards: tuple[tuple[str, str, Any], ...], subject: Any, me: Any) -> bool:
    """Whether the guards show `when` false for this subject and owner (False: run `when`)."""
    if me is None or type(subject) is not dict:
        return False
    for field, op, value in guards:
        if field not in subject:
            return False
        equal = subject[field] == (me if value is ME else value)
        if equal != (op == "=="):
            return True
    return False


__all__ = ["ME", "guards_of", "rejects"]
