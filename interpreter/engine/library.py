"""The effect language's primitives. Each is small, declared with its parameters, and generic:
none names a faction, unit, spellbook or area. Verbs and choices are generators (they may ask)."""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ..effects.compiler import RuleError
from ..effects.registry import choice, query, verb
from .state import POOL, held_loc
from .feasible import note_no_option

NONE = None


def _player(ctx: Any, p: Any) -> str:
    if not isinstance(p, str) or p not in ctx.game.s.players:
        raise RuleError(f"{ctx.where}: expected a player, got {p!r}")
    return p


def _unit(ctx: Any, u: Any) -> dict[str, Any]:
    if not isinstance(u, dict) or "kind" not in u or "id" not in u:
        raise RuleError(f"{ctx.where}: expected a unit, got {u!r}")
    return ctx.game.s.unit(u["id"])


def _as_list(v: Any) -> list[Any] | None:
    if v is None:
        return None
    return list(v) if isinstance(v, (list, tuple)) else [v]


def _filter(ctx: Any, units: list[dict[str, Any]], kind: Any, cls: Any) -> list[dict[str, Any]]:
    kinds, classes = _as_list(kind), _as_list(cls)
    g = ctx.game
    return [u for u in units if (kinds is None or u["kind"] in kinds)
            and (classes is None or g.utype(u).cls in classes)]


# ---- numbers and lists -------------------------------------------------------------------------
@query("max", returns="num", variadic=True, values="any")
def _max(ctx: Any, where: str, *values: Any) -> Any:
    """The largest of the numbers given (or of one list)."""
    vals = values[0] if len(values) == 1 and isinstance(values[0], list) else values
    return max(vals) if vals else 0


@query("min", returns="num", variadic=True, values="any")
def _min(ctx: Any, where: str, *values: Any) -> Any:
    """The smallest of the numbers given (or of one list)."""
    vals = values[0] if len(values) == 1 and isinstance(values[0], list) else values
    return min(vals) if vals else 0


@query("ceil", returns="int", x="num")
def _ceil(ctx: Any, x: Any) -> int:
    """Round up to a whole number."""
    return math.ceil(x)


@query("floor", returns="int", x="num")
def _floor(ctx: Any, x: Any) -> int:
    """Round down to a whole number."""
    return math.floor(x)


@query("count", returns="int", items="list")
def _count(ctx: Any, items: Any) -> int:
    """How many items a list has."""
    if not isinstance(items, list):
        raise RuleError(f"{ctx.where}: count() needs a list, got {items!r}")
    return len(items)


@query("first", items="list")
def _first(ctx: Any, items: list[Any]) -> Any:
    """The first item of a list, or none."""
    return items[0] if items else None


@query("distinct", returns="list", items="list")
def _distinct(ctx: Any, items: list[Any]) -> list[Any]:
    """The list without repeats (first occurrence kept)."""
    out: list[Any] = []
    for i in items:
        if i not in out:
            out.append(i)
    return out


# ---- players --------------------------------------------------------------------------------------
@query("power", returns="int", player="player")
def _power(ctx: Any, player: str) -> int:
    """A player's Power."""
    return ctx.game.s.power[_player(ctx, player)]


@query("doom", returns="int", player="player")
def _doom(ctx: Any, player: str) -> int:
    """A player's Doom (revealed elder signs included)."""
    return ctx.game.s.doom[_player(ctx, player)]


@query("elder_sign_count", returns="int", player="player")
def _es_count(ctx: Any, player: str) -> int:
    """How many face-down elder signs a player holds."""
    return len(ctx.game.s.elder_signs[_player(ctx, player)])


@query("spellbook_count", returns="int", player="player")
def _sb_count(ctx: Any, player: str) -> int:
    """How many spellbooks a player has on the card."""
    return len(ctx.game.s.spellbooks[_player(ctx, player)])


@query("has_spellbook", returns="bool", player="player", spellbook="spellbook")
def _has_sb(ctx: Any, player: str, spellbook: str) -> bool:
    """Whether a player holds a spellbook."""
    return spellbook in ctx.game.s.spellbooks[_player(ctx, player)]


