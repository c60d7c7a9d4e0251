"""List helpers, map glyphs and ruleset-halved die effects.

- ``pluck`` and ``without`` fill two gaps of the language, which has no list comprehension: the
  locations / owners of a list of units or tokens, and the difference of two lists.
- ``glyphs`` reads the glyphs printed on map areas (the map's ``glyph:`` field).
- ``ruleset_halves`` applies a ruleset's ``halved-dice-abilities`` list to a die-driven amount.
"""
from __future__ import annotations

import math
from typing import Any

from ...effects.compiler import RuleError
from ...effects.registry import query


@query("pluck", returns="list", items="list", field="str")
def _pluck(ctx: Any, items: list[Any], field: str) -> list[Any]:
    """The value of one field of each record in a list, in order, repeats kept (e.g. 'loc', 'owner')."""
    if not isinstance(items, list):
        raise RuleError(f"{ctx.where}: pluck() needs a list, got {items!r}")
    out = []
    for it in items:
        if not isinstance(it, dict):
            raise RuleError(f"{ctx.where}: pluck() needs records, got {it!r}")
        if field in it and not field.startswith("_"):
            out.append(it[field])
            continue
        found, value = ctx.record_field(it, field)
        if not found:
            raise RuleError(f"{ctx.where}: pluck(): no field '{field}' in {it!r}")
        out.append(value)
    return out


@query("without", returns="list", items="list", remove="list")
def _without(ctx: Any, items: list[Any], remove: list[Any]) -> list[Any]:
    """The items of the first list that are not in the second list, in order."""
    if not isinstance(items, list) or not isinstance(remove, list):
        raise RuleError(f"{ctx.where}: without() needs two lists")
    return [i for i in items if i not in remove]


@query("glyphs", returns="list", areas="areas")
def _glyphs(ctx: Any, areas: Any) -> list[str]:
    """The distinct glyphs printed on the given areas (an area without a glyph adds nothing)."""
    if isinstance(areas, str):
        areas = [areas]
    if not isinstance(areas, list):
        raise RuleError(f"{ctx.where}: glyphs() needs a list of areas, got {areas!r}")
    out: list[str] = []
    for a in areas:
        area = ctx.game.layout.areas.get(a)
        if area is not None and area.glyph and area.glyph not in out:
            out.append(area.glyph)
    return out


@query("ruleset_halves", returns="int", ability="str", amount="int")
def _ruleset_halves(ctx: Any, ability: str, amount: Any) -> int:
    """`amount` halved and rounded up when the ruleset lists `ability` under halved-dice-abilities, else unchanged."""
    n = ctx.game.integer(amount, "amount")
    listed = ctx.game.ruleset.get("halved-dice-abilities", []) or []
    return math.ceil(n / 2) if ability in listed else n
