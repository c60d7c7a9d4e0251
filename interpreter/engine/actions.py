"""The common actions (Recruit, Summon, Awaken, Create Gate, Move, Battle, Capture, gates) and
unique/spellbook-requirement actions: which are legal now, what they cost, and doing them."""
from __future__ import annotations

from typing import Any

from ..content.model import Requirement
from ..effects.compiler import RuleError
from . import neutral
from .feasible import can_complete, in_dry_run, may_lack_a_part, one_position, removals_are_quiet
from .flow import Call, frame
from . import state as state_module
from .moves import MovesMixin
from .option import Option, action


class ActionsMixin(MovesMixin):
    # ---- costs --------------------------------------------------------------------------------
    def action_cost(self, p: str, action: str, base: int, area: str | None = None,
                    mods: Any = None) -> int:
        """What taking `action` costs `p` (in `area`), its `base` cost modified (`mods`: the
        action-cost modifiers, when the caller has just read them: `action_mods`)."""
        if mods is None:
            mods = self.modifiers_of("action-cost")
        if not mods:   # (most of the time: no subject to build)
            return base if base.__class__ is int and base >= 0 else max(0, self.integer(base, f"cost of {action}"))
        v = self.modified("action-cost", base, {"action": action, "player": p, "area": area}, p, mods)
        return max(0, self.integer(v, f"cost of {action}"))

    def action_mods(self, p: str, action: str | None = None) -> Any:
        """The action-cost modifiers to pass to `action_cost` in a listing's loop: none when the
        subject guards of every one reject `p`'s actions (of kind `action`) in any area."""
        fields = {"player": p} if action is None else {"player": p, "action": action}
        return self.modifiers_of("action-cost") if self.may_modify("action-cost", fields) else ()

    # ---- gates ---------------------------------------------------------------------------------
    def can_control(self, u: dict[str, Any], ask_modifiers: bool = True) -> bool:
        """Whether unit `u` may control a Gate: a Cultist, unless a modifier says otherwise
        (`ask_modifiers=False`: the caller found that none may apply to `u`'s owner, `may_modify`)."""
        cultist = self.utype(u).cls == "cultist"
        return bool(self.modified("can-control-gate", cultist, u, u["owner"])) if ask_modifiers else cultist

    def unit_gates(self, p: str | None = None) -> list[str]:
        """The areas of the units (of `p`, or of anyone) that an ongoing ability makes count as a
        Gate their owner controls (modifier `counts-as-gate`): one entry per unit, beside any real
        Gate in the same area. They give Power, Doom and a place to Summon, and `gates()` lists them."""
        if not self.modifiers_of("counts-as-gate"):
            return []
        return sorted(u["loc"] for u in self.s.on_map(p) if self.modified("counts-as-gate", False, u, u["owner"]))

    def gate_count(self, p: str) -> int:
        """How many Gates `p` controls, the units that count as Gates included (`unit_gates`)."""
        return len(self.s.controlled_gates(p)) + len(self.unit_gates(p))

    def all_parts_possible(self, ab: Any, p: str, area: str | None = None) -> bool:
        """Core rulebook, Unique Actions: "you cannot perform a Unique Action unless you are able to
        do all parts of it" - an action ability (or requirement action) is offered only when a dry
        run of its effect finds answers that leave no required choice without an option (`area`:
        the area an ability with `where:` ends in)."""
        effect = ab.action_effect if isinstance(ab, Requirement) else ab.effect
        if effect is None or in_dry_run(self):
            return True
        if not may_lack_a_part(effect, len(self.s.players), quiet_removals=removals_are_quiet(self)):
            if state_module.CHECK_MEMO and may_lack_a_part(effect, len(self.s.players), proofs=False) \
                    and not self._dry_run(ab, p, area, effect):
                raise AssertionError(f"{ab.key}: its condition was taken to prove that its choices have "
                                     "options (effects/guarded_choices.py), but a dry run found one without")
            return True
        return self._dry_run(ab, p, area, effect)

    def _dry_run(self, ab: Any, p: str, area: str | None, effect: Any) -> bool:
        requirement = isinstance(ab, Requirement)

        def run(g: Any) -> Call:
            if requirement:
                ctx = g.ctx(p)
                ctx.ability = f"requirement {ab.id}"
                return g.effect_call(effect, ctx)  # type: ignore[no-any-return]
            ctx = g.ctx(p, ability=ab, self_unit=g.self_unit_for(ab, p), area=area)
            return g.use_ability_call(ab, p, ctx, paid=True)  # type: ignore[no-any-return]
        key = f"{p} {'requirement ' + ab.id if requirement else ab.key}" + (f" {area}" if area is not None else "")
        return can_complete(self, key, run)

    def gate_free(self, area: str) -> bool:
        g = self.s.gates.get(area)
        return g is not None and g.get("controller") is None and not g.get("locked")

    # ---- enumeration ---------------------------------------------------------------------------
    def main_actions(self, p: str, within: str | None = None) -> list[Option]:
        """Every single (non-unlimited) action `p` can take and afford now, with its cost;
        `within` keeps only the actions in that area (see `in_area`)."""
        if within is not None:
            return [o for o in self.main_actions(p) if self.in_area(p, o, within)]
        s = self.s
        out: list[Option] = []
        power = s.power[p]
        f = self.faction(p)
        mine = s.on_map(p)
        my_areas = sorted({u["loc"] for u in mine})
        mods = self.action_mods(p)
        # Recruit
        for t in f.units.values():
            if t.cls != "cultist" or not s.pool(p, t.id):
                continue
            where = my_areas if mine else sorted(self.layout.areas)
            cost = self.unit_cost(p, t) if where else 0   # the same in every area
            for a in where:
                c = self.action_cost(p, "recruit", cost, a, mods)
                if c <= power:
                    out.append(action("recruit", c, t.id, a))
        # Summon (a Common Action even when an ability also makes it an Unlimited one)
        out.extend(self.summon_actions(p))
        # Awaken (the faction's Great Old Ones and the Independents nobody controls)
        for t in self.awaken_types(p):  # type: ignore[attr-defined]
            if not self.awaken_pool(p, t.id) or t.awaken is None:  # type: ignore[attr-defined]
                continue
            ctx = self.ctx(p)
            if t.awaken.condition is not None and not t.awaken.condition(ctx):
                continue
            try:
                cost = self.unit_cost(p, t)
            except RuleError:
                continue
            where = self.modified("awaken-areas", list(t.awaken.where(ctx) or []), {"kind": t.id, "owner": p}, p)
            for a in sorted(set(where)):
                c = self.action_cost(p, "awaken", cost, a, mods)
                if c <= power:
                    out.append(action("awaken", c, t.id, a))
        # Create Gate
        for a in my_areas:
            if a in s.gates or not any(self.utype(u).cls == "cultist" for u in s.units_at(a, p)):
                continue
            c = self.action_cost(p, "create-gate", self.integer(self.modified("gate-cost", 3, {"area": a}, p), "gate cost"), a, mods)
            if c <= power:
                out.append(action("create-gate", c, area=a))
        # Move
        if mine and power >= 1:
            out.append(action("move", 0))
        # Battle (a Common Action whether or not Battle is an Unlimited one too: unlimited_actions)
        out.extend(self.battle_actions(p, "battle", my_areas))
        # Capture
        for a in my_areas:
            captors = self._captors(p, a)
            if not captors:
                continue
            for e in s.others(p):
                if self.capture_targets(p, e, a, captors):
                    c = self.action_cost(p, "capture", 1, a, mods)
                    if c <= power:
                        out.append(action("capture", c, area=a, player=e))
        # Unique actions
        out.extend(self.ability_actions(p, "action"))
        # Spellbook-requirement actions
        out.extend(self.requirement_actions(p, unlimited=False))
        return out

    def summon_actions(self, p: str, unlimited: bool = False) -> list[Option]:
        """Every Summon `p` can afford now; `unlimited`: only of the kinds an
        ability lets it summon as an Unlimited Action."""
        s = self.s
        out: list[Option] = []
        if unlimited and not self.may_modify("unlimited-summon", {"owner": p}):
            return out   # no ability makes a Summon of p's unlimited now
        gates = [a for a in s.controlled_gates(p) if self.is_area(a)]
        if self.may_modify("summon-at-gate", {"owner": p}):   # an ability opens other Gates to p's Summons
            gates = [a for a in s.gates if self.is_area(a) and self.modified("summon-at-gate", s.gate_owner(a) == p,
                                                                             {"owner": p, "area": a,
                                                                              "controller": s.gate_owner(a)}, p)]
        gates += [a for a in self.unit_gates(p) if a not in gates]
        if not gates:
            return out
        mods = self.action_mods(p, "summon")
        for t in [*self.faction(p).units.values(), *neutral.held_kinds(self, p)]:
            if t.cls in ("cultist", "great-old-one") or not s.pool(p, t.id):
                continue
            if unlimited and not self.unlimited_summon(p, t.id):   # (both only ask modifiers: the rarer first)
                continue
            if not self.may_summon(p, t):
                continue
            try:
                cost = self.unit_cost(p, t)
            except RuleError:
                continue
            for a in gates:
                c = self.action_cost(p, "summon", cost, a, mods)
                if c <= s.power[p]:
                    out.append(action("summon", c, t.id, a))
        return out

    def may_summon(self, p: str, t: Any) -> bool:
        """Whether the Summon action may bring this kind now (an ongoing ability may forbid it; placing
        a unit by other means is not summoning)."""
        return bool(self.modified("may-summon", True, {"kind": t.id, "class": t.cls, "owner": p}, p))

    def unlimited_summon(self, p: str, kind: str) -> bool:
        t = self.kind_type(p, kind)
        return bool(self.modified("unlimited-summon", False, {"kind": kind, "class": t.cls if t else None, "owner": p}, p))

    def extra_battle_allowed(self, p: str) -> bool:
        """Whether Battle is an Unlimited Action for `p` now: with its own six spellbooks, or
        (ruleset `extra-battle` other than own-six) once anyone has six."""
        if self.ruleset.get("extra-battle", "own-six") == "own-six":
            return self.has_all_spellbooks(p)
        return any(self.has_all_spellbooks(q) for q in self.s.players)

    @staticmethod
    def as_common_action(option: Option) -> Option | None:
        """The Common Action an Unlimited one may still turn out to have been: an extra battle is
        the Battle in its area (core rulebook, Unlimited Battle; Duel rulebook, Extra Battle: "you
        can first perform a Battle, and then decide whether it was Common or Unlimited")."""
        return option._replace(verb="battle") if option.verb == "extra-battle" else None

    def battle_actions(self, p: str, verb: str, areas: list[str] | None = None) -> list[Option]:
        """The battles `p` may declare (`verb`: battle or extra-battle); `areas`: the areas where
        `p` has units, in order, when the caller has just found them."""
        s = self.s
        out = []
        fought = s.memory.get("battles", [])
        mods = self.action_mods(p, "battle")
        for a in areas if areas is not None else sorted({u["loc"] for u in s.on_map(p)}):
            if a in fought:
                continue
            here = s.units_at(a)
            mine = [u for u in here if u["owner"] == p and self.may_act(u, "battle")]
            present = {u["owner"] for u in here}
            for e in s.others(p):
                if e in present and self._some_combat(mine, e):
                    c = self.action_cost(p, "battle", 1, a, mods)
                    if c <= s.power[p]:
                        out.append(action(verb, c, area=a, player=e))
        return out

    def _some_combat(self, units: list[dict[str, Any]], foe: str) -> bool:
        """Whether the units' combat against `foe` adds up to at least 1 (no unit's combat is
        negative, so the first unit with some decides)."""
        mods = self.modifiers_of("combat")
        return any(self.combat_of(u, foe, mods) >= 1 for u in units)

    @one_position
    def requirement_actions(self, p: str, unlimited: bool) -> list[Option]:
        out = []
        f = self.faction(p)
        open_ = [r for r in f.requirements if r.when == "action" and r.id not in self.s.requirements[p]
                 and r.action_unlimited == unlimited]
        costs = {}
        for r in open_:
            ctx = self.ctx(p)
            if r.action_condition is not None and not r.action_condition(ctx):
                continue
            if r.action_effect is not None and not self.all_parts_possible(r, p):
                continue
            costs[r.id] = self.integer(r.action_cost(ctx) if r.action_cost else 0, "requirement cost")
        for rid, c in costs.items():
            c2 = self.action_cost(p, "requirement", c)
            if c2 <= self.s.power[p]:
                out.append(action("requirement", c2, ability=rid))
        for r in open_:
            for other in r.together:
                if r.id < other and r.id in costs and other in costs:
                    c2 = self.action_cost(p, "requirement", costs[r.id] + costs[other])
                    if c2 <= self.s.power[p]:
                        out.append(action("requirement", c2, ability=r.id, word=other))
        return out

    def unlimited_actions(self, p: str) -> list[Option]:
        """Every Unlimited Action `p` can take and afford now, with its cost."""
        s = self.s
        out: list[Option] = []
        ask = self.may_modify("can-control-gate", {"owner": p})
        for a, g in sorted(s.gates.items()):
            if not self.is_area(a):
                continue
            if g.get("controller") is None and not g.get("locked"):
                if any(self.can_control(u, ask) for u in s.units_at(a, p)):
                    out.append(action("control-gate", 0, area=a))
            elif s.gate_owner(a) == p:
                out.append(action("abandon-gate", 0, area=a))
        if self.extra_battle_allowed(p):
            out.extend(self.battle_actions(p, "extra-battle"))
        out.extend(self.summon_actions(p, unlimited=True))
        if s.elder_signs[p]:
            out.append(action("reveal-elder-signs", 0))
        out.extend(self.ability_actions(p, "unlimited-action"))
        out.extend(self.requirement_actions(p, unlimited=True))
        return out

    @one_position
    def ability_actions(self, p: str, window: str) -> list[Option]:
        """The unique actions of a window: one per ability, or, for an ability with `where:`, one
        per area where it may end (its cost modified for that area, e.g. by a surcharge there)."""
        out = []
        quiet = removals_are_quiet(self)
        for ab in self.window_abilities(p, window):
            ctx = self.ctx(p, ability=ab, self_unit=self.self_unit_for(ab, p))
            if not self.usable(ab, p, ctx, check_cost=False):   # the cost that counts is the modified one
                continue
            base = self.ability_cost(ab, p, ctx)
            areas: list[Any] = [None] if ab.where is None else sorted(set(ab.where(ctx) or []))
            n = len(self.s.players)   # else all parts are possible (checking mode: proofs are checked)
            dry = ab.effect is not None and (may_lack_a_part(ab.effect, n, quiet_removals=quiet)
                                             or (state_module.CHECK_MEMO and may_lack_a_part(ab.effect, n, proofs=False)))
            power = self.s.power[p]
            mods = self.action_mods(p, ab.id)
            for a in areas:
                c = self.action_cost(p, ab.id, base, a, mods)
                if c <= power and (not dry or self.all_parts_possible(ab, p, a)):
                    out.append(action("ability", c, ability=ab.id, area=a))
        return out

    def in_area(self, p: str, action: Option, area: str) -> bool:
        """Whether an action is "in" an area (a spellbook's "take any action in that zone"): it is
        placed, created, captured or awakened there, a unique action that ends there, or a Move
        with a unit leaving or entering it. A battle is not (one battle per area: one is already
        declared there), nor an action that names no area."""
        verb = action.verb
        if verb in ("recruit", "summon", "awaken", "create-gate", "capture", "ability"):
            return action.area == area
        if verb == "move":
            return bool(self.move_options(p, set(), set(), area))
        return False

    # ---- execution: the procedures of perform.py, as frames (engine/flow.py) --------------------
    def take_action_call(self, p: str, label: str, cost: int, within: str | None = None) -> Call:
        """Take an action chosen from the lists above, answered as `label` (the frame keeps the
        label, as saves do): the one path of every action (perform.py)."""
        return Call(frame("take-action", player=p, label=label, cost=cost, within=within))

    def action_in_call(self, p: str, area: str, why: str) -> Call:
        """Outside its turn, `p` may take one action in `area`, or decline (perform.py)."""
        return Call(frame("action-in", player=p, area=area, why=why))

    def _captors(self, p: str, area: str) -> list[dict[str, Any]]:
        """`p`'s units in `area` that may capture (a Cultist may not)."""
        return [u for u in self.s.units_at(area, p) if self.utype(u).cls != "cultist" and self.may_act(u, "capture")]

    def capture_targets(self, p: str, victim: str, area: str,
                        captors: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """`victim`'s units in `area` that `p` may capture now (`captors`: `_captors(p, area)`,
        when the caller has just found them)."""
        s = self.s
        if captors is None:
            captors = self._captors(p, area)
        if not captors:
            return []
        theirs = s.units_at(area, victim)
        their_classes = {self.utype(u).cls for u in theirs}
        best = "great-old-one" if any(self.utype(u).cls == "great-old-one" for u in captors) else "monster"
        if "great-old-one" in their_classes:
            return []
        if best != "great-old-one" and their_classes & {"monster", "terror"}:
            return []
        cultists = [u for u in theirs if self.utype(u).cls == "cultist"]
        if cultists:
            protected = self.modified("capture-protection", False,
                                      {"capturer": best, "player": p, "victim": victim, "area": area}, victim)
            if protected:
                return []
        return cultists