@query("first_player", returns="player")
def _first_player(ctx: Any) -> str:
    """The current first player."""
    return ctx.game.s.first


@query("round", returns="int")
def _round(ctx: Any) -> int:
    """The round number (the first round is 1)."""
    return ctx.game.s.round


@query("player_count", returns="int")
def _player_count(ctx: Any) -> int:
    """How many players are in the game."""
    return len(ctx.game.s.players)


@query("enemy_of", returns="player", player="player")
def _enemy_of(ctx: Any, player: str) -> str:
    """The one opponent of a player in a two-player game (or in the current battle)."""
    s = ctx.game.s
    b = s.battle
    if b is not None and player in (b["attacker"], b["defender"]):
        return b["defender"] if player == b["attacker"] else b["attacker"]
    others = s.others(_player(ctx, player))
    if len(others) != 1:
        raise RuleError(f"{ctx.where}: enemy_of() needs a single opponent; there are {len(others)}")
    return others[0]


@query("ritual_cost", returns="int", player="player")
def _ritual_cost(ctx: Any, player: str) -> int:
    """What a Ritual of Annihilation would cost the player now."""
    return ctx.game.ritual_cost(_player(ctx, player))


@query("requirement_met", returns="bool", player="player", requirement="str")
def _req_met(ctx: Any, player: str, requirement: str) -> bool:
    """Whether a player has earned the spellbook of one of its requirements."""
    return requirement in ctx.game.s.requirements[_player(ctx, player)]


@query("surcharge", returns="int")
def _surcharge(ctx: Any) -> int:
    """Where the ruleset's turn-surcharge marker stands."""
    return ctx.game.s.surcharge


# ---- units ----------------------------------------------------------------------------------------
@query("units", returns="units", owner=("any", None), kind=("kinds", None), **{"class": ("class", None)},
       area=("area", None), where=("str", "map"))
def _units(ctx: Any, owner: Any = None, kind: Any = None, area: Any = None, where: str = "map", **kw: Any) -> list[dict[str, Any]]:
    """Units filtered by owner (a player or a list), kind(s), class(es), area; where: map | pool | battle | held | any."""
    g = ctx.game
    s = g.s
    if where == "map":
        base = [u for u in s.units if g.is_area(u["loc"])]
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
    if area is not None:
        areas = _as_list(area) or []
        base = [u for u in base if u["loc"] in areas]
    return _filter(ctx, base, kind, kw.get("class"))


@query("pool", returns="units", owner="player", kind=("kinds", None), **{"class": ("class", None)})
def _pool(ctx: Any, owner: str, kind: Any = None, **kw: Any) -> list[dict[str, Any]]:
    """A player's units in the pool (not in play)."""
    return _filter(ctx, ctx.game.s.pool(_player(ctx, owner)), kind, kw.get("class"))


@query("battle_units", returns="units", owner="player", kind=("kinds", None), **{"class": ("class", None)})
def _battle_units(ctx: Any, owner: str, kind: Any = None, **kw: Any) -> list[dict[str, Any]]:
    """A side's units taking part in the current battle (not exempted)."""
    g = ctx.game
    if g.s.battle is None:
        return []
    return _filter(ctx, g.participants(owner), kind, kw.get("class"))


@query("held", returns="units", owner="player", tag=("str", None))
def _held(ctx: Any, owner: str, tag: Any = None) -> list[dict[str, Any]]:
    """Units a player holds off the map (on its card), optionally under one tag."""
    prefix = held_loc(owner, tag) if tag else f"held:{owner}:"
    return [u for u in ctx.game.s.units if u["loc"] == prefix or (not tag and u["loc"].startswith(prefix))]


@query("in_play", returns="bool", owner="player", kind="kinds")
def _in_play(ctx: Any, owner: str, kind: Any) -> bool:
    """Whether the player has a unit of the kind(s) on the map."""
    kinds = _as_list(kind) or []
    g = ctx.game
    return any(u["owner"] == owner and u["kind"] in kinds and g.is_area(u["loc"]) for u in g.s.units)


