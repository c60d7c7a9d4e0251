"""The facts a learned evaluation reads from a position: numbers per seat and for the game, from
public facts alone (what every player's view shows), never a faction's name or id.

Per seat: Doom, Power, Gates controlled, spellbooks, requirements met, face-down Elder Signs,
units on the map by class (cultists, monsters, terrors, Great Old Ones), their Doom value (mean
cost) and combat, areas held, the leads in Doom and spellbooks over the best rival, and Doom,
spellbooks and spellbooks missing weighted by the game's lateness. For the game: a constant,
lateness, the round, the most and fewest spellbooks held (where six are needed) and one over the
player count. A unit's cost and combat come from the engine (`doom_value`, `combat_of`), so a
modder's units count as their rules say.
"""
from __future__ import annotations

from typing import Any

from ..engine.game import Game
from ..engine.phases import SPELLBOOKS
from ..engine import basics, core, phases
from .reward import lateness as doom_clock

__all__ = ["SEAT_FEATURES", "GAME_FEATURES", "FEATURES_VERSION", "lateness", "seat_features", "game_features"]

# what the features mean: raised whenever one is computed otherwise, so that evaluation files and
# training positions made with the old meaning are refused
FEATURES_VERSION = 1

CLASSES = ("cultist", "monster", "terror", "great-old-one")
SEAT_FEATURES = ("doom", "power", "gates", "spellbooks", "requirements", "elder-signs",
                 *(f"{c}s-on-map" for c in CLASSES), "unit-doom-value", "unit-combat", "areas-held",
                 "doom-lead", "spellbook-lead", "doom-x-lateness", "spellbooks-x-lateness",
                 "missing-spellbooks-x-lateness")
GAME_FEATURES = ("constant", "lateness", "round", "most-spellbooks", "fewest-spellbooks", "one-over-players")


def lateness(game: Game) -> float:
    """The features' clock, 0 to 1: the top Doom's share of the Doom that ends the game, or the
    ritual marker's share of the steps to Instant Death, whichever is further. A fact for a model
    to weigh, not the reward's claim that the game is over (search/reward.py's `lateness` reads Doom
    alone): a model fitted with this clock predicts outcomes better (held-out log loss 0.909
    against 0.948 with the Doom clock alone, and 0.947 with the marker as a feature of its own)."""
    try:
        track = len(phases.ritual_track(game.rules))
    except Exception:  # noqa: BLE001 - an estimate must never stop a search
        track = 0
    by_track = game.s.ritual / (track - 1) if track > 1 else 0.0   # 1: the next Ritual is Instant Death
    return min(1.0, max(doom_clock(game), by_track))


def seat_features(game: Game) -> dict[str, list[float]]:
    """Each seat's features (in `SEAT_FEATURES` order), from public facts of `game`."""
    s = game.s
    areas = game.layout.areas
    late = lateness(game)
    six = 1.0 if phases.needs_six_spellbooks(game.rules) else 0.0
    by_owner: dict[str, list[dict[str, Any]]] = {p: [] for p in s.players}
    for u in s.units:
        if u.get("loc") in areas and u.get("owner") in by_owner:
            by_owner[u["owner"]].append(u)
    out: dict[str, list[float]] = {}
    for p in s.players:
        units = by_owner[p]
        classes = {c: 0.0 for c in CLASSES}
        value = combat = 0.0
        for u in units:
            try:
                t = basics.utype(game.rules, u)
                classes[t.cls] = classes.get(t.cls, 0.0) + 1
                value += core.doom_value(game.rules, u)
                combat += core.combat_of(game.rules, u)
            except Exception:  # noqa: BLE001 - an estimate must never stop a search (unknown card data)
                continue
        books = float(min(len(s.spellbooks[p]), SPELLBOOKS))
        rivals = [q for q in s.players if q != p]
        out[p] = [float(s.doom[p]), float(s.power[p]), float(len(s.controlled_gates(p))), books,
                  float(len(s.requirements.get(p, []))), float(len(s.elder_signs.get(p, []))),
                  *(classes[c] for c in CLASSES), value, combat, float(len({u["loc"] for u in units})),
                  float(s.doom[p] - max((s.doom[q] for q in rivals), default=0)),
                  books - max((min(len(s.spellbooks[q]), SPELLBOOKS) for q in rivals), default=0),
                  s.doom[p] * late, books * late, six * (SPELLBOOKS - books) * late]
    return out


def game_features(game: Game) -> list[float]:
    """The game's features (in `GAME_FEATURES` order)."""
    s = game.s
    six = 1.0 if phases.needs_six_spellbooks(game.rules) else 0.0
    books = [min(len(s.spellbooks[p]), SPELLBOOKS) for p in s.players]
    return [1.0, lateness(game), float(s.round), six * max(books), six * min(books), 1.0 / max(len(s.players), 1)]
