"""What a finished or cut-off playout is worth to each seat (a value in [0, 1] per player).

A finished game that someone won: 0.9 x the player's share of the victory (1 for a sole winner,
1/k for each of k sharing it) plus 0.1 x the player's Doom over the highest Doom (so among lost
games, closer ones are better: a tiebreak that keeps the search pressing towards a win). A game
nobody won (humanity wins) is worth 0 to every seat: the rules make it a loss for all, and giving it
the Doom term made it a seat's best loss, so a seat that could not qualify yet ended games by Doom
(spoiling cost it nothing, where playing on kept its chance to qualify). A playout cut off at the depth cap is estimated the same
way from a score built only from public facts:

    score = Doom + face-down Elder Signs x their mean value + gates controlled
            + spellbooks + Power / 4

and a player's chance of victory is its chance to qualify times, for each rival, the chance that
the rival does not both qualify and finish ahead of it (ahead by `d` points with chance
1 / (1 + e^(-d/3)): 3 points of lead make it e times likelier). In the Duel (nobody needs
spellbooks) that is exactly a two-way softmax of the scores. Where the ruleset lets only players
with all six spellbooks win, the chance to qualify is a logistic of the spellbooks missing `m` and
the Doom clock `t` (the top Doom's share of the Doom that ends the game):

    chance to qualify = 1 / (1 + e^-(1.5 - 0.5 m - 2.1 t - 0.75 m t))     (1 with none missing)

fitted to heuristic four-player games of the core factions (`python -m benchmarks.qualify_fit
--games 150 --every 8 --seed 5000`: 31,423 seat positions, log loss 0.460 with these weights,
0.459 refitted, 0.528 for the base rate). It replaces a pace model (each player's spellbooks so
far extrapolated over the time left, the ritual marker's share of the track counting as time),
whose log loss on a like run of 150 games was 2.67: it called every
player sure to qualify in the first rounds, and none once the marker stood on the track's last step,
where four-player games spend their second half (nobody wants to pay for Instant Death), so a
search seat one spellbook short saw no chance left and raced Doom, ending games it could not win.
The ritual marker added nothing to the fit once Doom was in it. Every spellbook missing costs
chance at every Doom, most late, so the search values each one; a Doom lead without the
spellbooks is not a win, and ending the game with nobody qualified is worth nothing. The weights
are a documented fit, refitted by benchmarks/qualify_fit.py and judged by benchmarks/strength.py;
they name no faction.
"""
from __future__ import annotations

import math

from ..engine.game import Game
from ..engine.phases import SPELLBOOKS
from ..engine.position import DEFAULT_ELDER_SIGNS
from ..engine import actions, phases

__all__ = ["values", "lateness", "chance_to_qualify", "WIN", "TEMPERATURE", "QUALIFY"]

WIN = 0.9          # the weight of the victory share; the rest is the Doom term (closer losses are better)
TEMPERATURE = 3.0  # Doom points of lead that make a seat e (2.7) times likelier to win
BOOKS = SPELLBOOKS  # the spellbooks a player needs to win where the ruleset asks for all of them
# the chance to qualify's logistic: constant, per spellbook missing, per Doom clock, per both (module docstring)
QUALIFY = (1.5, -0.5, -2.1, -0.75)


def values(game: Game) -> dict[str, float]:
    """Each seat's value of the game as it stands: exact when it is over, estimated otherwise."""
    s = game.s
    players = list(s.players)
    if s.over:
        winners = list(s.winners or [])
        if not winners:
            return dict.fromkeys(players, 0.0)
        share = {p: (1 / len(winners) if p in winners else 0.0) for p in players}
        return _mix(share, {p: float(s.doom[p]) for p in players})
    score = {p: _score(game, p) for p in players}
    ready = _ready(game) if phases.needs_six_spellbooks(game.rules) else dict.fromkeys(players, 1.0)
    win = {p: ready[p] * math.prod(1 - ready[q] * _ahead(score[q] - score[p]) for q in players if q != p)
           for p in players}
    return _mix(win, score)


def _ahead(lead: float) -> float:
    """The chance that a player `lead` points of score ahead of another ends with more Doom."""
    return 1 / (1 + math.exp(-lead / TEMPERATURE))


def _ready(game: Game) -> dict[str, float]:
    """Each player's chance to hold six spellbooks by the end (the module docstring's logistic)."""
    s = game.s
    clock = lateness(game)
    return {p: chance_to_qualify(BOOKS - min(len(s.spellbooks[p]), BOOKS), clock) for p in s.players}


def chance_to_qualify(missing: int, clock: float) -> float:
    """The chance to earn `missing` more spellbooks with the Doom clock at `clock` (0 to 1)."""
    if missing <= 0:
        return 1.0
    a, per_book, per_clock, both = QUALIFY
    return 1 / (1 + math.exp(-(a + per_book * missing + per_clock * clock + both * missing * clock)))


def _mix(share: dict[str, float], doom: dict[str, float]) -> dict[str, float]:
    top = max(max(doom.values()), 1.0)
    return {p: WIN * share[p] + (1 - WIN) * max(0.0, doom[p]) / top for p in share}


def _score(game: Game, p: str) -> float:
    s = game.s
    return (s.doom[p] + len(s.elder_signs[p]) * _sign_mean(game) + actions.gate_count(game.rules, p)
            + len(s.spellbooks[p]) + s.power[p] / 4)


def lateness(game: Game) -> float:
    """How near the game is to its end, 0 to 1: the top Doom's share of the Doom that ends it (the
    Doom clock of the chance to qualify). The ritual marker is not read: four-player games spend
    their second half on its last step, where nobody pays for Instant Death, so a reading of the
    track said "the game is over" for half the game; it added nothing to the qualify fit once Doom
    was in it (benchmarks/qualify_fit.py)."""
    doom_end = float(phases.doom_goal(game.rules) or 30)
    return max(0.0, min(1.0, max(game.s.doom.values()) / doom_end))


def _sign_mean(game: Game) -> float:
    mix = game.ruleset.settings.get("elder-signs", DEFAULT_ELDER_SIGNS)
    n = sum(int(k) for k in mix.values())
    return sum(int(v) * int(k) for v, k in mix.items()) / n if n else 0.0
