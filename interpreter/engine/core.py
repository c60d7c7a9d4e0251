"""Engine core: unit removal, costs and modifiers, abilities, timing windows, spellbook requirements
(the procedures themselves run as frames: core_procs.py)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..content.model import Ability, Requirement, UnitType
from ..effects.compiler import RuleError
from ..effects.runtime import FormulaDepthError
from ..limits import MAX_FORMULA_DEPTH
from ..effects.subject_guards import rejects
from . import flow, neutral
from . import state as state_module
from .basics import MEMO_FACTS, GameBasics
from .context import EffectCtx
from .core_procs import (BATTLE_MODIFIERS, BATTLE_WINDOWS, ability_frame, quiet_window, requirements_to_check,
                         trigger_loop)
from .effect_frames import effect_frame
from .flow import Call
from .state import POOL

__all__ = ["BATTLE_MODIFIERS", "BATTLE_WINDOWS", "GameCore", "trigger_loop"]


def _in_window(g: "GameCore", arg: tuple[str, str]) -> list[Ability]:
    player, window = arg
    return [ab for ab in g.active_abilities(player) if ab.window == window]


MEMO_FACTS["window"] = _in_window   # type: ignore[assignment]   (checked like the other memo entries)


class GameCore(GameBasics):
    # ---- units ---------------------------------------------------------------------------------
    def _leave(self, u: dict[str, Any]) -> None:
        for loc, g in self.s.gates.items():
            if g.get("controller") == u["id"]:
                g["controller"] = None
                self.emit("gate", loc=loc, change="abandoned", unit=u["id"])

    def relocate(self, u: dict[str, Any], loc: str, why: str) -> None:
        """Move a unit anywhere (map, pool, holding) with no rules applied; logged."""
        if u["loc"] == loc:
            return
        self._leave(u)
        src = u["loc"]
        self.emit("unit", unit=u["id"], owner=u["owner"], kind=u["kind"], src=src, dst=loc, why=why)
        kept = self.memo_current() and self._kinds_stay(u, src, loc)
        u["loc"] = loc
        self.s.moved(u, src)   # a write (see `memo`); the unit index follows the move in place
        if kept:
            self.memo_after_move()   # the facts about kinds in play stay
        if loc == POOL:
            self.release_if_independent(u)  # type: ignore[attr-defined]

    def _kinds_stay(self, u: dict[str, Any], src: str, dst: str) -> bool:
        """Whether moving `u` (still at `src`) to `dst` leaves its owner's kinds on the map as they
        are (`in_play_kinds`): from area to area or between two places off the map; onto the map
        when a unit of its kind is there already; off it when another one stays."""
        areas = self.layout.areas
        on, off = src in areas, dst in areas
        if on == off:
            return True
        kind, owner = u["kind"], u["owner"]
        return any(x is not u and x["kind"] == kind and x["loc"] in areas
                   for x in self.s.units_of(owner))

    # ---- the procedures of this module as frames (engine/flow.py, core_procs.py) --------------------
    # Each returns the Call that runs the procedure; a step of another procedure returns it.
    def remove_unit_call(self, u: dict[str, Any], how: str, cause: str | None, *, replaced: bool = False) -> Call:
        return Call(flow.frame("remove-unit", unit=u["id"], how=how, cause=cause, replaced=replaced))

    def use_ability_call(self, ab: Ability, player: str | None, ctx: EffectCtx, paid: bool = False) -> Call:
        """Use `ab`; its effect runs with a context like `ctx` (rebuilt from its data: me, event, area, self)."""
        unit = ctx.self_unit
        return Call(ability_frame(self, ab, player, ctx.me, ctx.event, ctx.area,
                                  unit["id"] if unit is not None else None, paid))

    def effect_call(self, effect: Any, ctx: EffectCtx, label: str | None = None) -> Call:
        """Run a compiled effect program (an ability's, a requirement's, an awakening's) with `ctx`
        (`label`: "KEY (WINDOW)" when it runs an ability, for trigger-loop messages)."""
        return Call(effect_frame(self, effect, ctx, label))

    def window_call(self, name: str, event: dict[str, Any] | None, players: list[str] | None = None,
                    area: str | None = None) -> Call | None:
        """Open a timing window; None when it would do nothing now (`quiet_window`): the caller's
        next step then runs at once, as after the window returned."""
        if quiet_window(self, name):
            return None
        return Call(flow.frame("window", window=name, event=event,
                               players=list(players) if players is not None else None, area=area))

    def check_requirements_call(self, when: str, event: dict[str, Any] | None = None,
                                players: list[str] | None = None) -> Call | None:
        """Check the requirements met at `when`; None when none could be (`requirements_to_check`)."""
        players = list(players or self.s.players)
        if not requirements_to_check(self, when, players):
            return None
        return Call(flow.frame("requirements", when=when, event=event, players=players, i=0, j=0))

    def earn_call(self, p: str, r: Requirement) -> Call:
        return Call(flow.frame("earn", player=p, req=r.id))

    # ---- money: costs and modifiers ---------------------------------------------------------------
    def ctx(self, me: str | None, *, ability: Ability | None = None, **kw: Any) -> EffectCtx:
        c = EffectCtx(self, me, ability=ability.name if ability else "", **kw)
        if ability is not None and self.s.grants:
            for g in self.s.grants:
                if g.get("stand_in") and g["to"] == me and g["ability"] == ability.key:
                    c.stand_in = dict(g["stand_in"])
        return c

    def integer(self, v: Any, what: str) -> int:
        if v.__class__ is int:
            return v  # type: ignore[no-any-return]
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, Fraction):
            if v.denominator == 1:
                return int(v)
            raise RuleError(f"{what} must be a whole number, got {v} (round it with ceil() or floor())")
        if not isinstance(v, int):
            raise RuleError(f"{what} must be a whole number, got {v!r}")
        return v

    def unit_cost(self, owner: str, t: UnitType) -> int:
        if "cost" in t.unknown:
            raise RuleError(f"{t.name}: its cost is unknown and no interpretation is given")
        fixed = getattr(t.cost, "const", None)   # a plain number: no context to make
        base = self.integer(fixed if fixed is not None else self.formula(t.cost, self.ctx(owner), f"cost of {t.name}"),
                            f"cost of {t.name}")
        subject = {"kind": t.id, "class": t.cls, "owner": owner}
        if t.cls == "great-old-one":
            cost = self.modified("awaken-cost", base, subject, owner)
        elif t.cls == "cultist":
            cost = self.modified("recruit-cost", base, subject, owner)
        else:
            cost = self.modified("summon-cost", base, subject, owner)
        return max(0, self.integer(cost, f"cost of {t.name}"))

    def doom_value(self, u: dict[str, Any]) -> int:
        """Average of every cost the unit can have, rounded up."""
        t = self.utype(u)
        opts = t.cost_options
        if not opts:
            opts = (self.integer(self.formula(t.cost, self.ctx(u["owner"]), f"cost of {t.name}"), f"cost of {t.name}"),)
        return -(-sum(opts) // len(opts))   # rounded up, in integers (a Fraction was most of a bot's unit pick)

    def combat_of(self, u: dict[str, Any], foe: str | None = None, mods: Any = None) -> int:
        """A unit's combat; `foe` names the opponent when no battle is under way (declaring one);
        `mods`: `modifiers_of("combat")`, when the caller has just read it."""
        t = self.utype(u)
        if "combat" in t.unknown:
            raise RuleError(f"{t.name}: its combat is unknown and no interpretation is given")
        fixed = getattr(t.combat, "const", None)   # a plain number: no context to make
        base = self.integer(fixed if fixed is not None else
                            self.formula(t.combat, self.ctx(u["owner"], self_unit=u, foe=foe), f"combat of {t.name}"),
                            f"combat of {t.name}")
        return max(0, self.integer(self.modified("combat", base, u, u["owner"], mods), f"combat of {t.name}"))

    def modified(self, target: str, value: Any, subject: Any = None, player: str | None = None,
                 mods: list[tuple[str | None, Ability, Any]] | None = None) -> Any:
        """Apply every active static modifier of `target`, in seating order, owner by owner
        (`mods`: `modifiers_of(target)`, when the caller has just read it)."""
        if mods is None:
            mods = self.modifiers_of(target)
        if not mods:
            return value
        depth = self.formula_depth
        if depth >= MAX_FORMULA_DEPTH:
            raise FormulaDepthError(f"the modifiers of {target}")
        self.formula_depth = depth + 1
        try:
            return self._apply_modifiers(target, value, subject, mods)
        finally:
            self.formula_depth = depth

    def _apply_modifiers(self, target: str, value: Any, subject: Any,
                         mods: list[tuple[str | None, Ability, Any]]) -> Any:
        s = self.s
        declined = s.battle.get("declined", []) if s.battle is not None and target in BATTLE_MODIFIERS else []
        grants = s.grants
        for owner, ab, m in mods:
            if declined and [owner, ab.key] in declined:
                continue  # declined for this battle: only its battle-changing modifiers are off
            if m.guards and rejects(m.guards, subject, owner):
                if state_module.CHECK_MEMO:
                    self._check_guards(owner, ab, m, subject, value)
                continue  # its `when` is false for this subject (effects/subject_guards.py)
            ctx = self.ctx(owner, ability=ab, subject=subject, value=value) if grants else \
                EffectCtx(self, owner, ability=ab.name, subject=subject, value=value)   # what ctx() makes without grants
            when = m.when
            try:
                if when is None or when(ctx):
                    value = m.value(ctx)
            except FormulaDepthError as exc:
                exc.through(f"{ab.name} (a modifier of {target})")
                raise
        return value

    def formula(self, fn: Any, ctx: EffectCtx, name: str) -> Any:
        """`fn(ctx)`: a unit's combat or cost formula, evaluated inside at most
        limits.MAX_FORMULA_DEPTH other formulas (a formula that reads itself ends in a RuleError)."""
        depth = self.formula_depth
        if depth >= MAX_FORMULA_DEPTH:
            raise FormulaDepthError(name)
        self.formula_depth = depth + 1
        try:
            return fn(ctx)
        except FormulaDepthError as exc:
            exc.through(name)
            raise
        finally:
            self.formula_depth = depth

    def may_act(self, u: dict[str, Any], act: str) -> bool:
        """Whether unit `u` may take part in `act` (move, capture or battle) as its owner's unit: the
        `may-act` modifiers (subject `{unit, owner, action}`) answer, true when there are none."""
        mods = self.modifiers_of("may-act")
        if not mods:
            return True
        return bool(self.modified("may-act", True, {"unit": u, "owner": u["owner"], "action": act}, u["owner"], mods))

    def may_modify(self, target: str, fields: dict[str, Any]) -> bool:
        """Whether an active modifier of `target` may apply to a subject with these `fields`: False
        when the subject guards of every one reject them, as they then reject every subject that
        has them (effects/subject_guards.py). Checking mode answers True when there is one at all
        (every subject is then asked)."""
        mods = self.modifiers_of(target)
        if not mods:
            return False
        if state_module.CHECK_MEMO:
            return True
        for owner, _, m in mods:
            if not (m.guards and rejects(m.guards, fields, owner)):
                return True
        return False

    def _check_guards(self, owner: str | None, ab: Ability, m: Any, subject: Any, value: Any) -> None:
        """Checking mode: a modifier its guards rejected has a false `when` indeed."""
        if m.when is not None and m.when(self.ctx(owner, ability=ab, subject=subject, value=value)):
            raise AssertionError(f"{ab.key}: its subject guards {m.guards!r} rejected {subject!r}, "
                                 "but its condition holds")

    def modifiers_of(self, target: str) -> list[tuple[str | None, Ability, Any]]:
        """(owner, ability, modifier) of every active modifier of `target`, in the order they apply."""
        memo = self.memo()
        index = memo.get("modifiers")
        if index is None:
            index = {}
            for owner, ab in self.active_abilities_all():
                for m in ab.modifiers:
                    index.setdefault(m.target, []).append((owner, ab, m))
            memo["modifiers"] = index
        return index.get(target, ())  # type: ignore[no-any-return]

    # ---- abilities -------------------------------------------------------------------------------
    def in_play_kinds(self, player: str) -> set[str]:
        memo = self.memo()
        key = ("kinds", player)
        kinds = memo.get(key)
        if kinds is None:
            is_area = self.layout.areas.__contains__
            kinds = memo[key] = {u["kind"] for u in self.s.units if u["owner"] == player and is_area(u["loc"])}
        return kinds  # type: ignore[no-any-return]

    def active_abilities(self, player: str) -> list[Ability]:
        """The abilities `player` has now (faction, units in play, spellbooks, cards, grants), in
        their fixed order. The list is shared: callers must not change it."""
        memo = self.memo()
        key = ("abilities", player)
        out = memo.get(key)
        if out is None:
            out = memo[key] = self._collect_abilities(player)
        return out  # type: ignore[no-any-return]

    def window_abilities(self, player: str, window: str) -> list[Ability]:
        """`active_abilities(player)` of one window, in the same order (shared: do not change it)."""
        memo = self.memo()
        key = ("window", (player, window))
        out = memo.get(key)
        if out is None:
            out = memo[key] = _in_window(self, (player, window))
        return out  # type: ignore[no-any-return]

    def _collect_abilities(self, player: str) -> list[Ability]:
        f = self.content.factions.get(player)
        out: list[Ability] = []
        if f is None:
            return out
        out.extend(f.abilities)
        kinds = self.in_play_kinds(player)
        for t in f.units.values():
            if t.abilities and t.id in kinds:
                out.extend(t.abilities)
        if self.s.loyalty:
            out.extend(self.loyalty_abilities(player, kinds))  # type: ignore[attr-defined]
        for book in self.s.spellbooks.get(player, []):
            sb = f.spellbooks.get(book) or self.content.neutral_spellbooks.get(book)
            if sb is not None:
                out.extend(sb.abilities)
        out.extend(neutral.card_abilities(self, player))
        for g in self.s.grants:
            if g["to"] == player:
                ab = self.ability_by_key(g["ability"])
                if ab is not None:
                    out.append(ab)
        return out

    def active_abilities_all(self) -> list[tuple[str | None, Ability]]:
        memo = self.memo()
        out = memo.get("all")
        if out is None:
            out = [(None, a) for a in self.ruleset.abilities]
            for p in self.s.players:
                out.extend((p, a) for a in self.active_abilities(p))
            memo["all"] = out
        return out  # type: ignore[no-any-return]

    def ability_by_key(self, key: str) -> Ability | None:
        idx = self.__dict__.get("_ability_index")
        return (idx if idx is not None else self._ability_index_of()).get(key)

    def content_abilities(self) -> list[Ability]:
        """Every ability the game's content holds (factions, units, spellbooks, cards) and its
        ruleset's rules, in play or not."""
        return [*self._ability_index_of().values(), *self.ruleset.abilities,
                *(a for t in self.content.neutral_units.values() for a in t.abilities)]

    def _ability_index_of(self) -> dict[str, Ability]:
        idx = getattr(self, "_ability_index", None)
        if idx is None:
            idx = {}
            for f in list(self.content.factions.values()) + list(self.content.loyalty_cards.values()):
                for a in f.abilities:
                    idx[a.key] = a
                for t in f.units.values():
                    for a in t.abilities:
                        idx[a.key] = a
                for sb in f.spellbooks.values():
                    for a in sb.abilities:
                        idx[a.key] = a
            for sb in self.content.neutral_spellbooks.values():
                for a in sb.abilities:
                    idx[a.key] = a
            for card in self.content.neutral_cards.values():
                for a in (card.acquire, *card.abilities, *self.content.neutral_units[card.kind].abilities):
                    if a is not None:
                        idx[a.key] = a
            self._ability_index = idx
        return idx  # type: ignore[no-any-return]

    def ability_of(self, key: str) -> Ability:
        """The ability a frame names by key: a content ability or one of the ruleset's rules."""
        ab = self.ability_by_key(key)
        if ab is None:
            ab = next((a for a in self.ruleset.abilities if a.key == key), None)
            if ab is None:
                raise RuleError(f"internal: no ability with the key '{key}'")
        return ab

    def once_key(self, ab: Ability, player: str | None) -> str | None:
        if ab.once is None:
            return None
        mem = self.s.memory
        scope = {"battle": f"battle{mem.get('battle_no', 0)}", "action": f"action{mem.get('action_no', 0)}",
                 "turn": f"turn{mem.get('turn_no', 0)}",
                 "action-phase": f"ap{self.s.round}", "doom-phase": f"dp{self.s.round}", "round": f"r{self.s.round}",
                 "game": "game"}[ab.once]
        return f"{ab.key}|{player}|{scope}"

    def ability_cost(self, ab: Ability, player: str | None, ctx: EffectCtx) -> int:
        if ab.cost is None:
            return 0
        return self.integer(ab.cost(ctx), f"cost of {ab.name}")

    def usable(self, ab: Ability, player: str | None, ctx: EffectCtx, check_cost: bool = True) -> bool:
        if ab.unknown:
            return False
        k = self.once_key(ab, player)
        if k is not None and k in self.s.memory.get("once", []):
            return False
        if ab.condition is not None and not ab.condition(ctx):
            return False
        if check_cost and player is not None and self.ability_cost(ab, player, ctx) > self.s.power[player]:
            return False
        return True

    def turn_order(self) -> list[str]:
        active = self.s.step.get("player")
        start = active if active in self.s.players else (self.s.first or self.s.players[0])
        return self.s.order_from(start)

    def self_unit_for(self, ab: Ability, player: str) -> dict[str, Any] | None:
        if not ab.holder.startswith("unit:"):
            return None
        kind = ab.holder[5:]
        b = self.s.battle
        units = [u for u in self.s.on_map(player, self.layout.areas) if u["kind"] == kind]
        if b is not None:
            inb = [u for u in units if u["loc"] == b["area"] and u["id"] not in b["exempt"]]
            units = inb or units
        return units[0] if units else None

    # ---- spellbook requirements --------------------------------------------------------------------
    def battle_record(self) -> dict[str, Any]:
        b = self.s.battle
        assert b is not None
        return b
