"""The search tree of information-set MCTS: one node per answer out of a position, values kept per
seat, UCT selection among the options legal in the current determinization (availability counts,
Cowling et al. 2012).

A node is an edge: the answer's prior and how often it was on offer are its own, while its visits,
value sums and onward answers are those of the position it leads to (`Stats`). The search
(agent.py) looks positions up by key (positions.py), so two answers, or two orders of answers,
that lead to one position share its statistics (a transposition table: the tree is a graph), and
the next decision starts from the statistics the previous one gathered for the line the game
followed. Without a table every node has statistics of its own (a tree of answer sequences).

With a prior (each child's share of a policy's belief, `expand`), selection is PUCT instead
(AlphaZero's rule): mean value + c x prior x sqrt(parent visits) / (1 + visits), an unvisited
child valued at its parent's mean. Few playouts then follow the prior; more let the values speak."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

__all__ = ["Node", "Stats"]


@dataclass(eq=False)
class Stats:
    """A position's statistics: playouts through it, value sums per seat, the answers out of it."""

    visits: int = 0
    total: dict[str, float] = field(default_factory=dict)
    children: dict[str, "Node"] = field(default_factory=dict)


@dataclass(eq=False)
class Node:
    """An answer's edge: its prior, how often it was on offer, and the statistics of where it leads."""

    avail: int = 0
    prior: float = 0.0
    stats: Stats = field(default_factory=Stats)

    @property
    def visits(self) -> int:
        return self.stats.visits

    @property
    def total(self) -> dict[str, float]:
        return self.stats.total

    @property
    def children(self) -> dict[str, "Node"]:
        return self.stats.children

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

    def expand(self, options: tuple[str, ...], priors: list[float]) -> None:
        """Children for options not seen before, each with its prior."""
        for o, p in zip(options, priors):
            if o not in self.children:
                self.children[o] = Node(prior=p)

    def select_puct(self, options: tuple[str, ...], mover: str, c: float) -> str:
        """PUCT among the children legal now (all expanded), from the mover's point of view."""
        sq = math.sqrt(max(self.visits, 1))
        fpu = self.mean(mover)
        best, best_score = options[0], -math.inf
        for o in options:
            ch = self.children[o]
            ch.avail += 1
            q = ch.mean(mover) if ch.visits else fpu
            score = q + c * ch.prior * sq / (1 + ch.visits)
            if score > best_score:
                best, best_score = o, score
        return best

    def widened(self, options: tuple[str, ...], k: float) -> tuple[str, ...]:
        """Progressive widening: the `k x sqrt(visits + 1)` options (at least two) of the highest prior,
        in option order, so a decision with dozens of options spends its first playouts on the likeliest."""
        room = max(2, int(k * math.sqrt(self.visits + 1)))
        if room >= len(options):
            return options
        ranked = sorted(range(len(options)), key=lambda i: (-self.children[options[i]].prior, i))
        keep = set(ranked[:room])
        return tuple(o for i, o in enumerate(options) if i in keep)

    def update(self, values: dict[str, float]) -> None:
        """One more playout through this node, worth `values` to each seat."""
        st = self.stats
        st.visits += 1
        total = st.total
        for seat, v in values.items():
            total[seat] = total.get(seat, 0.0) + v

    def best(self, options: tuple[str, ...]) -> str:
        """The answer to play: the most visited child (ties: the higher prior, then the first in option order)."""
        def key(o: str) -> tuple[int, float, int]:
            ch = self.children.get(o)
            return (ch.visits, ch.prior, -options.index(o)) if ch is not None else (-1, 0.0, -options.index(o))
        return max(options, key=key)
