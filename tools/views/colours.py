"""Faction colours for every picture: the colour a faction's content gives, else a stable fallback."""
from __future__ import annotations

from typing import Any

FALLBACK = ["#2ca02c", "#d62728", "#9467bd", "#ff7f0e", "#17becf", "#e377c2", "#8c564b", "#bcbd22", "#1f77b4", "#7f7f7f"]


def faction_colours(model: Any, factions: list[str]) -> dict[str, str]:
    """'#rrggbb' per faction id: its content `colour`, else the palette in sorted-id order (unknown ids too)."""
    out: dict[str, str] = {}
    fallback = iter(c for c in FALLBACK * 3)
    taken = set()
    for f in factions:
        fac = model.factions.get(f) if model is not None else None
        if fac is not None and fac.colour:
            out[f] = fac.colour
            taken.add(fac.colour.lower())
    for f in sorted(factions):
        if f not in out:
            out[f] = next((c for c in fallback if c.lower() not in taken), "#7f7f7f")
    return out
