"""Turn structure: extra actions, actions in an area, ending actions, lending abilities; earning requirements."""
from __future__ import annotations

from typing import Any

from ...effects.compiler import RuleError
from ...effects.runtime import Suspend
from ...effects.signatures import implements
from .arguments import as_player
from .. import abilities
from .. import actions
from .. import basics
from ..basics import emit, faction
from .. import core


# ---- verbs: turn structure -------------------------------------------------------------------------------
@implements("extra_action")
def _extra_action(ctx: Any, excluding: Any = ()) -> None:
    ctx.game.s.memory["extra_action"] = [f"ability {a}" for a in excluding]


@implements("action_in")
def _action_in(ctx: Any, player: str, area: str) -> Any:
    return Suspend(actions.action_in_call(ctx.game, as_player(ctx, player), area, ctx.ability))


@implements("end_actions")
def _end_actions(ctx: Any, player: str) -> None:
    g, p = ctx.game, as_player(ctx, player)
    done = g.s.memory.setdefault("no_actions", [])
    if p not in done:
        done.append(p)
        emit(g, "no-more-actions", player=p, why=ctx.ability)


@implements("lend_ability")
def _lend(ctx: Any, ability: str, owner: str, to: str, until: str = "end-of-doom-phase") -> None:
    g = ctx.game
    key = f"{owner}/{ability}"
    if abilities.ability_by_key(g, key) is None:
        raise RuleError(f"{ctx.where}: '{owner}' has no ability '{ability}'")
    g.s.grants.append({"ability": key, "to": to, "until": until, "round": g.s.round})
    g.s.written(units=False)
    emit(g, "lend", ability=key, to=to, until=until)


@implements("lend_unique")
def _lend_unique(ctx: Any, owner: str, to: str, until: str = "end-of-doom-phase", stand_in: Any = None) -> None:
    g = ctx.game
    f = faction(g, as_player(ctx, owner))
    grant: dict[str, Any] = {"to": to, "until": until, "round": g.s.round}
    if stand_in is not None:
        grant["stand_in"] = {k: stand_in for k, t in f.units.items() if t.cls == "great-old-one"}
    for ab in f.abilities:
        # lent again while still lent (the card sets no limit): one grant, renewed
        g.s.grants = [x for x in g.s.grants if not (x["ability"] == ab.key and x["to"] == to)]
        g.s.grants.append({"ability": ab.key, **grant})
        g.s.written(units=False)
        emit(g, "lend", ability=ab.key, to=to, until=until)


# ---- Meeting a spellbook requirement from an effect (for requirements that can be met in two ways,
@implements("earn_requirement")
def _earn_requirement(ctx: Any, player: str, requirement: str) -> Any:
    g = ctx.game
    player = as_player(ctx, player)
    req = next((r for r in faction(g, player).requirements if r.id == requirement), None)
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
    return Suspend(core.earn_call(g, player, req))
