"""The common actions (Recruit, Summon, Awaken, Create Gate, Move, Battle, Capture, gates) and
unique/spellbook-requirement actions: which are legal now, what they cost, and doing them."""
from __future__ import annotations

from marshal import dumps as marshal_dumps
from typing import Any

from ..effects.compiler import RuleError
from . import neutral
from .flow import Call, frame
# the unit queries as the functions they are (State's methods are these; the compiled core
# calls them as C functions, actions.pxd, instead of looking a method up on the state)
from .state import _controlled_gates, _count_at, _gate_owner, _in_pool, _on_map, _places_of, _units_at
from .option import Option, action
from . import basics
from .basics import integer, is_area, uclass
from . import core
from .core import can_control, combat_of, may_modify, modifier_index, unit_cost
from . import independents
from . import moves
from .moves import action_cost
from . import phases
from .phases import has_all_spellbooks
# the unique and requirement actions, listed in their own module (named here too: callers and
# benchmarks/listing_reuse.py read them from this module)
from .unique_actions import ability_actions, requirement_actions
from .host import RulesContext


def unit_gates(g: "RulesContext", p: str | None = None) -> list[str]:
    """The areas of the units (of `p`, or of anyone) that an ongoing ability makes count as a
    Gate their owner controls (modifier `counts-as-gate`): one entry per unit, beside any real
    Gate in the same area. They give Power, Doom and a place to Summon, and `gates()` lists them."""
    if "counts-as-gate" not in g.tables.modifier_targets[g.ruleset.id]:
        return []   # no ability of the content has one (a content fact: no memo asked)
    mods = core.modifiers_of(g, "counts-as-gate")
    if not mods or (p is not None and not may_modify(g, "counts-as-gate", {"owner": p}, mods)):
        return []
    out = []   # (plain loops throughout this module: a generator expression or a closure makes the
    for u in _on_map(g.s, p):   # compiled function allocate a scope and a generator at every call)
        if core.modified(g, "counts-as-gate", False, u, u["owner"], mods):
            out.append(u["loc"])
    out.sort()
    return out


_NO_UNIT_GATES = marshal_dumps([])


def unit_gates_bytes(g: "RulesContext") -> bytes:
    """`unit_gates(g)` of every player as marshalled bytes (a requirement check's key part,
    held_conditions.py); the same bytes, made once, when there are none (`unit_gates` answers
    that from the content fact when the content has no counts-as-gate modifier)."""
    gates = unit_gates(g)
    return marshal_dumps(gates) if gates else _NO_UNIT_GATES


def gate_count(g: "RulesContext", p: str) -> int:
    """How many Gates `p` controls, the units that count as Gates included (`unit_gates`)."""
    return len(_controlled_gates(g.s, p)) + len(unit_gates(g, p))


