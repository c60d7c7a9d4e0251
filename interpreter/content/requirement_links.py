"""Which of a faction's action abilities may earn which of its spellbook requirements, read from
the content alone (never from a faction's name), once as the content is built (tables.py): an
ability's effect *writes* what a requirement's condition *reads* when it passes the same literal
to a linked pair of primitives (`LINKS`: `place_token('T', ...)` in an effect, `tokens(token:
'T', ...)` in a condition), and the units it takes from the pool are the classes and kinds its
effect passes to `pool(...)` (`ast.literal_arguments`, kept on each compiled program and
requirement). The bots read them through engine/seeking.py."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LINKS", "Seeking", "links_of"]

# (primitive an effect calls, its parameter) -> (primitive a condition calls, its parameter): the
# same literal in both means the effect makes what the condition counts
LINKS: tuple[tuple[tuple[str, str], tuple[str, str]], ...] = (
    (("place_token", "token"), ("tokens", "token")),
    (("place_token", "token"), ("areas", "token")),
)


@dataclass(frozen=True)
class Seeking:
    """One faction's links: action ability id -> the requirement ids it may earn (`serves`),
    ability id -> the unit classes and kinds it takes from the pool (`takes`), ability id -> the
    tokens it places that those requirements count (`writes`), and unit kind -> the serving
    abilities its units hold (`holders`)."""

    serves: dict[str, frozenset[str]]
    takes: dict[str, tuple[frozenset[str], frozenset[str]]]
    writes: dict[str, frozenset[str]]
    holders: dict[str, frozenset[str]]


def _abilities(faction: Any) -> list[Any]:
    """Every ability a faction's card, units and spellbooks hold."""
    out = list(faction.abilities)
    for u in faction.units.values():
        out.extend(u.abilities)
    for b in faction.spellbooks.values():
        out.extend(b.abilities)
    return out


def links_of(faction: Any) -> Seeking:
    """The links of a faction's content model (see the module)."""
    serves: dict[str, set[str]] = {}
    takes: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    writes: dict[str, set[str]] = {}
    for a in _abilities(faction):
        if a.window != "action" or a.effect is None or not isinstance(a.id, str):
            continue   # (an id that is no text is an error the loader reports; the tables are built all the same)
        written = getattr(a.effect, "literals", frozenset())
        for r in faction.requirements:
            if not isinstance(r.id, str):
                continue
            linked = {v for w, c in LINKS for (_, _, v) in r.literals
                      if (w[0], w[1], v) in written and (c[0], c[1], v) in r.literals}
            if linked:
                serves.setdefault(a.id, set()).add(r.id)
                writes.setdefault(a.id, set()).update(str(v) for v in linked)
        if a.id in serves:
            classes = frozenset(str(v) for call, k, v in written if call == "pool" and k == "class")
            kinds = frozenset(str(v) for call, k, v in written if call == "pool" and k == "kind")
            if classes or kinds:
                takes[a.id] = (classes, kinds)
    holders = {kind: frozenset(a.id for a in u.abilities if isinstance(a.id, str) and a.id in serves)
               for kind, u in faction.units.items()}
    return Seeking({k: frozenset(v) for k, v in serves.items()}, takes,
                   {k: frozenset(v) for k, v in writes.items()}, {k: v for k, v in holders.items() if v})
