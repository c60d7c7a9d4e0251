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
from . import flow
from .flow import Call
from .state import GENERAL, POOL
from . import basics
from .basics import emit
from .host import RulesContext
from .requirements import requirement


def choose_independents(g: "RulesContext", factions: list[str], asked: list[str] | None) -> tuple[list[str], list[str]]:
    """The loyalty cards of a game and notes on the cards left out.

    Asked for by name: each must exist and be playable (no unknown value without an
    interpretation), else the game is refused. Not named: every playable card whose Great Old
    One's faction is not playing ("we do NOT recommend" using it then); the others are noted.
    """
    cards = g.content.loyalty_cards
    unknowns = g.content.loyalty_unknowns
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
        elif g.content.loyalty_counterparts.get(c) in factions:
            notes.append(f"{c}: left out because {g.content.loyalty_counterparts[c]} is playing")
        else:
            chosen.append(c)
    return chosen, notes


def controlled_cards(g: "RulesContext", p: str) -> list[str]:
    """The loyalty cards a player holds: those whose figure the player controls."""
    if not g.s.loyalty:
        return []
    card_of = {rec["kind"]: card for card, rec in g.s.loyalty.items()}
    return list(dict.fromkeys(card_of[u["kind"]] for u in g.s.units
                              if u["owner"] == p and u["kind"] in card_of))


def awaken_types(g: "RulesContext", p: str) -> list[UnitType]:
    """Great Old Ones the player could awaken: its faction's and the Independents nobody controls."""
    out = list(basics.faction(g, p).goos)
    for card, rec in g.s.loyalty.items():
        if g.s.pool(GENERAL, rec["kind"]):
            out.append(g.content.loyalty_cards[card].units[rec["kind"]])
    return out


def awaken_type(g: "RulesContext", p: str, kind: str) -> UnitType | None:
    t = basics.faction(g, p).units.get(kind)
    if t is not None:
        return t
    card = basics.card_of_kind(g, kind)
    return g.content.loyalty_cards[card].units[kind] if card is not None else None


def awaken_pool(g: "RulesContext", p: str, kind: str) -> list[dict[str, Any]]:
    """The figures of this kind the player may awaken: from its pool, or the general pool."""
    return g.s.pool(p, kind) or (g.s.pool(GENERAL, kind) if basics.card_of_kind(g, kind) else [])


def may_awaken_from_pool(g: "RulesContext", p: str, kind: str) -> bool:
    """Whether `awaken_pool(p, kind)` holds a figure (no list made)."""
    return g.s.in_pool(p, kind) or (bool(basics.card_of_kind(g, kind)) and g.s.in_pool(GENERAL, kind))


def take_control(g: "RulesContext", p: str, u: dict[str, Any]) -> None:
    if u["owner"] == GENERAL:
        u["owner"] = p
        g.state_written()
        emit(g, "independent", card=basics.card_of_kind(g, u["kind"]), player=p, change="takes")


def release_if_independent(g: "RulesContext", u: dict[str, Any]) -> None:
    """A controlled Independent back in the pool returns to the general pool; its spellbook falls off."""
    if u["loc"] != POOL or u["owner"] == GENERAL or not g.s.loyalty:
        return
    card = basics.card_of_kind(g, u["kind"])
    if card is None:
        return
    rec = g.s.loyalty[card]
    emit(g, "independent", card=card, player=u["owner"], change="returns", lost=list(rec["spellbooks"]))
    u["owner"] = GENERAL
    rec["spellbooks"] = []
    rec["requirements"] = []
    g.state_written()


def add_loyalty_spellbook(g: "RulesContext", rec: dict[str, Any], book: str) -> None:
    rec["spellbooks"].append(book)
    g.state_written()


def loyalty_abilities(g: "RulesContext", p: str, in_play: set[str]) -> list[Ability]:
    out: list[Ability] = []
    for card in controlled_cards(g, p):
        rec = g.s.loyalty[card]
        lc = g.content.loyalty_cards[card]
        t = lc.units[rec["kind"]]
        if t.id in in_play:
            out.extend(t.abilities)
        for book in rec["spellbooks"]:
            sb = lc.spellbooks.get(book)
            if sb is not None:
                out.extend(sb.abilities)
    return out


def loyalty_requirements(g: "RulesContext", p: str) -> list[tuple[str, Requirement]]:
    out = []
    for card in controlled_cards(g, p):
        done = g.s.loyalty[card]["requirements"]
        out.extend((card, r) for r in g.content.loyalty_cards[card].requirements if r.id not in done)
    return out


def check_loyalty_requirements_call(g: "RulesContext", p: str, when: str, event: dict[str, Any] | None) -> Call:
    return Call(flow.frame("loyalty-requirements", player=p, when=when, event=event))


def earn_loyalty_call(g: "RulesContext", p: str, card: str, rid: str) -> Call:
    return Call(flow.frame("earn-loyalty", player=p, card=card, req=rid))


def earn_after_battle_call(g: "RulesContext", p: str, key: str) -> Call:
    """A requirement met during a battle (a faction's id, or 'card/id' for a loyalty card)."""
    if "/" in key:
        card, rid = key.split("/", 1)
        return earn_loyalty_call(g, p, card, rid)
    r = requirement(g, p, key)
    return Call(flow.frame("earn", player=p, req=r.id))   # core.earn_call (core.py comes after this module)
