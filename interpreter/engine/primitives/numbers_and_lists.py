"""Numbers and lists: max, min, rounding, counting, and list helpers (glyphs, without, ...)."""
from __future__ import annotations

import math
from typing import Any

from ...effects.compiler import RuleError
from ...effects.signatures import implements
from .. import basics
from ..basics import integer


# ---- numbers and lists -------------------------------------------------------------------------
@implements("max")
def _max(ctx: Any, where: str, *values: Any) -> Any:
    vals = values[0] if len(values) == 1 and isinstance(values[0], list) else values
    return max(vals) if vals else 0


@implements("min")
def _min(ctx: Any, where: str, *values: Any) -> Any:
    vals = values[0] if len(values) == 1 and isinstance(values[0], list) else values
    return min(vals) if vals else 0


@implements("ceil")
def _ceil(ctx: Any, x: Any) -> int:
    return math.ceil(x)


@implements("floor")
def _floor(ctx: Any, x: Any) -> int:
    return math.floor(x)


@implements("count")
def _count(ctx: Any, items: Any) -> int:
    if not isinstance(items, list):
        raise RuleError(f"{ctx.where}: count() needs a list, got {items!r}")
    return len(items)


@implements("first")
def _first(ctx: Any, items: list[Any]) -> Any:
    return items[0] if items else None


@implements("distinct")
def _distinct(ctx: Any, items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for i in items:
        if i not in out:
            out.append(i)
    return out


# ---- List helpers, map glyphs and ruleset-halved die effects.
@implements("pluck")
def _pluck(ctx: Any, items: list[Any], field: str) -> list[Any]:
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


@implements("without")
def _without(ctx: Any, items: list[Any], remove: list[Any]) -> list[Any]:
    if not isinstance(items, list) or not isinstance(remove, list):
        raise RuleError(f"{ctx.where}: without() needs two lists")
    return [i for i in items if i not in remove]


@implements("glyph")
def _glyph(ctx: Any, area: Any) -> Any:
    if area is not None and not isinstance(area, str):
        raise RuleError(f"{ctx.where}: glyph() needs an area, got {area!r}")
    a = ctx.game.layout.areas.get(area) if area is not None else None
    return a.glyph if a is not None and a.glyph else None


@implements("ruleset_halves")
def _ruleset_halves(ctx: Any, ability: str, amount: Any) -> int:
    n = integer(ctx.game, amount, "amount")
    listed = ctx.game.ruleset.settings.get("halved-dice-abilities", []) or []
    return math.ceil(n / 2) if ability in listed else n