def main_actions(g: "RulesContext", p: str, within: str | None = None) -> list[Option]:
    """Every single (non-unlimited) action `p` can take and afford now, with its cost;
    `within` keeps only the actions in that area (see `in_area`)."""
    if within is not None:
        return [o for o in main_actions(g, p) if in_area(g, p, o, within)]
    s = g.s
    out: list[Option] = []
    power = s.power[p]
    f = basics.faction(g, p)
    my_areas = sorted(_places_of(s, p))
    mods = moves.action_mods(g, p)   # (empty: every cost below is its base, no area asked)
    index = modifier_index(g)   # a target none has in play is skipped: no subject built
    # Recruit
    classes = g.unit_classes[p]   # (the faction's kinds' classes: no read of each type's record)
    for kind, t in f.units.items():
        if classes[kind] != "cultist" or not _in_pool(s, p, t.id):
            continue
        where = my_areas if my_areas else sorted(g.layout.areas)
        cost = unit_cost(g, p, t) if where else 0   # the same in every area
        for a in where:
            c = action_cost(g, p, "recruit", cost, a, mods) if mods else cost
            if c <= power:
                out.append(action("recruit", c, t.id, a))
    # Summon (a Common Action even when an ability also makes it an Unlimited one)
    out.extend(summon_actions(g, p))
    # Awaken (the faction's Great Old Ones and the Independents nobody controls)
    # (with no loyalty card in play, `independents.awaken_types` is the faction's own: no call, no list)
    for t in independents.awaken_types(g, p) if s.loyalty else f.goos:
        if t.awaken is None or not (_in_pool(s, p, t.id) or independents.may_awaken_from_pool(g, p, t.id)):
            continue
        try:
            cost = unit_cost(g, p, t)
        except RuleError:
            continue
        if not mods and cost > power:
            continue   # (every area's cost is this one: neither its condition nor its areas asked)
        ctx = core.ctx(g, p)
        if t.awaken.condition is not None and not t.awaken.condition(ctx):
            continue
        where = list(t.awaken.where(ctx) or [])
        if "awaken-areas" in index:
            where = core.modified(g, "awaken-areas", where, {"kind": t.id, "owner": p}, p, index["awaken-areas"])
        for a in sorted(set(where)):
            c = action_cost(g, p, "awaken", cost, a, mods) if mods else cost
            if c <= power:
                out.append(action("awaken", c, t.id, a))
    # Create Gate
    gate_mods = index.get("gate-cost")
    for a in my_areas:
        if a in s.gates or not _has_class(g, _units_at(s, a, p), "cultist"):
            continue
        c = 3 if not gate_mods else \
            integer(g, core.modified(g, "gate-cost", 3, {"area": a}, p, gate_mods), "gate cost")
        if mods or c < 0:
            c = action_cost(g, p, "create-gate", c, a, mods)
        if c <= power:
            out.append(action("create-gate", c, None, a))   # (positional: see option.action)
    # Move
    if my_areas and power >= 1:
        out.append(action("move", 0))
    # Battle (a Common Action whether or not Battle is an Unlimited one too: unlimited_actions)
    out.extend(battle_actions(g, p, "battle", my_areas))
    # Capture
    act_mods = index.get("may-act", ())
    if act_mods and not may_modify(g, "may-act", {"owner": p, "action": "capture"}, act_mods):
        act_mods = ()   # (asked once for all of p's units: none applies to one of them)
    others = [q for q in s.players if q != p]   # (s.others(p) without a method call)
    for a in my_areas:
        victims = [e for e in others if _count_at(s, a, e)]   # (none there: no capture, no captor asked)
        captors = _captors(g, p, a, act_mods) if victims else None
        if not captors:
            continue
        for e in victims:
            if capture_targets(g, p, e, a, captors):
                c = action_cost(g, p, "capture", 1, a, mods) if mods else 1
                if c <= power:
                    out.append(action("capture", c, None, a, e))
    # Unique actions
    out.extend(ability_actions(g, p, "action"))
    # Spellbook-requirement actions
    out.extend(requirement_actions(g, p, False))
    return out


def summon_actions(g: "RulesContext", p: str, unlimited: bool = False) -> list[Option]:
    """Every Summon `p` can afford now; `unlimited`: only of the kinds an
    ability lets it summon as an Unlimited Action."""
    s = g.s
    out: list[Option] = []
    index = modifier_index(g)   # (read once: each read asks the memo whether it is current)
    if unlimited:   # (a target with no modifier in play: no subject made)
        mods = index.get("unlimited-summon")
        if not mods or not may_modify(g, "unlimited-summon", {"owner": p}, mods):
            return out   # no ability makes a Summon of p's unlimited now
    areas = g.layout.areas   # (is_area, read once)
    gates = [a for a in _controlled_gates(s, p) if a in areas]
    mods = index.get("summon-at-gate")
    if mods and may_modify(g, "summon-at-gate", {"owner": p}, mods):   # other Gates open to p
        gates = [a for a in s.gates if is_area(g, a) and core.modified(g, "summon-at-gate", _gate_owner(s, a) == p,
                                                                              {"owner": p, "area": a,
                                                                               "controller": _gate_owner(s, a)}, p)]
    gates += [a for a in unit_gates(g, p) if a not in gates]
    if not gates:
        return out
    mods = moves.action_mods(g, p, "summon")
    may_mods = index.get("may-summon", ())
    power = s.power[p]
    for t in [*basics.faction(g, p).units.values(), *neutral.held_kinds(g, p)]:
        if t.cls in ("cultist", "great-old-one") or not _in_pool(s, p, t.id):
            continue
        if unlimited and not unlimited_summon(g, p, t.id):   # (both only ask modifiers: the rarer first)
            continue
        if may_mods and not may_summon(g, p, t):
            continue
        try:
            cost = unit_cost(g, p, t)
        except RuleError:
            continue
        for a in gates:
            c = action_cost(g, p, "summon", cost, a, mods) if mods else cost
            if c <= power:
                out.append(action("summon", c, t.id, a))
    return out


