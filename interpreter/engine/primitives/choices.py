"""Choices: asking a player for a unit, units, an area or a player; rolling a die."""
from __future__ import annotations

from typing import Any, Callable, Generator

from ...effects.registry import choice
from ..feasible import note_no_option
from .arguments import as_player


def ask_one(ctx: Any, player: Any, kind: str, items: list[Any], prompt: str,
            label: Callable[[Any], str] | None = None) -> Generator[Any, Any, Any]:
    """The player's pick among `items` (its label), or None, noted as no option, when there are none."""
    if not items:
        note_no_option(ctx.game, ctx.where)
        return None
    who = as_player(ctx, player)
    labels = list(items) if label is None else [label(x) for x in items]
    return (yield from ctx.game.ask(who, kind, labels, f"{ctx.ability}: {prompt}"))


# ---- choices -----------------------------------------------------------------------------------------------
@choice("choose_unit", returns="unit", player="player", units="units", prompt=("str", "choose a unit"))
def _choose_unit(ctx: Any, player: str, units: list[Any], prompt: str = "choose a unit") -> Any:
    """The player picks one of the units (none if the list is empty)."""
    ans = yield from ask_one(ctx, player, "unit", units, prompt, ctx.game.unit_label)
    return None if ans is None else ctx.game.s.unit(int(ans.rsplit("#", 1)[1]))


@choice("choose_units", returns="units", player="player", units="units", most=("int", None),
        least=("int", None), prompt=("str", "choose units"))
def _choose_units(ctx: Any, player: str, units: list[Any], most: Any = None, prompt: str = "choose units",
                  least: Any = None) -> Any:
    """The player picks at least `least` (as many as there are) and up to `most` of the units, one at a time."""
    left = list(units)
    picked: list[Any] = []
    limit = len(left) if most is None else min(len(left), ctx.game.integer(most, "most"))
    need = 0 if least is None else min(limit, ctx.game.integer(least, "least"))
    while left and len(picked) < limit:
        done = ["done"] if len(picked) >= need else []
        ans = yield from ctx.game.ask(as_player(ctx, player), "unit", [ctx.game.unit_label(u) for u in left] + done,
                                      f"{ctx.ability}: {prompt}")
        if ans == "done":
            break
        u = ctx.game.s.unit(int(ans.rsplit("#", 1)[1]))
        picked.append(u)
        left = [x for x in left if x["id"] != u["id"]]
    return picked


@choice("choose_area", returns="area", player="player", areas="areas", prompt=("str", "choose an area"))
def _choose_area(ctx: Any, player: str, areas: list[Any], prompt: str = "choose an area") -> Any:
    """The player picks one of the areas (none if the list is empty)."""
    return (yield from ask_one(ctx, player, "area", areas, prompt))


@choice("choose_player", returns="player", player="player", players="players", prompt=("str", "choose a player"))
def _choose_player(ctx: Any, player: str, players: list[Any], prompt: str = "choose a player") -> Any:
    """The player picks one of the players (none if the list is empty)."""
    return (yield from ask_one(ctx, player, "player", players, prompt))


@choice("roll_die", returns="int")
def _roll_die(ctx: Any) -> Any:
    """Roll one six-sided die (from the game's seeded generator)."""
    return ctx.game.roll(1, ctx.me or "rules", ctx.ability)[0]
    yield  # pragma: no cover
