"""Game state as plain data (JSON-ready), with small read helpers. Rules live elsewhere."""
from __future__ import annotations

import copy
import hashlib
import json
import marshal
import operator
import os
from dataclasses import dataclass, field, fields
from typing import Any

from .plain_data import lists_copy, plain_copy, records_copy, key_bytes
from .state_fields import SAVED_IN_C, StateFields, unit_changes
from .unit_index import UnitIndex, build_index as _build_index

POOL = "pool"
# NECRO_CHECK_MEMO=1: every use of an index or remembered fact is checked against a fresh computation (soaks)
CHECK_MEMO = os.environ.get("NECRO_CHECK_MEMO", "") not in ("", "0")
GENERAL = ""  # the owner of a unit in the general pool (an Independent Great Old One nobody controls)


def captured_loc(captor: str) -> str:
    return f"captured:{captor}"


def held_loc(player: str, tag: str) -> str:
    """An off-map holding on a player's card (e.g. units lifted off the map, a gate kept aside)."""
    return f"held:{player}:{tag}"


# ---- the unit queries, State's reads of its unit index (bound as its methods in the class:
# `s.units_at(loc, owner)`). Module functions so that state.pxd can type them for the compiled
# core: their reads of the index's dicts and lists are then C calls, not method calls.

def _built(s: "State") -> UnitIndex:
    """`s._index()` without its call while the index is current (checking mode: always the call)."""
    ix = s._ix
    if ix is not None and ix[0] == unit_changes(s) and ix[1] == len(s.units) and not CHECK_MEMO:
        return ix[2]  # type: ignore[no-any-return]
    return s._index()


def _here(s: "State", loc: str, owner: str | None) -> list[dict[str, Any]] | None:
    """The index's list of the units at `loc` (of `owner`), None for none (shared: do not change it)."""
    built = _built(s)
    if owner is None:
        by_loc = built[0]
        return by_loc.get(loc)
    by_owner_loc = built[3]
    places = by_owner_loc.get(owner)
    return None if places is None else places.get(loc)


def _units_at(s: "State", loc: str, owner: str | None = None) -> list[dict[str, Any]]:
    """The units at `loc` (of `owner`), in the order of `units` (a new list)."""
    here = _here(s, loc, owner)
    return [] if here is None else list(here)


def _count_at(s: "State", loc: str, owner: str | None = None) -> int:
    """How many units are at `loc` (of `owner`): `len(units_at(loc, owner))` without a list."""
    here = _here(s, loc, owner)
    return 0 if here is None else len(here)


def _places_of(s: "State", owner: str) -> list[str]:
    """The map places where `owner` has units (what `{u["loc"] for u in on_map(owner)}` holds),
    in no particular order: callers sort or test."""
    by_owner_loc = _built(s)[3]
    places = by_owner_loc.get(owner)
    if places is None:
        return []
    return [loc for loc in places if ":" not in loc and loc != POOL]


def _owner_places(s: "State", owner: str) -> dict[str, list[dict[str, Any]]] | None:
    """The index's table of `owner`'s units by place (each list in the order of `units`), None for
    none (shared: do not change it): what a count by place reads without a pass over every unit."""
    by_owner_loc = _built(s)[3]
    return by_owner_loc.get(owner)  # type: ignore[no-any-return]


def _in_pool(s: "State", owner: str, kind: str) -> bool:
    """Whether `owner` has a unit of `kind` in the pool (`bool(pool(owner, kind))`, no list)."""
    here = _here(s, POOL, owner)
    if here is not None:
        for u in here:
            if u["kind"] == kind:
                return True
    return False


def _units_of(s: "State", owner: str) -> list[dict[str, Any]]:
    """The units `owner` has anywhere (in the order of `units`; shared: do not change it)."""
    by_owner = _built(s)[1]
    mine = by_owner.get(owner)
    return [] if mine is None else mine


# place -> whether it is on the map (no ":" in it, not the pool), for the places met: a function of
# the text alone, read by `_on_map` instead of two string tests per unit (at most _PLACES_KEPT of them)
_ON_MAP_PLACES: dict[str, bool] = {}
_PLACES_KEPT = 4096


