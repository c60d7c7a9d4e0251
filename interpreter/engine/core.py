"""Engine core: moving and removing units, costs and modifiers, effect contexts, the calls that
open timing windows and spellbook requirement checks (the procedures themselves run as frames:
core_procs.py; which abilities are in play: abilities.py)."""
from __future__ import annotations

from typing import Any

from ..content.model import Ability, Requirement, UnitType
from ..effects.compiler import RuleError
from ..effects.runtime import FormulaDepthError
from ..limits import MAX_FORMULA_DEPTH, MAX_WINDOW_DEPTH
from ..effects.subject_guards import rejects
from . import flow
from . import state as state_module
from .rules_fields import memo_facts, memo_is_current
from .abilities import BATTLE_MODIFIERS, ability_frame, quiet_window, requirements_to_check
from .context import EffectCtx, new_ctx
from .effect_frames import effect_frame
from .flow import Call
from .requirements import requirement
from .state import POOL, _units_of   # (State.units_of: a C call in the compiled core, core.pxd)
from .state_fields import note_moved
from . import abilities
from . import basics
from .basics import PLACE_FACTS, emit, emit_fields, integer, uclass, utype
from . import independents
from .host import RulesContext





def _leave(g: "RulesContext", u: dict[str, Any]) -> None:
    uid = u["id"]
    for loc, gate in g.s.gates.items():
        if gate.get("controller") == uid:
            gate["controller"] = None
            emit_fields(g, "gate", {"loc": loc, "change": "abandoned", "unit": uid})


def relocate(g: "RulesContext", u: dict[str, Any], loc: str, why: str) -> None:
    """Move a unit anywhere (map, pool, holding) with no rules applied; logged."""
    if u["loc"] == loc:
        return
    _leave(g, u)
    src = u["loc"]
    emit_fields(g, "unit", {"unit": u["id"], "owner": u["owner"], "kind": u["kind"], "src": src, "dst": loc,
                            "why": why})
    shift(g, u, loc)
    if loc == POOL:
        independents.release_if_independent(g, u)


def shift(g: "RulesContext", u: dict[str, Any], loc: str) -> None:
    """Put unit `u` at `loc`, nothing else: no rule applied, nothing logged (`relocate` does those
    around it; a bot trying placements on its own copy of the board undoes each by another shift,
    engine/seeking.py). A write (see `memo`); the unit index follows in place, and the memo keeps
    its facts about the kinds in play where the move leaves them as they were."""
    src = u["loc"]
    if src == loc:
        return
    kept = memo_is_current(g) and _kinds_stay(g, u, src, loc)
    u["loc"] = loc
    note_moved(g.s, u, src)   # (s.moved's work: a C call in the compiled core)
    if kept:
        memo_after_move(g)


def memo_after_move(g: "RulesContext") -> None:
    """`Rules.memo_after_move`: the memo, current just before a unit's move that left each
    player's kinds on the map as they were, stays valid for the state after it but for its facts
    about places (PLACE_FACTS), which are dropped."""
    m = g._memo
    assert m is not None
    facts = m[2]
    places = PLACE_FACTS
    dropped = [k for k in facts if type(k) is tuple and k[0] in places]
    for k in dropped:
        del facts[k]
    s = g.s
    g._memo = (s, s.writes) + m[2:]


def _kinds_stay(g: "RulesContext", u: dict[str, Any], src: str, dst: str) -> bool:
    """Whether moving `u` (still at `src`) to `dst` leaves its owner's kinds on the map as they
    are (`in_play_kinds`): from area to area or between two places off the map; onto the map
    when a unit of its kind is there already; off it when another one stays."""
    areas = g.layout.areas
    if (src in areas) == (dst in areas):
        return True
    kind = u["kind"]
    for x in _units_of(g.s, u["owner"]):   # (a loop, not any(): no generator's closure)
        if x is not u and x["kind"] == kind and x["loc"] in areas:
            return True
    return False


# Each returns the Call that runs the procedure; a step of another procedure returns it.
def remove_unit_call(g: "RulesContext", u: dict[str, Any], how: str, cause: str | None, *, replaced: bool = False) -> Call:
    return Call(flow.frame("remove-unit", unit=u["id"], how=how, cause=cause, replaced=replaced))