@query("awakened_ever", returns="bool", owner="player", kind="kind")
def _awakened_ever(ctx: Any, owner: str, kind: str) -> bool:
    """Whether the player has awakened that Great Old One at least once this game."""
    return kind in ctx.game.s.awakened.get(owner, [])


@query("cost", returns="int", unit="unit")
def _cost(ctx: Any, unit: Any) -> int:
    """What the unit's kind costs its owner now."""
    u = _unit(ctx, unit)
    return ctx.game.unit_cost(u["owner"], ctx.game.utype(u))


@query("doom_value", returns="int", unit="unit")
def _doom_value(ctx: Any, unit: Any) -> int:
    """The average of every cost the unit can have, rounded up (for Doom awarded at average cost)."""
    return ctx.game.doom_value(_unit(ctx, unit))


@query("combat", returns="int", unit="unit")
def _combat(ctx: Any, unit: Any) -> int:
    """The unit's combat now."""
    return ctx.game.combat_of(_unit(ctx, unit))


@query("cheapest", units="units")
def _cheapest(ctx: Any, units: list[dict[str, Any]]) -> Any:
    """The unit of lowest cost in a list (the first of equals), or none."""
    best, best_cost = None, None
    for u in units:
        c = ctx.game.unit_cost(u["owner"], ctx.game.utype(u))
        if best_cost is None or c < best_cost:
            best, best_cost = u, c
    return best


@query("kinds_of", returns="list", units="units")
def _kinds_of(ctx: Any, units: list[dict[str, Any]]) -> list[str]:
    """The distinct kinds in a list of units."""
    return sorted({u["kind"] for u in units})


# ---- areas and gates --------------------------------------------------------------------------------
@query("areas", returns="areas", with_units_of=("player", None), terrain=("str", None), gate=("bool", None),
       controlled_by=("player", None), without_units_of=("player", None), start_of=("player", None),
       symbol=("str", None), token=("token", None), without_token=("token", None), glyph=("str", None))
def _areas(ctx: Any, with_units_of: Any = None, terrain: Any = None, gate: Any = None, controlled_by: Any = None,
           without_units_of: Any = None, start_of: Any = None, symbol: Any = None, token: Any = None,
           without_token: Any = None, glyph: Any = None) -> list[str]:
    """Map areas filtered by units, terrain (ocean | land), gates, start glyphs, map glyph, printed symbols, tokens."""
    g = ctx.game
    s = g.s
    out = []
    for a, area in sorted(g.layout.areas.items()):
        if symbol is not None and symbol not in area.symbols:
            continue
        if glyph is not None and area.glyph != glyph:
            continue
        if token is not None and not any(t["id"] == token and t["loc"] == a for t in s.tokens):
            continue
        if without_token is not None and any(t["id"] == without_token and t["loc"] == a for t in s.tokens):
            continue
        if with_units_of is not None and not s.units_at(a, with_units_of):
            continue
        if without_units_of is not None and s.units_at(a, without_units_of):
            continue
        if terrain is not None and (terrain == "ocean") != area.ocean:
            continue
        if gate is not None and (a in s.gates) != bool(gate):
            continue
        if controlled_by is not None and s.gate_owner(a) != controlled_by:
            continue
        if start_of is not None and start_of not in area.starts:
            continue
        out.append(a)
    return out


@query("adjacent", returns="areas", area="area")
def _adjacent(ctx: Any, area: str) -> list[str]:
    """The areas next to an area."""
    return list(ctx.game.adjacent(area))


@query("is_ocean", returns="bool", area="area")
def _is_ocean(ctx: Any, area: Any) -> bool:
    """Whether an area is ocean (or sea)."""
    a = ctx.game.layout.areas.get(area)
    return bool(a and a.ocean)


