"""A decision's options for a person: alike options grouped, and the areas and units each names.

The grouping is the terminal seat's (`tools.human_seat.group_options`: options naming identical
units are one choice, answered by its first label); this module adds what the map needs: the
areas a group's label names (a move's source before its target) and the unit ids it may take.
"""
from __future__ import annotations

import re
from typing import Any

from tools.human_seat import group_options

_UNIT_ID = re.compile(r"#(\d+)$")
_SPLIT = re.compile(r"->|[^A-Za-z0-9-]+")


def areas_named(label: str, areas: set[str]) -> list[str]:
    """The map areas a label names, in the order they appear (a move's source before its target)."""
    return [w for w in _SPLIT.split(label) if w in areas]


def grouped(options: tuple[str, ...] | list[str], areas: set[str], costs: dict[str, Any] | None = None,
            game: Any = None, player: str = "") -> list[dict[str, Any]]:
    """One entry per group of alike options: the label shown, the answer to send, how many are
    alike, the areas it names and the unit ids it may take (for clicks on the map)."""
    out = []
    for choice in group_options(tuple(options), game, player):
        first = choice.labels[0]
        g: dict[str, Any] = {"label": choice.shown.replace("->", " \u2192 "), "answer": first,
                             "count": len(choice.labels), "areas": areas_named(first.split("#", 1)[0], areas),
                             "units": [int(m.group(1)) for o in choice.labels if (m := _UNIT_ID.search(o))],
                             "options": list(choice.labels)}
        if costs and first in costs:
            g["cost"] = costs[first]
        out.append(g)
    return out
