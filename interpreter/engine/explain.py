"""Why an answer is not legal: a reason code and one sentence (Game.why_illegal, IllegalAction)."""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from . import neutral
from .decisions import Decision
from .option import parse_answer
from . import abilities
from . import actions
from . import basics
from . import core
from . import feasible
from . import independents
from . import phases


def explain(g: Any, d: Decision, answer: str) -> tuple[str, str]:
    """Why `answer` is no option of `d`: what it names (option.parse_answer) checked against the rules."""
    named = parse_answer(d.kind, answer)
    p = d.player
    if d.kind == "action" and named is not None:
        verb = named.verb
        f = basics.faction(g, p)
        if verb in ("summon", "recruit", "awaken") and named.unit_kind is not None:
            kind = named.unit_kind
            t = (independents.awaken_type(g, p, kind) if verb == "awaken"
                 else f.units.get(kind) or (basics.kind_type(g, p, kind) if verb == "summon" else None))
            if t is None:
                return ("unknown-unit", f"{p} has no unit '{kind}'")
            if not (independents.may_awaken_from_pool(g, p, t.id) if verb == "awaken" else g.s.in_pool(p, t.id)):
                return ("none-in-pool", f"{verb.capitalize()} {t.name}: none left in your pool")
            try:
                cost = core.unit_cost(g, p, t)
            except RuleError as exc:
                return ("unknown-cost", str(exc))
            if verb == "summon" and not actions.may_summon(g, p, t):
                return ("may-not-summon", f"Summon {t.name}: an ongoing ability forbids summoning it now")
            if cost > g.s.power[p]:
                return ("not-enough-power", f"{verb.capitalize()} {t.name} costs {cost}, you have {g.s.power[p]}")
            if verb == "summon" and named.area is not None and g.s.gate_owner(named.area) != p:
                return ("no-controlled-gate", f"you control no gate in '{named.area}'")
        if verb in ("battle", "extra-battle") and named.area is not None \
                and named.area in g.s.memory.get("battles", []):
            return ("one-battle-per-area", f"there was already a battle in '{named.area}' this turn")
        if verb == "ability" and named.ability is not None:
            why = neutral.refusal(g, named.ability)
            if why is not None:
                return why
            ab = next((a for a in abilities.active_abilities(g, p) if a.id == named.ability and a.effect is not None), None)
            if ab is not None and ab.window in ("action", "unlimited-action"):
                why = why_ability(g, ab, p, named.area)
                if why is not None:
                    return why
        if verb == "pass" and not phases.can_pass(g, p):
            return ("no-voluntary-drop", f"you cannot drop to 0 Power with {g.s.power[p]} Power")
    if d.kind == "doom" and named is not None and named.ability is not None:   # e.g. taking a loyalty card
        why = neutral.refusal(g, named.ability)
        if why is not None:
            return why
    shown = ", ".join(d.options[:12]) + (" ..." if len(d.options) > 12 else "")
    said = answer if answer.isprintable() else repr(answer)[1:-1]   # one line, whatever was typed
    return ("not-an-option", f"'{said}' is not a legal choice for {d.player} ({d.prompt}); legal: {shown}")

def why_ability(g: Any, ab: Any, p: str, area: str | None) -> tuple[str, str] | None:
    """Why an action ability is refused: a required part impossible (in the named area, or in
    every area it may end in), or, for an ability with `where:`, no area named."""
    if ab.where is None:
        areas: list[Any] = [None]
    else:
        ctx = core.ctx(g, p, ability=ab, self_unit=abilities.self_unit_for(g, ab, p))
        if not abilities.usable(g, ab, p, ctx, check_cost=False):   # `where:` may assume the condition
            return None
        areas = [area] if area is not None else sorted(set(ab.where(ctx) or []))
    if areas and not any(feasible.all_parts_possible(g, ab, p, a) for a in areas):
        return ("missing-part", f"{ab.name}: not every part of it can be done now (a required "
                                "choice would have no option), so it cannot be performed")
    if ab.where is not None and area is None and areas:
        return ("needs-area", f"{ab.name} is one action per area it ends in: answer "
                              f"'ability {ab.id} AREA' (AREA one of {', '.join(map(str, areas))})")
    return None