@query("has_gate", returns="bool", area="area")
def _has_gate(ctx: Any, area: str) -> bool:
    """Whether there is a gate in the area."""
    return area in ctx.game.s.gates


@query("gate_controller", returns="player", area="area")
def _gate_controller(ctx: Any, area: str) -> Any:
    """Who controls the gate in the area (none when abandoned or absent)."""
    return ctx.game.s.gate_owner(area)


@query("gates", returns="list", controlled_by=("player", None), terrain=("str", None))
def _gates(ctx: Any, controlled_by: Any = None, terrain: Any = None) -> list[str]:
    """Gate locations (held gates included), by controller and terrain."""
    g = ctx.game
    out = []
    for loc in sorted(g.s.gates):
        if controlled_by is not None and g.s.gate_owner(loc) != controlled_by:
            continue
        if terrain is not None:
            a = g.layout.areas.get(loc)
            if a is None or (terrain == "ocean") != a.ocean:
                continue
        out.append(loc)
    return out


@query("home", returns="area", player="player")
def _home(ctx: Any, player: str) -> Any:
    """The area where the player started the game."""
    return ctx.game.s.home.get(player)


@query("tokens", returns="list", token=("token", None), area=("area", None), owner=("player", None))
def _tokens(ctx: Any, token: Any = None, area: Any = None, owner: Any = None) -> list[dict[str, Any]]:
    """Tokens on the map, by type, area and owner."""
    return [t for t in ctx.game.s.tokens if (token is None or t["id"] == token)
            and (area is None or t["loc"] == area) and (owner is None or t.get("owner") == owner)]


# ---- battle -------------------------------------------------------------------------------------------
@query("in_battle", returns="bool", player="player")
def _in_battle(ctx: Any, player: str) -> bool:
    """Whether the player is one of the two sides of the current battle."""
    b = ctx.game.s.battle
    return b is not None and player in (b["attacker"], b["defender"])


@query("assigned", returns="units", owner="player", result="result")
def _assigned(ctx: Any, owner: str, result: str) -> list[dict[str, Any]]:
    """A side's units that have been assigned a result (kill, pain, eliminate) in this battle."""
    g = ctx.game
    b = g.s.battle
    if b is None:
        return []
    ids = [int(k) for k, v in b["results"].items() if result in v]
    return [g.s.unit(i) for i in ids if g.s.unit(i)["owner"] == owner]


@query("avoided_deaths", returns="units")
def _avoided(ctx: Any) -> list[dict[str, Any]]:
    """Units that had a kill assigned in this battle and are still in play."""
    g = ctx.game
    b = g.s.battle
    if b is None:
        return []
    return [g.s.unit(i) for i in b["avoided"] if g.is_area(g.s.unit(i)["loc"])]


@query("rolled", returns="int", player="player", what=("str", "dice"))
def _rolled(ctx: Any, player: str, what: str = "dice") -> int:
    """In a battle: how many dice a side rolled, or its kills / pains."""
    b = ctx.game.s.battle
    if b is None or player not in b["rolled"]:
        return 0
    return int(b["rolled"][player][what])


@query("flag", returns="bool", name="str", player=("player", None))
def _flag(ctx: Any, name: str, player: Any = None) -> bool:
    """Whether a battle flag (set with set_flag) is up."""
    b = ctx.game.s.battle
    return b is not None and [name, player] in b["flags"]


@query("lent", returns="bool", ability="ability", to="player")
def _lent(ctx: Any, ability: str, to: str) -> bool:
    """Whether an ability is currently lent to a player."""
    return any(g["ability"].endswith("/" + ability) and g["to"] == to for g in ctx.game.s.grants)


# ---- verbs: resources ---------------------------------------------------------------------------------
@verb("gain_power", player="player", amount="int")
def _gain_power(ctx: Any, player: str, amount: Any) -> None:
    """The player gains (or, if negative, loses) Power; Power never drops below 0."""
    ctx.game.gain_power(_player(ctx, player), ctx.game.integer(amount, "amount"), ctx.ability)


