"""Independent Great Old Ones: figures from loyalty cards that any player may awaken and control.

The rules (Independent Great Old Ones rulebook, "Awakening", "Death", "Spellbook", "Doom Phase"):
- the card says how to awaken it; the awakening player takes the card and controls the figure;
  a player may control any number of them, and one may help to awaken another;
- its spellbook is earned on the loyalty card, never on the faction card (no Unlimited Battle, not
  one of the six spellbooks needed to win); it works while you control the Independent;
- when the figure is killed (or otherwise returns to the pool) card, figure and spellbook go back to
  the general pool; an earned spellbook "falls off" and must be earned anew;
- a Ritual of Annihilation gives no elder sign for Independents (phases.ritual counts only the
  faction's own Great Old Ones).

In the state, a figure nobody controls is owned by GENERAL and lies in the pool; the card's
earned requirements and spellbooks are kept in `State.loyalty[card]`.
"""
from __future__ import annotations

from typing import Any

from ..content.model import Ability, Requirement, UnitType
from ..diagnostics import did_you_mean
from ..effects.compiler import RuleError
from .core import GameCore
from . import flow, loyalty_procs  # noqa: F401  (loyalty_procs: its procedures register)
from .flow import Call
from .requirements import requirement
from .state import GENERAL, POOL


class IndependentsMixin(GameCore):
    # ---- which cards a game uses -------------------------------------------------------------
    def choose_independents(self, factions: list[str], asked: list[str] | None) -> tuple[list[str], list[str]]:
        """The loyalty cards of a game and notes on the cards left out.

        Asked for by name: each must exist and be playable (no unknown value without an
        interpretation), else the game is refused. Not named: every playable card whose Great Old
        One's faction is not playing ("we do NOT recommend" using it then); the others are noted.
        """
        cards = self.content.loyalty_cards
        unknowns = self.content.loyalty_unknowns
        if asked is not None:
            for c in asked:
                if c not in cards:
                    raise RuleError(f"unknown Independent Great Old One '{c}'{did_you_mean(c, cards)}")
                if unknowns.get(c):
                    raise RuleError(f"Independent '{c}' cannot be played: {'; '.join(unknowns[c])} "
                                    "(the content must name an interpretation first)")
            if len(set(asked)) != len(asked):
                raise RuleError("an Independent Great Old One can be in a game only once")
            return list(asked), []
        chosen, notes = [], []
        for c in sorted(cards):
            if unknowns.get(c):
                notes.append(f"{c}: refused ({'; '.join(unknowns[c])})")
            elif self.content.loyalty_counterparts.get(c) in factions:
                notes.append(f"{c}: left out because {self.content.loyalty_counterparts[c]} is playing")
            else:
                chosen.append(c)
        return chosen, notes

    # ---- lookups --------------------------------------------------------------------------------
    def card_of_kind(self, kind: str) -> str | None:
        """The loyalty card (of this game) whose figure is of this kind."""
        for card, rec in self.s.loyalty.items():
            if rec["kind"] == kind:
                return card
        return None

    def controlled_cards(self, p: str) -> list[str]:
        """The loyalty cards a player holds: those whose figure the player controls."""
        if not self.s.loyalty:
            return []
        card_of = {rec["kind"]: card for card, rec in self.s.loyalty.items()}
        return list(dict.fromkeys(card_of[u["kind"]] for u in self.s.units
                                  if u["owner"] == p and u["kind"] in card_of))

    def awaken_types(self, p: str) -> list[UnitType]:
        """Great Old Ones the player could awaken: its faction's and the Independents nobody controls."""
        out = list(self.faction(p).goos)
        for card, rec in self.s.loyalty.items():
            if self.s.pool(GENERAL, rec["kind"]):
                out.append(self.content.loyalty_cards[card].units[rec["kind"]])
        return out

    def awaken_type(self, p: str, kind: str) -> UnitType | None:
        t = self.faction(p).units.get(kind)
        if t is not None:
            return t
        card = self.card_of_kind(kind)
        return self.content.loyalty_cards[card].units[kind] if card is not None else None

    def awaken_pool(self, p: str, kind: str) -> list[dict[str, Any]]:
        """The figures of this kind the player may awaken: from its pool, or the general pool."""
        return self.s.pool(p, kind) or (self.s.pool(GENERAL, kind) if self.card_of_kind(kind) else [])

    # ---- control and release ----------------------------------------------------------------------
    def take_control(self, p: str, u: dict[str, Any]) -> None:
        if u["owner"] == GENERAL:
            u["owner"] = p
            self.state_written()
            self.emit("independent", card=self.card_of_kind(u["kind"]), player=p, change="takes")

    def release_if_independent(self, u: dict[str, Any]) -> None:
        """A controlled Independent back in the pool returns to the general pool; its spellbook falls off."""
        if u["loc"] != POOL or u["owner"] == GENERAL or not self.s.loyalty:
            return
        card = self.card_of_kind(u["kind"])
        if card is None:
            return
        rec = self.s.loyalty[card]
        self.emit("independent", card=card, player=u["owner"], change="returns", lost=list(rec["spellbooks"]))
        u["owner"] = GENERAL
        rec["spellbooks"] = []
        rec["requirements"] = []
        self.state_written()

    def add_loyalty_spellbook(self, rec: dict[str, Any], book: str) -> None:
        rec["spellbooks"].append(book)
        self.state_written()

    # ---- abilities and spellbooks of the cards --------------------------------------------------------
    def loyalty_abilities(self, p: str, in_play: set[str]) -> list[Ability]:
        out: list[Ability] = []
        for card in self.controlled_cards(p):
            rec = self.s.loyalty[card]
            lc = self.content.loyalty_cards[card]
            t = lc.units[rec["kind"]]
            if t.id in in_play:
                out.extend(t.abilities)
            for book in rec["spellbooks"]:
                sb = lc.spellbooks.get(book)
                if sb is not None:
                    out.extend(sb.abilities)
        return out

    def loyalty_requirements(self, p: str) -> list[tuple[str, Requirement]]:
        out = []
        for card in self.controlled_cards(p):
            done = self.s.loyalty[card]["requirements"]
            out.extend((card, r) for r in self.content.loyalty_cards[card].requirements if r.id not in done)
        return out

    # ---- as frames (engine/flow.py, loyalty_procs.py): what other procedures call ----------------
    def check_loyalty_requirements_call(self, p: str, when: str, event: dict[str, Any] | None) -> Call:
        return Call(flow.frame("loyalty-requirements", player=p, when=when, event=event))

    def earn_loyalty_call(self, p: str, card: str, rid: str) -> Call:
        return Call(flow.frame("earn-loyalty", player=p, card=card, req=rid))

    def earn_after_battle_call(self, p: str, key: str) -> Call:
        """A requirement met during a battle (a faction's id, or 'card/id' for a loyalty card)."""
        if "/" in key:
            card, rid = key.split("/", 1)
            return self.earn_loyalty_call(p, card, rid)
        return self.earn_call(p, requirement(self, p, key))
