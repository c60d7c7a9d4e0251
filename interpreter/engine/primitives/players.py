"""Players: Power, Doom, Elder Signs, spellbooks, turn order, ritual costs; the verbs that change them."""
from __future__ import annotations

from typing import Any

from ...effects.compiler import RuleError
from ...effects.signatures import implements
from .arguments import as_player
from .. import basics
from ..basics import integer
from .. import phases


# ---- players --------------------------------------------------------------------------------------
@implements("power")
def _power(ctx: Any, player: str) -> int:
    return ctx.game.s.power[as_player(ctx, player)]


@implements("doom")
def _doom(ctx: Any, player: str) -> int:
    return ctx.game.s.doom[as_player(ctx, player)]


@implements("elder_sign_count")
def _es_count(ctx: Any, player: str) -> int:
    return len(ctx.game.s.elder_signs[as_player(ctx, player)])


@implements("spellbook_count")
def _sb_count(ctx: Any, player: str) -> int:
    return len(ctx.game.s.spellbooks[as_player(ctx, player)])


@implements("has_spellbook")
def _has_sb(ctx: Any, player: str, spellbook: str) -> bool:
    return spellbook in ctx.game.s.spellbooks[as_player(ctx, player)]


@implements("first_player")
def _first_player(ctx: Any) -> str:
    return ctx.game.s.first


@implements("round")
def _round(ctx: Any) -> int:
    return ctx.game.s.round


@implements("player_count")
def _player_count(ctx: Any) -> int:
    return len(ctx.game.s.players)


@implements("enemy_of")
def _enemy_of(ctx: Any, player: str) -> str:
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
    return phases.ritual_cost(ctx.game, as_player(ctx, player))


@implements("ritual_track_cost")
def _ritual_track_cost(ctx: Any) -> int:
    return phases.ritual_track_cost(ctx.game)


@implements("requirement_met")
def _req_met(ctx: Any, player: str, requirement: str) -> bool:
    return requirement in ctx.game.s.requirements[as_player(ctx, player)]


@implements("surcharge")
def _surcharge(ctx: Any) -> int:
    return ctx.game.s.surcharge


# ---- verbs: resources ---------------------------------------------------------------------------------
@implements("gain_power")
def _gain_power(ctx: Any, player: str, amount: Any) -> None:
    basics.gain_power(ctx.game, as_player(ctx, player), integer(ctx.game, amount, "amount"), ctx.ability)


@implements("lose_power")
def _lose_power(ctx: Any, player: str, amount: Any) -> None:
    basics.gain_power(ctx.game, as_player(ctx, player), -integer(ctx.game, amount, "amount"), ctx.ability)


@implements("bank_power")
def _bank_power(ctx: Any, player: str) -> None:
    g, p = ctx.game, as_player(ctx, player)
    g.s.bank[p] = g.s.bank.get(p, 0) + g.s.power[p]
    basics.gain_power(g, p, -g.s.power[p], f"{ctx.ability}: set aside")


@implements("gain_doom")
def _gain_doom(ctx: Any, player: str, amount: Any) -> None:
    basics.gain_doom(ctx.game, as_player(ctx, player), integer(ctx.game, amount, "amount"), ctx.ability)


@implements("elder_sign")
def _elder_sign(ctx: Any, player: str, count: int = 1) -> None:
    for _ in range(integer(ctx.game, count, "count")):
        basics.give_elder_sign(ctx.game, as_player(ctx, player), ctx.ability)
