"""What a finished or cut-off playout is worth to each seat (a value in [0, 1] per player).

A finished game: 0.9 x the player's share of the victory (1 for a sole winner, 1/k for each of k
sharing it, 0 when humanity wins) plus 0.1 x the player's Doom over the highest Doom (so among
lost games, closer ones are better). A playout cut off at the depth cap is estimated the same
way from a score built only from public facts:

    score = Doom + face-down Elder Signs x their mean value + gates controlled
            + spellbooks + Power / 4

and the victory share is a softmax of the scores (temperature 3 Doom), a rough chance of winning
from here. Where the ruleset lets only players with all six spellbooks win, each player's weight
is scaled by its chance to qualify in the time left. The game's lateness (the larger of the top
Doom's and the ritual marker's share of the way to the end) leaves room for `(1 - lateness) x
PACE` more spellbooks; a player missing `m` books qualifies with chance `min(1, room / m)`
squared. The shares add up to the chance that anyone qualifies (the rest is humanity's). So a Doom
lead without the spellbooks is not a win, a Ritual that brings the end nearer costs most the
players furthest from six, and ending the game with nobody qualified is worth nothing. The
weights are a documented guess, checked by benchmarks/strength.py; they name no faction.
"""
from __future__ import annotations

import math

from ..engine.game import Game
from ..engine.position import DEFAULT_ELDER_SIGNS

__all__ = ["values", "WIN", "TEMPERATURE"]

WIN = 0.9          # the weight of the victory share; the rest is the Doom term (closer losses are better)
TEMPERATURE = 3.0  # Doom points of lead that make a seat e (2.7) times likelier to win
BOOKS = 6          # the spellbooks a player needs to win where the ruleset asks for all six
PACE = 8.0         # spellbooks a player could still earn over a whole game (the room at lateness 0)


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
    anyone = 1.0   # the chance that somebody qualifies to win
    if game.needs_six_spellbooks():
        room = (1 - _lateness(game)) * PACE
        ready = {p: _qualify(BOOKS - min(len(s.spellbooks[p]), BOOKS), room) for p in players}
        anyone = 1 - math.prod(1 - r for r in ready.values())
        weights = {p: w * ready[p] for p, w in weights.items()}
    total = sum(weights.values())
    if total <= 0:
        return _mix({p: 0.0 for p in players}, score)
    return _mix({p: anyone * w / total for p, w in weights.items()}, score)


def _qualify(missing: int, room: float) -> float:
    """The chance to earn `missing` more spellbooks when there is room for about `room`."""
    return 1.0 if missing <= 0 else min(1.0, room / missing) ** 2


def _mix(share: dict[str, float], doom: dict[str, float]) -> dict[str, float]:
    top = max(max(doom.values()), 1.0)
    return {p: WIN * share[p] + (1 - WIN) * max(0.0, doom[p]) / top for p in share}


def _score(game: Game, p: str) -> float:
    s = game.s
    return (s.doom[p] + len(s.elder_signs[p]) * _sign_mean(game) + len(s.controlled_gates(p))
            + len(s.spellbooks[p]) + s.power[p] / 4)


def _lateness(game: Game) -> float:
    """How near the game is to its end, 0 to 1: the top Doom's share of the Doom that ends it, or
    the ritual marker's share of its track, whichever is further."""
    s = game.s
    doom_end = float(game.ruleset.get("victory", {}).get("doom", 30) or 30)
    try:
        track = len(game.ritual_track())
    except Exception:  # noqa: BLE001 - an estimate must never stop a search
        track = 0
    by_track = (s.ritual + 1) / track if track else 0.0
    return max(0.0, min(1.0, max(max(s.doom.values()) / doom_end, by_track)))


def _sign_mean(game: Game) -> float:
    mix = game.ruleset.get("elder-signs", DEFAULT_ELDER_SIGNS)
    n = sum(int(k) for k in mix.values())
    return sum(int(v) * int(k) for v, k in mix.items()) / n if n else 0.0
