"""Determinization: a playable copy of the game that agrees with everything one player knows and
re-samples everything that player cannot know.

What is public or the player's own is kept (the map, Power, Doom, spellbooks, the number of each
player's face-down Elder Signs, the player's own values, the log of revealed values). What is
hidden (see `Game.view`) is drawn afresh from the searcher's generator:

- others' face-down Elder Sign values and the bag's order and contents: the signs not accounted
  for (the ruleset's mix, less the player's own and every value revealed in the log) are shuffled
  and dealt to the others' face-down signs, the rest forming the bag;
- the game's random generator (so dice and draws to come are chance, not foreknowledge), and any
  scripted dice (dropped);
- the answers of a pending group of secret picks that others gave before the player: they are
  replaced by random options of the same question.

The real game's hidden values are overwritten before the copy is used; nothing of them reaches
the search (tests/test_search.py checks that games differing only in them get the same decisions).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..engine.game import Game
from ..engine.position import DEFAULT_ELDER_SIGNS
from ..engine.rng import MASK, Rng

__all__ = ["Known", "determinize", "known_to", "unseen_signs"]


@dataclass(frozen=True)
class Known:
    """What a player knows at a decision, worked out once for all its determinizations: its view,
    the Elder Sign values it cannot see, and which of this turn's answers are others' unrevealed
    secret picks (by position)."""

    player: str
    view: dict[str, Any]
    unseen: tuple[int, ...]
    open_picks: tuple[int, ...]


def known_to(game: Game, player: str) -> Known:
    """What `player` knows of `game` now."""
    view = game.view(player)
    picks = _open_secret_picks(game, player) if _is_secret(game) else []
    return Known(player, view, tuple(unseen_signs(game, player, view)), tuple(picks))


def determinize(game: Game, player: str, rng: Rng, known: Known | None = None) -> Game:
    """A copy of `game` at its pending decision, hidden information re-sampled for `player`
    (`known`: `known_to(game, player)`, when several copies of one decision are drawn)."""
    k = known if known is not None else known_to(game, player)
    g = _replay_with(game, list(k.open_picks), rng) if k.open_picks else game.clone()
    _deal_signs(g, player, k.view, list(k.unseen), rng)
    g.s.rng = (rng.below(1 << 62) << 2 | rng.below(4)) & MASK
    g.s.seed = 0  # the seed, like the generator, would predict the draws to come
    g._forced_dice = None  # scripted dice are the real game's future: never the searcher's to see
    return g


def unseen_signs(game: Game, player: str, view: dict[str, Any]) -> list[int]:
    """The Elder Sign values `player` cannot see, as far as public facts tell: the ruleset's mix,
    less the player's own face-down values and every value the log shows revealed (sorted)."""
    mix = game.ruleset.get("elder-signs", DEFAULT_ELDER_SIGNS)
    left = Counter({int(v): int(n) for v, n in mix.items()})
    left.subtract(view["state"]["elder_signs"][player])
    for e in game.log:
        if e.get("type") == "elder-signs-revealed":
            left.subtract(int(v) for v in e.get("values", []))
    return sorted(v for v, n in left.items() for _ in range(max(0, n)))


def _deal_signs(g: Game, player: str, view: dict[str, Any], unseen: list[int], rng: Rng) -> None:
    """Shuffle the unseen values and deal them to the others' face-down signs and the bag. When
    the counts disagree (a game built from a position, a log cut short) extra values are dropped
    at random and missing ones are 1s, the commonest value."""
    vs = view["state"]
    need = sum(len(v) for p, v in vs["elder_signs"].items() if p != player) + len(vs["es_bag"])
    pool = list(unseen)
    _shuffle(pool, rng)
    pool = pool[:need] + [1] * max(0, need - len(pool))
    for p, signs in vs["elder_signs"].items():
        if p != player:
            g.s.elder_signs[p] = [pool.pop() for _ in signs]
        else:
            g.s.elder_signs[p] = list(signs)
    g.s.es_bag = pool


def _shuffle(xs: list[Any], rng: Rng) -> None:
    for i in range(len(xs) - 1, 0, -1):
        j = rng.below(i + 1)
        xs[i], xs[j] = xs[j], xs[i]


def _is_secret(game: Game) -> bool:
    d = game.current()
    return d is not None and bool(d.context.get("secret"))


def _from_checkpoint(game: Game) -> tuple[Game, list[str]]:
    """A copy at the game's last checkpoint and the answers given since (the turn's)."""
    data = game.to_json()
    turn = list(data["turn"])
    data["turn"] = []
    return Game.from_json(game.bundle, data), turn


def _open_secret_picks(game: Game, player: str) -> list[int]:
    """Which of this turn's answers are others' secret picks not yet revealed (by position)."""
    g, turn = _from_checkpoint(game)
    open_: list[int] = []
    for i, answer in enumerate(turn):
        d = g.current()
        if d is not None and d.context.get("secret") and d.player != player:
            open_.append(i)
        seen = len(g.log)
        g.apply(answer)
        if any(e.get("type") == "secret-picks" for e in g.log[seen:]):
            open_ = []
    return open_


def _replay_with(game: Game, hidden: list[int], rng: Rng) -> Game:
    """The turn replayed from its checkpoint with the hidden answers drawn at random."""
    g, turn = _from_checkpoint(game)
    for i, answer in enumerate(turn):
        d = g.current()
        assert d is not None
        g.apply(d.options[rng.below(len(d.options))] if i in hidden else answer)
    return g
