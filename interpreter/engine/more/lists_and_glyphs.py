"""List helpers, map glyphs and ruleset-halved die effects.

- ``pluck`` and ``without``: the values of one field over a list of records (e.g. the locations
  or owners of some units or tokens) and the difference of two lists.
- ``glyph`` reads the glyph printed on a map area (the map's ``glyph:`` field), for requirements
  such as "have a token in an area of each glyph".
- ``ruleset_halves`` applies a ruleset's ``halved-dice-abilities`` list to a die-driven amount, so
  an ability can read whether the ruleset halves it (the language has no conditional expression).
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


@query("glyph", returns="str", area="area")
def _glyph(ctx: Any, area: Any) -> Any:
    """The glyph printed on an area (none for an area without one, or a location off the map)."""
    if area is not None and not isinstance(area, str):
        raise RuleError(f"{ctx.where}: glyph() needs an area, got {area!r}")
    a = ctx.game.layout.areas.get(area) if area is not None else None
    return a.glyph if a is not None and a.glyph else None


@query("ruleset_halves", returns="int", ability="str", amount="int")
def _ruleset_halves(ctx: Any, ability: str, amount: Any) -> int:
    """`amount` halved and rounded up when the ruleset lists `ability` under halved-dice-abilities, else unchanged."""
    n = ctx.game.integer(amount, "amount")
    listed = ctx.game.ruleset.get("halved-dice-abilities", []) or []
    return math.ceil(n / 2) if ability in listed else n
