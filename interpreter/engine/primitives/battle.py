"""Battle: who is in it, assigned and rolled results, flags; adding, converting and cancelling results."""
from __future__ import annotations

from typing import Any

from ...effects.compiler import RuleError
from ...effects.signatures import implements
from .arguments import as_list, as_unit
from .. import basics
from ..basics import emit, integer, is_area
from .. import battle_queries


# ---- battle -------------------------------------------------------------------------------------------
@implements("in_battle")
def _in_battle(ctx: Any, player: str) -> bool:
    b = ctx.game.s.battle
    return b is not None and player in (b["attacker"], b["defender"])


@implements("assigned")
def _assigned(ctx: Any, owner: str, result: str) -> list[dict[str, Any]]:
    g = ctx.game
    b = g.s.battle
    if b is None:
        return []
    ids = [int(k) for k, v in b["results"].items() if result in v]
    return [g.s.unit(i) for i in ids if g.s.unit(i)["owner"] == owner]


@implements("avoided_deaths")
def _avoided(ctx: Any) -> list[dict[str, Any]]:
    g = ctx.game
    b = g.s.battle
    if b is None:
        return []
    return [g.s.unit(i) for i in b["avoided"] if is_area(g, g.s.unit(i)["loc"])]


@implements("rolled")
def _rolled(ctx: Any, player: str, what: str = "dice") -> int:
    if what not in ("dice", "kills", "pains", "misses"):
        raise RuleError(f"rolled: 'what' is one of dice, kills, pains, misses (not {what!r})")
    b = ctx.game.s.battle
    if b is None or player not in b["rolled"]:
        return 0
    r = b["rolled"][player]
    return sum(1 for x in r["rolls"] if x <= 3) if what == "misses" else int(r[what])


@implements("flag")
def _flag(ctx: Any, name: str, player: Any = None) -> bool:
    b = ctx.game.s.battle
    return b is not None and [name, player] in b["flags"]


@implements("lent")
def _lent(ctx: Any, ability: str, to: str) -> bool:
    return any(g["ability"].endswith("/" + ability) and g["to"] == to for g in ctx.game.s.grants)


# ---- verbs: battle ---------------------------------------------------------------------------------------
@implements("exempt")
def _exempt(ctx: Any, unit: Any) -> None:
    b = ctx.game.s.battle
    if b is not None:
        b["exempt"].append(as_unit(ctx, unit)["id"])
        emit(ctx.game, "exempt", unit=unit["id"])


@implements("add_results")
def _add_results(ctx: Any, against: str, result: str, count: int = 1, class_: Any = None) -> None:
    b = ctx.game.s.battle
    if b is None or against not in b["pending"]:
        return
    item: dict[str, Any] = {"result": result, "by": ctx.me}
    if class_ is not None:
        item["classes"] = as_list(class_)
    b["pending"][against] += [dict(item) for _ in range(max(0, int(count)))]
    emit(ctx.game, "results-added", against=against, result=result, count=count, by=ctx.me)


@implements("reroll_misses")
def _reroll_misses(ctx: Any, player: str) -> None:
    g = ctx.game
    b = g.s.battle
    if b is None or player not in b["rolled"]:
        return
    r = b["rolled"][player]
    misses = [x for x in r["rolls"] if x <= 3]
    if not misses:
        return
    again = basics.roll(g, len(misses), player, "reroll")
    kills, pains = sum(1 for x in again if x == 6), sum(1 for x in again if x in (4, 5))
    r.update(rolls=[x for x in r["rolls"] if x > 3] + again, kills=r["kills"] + kills, pains=r["pains"] + pains)
    other = battle_queries.opponent_in_battle(g, player)
    b["pending"][other] += [{"result": "kill", "by": player}] * kills + [{"result": "pain", "by": player}] * pains


@implements("convert_results")
def _convert(ctx: Any, against: str, src: str, dst: str) -> None:
    b = ctx.game.s.battle
    if b is None:
        return
    for item in b["pending"].get(against, []):
        if item["result"] == src:
            item["result"] = dst


@implements("cancel_result")
def _cancel(ctx: Any, unit: Any) -> None:
    b = ctx.game.s.battle
    u = as_unit(ctx, unit)
    res = b["results"].get(str(u["id"]), []) if b else []
    if res:
        gone = res.pop()
        if gone == "kill" and u["id"] not in b["avoided"]:
            b["avoided"].append(u["id"])
        emit(ctx.game, "result-cancelled", unit=u["id"], kind=u["kind"], result=gone)


@implements("set_flag")
def _set_flag(ctx: Any, name: str, player: Any = None) -> None:
    b = ctx.game.s.battle
    if b is not None:
        b["flags"].append([name, player])


# ---- Battle-scoped numbers, per-unit battle results and a Power total.
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


@implements("add_battle_count")
def _add_battle_count(ctx: Any, name: str, amount: Any, unit: Any = None, player: Any = None) -> None:
    b = ctx.game.s.battle
    if b is None:
        return
    key = _count_key(ctx, name, unit, player)
    counts = b.setdefault("counts", {})
    counts[key] = counts.get(key, 0) + integer(ctx.game, amount, "amount")


@implements("battle_count")
def _battle_count(ctx: Any, name: str, unit: Any = None, player: Any = None) -> int:
    b = ctx.game.s.battle
    if b is None:
        return 0
    return int(b.get("counts", {}).get(_count_key(ctx, name, unit, player), 0))


@implements("result_count")
def _result_count(ctx: Any, unit: Any, result: Any = None) -> int:
    b = ctx.game.s.battle
    if not isinstance(unit, dict) or "id" not in unit:
        raise RuleError(f"{ctx.where}: expected a unit, got {unit!r}")
    if b is None:
        return 0
    res = b["results"].get(str(unit["id"]), [])
    return len(res) if result is None else sum(1 for r in res if r == result)


@implements("total_power")
def _total_power(ctx: Any, players: Any) -> int:
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
