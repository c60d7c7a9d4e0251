"""Battle, in the rulebooks' order: declaration, pre-battle abilities (attacker, then defender),
dice, assignment (kills and eliminations first, then pains; excess ignored), application
(removals, then retreats: attacker first; no retreat next to the foe; surrounded = one eliminated),
post-battle abilities, and spellbooks earned in the battle arriving after it.

The battle runs as frames (engine/flow.py): `BattleProc` ("battle") in the order above, with
the three parts that ask (declines, assignment, application) in engine/battle_parts.py. Their
locals are unit ids, ability keys, players and areas; the battle's own record is `State.battle`."""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from .battle_parts import KILLS
from .core import GameCore
from .flow import Call, Proc, Return, frame

MAX_ASSIGN_ROUNDS = 50


def die_face(roll: int) -> str:
    """What a battle die shows: a 6 is a kill, a 4 or 5 a pain, anything else a miss."""
    return "kill" if roll == 6 else "pain" if roll in (4, 5) else "miss"

Frame = dict[str, Any]


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
        """The battle as a frame (engine/flow.py)."""
        return Call(frame("battle", attacker=attacker, defender=defender, area=area))

    def fate(self, u: dict[str, Any]) -> str | None:
        res = self.battle_record()["results"].get(str(u["id"]), [])
        default = "eliminate" if "eliminate" in res else "kill" if "kill" in res else "pain" if "pain" in res else None
        return self.modified("resolve-results", default, u, u["owner"]) if res else None


class BattleProc(Proc):
    """One battle (frame: attacker, defender, area; `round` of assignment; `earned`, `i` at the end)."""

    name = "battle"

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        a, d, area = f["attacker"], f["defender"], f["area"]
        s.memory["battle_no"] = s.memory.get("battle_no", 0) + 1
        g.emit("battle", attacker=a, defender=d, area=area)
        f["at"] = "declared"
        return g.window_call("battle-declared", {"attacker": a, "defender": d, "area": area},
                             [d] + [p for p in g.turn_order() if p not in (a, d)])

    def declared(self, g: Any, f: Frame, value: Any) -> Any:
        a, d, area = f["attacker"], f["defender"], f["area"]
        g.s.battle = {"area": area, "attacker": a, "defender": d, "exempt": [], "results": {},
                      "taken": {}, "pending": {a: [], d: []}, "rolled": {}, "avoided": [],
                      "earned": [], "flags": [], "killed": {a: [], d: []}}
        # pre-battle abilities: the attacker's, then the defender's while both sides still have units
        f["at"] = "defender_before"
        return g.window_call("before-battle", self._sides(g), [a])

    def defender_before(self, g: Any, f: Frame, value: Any) -> Any:
        a, d = g.battle_sides()
        f["at"] = "declines"
        if g.participants(a) and g.participants(d):
            return g.window_call("before-battle", self._sides(g), [d])
        return None

    def declines(self, g: Any, f: Frame, value: Any) -> Any:
        """A side left without units ends the battle before the dice; else ongoing abilities may be declined."""
        a, d = g.battle_sides()
        if not g.participants(a) or not g.participants(d):
            g.emit("battle-over-early", area=g.battle_record()["area"])
            f["at"] = "over"
            return None
        f["at"] = "dice"
        return Call(frame("battle-declines"))

    def dice(self, g: Any, f: Frame, value: Any) -> Any:
        """Each side rolls its units' combat: a 6 is a kill, a 4 or 5 a pain, against the other side."""
        b = g.battle_record()
        for side in g.battle_sides():
            n = sum(g.combat_of(u) for u in g.participants(side))
            dice = g.roll(n, side, "battle")
            faces = [die_face(x) for x in dice]
            kills, pains = faces.count("kill"), faces.count("pain")
            b["rolled"][side] = {"dice": n, "rolls": dice, "kills": kills, "pains": pains}
            other = g.opponent_in_battle(side)
            b["pending"][other] += [{"result": "kill", "by": side}] * kills + [{"result": "pain", "by": side}] * pains
        f["i"] = 0
        f["at"] = "rolled"
        return None

    def rolled(self, g: Any, f: Frame, value: Any) -> Any:
        """The battle-roll window, for each side's own roll (attacker first)."""
        b = g.battle_record()
        if f["i"] >= 2:
            f["round"] = 0
            f["at"] = "assign_kills"
            return None
        side = g.battle_sides()[f["i"]]
        f["i"] += 1
        r = b["rolled"][side]
        return g.window_call("battle-roll", {"player": side, "dice": r["dice"], "kills": r["kills"],
                                             "pains": r["pains"], "area": b["area"]}, [side])

    # assignment: kills and eliminations, then pains, until nothing new is added
    def assign_kills(self, g: Any, f: Frame, value: Any) -> Any:
        if f["round"] >= MAX_ASSIGN_ROUNDS:
            raise RuleError("battle results keep being added without end")
        f["at"] = "kills_assigned"
        return Call(frame("battle-assign", results=list(KILLS), side=0))

    def kills_assigned(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "assign_pains"
        return g.window_call("kills-assigned", {"area": g.battle_record()["area"]}, g.battle_players())

    def assign_pains(self, g: Any, f: Frame, value: Any) -> Any:
        b = g.battle_record()
        if any(p["result"] in KILLS for side in g.battle_sides() for p in b["pending"][side]):
            f["round"] += 1
            f["at"] = "assign_kills"
            return None
        f["at"] = "pains_assigned"
        return Call(frame("battle-assign", results=["pain"], side=0))

    def pains_assigned(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "assigned"
        return g.window_call("pains-assigned", {"area": g.battle_record()["area"]}, g.battle_players())

    def assigned(self, g: Any, f: Frame, value: Any) -> Any:
        b = g.battle_record()
        if any(b["pending"][side] for side in g.battle_sides()):
            f["round"] += 1
            f["at"] = "assign_kills"
            return None
        f["at"] = "apply"
        return g.window_call("after-assignment", {"area": b["area"]}, g.battle_players())

    def apply(self, g: Any, f: Frame, value: Any) -> Any:
        """Removals, then retreats (engine/battle_parts.py)."""
        f["at"] = "after_battle"
        return Call(frame("battle-apply"))

    def after_battle(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "over"
        b = g.battle_record()
        return g.window_call("after-battle", {"area": b["area"], "attacker": b["attacker"], "defender": b["defender"]},
                             g.battle_players())

    def over(self, g: Any, f: Frame, value: Any) -> Any:
        """The battle ends (its record goes)."""
        b = g.s.battle
        g.s.battle = None
        g.emit("battle-end", area=f["area"])
        f["earned"] = [list(e) for e in b["earned"]] if b else []
        f["i"] = 0
        f["at"] = "earn"
        return None

    def earn(self, g: Any, f: Frame, value: Any) -> Any:
        """Spellbooks earned during the battle arrive after it."""
        if f["i"] >= len(f["earned"]):
            return Return(None)
        p, rid = f["earned"][f["i"]]
        f["i"] += 1
        return g.earn_after_battle_call(p, rid)

    @staticmethod
    def _sides(g: Any) -> dict[str, Any]:
        b = g.battle_record()
        return {"attacker": b["attacker"], "defender": b["defender"], "area": b["area"]}
