"""Faction colours for every picture: the colour a faction's content gives, else one chosen far from
every other faction's.

A faction without a `colour` gets, in sorted-id order, the candidate (the 216 colours of a 6-level
RGB grid) whose smallest distance to every colour already taken is largest, measured in CIELAB
(CIE76: near enough to what the eye sees); white and black count as taken, as boards and text use
them. Every faction of the content is placed, so a faction's colour does not depend on which
factions one picture shows; ties go to the first candidate, so the choice is deterministic.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

LEVELS = (0x00, 0x33, 0x66, 0x99, 0xcc, 0xff)
CANDIDATES = tuple(f"#{r:02x}{g:02x}{b:02x}" for r in LEVELS for g in LEVELS for b in LEVELS)
BACKGROUNDS = ("#ffffff", "#000000")


@lru_cache(maxsize=1024)
def lab(colour: str) -> tuple[float, float, float]:
    """CIELAB (D65) of a '#rrggbb' colour."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def distance(a: str, b: str) -> float:
    """How different two colours look (CIE76: Euclidean distance in CIELAB)."""
    (l1, a1, b1), (l2, a2, b2) = lab(a), lab(b)
    return float(((l1 - l2) ** 2 + (a1 - a2) ** 2 + (b1 - b2) ** 2) ** 0.5)


def farthest(taken: list[str]) -> str:
    """The candidate whose nearest colour in `taken` is farthest away (the first of equals)."""
    return max(CANDIDATES, key=lambda c: min(distance(c, t) for t in taken))


def _valid(colour: Any) -> bool:
    return isinstance(colour, str) and len(colour) == 7 and colour[0] == "#" and \
        all(ch in "0123456789abcdefABCDEF" for ch in colour[1:])


def faction_colours(model: Any, factions: list[str]) -> dict[str, str]:
    """'#rrggbb' per faction id: its content `colour`, else one far from every other faction's
    (unknown ids too, after the content's factions)."""
    known = dict(getattr(model, "factions", None) or {})
    chosen = {f: fac.colour.lower() for f, fac in known.items() if _valid(getattr(fac, "colour", None))}
    taken = list(BACKGROUNDS) + sorted(set(chosen.values()))
    for f in sorted(known) + sorted(set(factions) - set(known)):
        if f not in chosen:
            chosen[f] = farthest(taken)
            taken.append(chosen[f])
    return {f: chosen[f] for f in factions}
