"""Game state as plain data (JSON-ready), with small read helpers. Rules live elsewhere."""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field, fields
from typing import Any

POOL = "pool"
GENERAL = ""  # the owner of a unit in the general pool (an Independent Great Old One nobody controls)


def captured_loc(captor: str) -> str:
    return f"captured:{captor}"


def held_loc(player: str, tag: str) -> str:
    """An off-map holding on a player's card (e.g. units lifted off the map, a gate kept aside)."""
    return f"held:{player}:{tag}"


@dataclass
class State:
    """Everything that changes during a game. Only lists, dicts, str, int, bool and None."""

    ruleset: str
    layout: str
    seed: int
    rng: int
    players: list[str]  # faction ids in seating (clockwise) order
    power: dict[str, int]
    doom: dict[str, int]
    elder_signs: dict[str, list[int]]  # face-down values per player
    revealed: dict[str, int]
    es_bag: list[int]
    spellbooks: dict[str, list[str]]
    requirements: dict[str, list[str]]  # requirement ids earned
    units: list[dict[str, Any]]  # {id, owner, kind, loc}
    gates: dict[str, dict[str, Any]]  # location -> {controller: unit id | None}
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
    seq: int = 0
    # where the rules stand: the stack of procedure frames (engine/flow.py) and the decision
    # waiting for an answer (None while the rules run, or when the game is over)
    flow: list[dict[str, Any]] = field(default_factory=list)
    pending: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """A deep, independent copy as plain data."""
        return json.loads(self.to_text())

    def to_text(self) -> str:
        """The state as JSON text (fast: one pass of the C encoder)."""
        return json.dumps({f.name: getattr(self, f.name) for f in _FIELDS})

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "State":
        return cls(**copy.deepcopy(d))

    @classmethod
    def from_text(cls, text: str) -> "State":
        return cls(**json.loads(text))

    # ---- reads ----------------------------------------------------------------------------
    def unit(self, uid: int) -> dict[str, Any]:
        for u in self.units:
            if u["id"] == uid:
                return u
        raise KeyError(f"no unit #{uid}")

    def units_at(self, loc: str, owner: str | None = None) -> list[dict[str, Any]]:
        return [u for u in self.units if u["loc"] == loc and (owner is None or u["owner"] == owner)]

    def on_map(self, owner: str | None = None, areas: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        return [u for u in self.units if (owner is None or u["owner"] == owner)
                and (u["loc"] in areas if areas is not None else ":" not in u["loc"] and u["loc"] != POOL)]

    def pool(self, owner: str, kind: str | None = None) -> list[dict[str, Any]]:
        return [u for u in self.units if u["owner"] == owner and u["loc"] == POOL
                and (kind is None or u["kind"] == kind)]

    def controller(self, loc: str) -> dict[str, Any] | None:
        g = self.gates.get(loc)
        if g is None or g.get("controller") is None:
            return None
        return self.unit(g["controller"])

    def gate_owner(self, loc: str) -> str | None:
        c = self.controller(loc)
        return c["owner"] if c else None

    def controlled_gates(self, player: str) -> list[str]:
        return [loc for loc in self.gates if self.gate_owner(loc) == player]

    def abandoned_gates(self) -> list[str]:
        return [loc for loc, g in self.gates.items() if g.get("controller") is None]

    def others(self, player: str) -> list[str]:
        return [p for p in self.players if p != player]

    def order_from(self, first: str) -> list[str]:
        """Players in turn order starting with `first`, following the current direction."""
        i = self.players.index(first)
        n = len(self.players)
        return [self.players[(i + k * self.direction) % n] for k in range(n)]


_FIELDS = fields(State)
