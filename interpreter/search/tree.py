"""The search tree of information-set MCTS: one node per sequence of answers (the same sequence in
different determinizations is the same node), values kept per seat, UCT selection among the
options legal in the current determinization (availability counts, Cowling et al. 2012)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

__all__ = ["Node"]


@dataclass
class Node:
    """Statistics of the answer that leads here: visits, how often it was on offer, value sums per seat."""

    visits: int = 0
    avail: int = 0
    total: dict[str, float] = field(default_factory=dict)
    children: dict[str, "Node"] = field(default_factory=dict)

    def mean(self, seat: str) -> float:
        """The mean value of this node for `seat` (0 before any visit)."""
        return self.total.get(seat, 0.0) / self.visits if self.visits else 0.0

    def untried(self, options: tuple[str, ...]) -> list[str]:
        """Options legal now that have no child yet (in option order)."""
        return [o for o in options if o not in self.children]

    def select(self, options: tuple[str, ...], mover: str, c: float) -> str:
        """UCT among the children legal now, from the mover's point of view; each is counted as offered."""
        best, best_score = options[0], -math.inf
        for o in options:
            ch = self.children[o]
            ch.avail += 1
        for o in options:
            ch = self.children[o]
            score = ch.mean(mover) + c * math.sqrt(math.log(max(ch.avail, 1)) / max(ch.visits, 1))
            if score > best_score:
                best, best_score = o, score
        return best

    def update(self, values: dict[str, float]) -> None:
        """One more playout through this node, worth `values` to each seat."""
        self.visits += 1
        for seat, v in values.items():
            self.total[seat] = self.total.get(seat, 0.0) + v

    def best(self, options: tuple[str, ...]) -> str:
        """The answer to play: the most visited child (ties: the first in option order)."""
        return max(options, key=lambda o: (self.children[o].visits if o in self.children else -1,
                                           -options.index(o)))
