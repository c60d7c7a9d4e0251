"""Spellbook requirements, a faction's and a loyalty card's alike: each found by its key (a
faction requirement's id, or `card/id` for one on a loyalty card) and checked one way, by
`held_conditions.met_now` (there, beside the kept conditions it reads, so that abilities.py and
independents.py can look requirements up here without an import circle). The frames that go through them are `CheckRequirements` (core_procs.py) and
`CheckLoyaltyRequirements` (loyalty_procs.py); a requirement met during a battle is noted in the
battle record and earned after it (`earn_after_battle_call`)."""
from __future__ import annotations

from typing import Any

from ..content.tables import checked_at  # noqa: F401 (the requirements' one timing rule, beside the content tables)

Game = Any   # a GameCore


def requirement(g: Game, p: str, key: str) -> Any:
    """The requirement `key` names for player `p`: one of `p`'s faction's (`id`) or of a loyalty
    card's (`card/id`); None when there is none."""
    card, _, rid = key.rpartition("/")
    holder = g.content.loyalty_cards.get(card) if card else g.content.factions.get(p)
    if holder is None:
        return None
    return next((r for r in holder.requirements if r.id == rid), None)


def met_in_battle(g: Game, p: str, key: str) -> bool:
    """Whether `p` met requirement `key` already in the battle under way (earned after it)."""
    b = g.s.battle
    return b is not None and any(e[0] == p and e[1] == key for e in b.get("earned") or ())


def earn_after_battle(g: Game, p: str, key: str) -> bool:
    """Note `key` as met by `p` in the battle under way, to be earned after it: True; False when
    no battle is under way (the caller earns it at once)."""
    if g.s.battle is None:
        return False
    g.s.battle.setdefault("earned", []).append([p, key])
    return True


__all__ = ["checked_at", "earn_after_battle", "met_in_battle", "requirement"]
