"""Players: Power, Doom, Elder Signs, spellbooks, turn order, ritual costs; the verbs that change them."""
from __future__ import annotations

from typing import Any

from ...effects.compiler import RuleError
from ...effects.signatures import implements
from .arguments import as_player
from .. import basics
from .. import phases


# ---- players --------------------------------------------------------------------------------------
@implements("power")
def _power(ctx: Any, player: str) -> int:
    """A player's Power."""
    return ctx.game.s.power[as_player(ctx, player)]


@implements("doom")
def _doom(ctx: Any, player: str) -> int:
    """A player's Doom (revealed elder signs included)."""
    return ctx.game.s.doom[as_player(ctx, player)]


@implements("elder_sign_count")
def _es_count(ctx: Any, player: str) -> int:
    """How many face-down elder signs a player holds."""
    return len(ctx.game.s.elder_signs[as_player(ctx, player)])


@implements("spellbook_count")
def _sb_count(ctx: Any, player: str) -> int:
    """How many spellbooks a player has on the card."""
    return len(ctx.game.s.spellbooks[as_player(ctx, player)])


@implements("has_spellbook")
def _has_sb(ctx: Any, player: str, spellbook: str) -> bool:
    """Whether a player holds a spellbook."""
    return spellbook in ctx.game.s.spellbooks[as_player(ctx, player)]


@implements("first_player")
def _first_player(ctx: Any) -> str:
    """The current first player."""
    return ctx.game.s.first


@implements("round")
def _round(ctx: Any) -> int:
    """The round number (the first round is 1)."""
    return ctx.game.s.round


@implements("player_count")
def _player_count(ctx: Any) -> int:
    """How many players are in the game."""
    return len(ctx.game.s.players)


@implements("enemy_of")
def _enemy_of(ctx: Any, player: str) -> str:
    """The one opponent of a player in a two-player game (or in the current battle)."""
    s = ctx.game.s
    b = s.battle
    if b is not None and player in (b["attacker"], b["defender"]):
        return b["defender"] if player == b["attacker"] else b["attacker"]
    others = s.others(as_player(ctx, player))
    if len(others) != 1:
        raise RuleError(f"{ctx.where}: enemy_of() needs a single opponent; there are {len(others)}")
    return others[0]


@implements("ritual_cost")
def _ritual_cost(ctx: Any, player: str) -> int:
    """What a Ritual of Annihilation would cost the player now."""
    return phases.ritual_cost(ctx.game, as_player(ctx, player))


@implements("ritual_track_cost")
def _ritual_track_cost(ctx: Any) -> int:
    """The cost the Ritual track's marker shows now, before any player's own discount."""
    return phases.ritual_track_cost(ctx.game)


@implements("requirement_met")
def _req_met(ctx: Any, player: str, requirement: str) -> bool:
    """Whether a player has earned the spellbook of one of its requirements."""
    return requirement in ctx.game.s.requirements[as_player(ctx, player)]


@implements("surcharge")
def _surcharge(ctx: Any) -> int:
    """Where the ruleset's turn-surcharge marker stands."""
    return ctx.game.s.surcharge


# ---- verbs: resources ---------------------------------------------------------------------------------
@implements("gain_power")
def _gain_power(ctx: Any, player: str, amount: Any) -> None:
    """The player gains (or, if negative, loses) Power; Power never drops below 0."""
    basics.gain_power(ctx.game, as_player(ctx, player), basics.integer(ctx.game, amount, "amount"), ctx.ability)


@implements("lose_power")
def _lose_power(ctx: Any, player: str, amount: Any) -> None:
    """The player loses Power (never below 0)."""
    basics.gain_power(ctx.game, as_player(ctx, player), -basics.integer(ctx.game, amount, "amount"), ctx.ability)


@implements("bank_power")
def _bank_power(ctx: Any, player: str) -> None:
    """Set the player's Power aside to be added at the next Gather Power (it drops to 0 now)."""
    g, p = ctx.game, as_player(ctx, player)
    g.s.bank[p] = g.s.bank.get(p, 0) + g.s.power[p]
    basics.gain_power(g, p, -g.s.power[p], f"{ctx.ability}: set aside")


@implements("gain_doom")
def _gain_doom(ctx: Any, player: str, amount: Any) -> None:
    """The player gains Doom."""
    basics.gain_doom(ctx.game, as_player(ctx, player), basics.integer(ctx.game, amount, "amount"), ctx.ability)


@implements("elder_sign")
def _elder_sign(ctx: Any, player: str, count: int = 1) -> None:
    """The player draws elder signs face down (1 Doom each instead when the bag is empty)."""
    for _ in range(basics.integer(ctx.game, count, "count")):
        basics.give_elder_sign(ctx.game, as_player(ctx, player), ctx.ability)
