"""Battle, in the rulebooks' order: declaration, pre-battle abilities (attacker, then defender),
dice, assignment (kills and eliminations first, then pains; excess ignored), application
(removals, then retreats: attacker first; no retreat next to the foe; surrounded = one eliminated),
post-battle abilities, and spellbooks earned in the battle arriving after it."""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from .core import BATTLE_MODIFIERS, Gen, GameCore
from .flow import Call, legacy

MAX_ASSIGN_ROUNDS = 50
_KILLS = ("eliminate", "kill")



class BattleMixin(GameCore):
    def battle_sides(self) -> tuple[str, str]:
        b = self.battle_record()
        return b["attacker"], b["defender"]

    def opponent_in_battle(self, side: str) -> str:
        a, d = self.battle_sides()
        return d if side == a else a

    def participants(self, side: str) -> list[dict[str, Any]]:
        b = self.battle_record()
        return [u for u in self.s.units if u["owner"] == side and u["loc"] == b["area"] and u["id"] not in b["exempt"]]

    def battle_players(self) -> list[str]:
        a, d = self.battle_sides()
        return [a, d] + [p for p in self.turn_order() if p not in (a, d)]

    def capacity(self, u: dict[str, Any]) -> int:
        return self.integer(self.modified("result-capacity", 1, u, u["owner"]), "result capacity")

    def eligible(self, side: str, classes: list[str] | None) -> list[dict[str, Any]]:
        b = self.battle_record()
        out = []
        for u in self.participants(side):
            if b["taken"].get(str(u["id"]), 0) >= self.capacity(u):
                continue
            if classes is not None and self.utype(u).cls not in classes:
                continue
            out.append(u)
        return out

    def battle_call(self, attacker: str, defender: str, area: str) -> Call:
        """The battle as a frame (engine/flow.py; transitional, see core.py)."""
        return legacy(self, self.battle(attacker, defender, area))  # type: ignore[arg-type]

    def battle(self, attacker: str, defender: str, area: str) -> Gen:
        s = self.s
        s.memory["battle_no"] = s.memory.get("battle_no", 0) + 1
        self.emit("battle", attacker=attacker, defender=defender, area=area)
        yield from self.window("battle-declared", {"attacker": attacker, "defender": defender, "area": area},
                               [defender] + [p for p in self.turn_order() if p not in (attacker, defender)])
        s.battle = {"area": area, "attacker": attacker, "defender": defender, "exempt": [], "results": {},
                    "taken": {}, "pending": {attacker: [], defender: []}, "rolled": {}, "avoided": [],
                    "earned": [], "flags": [], "killed": {attacker: [], defender: []}}
        try:
            yield from self._battle_steps()
        finally:
            b = s.battle
            s.battle = None
        self.emit("battle-end", area=area)
        for p, rid in b["earned"] if b else []:
            yield from self.earn_after_battle(p, rid)  # type: ignore[attr-defined]

    def _battle_steps(self) -> Gen:
        b = self.battle_record()
        a, d = b["attacker"], b["defender"]
        yield from self.window("before-battle", {"attacker": a, "defender": d, "area": b["area"]}, [a])
        if self.participants(a) and self.participants(d):
            yield from self.window("before-battle", {"attacker": a, "defender": d, "area": b["area"]}, [d])
        if not self.participants(a) or not self.participants(d):
            self.emit("battle-over-early", area=b["area"])
            return
        yield from self._offer_declines()
        # dice
        for side in (a, d):
            n = sum(self.combat_of(u) for u in self.participants(side))
            dice = self.roll(n, side, "battle")
            kills = sum(1 for x in dice if x == 6)
            pains = sum(1 for x in dice if x in (4, 5))
            b["rolled"][side] = {"dice": n, "rolls": dice, "kills": kills, "pains": pains}
            other = self.opponent_in_battle(side)
            b["pending"][other] += [{"result": "kill", "by": side}] * kills + [{"result": "pain", "by": side}] * pains
        for side in (a, d):
            r = b["rolled"][side]
            yield from self.window("battle-roll", {"player": side, "dice": r["dice"], "kills": r["kills"],
                                                   "pains": r["pains"], "area": b["area"]}, [side])
        # assignment: kills and eliminations, then pains, until nothing new is added
        for _ in range(MAX_ASSIGN_ROUNDS):
            yield from self._assign(_KILLS)
            yield from self.window("kills-assigned", {"area": b["area"]}, self.battle_players())
            if any(p["result"] in _KILLS for side in (a, d) for p in b["pending"][side]):
                continue
            yield from self._assign(("pain",))
            yield from self.window("pains-assigned", {"area": b["area"]}, self.battle_players())
            if not any(b["pending"][side] for side in (a, d)):
                break
        else:
            raise RuleError("battle results keep being added without end")
        yield from self.window("after-assignment", {"area": b["area"]}, self.battle_players())
        yield from self._apply()
        yield from self.window("after-battle", {"area": b["area"], "attacker": a, "defender": d},
                               self.battle_players())

    def _offer_declines(self) -> Gen:
        """Abilities are optional, ongoing ones included (core rulebook, Special Abilities): before
        the dice, each owner of an ongoing ability that would change this battle may decline it."""
        b = self.battle_record()
        b["declined"] = []
        for p in self.battle_players():
            for ab in self.active_abilities(p):
                if ab.window != "static" or not ab.optional:
                    continue
                mods = [m for m in ab.modifiers if m.target in BATTLE_MODIFIERS]
                if not mods or not self._modifier_applies(p, ab, mods):
                    continue
                ans = yield from self.ask(p, "option", [f"use {ab.id}", f"decline {ab.id}"],
                                          f"use {ab.name} in this battle?")
                if ans.startswith("decline"):
                    b["declined"].append([p, ab.key])
                    self.emit("declined", player=p, ability=ab.key)

    def _modifier_applies(self, p: str, ab: Any, mods: list[Any]) -> bool:
        """Whether any of these modifiers would apply to something in this battle."""
        b = self.battle_record()
        subjects: list[Any] = [u for side in self.battle_sides() for u in self.participants(side)]
        subjects += [{"side": side, "result": r} for side in self.battle_sides() for r in ("kill", "pain")]
        subjects += [{"side": side} for side in self.battle_sides()]
        for m in mods:
            for subj in subjects:
                if m.target in ("retreat-chooser", "assign-chooser") and "side" not in subj:
                    continue
                if m.target not in ("retreat-chooser", "assign-chooser") and "side" in subj:
                    continue
                try:
                    if m.when is None or m.when(self.ctx(p, ability=ab, subject=subj, value=None)):
                        return True
                except Exception:  # noqa: BLE001 - a condition that cannot judge this subject does not apply
                    continue
        del b
        return False

    def _assign(self, results: tuple[str, ...]) -> Gen:
        b = self.battle_record()
        for side in self.battle_sides():
            while True:
                todo = [p for p in b["pending"][side] if p["result"] in results]
                if not todo:
                    break
                # eliminations and kills in the order they were added
                item = todo[0]
                b["pending"][side].remove(item)
                units = self.eligible(side, item.get("classes"))
                if not units:
                    self.emit("result-ignored", side=side, result=item["result"])
                    continue
                chooser = self.modified("assign-chooser", side, {"side": side, "result": item["result"]}, side)
                ans = yield from self.ask(chooser, "unit", [self.unit_label(u) for u in units],
                                          f"assign a {item['result']} to one of {side}'s units")
                u = self.s.unit(int(ans.rsplit("#", 1)[1]))
                key = str(u["id"])
                b["results"].setdefault(key, []).append(item["result"])
                b["taken"][key] = b["taken"].get(key, 0) + 1
                self.emit("result", unit=u["id"], kind=u["kind"], side=side, result=item["result"])
                yield from self.window("result-assigned", {"unit": dict(u), "result": item["result"], "side": side,
                                                           "by": item.get("by")}, self.battle_players())

    def fate(self, u: dict[str, Any]) -> str | None:
        res = self.battle_record()["results"].get(str(u["id"]), [])
        default = "eliminate" if "eliminate" in res else "kill" if "kill" in res else "pain" if "pain" in res else None
        return self.modified("resolve-results", default, u, u["owner"]) if res else None

    def _apply(self) -> Gen:
        b = self.battle_record()
        a, d = b["attacker"], b["defender"]
        fates = {u["id"]: self.fate(u) for side in (a, d) for u in self.participants(side)}
        for side in (a, d):
            for u in self.participants(side):
                f = fates.get(u["id"])
                if f in _KILLS:
                    b["killed"][side].append(u["id"])
                    yield from self.remove_unit(u, f, self.opponent_in_battle(side))
                elif "kill" in b["results"].get(str(u["id"]), []):
                    b["avoided"].append(u["id"])
        for side in (a, d):
            foe = self.opponent_in_battle(side)
            pained = [u for u in self.participants(side) if fates.get(u["id"]) == "pain"]
            if not pained:
                continue
            chooser = self.modified("retreat-chooser", side, {"side": side}, side)
            safe = [n for n in self.adjacent(b["area"]) if not self.s.units_at(n, foe)]
            if not safe:
                # the owner picks the victim even when another player directs the retreats
                # (core rulebook, Complex Battle Example 1)
                ans = yield from self.ask(side, "unit", [self.unit_label(u) for u in pained],
                                          f"{side} is surrounded: choose one pained unit to eliminate")
                u = self.s.unit(int(ans.rsplit("#", 1)[1]))
                self.emit("surrounded", side=side, unit=u["id"])
                yield from self.remove_unit(u, "eliminate", foe)
                continue
            while pained:
                if len(pained) > 1:
                    ans = yield from self.ask(chooser, "unit", [self.unit_label(u) for u in pained], "which unit retreats next?")
                    u = self.s.unit(int(ans.rsplit("#", 1)[1]))
                else:
                    u = pained[0]
                pained.remove(u)
                safe = [n for n in self.adjacent(b["area"]) if not self.s.units_at(n, foe)]
                dst = yield from self.ask(chooser, "area", safe, f"retreat {self.unit_label(u)} to")
                self.relocate(u, dst, "retreat")
        yield from self.window("retreats", {"area": b["area"]}, self.battle_players())
