"""A fixed-size numeric view of a game for one seat, and the mask of its legal options.

The vector is ego-centric: seat blocks start with the observing player and follow the seating
order from there, so a policy can play any seat. It is built from the player's view only (the
seat's board, engine/seat.py: others' Elder Sign values, the bag and the generator are not in
it), so games differing only in hidden information give equal observations. The layout, for P players, A areas (sorted ids) and the
classes cultist, monster, terror, great-old-one:

| block | size | what |
|---|---|---|
| seats | P x 10 | Power, Doom, elder signs held, spellbooks, requirements met, gates controlled, units on the map, in the pool, off the map (held/captured), is first player |
| units | A x P x 4 | units of each class per area and seat |
| gates | A x (2 + P) | gate present, abandoned, controller seat (one-hot) |
| terrain | A | 1 for an ocean area |
| track | 5 | ritual marker, track length, next ritual cost for this seat, instant death, turn surcharge |
| time | 2 | round, decisions taken so far / 1000 |
| phase | len(PHASES) | one-hot of the engine step (setup, action, gather, first-player, doom, over) |
| decision | len(KINDS) + 3 | one-hot of the pending decision's kind, whether this seat chooses, legal options / MAX, options cut off |
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..engine import actions, basics, phases

if TYPE_CHECKING:
    from ..engine.decisions import Decision
    from ..engine.game import Game

CLASSES = ("cultist", "monster", "terror", "great-old-one")
PHASES = ("setup", "action", "gather", "first-player", "doom", "over")
KINDS = ("action", "move", "unit", "area", "option", "ability", "spellbook", "doom", "player", "yes-no", "order")
SEAT_FEATURES = 10
HIGH = 1000.0  # every feature is a count or a flag well below this


def observation_size(players: int, areas: int) -> int:
    """The length of the vector for a game of `players` seats on `areas` areas."""
    return (players * SEAT_FEATURES + areas * players * len(CLASSES) + areas * (2 + players) + areas
            + 5 + 2 + len(PHASES) + len(KINDS) + 1 + 3)


def seats_from(game: "Game", player: str) -> list[str]:
    """The players in seating order, starting with `player`."""
    ps = game.s.players
    i = ps.index(player)
    return ps[i:] + ps[:i]


def encode(game: "Game", player: str, decisions: int, max_actions: int, d: "Decision | None" = None) -> np.ndarray:
    """The observation vector of `player` (float32, every entry in [0, HIGH]); `game`: the
    player's board (`Seat.board()`, the position as its view shows it), `d`: the pending decision."""
    s = game.s
    seats = seats_from(game, player)
    seat_of = {p: k for k, p in enumerate(seats)}
    areas = sorted(game.layout.areas)
    area_of = {a: k for k, a in enumerate(areas)}
    seat_block = np.zeros((len(seats), SEAT_FEATURES), np.float32)
    units = np.zeros((len(areas), len(seats), len(CLASSES)), np.float32)
    for u in s.units:
        k = seat_of.get(u["owner"])
        if k is None:
            continue
        loc = u["loc"]
        if loc in area_of:
            seat_block[k, 6] += 1
            cls = basics.utype(game.rules, u).cls
            units[area_of[loc], k, CLASSES.index(cls) if cls in CLASSES else 1] += 1
        elif loc == "pool":
            seat_block[k, 7] += 1
        else:
            seat_block[k, 8] += 1
    for p, k in seat_of.items():
        seat_block[k, :6] = (s.power[p], s.doom[p], len(s.elder_signs[p]), len(s.spellbooks[p]),
                             len(s.requirements[p]), actions.gate_count(game.rules, p))
        seat_block[k, 9] = float(p == s.first)
    gates = np.zeros((len(areas), 2 + len(seats)), np.float32)
    for loc in s.gates:
        if loc in area_of:
            owner = s.gate_owner(loc)
            gates[area_of[loc], 0] = 1
            gates[area_of[loc], 1] = float(owner is None)
            if owner in seat_of:
                gates[area_of[loc], 2 + seat_of[owner]] = 1
    terrain = np.array([float(game.layout.areas[a].ocean) for a in areas], np.float32)
    track = phases.ritual_track(game.rules)
    try:
        cost = phases.ritual_cost(game.rules, player)
    except Exception:  # noqa: BLE001 - a modifier that cannot be evaluated now: show the printed cost
        cost = phases.ritual_track_cost(game.rules)
    track_block = np.array([s.ritual, len(track), cost, float(s.instant_death), s.surcharge], np.float32)
    time_block = np.array([s.round, decisions / 1000.0], np.float32)
    phase = np.zeros(len(PHASES), np.float32)
    step = "over" if s.over else s.step.get("phase", "setup")
    phase[PHASES.index(step) if step in PHASES else 0] = 1
    kind = np.zeros(len(KINDS) + 1, np.float32)
    decision = np.zeros(3, np.float32)
    if d is not None:
        kind[KINDS.index(d.kind) if d.kind in KINDS else len(KINDS)] = 1
        decision[:] = (float(d.player == player), min(len(d.options), max_actions) / max_actions,
                       float(len(d.options) > max_actions))
    vec = np.concatenate([seat_block.ravel(), units.ravel(), gates.ravel(), terrain, track_block, time_block,
                          phase, kind, decision])
    return np.clip(vec, 0.0, HIGH).astype(np.float32)


def action_mask(d: "Decision | None", player: str, max_actions: int) -> np.ndarray:
    """1 for each legal option index of `player`'s pending decision `d` (the first `max_actions`)."""
    mask = np.zeros(max_actions, np.int8)
    if d is not None and d.player == player:
        mask[:min(len(d.options), max_actions)] = 1
    return mask
