"""The State's unsaved working fields: its write counters and the indexes and bytes it keeps of its
units (engine/state.py `State` is this class with its saved fields and the rest of its methods).

A leaf module, so that the compiled core can type a state by it: state_fields.pxd makes
`StateFields` an extension type whose fields are C fields (the counters C integers), and the
declarations of the hot readers (state.pxd's unit queries, rules_fields.pxd's `RulesFields.s`,
held_conditions.pxd) type the state with it, so that `s.writes` and `s._ix` are loads from the
object instead of lookups by name. None of these fields is saved, copied or compared: a new State
(`State(...)`, `copy`, `unpack`) starts from the defaults below, and `State.__dict__` holds only its
saved fields (in the Python source, once written, these too: a copy skips them). The compiled core
also holds a few of State's saved fields here (`SAVED_IN_C`), so that typed code reads them as C
fields too; State's copies, packs and key read those by name.
"""
from __future__ import annotations

from typing import Any

from .unit_chunks import UnitChunks
from .unit_index import moved_in as _moved_in


class StateFields:
    """The unsaved fields of a State and the methods that note its writes. `writes` counts the
    writes to units (location, owner, a unit added), spellbooks, grants and loyalty cards; it keys
    the game's memo of derived facts (rules_fields.py: its check is one compare). Code that
    changes those parts of a State outside the engine's primitives calls `written()`
    (NECRO_CHECK_MEMO=1 catches a grant or unit added unnoted). The other fields (defaults in `DEFAULTS`):
    `other_writes`, those of `writes` that are not a unit's move (`written()`, not `moved()`);
    `unit_writes`, those of `other_writes` that may have changed units (`written()`, not
    `written(units=False)`); `_moves_of`, owner -> how many of `moved()`'s writes moved one of its
    units (`moves_of`); `_ix`, the index of units: (the writes that may have changed units,
    `writes - other_writes + unit_writes`, so that a spellbook or grant written keeps it; number
    of units; (units by location, by owner, by id); ids ascending); `_chunks`, (unit_writes,
    number of units, UnitChunks): the units' bytes and sha1, kept by unit and chunk; `_kinds`,
    player -> ((unit_writes, number of units, moves_of(player)), the unit kinds it has on the map)
    (basics.in_play_kinds, kept across the memo's drops while those units are unchanged). (`units` is
    State's saved field, read here by name.)"""

    def written(self, units: bool = True) -> None:
        """Note a write to units, spellbooks, grants or loyalty cards (derived indexes are rebuilt).
        `units=False`: the write changed no unit (a spellbook, a grant), so the units' kept key
        bytes stay (`unit_chunks.py`)."""
        self.writes += 1
        self.other_writes += 1
        if units:
            self.unit_writes += 1

    def moved(self, u: dict[str, Any], src: str) -> None:
        """Note that unit `u` (in `units`) went from location `src` to its `loc` now: `written()`,
        and a current unit index is updated in place instead of rebuilt. In place only when the
        units' ids ascend in `units` (as the engine adds them), so that a location's list keeps the
        order of `units` by id; otherwise the index is rebuilt at its next read."""
        note_moved(self, u, src)

    def moves_of(self, owner: str) -> int:
        """How many moves of `owner`'s units this State object has seen (`moved()`): with
        `other_writes` and the number of units, it says whether `owner`'s units are where they
        were (a copy starts again from 0)."""
        counts = self._moves_of
        return 0 if counts is None else counts.get(owner, 0)  # type: ignore[no-any-return]

    def _unit_chunks(self) -> UnitChunks:
        """The kept bytes of the units, while nothing but moves (`moved`) and writes of no unit wrote them."""
        kept = self._chunks
        if kept is None or kept[0] != self.unit_writes or kept[1] != len(self.units):
            kept = self._chunks = (self.unit_writes, len(self.units), UnitChunks(len(self.units)))
        return kept[2]  # type: ignore[no-any-return]

    def share_fields(self, other: "StateFields") -> None:
        """Take `other`'s unsaved fields as they are, the same objects (view.py's `shared_state`: a
        shallow copy of `other`, whose indexes are of the very lists it shares)."""
        self.writes, self.other_writes, self.unit_writes = other.writes, other.other_writes, other.unit_writes
        self._moves_of, self._ix, self._chunks = other._moves_of, other._ix, other._chunks
        self.units, self.memory, self.flow = other.units, other.memory, other.flow   # (see SAVED_IN_C)
        self.players, self.power, self.gates = other.players, other.power, other.gates
        self.seq = other.seq


def note_moved(s: StateFields, u: dict[str, Any], src: str) -> None:
    """`StateFields.moved`'s work (a function: in the compiled core a C call from core.shift, its
    kept tables typed)."""
    ix = s._ix
    units = s.units
    changes = unit_changes(s)   # (what `_ix` is keyed on)
    fresh = ix is not None and ix[0] == changes and ix[1] == len(units) and ix[3]
    s.writes += 1
    kept = s._chunks
    if kept is not None:   # only the moved unit's bytes (and its chunk's) are made again
        i = u["id"] - units[0]["id"] if type(u["id"]) is int and type(units[0]["id"]) is int else -1
        if 0 <= i < len(units) and units[i] is u and kept[0] == s.unit_writes and kept[1] == len(units):
            chunks = kept[2]   # (a local: typed in the compiled core, its `drop` a C call)
            chunks.drop(i)
        else:   # (kept bytes of other units than these: made again at their next use anyway)
            s._chunks = None
    counts = s._moves_of
    if counts is None:
        counts = s._moves_of = {}
    owner = u["owner"]
    counts[owner] = counts.get(owner, 0) + 1
    if not fresh:
        return
    built = ix[2]  # type: ignore[index]
    by_owner = built[3]
    places = by_owner.get(owner)
    if places is None or not _moved_in(built[0], u, src) or not _moved_in(places, u, src):
        s._ix = None   # not where the index has it (written behind the index's back): rebuild
        return
    s._ix = (changes + 1, len(units), built, True)


# saved fields (State's dataclass fields) that the compiled core holds here too, as C fields, for
# the commonest reads of typed code (`s.units` in the unit queries, `g.s.power[p]`, `s.gates`, the
# event counter `seq` that basics.emit_fields reads and writes at every event): not
# in a compiled State's `__dict__` (State.copy and unpack set them by name, the position key reads
# them as attributes: phases.py). Only fields without a class default may be (a default on State
# would hide the C field: `seq`'s 0 is a default_factory). The Python source keeps them in `__dict__` with the rest.
SAVED_IN_C = ("units", "memory", "flow", "players", "power", "gates", "seq")

# the fields' values in a new State. In the compiled core they are C fields that start so (integers
# 0, objects None) and the class has no such attributes; in the Python source, class defaults
# (a State's own value shadows one once written).
DEFAULTS: dict[str, Any] = {"writes": 0, "other_writes": 0, "unit_writes": 0, "_moves_of": None, "_ix": None,
                            "_chunks": None, "_kinds": None}
for _name, _value in DEFAULTS.items():
    if _name not in StateFields.__dict__:   # (compiled: the C field's descriptor is there)
        setattr(StateFields, _name, _value)


def unit_changes(s: StateFields) -> int:
    """The writes of `s` that may have changed units (moves and `written()`, not
    `written(units=False)`): what the unit index `_ix` is keyed on, so that a spellbook or grant
    written keeps it."""
    return s.writes - s.other_writes + s.unit_writes
