"""Why an answer is not legal: a reason code and one sentence (Game.why_illegal, IllegalAction)."""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from . import neutral
from .decisions import Decision


def explain(self: Any, d: Decision, answer: str) -> tuple[str, str]:
    words = answer.split()
    p = d.player
    if d.kind == "action" and words:
        verb = words[0]
        f = self.faction(p)
        if verb in ("summon", "recruit", "awaken") and len(words) >= 2:
            t = (self.awaken_type(p, words[1]) if verb == "awaken"
                 else f.units.get(words[1]) or (self.kind_type(p, words[1]) if verb == "summon" else None))
            if t is None:
                return ("unknown-unit", f"{p} has no unit '{words[1]}'")
            if not (self.awaken_pool(p, t.id) if verb == "awaken" else self.s.pool(p, t.id)):
                return ("none-in-pool", f"{verb.capitalize()} {t.name}: none left in your pool")
            try:
                cost = self.unit_cost(p, t)
            except RuleError as exc:
                return ("unknown-cost", str(exc))
            if verb == "summon" and not self.may_summon(p, t):
                return ("may-not-summon", f"Summon {t.name}: an ongoing ability forbids summoning it now")
            if cost > self.s.power[p]:
                return ("not-enough-power", f"{verb.capitalize()} {t.name} costs {cost}, you have {self.s.power[p]}")
            if verb == "summon" and len(words) >= 3 and self.s.gate_owner(words[2]) != p:
                return ("no-controlled-gate", f"you control no gate in '{words[2]}'")
        if verb in ("battle", "extra-battle") and len(words) >= 2 and words[1] in self.s.memory.get("battles", []):
            return ("one-battle-per-area", f"there was already a battle in '{words[1]}' this turn")
        if verb == "ability" and len(words) >= 2:
            why = neutral.refusal(self, words[1])
            if why is not None:
                return why
            ab = next((a for a in self.active_abilities(p) if a.id == words[1] and a.effect is not None), None)
            if ab is not None and ab.window in ("action", "unlimited-action"):
                why = why_ability(self, ab, p, words[2] if len(words) >= 3 else None)
                if why is not None:
                    return why
        if verb == "pass" and not self.can_pass(p):
            return ("no-voluntary-drop", f"you cannot drop to 0 Power with {self.s.power[p]} Power")
    if d.kind == "doom" and len(words) == 1:   # a Doom-phase ability, e.g. taking a loyalty card
        why = neutral.refusal(self, words[0])
        if why is not None:
            return why
    shown = ", ".join(d.options[:12]) + (" ..." if len(d.options) > 12 else "")
    said = answer if answer.isprintable() else repr(answer)[1:-1]   # one line, whatever was typed
    return ("not-an-option", f"'{said}' is not a legal choice for {d.player} ({d.prompt}); legal: {shown}")

def why_ability(self: Any, ab: Any, p: str, area: str | None) -> tuple[str, str] | None:
    """Why an action ability is refused: a required part impossible (in the named area, or in
    every area it may end in), or, for an ability with `where:`, no area named."""
    if ab.where is None:
        areas: list[Any] = [None]
    else:
        ctx = self.ctx(p, ability=ab, self_unit=self.self_unit_for(ab, p))
        if not self.usable(ab, p, ctx, check_cost=False):   # `where:` may assume the condition
            return None
        areas = [area] if area is not None else sorted(set(ab.where(ctx) or []))
    if areas and not any(self.all_parts_possible(ab, p, a) for a in areas):
        return ("missing-part", f"{ab.name}: not every part of it can be done now (a required "
                                "choice would have no option), so it cannot be performed")
    if ab.where is not None and area is None and areas:
        return ("needs-area", f"{ab.name} is one action per area it ends in: answer "
                              f"'ability {ab.id} AREA' (AREA one of {', '.join(map(str, areas))})")
    return None