def use_ability_call(g: "RulesContext", ab: Ability, player: str | None, ctx: EffectCtx, paid: bool = False) -> Call:
    """Use `ab`; its effect runs with a context like `ctx` (rebuilt from its data: me, event, area, g)."""
    unit = ctx.self_unit
    return Call(ability_frame(g, ab, player, ctx.me, ctx.event, ctx.area,
                              unit["id"] if unit is not None else None, paid))


def effect_call(g: "RulesContext", effect: Any, ctx: EffectCtx, label: str | None = None) -> Call:
    """Run a compiled effect program (an ability's, a requirement's, an awakening's) with `ctx`
    (`label`: "KEY (WINDOW)" when it runs an ability, for trigger-loop messages)."""
    return Call(effect_frame(g, effect, ctx, label))


def requirement_effect_call(g: "RulesContext", p: str, key: str) -> Call | None:
    """Run the effect of requirement `key` (a faction's `id` or a loyalty card's `card/id`:
    requirements.py) that `p` has just earned, named `requirement KEY` in messages; None when it
    has no effect (the procedure that earned it then ends)."""
    r = requirement(g, p, key)
    if r is None or r.effect is None:
        return None
    c = ctx(g, p)
    c.ability = f"requirement {key}"
    return effect_call(g, r.effect, c)


def window_call(g: "RulesContext", name: str, event: dict[str, Any] | None, players: list[str] | None = None,
                area: str | None = None) -> Call | None:
    """Open a timing window; None when it would do nothing now (`quiet_window`): the caller's
    next step then runs at once, as after the window returned."""
    if quiet_window(g, name):
        return None
    if len(g.s.flow) < SHALLOW_WINDOWS:   # (Window.start's trigger-loop check cannot fail: its step is done here)
        return Call({"proc": "window", "at": "rules", "window": name, "event": event,   # (a literal: see flow.frame)
                     "players": list(players) if players is not None else None, "area": area, "rule": 0})
    return Call({"proc": "window", "at": "start", "window": name, "event": event,
                 "players": list(players) if players is not None else None, "area": area})


# the flows shorter than this open a window at its step "rules", with what its step "start" would write
# (its frame's "at" and "rule", in that order): far below MAX_WINDOW_DEPTH, whose check is all "start" does
SHALLOW_WINDOWS = MAX_WINDOW_DEPTH - 8


def check_requirements_call(g: "RulesContext", when: str, event: dict[str, Any] | None = None,
                            players: list[str] | None = None) -> Call | None:
    """Check the requirements met at `when`; None when none could be (`requirements_to_check`)."""
    players = list(players or g.s.players)
    if not requirements_to_check(g, when, players):
        return None
    return Call(flow.frame("requirements", when=when, event=event, players=players, i=0, j=0))


def earn_call(g: "RulesContext", p: str, r: Requirement) -> Call:
    return Call(flow.frame("earn", player=p, req=r.id))


def ctx(g: "RulesContext", me: str | None, ability: Ability | None = None, self_unit: dict[str, Any] | None = None,
        event: dict[str, Any] | None = None, subject: Any = None, value: Any = None, area: str | None = None,
        foe: str | None = None) -> EffectCtx:
    """The context an effect or formula of `ability` (None: the rules') runs in for `me`, with a lent
    ability's stand-ins (`lend_unique`). Its parameters are EffectCtx's, named (no `**kw`: the
    compiled core calls it as a C function, core.pxd)."""
    c = new_ctx(g, me, self_unit, event, subject, value, area, ability.name if ability is not None else "", foe)
    if ability is not None and g.s.grants:
        for grant in g.s.grants:
            if grant.get("stand_in") and grant["to"] == me and grant["ability"] == ability.key:
                c.stand_in = dict(grant["stand_in"])
    return c


# the modifier target of a unit's cost, by the unit's class (any other class: SUMMON_COST)
COST_TARGETS = {"great-old-one": "awaken-cost", "cultist": "recruit-cost"}
SUMMON_COST = "summon-cost"


def unit_cost(g: "RulesContext", owner: str, t: UnitType) -> int:
    if "cost" in t.unknown:
        raise RuleError(f"{t.name}: its cost is unknown and no interpretation is given")
    fixed = getattr(t.cost, "const", None)   # a plain number: no context to make
    base = fixed if type(fixed) is int else integer(   # (no name formatted for a plain number)
        g, fixed if fixed is not None else formula(g, t.cost, ctx(g, owner), f"cost of {t.name}"), f"cost of {t.name}")
    target = COST_TARGETS.get(t.cls, SUMMON_COST)
    mods = modifiers_of(g, target)
    if not mods:   # (most of the time: no subject to build, no name to format)
        return base if base >= 0 else 0
    cost = modified(g, target, base, {"kind": t.id, "class": t.cls, "owner": owner}, owner, mods)
    return max(0, integer(g, cost, f"cost of {t.name}"))


