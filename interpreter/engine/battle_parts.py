"""The three parts of a battle that ask (engine/battle.py runs them in order): declining ongoing
abilities before the dice, assigning the results, and applying them (removals, then retreats).
Each is a flow procedure (engine/flow.py) whose frame holds unit ids, ability keys and players."""
from __future__ import annotations

from typing import Any

from ..effects.subject_guards import rejects
from .abilities import BATTLE_MODIFIERS
from .flow import Proc, Return, ask
from .option import Option, label_of, parse, unit_of_label
from . import abilities
from . import basics
from .basics import emit
from . import battle_queries
from . import core
from . import state as state_module

KILLS = ["eliminate", "kill"]   # the results that remove a unit

Frame = dict[str, Any]


def _picked(answer: str) -> int:
    """The unit id of a unit option."""
    return unit_of_label(answer)


def _modifier_applies(g: Any, p: str, ab: Any, mods: list[Any]) -> bool:
    """Whether any of these modifiers would apply to something in this battle."""
    sides = battle_queries.battle_sides(g)   # (read once: the subjects are made in one step)
    subjects: list[Any] = [u for side in sides for u in battle_queries.participants(g, side)]
    subjects += [{"side": side, "result": r} for side in sides for r in ("kill", "pain")]
    subjects += [{"side": side} for side in sides]
    for m in mods:
        for subj in subjects:
            if m.target in ("retreat-chooser", "assign-chooser") and "side" not in subj:
                continue
            if m.target not in ("retreat-chooser", "assign-chooser") and "side" in subj:
                continue
            if m.guards and rejects(m.guards, subj, p):
                if state_module.CHECK_MEMO and _holds(g, p, ab, m, subj):
                    raise AssertionError(f"{ab.key}: its subject guards {m.guards!r} rejected {subj!r}, "
                                         "but its condition holds")
                continue   # its `when` is false for this subject (effects/subject_guards.py): no context made
            if _holds(g, p, ab, m, subj):
                return True
    return False


def _holds(g: Any, p: str, ab: Any, m: Any, subj: Any) -> bool:
    """Whether modifier `m` of `p`'s ability `ab` would apply to `subj` (no `when`: it would)."""
    try:
        return m.when is None or bool(m.when(core.ctx(g, p, ability=ab, subject=subj, value=None)))
    except Exception:  # noqa: BLE001 - a condition that cannot judge this subject does not apply
        return False


class DeclinesProc(Proc):
    """Abilities are optional, ongoing ones included (core rulebook, Special Abilities): before
    the dice, each owner of an ongoing ability that would change this battle may decline it.
    (Frame: `players` in battle order, `pi` the one asked now, `keys` its optional static
    abilities, `ai` the next of them, `key` the one asked about.)"""

    name = "battle-declines"
    STEPS = ("start", "next", "answered")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        basics.battle_record(g)["declined"] = []
        f.update(players=battle_queries.battle_players(g), pi=0, keys=None, ai=0)
        f["at"] = "next"
        return None

    def next(self, g: Any, f: Frame, value: Any) -> Any:
        while True:
            if f["keys"] is None:
                if f["pi"] >= len(f["players"]):
                    return Return(None)
                p = f["players"][f["pi"]]
                f["keys"] = [ab.key for ab in abilities.active_abilities(g, p) if ab.window == "static" and ab.optional]
                f["ai"] = 0
            p = f["players"][f["pi"]]
            if f["ai"] >= len(f["keys"]):
                f["pi"] += 1
                f["keys"] = None
                continue
            ab = abilities.ability_by_key(g, f["keys"][f["ai"]])
            f["ai"] += 1
            mods = [m for m in ab.modifiers if m.target in BATTLE_MODIFIERS]
            if not mods or not _modifier_applies(g, p, ab, mods):
                continue
            f["key"] = ab.key
            f["at"] = "answered"
            return ask(p, "option", [label_of(Option("option", "use", ability=ab.id)),
                                     label_of(Option("option", "decline", ability=ab.id))], f"use {ab.name} in this battle?")

    def answered(self, g: Any, f: Frame, value: Any) -> Any:
        if parse("option", value).verb == "decline":
            p = f["players"][f["pi"]]
            basics.battle_record(g)["declined"].append([p, f["key"]])
            emit(g, "declined", player=p, ability=f["key"])
        f["at"] = "next"
        return None


