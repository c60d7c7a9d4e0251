"""A decision's options for a person: alike options grouped, and the areas and units each names.

The grouping is the terminal seat's (`tools.human_seat.group_options`: options naming identical
units are one choice, answered by its first label); this module adds what the map needs: the
areas a group's option names (a move's source before its target) and the unit ids it may take,
both read from the structured options (`interpreter/engine/options.py`), not from the labels.
"""
from __future__ import annotations

from typing import Any

from necronomicon.interpreter.engine.decisions import Decision
from necronomicon.interpreter.engine.options import Option, UnclassifiedOption, option_info
from necronomicon.tools.human_seat import group_options
from necronomicon.tools.words import Words


def areas_named(info: Option, areas: set[str]) -> list[str]:
    """The map areas an option names, a move's source before its target."""
    named = [info.src, info.dst, info.area]
    return list(dict.fromkeys(a for a in named if a is not None and a in areas))


def grouped(options: tuple[str, ...] | list[str], areas: set[str], costs: dict[str, Any] | None = None,
            game: Any = None, player: str = "", kind: str = "action", words: Words | None = None) -> list[dict[str, Any]]:
    """One entry per group of alike options of a decision of `kind`: the label shown (in content
    names with `words`), the answer to send, how many are alike, the areas it names and the unit
    ids it may take (map clicks)."""
    players = list(game.s.players) if game is not None else [player]
    decision = Decision(player, kind, tuple(options), "")
    try:
        infos = {o.label: o for o in option_info(decision, players, areas)}
    except UnclassifiedOption:
        infos = {}     # a label of no known form (the engine's tests keep this from happening): no map clicks
    out = []
    for choice in group_options(tuple(options), game, player, words, decision):
        first = choice.labels[0]
        info = infos.get(first)
        g: dict[str, Any] = {"label": choice.shown.replace(" -> ", " \u2192 ").replace("->", " \u2192 "), "answer": first,
                             "count": len(choice.labels), "areas": areas_named(info, areas) if info else [],
                             "units": [u for o in choice.labels if (u := getattr(infos.get(o), "unit", None)) is not None],
                             "options": list(choice.labels)}
        if costs and first in costs:
            g["cost"] = costs[first]
        out.append(g)
    return out
