"""Checking and filtering the arguments every primitive receives (players, units, kinds, classes)."""
from __future__ import annotations

from typing import Any

from ...effects.compiler import RuleError
from .. import basics
from ..basics import uclass


def as_player(ctx: Any, p: Any) -> str:
    """`p` as a player id, or a RuleError naming the place in the effect text."""
    if not isinstance(p, str) or p not in ctx.game.s.players:
        raise RuleError(f"{ctx.where}: expected a player, got {p!r}")
    return p


def as_unit(ctx: Any, u: Any) -> dict[str, Any]:
    """The live unit record a unit value refers to, or a RuleError."""
    if not isinstance(u, dict) or "kind" not in u or "id" not in u:
        raise RuleError(f"{ctx.where}: expected a unit, got {u!r}")
    return ctx.game.s.unit(u["id"])


def as_list(v: Any) -> list[Any] | None:
    """None stays None (no filter); one value becomes a one-item list."""
    if v is None:
        return None
    return list(v) if isinstance(v, (list, tuple)) else [v]


def filter_units(ctx: Any, units: list[dict[str, Any]], kind: Any, cls: Any) -> list[dict[str, Any]]:
    """The units of the given kind(s) and class(es); None means any."""
    kinds, classes = as_list(kind), as_list(cls)
    g = ctx.game
    return [u for u in units if (kinds is None or u["kind"] in kinds)
            and (classes is None or uclass(g, u) in classes)]
