"""Battle, in the rulebooks' order: declaration, pre-battle abilities (attacker, then defender),
dice, assignment (kills and eliminations first, then pains; excess ignored), application
(removals, then retreats: attacker first; no retreat next to the foe; surrounded = one eliminated),
post-battle abilities, and spellbooks earned in the battle arriving after it.

The battle runs as frames (engine/flow.py): `BattleProc` ("battle") in the order above, with
`DeclinesProc`, `AssignProc` and `ApplyProc` for its three parts that ask. Their locals are
unit ids, ability keys, players and areas; the battle's own record is `State.battle`."""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from .core import BATTLE_MODIFIERS, Gen, GameCore
from .flow import Call, Proc, Return, ask, frame

MAX_ASSIGN_ROUNDS = 50
_KILLS = ["eliminate", "kill"]

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

    def battle(self, attacker: str, defender: str, area: str) -> Gen:
        """Transitional: the battle for callers still written as generators."""
        return (yield self.battle_call(attacker, defender, area))

    def _modifier_applies(self, p: str, ab: Any, mods: list[Any]) -> bool:
        """Whether any of these modifiers would apply to something in this battle."""
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
        return False

    def fate(self, u: dict[str, Any]) -> str | None:
        res = self.battle_record()["results"].get(str(u["id"]), [])
        default = "eliminate" if "eliminate" in res else "kill" if "kill" in res else "pain" if "pain" in res else None
        return self.modified("resolve-results", default, u, u["owner"]) if res else None


