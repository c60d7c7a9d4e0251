"""Choices: asking a player for a unit, units, an area or a player; rolling a die."""
from __future__ import annotations

from typing import Any, Callable

from ...effects.signatures import implements
from ...effects.runtime import Suspend, resumer
from ..flow import ask
from ..option import Option, parse, unit_of_label
from ..feasible import note_no_option
from .arguments import as_player
from .. import basics
from ..basics import integer

DONE = Option("unit", "done")   # ends a series of unit picks


def ask_one(ctx: Any, player: Any, kind: str, items: list[Any], prompt: str,
            label: Callable[[Any], str] | None = None, then: str = "value") -> Any:
    """The player's pick among `items` (its label; `then` reads the answer), or None, noted as no
    option, when there are none."""
    if not items:
        note_no_option(ctx.game, ctx.where)
        return None
    who = as_player(ctx, player)
    labels = list(items) if label is None else [label(x) for x in items]
    return Suspend(ask(who, kind, labels, f"{ctx.ability}: {prompt}"), then)


def _unit_of(ctx: Any, label: str) -> Any:
    return ctx.game.s.unit(unit_of_label(label))


# ---- choices -----------------------------------------------------------------------------------------------
@implements("choose_unit")
def _choose_unit(ctx: Any, player: str, units: list[Any], prompt: str = "choose a unit") -> Any:
    return ask_one(ctx, player, "unit", units, prompt, lambda u: basics.unit_label(ctx.game, u), "unit")


@resumer("unit")
def _picked_unit(ctx: Any, data: Any, ans: str) -> Any:
    return _unit_of(ctx, ans)


@implements("choose_units")
def _choose_units(ctx: Any, player: str, units: list[Any], most: Any = None, prompt: str = "choose units",
                  least: Any = None) -> Any:
    left = list(units)
    limit = len(left) if most is None else min(len(left), integer(ctx.game, most, "most"))
    need = 0 if least is None else min(limit, integer(ctx.game, least, "least"))
    return _next_unit(ctx, {"player": player, "prompt": prompt, "left": left, "picked": [], "limit": limit,
                            "need": need})


def _next_unit(ctx: Any, pick: dict[str, Any]) -> Any:
    """Ask for the next unit of `choose_units` (its state: `pick`), or the units picked."""
    left, picked = pick["left"], pick["picked"]
    if not (left and len(picked) < pick["limit"]):
        return picked
    done = [DONE.label] if len(picked) >= pick["need"] else []
    return Suspend(ask(as_player(ctx, pick["player"]), "unit", [basics.unit_label(ctx.game, u) for u in left] + done,
                       f"{ctx.ability}: {pick['prompt']}"), "units", pick)


@resumer("units")
def _picked_units(ctx: Any, pick: dict[str, Any], ans: str) -> Any:
    if parse("unit", ans) == DONE:
        return pick["picked"]
    u = _unit_of(ctx, ans)
    return _next_unit(ctx, dict(pick, picked=pick["picked"] + [u], left=[x for x in pick["left"] if x["id"] != u["id"]]))


@implements("choose_area")
def _choose_area(ctx: Any, player: str, areas: list[Any], prompt: str = "choose an area") -> Any:
    return ask_one(ctx, player, "area", areas, prompt)


@implements("choose_player")
def _choose_player(ctx: Any, player: str, players: list[Any], prompt: str = "choose a player") -> Any:
    return ask_one(ctx, player, "player", players, prompt)


@implements("roll_die")
def _roll_die(ctx: Any) -> Any:
    return basics.roll(ctx.game, 1, ctx.me or "rules", ctx.ability)[0]


@implements("roll_dice")
def _roll_dice(ctx: Any, count: int) -> Any:
    return basics.roll(ctx.game, count, ctx.me or "rules", ctx.ability)
