"""Battle-scoped numbers, per-unit battle results and a Power total.

- ``add_battle_count`` / ``battle_count``: a number that lives until the end of the current battle,
  kept under a name and optionally a unit and/or a player (``set_flag`` / ``flag`` keep only
  booleans). Used for "+N dice for this battle" bonuses and "how many this battle" tallies.
- ``result_count``: how many results of one type a unit has been assigned in the current battle
  (for units that take more than one result and resolve them together).
- ``total_power``: the Power of several players added together (the language has no sum).
"""
from __future__ import annotations

from typing import Any

from ...effects.compiler import RuleError
from ...effects.registry import query, verb


def _count_key(ctx: Any, name: Any, unit: Any, player: Any) -> str:
    if not isinstance(name, str):
        raise RuleError(f"{ctx.where}: a battle count needs a name, got {name!r}")
    uid = ""
    if unit is not None:
        if not isinstance(unit, dict) or "id" not in unit or "kind" not in unit:
            raise RuleError(f"{ctx.where}: expected a unit, got {unit!r}")
        uid = str(unit["id"])
    if player is not None and (not isinstance(player, str) or player not in ctx.game.s.players):
        raise RuleError(f"{ctx.where}: expected a player, got {player!r}")
    return f"{name}|{player or ''}|{uid}"


@verb("add_battle_count", name="str", amount="int", unit=("unit", None), player=("player", None))
def _add_battle_count(ctx: Any, name: str, amount: Any, unit: Any = None, player: Any = None) -> None:
    """Add to a number kept until the end of the current battle, under a name (and a unit and/or player)."""
    b = ctx.game.s.battle
    if b is None:
        return
    key = _count_key(ctx, name, unit, player)
    counts = b.setdefault("counts", {})
    counts[key] = counts.get(key, 0) + ctx.game.integer(amount, "amount")


@query("battle_count", returns="int", name="str", unit=("unit", None), player=("player", None))
def _battle_count(ctx: Any, name: str, unit: Any = None, player: Any = None) -> int:
    """A number kept with add_battle_count in the current battle (0 when never added or outside a battle)."""
    b = ctx.game.s.battle
    if b is None:
        return 0
    return int(b.get("counts", {}).get(_count_key(ctx, name, unit, player), 0))


@query("result_count", returns="int", unit="unit", result=("result", None))
def _result_count(ctx: Any, unit: Any, result: Any = None) -> int:
    """How many battle results (of one type: kill, pain, eliminate) the unit holds in the current battle."""
    b = ctx.game.s.battle
    if not isinstance(unit, dict) or "id" not in unit:
        raise RuleError(f"{ctx.where}: expected a unit, got {unit!r}")
    if b is None:
        return 0
    res = b["results"].get(str(unit["id"]), [])
    return len(res) if result is None else sum(1 for r in res if r == result)


@query("total_power", returns="int", players="players")
def _total_power(ctx: Any, players: Any) -> int:
    """The Power of the listed players added together."""
    if isinstance(players, str):
        players = [players]
    if not isinstance(players, list):
        raise RuleError(f"{ctx.where}: total_power() needs a list of players, got {players!r}")
    s = ctx.game.s
    total = 0
    for p in players:
        if not isinstance(p, str) or p not in s.players:
            raise RuleError(f"{ctx.where}: expected a player, got {p!r}")
        total += s.power[p]
    return total
