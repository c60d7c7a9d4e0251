"""Meeting a spellbook requirement from an effect (for requirements that can be met in two ways,
e.g. "a condition holds OR, as your action, pay N": the requirement carries the condition and an
ability carries the paid way)."""
from __future__ import annotations

from typing import Any

from ...effects.compiler import RuleError
from ...effects.registry import verb


@verb("earn_requirement", player="player", requirement="str")
def _earn_requirement(ctx: Any, player: str, requirement: str) -> Any:
    """The player meets one of its own spellbook requirements now and takes a spellbook (in a battle, after it)."""
    g = ctx.game
    if not isinstance(player, str) or player not in g.s.players:
        raise RuleError(f"{ctx.where}: expected a player, got {player!r}")
    req = next((r for r in g.faction(player).requirements if r.id == requirement), None)
    if req is None:
        raise RuleError(f"{ctx.where}: '{player}' has no spellbook requirement '{requirement}'")
    if req.id in g.s.requirements[player]:
        return
    b = g.s.battle
    if b is not None:  # spellbooks met during a battle arrive after it, as for the other requirements
        earned = b.setdefault("earned", [])
        if [player, req.id] not in earned:
            earned.append([player, req.id])
        return
    yield from g.earn(player, req)