def _picked(answer: str) -> int:
    """The unit id of a unit option ('kind area#id')."""
    return int(answer.rsplit("#", 1)[1])


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
        a, d = g.battle_sides()
        if not g.participants(a) or not g.participants(d):
            g.emit("battle-over-early", area=g.battle_record()["area"])
            f["at"] = "over"
            return None
        f["at"] = "dice"
        return Call(frame("battle-declines"))

    def dice(self, g: Any, f: Frame, value: Any) -> Any:
        b = g.battle_record()
        for side in g.battle_sides():
            n = sum(g.combat_of(u) for u in g.participants(side))
            dice = g.roll(n, side, "battle")
            kills = sum(1 for x in dice if x == 6)
            pains = sum(1 for x in dice if x in (4, 5))
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
        return Call(frame("battle-assign", results=_KILLS, side=0))

    def kills_assigned(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "assign_pains"
        return g.window_call("kills-assigned", {"area": g.battle_record()["area"]}, g.battle_players())

    def assign_pains(self, g: Any, f: Frame, value: Any) -> Any:
        b = g.battle_record()
        if any(p["result"] in _KILLS for side in g.battle_sides() for p in b["pending"][side]):
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
        f["at"] = "after_battle"
        return Call(frame("battle-apply"))

    def after_battle(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "over"
        b = g.battle_record()
        return g.window_call("after-battle", {"area": b["area"], "attacker": b["attacker"], "defender": b["defender"]},
                             g.battle_players())

    def over(self, g: Any, f: Frame, value: Any) -> Any:
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


class DeclinesProc(Proc):
    """Abilities are optional, ongoing ones included (core rulebook, Special Abilities): before
    the dice, each owner of an ongoing ability that would change this battle may decline it.
    (Frame: `players` in battle order, `pi` the one asked now, `keys` its optional static
    abilities, `ai` the next of them, `key` the one asked about.)"""

    name = "battle-declines"

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        g.battle_record()["declined"] = []
        f.update(players=g.battle_players(), pi=0, keys=None, ai=0)
        f["at"] = "next"
        return None

    def next(self, g: Any, f: Frame, value: Any) -> Any:
        while True:
            if f["keys"] is None:
                if f["pi"] >= len(f["players"]):
                    return Return(None)
                p = f["players"][f["pi"]]
                f["keys"] = [ab.key for ab in g.active_abilities(p) if ab.window == "static" and ab.optional]
                f["ai"] = 0
            p = f["players"][f["pi"]]
            if f["ai"] >= len(f["keys"]):
                f["pi"] += 1
                f["keys"] = None
                continue
            ab = g.ability_by_key(f["keys"][f["ai"]])
            f["ai"] += 1
            mods = [m for m in ab.modifiers if m.target in BATTLE_MODIFIERS]
            if not mods or not g._modifier_applies(p, ab, mods):
                continue
            f["key"] = ab.key
            f["at"] = "answered"
            return ask(p, "option", [f"use {ab.id}", f"decline {ab.id}"], f"use {ab.name} in this battle?")

    def answered(self, g: Any, f: Frame, value: Any) -> Any:
        if value.startswith("decline"):
            p = f["players"][f["pi"]]
            g.battle_record()["declined"].append([p, f["key"]])
            g.emit("declined", player=p, ability=f["key"])
        f["at"] = "next"
        return None


class AssignProc(Proc):
    """Assign the pending results of the kinds `results` to the sides' units, attacker's first,
    in the order they were added; a result no unit can take is ignored. (Frame: `side` index,
    `item` the result being assigned.)"""

    name = "battle-assign"

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        b = g.battle_record()
        sides = g.battle_sides()
        while f["side"] < len(sides):
            side = sides[f["side"]]
            todo = [p for p in b["pending"][side] if p["result"] in f["results"]]
            if not todo:
                f["side"] += 1
                continue
            item = todo[0]
            b["pending"][side].remove(item)
            units = g.eligible(side, item.get("classes"))
            if not units:
                g.emit("result-ignored", side=side, result=item["result"])
                continue
            chooser = g.modified("assign-chooser", side, {"side": side, "result": item["result"]}, side)
            f["item"] = dict(item)
            f["at"] = "chosen"
            return ask(chooser, "unit", [g.unit_label(u) for u in units], f"assign a {item['result']} to one of {side}'s units")
        return Return(None)

    def chosen(self, g: Any, f: Frame, value: Any) -> Any:
        b = g.battle_record()
        side = g.battle_sides()[f["side"]]
        item = f.pop("item")
        u = g.s.unit(_picked(value))
        key = str(u["id"])
        b["results"].setdefault(key, []).append(item["result"])
        b["taken"][key] = b["taken"].get(key, 0) + 1
        g.emit("result", unit=u["id"], kind=u["kind"], side=side, result=item["result"])
        f["at"] = "start"
        return g.window_call("result-assigned", {"unit": dict(u), "result": item["result"], "side": side,
                                                 "by": item.get("by")}, g.battle_players())


class ApplyProc(Proc):
    """Apply the results: kills and eliminations first (attacker's units, then defender's), then
    retreats side by side. (Frame: `fates` by unit id as decided before any removal, `si` the
    side, `units`/`i` the units to go through, `pained`, `chooser` and `unit` for retreats.)"""

    name = "battle-apply"

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        f["fates"] = {str(u["id"]): g.fate(u) for side in g.battle_sides() for u in g.participants(side)}
        f.update(si=0, units=None, i=0)
        f["at"] = "removals"
        return None

    def removals(self, g: Any, f: Frame, value: Any) -> Any:
        b = g.battle_record()
        sides = g.battle_sides()
        while f["si"] < len(sides):
            side = sides[f["si"]]
            if f["units"] is None:
                f["units"] = [u["id"] for u in g.participants(side)]
                f["i"] = 0
            if f["i"] >= len(f["units"]):
                f["si"] += 1
                f["units"] = None
                continue
            u = g.s.unit(f["units"][f["i"]])
            f["i"] += 1
            fate = f["fates"].get(str(u["id"]))
            if fate in _KILLS:
                b["killed"][side].append(u["id"])
                return g.remove_unit_call(u, fate, g.opponent_in_battle(side))
            if "kill" in b["results"].get(str(u["id"]), []):
                b["avoided"].append(u["id"])
        f["si"] = 0
        f["at"] = "retreats"
        return None

    def retreats(self, g: Any, f: Frame, value: Any) -> Any:
        b = g.battle_record()
        sides = g.battle_sides()
        while f["si"] < len(sides):
            side = sides[f["si"]]
            foe = g.opponent_in_battle(side)
            pained = [u["id"] for u in g.participants(side) if f["fates"].get(str(u["id"])) == "pain"]
            if not pained:
                f["si"] += 1
                continue
            f["chooser"] = g.modified("retreat-chooser", side, {"side": side}, side)
            safe = [n for n in g.adjacent(b["area"]) if not g.s.units_at(n, foe)]
            f["pained"] = pained
            if not safe:
                # the owner picks the victim even when another player directs the retreats
                # (core rulebook, Complex Battle Example 1)
                f["at"] = "surrounded"
                return ask(side, "unit", self._labels(g, pained), f"{side} is surrounded: choose one pained unit to eliminate")
            f["at"] = "retreat_next"
            return None
        f["at"] = "done"
        return g.window_call("retreats", {"area": b["area"]}, g.battle_players())

    def surrounded(self, g: Any, f: Frame, value: Any) -> Any:
        side = g.battle_sides()[f["si"]]
        u = g.s.unit(_picked(value))
        g.emit("surrounded", side=side, unit=u["id"])
        f["si"] += 1
        f["at"] = "retreats"
        return g.remove_unit_call(u, "eliminate", g.opponent_in_battle(side))

    def retreat_next(self, g: Any, f: Frame, value: Any) -> Any:
        pained = f["pained"]
        if not pained:
            f["si"] += 1
            f["at"] = "retreats"
            return None
        if len(pained) > 1:
            f["at"] = "retreat_picked"
            return ask(f["chooser"], "unit", self._labels(g, pained), "which unit retreats next?")
        return self._retreat(g, f, pained[0])

    def retreat_picked(self, g: Any, f: Frame, value: Any) -> Any:
        return self._retreat(g, f, _picked(value))

    def _retreat(self, g: Any, f: Frame, uid: int) -> Any:
        f["pained"].remove(uid)
        f["unit"] = uid
        side = g.battle_sides()[f["si"]]
        foe = g.opponent_in_battle(side)
        safe = [n for n in g.adjacent(g.battle_record()["area"]) if not g.s.units_at(n, foe)]
        f["at"] = "retreat_to"
        return ask(f["chooser"], "area", safe, f"retreat {g.unit_label(g.s.unit(uid))} to")

    def retreat_to(self, g: Any, f: Frame, value: Any) -> Any:
        g.relocate(g.s.unit(f["unit"]), value, "retreat")
        f["at"] = "retreat_next"
        return None

    def done(self, g: Any, f: Frame, value: Any) -> Any:
        return Return(None)

    @staticmethod
    def _labels(g: Any, ids: list[int]) -> list[str]:
        return [g.unit_label(g.s.unit(i)) for i in ids]
