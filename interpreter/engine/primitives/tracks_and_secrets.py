"""Markers on a track, hidden simultaneous choices, Doom losses and Independent Great Old Ones.

- ``set_marker`` / ``marker``: a named number kept for the whole game, e.g. a glyph standing on a
  space of the Doom track whose position is some unit's combat.
- ``secret_picks``: several players each pick one option at the same time, face down: each is
  asked in turn through the normal decision interface, but no one's prompt, options or the log
  shows an earlier answer; the answers are revealed together (logged once all are in).
- ``lose_doom``: a player loses Doom (never below 0).
- ``sum``: the numbers of a list added together.
- ``independents`` / ``loyalty_spellbook_count``: Independent Great Old Ones on the map, and the
  spellbooks a player holds on loyalty cards (which never count as faction spellbooks).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...effects.compiler import RuleError
from ...effects.signatures import implements
from ...effects.runtime import Suspend, resumer
from ..flow import ask
from .arguments import as_player
from .. import basics
from ..basics import emit, integer, is_area
from .. import independents


def _marker_name(ctx: Any, name: Any) -> str:
    if not isinstance(name, str) or not name:
        raise RuleError(f"{ctx.where}: a marker needs a name, got {name!r}")
    return name


@implements("set_marker")
def _set_marker(ctx: Any, name: str, value: Any) -> None:
    g = ctx.game
    v = max(0, integer(g, value, "marker value"))
    g.s.markers[_marker_name(ctx, name)] = v
    emit(g, "marker", name=name, value=v, why=ctx.ability)


@implements("marker")
def _marker(ctx: Any, name: str) -> int:
    return int(ctx.game.s.markers.get(_marker_name(ctx, name), 0))


@implements("secret_picks")
def _secret_picks(ctx: Any, players: Any, options: Any, prompt: str = "choose") -> Any:
    if not isinstance(players, list) or not isinstance(options, list) or not options:
        raise RuleError(f"{ctx.where}: secret_picks() needs a list of players and a non-empty list of options")
    labels = [str(o) for o in options]
    if len(set(labels)) != len(labels):
        raise RuleError(f"{ctx.where}: secret_picks() options must differ: {labels}")
    return _next_pick(ctx, {"players": players, "options": options, "labels": labels, "prompt": prompt, "picks": []})


def _next_pick(ctx: Any, st: dict[str, Any]) -> Any:
    """Ask the next player of `secret_picks` (its state: `st`), or record the picks."""
    g = ctx.game
    picks = st["picks"]
    if len(picks) < len(st["players"]):
        # every chooser sees the same prompt and options: nothing of the earlier answers
        return Suspend(ask(as_player(ctx, st["players"][len(picks)]), "secret", st["labels"],
                           f"{ctx.ability}: {st['prompt']} (in secret)", secret=True), "secret_picks", st)
    emit(g, "secret-picks", why=ctx.ability, picks=[[r["player"], r["value"]] for r in picks])
    return picks


@resumer("secret_picks")
def _picked_secretly(ctx: Any, st: dict[str, Any], ans: str) -> Any:
    p = st["players"][len(st["picks"])]
    return _next_pick(ctx, dict(st, picks=st["picks"] + [{"player": p, "value": st["options"][st["labels"].index(ans)]}]))


@implements("lose_doom")
def _lose_doom(ctx: Any, player: str, amount: Any) -> None:
    g = ctx.game
    p = as_player(ctx, player)
    n = min(g.s.doom[p], max(0, integer(g, amount, "amount")))
    if n:
        g.s.doom[p] -= n
        emit(g, "doom", player=p, change=-n, total=g.s.doom[p], why=ctx.ability)


@implements("sum")
def _sum(ctx: Any, items: Any) -> Any:
    if not isinstance(items, list):
        raise RuleError(f"{ctx.where}: sum() needs a list, got {items!r}")
    total: Any = 0
    for x in items:
        if isinstance(x, bool) or not isinstance(x, (int, Fraction)):
            raise RuleError(f"{ctx.where}: sum() needs numbers, got {x!r}")
        total += x
    return total


@implements("independents")
def _independents(ctx: Any, owner: Any = None) -> list[dict[str, Any]]:
    g = ctx.game
    kinds = {rec["kind"] for rec in g.s.loyalty.values()}
    return [u for u in g.s.units if u["kind"] in kinds and is_area(g, u["loc"])
            and (owner is None or u["owner"] == as_player(ctx, owner))]


@implements("loyalty_spellbook_count")
def _loyalty_books(ctx: Any, player: str) -> int:
    g = ctx.game
    p = as_player(ctx, player)
    return sum(len(g.s.loyalty[c]["spellbooks"]) for c in independents.controlled_cards(g, p))
