"""Units: where they are, what they cost and count for; placing, moving, killing, capturing, holding."""
from __future__ import annotations

from typing import Any

from ...effects.compiler import RuleError
from ...effects.runtime import Suspend
from ...effects.signatures import counts, implements
from ..state import CHECK_MEMO, POOL, held_loc, _owner_places, _units_at, _units_of, _pool as _pool_of
from .arguments import as_list, as_player, as_unit, filter_units
from .. import basics
from ..basics import is_area, uclass, utype
from .. import battle_queries
from .. import core
from ..core import combat_of, unit_cost


# ---- units ----------------------------------------------------------------------------------------
@implements("units")
def _units(ctx: Any, owner: Any = None, kind: Any = None, class_: Any = None, area: Any = None,
           where: str = "map") -> list[dict[str, Any]]:
    # (`class`, a Python keyword, as `class_`: the parameters are the declared ones in order, so the
    # effect language calls it by position, closures.by_position)
    g = ctx.game
    s = g.s
    if where == "map":
        areas = g.layout.areas
        if isinstance(owner, str):   # one owner: its units (in the order of all units) on the map
            if isinstance(area, str):   # in one area: read from the index by owner and place
                return filter_units(ctx, _units_at(s, area, owner) if area in areas else [], kind, class_)
            # anywhere on the map, or in some areas: one pass over the owner's units, each tested for
            # its kind (the most selective test, when given), its place and its class (the same units
            # in the same order as filter_units over the units in place)
            wanted = areas if area is None else _map_areas(area, areas)
            kinds, classes = as_list(kind), as_list(class_)
            return [u for u in _units_of(s, owner) if (kinds is None or u["kind"] in kinds) and u["loc"] in wanted
                    and (classes is None or uclass(g, u) in classes)]
        base = [u for u in s.units if u["loc"] in areas]
    elif where == "pool":
        base = [u for u in s.units if u["loc"] == POOL]
    elif where == "battle":
        b = s.battle
        if b is None:
            return []
        base = [u for u in s.units if u["loc"] == b["area"] and u["id"] not in b["exempt"]
                and u["owner"] in (b["attacker"], b["defender"])]
    elif where == "held":
        base = [u for u in s.units if u["loc"].startswith("held:")]
    elif where == "any":
        base = list(s.units)
    else:
        raise RuleError(f"{ctx.where}: units(where: ...) is one of map, pool, battle, held, any")
    if owner is not None:
        owners = owner if isinstance(owner, list) else [owner]
        base = [u for u in base if u["owner"] in owners]
    return filter_units(ctx, _in_areas(base, area), kind, class_)


def _count_units(ctx: Any, owner: Any = None, kind: Any = None, class_: Any = None, area: Any = None,
                 where: str = "map") -> int:
    """`len(_units(...))` (`count(units(...))`): one owner's units anywhere on the map counted place
    by place from the index's table of its units by place (the units of its places on the map, each
    tested as `_units` tests it), not by a pass over all its units; any other query as `_units`."""
    g = ctx.game
    if where != "map" or area is not None or not isinstance(owner, str):
        return len(_units(ctx, owner, kind, class_, area, where))
    areas = g.layout.areas
    kinds, classes = as_list(kind), as_list(class_)
    n = 0
    places = _owner_places(g.s, owner)
    if places is not None:
        for loc, here in places.items():
            if loc in areas:
                if kinds is None and classes is None:
                    n += len(here)
                    continue
                for u in here:
                    if (kinds is None or u["kind"] in kinds) and (classes is None or uclass(g, u) in classes):
                        n += 1
    if CHECK_MEMO and n != len(_units(ctx, owner, kind, class_, area, where)):
        raise AssertionError(f"count(units(owner: {owner!r}, ...)) {n} is not the length of units(...)")
    return n


counts("units")(_count_units)   # (registered by a call: a decorated function cannot be a C function)


def _map_areas(area: Any, areas: Any) -> Any:
    """The map's areas among `area` (one area or a list of them): a set, or a list of values a set
    cannot hold (compared one by one, as `_in_areas` does)."""
    wanted = as_list(area) or []
    try:
        return {a for a in wanted if a in areas}
    except TypeError:   # an unhashable value in the list: never a map area
        return [a for a in wanted if type(a) is str and a in areas]


def _in_areas(units: list[dict[str, Any]], area: Any) -> list[dict[str, Any]]:
    if area is None:
        return units
    areas = as_list(area) or []
    if len(areas) > 4:
        try:
            areas = set(areas)   # type: ignore[assignment]
        except TypeError:
            pass
    return [u for u in units if u["loc"] in areas]


