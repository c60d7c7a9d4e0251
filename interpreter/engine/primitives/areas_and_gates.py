"""Areas and gates: map queries, gate control, tokens; holding, returning, removing and locking gates."""
from __future__ import annotations

from typing import Any

from ...effects.compiler import RuleError
from ...effects.signatures import implements
from ..basics import MEMO_FACTS, PLACE_FACTS, emit, is_area
from ..state import held_loc
from .. import actions, basics


# ---- areas and gates --------------------------------------------------------------------------------
@implements("areas")
def _areas(ctx: Any, with_units_of: Any = None, terrain: Any = None, gate: Any = None, controlled_by: Any = None,
           without_units_of: Any = None, start_of: Any = None, symbol: Any = None, token: Any = None,
           without_token: Any = None, glyph: Any = None) -> list[str]:
    g = ctx.game
    s = g.s
    out = []
    others = (without_units_of, terrain, gate, controlled_by, start_of, symbol, token, without_token, glyph)
    only_units = others.count(None) == len(others)   # no filter but (perhaps) with_units_of
    if only_units and with_units_of is None:   # no filter: the map's areas
        return list(_area_names(g.layout))
    if only_units and isinstance(with_units_of, str):
        memo = g.memo()   # the common query (requirements ask it at every window): kept until units change
        key = ("areas-with", with_units_of)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _areas_with(g, with_units_of)
        return list(found)
    # the areas holding units of a player, in one pass over its units
    with_units = None if with_units_of is None else _occupied(g, with_units_of)
    without_units = None if without_units_of is None else _occupied(g, without_units_of)
    # the same filters, the cheapest and most selective first (each only filters, none fails): a
    # player's start areas from the layout's list, the areas with (or without) a token in one pass
    # over the tokens, a gate's controller only where a gate stands (elsewhere gate_owner is None)
    pairs = _sorted_areas(g.layout) if type(start_of) is not str else _starts(g.layout, start_of)
    tokens = None if token is None else {t["loc"] for t in s.tokens if t["id"] == token}
    no_tokens = None if without_token is None else {t["loc"] for t in s.tokens if t["id"] == without_token}
    gates = s.gates
    for a, area in pairs:
        if start_of is not None and start_of not in area.starts:
            continue
        if symbol is not None and symbol not in area.symbols:
            continue
        if glyph is not None and area.glyph != glyph:
            continue
        if tokens is not None and a not in tokens:
            continue
        if no_tokens is not None and a in no_tokens:
            continue
        if with_units is not None and a not in with_units:
            continue
        if without_units is not None and a in without_units:
            continue
        if terrain is not None and (terrain == "ocean") != area.ocean:
            continue
        if gate is not None and (a in gates) != bool(gate):
            continue
        if controlled_by is not None and (a not in gates or s.gate_owner(a) != controlled_by):
            continue
        out.append(a)
    return out


_SORTED: dict[int, tuple[Any, list[tuple[str, Any]]]] = {}


_STARTS: dict[tuple[int, str], tuple[Any, list[tuple[str, Any]]]] = {}


def _sorted_areas(layout: Any) -> list[tuple[str, Any]]:
    """The layout's (id, area) pairs sorted by id, computed once per layout."""
    entry = _SORTED.get(id(layout))
    if entry is None or entry[0] is not layout:
        entry = _SORTED[id(layout)] = (layout, sorted(layout.areas.items()))
    return entry[1]


_NAMES: dict[int, tuple[Any, tuple[str, ...]]] = {}


def _area_names(layout: Any) -> tuple[str, ...]:
    """`_sorted_areas`' ids alone (the map's areas in order: `areas()`), once per layout."""
    entry = _NAMES.get(id(layout))
    if entry is None or entry[0] is not layout:
        entry = _NAMES[id(layout)] = (layout, tuple([a for a, _ in _sorted_areas(layout)]))
    return entry[1]


def _starts(layout: Any, player: str) -> list[tuple[str, Any]]:
    """`_sorted_areas`' pairs of the areas that are `player`'s start areas, once per layout and player."""
    entry = _STARTS.get((id(layout), player))
    if entry is None or entry[0] is not layout:
        entry = _STARTS[(id(layout), player)] = (layout, [(a, area) for a, area in _sorted_areas(layout)
                                                          if player in area.starts])
    return entry[1]


def _areas_with(g: Any, player: str) -> tuple[str, ...]:
    """The map areas holding units of `player`, sorted."""
    occupied = _occupied(g, player)
    return tuple([a for a, _ in _sorted_areas(g.layout) if a in occupied])


MEMO_FACTS["areas-with"] = _areas_with
PLACE_FACTS.add("areas-with")   # (dropped when a unit moves between areas: basics.memo_after_move)


def _occupied(g: Any, player: Any) -> set[Any]:
    """The map areas holding units of `player`."""
    if isinstance(player, str):
        areas = g.layout.areas
        return {loc for loc in g.s.places_of(player) if loc in areas}
    return {u["loc"] for u in g.s.units if u["owner"] == player}