@verb("lose_power", player="player", amount="int")
def _lose_power(ctx: Any, player: str, amount: Any) -> None:
    """The player loses Power (never below 0)."""
    ctx.game.gain_power(_player(ctx, player), -ctx.game.integer(amount, "amount"), ctx.ability)


@verb("bank_power", player="player")
def _bank_power(ctx: Any, player: str) -> None:
    """Set the player's Power aside to be added at the next Gather Power (it drops to 0 now)."""
    g, p = ctx.game, _player(ctx, player)
    g.s.bank[p] = g.s.bank.get(p, 0) + g.s.power[p]
    g.gain_power(p, -g.s.power[p], f"{ctx.ability}: set aside")


@verb("gain_doom", player="player", amount="int")
def _gain_doom(ctx: Any, player: str, amount: Any) -> None:
    """The player gains Doom."""
    ctx.game.gain_doom(_player(ctx, player), ctx.game.integer(amount, "amount"), ctx.ability)


@verb("elder_sign", player="player", count=("int", 1))
def _elder_sign(ctx: Any, player: str, count: int = 1) -> None:
    """The player draws elder signs face down (1 Doom each instead when the bag is empty)."""
    for _ in range(ctx.game.integer(count, "count")):
        ctx.game.give_elder_sign(_player(ctx, player), ctx.ability)


# ---- verbs: units ----------------------------------------------------------------------------------------
@verb("place", unit="unit", area="area")
def _place(ctx: Any, unit: Any, area: str) -> None:
    """Put a unit (from the pool or a holding) into an area. Not a Summon or a Move."""
    u = _unit(ctx, unit)
    if not ctx.game.is_area(area):
        raise RuleError(f"{ctx.where}: '{area}' is not an area of this map")
    ctx.game.relocate(u, area, ctx.ability or "place")


@verb("move_to", unit="unit", area="area")
def _move_to(ctx: Any, unit: Any, area: str) -> None:
    """Relocate a unit on the map to an area (not the Move action; no Move abilities apply)."""
    _place(ctx, unit, area)


@verb("move_along", units="units", area="area")
def _move_along(ctx: Any, units: list[Any], area: str) -> None:
    """Move units into an area for free during a Move action; they count as having moved."""
    for u in units:
        uu = _unit(ctx, u)
        ctx.game.relocate(uu, area, ctx.ability or "move along")
        ctx.game.s.memory.setdefault("moved_free", []).append(uu["id"])


@verb("kill", unit="unit")
def _kill(ctx: Any, unit: Any) -> Any:
    """Kill a unit: it returns to its owner's pool."""
    yield from ctx.game.remove_unit(_unit(ctx, unit), "kill", ctx.me)


@verb("eliminate", unit="unit")
def _eliminate(ctx: Any, unit: Any) -> Any:
    """Eliminate a unit: it returns to its owner's pool."""
    yield from ctx.game.remove_unit(_unit(ctx, unit), "eliminate", ctx.me)


@verb("replace", unit="unit", kind="kind")
def _replace(ctx: Any, unit: Any, kind: str) -> None:
    """Swap a unit for one of its owner's kind from the pool, in the same place (no Doom: a replacement)."""
    g = ctx.game
    u = _unit(ctx, unit)
    fresh = g.s.pool(u["owner"], kind)
    if not fresh:
        return
    loc = u["loc"]
    g.relocate(u, POOL, f"{ctx.ability}: replaced")
    g.relocate(fresh[0], loc, f"{ctx.ability}: replacement")


@verb("capture", unit="unit")
def _capture(ctx: Any, unit: Any) -> Any:
    """Capture a unit onto your card (returned for 1 Power at Gather Power)."""
    yield from ctx.game.remove_unit(_unit(ctx, unit), "capture", ctx.me)


@verb("hold", unit="unit", tag="str", player=("player", None))
def _hold(ctx: Any, unit: Any, tag: str, player: Any = None) -> None:
    """Lift a unit off the map onto a card (yours, or `player`'s), under a tag."""
    who = player if player is not None else ctx.me
    ctx.game.relocate(_unit(ctx, unit), held_loc(_player(ctx, who), tag), ctx.ability or "hold")