def may_summon(g: "RulesContext", p: str, t: Any) -> bool:
    """Whether the Summon action may bring this kind now (an ongoing ability may forbid it; placing
    a unit by other means is not summoning)."""
    return bool(core.modified(g, "may-summon", True, {"kind": t.id, "class": t.cls, "owner": p}, p))


def unlimited_summon(g: "RulesContext", p: str, kind: str) -> bool:
    t = basics.kind_type(g, p, kind)
    return bool(core.modified(g, "unlimited-summon", False, {"kind": kind, "class": t.cls if t else None, "owner": p}, p))


def extra_battle_allowed(g: "RulesContext", p: str) -> bool:
    """Whether Battle is an Unlimited Action for `p` now: with its own six spellbooks, or
    (ruleset `extra-battle` other than own-six) once anyone has six."""
    if g.ruleset.settings.get("extra-battle", "own-six") == "own-six":
        return has_all_spellbooks(g, p)
    for q in g.s.players:
        if has_all_spellbooks(g, q):
            return True
    return False


def as_common_action(option: Option) -> Option | None:
    """The Common Action an Unlimited one may still turn out to have been: an extra battle is
    the Battle in its area (core rulebook, Unlimited Battle; Duel rulebook, Extra Battle: "you
    can first perform a Battle, and then decide whether it was Common or Unlimited")."""
    return option._replace(verb="battle") if option.verb == "extra-battle" else None


def battle_actions(g: "RulesContext", p: str, verb: str, areas: list[str] | None = None) -> list[Option]:
    """The battles `p` may declare (`verb`: battle or extra-battle); `areas`: the areas where
    `p` has units, in order, when the caller has just found them."""
    s = g.s
    out = []
    fought = s.memory.get("battles", [])
    others = [q for q in s.players if q != p]   # (s.others(p) without a method call)
    ready = False   # the modifiers below: read at the first area with a foe (none: none read)
    mods: Any = ()
    act_mods: Any = ()
    combat_mods: Any = ()
    for a in areas if areas is not None else sorted(_places_of(s, p)):
        if a in fought:
            continue
        foes = [e for e in others if _count_at(s, a, e)]
        if not foes:
            continue
        if not ready:
            ready = True
            mods = moves.action_mods(g, p, "battle")
            index = modifier_index(g)   # (read once: each read asks the memo whether it is current)
            act_mods = index.get("may-act", ())
            if act_mods and not may_modify(g, "may-act", {"owner": p, "action": "battle"}, act_mods):
                act_mods = ()   # (asked once for all of p's units: none applies to one of them)
            combat_mods = index.get("combat", ())
            if combat_mods and not may_modify(g, "combat", {"owner": p}, combat_mods):
                combat_mods = ()
        mine = [u for u in _units_at(s, a, p) if not act_mods or core.may_act(g, u, "battle", act_mods)]
        for e in foes:
            if _some_combat(g, mine, e, combat_mods):
                c = action_cost(g, p, "battle", 1, a, mods) if mods else 1
                if c <= s.power[p]:
                    out.append(action(verb, c, None, a, e))
    return out


def _some_combat(g: "RulesContext", units: list[dict[str, Any]], foe: str, mods: Any) -> bool:
    """Whether the units' combat against `foe` adds up to at least 1 (no unit's combat is
    negative, so the first unit with some decides; `mods`: `modifiers_of("combat")`)."""
    for u in units:
        if combat_of(g, u, foe, mods) >= 1:
            return True
    return False


def _has_class(g: "RulesContext", units: list[dict[str, Any]], cls: str) -> bool:
    """Whether one of `units` is of unit class `cls` (cultist, monster, ...)."""
    for u in units:
        if uclass(g, u) == cls:
            return True
    return False


