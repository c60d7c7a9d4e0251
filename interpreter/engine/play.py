"""Play a whole game between agents."""
from __future__ import annotations

from typing import Any, Callable

from ..limits import MAX_DECISIONS
from .agents import ScriptExhausted
from .game import Game, GameError
from .invariants import Checker
from .seat import hand_seats


def run_game(game: Game, agents: dict[str, Any], on_decision: Callable[[Game], None] | None = None,
             max_decisions: int = MAX_DECISIONS, check: bool | Checker = False) -> Game:
    """Ask each decision's player's agent until the game ends (bounded); `check` verifies the
    invariants after every logged event and every decision (pass a Checker to read its counts).

    Bots are handed seats (their player's view, `engine/seat.py`), never the game. A front end
    that observes the game (a person's seat) may take answers back (Game.undo) before it answers;
    its answer is then for the decision pending when it returns, applied like any other."""
    checker = check if isinstance(check, Checker) else Checker(game) if check else None
    hand_seats(game, agents)
    n = 0
    while game.pending is not None:
        d = game.pending
        ans = agents[d.player].choose(d.player, d.options, d)
        if checker is not None:
            checker.apply(ans)
        else:
            game.apply(ans)
        n += 1
        if on_decision is not None:
            on_decision(game)
        if n > max_decisions:
            # a last net: the engine ends a stalled Action Phase itself (limits.MAX_ACTIONS_PER_PHASE)
            raise GameError(f"game did not finish within {max_decisions} decisions (limit)")
    if checker is not None and checker is not check:
        checker.detach()
    return game


__all__ = ["run_game", "ScriptExhausted"]
