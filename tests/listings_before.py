"""The listings as they were written before session 21 (issue 29) made them plain loops that skip
modifiers none has in play: kept as the reference tests/test_listing_loops.py compares them with,
position by position. Only the listing logic is copied; what it calls is the engine's."""
from __future__ import annotations

from collections import deque
from operator import itemgetter
from typing import Any

from necronomicon.interpreter.effects.compiler import RuleError
from necronomicon.interpreter.engine import basics, core, independents, moves, neutral, phases
from necronomicon.interpreter.engine.actions import ability_actions, requirement_actions
from necronomicon.interpreter.engine.option import Option, action, move_label


def unit_gates(g: Any, p: str | None = None) -> list[str]:
    if not core.modifiers_of(g, "counts-as-gate"):
        return []
    return sorted(u["loc"] for u in g.s.on_map(p) if core.modified(g, "counts-as-gate", False, u, u["owner"]))


def unit_cost(g: Any, owner: str, t: Any) -> int:
    if "cost" in t.unknown:
        raise RuleError(f"{t.name}: its cost is unknown and no interpretation is given")
    fixed = getattr(t.cost, "const", None)
    base = basics.integer(g, fixed if fixed is not None else
                          core.formula(g, t.cost, core.ctx(g, owner), f"cost of {t.name}"), f"cost of {t.name}")
    subject = {"kind": t.id, "class": t.cls, "owner": owner}
    if t.cls == "great-old-one":
        cost = core.modified(g, "awaken-cost", base, subject, owner)
    elif t.cls == "cultist":
        cost = core.modified(g, "recruit-cost", base, subject, owner)
    else:
        cost = core.modified(g, "summon-cost", base, subject, owner)
    return max(0, basics.integer(g, cost, f"cost of {t.name}"))


def combat_of(g: Any, u: dict[str, Any], foe: str | None = None, mods: Any = None) -> int:
    t = basics.utype(g, u)
    if "combat" in t.unknown:
        raise RuleError(f"{t.name}: its combat is unknown and no interpretation is given")
    fixed = getattr(t.combat, "const", None)
    base = basics.integer(g, fixed if fixed is not None else
                          core.formula(g, t.combat, core.ctx(g, u["owner"], self_unit=u, foe=foe),
                                       f"combat of {t.name}"), f"combat of {t.name}")
    return max(0, basics.integer(g, core.modified(g, "combat", base, u, u["owner"], mods), f"combat of {t.name}"))


def main_actions(g: Any, p: str) -> list[Option]:
    s = g.s
    out: list[Option] = []
    power = s.power[p]
    f = basics.faction(g, p)
    my_areas = sorted(s.places_of(p))
    mods = moves.action_mods(g, p)
    for t in f.units.values():
        if t.cls != "cultist" or not s.in_pool(p, t.id):
            continue
        where = my_areas if my_areas else sorted(g.layout.areas)
        cost = unit_cost(g, p, t) if where else 0
        for a in where:
            c = moves.action_cost(g, p, "recruit", cost, a, mods)
            if c <= power:
                out.append(action("recruit", c, t.id, a))
    out.extend(summon_actions(g, p))
    for t in independents.awaken_types(g, p):
        if t.awaken is None or not independents.may_awaken_from_pool(g, p, t.id):
            continue
        ctx = core.ctx(g, p)
        if t.awaken.condition is not None and not t.awaken.condition(ctx):
            continue
        try:
            cost = unit_cost(g, p, t)
        except RuleError:
            continue
        where = core.modified(g, "awaken-areas", list(t.awaken.where(ctx) or []), {"kind": t.id, "owner": p}, p)
        for a in sorted(set(where)):
            c = moves.action_cost(g, p, "awaken", cost, a, mods)
            if c <= power:
                out.append(action("awaken", c, t.id, a))
    for a in my_areas:
        if a in s.gates or not any(basics.utype(g, u).cls == "cultist" for u in s.units_at(a, p)):
            continue
        c = moves.action_cost(g, p, "create-gate",
                              basics.integer(g, core.modified(g, "gate-cost", 3, {"area": a}, p), "gate cost"), a, mods)
        if c <= power:
            out.append(action("create-gate", c, area=a))
    if my_areas and power >= 1:
        out.append(action("move", 0))
    out.extend(battle_actions(g, p, "battle", my_areas))
    for a in my_areas:
        captors = _captors(g, p, a)
        if not captors:
            continue
        for e in s.others(p):
            if capture_targets(g, p, e, a, captors):
                c = moves.action_cost(g, p, "capture", 1, a, mods)
                if c <= power:
                    out.append(action("capture", c, area=a, player=e))
    out.extend(ability_actions(g, p, "action"))
    out.extend(requirement_actions(g, p, False))
    return out


