"""The unique actions (of an ability's action window) and the spellbook-requirement actions of the
listings (actions.py): which are legal now, and what they cost."""
from __future__ import annotations

from typing import Any

from .feasible import all_parts_possible, at_one_position, may_lack_a_part, removals_are_quiet
from . import state as state_module
from .option import Option, action
from . import abilities
from .abilities import ability_cost, self_unit_for, window_abilities
from .basics import integer
from . import core
from . import moves
from .moves import action_cost
from .host import RulesContext


def requirement_actions(g: "RulesContext", p: str, unlimited: bool) -> list[Option]:
    """The spellbook-requirement actions `p` may take now (`unlimited`: the Unlimited ones), with costs."""
    if g._dry_run_memo is None:   # (no wrapper: see feasible.at_one_position)
        return _requirement_actions(g, p, unlimited)
    return at_one_position(_requirement_actions, g, p, unlimited)  # type: ignore[no-any-return]


def _requirement_actions(g: "RulesContext", p: str, unlimited: bool) -> list[Option]:
    out: list[Option] = []
    plan = _plan(g, p, unlimited)   # (a content fact)
    if not plan:
        return out
    done = g.s.requirements[p]
    costs = {}
    for r, rid, condition, effect, c, fn, _ in plan:
        if rid in done:
            continue
        ctx = None   # made only for a condition or a cost that is not a plain number
        if condition is not None:
            ctx = core.ctx(g, p)
            if not condition(ctx):
                continue
        if effect is not None and not all_parts_possible(g, r, p):
            continue
        if c is None:
            c = integer(g, fn(ctx if ctx is not None else core.ctx(g, p)), "requirement cost")
        costs[rid] = c
    mods = moves.action_mods(g, p, "requirement") if costs else ()
    power = g.s.power[p]
    modified: dict[int, int] = {}   # base -> modified cost (the same ask for the same base here)
    for rid, c in costs.items():
        c2 = _modified(g, p, c, mods, modified) if mods or c < 0 else c   # (unmodified: its base)
        if c2 <= power:
            out.append(action("requirement", c2, None, None, None, rid))
    if len(costs) < 2:
        return out   # (no two met together)
    for r, rid, condition, effect, c, fn, together in plan:
        if rid not in costs:
            continue
        for other in together:
            if rid < other and other in costs:
                c2 = costs[rid] + costs[other]
                if mods or c2 < 0:
                    c2 = _modified(g, p, c2, mods, modified)
                if c2 <= power:
                    out.append(action("requirement", c2, None, None, None, rid, other))
    return out


def _modified(g: "RulesContext", p: str, c: int, mods: Any, modified: dict[int, int]) -> int:
    """`action_cost` of a requirement action of base cost `c`, asked once per base in a listing."""
    c2 = modified.get(c)
    if c2 is None:
        c2 = modified[c] = action_cost(g, p, "requirement", c, None, mods)
    return c2


# the requirement actions' plans, of the content tables `_KEPT[0]` (a content fact, kept beside
# them), by player: (the plan of its requirements met by an action, of its Unlimited ones); a plan
# holds per requirement (it, its id, action condition, action effect, plain cost or None
# (closures.constant: no context to make), cost function, together), its fields read once
_KEPT: list[Any] = [None, {}]


def _plan(g: "RulesContext", p: str, unlimited: bool) -> tuple[tuple[Any, ...], ...]:
    """The plan of `p`'s requirement actions (`_KEPT`; checked against a fresh one in checking mode)."""
    tables = g.tables
    if _KEPT[0] is not tables:
        _KEPT[0] = tables
        _KEPT[1] = {}
    by_player = _KEPT[1]
    plans = by_player.get(p)
    if plans is None:
        plans = by_player[p] = _plans_of(tables, p)
    elif state_module.CHECK_MEMO and plans != _plans_of(tables, p):
        raise AssertionError(f"stale requirement-action plans kept for {p}")
    return plans[1] if unlimited else plans[0]  # type: ignore[no-any-return]


def _plans_of(tables: Any, p: str) -> tuple[Any, ...]:
    both = tables.action_requirements[p]
    return (_plan_of(both[0]), _plan_of(both[1]))


def _plan_of(reqs: tuple[Any, ...]) -> tuple[tuple[Any, ...], ...]:
    out = []
    for r in reqs:
        fn = r.action_cost
        c = 0 if fn is None else getattr(fn, "const", None)
        out.append((r, r.id, r.action_condition, r.action_effect, c if type(c) is int else None, fn, r.together))
    return tuple(out)


