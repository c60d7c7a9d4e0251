"""Map glyphs and ruleset-halved die effects.

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