@implements("pool")
def _pool(ctx: Any, owner: str, kind: Any = None, class_: Any = None) -> list[dict[str, Any]]:
    return filter_units(ctx, _pool_of(ctx.game.s, as_player(ctx, owner)), kind, class_)


@implements("battle_units")
def _battle_units(ctx: Any, owner: str, kind: Any = None, class_: Any = None) -> list[dict[str, Any]]:
    g = ctx.game
    if g.s.battle is None:
        return []
    return filter_units(ctx, battle_queries.participants(g, owner), kind, class_)


@implements("held")
def _held(ctx: Any, owner: str, tag: Any = None) -> list[dict[str, Any]]:
    s = ctx.game.s
    if tag:   # one holding: the index's units there (in the order of all units, as the scan gives)
        return _units_at(s, held_loc(owner, tag))
    prefix = f"held:{owner}:"
    return [u for u in s.units if u["loc"].startswith(prefix)]


@implements("in_play")
def _in_play(ctx: Any, owner: str, kind: Any) -> bool:
    in_play = basics.in_play_kinds(ctx.game, owner)   # (kept in the memo)
    return any(k in in_play for k in as_list(kind) or [])


@implements("awakened_ever")
def _awakened_ever(ctx: Any, owner: str, kind: str) -> bool:
    return kind in ctx.game.s.awakened.get(owner, [])


@implements("cost")
def _cost(ctx: Any, unit: Any) -> int:
    u = as_unit(ctx, unit)
    return unit_cost(ctx.game, u["owner"], utype(ctx.game, u))


@implements("doom_value")
def _doom_value(ctx: Any, unit: Any) -> int:
    return core.doom_value(ctx.game, as_unit(ctx, unit))


@implements("combat")
def _combat(ctx: Any, unit: Any) -> int:
    return combat_of(ctx.game, as_unit(ctx, unit))


@implements("cheapest")
def _cheapest(ctx: Any, units: list[dict[str, Any]]) -> Any:
    best, best_cost = None, None
    for u in units:
        c = unit_cost(ctx.game, u["owner"], utype(ctx.game, u))
        if best_cost is None or c < best_cost:
            best, best_cost = u, c
    return best


@implements("kinds_of")
def _kinds_of(ctx: Any, units: list[dict[str, Any]]) -> list[str]:
    return sorted({u["kind"] for u in units})


# ---- verbs: units ----------------------------------------------------------------------------------------
@implements("place")
def _place(ctx: Any, unit: Any, area: str) -> None:
    u = as_unit(ctx, unit)
    if not is_area(ctx.game, area):
        raise RuleError(f"{ctx.where}: '{area}' is not an area of this map")
    core.relocate(ctx.game, u, area, ctx.ability or "place")


@implements("move_to")
def _move_to(ctx: Any, unit: Any, area: str) -> None:
    _place(ctx, unit, area)


@implements("move_along")
def _move_along(ctx: Any, units: list[Any], area: str) -> None:
    for u in units:
        uu = as_unit(ctx, u)
        core.relocate(ctx.game, uu, area, ctx.ability or "move along")
        ctx.game.s.memory.setdefault("moved_free", []).append(uu["id"])


@implements("kill")
def _kill(ctx: Any, unit: Any) -> Any:
    return Suspend(core.remove_unit_call(ctx.game, as_unit(ctx, unit), "kill", ctx.me))


@implements("eliminate")
def _eliminate(ctx: Any, unit: Any) -> Any:
    return Suspend(core.remove_unit_call(ctx.game, as_unit(ctx, unit), "eliminate", ctx.me))


@implements("replace")
def _replace(ctx: Any, unit: Any, kind: str) -> None:
    g = ctx.game
    u = as_unit(ctx, unit)
    fresh = g.s.pool(u["owner"], kind)
    if not fresh:
        return
    loc = u["loc"]
    core.relocate(g, u, POOL, f"{ctx.ability}: replaced")
    core.relocate(g, fresh[0], loc, f"{ctx.ability}: replacement")


@implements("capture")
def _capture(ctx: Any, unit: Any) -> Any:
    return Suspend(core.remove_unit_call(ctx.game, as_unit(ctx, unit), "capture", ctx.me))


@implements("hold")
def _hold(ctx: Any, unit: Any, tag: str, player: Any = None) -> None:
    who = player if player is not None else ctx.me
    core.relocate(ctx.game, as_unit(ctx, unit), held_loc(as_player(ctx, who), tag), ctx.ability or "hold")


@implements("swap")
def _swap(ctx: Any, a: Any, b: Any) -> None:
    ua, ub = as_unit(ctx, a), as_unit(ctx, b)
    la, lb = ua["loc"], ub["loc"]
    core.relocate(ctx.game, ua, lb, ctx.ability or "swap")
    core.relocate(ctx.game, ub, la, ctx.ability or "swap")
