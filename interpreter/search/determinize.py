"""Determinization: a playable copy of the game that agrees with everything one player knows and
re-samples everything that player cannot know.

The search bot holds a `Seat` (engine/seat.py), never the game. The seat gives the player's view
and a playable copy of the position in which every hidden value is already masked; this module
fills the masked values by sampling from what the view allows:

- others' face-down Elder Sign values and the bag's contents: the signs not accounted for (the
  ruleset's mix, less the player's own and every value revealed in the public log) are shuffled
  and dealt to the others' face-down signs, the rest forming the bag;
- the game's random generator (so dice and draws to come are chance, not foreknowledge); scripted
  dice are dropped by the seat;
- the answers of a pending group of secret picks that others gave before the player: the seat's
  copy draws random options of the same question in their place.

Nothing hidden reaches the search: tests/test_bot_inputs.py checks that games differing only in
hidden values give the same views, the same copies and the same decisions.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..engine.game import Game
from ..engine.position import DEFAULT_ELDER_SIGNS
from ..engine.rng import MASK, Rng
from ..engine.seat import Seat

__all__ = ["Known", "determinize", "known_to", "unseen_signs"]


@dataclass(frozen=True)
class Known:
    """What a player knows at a decision, worked out once for all its determinizations: its view,
    the Elder Sign values it cannot see, and which picks of a pending `secret_picks` are others'
    and not yet revealed (by position; the seat's copy draws them afresh)."""

    player: str
    view: dict[str, Any]
    unseen: tuple[int, ...]
    open_picks: tuple[int, ...]


def known_to(seat: Seat) -> Known:
    """What the seat's player knows now."""
    view = seat.view()
    board = seat.board()
    return Known(seat.player, view, tuple(unseen_signs(board, seat.player, view)), seat.open_picks())


def determinize(seat: Seat, rng: Rng, known: Known | None = None) -> Game:
    """A playable copy of the seat's position, hidden information re-sampled with `rng`
    (`known`: `known_to(seat)`, when several copies of one decision are drawn)."""
    k = known if known is not None else known_to(seat)
    g = seat.masked_copy(rng)
    pool = list(k.unseen)
    _shuffle(pool, rng)
    _deal_signs(g, k.player, k.view, pool)
    g.s.rng = (rng.below(1 << 62) << 2 | rng.below(4)) & MASK
    g.s.seed = 0
    return g


def unseen_signs(board: Game, player: str, view: dict[str, Any]) -> list[int]:
    """The Elder Sign values `player` cannot see, as far as public facts tell: the ruleset's mix,
    less the player's own face-down values and every value the log shows revealed (sorted)."""
    mix = board.ruleset.settings.get("elder-signs", DEFAULT_ELDER_SIGNS)
    left = Counter({int(v): int(n) for v, n in mix.items()})
    left.subtract(view["state"]["elder_signs"][player])
    for e in board.log:
        if e.get("type") == "elder-signs-revealed":
            left.subtract(int(v) for v in e.get("values", []))
    return sorted(v for v, n in left.items() for _ in range(max(0, n)))


def _deal_signs(g: Game, player: str, view: dict[str, Any], shuffled: list[int]) -> None:
    """Deal the shuffled unseen values to the others' face-down signs and the bag. When the counts
    disagree (a game built from a position, a log cut short) extra values are dropped and missing
    ones are 1s, the commonest value."""
    vs = view["state"]
    need = sum(len(v) for p, v in vs["elder_signs"].items() if p != player) + len(vs["es_bag"])
    pool = shuffled[:need] + [1] * max(0, need - len(shuffled))
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
