"""Engine core: unit removal, costs and modifiers, abilities, timing windows, spellbook requirements."""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ..content.model import Ability, Requirement, UnitType
from ..effects.compiler import RuleError
from ..limits import MAX_WINDOW_DEPTH
from . import neutral
from .basics import GameBasics, Gen
from .context import EffectCtx
from .flow import Call, legacy
from .state import POOL

__all__ = ["BATTLE_MODIFIERS", "BATTLE_WINDOWS", "GameCore", "Gen", "trigger_loop"]

# ongoing abilities' modifiers that change a battle: their owner may decline them for that battle
BATTLE_MODIFIERS = {"combat", "result-capacity", "resolve-results", "retreat-chooser", "assign-chooser"}
BATTLE_WINDOWS = {"before-battle", "battle-roll", "result-assigned", "kills-assigned", "pains-assigned",
                  "after-assignment", "retreats"}


def trigger_loop(abilities: list[str], windows: list[str]) -> str:
    """The error for effects that trigger each other without end: the chain of abilities that
    opened the nested windows, shortened to its first repeat of the cycle."""
    chain = abilities or [f"window {w}" for w in windows]
    n = len(chain)
    for period in range(1, n // 2 + 1):
        start = n - period
        while start > 0 and chain[start - 1] == chain[start - 1 + period]:
            start -= 1
        if n - start >= 2 * period:   # the tail repeats at least twice with this period
            shown = chain[:start] + chain[start:start + period] + [chain[start]]
            break
    else:
        shown = chain[-8:]
    what = "ability " if abilities else ""
    return (f"trigger loop: {what}{' -> '.join(shown)} -> ... "
            f"(stopped at the limit of {MAX_WINDOW_DEPTH} nested windows)")


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
        self.emit("unit", unit=u["id"], owner=u["owner"], kind=u["kind"], src=u["loc"], dst=loc, why=why)
        u["loc"] = loc
        if loc == POOL:
            self.release_if_independent(u)  # type: ignore[attr-defined]

    def remove_unit(self, u: dict[str, Any], how: str, cause: str | None, *, replaced: bool = False) -> Gen:
        """Kill, eliminate or capture a unit; opens the unit-removed window."""
        src, owner = u["loc"], u["owner"]  # (an Independent returns to the general pool as it leaves)
        dst = f"captured:{cause}" if how == "capture" else POOL
        self.relocate(u, dst, how)
        ev = {"unit": dict(u, loc=src, owner=owner), "how": how, "cause": cause, "owner": owner, "replaced": replaced,
              "area": src if self.is_area(src) else None, "in_battle": self.s.battle is not None}
        yield from self.window("unit-removed", ev, self.turn_order())
        if how == "capture":
            yield from self.window("unit-captured", ev, self.turn_order())

    # ---- the procedures of this module as frames (engine/flow.py): what other procedures call ---
    # Transitional: each returns the Call that runs the procedure; a procedure still written as a
    # generator runs in a legacy frame. Callers use these, so a procedure can become frames alone.
    def remove_unit_call(self, u: dict[str, Any], how: str, cause: str | None, *, replaced: bool = False) -> Call:
        return legacy(self, self.remove_unit(u, how, cause, replaced=replaced))

    def use_ability_call(self, ab: Ability, player: str | None, ctx: EffectCtx, paid: bool = False) -> Call:
        return legacy(self, self.use_ability(ab, player, ctx, paid))

    def effect_call(self, effect: Any, ctx: EffectCtx) -> Call:
        """Run a compiled effect program (an ability's, a requirement's, an awakening's) with `ctx`."""
        return legacy(self, effect(ctx))

    def window_call(self, name: str, event: dict[str, Any] | None, players: list[str] | None = None,
                    area: str | None = None) -> Call:
        return legacy(self, self.window(name, event, players, area))

    def check_requirements_call(self, when: str, event: dict[str, Any] | None = None,
                                players: list[str] | None = None) -> Call:
        return legacy(self, self.check_requirements(when, event, players))

    def earn_call(self, p: str, r: Requirement) -> Call:
        return legacy(self, self.earn(p, r))

    # ---- money: costs and modifiers ---------------------------------------------------------------
    def ctx(self, me: str | None, *, ability: Ability | None = None, **kw: Any) -> EffectCtx:
        c = EffectCtx(self, me, ability=ability.name if ability else "", **kw)
        if ability is not None and self.s.grants:
            for g in self.s.grants:
                if g.get("stand_in") and g["to"] == me and g["ability"] == ability.key:
                    c.stand_in = dict(g["stand_in"])
        return c

    def integer(self, v: Any, what: str) -> int:
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
        base = self.integer(t.cost(self.ctx(owner)), f"cost of {t.name}")
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
            opts = (self.integer(t.cost(self.ctx(u["owner"])), f"cost of {t.name}"),)
        return math.ceil(Fraction(sum(opts), len(opts)))

    def combat_of(self, u: dict[str, Any], foe: str | None = None) -> int:
        """A unit's combat; `foe` names the opponent when no battle is under way (declaring one)."""
        t = self.utype(u)
        if "combat" in t.unknown:
            raise RuleError(f"{t.name}: its combat is unknown and no interpretation is given")
        base = self.integer(t.combat(self.ctx(u["owner"], self_unit=u, foe=foe)), f"combat of {t.name}")
        return max(0, self.integer(self.modified("combat", base, u, u["owner"]), f"combat of {t.name}"))

    def modified(self, target: str, value: Any, subject: Any = None, player: str | None = None) -> Any:
        """Apply every active static modifier of `target`, in seating order, owner by owner."""
        declined = self.s.battle.get("declined", []) if self.s.battle is not None and target in BATTLE_MODIFIERS else []
        for owner, ab in self.active_abilities_all():
            if declined and [owner, ab.key] in declined:
                continue  # declined for this battle: only its battle-changing modifiers are off
            for m in ab.modifiers:
                if m.target != target:
                    continue
                ctx = self.ctx(owner, ability=ab, subject=subject, value=value)
                if m.when is None or m.when(ctx):
                    value = m.value(ctx)
        return value

    # ---- abilities -------------------------------------------------------------------------------
    def in_play_kinds(self, player: str) -> set[str]:
        return {u["kind"] for u in self.s.units if u["owner"] == player and self.is_area(u["loc"])}

    def active_abilities(self, player: str) -> list[Ability]:
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
        key = self.s.seq
        cache = getattr(self, "_ab_cache", None)
        if cache is not None and cache[0] == key and cache[1] is self.s:
            return cache[2]
        out: list[tuple[str | None, Ability]] = [(None, a) for a in self.ruleset.abilities]
        for p in self.s.players:
            out.extend((p, a) for a in self.active_abilities(p))
        self._ab_cache = (key, self.s, out)
        return out

    def ability_by_key(self, key: str) -> Ability | None:
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
        return idx.get(key)

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

    def use_ability(self, ab: Ability, player: str | None, ctx: EffectCtx, paid: bool = False) -> Gen:
        """Pay for an ability (unless an action already did), mark its once-limit, run its effect."""
        cost = 0 if paid else self.ability_cost(ab, player, ctx)
        if player is not None and cost:
            self.gain_power(player, -cost, f"pay for {ab.name}")
        k = self.once_key(ab, player)
        if k is not None:
            self.s.memory.setdefault("once", []).append(k)
        self.emit("ability", player=player, ability=ab.key, name=ab.name)
        if ab.effect is not None:
            self._chain.append(f"{ab.key} ({ab.window})")
            try:
                yield from ab.effect(ctx)
            finally:
                self._chain.pop()

    def turn_order(self) -> list[str]:
        active = self.s.step.get("player")
        start = active if active in self.s.players else (self.s.first or self.s.players[0])
        return self.s.order_from(start)

    def window(self, name: str, event: dict[str, Any] | None, players: list[str] | None = None,
               area: str | None = None) -> Gen:
        """Open a timing window: ruleset rules first, then each player's abilities in order.

        A player with several usable optional abilities picks them one by one (or 'done'),
        which also fixes their order; mandatory ones run without asking.
        """
        if len(self._depth) >= MAX_WINDOW_DEPTH:
            raise RuleError(trigger_loop(self._chain, self._depth + [name]))
        self._depth.append(name)
        try:
            for ab in self.ruleset.abilities:
                if ab.window == name:
                    ctx = self.ctx(None, ability=ab, event=event, area=area)
                    if self.usable(ab, None, ctx):
                        yield from self.use_ability(ab, None, ctx)
            battle = self.s.battle
            for p in players if players is not None else self.turn_order():
                used: set[str] = set()
                while True:
                    cands = []
                    for ab in self.active_abilities(p):
                        if ab.window != name or ab.key in used:
                            continue
                        if battle is not None and name in BATTLE_WINDOWS and not ab.anywhere \
                                and p not in (battle["attacker"], battle["defender"]):
                            continue
                        ctx = self.ctx(p, ability=ab, event=event, area=area,
                                       self_unit=self.self_unit_for(ab, p))
                        if self.usable(ab, p, ctx):
                            cands.append((ab, ctx))
                    if not cands:
                        break
                    forced = [c for c in cands if not c[0].optional]
                    if forced:
                        ab, ctx = forced[0]
                    else:
                        labels = [c[0].id for c in cands] + ["done"]
                        ans = yield from self.ask(p, "ability", labels, f"{name}: use an ability?", window=name)
                        if ans == "done":
                            break
                        ab, ctx = next(c for c in cands if c[0].id == ans)
                    used.add(ab.key)
                    yield from self.use_ability(ab, p, ctx)
            if name != "unit-removed":
                yield from self.check_requirements(name, event)
        finally:
            self._depth.pop()

    def self_unit_for(self, ab: Ability, player: str) -> dict[str, Any] | None:
        if not ab.holder.startswith("unit:"):
            return None
        kind = ab.holder[5:]
        b = self.s.battle
        units = [u for u in self.s.units if u["owner"] == player and u["kind"] == kind and self.is_area(u["loc"])]
        if b is not None:
            inb = [u for u in units if u["loc"] == b["area"] and u["id"] not in b["exempt"]]
            units = inb or units
        return units[0] if units else None

    # ---- spellbook requirements --------------------------------------------------------------------
    def check_requirements(self, when: str, event: dict[str, Any] | None = None,
                           players: list[str] | None = None) -> Gen:
        for p in players or self.s.players:
            f = self.content.factions.get(p)
            if f is None:
                continue
            for r in f.requirements:
                if r.id in self.s.requirements[p] or r.condition is None:
                    continue
                # an action requirement with a condition is met either way (e.g. "X, or pay N as your action")
                if r.when != when and not (when == "state" and r.when == "action"):
                    continue
                if any(r.id in e[1] for e in (self.s.battle or {}).get("earned", []) if e[0] == p):
                    continue
                ctx = self.ctx(p, event=event)
                ctx.ability = f"requirement {r.id}"
                if r.condition(ctx):
                    if self.s.battle is not None:
                        self.s.battle.setdefault("earned", []).append([p, r.id])
                    else:
                        yield from self.earn(p, r)
            if self.s.loyalty:
                yield from self.check_loyalty_requirements(p, when, event)  # type: ignore[attr-defined]

    def earn(self, p: str, r: Requirement) -> Gen:
        if r.id in self.s.requirements[p]:
            return
        self.s.requirements[p].append(r.id)
        self.emit("requirement", player=p, requirement=r.id)
        left = neutral.spellbook_choices(self, p)   # own spellbooks, or a neutral one instead
        if left:
            book = yield from self.ask(p, "spellbook", left, f"{r.text}: choose a spellbook")
            neutral.take_spellbook(self, p, book)
        if r.effect is not None:
            ctx = self.ctx(p)
            ctx.ability = f"requirement {r.id}"
            yield from r.effect(ctx)

    def battle_record(self) -> dict[str, Any]:
        b = self.s.battle
        assert b is not None
        return b
