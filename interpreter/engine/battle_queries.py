"""A battle's questions: its sides, the units taking part, what a unit can take and what becomes of
it, the players in battle order. The battle itself runs as frames: battle.py, battle_parts.py."""
from __future__ import annotations

from typing import Any

from .flow import Call, frame
from .host import RulesContext
from . import basics
from .basics import integer, uclass
from . import core
from .core import turn_order


def battle_sides(g: "RulesContext") -> tuple[str, str]:
    b = basics.battle_record(g)
    return b["attacker"], b["defender"]


def opponent_in_battle(g: "RulesContext", side: str) -> str:
    a, d = battle_sides(g)
    return d if side == a else a


def participants(g: "RulesContext", side: str) -> list[dict[str, Any]]:
    """`side`'s units in the battle's area but those exempt from it, in the order of `State.units`:
    the unit index's list of that owner at that place (state.py), not a scan of every unit."""
    b = basics.battle_record(g)
    exempt = b["exempt"]
    here = g.s.units_at(b["area"], side)
    return [u for u in here if u["id"] not in exempt] if exempt else here


def battle_players(g: "RulesContext") -> list[str]:
    a, d = battle_sides(g)
    return [a, d] + [p for p in turn_order(g) if p not in (a, d)]


def capacity(g: "RulesContext", u: dict[str, Any]) -> int:
    return integer(g, core.modified(g, "result-capacity", 1, u, u["owner"]), "result capacity")


def eligible(g: "RulesContext", side: str, classes: list[str] | None) -> list[dict[str, Any]]:
    b = basics.battle_record(g)
    out = []
    for u in participants(g, side):
        if b["taken"].get(str(u["id"]), 0) >= capacity(g, u):
            continue
        if classes is not None and uclass(g, u) not in classes:
            continue
        out.append(u)
    return out


def battle_call(g: "RulesContext", attacker: str, defender: str, area: str) -> Call:
    """The battle as a frame (engine/flow.py)."""
    return Call(frame("battle", attacker=attacker, defender=defender, area=area))


def fate(g: "RulesContext", u: dict[str, Any]) -> str | None:
    res = basics.battle_record(g)["results"].get(str(u["id"]), [])
    default = "eliminate" if "eliminate" in res else "kill" if "kill" in res else "pain" if "pain" in res else None
    return core.modified(g, "resolve-results", default, u, u["owner"]) if res else None