def summon_actions(g: Any, p: str, unlimited: bool = False) -> list[Option]:
    s = g.s
    out: list[Option] = []
    if unlimited and not core.may_modify(g, "unlimited-summon", {"owner": p}):
        return out
    gates = [a for a in s.controlled_gates(p) if basics.is_area(g, a)]
    if core.may_modify(g, "summon-at-gate", {"owner": p}):
        gates = [a for a in s.gates if basics.is_area(g, a) and core.modified(
            g, "summon-at-gate", s.gate_owner(a) == p, {"owner": p, "area": a, "controller": s.gate_owner(a)}, p)]
    gates += [a for a in unit_gates(g, p) if a not in gates]
    if not gates:
        return out
    mods = moves.action_mods(g, p, "summon")
    for t in [*basics.faction(g, p).units.values(), *neutral.held_kinds(g, p)]:
        if t.cls in ("cultist", "great-old-one") or not s.in_pool(p, t.id):
            continue
        kind = basics.kind_type(g, p, t.id)
        if unlimited and not core.modified(g, "unlimited-summon", False,
                                           {"kind": t.id, "class": kind.cls if kind else None, "owner": p}, p):
            continue
        if not core.modified(g, "may-summon", True, {"kind": t.id, "class": t.cls, "owner": p}, p):
            continue
        try:
            cost = unit_cost(g, p, t)
        except RuleError:
            continue
        for a in gates:
            c = moves.action_cost(g, p, "summon", cost, a, mods)
            if c <= s.power[p]:
                out.append(action("summon", c, t.id, a))
    return out


def battle_actions(g: Any, p: str, verb: str, areas: list[str] | None = None) -> list[Option]:
    s = g.s
    out = []
    fought = s.memory.get("battles", [])
    mods = moves.action_mods(g, p, "battle")
    act_mods = core.modifiers_of(g, "may-act")
    combat_mods = core.modifiers_of(g, "combat")
    others = s.others(p)
    for a in areas if areas is not None else sorted(s.places_of(p)):
        if a in fought:
            continue
        foes = [e for e in others if s.count_at(a, e)]
        if not foes:
            continue
        mine = [u for u in s.units_at(a, p) if not act_mods or core.may_act(g, u, "battle", act_mods)]
        for e in foes:
            if any(combat_of(g, u, e, combat_mods) >= 1 for u in mine):
                c = moves.action_cost(g, p, "battle", 1, a, mods)
                if c <= s.power[p]:
                    out.append(action(verb, c, area=a, player=e))
    return out


def unlimited_actions(g: Any, p: str) -> list[Option]:
    s = g.s
    out: list[Option] = []
    ask = core.may_modify(g, "can-control-gate", {"owner": p})
    for a, gate in sorted(s.gates.items()):
        if not basics.is_area(g, a):
            continue
        if gate.get("controller") is None and not gate.get("locked"):
            if any(core.can_control(g, u, ask) for u in s.units_at(a, p)):
                out.append(action("control-gate", 0, area=a))
        elif s.gate_owner(a) == p:
            out.append(action("abandon-gate", 0, area=a))
    if g.ruleset.settings.get("extra-battle", "own-six") == "own-six":
        extra = phases.has_all_spellbooks(g, p)
    else:
        extra = any(phases.has_all_spellbooks(g, q) for q in s.players)
    if extra:
        out.extend(battle_actions(g, p, "extra-battle"))
    out.extend(summon_actions(g, p, unlimited=True))
    if s.elder_signs[p]:
        out.append(action("reveal-elder-signs", 0))
    out.extend(ability_actions(g, p, "unlimited-action"))
    out.extend(requirement_actions(g, p, True))
    return out