@verb("swap", a="unit", b="unit")
def _swap(ctx: Any, a: Any, b: Any) -> None:
    """Two units exchange places."""
    ua, ub = _unit(ctx, a), _unit(ctx, b)
    la, lb = ua["loc"], ub["loc"]
    ctx.game.relocate(ua, lb, ctx.ability or "swap")
    ctx.game.relocate(ub, la, ctx.ability or "swap")


# ---- verbs: gates and tokens ----------------------------------------------------------------------------
@verb("hold_gate", area="area", tag="str")
def _hold_gate(ctx: Any, area: str, tag: str) -> None:
    """Lift a gate and the unit controlling it off the map onto your card, under a tag."""
    g = ctx.game
    gate = g.s.gates.pop(area, None)
    if gate is None:
        raise RuleError(f"{ctx.where}: no gate in '{area}'")
    loc = held_loc(ctx.me, tag)
    ctrl = gate.get("controller")
    if ctrl is not None:
        u = g.s.unit(ctrl)
        g.emit("unit", unit=u["id"], owner=u["owner"], kind=u["kind"], src=u["loc"], dst=loc, why=ctx.ability)
        u["loc"] = loc
    g.s.gates[loc] = gate
    g.emit("gate", loc=area, change="held", to=loc)


@verb("return_gate", tag="str", area="area")
def _return_gate(ctx: Any, tag: str, area: str) -> None:
    """Put a held gate (and its controlling unit) back into an area that has no gate."""
    g = ctx.game
    if not g.is_area(area):
        raise RuleError(f"{ctx.where}: return_gate needs an area of this map, got {area!r}")
    loc = held_loc(ctx.me, tag)
    gate = g.s.gates.pop(loc, None)
    if gate is None or area in g.s.gates:
        raise RuleError(f"{ctx.where}: cannot return gate '{tag}' to '{area}'")
    ctrl = gate.get("controller")
    if ctrl is not None:
        u = g.s.unit(ctrl)
        g.emit("unit", unit=u["id"], owner=u["owner"], kind=u["kind"], src=loc, dst=area, why=ctx.ability)
        u["loc"] = area
    g.s.gates[area] = gate
    g.emit("gate", loc=area, change="returned", src=loc)


@verb("remove_gate", area="area")
def _remove_gate(ctx: Any, area: str) -> None:
    """Take the gate in an area off the map (its controller stays in the area)."""
    if ctx.game.s.gates.pop(area, None) is not None:
        ctx.game.emit("gate", loc=area, change="removed", why=ctx.ability)


@verb("place_token", token="token", area="area", move=("bool", True))
def _place_token(ctx: Any, token: str, area: str, move: bool = True) -> None:
    """Put your token in an area (with move: true, your token of that type already out moves there)."""
    s = ctx.game.s
    mine = [t for t in s.tokens if t["id"] == token and t.get("owner") == ctx.me]
    if mine and move:
        mine[0]["loc"] = area
    else:
        s.tokens.append({"id": token, "loc": area, "owner": ctx.me})
    ctx.game.emit("token", token=token, loc=area, owner=ctx.me)


@verb("lock_gate", area="area")
def _lock_gate(ctx: Any, area: str) -> None:
    """Free the gate in the area for good: its controller steps off, and no unit may control it again."""
    g = ctx.game
    gate = g.s.gates.get(area)
    if gate is None or gate.get("locked"):
        return
    if gate.get("controller") is not None:
        g.emit("gate", loc=area, change="abandoned", unit=gate["controller"], why=ctx.ability)
    gate["controller"] = None
    gate["locked"] = True
    g.emit("gate", loc=area, change="locked", why=ctx.ability)


