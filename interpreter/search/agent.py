"""The search bot: information-set Monte Carlo tree search over the one decision interface.

Each playout draws a determinization (`determinize`: hidden information re-sampled from what the
player knows, a fresh random generator, so dice are chance), walks the shared tree by UCT from
the point of view of whoever chooses at each node, adds one node, plays on with the rollout
policy for at most `depth` decisions, and credits every node on the path with each seat's value
(`reward.values`; at the depth cap, a learned evaluation's when one is given, `eval=FILE`,
search/evaluation.py, or a blend of the two, `blend=W`). The answer is the most visited option.
It knows no faction: everything comes from its seat (the player's view, and playable copies of
the position with the hidden values masked, see engine/seat.py) and from `current()` and
`apply()` on its own copies, so it plays modders' factions as it plays the built-in ones, and
gets faster whenever `clone()` does.

With `tt=1` the playouts share statistics between answers that lead to one position (a
transposition table keyed by the position as the bot's player knows it, search/positions.py); with
`reuse=1` a decision starts from the statistics the bot's previous search gathered for the
position the game has reached, when it reached it (the rest is dropped). Both are off by default
(README, "How strong it is", says what they were measured at), and both work within one tree: with
`workers=` above 1 each tree starts empty.

Budgets are playouts (`mcts:400`: the same seed gives the same game) or CPU seconds per decision
(`mcts:0.5s`: as strong as the machine allows, so not reproducible). A decision with one option
is answered at once, without search.
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Callable

from ..engine.decisions import Decision
from ..engine.game import Game, GameError
from ..engine.options import option_info
from ..engine.rng import Rng
from ..engine.seat import Seat
from .budget import SearchConfig, parse_agent
from .determinize import Known, determinize, known_to
from .evaluation import Evaluator, load_evaluation
from .parallel import best_of, grow_trees
from .positions import search_key
from .repeats import Repeats
from .reward import values
from .rivals import SeatBots, rollout_bot
from .tree import Node, Stats

# A time budget counts the CPU time of the thinking thread alone: two bots thinking at once in one
# process (the web board, threads of a batch) each get their whole budget, not a share of the process's.
cpu_clock: Callable[[], float] = time.thread_time

__all__ = ["SearchAgent", "SearchStats", "make_search_agent"]


@dataclass
class SearchStats:
    """What the bot has spent: decisions searched, decisions with one option, playouts, CPU seconds."""

    searched: int = 0
    forced: int = 0
    playouts: int = 0
    cpu: float = 0.0

    def per_decision(self) -> float:
        """Mean CPU seconds per searched decision."""
        return self.cpu / self.searched if self.searched else 0.0


class SearchAgent:
    """Answers each decision by ISMCTS within its budget; `sit(seat)` hands it a player's seat."""

    def __init__(self, config: SearchConfig, seed: int = 0) -> None:
        self.config = config
        self.name = config.label()
        self.rng = Rng(seed ^ 0x6A09E667F3BCC909)
        # the rollouts' and the prior's bot; with `seek=1` it reaches for unmet requirements (engine/seeking.py),
        # with `progress=1` also by their distance, with `reach=1` also over several steps; with
        # `own=1` only for the searching player's decisions (rivals.py)
        self.rollout_bot = rollout_bot(config, seed ^ 0x3C6EF372)
        self.seats: dict[str, Seat] = {}
        self.stats = SearchStats()
        # set from another thread, the search in progress ends after its current playout and answers
        # the best option found so far; its owner (who may replace it with an Event of their own)
        # clears it before the next search
        self.halt = threading.Event()
        self.repeats = Repeats()
        # a learned evaluation (`eval=FILE`) values the positions where rollouts are cut off
        self.evaluation: Evaluator | None = load_evaluation(config.evaluation) if config.evaluation else None
        # per player, the positions of its last search by key (search/positions.py): the next
        # decision's root is looked up there (`reuse=`), and answers meet there (`tt=`)
        self.tables: dict[str, dict[bytes, Stats]] = {}
        self._table: dict[bytes, Stats] | None = None   # the table of the search in progress
        self._keyed = ""                                 # whose knowledge its keys stand for
        self.root: Node | None = None                    # the root of the last single-tree search

    def sit(self, seat: Seat) -> None:
        """The seat of a player it plays (its view and masked copies: never the game itself). A
        learned evaluation trained on other content than the seat's game is refused (ValueError)."""
        check = getattr(self.evaluation, "check_content", None)
        if check is not None:
            check(seat.board().bundle.digest)
        self.seats[seat.player] = seat

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        """The most visited option after the budget's playouts (the only option: at once)."""
        if len(options) == 1:
            self.stats.forced += 1
            return options[0]
        seat = self.seats.get(player)
        if seat is None:
            raise ValueError(f"the search bot needs {player}'s seat: call sit(Seat(game, '{player}')) before choose()")
        t0 = cpu_clock()
        known = known_to(seat)
        back = self.repeats.back_again(seat, context, known)   # free answers that only undo earlier ones
        options = tuple(o for o in options if o not in back)
        if self.config.workers > 1:
            self._table = None
            tally, n, workers_cpu = grow_trees(self, seat, known, back, options)
            self.stats.cpu += workers_cpu
            answer = best_of(tally, options)
        else:
            root = self.root = self._root(seat, known)
            n = self.grow(root, seat, known, back, self.config.playouts, self.config.seconds)
            answer = root.best(options)
        self.stats.searched += 1
        self.stats.playouts += n
        self.stats.cpu += cpu_clock() - t0
        return answer

    def _root(self, seat: Seat, known: Known) -> Node:
        """The root of this decision's search: a fresh one, or (`reuse=`) the statistics the last
        search gathered at this position, with the table cut down to what is reachable from them."""
        cfg = self.config
        if not (cfg.reuse or cfg.tt):
            self._table = None
            return Node()
        self._keyed = seat.player
        key = search_key(determinize(seat, Rng(0), known), seat.player)
        table = self.tables.get(seat.player, {}) if cfg.reuse else {}
        found = table.get(key)
        if found is None:
            table = {key: Stats()}
        else:
            table = _reachable(table, found)
            if cfg.prior and cfg.root:   # its answers' priors were a deeper node's: spread a share as at a root
                e = cfg.root
                for ch in found.children.values():
                    ch.prior = (1 - e) * ch.prior + e / len(found.children)
        self.tables[seat.player] = self._table = table
        return Node(stats=table[key])

    def grow(self, root: Node, seat: Seat, known: Known, back: frozenset[str],
             playouts: int | None, seconds: float | None) -> int:
        """Playouts into `root` until `playouts` are made or `seconds` of this thread's CPU are spent
        (at least one, and none after a stop is asked for); how many were made."""
        t0 = cpu_clock()
        n = 0
        if isinstance(self.rollout_bot, SeatBots):
            self.rollout_bot.me = seat.player
        while True:
            self._playout(root, seat, known, back)
            n += 1
            if self.halt.is_set():
                return n
            if playouts is not None:
                if n >= playouts:
                    return n
            elif cpu_clock() - t0 >= (seconds or 0.0):
                return n

    def _playout(self, root: Node, seat: Seat, known: Known, back: frozenset[str] = frozenset()) -> None:
        """One determinization, one walk down the tree (leaving out the root's options in `back`),
        one rollout, one backup."""
        g = determinize(seat, self.rng, known)
        policy = self._policy(g)
        path = [root]
        try:
            if self.config.prior:
                self._descend_puct(g, root, path, back)
            else:
                self._descend_uct(g, root, path, back)
            for _ in range(self.config.depth):
                d = g.current()
                if d is None:
                    break
                g.apply(policy(d))
        except GameError:
            pass  # a rule failure mid-playout: value the position where it stopped
        v = self._value(g)
        for nd in path:
            nd.update(v)

    def _value(self, g: Game) -> dict[str, float]:
        """Each seat's value where the playout stopped: exact at the end; at the cut-off the learned
        evaluation's (`eval=`), blended with the hand-made estimate's when `blend` is below 1."""
        if self.evaluation is None or g.is_over():
            return values(g)
        learned = self.evaluation.evaluate(g)
        w = self.config.blend
        if w >= 1:
            return learned
        made = values(g)
        return {p: w * learned[p] + (1 - w) * made[p] for p in learned}

    def _descend_uct(self, g: Game, node: Node, path: list[Node], back: frozenset[str] = frozenset()) -> None:
        """Down the tree by UCT to the first untried option, which is added (tried at random)."""
        while not g.is_over():
            d = g.current()
            assert d is not None
            options = _without(d.options, back) if node is path[0] else d.options
            untried = node.untried(options)
            if untried:
                for o in options:
                    if o in node.children:
                        node.children[o].avail += 1
                o = untried[self.rng.below(len(untried))]
                node.children[o] = Node(avail=1)
                g.apply(o)
                if self._arrive(g, node.children[o], path):
                    path.append(node.children[o])
                return
            o = node.select(options, d.player, self.config.c)
            g.apply(o)
            node = node.children[o]
            if not self._arrive(g, node, path):
                return
            path.append(node)

    def _descend_puct(self, g: Game, node: Node, path: list[Node], back: frozenset[str] = frozenset()) -> None:
        """Down the tree by PUCT, the heuristic bot's scores as the prior, to the first child not
        yet visited (a decision with one option is passed through without a node of its own)."""
        while not g.is_over():
            d = g.current()
            assert d is not None
            if len(d.options) == 1:
                g.apply(d.options[0])
                continue
            options = _without(d.options, back) if node is path[0] else d.options
            if any(o not in node.children for o in options):
                priors = self._priors(g, d, options)
                if node is path[0] and self.config.root:   # the root: every option gets a look
                    e = self.config.root
                    priors = [(1 - e) * x + e / len(priors) for x in priors]
                node.expand(options, priors)
            if self.config.widen:
                options = node.widened(options, self.config.widen)
            o = node.select_puct(options, d.player, self.config.c)
            g.apply(o)
            node = node.children[o]
            if not self._arrive(g, node, path):
                return
            path.append(node)
            if node.visits == 0:
                return

    def _arrive(self, g: Game, node: Node, path: list[Node]) -> bool:
        """Where an answer led, seen in the table: a new position is entered; with `tt=`, an answer
        first taken that leads to a known position takes on that position's statistics. False when
        the position is already on this playout's path (a way round: the walk stops there)."""
        table = self._table
        if table is None:
            return True   # without a table every node's statistics are its own: no way round
        if node.visits == 0 and not node.children:
            key = search_key(g, self._keyed)
            known = table.get(key)
            if known is None:
                table[key] = node.stats
            elif self.config.tt:
                node.stats = known
        return all(nd.stats is not node.stats for nd in path)

    def _priors(self, g: Game, d: Decision, options: tuple[str, ...]) -> list[float]:
        """The heuristic bot's liking of each of `options` as probabilities (softmax at the prior temperature)."""
        infos = option_info(d, g.s.players, g.layout.areas)
        if options is not d.options:
            keep = set(options)
            infos = [i for i in infos if i.label in keep]
        scores = self.rollout_bot.scores(d.player, infos, d, g)
        top = max(scores)
        w = [math.exp((x - top) / self.config.prior) for x in scores]
        total = sum(w)
        return [x / total for x in w]

    def _policy(self, g: Game) -> Callable[[Decision], str]:
        if self.config.policy == "heuristic":
            # the rollout plays every seat of the searcher's own sampled copy (nothing real is hidden
            # in it: every hidden value was drawn by the searcher), read directly for speed
            bot = self.rollout_bot
            for p in g.s.players:
                bot.sit(_SampledSeat(g, p))
            return lambda d: bot.choose(d.player, d.options, d)
        rng = self.rng
        return lambda d: d.options[rng.below(len(d.options))]


def _reachable(table: dict[bytes, Stats], root: Stats) -> dict[bytes, Stats]:
    """The entries of `table` whose statistics can be reached from `root` (the rest are dropped)."""
    seen = {id(root)}
    todo = [root]
    while todo:
        for ch in todo.pop().children.values():
            if id(ch.stats) not in seen:
                seen.add(id(ch.stats))
                todo.append(ch.stats)
    return {k: st for k, st in table.items() if id(st) in seen}


def _without(options: tuple[str, ...], back: frozenset[str]) -> tuple[str, ...]:
    """The options not in `back` (all of them when `back` is empty or would leave none)."""
    if not back:
        return options
    return tuple(o for o in options if o not in back) or options


class _SampledSeat(Seat):
    """A seat at the searcher's own determinized copy: its board is the copy itself (no view to
    rebuild: the copy holds only what the searcher knows and what it sampled)."""

    def board(self) -> Game:
        return self._game

    def reading(self) -> Game:
        return self._game


def make_search_agent(name: str, seed: int) -> SearchAgent:
    """A search bot from an agent name such as `mcts:400:heuristic` (ValueError for a bad one)."""
    return SearchAgent(parse_agent(name), seed)
