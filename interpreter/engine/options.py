"""Structured options: the pending decision's options as records (`option.Option`), with their costs.

Bots, the RL environment and the web board read `option_info(decision, players, areas)` (or
`structured(game)`) instead of parsing labels; the label grammar and the record are in
`interpreter/engine/option.py`, the one module that makes and reads labels. `cost` is the Power
the decision's context lists for the option (actions, unit moves, the Doom Phase's ritual), else
None. An option the grammar cannot place raises `UnclassifiedOption` (tests play seeded games of
every ruleset and check that none is left unclassified).
"""
from __future__ import annotations

from typing import Any, Iterable

from .decisions import Decision
from .option import VERBS, Option, UnclassifiedOption, classify

__all__ = ["Option", "UnclassifiedOption", "VERBS", "option_info", "structured"]


def structured(game: Any) -> list[Option]:
    """The pending decision's options, each with what it is ([] when the game is over)."""
    d = game.current()
    if d is None:
        return []
    return option_info(d, game.s.players, game.layout.areas)


# What options were found to be, by everything that says it (kind, label, cost, players, areas):
# a bot classifies every option of every decision, and most labels come back decision after
# decision. An Option is immutable, so one instance serves every caller. Cleared when full (checked
# before each call, so a call may add its options beyond the bound); the sets of players and
# areas in the keys are one object per distinct set (`_SETS`), so a full table holds a few sets,
# not one per call.
_KNOWN: dict[tuple[Any, ...], Option] = {}
_SETS: dict[frozenset[str], frozenset[str]] = {}
_KNOWN_MAX = 20_000


def option_info(d: Decision, players: Iterable[str], areas: Iterable[str]) -> list[Option]:
    """What each of `d`'s options is (`players`: the factions at the table; `areas`: the map's)."""
    if len(_KNOWN) >= _KNOWN_MAX or len(_SETS) >= 64:
        _KNOWN.clear()
        _SETS.clear()
    ps, ars = frozenset(players), frozenset(areas)
    ps, ars = _SETS.setdefault(ps, ps), _SETS.setdefault(ars, ars)
    costs = d.context.get("costs") if isinstance(d.context.get("costs"), dict) else {}
    kind = d.kind
    known = _KNOWN
    out = []
    for label in d.options:
        c = costs.get(label)
        cost = None if c is None else int(c)
        key = (kind, label, cost, ps, ars)
        info = known.get(key)
        if info is None:
            info = classify(kind, label, ps, ars)
            if cost is not None:
                info = info._replace(cost=cost)
            known[key] = info
        out.append(info)
    return out