# ---- verbs: battle ---------------------------------------------------------------------------------------
@verb("exempt", unit="unit")
def _exempt(ctx: Any, unit: Any) -> None:
    """Take a unit out of the current battle (it stays in the area; the effect lasts the battle)."""
    b = ctx.game.s.battle
    if b is not None:
        b["exempt"].append(_unit(ctx, unit)["id"])
        ctx.game.emit("exempt", unit=unit["id"])


@verb("add_results", against="player", result="result", count=("int", 1), **{"class": ("class", None)})
def _add_results(ctx: Any, against: str, result: str, count: int = 1, **kw: Any) -> None:
    """Add battle results to be assigned to a side's units (eliminate may be limited to classes)."""
    b = ctx.game.s.battle
    if b is None or against not in b["pending"]:
        return
    item: dict[str, Any] = {"result": result, "by": ctx.me}
    if kw.get("class") is not None:
        item["classes"] = _as_list(kw["class"])
    b["pending"][against] += [dict(item) for _ in range(max(0, int(count)))]
    ctx.game.emit("results-added", against=against, result=result, count=count, by=ctx.me)


@verb("convert_results", against="player", src="result", dst="result")
def _convert(ctx: Any, against: str, src: str, dst: str) -> None:
    """Results of one type not yet assigned against a side become another type."""
    b = ctx.game.s.battle
    if b is None:
        return
    for item in b["pending"].get(against, []):
        if item["result"] == src:
            item["result"] = dst


@verb("cancel_result", unit="unit")
def _cancel(ctx: Any, unit: Any) -> None:
    """Remove the last result assigned to a unit (it still counts against the unit's capacity)."""
    b = ctx.game.s.battle
    u = _unit(ctx, unit)
    res = b["results"].get(str(u["id"]), []) if b else []
    if res:
        gone = res.pop()
        if gone == "kill" and u["id"] not in b["avoided"]:
            b["avoided"].append(u["id"])
        ctx.game.emit("result-cancelled", unit=u["id"], kind=u["kind"], result=gone)


@verb("set_flag", name="str", player=("player", None))
def _set_flag(ctx: Any, name: str, player: Any = None) -> None:
    """Raise a flag that lasts until the end of the current battle."""
    b = ctx.game.s.battle
    if b is not None:
        b["flags"].append([name, player])


# ---- verbs: turn structure -------------------------------------------------------------------------------
@verb("extra_action", excluding=("abilities", ()))
def _extra_action(ctx: Any, excluding: Any = ()) -> None:
    """Immediately after, the player may take a second, different action (none of `excluding`).

    Only the turn's first action grants one: a second action never grants a third."""
    ctx.game.s.memory["extra_action"] = [f"ability {a}" for a in excluding]


@verb("action_in", player="player", area="area")
def _action_in(ctx: Any, player: str, area: str) -> Any:
    """The player may take one action now, limited to the area (paid as usual), or decline."""
    g = ctx.game
    p = _player(ctx, player)
    opts = {}
    for label, c in g.main_actions(p):
        words = label.split()
        if words[0] == "move" or area in words:
            opts[label] = c
    if not opts:
        return
    ans = yield from g.ask(p, "action", list(opts) + ["decline"], f"{ctx.ability}: take an action in {area}?")
    if ans == "decline":
        return
    if ans == "move":
        yield from _move_from(g, p, area)
        return
    yield from g.perform(p, ans, opts[ans])


def _move_from(g: Any, p: str, area: str) -> Any:
    units = [u for u in g.s.units_at(area, p)]
    for u in units:
        if g.s.power[p] < 1:
            break
        dests = g.reachable(p, u)
        ans = yield from g.ask(p, "area", dests + ["stay"], f"move {g.unit_label(u)} out of {area}?")
        if ans != "stay":
            g.gain_power(p, -1, "move")
            g.relocate(u, ans, "move")


