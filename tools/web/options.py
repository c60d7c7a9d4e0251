"""A decision's options for a person: identical options grouped, and the areas and units each names.

Options that differ only in which of several alike units they take ('acolyte a->b#3',
'acolyte a->b#4') become one group answered by its first option: the engine treats alike
units alike, and `match_option` already accepts the label without its '#id'.
"""
from __future__ import annotations

import re
from typing import Any

_UNIT_ID = re.compile(r"#(\d+)$")
_SPLIT = re.compile(r"->|[^A-Za-z0-9-]+")


def group_label(option: str) -> str:
    """The label without its unit number: what alike options share."""
    return option.split("#", 1)[0] if _UNIT_ID.search(option) else option


def areas_named(label: str, areas: set[str]) -> list[str]:
    """The map areas a label names, in the order they appear (a move's source before its target)."""
    return [w for w in _SPLIT.split(label) if w in areas]


def grouped(options: tuple[str, ...] | list[str], areas: set[str], costs: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """One entry per group of alike options: the label, the answer to send, how many are alike,
    the areas it names and the unit ids it may take (for clicks on the map)."""
    groups: dict[str, dict[str, Any]] = {}
    for o in options:
        key = group_label(o)
        g = groups.get(key)
        if g is None:
            g = groups[key] = {"label": key.replace("->", " \u2192 "), "answer": o, "count": 0,
                               "areas": areas_named(key, areas), "units": [], "options": []}
            if costs and o in costs:
                g["cost"] = costs[o]
        g["count"] += 1
        g["options"].append(o)
        m = _UNIT_ID.search(o)
        if m:
            g["units"].append(int(m.group(1)))
    return list(groups.values())