def doom_value(g: "RulesContext", u: dict[str, Any]) -> int:
    """Average of every cost the unit can have, rounded up."""
    t = utype(g, u)
    opts = t.cost_options
    if not opts:
        opts = (integer(g, formula(g, t.cost, ctx(g, u["owner"]), f"cost of {t.name}"), f"cost of {t.name}"),)
    return -(-sum(opts) // len(opts))   # rounded up, in integers (a Fraction was most of a bot's unit pick)


def combat_of(g: "RulesContext", u: dict[str, Any], foe: str | None = None, mods: Any = None) -> int:
    """A unit's combat; `foe` names the opponent when no battle is under way (declaring one);
    `mods`: `modifiers_of("combat")`, when the caller has just read it."""
    t = utype(g, u)
    if "combat" in t.unknown:
        raise RuleError(f"{t.name}: its combat is unknown and no interpretation is given")
    fixed = getattr(t.combat, "const", None)   # a plain number: no context to make
    base = fixed if type(fixed) is int else integer(
        g, fixed if fixed is not None else formula(g, t.combat, ctx(g, u["owner"], self_unit=u, foe=foe),
                                                   f"combat of {t.name}"), f"combat of {t.name}")
    if mods is None:
        mods = modifiers_of(g, "combat")
    if not mods:   # (no name to format)
        return base if base >= 0 else 0
    return max(0, integer(g, modified(g, "combat", base, u, u["owner"], mods), f"combat of {t.name}"))


def modified(g: "RulesContext", target: str, value: Any, subject: Any = None, player: str | None = None,
             mods: list[tuple[str | None, Ability, Any]] | None = None) -> Any:
    """Apply every active static modifier of `target`, in seating order, owner by owner
    (`mods`: `modifiers_of(target)`, when the caller has just read it)."""
    if mods is None:
        mods = modifiers_of(g, target)
    if not mods:
        return value
    depth = g.formula_depth
    if depth >= MAX_FORMULA_DEPTH:
        raise FormulaDepthError(f"the modifiers of {target}")
    g.formula_depth = depth + 1
    try:
        return _apply_modifiers(g, target, value, subject, mods)
    finally:
        g.formula_depth = depth


def _apply_modifiers(g: "RulesContext", target: str, value: Any, subject: Any,
                     mods: list[tuple[str | None, Ability, Any]]) -> Any:
    s = g.s
    declined = s.battle.get("declined", ()) if target in BATTLE_MODIFIERS and s.battle is not None else ()
    grants = s.grants
    for owner, ab, m in mods:
        if declined and [owner, ab.key] in declined:
            continue  # declined for this battle: only its battle-changing modifiers are off
        guards = m.guards   # (read once: a record's field is a generic attribute lookup at each read)
        if guards and rejects(guards, subject, owner):
            if state_module.CHECK_MEMO:
                _check_guards(g, owner, ab, m, subject, value)
            continue  # its `when` is false for this subject (effects/subject_guards.py)
        mctx = ctx(g, owner, ability=ab, subject=subject, value=value) if grants else \
            new_ctx(g, owner, None, None, subject, value, None, ab.name, None)   # what ctx() makes without grants
        when = m.when
        try:
            if when is None or when(mctx):
                value = m.value(mctx)
        except FormulaDepthError as exc:
            exc.through(f"{ab.name} (a modifier of {target})")
            raise
    return value


def formula(g: "RulesContext", fn: Any, ctx: EffectCtx, name: str) -> Any:
    """`fn(ctx)`: a unit's combat or cost formula, evaluated inside at most
    limits.MAX_FORMULA_DEPTH other formulas (a formula that reads itself ends in a RuleError)."""
    depth = g.formula_depth
    if depth >= MAX_FORMULA_DEPTH:
        raise FormulaDepthError(name)
    g.formula_depth = depth + 1
    try:
        return fn(ctx)
    except FormulaDepthError as exc:
        exc.through(name)
        raise
    finally:
        g.formula_depth = depth


def may_act(g: "RulesContext", u: dict[str, Any], act: str, mods: Any = None) -> bool:
    """Whether unit `u` may take part in `act` (move, capture or battle) as its owner's unit: the
    `may-act` modifiers (subject `{unit, owner, action}`) answer, true when there are none
    (`mods`: `modifiers_of("may-act")`, when a listing loop has just read it)."""
    if mods is None:
        mods = modifiers_of(g, "may-act")
    if not mods:
        return True
    return bool(modified(g, "may-act", True, {"unit": u, "owner": u["owner"], "action": act}, u["owner"], mods))


def may_modify(g: "RulesContext", target: str, fields: dict[str, Any], mods: Any = None) -> bool:
    """Whether an active modifier of `target` may apply to a subject with these `fields`: False
    when the subject guards of every one reject them, as they then reject every subject that
    has them (effects/subject_guards.py). Checking mode answers True when there is one at all
    (every subject is then asked). `mods`: `modifiers_of(target)`, when the caller has just read
    it (each read asks the memo whether it is still current)."""
    if mods is None:
        mods = modifiers_of(g, target)
    if not mods:
        return False
    if state_module.CHECK_MEMO:
        return True
    for owner, _, m in mods:
        guards = m.guards   # (read once, as in _apply_modifiers)
        if not (guards and rejects(guards, fields, owner)):
            return True
    return False


def _check_guards(g: "RulesContext", owner: str | None, ab: Ability, m: Any, subject: Any, value: Any) -> None:
    """Checking mode: a modifier its guards rejected has a false `when` indeed."""
    if m.when is not None and m.when(ctx(g, owner, ability=ab, subject=subject, value=value)):
        raise AssertionError(f"{ab.key}: its subject guards {m.guards!r} rejected {subject!r}, "
                             "but its condition holds")


def modifiers_of(g: "RulesContext", target: str) -> list[tuple[str | None, Ability, Any]]:
    """(owner, ability, modifier) of every active modifier of `target`, in the order they apply."""
    return modifier_index(g).get(target, ())  # type: ignore[return-value]


def modifier_index(g: "RulesContext") -> dict[str, list[tuple[str | None, Ability, Any]]]:
    """Every active modifier by its target (`modifiers_of`'s table): a listing reads it once and
    asks it per target, so that a target no modifier has in play costs one dict read, no subject."""
    memo = memo_facts(g)
    index = memo.get("modifiers")
    if index is None:
        index = {}
        for owner, ab in abilities.active_abilities_all(g):
            for m in ab.modifiers:
                index.setdefault(m.target, []).append((owner, ab, m))
        memo["modifiers"] = index
    return index  # type: ignore[no-any-return]


def turn_order(g: "RulesContext") -> list[str]:
    active = g.s.step.get("player")
    start = active if active in g.s.players else (g.s.first or g.s.players[0])
    return g.s.order_from(start)


def can_control(g: "RulesContext", u: dict[str, Any], ask_modifiers: bool = True) -> bool:
    """Whether unit `u` may control a Gate: a Cultist, unless a modifier says otherwise
    (`ask_modifiers=False`: the caller found that none may apply to `u`'s owner, `may_modify`)."""
    cultist = uclass(g, u) == "cultist"
    return bool(modified(g, "can-control-gate", cultist, u, u["owner"])) if ask_modifiers else cultist


def remove_spellbook(g: "RulesContext", player: str, book: str, why: str = "") -> None:
    """Off the card: a faction spellbook becomes available to its owner again, a neutral one returns
    to the general supply. Once-limits already used stay used (a turned-over book stays turned over)."""
    if book not in g.s.spellbooks[player]:
        raise RuleError(f"{player} has no spellbook '{book}' on its card")
    g.s.spellbooks[player].remove(book)
    g.s.written(units=False)
    emit(g, "spellbook-removed", player=player, spellbook=book, **({"why": why} if why else {}))
    release_gates(g, why or f"{book} removed")


def release_gates(g: "RulesContext", why: str) -> None:
    """Core rulebook, Gates: only a unit allowed to control a Gate controls it. A controller that
    may no longer (e.g. a spellbook that allowed it left the card) lets the Gate go, as if it had
    left: the Gate is abandoned (any eligible unit there may control it again)."""
    for loc, gate in g.s.gates.items():
        c = gate.get("controller")
        if c is not None and not gate.get("locked") and not can_control(g, g.s.unit(c)):
            gate["controller"] = None
            emit(g, "gate", loc=loc, change="abandoned", unit=c, why=why)
