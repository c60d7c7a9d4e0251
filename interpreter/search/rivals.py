"""The bot that plays the search's rollouts and gives its prior (agent.py `rollout_bot`).

By default one heuristic bot plays every seat, with the requirement settings the agent name asks
for (`seek=1`, `progress=1`, `reach=1`, ...). With `own=1` those settings steer only the searching
player's own decisions: every rival decision, in the rollouts and in the prior of the tree's rival
nodes, is the plain heuristic bot's (engine/agents.py `HeuristicAgent` with no setting). Rivals
then spend no requirement trial (most of what `progress` and `reach` cost a playout), and the
search no longer expects its rivals to walk to requirements they would not walk to.
"""
from __future__ import annotations

from typing import Any

from ..engine.agents import HeuristicAgent
from ..engine.decisions import Decision
from ..engine.option import Option
from ..engine.seat import Seat
from .budget import SearchConfig

__all__ = ["SeatBots", "rollout_bot"]

_RIVALS = 0x1B873593   # the rivals' bot's generator, apart from the own bot's


class SeatBots:
    """Two heuristic bots behind the one bot's methods: `own` for the player `me`, `rivals` for
    every other player (`me` is set for each search: SearchAgent.grow)."""

    def __init__(self, own: HeuristicAgent, rivals: HeuristicAgent) -> None:
        self.own = own
        self.rivals = rivals
        self.me = ""

    def _bot(self, player: str) -> HeuristicAgent:
        return self.own if player == self.me else self.rivals

    def sit(self, seat: Seat) -> None:
        """The seat of a player both bots may play."""
        self.own.sit(seat)
        self.rivals.sit(seat)

    def scores(self, player: str, options: list[Option], d: Decision, g: Any = None) -> list[float]:
        """The scores of `player`'s bot for `options` of decision `d` (HeuristicAgent.scores)."""
        return self._bot(player).scores(player, options, d, g)

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        """`player`'s bot's answer (HeuristicAgent.choose)."""
        return self._bot(player).choose(player, options, context)


def rollout_bot(config: SearchConfig, seed: int) -> HeuristicAgent | SeatBots:
    """The rollouts' and the prior's bot for `config`, seeded by `seed`: one heuristic bot with the
    requirement settings, or with `own=1` that bot for the searching player and a plain one for the rest."""
    own = HeuristicAgent(seed, seek=config.seek, progress=config.progress, reach=config.reach,
                         awaken=config.awaken, company=config.company, brake=config.brake)
    if not config.own:
        return own
    return SeatBots(own, HeuristicAgent(seed ^ _RIVALS))
