"""Awakening as a step toward a requirement, for bots (the heuristic bot's `awaken`, engine/agents.py,
through engine/seeking.py `Trial`): which of a player's Great Old Ones would, awakened, meet one of
its unmet requirements, how far that awakening is from being offered, and the Power to keep for it.
Read from the content alone, never from a faction's name:

- a requirement checked when a Great Old One is awakened (`when: on-awaken`) is linked to each of
  the faction's Great Old Ones (still in its pool) whose awakening, given to the requirement's
  condition as the event (player, kind, the unit, no area), meets it (`awaken_gaps`);
- the awakening's distance (`AwakenGap.progress`) is 0 when its `where` names an area (it is an
  action away, given the Power) and 1 when not: a move or a Gate that makes it name one is a
  step closer, as a board-state requirement's is (effects/progress.py);
- while such an awakening is offered (its `where` names an area and the player has its cost), or
  one unit's move would offer it (and the player has its cost and the move's 1 Power), an action
  that would leave less Power than that waits (`power_to_keep`): Power is spent within the round
  (Gather Power sets it anew), so it is kept for the awakening or not at all.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import core
from .core import unit_cost

__all__ = ["AwakenGap", "awaken_gaps", "power_to_keep"]

ON_AWAKEN = "on-awaken"


@dataclass(frozen=True)
class AwakenGap:
    """The awakening of Great Old One `kind` (its awaken `where`, compiled) as a step of the unmet
    requirements `ids`: `progress(ctx)` is its distance (see the module)."""

    kind: str
    where: Any
    condition: Any
    ids: tuple[str, ...]

    def progress(self, ctx: Any) -> int:
        try:
            return 0 if (self.condition is None or self.condition(ctx)) and self.where(ctx) else 1
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return 1


def awaken_gaps(g: Any, player: str) -> list[AwakenGap]:
    """The awakenings of `player`'s Great Old Ones still in its pool that would meet one of its
    unmet requirements (see the module), in the order of the faction's units."""
    faction = g.content.factions.get(player)
    if faction is None:
        return []
    earned = g.s.requirements.get(player) or ()
    unmet = [r for r in faction.requirements if r.when == ON_AWAKEN and r.condition is not None and r.id not in earned]
    if not unmet:
        return []
    out = []
    for t in faction.goos:
        pooled = g.s.pool(player, t.id) if t.awaken is not None else ()
        if not pooled:
            continue
        event = {"player": player, "kind": t.id, "unit": dict(pooled[0]), "area": None}
        ids = tuple(r.id for r in unmet if _met_by(g, player, r, event))
        if ids:
            out.append(AwakenGap(t.id, t.awaken.where, t.awaken.condition, ids))
    return out


def _met_by(g: Any, player: str, r: Any, event: dict[str, Any]) -> bool:
    """Whether requirement `r`'s condition holds with `event` as its event (a condition that fails
    on this made-up event, one reading its area say, is not linked)."""
    c = core.ctx(g.rules, player, event=event)
    c.ability = f"requirement {r.id}"
    try:
        return bool(r.condition(c))
    except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
        return False


def power_to_keep(g: Any, player: str, gaps: list[AwakenGap], one_step: Callable[[], bool]) -> int:
    """The Power an action should leave `player` (see the module): the least cost of the
    awakenings of `gaps` on offer now, or that cost and 1 where `one_step()` says one unit's move
    would offer one; 0 when none is near."""
    faction = g.content.factions.get(player)
    power = g.s.power.get(player, 0)
    c = core.ctx(g.rules, player)
    keep = 0
    for gap in gaps:
        try:
            steps = gap.progress(c)   # (its awaken `where` run once: the need and the test share it)
            need = unit_cost(g.rules, player, faction.units[gap.kind]) + steps
            near = need <= power and (steps == 0 or one_step())
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            continue
        if near and (keep == 0 or need < keep):
            keep = need
    return keep
