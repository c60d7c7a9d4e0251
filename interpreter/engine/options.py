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
from .option import VERBS, Option, UnclassifiedOption, classify, with_cost

__all__ = ["Option", "UnclassifiedOption", "VERBS", "option_info", "structured"]


def structured(game: Any) -> list[Option]:
    """The pending decision's options, each with what it is ([] when the game is over)."""
    d = game.current()
    if d is None:
        return []
    return option_info(d, game.s.players, game.layout.areas)


# What options were found to be: a bot classifies every option of every decision, and most labels
# come back decision after decision. An Option is immutable, so one instance serves every caller.
# One table per (decision kind, set of players, set of areas), each keyed by the label alone when
# the decision lists no cost for it, else by (label, cost): most options then cost no key made at
# all. Cleared when the options kept reach the bound (checked before each call, so a call may add
# its options beyond it) or the tables reach 64 (each holds one copy of its sets: a full store
# holds a few sets, not one per call).
_TABLES: dict[tuple[str, frozenset[str], frozenset[str]], dict[Any, Option]] = {}
_KNOWN_MAX = 20_000
_kept = 0   # options in the tables


def option_info(d: Decision, players: Iterable[str], areas: Iterable[str]) -> list[Option]:
    """What each of `d`'s options is (`players`: the factions at the table; `areas`: the map's;
    frozensets are used as they are, so a caller asking again can keep them)."""
    global _kept
    if _kept >= _KNOWN_MAX or len(_TABLES) >= 64:
        _TABLES.clear()
        _kept = 0
    ps, ars = frozenset(players), frozenset(areas)
    kind = d.kind
    table = _TABLES.get((kind, ps, ars))
    if table is None:
        table = _TABLES[kind, ps, ars] = {}
    costs = d.context.get("costs")
    cost_of = costs if isinstance(costs, dict) and costs else None
    out = []
    for label in d.options:
        c = None if cost_of is None else cost_of.get(label)
        key = label if c is None else (label, c)
        info = table.get(key)
        if info is None:
            info = classify(kind, label, ps, ars)
            if c is not None:
                info = with_cost(info, int(c))
            table[key] = info
            _kept += 1
        out.append(info)
    return out
