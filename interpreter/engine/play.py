"""Play a whole game between agents."""
from __future__ import annotations

from typing import Any, Callable

from .agents import ScriptExhausted
from .game import Game

MAX_DECISIONS = 200_000


def run_game(game: Game, agents: dict[str, Any], on_decision: Callable[[Game], None] | None = None,
             max_decisions: int = MAX_DECISIONS, check: bool = False) -> Game:
    """Ask each decision's player's agent until the game ends (bounded); `check` verifies the
    invariants after every decision."""
    from .invariants import checked_apply
    for a in agents.values():
        if hasattr(a, "observe"):
            a.observe(game)
    n = 0
    while game.pending is not None:
        d = game.pending
        ans = agents[d.player].choose(d.player, d.options, d)
        if check:
            checked_apply(game, ans)
        else:
            game.apply(ans)
        n += 1
        if on_decision is not None:
            on_decision(game)
        if n > max_decisions:
            raise RuntimeError(f"game did not finish within {max_decisions} decisions")
    return game


__all__ = ["run_game", "ScriptExhausted"]
