"""Shared costs: several players agree, one after another, how much each gives up of an amount they
must give up together (or refuse, and then none pays).

- ``share_power_loss``: each player in turn names the Power it gives up of what is still missing, or
  refuses; the result is the agreed shares as records {player, value}, or an empty list when there
  is no agreement (someone refused, or they do not have that much Power between them). The effect
  then takes the shares (``lose_power``) or applies what the card says happens otherwise.
"""
from __future__ import annotations

from typing import Any

from ...effects.compiler import RuleError
from ...effects.signatures import implements
from ...effects.runtime import Suspend, resumer
from ..flow import ask
from .arguments import as_player
from .. import basics
from ..basics import integer

REFUSE = "refuse"


@implements("share_power_loss")
def _share_power_loss(ctx: Any, players: Any, amount: Any, prompt: str = "how much Power do you give up?") -> Any:
    if not isinstance(players, list):
        raise RuleError(f"{ctx.where}: share_power_loss() needs a list of players, got {players!r}")
    who = [as_player(ctx, p) for p in players]
    if len(set(who)) != len(who):
        raise RuleError(f"{ctx.where}: share_power_loss() names a player twice: {who}")
    n = integer(ctx.game, amount, "amount")
    if n <= 0:
        return []
    return _next_share(ctx, {"players": who, "left": n, "shares": [], "prompt": prompt})


def _next_share(ctx: Any, st: dict[str, Any]) -> Any:
    """Ask the next player (its state: `st`) for its share, or give the shares agreed."""
    power = ctx.game.s.power
    shares, left = st["shares"], st["left"]
    if left == 0:
        return shares
    i = len(shares)
    later = sum(power[p] for p in st["players"][i + 1:])
    if i >= len(st["players"]) or power[st["players"][i]] + later < left:
        return []   # they cannot cover it between them: no agreement
    p = st["players"][i]
    lo, hi = max(0, left - later), min(power[p], left)   # every share that still lets the rest cover it
    labels = [str(v) for v in range(lo, hi + 1)] + [REFUSE]
    return Suspend(ask(p, "option", labels, f"{ctx.ability}: {st['prompt']} ({left} to give up between you)"),
                   "power_shares", st)


@resumer("power_shares")
def _shared(ctx: Any, st: dict[str, Any], ans: str) -> Any:
    if ans == REFUSE:
        return []
    p = st["players"][len(st["shares"])]
    value = int(ans)
    return _next_share(ctx, dict(st, left=st["left"] - value, shares=[*st["shares"], {"player": p, "value": value}]))
