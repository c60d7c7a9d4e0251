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
from .flow import Call, Proc, Return, frame
from . import basics
from .basics import emit
from . import battle_queries
from . import core
from .core import combat_of, turn_order
from . import independents

MAX_ASSIGN_ROUNDS = 50


def die_face(roll: int) -> str:
    """What a battle die shows: a 6 is a kill, a 4 or 5 a pain, anything else a miss."""
    return "kill" if roll == 6 else "pain" if roll in (4, 5) else "miss"

Frame = dict[str, Any]




class BattleProc(Proc):
    """One battle (frame: attacker, defender, area; `round` of assignment; `earned`, `i` at the end)."""

    name = "battle"
    STEPS = ("start", "declared", "defender_before", "declines", "dice", "rolled", "assign_kills",
             "kills_assigned", "assign_pains", "pains_assigned", "assigned", "apply", "after_battle", "over",
             "earn")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        a, d, area = f["attacker"], f["defender"], f["area"]
        s.memory["battle_no"] = s.memory.get("battle_no", 0) + 1
        emit(g, "battle", attacker=a, defender=d, area=area)
        f["at"] = "declared"
        return core.window_call(g, "battle-declared", {"attacker": a, "defender": d, "area": area},
                             [d] + [p for p in turn_order(g) if p not in (a, d)])

    def declared(self, g: Any, f: Frame, value: Any) -> Any:
        a, d, area = f["attacker"], f["defender"], f["area"]
        g.s.battle = {"area": area, "attacker": a, "defender": d, "exempt": [], "results": {},
                      "taken": {}, "pending": {a: [], d: []}, "rolled": {}, "avoided": [],
                      "earned": [], "flags": [], "killed": {a: [], d: []}}
        # pre-battle abilities: the attacker's, then the defender's while both sides still have units
        f["at"] = "defender_before"
        return core.window_call(g, "before-battle", self._sides(g), [a])

    def defender_before(self, g: Any, f: Frame, value: Any) -> Any:
        a, d = battle_queries.battle_sides(g)
        f["at"] = "declines"
        if battle_queries.participants(g, a) and battle_queries.participants(g, d):
            return core.window_call(g, "before-battle", self._sides(g), [d])
        return None

    def declines(self, g: Any, f: Frame, value: Any) -> Any:
        """A side left without units ends the battle before the dice; else ongoing abilities may be declined."""
        a, d = battle_queries.battle_sides(g)
        if not battle_queries.participants(g, a) or not battle_queries.participants(g, d):
            emit(g, "battle-over-early", area=basics.battle_record(g)["area"])
            f["at"] = "over"
            return None
        f["at"] = "dice"
        return Call(frame("battle-declines"))

    def dice(self, g: Any, f: Frame, value: Any) -> Any:
        """Each side rolls its units' combat: a 6 is a kill, a 4 or 5 a pain, against the other side."""
        b = basics.battle_record(g)
        for side in battle_queries.battle_sides(g):
            n = sum(combat_of(g, u) for u in battle_queries.participants(g, side))
            dice = basics.roll(g, n, side, "battle")
            faces = [die_face(x) for x in dice]
            kills, pains = faces.count("kill"), faces.count("pain")
            b["rolled"][side] = {"dice": n, "rolls": dice, "kills": kills, "pains": pains}
            other = battle_queries.opponent_in_battle(g, side)
            b["pending"][other] += [{"result": "kill", "by": side}] * kills + [{"result": "pain", "by": side}] * pains
        f["i"] = 0
        f["at"] = "rolled"
        return None

    def rolled(self, g: Any, f: Frame, value: Any) -> Any:
        """The battle-roll window, for each side's own roll (attacker first)."""
        b = basics.battle_record(g)
        if f["i"] >= 2:
            f["round"] = 0
            f["at"] = "assign_kills"
            return None
        side = battle_queries.battle_sides(g)[f["i"]]
        f["i"] += 1
        r = b["rolled"][side]
        return core.window_call(g, "battle-roll", {"player": side, "dice": r["dice"], "kills": r["kills"],
                                             "pains": r["pains"], "area": b["area"]}, [side])

    # assignment: kills and eliminations, then pains, until nothing new is added
    def assign_kills(self, g: Any, f: Frame, value: Any) -> Any:
        if f["round"] >= MAX_ASSIGN_ROUNDS:
            raise RuleError("battle results keep being added without end")
        f["at"] = "kills_assigned"
        return Call(frame("battle-assign", results=list(KILLS), side=0))

    def kills_assigned(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "assign_pains"
        return core.window_call(g, "kills-assigned", {"area": basics.battle_record(g)["area"]}, battle_queries.battle_players(g))

    def assign_pains(self, g: Any, f: Frame, value: Any) -> Any:
        b = basics.battle_record(g)
        if any(p["result"] in KILLS for side in battle_queries.battle_sides(g) for p in b["pending"][side]):
            f["round"] += 1
            f["at"] = "assign_kills"
            return None
        f["at"] = "pains_assigned"
        return Call(frame("battle-assign", results=["pain"], side=0))

    def pains_assigned(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "assigned"
        return core.window_call(g, "pains-assigned", {"area": basics.battle_record(g)["area"]}, battle_queries.battle_players(g))

    def assigned(self, g: Any, f: Frame, value: Any) -> Any:
        b = basics.battle_record(g)
        if any(b["pending"][side] for side in battle_queries.battle_sides(g)):
            f["round"] += 1
            f["at"] = "assign_kills"
            return None
        f["at"] = "apply"
        return core.window_call(g, "after-assignment", {"area": b["area"]}, battle_queries.battle_players(g))

    def apply(self, g: Any, f: Frame, value: Any) -> Any:
        """Removals, then retreats (engine/battle_parts.py)."""
        f["at"] = "after_battle"
        return Call(frame("battle-apply"))

    def after_battle(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "over"
        b = basics.battle_record(g)
        return core.window_call(g, "after-battle", {"area": b["area"], "attacker": b["attacker"], "defender": b["defender"]},
                             battle_queries.battle_players(g))

    def over(self, g: Any, f: Frame, value: Any) -> Any:
        """The battle ends (its record goes)."""
        b = g.s.battle
        g.s.battle = None
        emit(g, "battle-end", area=f["area"])
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
        return independents.earn_after_battle_call(g, p, rid)

    @staticmethod
    def _sides(g: Any) -> dict[str, Any]:
        b = basics.battle_record(g)
        return {"attacker": b["attacker"], "defender": b["defender"], "area": b["area"]}
