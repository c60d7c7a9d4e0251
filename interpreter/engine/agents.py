"""Bots answer decisions. Every agent (these, a test script, the terminal seat for a person) shares
one method, choose(player, options, decision). A bot that reads the position is handed a seat per
player it plays (`sit(seat)`, engine/seat.py): the player's view, never the game."""
from __future__ import annotations

from typing import Any, Callable

from .decisions import Decision
from .options import Option, UnclassifiedOption, option_info
from .rng import Rng
from .seat import Seat
from . import basics
from . import core
from .core import combat_of
from . import phases
from .phases import has_all_spellbooks
from . import actions
from . import seeking
from .requirement_scores import (KEEP_IN_POOL as _KEEP_IN_POOL, MOVE_TO_EARN as _MOVE_TO_EARN, REQUIREMENT,
                                 awaken_score as _awaken_score, company_score as _company_score,
                                 progress_score as _progress_score, reach_score as _reach_score)
from . import company as company_steps


class RandomAgent:
    """Uniformly random among the options; seeded, so a seeded game is reproducible."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed ^ 0x5DEECE66D)

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        return options[self.rng.below(len(options))]


_ACTION_SCORE = {"awaken": 50, "requirement": REQUIREMENT, "create-gate": 45, "capture": 40, "summon": 30,
                 "battle": 20, "extra-battle": 20, "ability": 22, "recruit": 25, "control-gate": 70,
                 "move": 18, "reveal-elder-signs": -50, "abandon-gate": -60, "end-turn": 0, "pass": -30,
                 "done": 1, "decline": 0, "decline-second-action": 0}


class HeuristicAgent:
    """A simple greedy bot. It reads its seat's board (the position as its player's view shows
    it: `Seat.reading`) and the structured options (engine/options.py) to pick cheap casualties,
    safe retreats, battles it should win and rituals worth their Power; ties are broken at random.
    Without a seat it judges by the options alone.

    Per decision it works out once what every option's score reads (whether the decision asks
    for a casualty, the units per place of a move), reads the board only for the scores that
    need it, and judges a battle's odds only when the battle could still win the choice.

    With `seek` (the search bot's rollouts and prior, `mcts:...:seek=1`) it also reaches for its
    unmet spellbook requirements (engine/seeking.py): an ability that may earn one scores as a
    requirement's action, and a summon or recruit that would empty the pool of the units such an
    ability needs scores below a move.

    With `progress` (`mcts:...:progress=1`) it also scores what would place a unit or a Gate by
    how much closer it brings its unmet board-state requirements (their distance, read from each
    condition: effects/progress.py), tried on one copy of its board per decision (seeking.Trial):
    a summon or recruit 8 more per step closer (two at most), a Gate that closes a step as a
    requirement's action, a Move action as the seeking Move (35) when one unit's step would,
    and each unit move 6 per step closer (from one step back to three on).

    With `reach` (`mcts:...:reach=1`) it also walks a unit toward where it would close a step
    further off than one move (seeking.Trial.gain_reach: a serving ability's holder toward where
    the ability would earn, a cultist toward where a Gate would bring a requirement closer, in
    steps along the map): the Move action scores as the seeking Move (35) when that unit can step
    nearer, and its move 6 more per step nearer (6 less per step away).

    With `awaken` (`mcts:...:awaken=1`) an awakening that would meet an unmet requirement is one
    more step those scores reach for (engine/awaken_steps.py): its distance counts with the
    board-state requirements' (a unit walks, a Gate is built, where it would be offered), it
    scores as a requirement's action, and while it is offered (or one move away) an action that
    would leave less Power than it needs scores as low as a kept-back summon.

    With `company` (`mcts:...:company=1`) units join the holder of a serving ability that counts
    units (engine/company.py): their moves score 6 more, the Move action 35, and the ability waits
    just below that Move while a unit next to its area could join.

    With `brake` (`mcts:...:brake=1`) it performs no Ritual of Annihilation whose Doom would bring
    it to the Doom goal while it lacks the six spellbooks a win needs (a game it ends so is one it
    cannot win), as it already declines the ritual that would end the track then, and keeps its
    Elder Signs hidden when revealing them would reach the goal then (the offer's two answers
    otherwise score alike)."""

    def __init__(self, seed: int = 0, seek: bool = False, progress: bool = False, reach: bool = False,
                 awaken: bool = False, company: bool = False, brake: bool = False) -> None:
        self.rng = Rng(seed ^ 0x2545F491)
        self.seats: dict[str, Seat] = {}
        self.seek = seek
        self.progress = progress
        self.reach = reach
        self.awaken = awaken
        self.company = company
        self.brake = brake

    def sit(self, seat: Seat) -> None:
        """The seat of a player this bot plays."""
        self.seats[seat.player] = seat

    def _unit_value(self, g: Any, o: Option) -> float:
        if g is None or o.unit is None:
            return 0.0
        try:
            return float(core.doom_value(g.rules, g.s.unit(o.unit)))
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return 0.0

    def _ends_the_game_lost(self, g: Any, player: str) -> bool:
        """Whether a ritual now would end the game (the marker reaching the end of the track)
        while this player could not win: it lacks the six spellbooks a win needs."""
        try:
            return phases.rituals_left(g.rules) <= 1 and phases.needs_six_spellbooks(g.rules) and not has_all_spellbooks(g.rules, player)
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return False

    def _short_of_six(self, g: Any, player: str) -> bool:
        """Whether this player lacks the six spellbooks a win needs."""
        try:
            return phases.needs_six_spellbooks(g.rules) and not has_all_spellbooks(g.rules, player)
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return False

    def _reaches_goal_lost(self, g: Any, player: str) -> bool:
        """Whether a ritual now would bring this player to the Doom goal (its Gates' Doom) while it
        lacks the six spellbooks a win needs."""
        try:
            return phases.needs_six_spellbooks(g.rules) and not has_all_spellbooks(g.rules, player) and \
                g.s.doom.get(player, 0) + actions.gate_count(g.rules, player) >= phases.doom_goal(g.rules)
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return False

    def _battle_odds(self, g: Any, player: str, o: Option) -> float:
        if g is None or o.area is None or o.player is None:
            return 0.0
        try:
            mine = sum(combat_of(g.rules, u, foe=o.player) for u in g.s.units_at(o.area, player))
            theirs = sum(combat_of(g.rules, u, foe=player) for u in g.s.units_at(o.area, o.player))
        except Exception:  # noqa: BLE001
            return 0.0
        return 30.0 if mine > theirs + 1 else -40.0

    def score(self, player: str, o: Option, d: Decision, g: Any = None) -> float:
        """How much the bot likes option `o` of decision `d`; `g`: the board (its player's view), if any."""
        return self._scorer(player, d, g)(o)

    def scores(self, player: str, options: list[Option], d: Decision, g: Any = None) -> list[float]:
        """`score` of each of `options` of decision `d`, with what they share worked out once."""
        return _each(self._scorer(player, d, g), options)

    def _scorer(self, player: str, d: Decision, g: Any) -> Callable[[Option], float]:
        """The score of each option of decision `d` (see `score`), with what the scores of one
        decision share worked out once: the kind of decision, whether it asks for a casualty,
        the player's units per place (a move decision scores many moves at one position)."""
        kind = d.kind
        if kind == "doom":
            return lambda o: self._doom_score(player, o, g)
        if kind == "action":
            trial = seeking.Trial(g, player, self.awaken) if g is not None and \
                (self.seek or self.progress or self.reach or self.awaken or self.company) else None
            return lambda o: self._action_score(player, o, g, trial)
        if kind == "unit":
            if "assign" in d.prompt or "eliminate" in d.prompt or "surrounded" in d.prompt:
                return lambda o: -self._unit_value(g, o)   # lose the cheapest unit
            return lambda o: self._unit_value(g, o)
        if kind == "area" and g is not None:
            return lambda o: float(len(g.s.units_at(o.area, player)))
        if kind == "move":
            return _MoveScores(player, g, self.seek, self.progress, self.reach, self.awaken, self.company)
        if kind == "ability":
            return lambda o: 5 if o.verb != "done" else 0
        if kind == "option" and self.brake and g is not None:
            return lambda o: -5 if o.word == _REVEAL and self._short_of_six(g, player) else 0
        return lambda o: 0

    def _doom_score(self, player: str, o: Option, g: Any) -> float:
        if o.verb == "ritual":
            gates = actions.gate_count(g.rules, player) if g is not None else 0
            late = g is not None and g.s.round >= 3
            if g is not None and (self._ends_the_game_lost(g, player) or self.brake and self._reaches_goal_lost(g, player)):
                return -5
            return 80 if gates >= 3 or (late and gates >= 1) else -5
        return 10 if o.verb != "done" else 0

    def _action_score(self, player: str, o: Option, g: Any, trial: "seeking.Trial | None" = None) -> float:
        base = _action_base(o)
        if o.verb in _BATTLES:
            base += self._battle_odds(g, player, o)
        elif trial is not None:
            if self.seek and o.verb in _SEEKING:
                base = self._seeking_score(player, o, g, base, trial)
            if self.progress and o.verb in _PLACING:
                base = max(base, _progress_score(o, trial, base))
            if self.reach and o.verb == "move":
                base = max(base, _reach_score(trial, base))
            if self.company:
                base = _company_score(o, trial, base)
            if self.awaken:
                base = _awaken_score(o, g, player, trial, base)
        return base

    def _seeking_score(self, player: str, o: Option, g: Any, base: float, trial: "seeking.Trial") -> float:
        """An action's score when the bot reaches for its unmet requirements (see the class)."""
        try:
            if o.verb == "ability":
                if not seeking.serves_unmet(g, player, o.ability):
                    return base
                earns = o.area is None or trial.earns_at(o.ability, o.area)
                return _ACTION_SCORE["requirement"] if earns else base
            if o.verb == "move":
                return _MOVE_TO_EARN if seeking.move_pays(g, player, trial) else base
            return _KEEP_IN_POOL if seeking.drains_reserve(g, player, o.unit_kind) else base
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return base

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        seat = self.seats.get(player)
        if seat is not None and len(options) > 1:
            infos = seat.options(context)
            g: Any = _BoardOnRead(seat)
        else:
            g, infos = None, _plain(context)
        pairs = list(zip(infos, context.options))
        ties = [x / 1000 for x in self.rng.below_each(100, len(pairs))]   # one draw per option, in order
        score = self._scorer(player, context, g)
        if context.kind != "action":   # the first of the highest (score + tie-break, label), as max() finds it
            top: tuple[float, str] | None = None
            for v, t, label in zip(_each(score, infos), ties, context.options):
                scored = (v + t, label)
                if top is None or scored > top:
                    top = scored
            assert top is not None
            return top[1]
        # a battle scores its base plus 30 or -40 (its odds, read off the board): judged only
        # when its best case could beat the best option scored so far
        best: tuple[float, str] | None = None
        battles = []
        for (o, label), t in zip(pairs, ties):
            if o.verb in _BATTLES:
                battles.append((o, label, t))
                continue
            scored = (score(o) + t, label)
            if best is None or scored > best:
                best = scored
        for o, label, t in battles:
            if best is not None and (_action_base(o) + _BEST_ODDS) + t < best[0]:
                continue
            scored = (score(o) + t, label)
            if best is None or scored > best:
                best = scored
        assert best is not None
        return best[1]


_BATTLES = frozenset({"battle", "extra-battle"})
_REVEAL = "reveal-elder-signs"   # the answer that reveals a player's Elder Signs when that reaches the Doom goal
_SEEKING = frozenset({"ability", "summon", "recruit", "move"})   # the verbs requirement seeking rescores
_PLACING = frozenset({"summon", "recruit", "create-gate", "move"})   # ... and requirement progress
_STEP_CLOSER = 6.0    # a unit move, per step closer (one step back to three on)
_STEP_TO_EARN = 6.0    # a unit move that brings it there: more than any other move scores
_BEST_ODDS = 30.0   # what `_battle_odds` adds to a battle it should win


def _each(score: Callable[[Option], float], options: "list[Option] | tuple[Option, ...]") -> list[float]:
    """`score(o)` for each of `options`, in order (a move decision's in one call: `_MoveScores.each`)."""
    if type(score) is _MoveScores:
        return score.each(options)   # type: ignore[attr-defined]
    return [score(o) for o in options]


def _action_base(o: Option) -> float:
    """An action's score before a battle's odds: by its verb; a free ability (often "do
    nothing" or "rest") rarely beats building up."""
    if o.verb == "ability" and o.cost == 0:
        return 4
    return _ACTION_SCORE.get(o.verb, 10)


class _MoveScores:
    """The scores of a move decision's options: a unit moved to a place where the player has no
    unit, leaving friends behind, and not onto another player's Gate. The player's units per
    place are read from the board once, at the first unit move scored (a memo fact of the board),
    and whether a place holds another player's Gate once per place (a decision moves many units
    to the same places)."""

    def __init__(self, player: str, g: Any, seek: bool = False, progress: bool = False, reach: bool = False,
                 awaken: bool = False, company: bool = False) -> None:
        self.player = player
        self.g = g
        self.mine: dict[str, int] | None = None
        self.foreign_gate: dict[str, bool] = {}
        self.seek = seek
        self.progress = progress
        self.reach = reach
        self.company = company
        self.trial = seeking.Trial(g, player, awaken) if g is not None and (seek or progress or reach or awaken or company) \
            else None

    def _earns(self, ability: str, area: str) -> bool:
        assert self.trial is not None
        return self.trial.earns_at(ability, area)

    def _step_to_earn(self, o: Option) -> float:
        """With `seek`: a bonus for moving a serving ability's holder from where it earns nothing
        to where it would earn an unmet requirement (engine/seeking.py)."""
        try:
            ability = seeking.holds_seeker(self.g, self.player, o.unit_kind)
            if ability is None or self._earns(ability, o.src) or not self._earns(ability, o.dst):
                return 0.0
            return _STEP_TO_EARN
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return 0.0

    def __call__(self, o: Option) -> float:
        return self.each((o,))[0]

    def each(self, options: "list[Option] | tuple[Option, ...]") -> list[float]:
        """The score of each of `options`, in order: the decision's facts read once for all of
        them, not once per option (a move decision has about a hundred)."""
        g = self.g
        if g is None:
            return [2 if o.verb == "done" else 1 for o in options]
        player, mine, foreign_gate = self.player, self.mine, self.foreign_gate
        extras = self.seek or self.progress or self.reach or self.company
        out: list[float] = []
        for o in options:
            verb = o.verb
            if verb == "done":
                out.append(2)
                continue
            if verb != "move-unit":
                out.append(1)
                continue
            if mine is None:
                mine = self.mine = basics.units_per_place(g.rules, player)
            dst = o.dst
            foreign = foreign_gate.get(dst)
            if foreign is None:
                s = g.s
                foreign = foreign_gate[dst] = dst in s.gates and s.gate_owner(dst) not in (None, player)
            score: float = (0 if mine.get(dst, 0) else 4) + (1 if mine.get(o.src, 0) > 1 else 0) - (3 if foreign else 0)
            if extras:
                if self.seek:
                    score += self._step_to_earn(o)
                if self.progress:
                    score += self._step_closer(o)
                if self.reach:
                    score += self._step_nearer(o)
                if self.company:
                    score += self._joins(o)
            out.append(score)
        return out

    def _joins(self, o: Option) -> float:
        """With `company`: a unit's move into an area that wants company (engine/company.py)."""
        try:
            assert self.trial is not None
            return _STEP_TO_EARN if company_steps.joins(self.trial, o.src, o.dst) else 0.0
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return 0.0

    def _step_nearer(self, o: Option) -> float:
        """With `reach`: a unit's move scored by the steps it takes off its way to its aims."""
        try:
            assert self.trial is not None
            return _STEP_TO_EARN * max(-1, min(1, self.trial.gain_reach(o.unit, o.dst)))
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return 0.0

    def _step_closer(self, o: Option) -> float:
        """With `progress`: the unit's move scored by how much closer it brings the unmet requirements."""
        try:
            assert self.trial is not None
            return _STEP_CLOSER * max(-1, min(3, self.trial.gain_move(o.unit, o.dst)))
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return 0.0


class _BoardOnRead:
    """The seat's board (`Seat.reading`), made when a score first reads it (most actions are
    scored from their verb and cost alone); its rules and state, and each other name read, are
    then kept on this object, so later reads are plain attribute reads."""

    def __init__(self, seat: Seat) -> None:
        self._seat = seat

    def __getattr__(self, name: str) -> Any:
        board = self._seat.reading()
        self.rules, self.s = board.rules, board.s   # what the scores read: the board asked for once
        value = getattr(board, name)
        setattr(self, name, value)
        return value


def _plain(d: Decision) -> list[Option]:
    """The options with what they are, for a bot without a seat (no map: areas are not told apart)."""
    try:
        return option_info(d, (), ())
    except UnclassifiedOption:
        return [Option(d.kind, "option", word=o) for o in d.options]


class ScriptedAgent:
    """Plays a given list of answers, in order, for every player (tests and scenarios).

    In strict mode a decision the script does not answer is an error; `leftover()` lists
    answers that were never used.
    """

    def __init__(self, answers: list[str], strict: bool = True, fallback: "RandomAgent | None" = None) -> None:
        self.answers = list(answers)
        self.used = 0
        self.strict = strict
        self.fallback = fallback

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        if self.used >= len(self.answers):
            if self.strict or self.fallback is None:
                raise ScriptExhausted(context)
            return self.fallback.choose(player, options, context)
        ans = self.answers[self.used]
        self.used += 1
        return ans

    def leftover(self) -> list[str]:
        return self.answers[self.used:]


class ScriptExhausted(Exception):
    def __init__(self, d: Decision) -> None:
        super().__init__(f"the script has no answer for {d.player}: {d.prompt} (options: {', '.join(d.options[:10])})")
        self.decision = d


AGENTS: dict[str, Callable[[int], object]] = {
    "random": lambda seed: RandomAgent(seed),
    "heuristic": lambda seed: HeuristicAgent(seed),
}
HUMAN = "human"   # a person at a terminal: `necro play` seats one (tools/human_seat.py), not make_agent