def unlimited_actions(g: "RulesContext", p: str) -> list[Option]:
    """Every Unlimited Action `p` can take and afford now, with its cost."""
    s = g.s
    out: list[Option] = []
    ask = None   # (whether a can-control-gate modifier may apply: asked at the first free Gate with p's units)
    areas = g.layout.areas   # (is_area, read once)
    found = {}   # area -> control-gate or abandon-gate, listed by area (only these areas sorted)
    for a, gate in s.gates.items():
        if a not in areas:
            continue
        if gate.get("controller") is None:
            if gate.get("locked"):
                continue
            for u in _units_at(s, a, p):
                ask = may_modify(g, "can-control-gate", {"owner": p}) if ask is None else ask
                if can_control(g, u, ask):
                    found[a] = "control-gate"
                    break
        elif _gate_owner(s, a) == p:
            found[a] = "abandon-gate"
    if found:
        for a in sorted(found):
            out.append(action(found[a], 0, None, a))
    if extra_battle_allowed(g, p):
        out.extend(battle_actions(g, p, "extra-battle"))
    out.extend(summon_actions(g, p, unlimited=True))
    if s.elder_signs[p]:
        out.append(action("reveal-elder-signs", 0))
    out.extend(ability_actions(g, p, "unlimited-action"))
    if g.tables.action_requirements[p][1]:   # (a content fact: p has Unlimited requirement actions)
        out.extend(requirement_actions(g, p, True))
    return out


def in_area(g: "RulesContext", p: str, action: Option, area: str) -> bool:
    """Whether an action is "in" an area (a spellbook's "take any action in that zone"): it is
    placed, created, captured or awakened there, a unique action that ends there, or a Move
    with a unit leaving or entering it. A battle is not (one battle per area: one is already
    declared there), nor an action that names no area."""
    verb = action.verb
    if verb in ("recruit", "summon", "awaken", "create-gate", "capture", "ability"):
        return action.area == area
    if verb == "move":
        return bool(moves.move_options(g, p, set(), set(), area))
    return False


def take_action_call(g: "RulesContext", p: str, label: str, cost: int, within: str | None = None) -> Call:
    """Take an action chosen from the lists above, answered as `label` (the frame keeps the
    label, as saves do): the one path of every action (perform.py)."""
    return Call({"proc": "take-action", "at": "start", "player": p, "label": label, "cost": cost,   # (a literal: see flow.frame)
                 "within": within})


def action_in_call(g: "RulesContext", p: str, area: str, why: str) -> Call:
    """Outside its turn, `p` may take one action in `area`, or decline (perform.py)."""
    return Call(frame("action-in", player=p, area=area, why=why))


def _captors(g: "RulesContext", p: str, area: str, mods: Any = None) -> list[dict[str, Any]]:
    """`p`'s units in `area` that may capture (a Cultist may not; `mods`: `modifiers_of("may-act")`,
    when the caller has just read it)."""
    if mods is None:
        mods = core.modifiers_of(g, "may-act")
    return [u for u in _units_at(g.s, area, p) if uclass(g, u) != "cultist"
            and (not mods or core.may_act(g, u, "capture", mods))]


def capture_targets(g: "RulesContext", p: str, victim: str, area: str,
                    captors: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """`victim`'s units in `area` that `p` may capture now (`captors`: `_captors(p, area)`,
    when the caller has just found them)."""
    s = g.s
    if captors is None:
        captors = _captors(g, p, area)
    if not captors:
        return []
    cultists = []
    guarded = False   # a Monster or Terror of theirs is there
    for u in _units_at(s, area, victim):
        cls = uclass(g, u)
        if cls == "cultist":
            cultists.append(u)
        elif cls == "great-old-one":
            return []
        elif cls == "monster" or cls == "terror":
            guarded = True
    best = "great-old-one" if _has_class(g, captors, "great-old-one") else "monster"
    if guarded and best != "great-old-one":
        return []
    if cultists:
        protected = core.modified(g, "capture-protection", False,
                                  {"capturer": best, "player": p, "victim": victim, "area": area}, victim)
        if protected:
            return []
    return cultists
