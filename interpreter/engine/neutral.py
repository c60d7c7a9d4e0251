"""Neutral content that any player may take: neutral monsters' loyalty cards and neutral spellbooks.

Loyalty cards (``content.neutral_cards``): while no one holds a playable card, its ``acquire``
action is offered to every player; the holder gets the card's abilities at all times, the unit
kind's abilities while one is in play, and may summon the kind like its own monsters. A card with
an unknown value that has no interpretation is never offered.

Neutral spellbooks (``content.neutral_spellbooks``) are taken instead of a faction spellbook when a
requirement is met. One that is on no faction card is in the general supply, open to anyone. Each
neutral spellbook a player has ever taken costs one faction spellbook slot for the rest of the
game: a player may hold at most (faction spellbooks - neutral spellbooks ever taken) of its own.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..content.model import Ability, ContentModel, NeutralCard, UnitType
from ..effects.compiler import RuleError
from .state import POOL, State
from . import basics
from .basics import emit

if TYPE_CHECKING:
    from .host import GameHost


# ---- loyalty cards ----------------------------------------------------------------------------------
def card_for_kind(model: ContentModel, kind: str) -> NeutralCard | None:
    return next((c for c in model.neutral_cards.values() if c.kind == kind), None)


def add_card(model: ContentModel, s: State, card_id: str, player: str) -> list[dict[str, Any]]:
    """Give a loyalty card to a player: its units join the player's pool. Returns the new units."""
    card = model.neutral_cards.get(card_id)
    if card is None:
        raise RuleError(f"no neutral loyalty card '{card_id}'")
    if card_id in s.card_holders:
        raise RuleError(f"the {card.name} loyalty card is already held by {s.card_holders[card_id]}")
    if player not in s.players:
        raise RuleError(f"'{player}' is not playing")
    s.card_holders[card_id] = player
    t = model.neutral_units[card.kind]
    new = []
    for _ in range(t.count):
        u = {"id": s.next_unit, "owner": player, "kind": t.id, "loc": POOL}
        s.next_unit += 1
        s.units.append(u)
        new.append(u)
    s.written()
    return new


def card_abilities(g: "GameHost", player: str) -> list[Ability]:
    """The neutral-card abilities active for a player: held cards (and their units in play), and the
    take-the-card action of every playable card that no one holds."""
    out: list[Ability] = []
    cards = g.content.neutral_cards
    if not cards:
        return out
    kinds = None
    for cid, card in cards.items():
        holder = g.s.card_holders.get(cid)
        if holder == player:
            out.extend(card.abilities)
            t = g.content.neutral_units[card.kind]
            if t.abilities:
                kinds = basics.in_play_kinds(g, player) if kinds is None else kinds
                if t.id in kinds:
                    out.extend(t.abilities)
        elif holder is None and card.acquire is not None and not card.unknown:
            out.append(card.acquire)
    return out


def refusal(g: "GameHost", ability_id: str) -> tuple[str, str] | None:
    """Why the take-the-card action with this id is not offered, when it belongs to a loyalty card."""
    for cid, card in g.content.neutral_cards.items():
        if card.acquire is None or card.acquire.id != ability_id:
            continue
        if card.unknown:
            return ("unknown-card", f"the {card.name} card cannot be played: {'; '.join(card.unknown)} "
                                    "(no interpretation is given)")
        if cid in g.s.card_holders:
            return ("card-taken", f"the {card.name} card is held by {g.s.card_holders[cid]}")
    return None


def held_kinds(g: "GameHost", player: str) -> list[UnitType]:
    """The neutral unit kinds a player may summon: those of the loyalty cards it holds."""
    return [g.content.neutral_units[c.kind] for cid, c in g.content.neutral_cards.items()
            if g.s.card_holders.get(cid) == player]


# ---- neutral spellbooks ---------------------------------------------------------------------------------
def spellbook_choices(g: "GameHost", player: str, without: str | None = None) -> list[str]:
    """The spellbooks a player could put on its card now (as if `without` were off it, and never
    `without` itself): its own faction's while a slot is left, and every neutral one in the supply."""
    s = g.s
    f = g.content.factions[player]
    on = [b for b in s.spellbooks[player] if b != without]
    taken = s.neutral_taken.get(player, [])
    out: list[str] = []
    if sum(1 for b in on if b in f.spellbooks) + len(taken) < len(f.spellbooks):
        out.extend(b for b in f.spellbooks if b not in on and b != without)
    held = {b for q in s.players for b in s.spellbooks[q]} - ({without} if without else set())
    for b, book in g.content.neutral_spellbooks.items():
        if b not in held and b != without and not book.unknown and b not in out:
            out.append(b)
    return out


def take_spellbook(g: "GameHost", player: str, book: str, why: str = "") -> None:
    if book not in spellbook_choices(g, player):
        raise RuleError(f"{player} cannot take the spellbook '{book}' now")
    g.s.spellbooks[player].append(book)
    g.s.written(units=False)
    if book in g.content.neutral_spellbooks and book not in g.content.factions[player].spellbooks:
        taken = g.s.neutral_taken.setdefault(player, [])
        if book not in taken:   # taking the same neutral spellbook back costs no further slot
            taken.append(book)
    emit(g, "spellbook", player=player, spellbook=book, **({"why": why} if why else {}))


