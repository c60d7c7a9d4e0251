"""Paying Doom, loyalty cards, spellbooks on and off a faction card, and elder signs by value.

- ``pay_doom``: Doom paid as a cost (e.g. "pay 2 Doom to take this loyalty card").
- ``take_card`` / ``card_holder``: a neutral monster's loyalty card goes to a player (its units
  join that player's pool); who holds one.
- ``spellbooks``, ``available_spellbooks``, ``choose_spellbook``, ``remove_spellbook``,
  ``take_spellbook``: the spellbooks on a card, what a player could take now (its own faction's while
  a slot is left, or a neutral one from the general supply), a choice among them, and moving them
  off and onto the card (see ``interpreter/engine/neutral.py`` for the slot rule).
- ``elder_sign_value`` / ``reveal_elder_signs`` / ``choose_elder_signs``: the total of a player's
  face-down elder signs, trading them (all, or some) for Doom now, and the player's pick of some of
  them by their place (1 = its first face-down sign), which others may see; their values stay hidden.
"""
from __future__ import annotations

from typing import Any

from ...effects.compiler import RuleError
from ...effects.signatures import implements
from ...effects.runtime import Suspend, resumer
from .. import neutral
from ..flow import ask
from ..option import is_done
from .arguments import as_player
from .choices import ask_one
from .. import basics
from ..basics import emit, integer
from .. import core


@implements("pay_doom")
def _pay_doom(ctx: Any, player: Any, amount: Any) -> None:
    g = ctx.game
    p = as_player(ctx, player)
    n = integer(g, amount, "amount")
    if n < 0 or g.s.doom[p] < n:
        raise RuleError(f"{ctx.where}: {p} cannot pay {n} Doom with {g.s.doom[p]}")
    if n:
        g.s.doom[p] -= n
        emit(g, "doom", player=p, change=-n, total=g.s.doom[p], why=ctx.ability, paid=True)


@implements("take_card")
def _take_card(ctx: Any, player: Any, kind: str) -> None:
    g = ctx.game
    p = as_player(ctx, player)
    card = neutral.card_for_kind(g.content, kind)
    if card is None:
        raise RuleError(f"{ctx.where}: no neutral loyalty card brings '{kind}'")
    neutral.add_card(g.content, g.s, card.id, p)
    emit(g, "loyalty-card", player=p, card=card.id, why=ctx.ability)


@implements("card_holder")
def _card_holder(ctx: Any, kind: str) -> Any:
    card = neutral.card_for_kind(ctx.game.content, kind)
    return ctx.game.s.card_holders.get(card.id) if card is not None else None


@implements("spellbooks")
def _spellbooks(ctx: Any, player: Any) -> list[str]:
    return list(ctx.game.s.spellbooks[as_player(ctx, player)])


@implements("available_spellbooks")
def _available(ctx: Any, player: Any, without: Any = None) -> list[str]:
    return neutral.spellbook_choices(ctx.game, as_player(ctx, player), without)


@implements("choose_spellbook")
def _choose_spellbook(ctx: Any, player: Any, spellbooks: Any, prompt: str = "choose a spellbook") -> Any:
    if not isinstance(spellbooks, list):
        raise RuleError(f"{ctx.where}: choose_spellbook() needs a list, got {spellbooks!r}")
    return ask_one(ctx, player, "spellbook", spellbooks, prompt, str)


@implements("remove_spellbook")
def _remove_spellbook(ctx: Any, player: Any, spellbook: Any) -> None:
    core.remove_spellbook(ctx.game, as_player(ctx, player), str(spellbook), ctx.ability)


@implements("take_spellbook")
def _take_spellbook(ctx: Any, player: Any, spellbook: Any) -> None:
    try:
        neutral.take_spellbook(ctx.game, as_player(ctx, player), str(spellbook), ctx.ability)
    except RuleError as exc:
        raise RuleError(f"{ctx.where}: {exc}") from None


@implements("elder_sign_value")
def _es_value(ctx: Any, player: Any, which: Any = None) -> int:
    p = as_player(ctx, player)
    signs = ctx.game.s.elder_signs[p]
    return sum(signs) if which is None else sum(signs[i] for i in _places(ctx, p, which))


@implements("reveal_elder_signs")
def _reveal(ctx: Any, player: Any, which: Any = None) -> None:
    p = as_player(ctx, player)
    basics.reveal_elder_signs(ctx.game, p, None if which is None else _places(ctx, p, which))


@implements("choose_elder_signs")
def _choose_signs(ctx: Any, player: Any, prompt: str = "choose elder signs") -> Any:
    p = as_player(ctx, player)
    count = len(ctx.game.s.elder_signs[p])
    return _next_sign(ctx, {"player": p, "prompt": prompt, "left": list(range(1, count + 1)), "picked": []})


def _next_sign(ctx: Any, pick: dict[str, Any]) -> Any:
    """Ask for the next elder sign of `choose_elder_signs` (its state: `pick`), or the places picked."""
    left, picked = pick["left"], pick["picked"]
    if not left:
        return picked
    done = ["done"] if picked else []
    return Suspend(ask(pick["player"], "option", list(_sign_labels(left)) + done,
                       f"{ctx.ability}: {pick['prompt']}"), "elder-signs", pick)


def _sign_labels(places: list[int]) -> dict[str, int]:
    """The option for each face-down elder sign's place (`elder-sign-1` ...), to its place."""
    return {f"elder-sign-{i}": i for i in places}


@resumer("elder-signs")
def _picked_signs(ctx: Any, pick: dict[str, Any], ans: str) -> Any:
    if is_done(ans):
        return pick["picked"]
    place = _sign_labels(pick["left"])[ans]
    return _next_sign(ctx, dict(pick, picked=[*pick["picked"], place], left=[i for i in pick["left"] if i != place]))


def _places(ctx: Any, player: str, which: Any) -> list[int]:
    """The indices of the elder signs at the places `which` (1 = the first face-down sign), checked."""
    count = len(ctx.game.s.elder_signs[player])
    if not isinstance(which, list) or any(type(i) is not int or not 1 <= i <= count for i in which) \
            or len(set(which)) != len(which):
        raise RuleError(f"{ctx.where}: {which!r} are not places of {player}'s {count} face-down elder signs")
    return [i - 1 for i in which]