def ability_actions(g: "RulesContext", p: str, window: str) -> list[Option]:
    """The unique actions of a window: one per ability, or, for an ability with `where:`, one
    per area where it may end (its cost modified for that area, e.g. by a surcharge there)."""
    if g._dry_run_memo is None:   # (no wrapper: see feasible.at_one_position)
        return _ability_actions(g, p, window)
    return at_one_position(_ability_actions, g, p, window)  # type: ignore[no-any-return]


def _ability_actions(g: "RulesContext", p: str, window: str) -> list[Option]:
    out: list[Option] = []
    listed = window_abilities(g, p, window)
    if not listed:
        return out
    quiet = None   # (removals_are_quiet: asked at the first ability with an effect)
    n = len(g.s.players)
    power = g.s.power[p]
    priced = bool(core.modifiers_of(g, "action-cost"))   # else every cost is its base, in every area
    for ab in listed:
        _, aid, fixed, base, where, effect, needs_ctx = _ability_plan(ab)
        if not priced and type(fixed) is int and fixed > power and fixed >= 0:
            continue   # (a plain cost, unmodified in every area, above p's Power: nothing else asked)
        # (a context only for a condition, a cost that is not plain or the areas it may end in)
        ctx = core.ctx(g, p, ability=ab, self_unit=self_unit_for(g, ab, p)) if needs_ctx else None
        if not abilities.usable(g, ab, p, ctx, False):   # the cost that counts is the modified one
            continue
        if base is None:
            base = ability_cost(g, ab, p, ctx)
        areas: list[Any] = [None] if where is None else sorted(set(where(ctx) or []))
        # else all parts are possible (checking mode: proofs are checked)
        dry = False
        if effect is not None:
            if quiet is None:
                quiet = removals_are_quiet(g)
            dry = _may_lack(effect, n, quiet) or (state_module.CHECK_MEMO and may_lack_a_part(effect, n, False))
        mods = moves.action_mods(g, p, aid) if priced else ()
        for a in areas:
            c = action_cost(g, p, aid, base, a, mods) if mods or type(base) is not int or base < 0 \
                else base
            if c <= power and (not dry or all_parts_possible(g, ab, p, a)):
                out.append(action("ability", c, None, a, None, aid))
    return out


# an ability's plan, by its key (kept beside it: another record of that key gets its own): (it, its id, its plain cost (closures.constant)
# or None, its base cost when known without a context (0 for none) else None, where, effect,
# whether its listing needs a context: a condition, a cost that is not plain, or `where`)
_ABILITY_PLANS: dict[str, tuple[Any, ...]] = {}


def _ability_plan(ab: Any) -> tuple[Any, ...]:
    """`ab`'s plan (`_ABILITY_PLANS`; checked against a fresh one in checking mode)."""
    key = ab.key
    kept = _ABILITY_PLANS.get(key)
    if kept is not None and kept[0] is ab:
        if state_module.CHECK_MEMO and kept != _ability_plan_of(ab):
            raise AssertionError(f"stale plan kept for {ab.key}")
        return kept
    if len(_ABILITY_PLANS) >= 10_000:
        _ABILITY_PLANS.clear()
    plan = _ABILITY_PLANS[key] = _ability_plan_of(ab)
    return plan


def _ability_plan_of(ab: Any) -> tuple[Any, ...]:
    cost = ab.cost
    fixed = None if cost is None else getattr(cost, "const", None)
    if type(fixed) is not int:
        fixed = None
    base = 0 if cost is None else fixed
    needs_ctx = ab.condition is not None or base is None or ab.where is not None
    return (ab, ab.id, fixed, base, ab.where, ab.effect, needs_ctx)


# may_lack_a_part's answers (with proofs), a fact of the compiled effect, the number of players and
# whether removals are quiet (content facts), by those three; cleared when full
_LACKS: dict[tuple[Any, int, bool], bool] = {}


def _may_lack(effect: Any, n: int, quiet: bool) -> bool:
    """`may_lack_a_part(effect, n, True, quiet)`, kept (checked against a fresh answer in checking mode)."""
    key = (effect, n, quiet)
    lacks = _LACKS.get(key)
    if lacks is None:
        if len(_LACKS) >= 10_000:
            _LACKS.clear()
        lacks = _LACKS[key] = may_lack_a_part(effect, n, True, quiet)
    elif state_module.CHECK_MEMO and lacks != may_lack_a_part(effect, n, True, quiet):
        raise AssertionError(f"stale may_lack_a_part kept for {effect!r}")
    return lacks
