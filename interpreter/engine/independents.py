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
from .core import Gen, GameCore
from .flow import Call, legacy
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

    # ---- as frames (engine/flow.py): what other procedures call (transitional, see core.py) ----
    def check_loyalty_requirements_call(self, p: str, when: str, event: dict[str, Any] | None) -> Call:
        return legacy(self, self.check_loyalty_requirements(p, when, event))  # type: ignore[arg-type]

    def earn_after_battle_call(self, p: str, key: str) -> Call:
        return legacy(self, self.earn_after_battle(p, key))  # type: ignore[arg-type]

    def earn_loyalty(self, p: str, card: str, r: Requirement) -> Gen:
        """A loyalty card's requirement is met: its spellbook goes on the loyalty card (never the faction card)."""
        rec = self.s.loyalty.get(card)
        if rec is None or card not in self.controlled_cards(p) or r.id in rec["requirements"]:
            return
        rec["requirements"].append(r.id)
        self.emit("requirement", player=p, requirement=f"{card}/{r.id}")
        lc = self.content.loyalty_cards[card]
        left = [b for b, sb in lc.spellbooks.items() if b not in rec["spellbooks"] and not sb.unknown]
        if left:
            book = yield from self.ask(p, "spellbook", left, f"{lc.name}: {r.text}: choose its spellbook")
            rec["spellbooks"].append(book)
            self.emit("spellbook", player=p, spellbook=book, card=card)
        if r.effect is not None:
            ctx = self.ctx(p)
            ctx.ability = f"requirement {card}/{r.id}"
            yield from r.effect(ctx)

    def check_loyalty_requirements(self, p: str, when: str, event: dict[str, Any] | None) -> Gen:
        for card, r in self.loyalty_requirements(p):
            if r.condition is None:
                continue  # unknown (illegible) requirements are never met
            if r.when != when and not (when == "state" and r.when == "action"):
                continue
            key = f"{card}/{r.id}"
            if any(e[0] == p and e[1] == key for e in (self.s.battle or {}).get("earned", [])):
                continue
            if r.condition(self.ctx(p, event=event)):
                if self.s.battle is not None:
                    self.s.battle.setdefault("earned", []).append([p, key])
                else:
                    yield from self.earn_loyalty(p, card, r)

    def earn_after_battle(self, p: str, key: str) -> Gen:
        """A requirement met during a battle (a faction's id, or 'card/id' for a loyalty card)."""
        if "/" in key:
            card, rid = key.split("/", 1)
            lc = self.content.loyalty_cards.get(card)
            r = next((r for r in lc.requirements if r.id == rid), None) if lc else None
            if r is not None:
                yield from self.earn_loyalty(p, card, r)
            return
        r = next(r for r in self.faction(p).requirements if r.id == key)
        yield from self.earn(p, r)