class AssignProc(Proc):
    """Assign the pending results of the kinds `results` to the sides' units, attacker's first,
    in the order they were added; a result no unit can take is ignored. (Frame: `side` index,
    `item` the result being assigned.)"""

    name = "battle-assign"
    STEPS = ("start", "chosen")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        b = basics.battle_record(g)
        sides = battle_queries.battle_sides(g)
        while f["side"] < len(sides):
            side = sides[f["side"]]
            todo = [p for p in b["pending"][side] if p["result"] in f["results"]]
            if not todo:
                f["side"] += 1
                continue
            item = todo[0]
            b["pending"][side].remove(item)
            units = battle_queries.eligible(g, side, item.get("classes"))
            if not units:
                emit(g, "result-ignored", side=side, result=item["result"])
                continue
            chooser = core.modified(g, "assign-chooser", side, {"side": side, "result": item["result"]}, side)
            f["item"] = dict(item)
            f["at"] = "chosen"
            return ask(chooser, "unit", [basics.unit_label(g, u) for u in units], f"assign a {item['result']} to one of {side}'s units")
        return Return(None)

    def chosen(self, g: Any, f: Frame, value: Any) -> Any:
        b = basics.battle_record(g)
        side = battle_queries.battle_sides(g)[f["side"]]
        item = f.pop("item")
        u = g.s.unit(_picked(value))
        key = str(u["id"])
        b["results"].setdefault(key, []).append(item["result"])
        b["taken"][key] = b["taken"].get(key, 0) + 1
        emit(g, "result", unit=u["id"], kind=u["kind"], side=side, result=item["result"])
        f["at"] = "start"
        return core.window_call(g, "result-assigned", {"unit": dict(u), "result": item["result"], "side": side,
                                                 "by": item.get("by")}, battle_queries.battle_players(g))


class ApplyProc(Proc):
    """Apply the results: kills and eliminations first (attacker's units, then defender's), then
    retreats side by side. (Frame: `fates` by unit id as decided before any removal, `si` the
    side, `units`/`i` the units to go through, `pained`, `chooser` and `unit` for retreats.)"""

    name = "battle-apply"
    STEPS = ("start", "removals", "retreats", "surrounded", "retreat_next", "retreat_picked", "retreat_to",
             "done")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        f["fates"] = {str(u["id"]): battle_queries.fate(g, u) for side in battle_queries.battle_sides(g) for u in battle_queries.participants(g, side)}
        f.update(si=0, units=None, i=0)
        f["at"] = "removals"
        return None

    def removals(self, g: Any, f: Frame, value: Any) -> Any:
        b = basics.battle_record(g)
        sides = battle_queries.battle_sides(g)
        while f["si"] < len(sides):
            side = sides[f["si"]]
            if f["units"] is None:
                f["units"] = [u["id"] for u in battle_queries.participants(g, side)]
                f["i"] = 0
            if f["i"] >= len(f["units"]):
                f["si"] += 1
                f["units"] = None
                continue
            u = g.s.unit(f["units"][f["i"]])
            f["i"] += 1
            fate = f["fates"].get(str(u["id"]))
            if fate in KILLS:
                b["killed"][side].append(u["id"])
                return core.remove_unit_call(g, u, fate, battle_queries.opponent_in_battle(g, side))
            if "kill" in b["results"].get(str(u["id"]), []):
                b["avoided"].append(u["id"])
        f["si"] = 0
        f["at"] = "retreats"
        return None

    def retreats(self, g: Any, f: Frame, value: Any) -> Any:
        b = basics.battle_record(g)
        sides = battle_queries.battle_sides(g)
        while f["si"] < len(sides):
            side = sides[f["si"]]
            foe = battle_queries.opponent_in_battle(g, side)
            pained = [u["id"] for u in battle_queries.participants(g, side) if f["fates"].get(str(u["id"])) == "pain"]
            if not pained:
                f["si"] += 1
                continue
            f["chooser"] = core.modified(g, "retreat-chooser", side, {"side": side}, side)
            f["pained"] = pained
            if not self._safe_areas(g, b["area"], foe):
                # the owner picks the victim even when another player directs the retreats
                # (core rulebook, Complex Battle Example 1)
                f["at"] = "surrounded"
                return ask(side, "unit", self._labels(g, pained), f"{side} is surrounded: choose one pained unit to eliminate")
            f["at"] = "retreat_next"
            return None
        f["at"] = "done"
        return core.window_call(g, "retreats", {"area": b["area"]}, battle_queries.battle_players(g))

    def surrounded(self, g: Any, f: Frame, value: Any) -> Any:
        side = battle_queries.battle_sides(g)[f["si"]]
        u = g.s.unit(_picked(value))
        emit(g, "surrounded", side=side, unit=u["id"])
        f["si"] += 1
        f["at"] = "retreats"
        return core.remove_unit_call(g, u, "eliminate", battle_queries.opponent_in_battle(g, side))

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
        side = battle_queries.battle_sides(g)[f["si"]]
        safe = self._safe_areas(g, basics.battle_record(g)["area"], battle_queries.opponent_in_battle(g, side))
        f["at"] = "retreat_to"
        return ask(f["chooser"], "area", safe, f"retreat {basics.unit_label(g, g.s.unit(uid))} to")

    def retreat_to(self, g: Any, f: Frame, value: Any) -> Any:
        core.relocate(g, g.s.unit(f["unit"]), value, "retreat")
        f["at"] = "retreat_next"
        return None

    def done(self, g: Any, f: Frame, value: Any) -> Any:
        return Return(None)

    @staticmethod
    def _safe_areas(g: Any, area: str, foe: str) -> list[str]:
        """Where a pained unit may retreat: the areas next to the battle's with none of the foe's
        units (core rulebook, Battle: Retreats)."""
        return [n for n in basics.adjacent(g, area) if not g.s.count_at(n, foe)]

    @staticmethod
    def _labels(g: Any, ids: list[int]) -> list[str]:
        return [basics.unit_label(g, g.s.unit(i)) for i in ids]
