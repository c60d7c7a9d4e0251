"""Independent Great Old Ones' requirements as frames (engine/flow.py): checking a player's loyalty
cards' requirements (checked as a faction's are: requirements.py) and earning one (its spellbook
goes on the loyalty card). Started by `independents.*_call` (independents.py)."""
from __future__ import annotations

from typing import Any

from . import flow
from .core_procs import EarnSteps
from .flow import Proc, Return
from .held_conditions import met_now
from .requirements import earn_after_battle, requirement
from . import basics
from .basics import emit
from . import core
from . import independents

Game = Any   # the rules context (rules.Rules)
Frame = dict[str, Any]


class CheckLoyaltyRequirements(Proc):
    """The requirements of the loyalty cards a player holds that are met now (`when` as for the
    faction's): each earns its spellbook at once, or after the battle under way."""

    name = "loyalty-requirements"
    STEPS = ("start", "scan")

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        f["todo"] = [[card, r.id] for card, r in independents.loyalty_requirements(g, f["player"])]
        f["at"], f["k"] = "scan", 0
        return None

    def scan(self, g: Game, f: Frame, value: Any) -> Any:
        p, when, todo = f["player"], f["when"], f["todo"]
        while f["k"] < len(todo):
            card, rid = todo[f["k"]]
            f["k"] += 1
            key = f"{card}/{rid}"
            r = requirement(g, p, key)   # an unknown (illegible) requirement is never met
            if r is not None and met_now(g, p, key, r, when, f["event"]) and not earn_after_battle(g, p, key):
                return independents.earn_loyalty_call(g, p, card, r.id)
        return Return()


class EarnLoyalty(EarnSteps):
    """A loyalty card's requirement is met: its spellbook goes on the loyalty card (never the faction card)."""

    name = "earn-loyalty"
    STEPS = ("start", "book", "done")

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        p, card = f["player"], f["card"]
        r = requirement(g, p, f"{card}/{f['req']}")
        rec = g.s.loyalty.get(card)
        if r is None or rec is None or card not in independents.controlled_cards(g, p) or r.id in rec["requirements"]:
            return Return()
        rec["requirements"].append(r.id)
        emit(g, "requirement", player=p, requirement=f"{card}/{r.id}")
        lc = g.content.loyalty_cards[card]
        left = [b for b, sb in lc.spellbooks.items() if b not in rec["spellbooks"] and not sb.unknown]
        f["at"] = "book"
        if left:
            return flow.ask(p, "spellbook", left, f"{lc.name}: {r.text}: choose its spellbook")
        return self.effect(g, f, None)

    def book(self, g: Game, f: Frame, value: Any) -> Any:
        independents.add_loyalty_spellbook(g, g.s.loyalty[f["card"]], value)
        emit(g, "spellbook", player=f["player"], spellbook=value, card=f["card"])
        return self.effect(g, f, None)

    def requirement_key(self, f: Frame) -> str:
        return f"{f['card']}/{f['req']}"