def _captors(g: Any, p: str, area: str) -> list[dict[str, Any]]:
    mods = core.modifiers_of(g, "may-act")
    return [u for u in g.s.units_at(area, p) if basics.utype(g, u).cls != "cultist"
            and (not mods or core.may_act(g, u, "capture", mods))]


def capture_targets(g: Any, p: str, victim: str, area: str,
                    captors: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    s = g.s
    if captors is None:
        captors = _captors(g, p, area)
    if not captors:
        return []
    theirs = s.units_at(area, victim)
    their_classes = {basics.utype(g, u).cls for u in theirs}
    best = "great-old-one" if any(basics.utype(g, u).cls == "great-old-one" for u in captors) else "monster"
    if "great-old-one" in their_classes:
        return []
    if best != "great-old-one" and their_classes & {"monster", "terror"}:
        return []
    cultists = [u for u in theirs if basics.utype(g, u).cls == "cultist"]
    if cultists:
        protected = core.modified(g, "capture-protection", False,
                                  {"capturer": best, "player": p, "victim": victim, "area": area}, victim)
        if protected:
            return []
    return cultists


def reachable(g: Any, p: str, u: dict[str, Any], mods: tuple[Any, Any, Any] | None = None) -> list[str]:
    """The areas unit `u` of `p` may move to (`mods`: `move_mods`, when a listing loop has just
    read them)."""
    act_mods, range_mods, through_mods = mods if mods is not None else moves.move_mods(g)
    if act_mods and not core.may_act(g, u, "move", act_mods):
        return []
    rng = 1 if not range_mods else \
        basics.integer(g, core.modified(g, "move-range", 1, u, p, range_mods), "move range")
    start = u["loc"]
    if rng == 1:   # the areas next to it (an enemy in between matters only from range 2)
        return list(moves.neighbours(g.layout).get(start, ()))
    through = bool(core.modified(g, "move-through-enemies", False, u, p, through_mods))
    seen = {start: 0}
    todo = deque([start])
    while todo:
        a = todo.popleft()
        d = seen[a]
        if d >= rng:
            continue
        if a != start and not through and g.s.count_at(a) != g.s.count_at(a, p):
            continue  # cannot pass over an area holding enemy units
        for n in basics.adjacent(g, a):
            if n not in seen:
                seen[n] = d + 1
                todo.append(n)
    return sorted(a for a in seen if a != start)


def move_options(g: Any, p: str, moved: set[int], charged: set[str], within: str | None = None) -> dict[str, int]:
    """The unit moves `p` can still make and afford in this Move (labels), with their costs: 1 Power each,
    plus an area's surcharge once per Move; `within` keeps only units leaving or entering that area."""
    opts: dict[str, int] = {}
    surcharge: dict[str, int] = {}   # an area's extra cost (the same for every unit entering it)
    power = g.s.power[p]
    mods = moves.move_mods(g)
    cost_mods = None   # action_mods(move), read at the first area that needs it
    for u in sorted(g.s.on_map(p), key=itemgetter("id")):
        if u["id"] in moved:
            continue
        for dst in reachable(g, p, u, mods):
            if within is not None and within not in (u["loc"], dst):
                continue
            if dst in charged:
                extra = 0
            else:
                extra = surcharge.get(dst, -1)
                if extra < 0:
                    if cost_mods is None:
                        cost_mods = moves.action_mods(g, p, "move")
                    extra = surcharge[dst] = moves.action_cost(g, p, "move", 0, dst, cost_mods)
            if 1 + extra <= power:
                opts[move_label(u["kind"], u["loc"], dst, u["id"])] = 1 + extra
    return opts
