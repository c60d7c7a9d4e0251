"""The State parts an expression reads, worked out from its text (`inputs`: ast.expression_inputs
with ast.call_arguments: the queries it calls, the names and fields it reads, each call's
arguments), for the values kept across positions keyed by exactly what they read: a requirement's
condition (held_conditions.py) and an action-cost modifier (kept_costs.py). A leaf module (both
import it; neither imports the other).

A part is a State field ("power", "units", ...), or a part of one: one player's ("power@": the
condition's player's Power; "units@": the places of that player's units, ...), or what a field is
made of ("unit-owners": who owns which unit; "gate-places": where gates stand; "unit-gates": the
units that count as Gates).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..effects.primitive_facts import READS

# READS (effects/primitive_facts.py): query -> the State fields its answer depends on, whatever its
# arguments. A call that passes `me` as every player it names (and otherwise only the parameters
# listed) reads only the condition's player's part: "power@" is power[me], "units@" the places of
# me's units (ids and locations), "gates@" the places of the gates me controls, ... (query -> its
# player parameters, other parameters allowed, parts).
SCOPED: dict[str, tuple[frozenset[str], frozenset[str], tuple[str, ...]]] = {
    "power": (frozenset({"player"}), frozenset(), ("power@",)),
    "doom": (frozenset({"player"}), frozenset(), ("doom@",)),
    "spellbook_count": (frozenset({"player"}), frozenset(), ("spellbooks@",)),
    "has_spellbook": (frozenset({"player"}), frozenset({"spellbook"}), ("spellbooks@",)),
    "units": (frozenset({"owner"}), frozenset({"kind", "class", "area", "where"}), ("units@", "battle")),
    "pool": (frozenset({"owner"}), frozenset({"kind", "class"}), ("units@",)),
    "gates": (frozenset({"controlled_by"}), frozenset({"terrain"}), ("gates@", "unit-gates")),
}
# Queries whose answer depends only on the filters given (query -> parameter -> the parts that
# filter reads; a filter on the map alone reads none). A player parameter passed `me` reads the
# player's part (SCOPED's third column, here per parameter). A call with a parameter not listed
# reads what READS says.
BY_PARAMETER: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "areas": {   # parameter -> (the parts it reads, the parts it reads when given `me`)
        "with_units_of": (("units",), ("units@",)), "without_units_of": (("units",), ("units",)),
        "gate": (("gate-places",), ("gate-places",)), "controlled_by": (("gates", "unit-owners"), ("gates@",)),
        "token": (("tokens",), ("tokens",)), "without_token": (("tokens",), ("tokens",)),
        "terrain": ((), ()), "start_of": ((), ()), "symbol": ((), ()), "glyph": ((), ()),
    },
}
# calls that read less than READS says when some parameters are not given (query -> the
# parameters, the parts it reads without them): `gates(terrain: ...)` lists where gates stand,
# whoever controls them
UNFILTERED: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "gates": (frozenset({"controlled_by"}), ("gate-places", "unit-gates")),
}


def parts_read_by(inputs: Any, names: Mapping[str, tuple[str, ...]], fields: frozenset[str],
                  by_call: bool = False) -> set[str] | None:
    """The State parts an expression whose inputs are `inputs` reads: those its calls read (each
    call by its arguments: `call_reads`; `by_call`: each query called as READS says, whatever its
    arguments, for a caller that keys by whole fields) and those `names` gives for each name it
    reads. None when that is not known: no inputs, or a query not in READS, a name not in `names`
    or a field not in `fields` (the fields of records it may read)."""
    if inputs is None:
        return None
    calls, used, read, occurrences = inputs
    if not (calls <= READS.keys() and used <= names.keys() and read <= fields):
        return None
    found: set[str] = set()
    if by_call:
        for c in calls:
            found.update(READS[c])
    else:
        for call, args in occurrences:
            found.update(call_reads(call, args))
    for n in used:
        found.update(names[n])
    return found


def call_reads(call: str, args: frozenset[tuple[str, str]]) -> tuple[str, ...]:
    """The parts one call reads: its player's only when it passes `me` as every player it names."""
    scoped = SCOPED.get(call)
    if scoped is not None:
        players, others, parts = scoped
        given = {k for k, _ in args}
        if given & players and all(what == "me" for k, what in args if k in players) \
                and given - players <= others:
            return parts
    filters = BY_PARAMETER.get(call)
    if filters is not None and all(k in filters for k, _ in args):
        return tuple(part for k, what in args for part in filters[k][1 if what == "me" else 0])
    unfiltered = UNFILTERED.get(call)
    if unfiltered is not None and not unfiltered[0] & {k for k, _ in args}:
        return unfiltered[1]
    return READS[call]