@verb("lend_ability", ability="ability", owner="player", to="player", until=("str", "end-of-doom-phase"))
def _lend(ctx: Any, ability: str, owner: str, to: str, until: str = "end-of-doom-phase") -> None:
    """Lend one of `owner`'s abilities to `to` until the end of the next Doom Phase."""
    g = ctx.game
    key = f"{owner}/{ability}"
    if g.ability_by_key(key) is None:
        raise RuleError(f"{ctx.where}: '{owner}' has no ability '{ability}'")
    g.s.grants.append({"ability": key, "to": to, "until": until, "round": g.s.round})
    g.emit("lend", ability=key, to=to, until=until)


@verb("lend_unique", owner="player", to="player", until=("str", "end-of-doom-phase"))
def _lend_unique(ctx: Any, owner: str, to: str, until: str = "end-of-doom-phase") -> None:
    """Lend `owner`'s unique faction abilities to `to` until the end of the next Doom Phase."""
    g = ctx.game
    for ab in g.faction(_player(ctx, owner)).abilities:
        g.s.grants.append({"ability": ab.key, "to": to, "until": until, "round": g.s.round})
        g.emit("lend", ability=ab.key, to=to, until=until)


# ---- choices -----------------------------------------------------------------------------------------------
@choice("choose_unit", returns="unit", player="player", units="units", prompt=("str", "choose a unit"))
def _choose_unit(ctx: Any, player: str, units: list[Any], prompt: str = "choose a unit") -> Any:
    """The player picks one of the units (none if the list is empty)."""
    if not units:
        note_no_option(ctx.game, ctx.where)
        return None
    ans = yield from ctx.game.ask(_player(ctx, player), "unit", [ctx.game.unit_label(u) for u in units],
                                  f"{ctx.ability}: {prompt}")
    return ctx.game.s.unit(int(ans.rsplit("#", 1)[1]))


@choice("choose_units", returns="units", player="player", units="units", most=("int", None),
        least=("int", None), prompt=("str", "choose units"))
def _choose_units(ctx: Any, player: str, units: list[Any], most: Any = None, prompt: str = "choose units",
                  least: Any = None) -> Any:
    """The player picks at least `least` (as many as there are) and up to `most` of the units, one at a time."""
    left = list(units)
    picked: list[Any] = []
    limit = len(left) if most is None else min(len(left), ctx.game.integer(most, "most"))
    need = 0 if least is None else min(limit, ctx.game.integer(least, "least"))
    while left and len(picked) < limit:
        done = ["done"] if len(picked) >= need else []
        ans = yield from ctx.game.ask(_player(ctx, player), "unit", [ctx.game.unit_label(u) for u in left] + done,
                                      f"{ctx.ability}: {prompt}")
        if ans == "done":
            break
        u = ctx.game.s.unit(int(ans.rsplit("#", 1)[1]))
        picked.append(u)
        left = [x for x in left if x["id"] != u["id"]]
    return picked


@choice("choose_area", returns="area", player="player", areas="areas", prompt=("str", "choose an area"))
def _choose_area(ctx: Any, player: str, areas: list[Any], prompt: str = "choose an area") -> Any:
    """The player picks one of the areas (none if the list is empty)."""
    if not areas:
        note_no_option(ctx.game, ctx.where)
        return None
    return (yield from ctx.game.ask(_player(ctx, player), "area", list(areas), f"{ctx.ability}: {prompt}"))


@choice("choose_player", returns="player", player="player", players="players", prompt=("str", "choose a player"))
def _choose_player(ctx: Any, player: str, players: list[Any], prompt: str = "choose a player") -> Any:
    """The player picks one of the players (none if the list is empty)."""
    if not players:
        note_no_option(ctx.game, ctx.where)
        return None
    return (yield from ctx.game.ask(_player(ctx, player), "player", list(players), f"{ctx.ability}: {prompt}"))


@choice("roll_die", returns="int")
def _roll_die(ctx: Any) -> Any:
    """Roll one six-sided die (from the game's seeded generator)."""
    return ctx.game.roll(1, ctx.me or "rules", ctx.ability)[0]
    yield  # pragma: no cover


__all__ = ["Fraction"]
from . import more  # noqa: E402,F401  (registers the primitives in engine/more/)