@implements("adjacent")
def _adjacent(ctx: Any, area: str) -> list[str]:
    return list(basics.adjacent(ctx.game, area))


@implements("is_ocean")
def _is_ocean(ctx: Any, area: Any) -> bool:
    a = ctx.game.layout.areas.get(area)
    return bool(a and a.ocean)


@implements("has_gate")
def _has_gate(ctx: Any, area: str) -> bool:
    return area in ctx.game.s.gates


@implements("gate_controller")
def _gate_controller(ctx: Any, area: str) -> Any:
    return ctx.game.s.gate_owner(area)


@implements("gates")
def _gates(ctx: Any, controlled_by: Any = None, terrain: Any = None) -> list[str]:
    g = ctx.game
    s = g.s
    out = []
    if controlled_by is None:   # (no owner asked: none looked up)
        found = [(loc, None) for loc in s.gates]
    else:
        found = [(loc, s.gate_owner(loc)) for loc in s.gates]
    found += [(loc, owner) for owner in s.players for loc in actions.unit_gates(g, owner)]
    for loc, owner in sorted(found, key=lambda lo: lo[0]):
        if terrain is not None:   # the cheaper test first (both only filter)
            a = g.layout.areas.get(loc)
            if a is None or (terrain == "ocean") != a.ocean:
                continue
        if controlled_by is not None and owner != controlled_by:
            continue
        out.append(loc)
    return out


@implements("home")
def _home(ctx: Any, player: str) -> Any:
    return ctx.game.s.home.get(player)


@implements("tokens")
def _tokens(ctx: Any, token: Any = None, area: Any = None, owner: Any = None) -> list[dict[str, Any]]:
    return [t for t in ctx.game.s.tokens if (token is None or t["id"] == token)
            and (area is None or t["loc"] == area) and (owner is None or t.get("owner") == owner)]


# ---- verbs: gates and tokens ----------------------------------------------------------------------------
@implements("hold_gate")
def _hold_gate(ctx: Any, area: str, tag: str) -> None:
    g = ctx.game
    gate = g.s.gates.pop(area, None)
    if gate is None:
        raise RuleError(f"{ctx.where}: no gate in '{area}'")
    loc = held_loc(ctx.me, tag)
    ctrl = gate.get("controller")
    if ctrl is not None:
        u = g.s.unit(ctrl)
        emit(g, "unit", unit=u["id"], owner=u["owner"], kind=u["kind"], src=u["loc"], dst=loc, why=ctx.ability)
        u["loc"] = loc
        g.state_written()
    g.s.gates[loc] = gate
    emit(g, "gate", loc=area, change="held", to=loc)


@implements("return_gate")
def _return_gate(ctx: Any, tag: str, area: str) -> None:
    g = ctx.game
    if not is_area(g, area):
        raise RuleError(f"{ctx.where}: return_gate needs an area of this map, got {area!r}")
    loc = held_loc(ctx.me, tag)
    gate = g.s.gates.pop(loc, None)
    if gate is None or area in g.s.gates:
        raise RuleError(f"{ctx.where}: cannot return gate '{tag}' to '{area}'")
    ctrl = gate.get("controller")
    if ctrl is not None:
        u = g.s.unit(ctrl)
        emit(g, "unit", unit=u["id"], owner=u["owner"], kind=u["kind"], src=loc, dst=area, why=ctx.ability)
        u["loc"] = area
        g.state_written()
    g.s.gates[area] = gate
    emit(g, "gate", loc=area, change="returned", src=loc)


@implements("remove_gate")
def _remove_gate(ctx: Any, area: str) -> None:
    if ctx.game.s.gates.pop(area, None) is not None:
        emit(ctx.game, "gate", loc=area, change="removed", why=ctx.ability)


@implements("place_token")
def _place_token(ctx: Any, token: str, area: str, move: bool = True) -> None:
    s = ctx.game.s
    mine = [t for t in s.tokens if t["id"] == token and t.get("owner") == ctx.me]
    if mine and move:
        mine[0]["loc"] = area
    else:
        s.tokens.append({"id": token, "loc": area, "owner": ctx.me})
    emit(ctx.game, "token", token=token, loc=area, owner=ctx.me)


@implements("remove_token")
def _remove_token(ctx: Any, token: str, area: str, owner: Any = None) -> None:
    s = ctx.game.s
    who = owner if owner is not None else ctx.me
    for i, t in enumerate(s.tokens):
        if t["id"] == token and t["loc"] == area and t.get("owner") == who:
            del s.tokens[i]
            emit(ctx.game, "token-removed", token=token, loc=area, owner=who, why=ctx.ability or "rules")
            return


@implements("lock_gate")
def _lock_gate(ctx: Any, area: str) -> None:
    g = ctx.game
    gate = g.s.gates.get(area)
    if gate is None or gate.get("locked"):
        return
    if gate.get("controller") is not None:
        emit(g, "gate", loc=area, change="abandoned", unit=gate["controller"], why=ctx.ability)
    gate["controller"] = None
    gate["locked"] = True
    emit(g, "gate", loc=area, change="locked", why=ctx.ability)
