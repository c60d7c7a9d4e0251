"""What a finished or cut-off playout is worth to each seat (a value in [0, 1] per player).

A finished game: 0.8 x the player's share of the victory (1 for a sole winner, 1/k for each of k
sharing it, 0 when humanity wins) plus 0.2 x the player's Doom over the highest Doom (so among
lost games, closer ones are better). A playout cut off at the depth cap is estimated the same
way from a score built only from public facts:

    score = Doom + face-down Elder Signs x their mean value + gates controlled
            + spellbooks + Power / 4

and the victory share is a softmax of the scores (temperature 3 Doom), a rough chance of winning
from here. The weights are a documented guess, not tuned; they name no faction.
"""
from __future__ import annotations

import math

from ..engine.game import Game
from ..engine.position import DEFAULT_ELDER_SIGNS

__all__ = ["values", "WIN", "TEMPERATURE"]

WIN = 0.8          # the weight of the victory share; the rest is the Doom term
TEMPERATURE = 3.0  # Doom points of lead that make a seat e (2.7) times likelier to win


def values(game: Game) -> dict[str, float]:
    """Each seat's value of the game as it stands: exact when it is over, estimated otherwise."""
    s = game.s
    players = list(s.players)
    if s.over:
        winners = list(s.winners or [])
        share = {p: (1 / len(winners) if p in winners else 0.0) for p in players}
        return _mix(share, {p: float(s.doom[p]) for p in players})
    score = {p: _score(game, p) for p in players}
    top = max(score.values())
    weights = {p: math.exp((score[p] - top) / TEMPERATURE) for p in players}
    total = sum(weights.values())
    return _mix({p: w / total for p, w in weights.items()}, score)


def _mix(share: dict[str, float], doom: dict[str, float]) -> dict[str, float]:
    top = max(max(doom.values()), 1.0)
    return {p: WIN * share[p] + (1 - WIN) * max(0.0, doom[p]) / top for p in share}


def _score(game: Game, p: str) -> float:
    s = game.s
    return (s.doom[p] + len(s.elder_signs[p]) * _sign_mean(game) + len(s.controlled_gates(p))
            + len(s.spellbooks[p]) + s.power[p] / 4)


def _sign_mean(game: Game) -> float:
    mix = game.ruleset.get("elder-signs", DEFAULT_ELDER_SIGNS)
    n = sum(int(k) for k in mix.values())
    return sum(int(v) * int(k) for v, k in mix.items()) / n if n else 0.0
