"""The heuristic bot's scores of an action that reaches for an unmet requirement (engine/agents.py
HeuristicAgent with `progress`, `reach`, `company` or `awaken`), from one decision's requirement
trial (engine/seeking.py `Trial`): each takes the action's score so far and returns its new one."""
from __future__ import annotations

from typing import Any

from .option import Option
from . import company as company_steps
from . import seeking

__all__ = ["REQUIREMENT", "PLACE_CLOSER", "MOVE_TO_EARN", "KEEP_IN_POOL", "progress_score", "reach_score",
           "company_score", "awaken_score"]

REQUIREMENT = 55.0   # a requirement's own action (above a Gate's 45 and an awakening's 50)
PLACE_CLOSER = 8.0   # a summon or recruit, per step it brings an unmet requirement closer (two at most)
MOVE_TO_EARN = 35.0   # a Move action that can bring a serving ability's holder where it earns: above a summon
KEEP_IN_POOL = 8.0   # a summon or recruit that would empty the pool an unmet requirement's ability needs: below a move


def progress_score(o: Option, trial: "seeking.Trial", base: float) -> float:
    """An action's score by how much closer it brings the unmet requirements (see engine/agents.py HeuristicAgent)."""
    try:
        if o.verb == "move":
            return MOVE_TO_EARN if trial.step_closer() else base
        if o.verb == "create-gate":
            return REQUIREMENT if trial.gain_gate(o.area) > 0 else base
        return base + PLACE_CLOSER * max(0, min(2, trial.gain_place(o.unit_kind, o.area)))
    except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
        return base


def reach_score(trial: "seeking.Trial", base: float) -> float:
    """A Move action's score when a unit can walk nearer where it would close a step (see engine/agents.py HeuristicAgent)."""
    try:
        return MOVE_TO_EARN if trial.reach_step() else base
    except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
        return base


def company_score(o: Option, trial: "seeking.Trial", base: float) -> float:
    """An action's score when units join a serving ability's holder (see engine/agents.py HeuristicAgent)."""
    try:
        if o.verb == "move" and company_steps.join_step(trial):
            return max(base, MOVE_TO_EARN)
        if o.verb == "ability" and company_steps.waits_for_company(trial, o.ability, o.area):
            return min(base, MOVE_TO_EARN - 1)
    except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
        pass
    return base


def awaken_score(o: Option, g: Any, player: str, trial: "seeking.Trial", base: float) -> float:
    """An action's score when an awakening would meet an unmet requirement (see engine/agents.py HeuristicAgent)."""
    try:
        gaps = trial.unmet("awaken")
        if not gaps:
            return base
        if o.verb == "awaken":
            return max(base, REQUIREMENT) if any(x.kind == o.unit_kind for x in gaps) else base
        keep = trial.power_to_keep()
        if keep and o.cost and g.s.power.get(player, 0) - o.cost < keep:
            return min(base, KEEP_IN_POOL)
    except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
        pass
    return base