def _on_map(s: "State", owner: str | None = None, areas: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The units (of `owner`) on the map, or in `areas`, in the order of `units` (a new list)."""
    units = s.units if owner is None else _units_of(s, owner)
    out = []
    if areas is not None:
        for u in units:
            if u["loc"] in areas:
                out.append(u)
        return out
    checking = CHECK_MEMO
    for u in units:   # (a loop, not a comprehension: each unit's place read once)
        loc = u["loc"]
        on = _ON_MAP_PLACES.get(loc) if type(loc) is str else None
        if checking and on is not None and on != (":" not in loc and loc != POOL):
            raise AssertionError(f"stale on-map flag of {loc!r}")
        if on is None:
            on = ":" not in loc and loc != POOL
            if type(loc) is str and len(_ON_MAP_PLACES) < _PLACES_KEPT:
                _ON_MAP_PLACES[loc] = on
        if on:
            out.append(u)
    return out


def _pool(s: "State", owner: str, kind: str | None = None) -> list[dict[str, Any]]:
    """`owner`'s units in the pool (of `kind`), in the order of `units` (a new list)."""
    here = _here(s, POOL, owner)
    if here is None:
        return []
    return list(here) if kind is None else [u for u in here if u["kind"] == kind]


def _gate_owner(s: "State", loc: str) -> str | None:
    """Who controls the gate at `loc` (None: no gate, or an abandoned one)."""
    gates = s.gates
    gate = gates.get(loc)
    if gate is None:
        return None
    uid = gate.get("controller")
    if uid is None:
        return None
    by_id = _built(s)[2]
    u = by_id.get(uid) if type(uid) is int else None
    return (u if u is not None else s.unit(uid))["owner"]  # type: ignore[no-any-return]


def _controlled_gates(s: "State", player: str) -> list[str]:
    """The places of the gates `player` controls, in the order of `gates`."""
    by_id = _built(s)[2]
    gates = s.gates
    out = []
    for loc, gate in gates.items():
        uid = gate.get("controller")
        if uid is None:
            continue
        u = by_id.get(uid) if type(uid) is int else None
        if (u if u is not None else s.unit(uid))["owner"] == player:
            out.append(loc)
    return out


def _order_from(s: "State", first: str) -> list[str]:
    """Players in turn order starting with `first`, following the current direction."""
    players, step = s.players, s.direction   # (read once: each read is a lookup)
    i, n = players.index(first), len(players)
    return [players[(i + k * step) % n] for k in range(n)]


@dataclass
class State(StateFields):
    """Everything that changes during a game. Only lists, dicts, str, int, bool and None: the
    dataclass fields, saved and compared. Beside them, unsaved: the write counters and the
    indexes kept of the units, with the methods that note writes (`written`, `moved`), are
    `StateFields`' (state_fields.py)."""

    ruleset: str
    layout: str
    seed: int
    rng: int
    # (`= field()` on players, power, units and gates: no default. Without it the dataclass would take
    # the compiled StateFields' C field of the name, found on the class, for one: SAVED_IN_C)
    players: list[str] = field()  # faction ids in seating (clockwise) order
    power: dict[str, int] = field()
    doom: dict[str, int]
    elder_signs: dict[str, list[int]]  # face-down values per player
    revealed: dict[str, int]
    es_bag: list[int]
    spellbooks: dict[str, list[str]]
    requirements: dict[str, list[str]]  # requirement ids earned
    units: list[dict[str, Any]] = field()  # {id, owner, kind, loc}
    gates: dict[str, dict[str, Any]] = field()  # location -> {controller: unit id | None}
    tokens: list[dict[str, Any]] = field(default_factory=list)  # {id, loc, owner}
    ritual: int = 0
    instant_death: bool = False
    first: str = ""
    direction: int = 1
    round: int = 1
    phase: str = "setup"
    step: dict[str, Any] = field(default_factory=dict)  # where the outer loop resumes
    surcharge: int = 0  # the ruleset's turn-surcharge marker
    bank: dict[str, int] = field(default_factory=dict)
    awakened: dict[str, list[str]] = field(default_factory=dict)  # GOO kinds ever awakened
    home: dict[str, str] = field(default_factory=dict)  # start area per player
    memory: dict[str, Any] = field(default_factory=dict)  # per-turn/phase/round memory
    grants: list[dict[str, Any]] = field(default_factory=list)  # abilities lent: {ability, to, until}
    card_holders: dict[str, str] = field(default_factory=dict)  # neutral loyalty card -> the player holding it
    neutral_taken: dict[str, list[str]] = field(default_factory=dict)  # neutral spellbooks each player ever took
    # Independent Great Old Ones in this game: card -> {kind, spellbooks, requirements} (earned on the
    # loyalty card); the card's figure is owned by "" while it lies in the general pool
    loyalty: dict[str, dict[str, Any]] = field(default_factory=dict)
    markers: dict[str, int] = field(default_factory=dict)  # named markers on a track (e.g. a glyph on the Doom track)
    battle: dict[str, Any] | None = None
    next_unit: int = 1
    over: bool = False
    winners: list[str] | None = None
    end_reason: str = ""
    seq: int = field(default_factory=int)   # (no plain default: a C field in the compiled core, SAVED_IN_C)
    # where the rules stand: the stack of procedure frames (engine/flow.py) and the decision
    # waiting for an answer (None while the rules run, or when the game is over)
    flow: list[dict[str, Any]] = field(default_factory=list)
    pending: dict[str, Any] | None = None

    def _index(self) -> UnitIndex:
        """Units by location and by owner (each list in the order of `units`), and by id (the first
        unit with an id)."""
        ix = self._ix
        changes = unit_changes(self)
        if ix is not None and ix[0] == changes and ix[1] == len(self.units):
            if CHECK_MEMO and _build_index(self.units) != ix[2]:
                raise AssertionError("stale unit index")
            return ix[2]  # type: ignore[no-any-return]
        units = self.units
        built = _build_index(units)
        ids = [u["id"] for u in units]
        ascending = all(type(i) is int for i in ids) and all(map(operator.lt, ids, ids[1:]))
        self._ix = (changes, len(units), built, ascending)  # type: ignore[assignment]
        return built

    def units_key_bytes(self) -> bytes:
        """The units in marshal's format 2 (`key_bytes`), kept unit by unit until a unit is
        written (`unit_chunks.py`)."""
        data = self._unit_chunks().key_bytes(self.units)
        if CHECK_MEMO and key_bytes(self.units) != data:
            raise AssertionError("stale units key bytes")
        return data

    def units_hash(self) -> Any:
        """A sha1 object fed with `units_key_bytes()` (a copy: the caller feeds it more), kept chunk
        by chunk until a unit is written (`UnitChunks.sha1`): a position key after a move rehashes
        the units from the moved unit's chunk on, and hashes only the rest when none moved."""
        h = self._unit_chunks().sha1(self.units)
        if CHECK_MEMO and h.digest() != hashlib.sha1(key_bytes(self.units)).digest():
            raise AssertionError("stale units hash")
        return h

    def to_dict(self, masked: frozenset[str] = frozenset()) -> dict[str, Any]:
        """A deep, independent copy as plain data (as JSON gives it back); see `copy` for `masked`."""
        c = self.copy(masked)
        return {f.name: getattr(c, f.name) for f in _FIELDS}

    def to_text(self) -> str:
        """The state as JSON text (fast: one pass of the C encoder)."""
        return json.dumps({f.name: getattr(self, f.name) for f in _FIELDS})

    def copy(self, masked: frozenset[str] = frozenset()) -> "State":
        """A deep, independent copy, equal to `State.from_text(self.to_text())` (tuples become
        lists, keys strings, as in JSON) but made field by field, without text. The fields named
        in `masked` read None and are not copied (a player's view hides the rule flow)."""
        c = State.__new__(State)
        d = c.__dict__
        values = self.__dict__ if not masked else {k: None if k in masked else v for k, v in self.__dict__.items()}
        for name, v in values.items():
            if name in _SCALAR:
                d[name] = v
            elif name in _COPY:
                d[name] = _COPY[name](v)
        for name in _IN_C:   # (compiled: the saved fields that StateFields holds, not in `__dict__`)
            v = None if name in masked else getattr(self, name)
            setattr(c, name, v if name in _SCALAR else _COPY[name](v))   # (`seq` a scalar)
        if CHECK_MEMO and not masked and c != State.from_text(self.to_text()):
            raise AssertionError("State.copy differs from a copy through JSON")
        return c

    def pack(self) -> bytes:
        """The saved fields as one immutable bytes record (`State.unpack` gives back an independent
        State equal to this one). Cheaper than `copy()` to keep: one C pass and one object, which
        the garbage collector never walks (a game keeps hundreds of positions for undo). The units,
        about half of it, go in as the position key's bytes of them (`units_key_bytes`), kept unit
        by unit until a unit is written."""
        try:
            packed = marshal.dumps((self.units_key_bytes(), _rest_of(self)))
        except ValueError:   # an object JSON cannot hold either: the same TypeError as `copy()`
            self._chunks = None
            self.copy()
            raise
        if CHECK_MEMO and State.unpack(packed).to_text() != self.to_text():
            raise AssertionError("State.pack differs from the state (a unit written without `written()`?)")
        return packed

    @classmethod
    def unpack(cls, packed: bytes) -> "State":
        """A new State from `pack()`'s record."""
        units, rest = marshal.loads(packed)
        c = cls.__new__(cls)
        c.__dict__.update(zip(_REST_IN_DICT, _rest_in_dict(rest)))
        for name, i in _REST_IN_C:   # (compiled: the saved fields that StateFields holds, set as attributes)
            setattr(c, name, rest[i])
        c.units = marshal.loads(units)
        return c

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "State":
        return cls(**copy.deepcopy(d))

    @classmethod
    def from_text(cls, text: str) -> "State":
        return cls(**json.loads(text))

    # ---- reads (the unit queries are the module's functions above) -----------------------------
    units_at, count_at, places_of, in_pool, units_of = _units_at, _count_at, _places_of, _in_pool, _units_of
    on_map, pool, gate_owner, controlled_gates, order_from = (_on_map, _pool, _gate_owner, _controlled_gates,
                                                               _order_from)

    def unit(self, uid: int) -> dict[str, Any]:
        try:
            u = _built(self)[2].get(uid)
        except TypeError:   # not an id at all
            u = None
        if u is None:
            raise KeyError(f"no unit #{uid}")
        return u

    def controller(self, loc: str) -> dict[str, Any] | None:
        g = self.gates.get(loc)
        if g is None or g.get("controller") is None:
            return None
        return self.unit(g["controller"])

    def abandoned_gates(self) -> list[str]:
        return [loc for loc, g in self.gates.items() if g.get("controller") is None]

    def others(self, player: str) -> list[str]:
        return [p for p in self.players if p != player]


_FIELDS = fields(State)
STATE_FIELDS = _FIELDS   # the saved fields (a State also holds unsaved indexes)
_REST = tuple(f.name for f in _FIELDS if f.name != "units")   # what `pack` packs beside the units
_rest_of = operator.attrgetter(*_REST)   # a State's values of those fields, as a tuple (one C call)
# the saved fields that the compiled core's StateFields holds as C fields (state_fields.SAVED_IN_C;
# none in the Python source, where every saved field is in a State's `__dict__`), and where the
# others are in `_REST`
_IN_C = tuple(name for name in SAVED_IN_C if name in vars(StateFields))
_REST_IN_DICT = tuple(name for name in _REST if name not in _IN_C)
_rest_in_dict = operator.itemgetter(*(i for i, name in enumerate(_REST) if name not in _IN_C))
_REST_IN_C = tuple((name, _REST.index(name)) for name in _IN_C if name != "units")


# how State.copy copies each field: scalars are shared, the rest copied by its known shape (what
# `plain_copy` copies may hold any JSON-ready data); NECRO_CHECK_MEMO=1 compares every copy with JSON's
_SCALAR = frozenset(f.name for f in _FIELDS if f.type in ("str", "int", "bool"))
_COPY: dict[str, Any] = {f.name: plain_copy for f in _FIELDS if f.name not in _SCALAR}
_COPY.update(units=records_copy, tokens=records_copy, players=list, es_bag=list, power=dict, doom=dict, revealed=dict,
             bank=dict, home=dict, card_holders=dict, markers=dict, elder_signs=lists_copy, spellbooks=lists_copy,
             requirements=lists_copy, awakened=lists_copy, neutral_taken=lists_copy,
             gates=lambda v: {k: g.copy() for k, g in v.items()})
