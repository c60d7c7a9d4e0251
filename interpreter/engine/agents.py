"""Bots answer decisions. Every agent (these, a test script, the terminal seat for a person) shares
one method, choose(player, options, decision)."""
from __future__ import annotations

from typing import Callable

from .decisions import Decision, match_option
from .rng import Rng


class RandomAgent:
    """Uniformly random among the options; seeded, so a seeded game is reproducible."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed ^ 0x5DEECE66D)

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        return options[self.rng.below(len(options))]


_ACTION_SCORE = {"awaken": 50, "requirement": 55, "create-gate": 45, "capture": 40, "summon": 30,
                 "battle": 20, "extra-battle": 20, "ability": 22, "recruit": 25, "control-gate": 70,
                 "move": 18, "reveal-elder-signs": -50, "abandon-gate": -60, "end-turn": 0, "pass": -30,
                 "done": 1, "decline": 0, "decline-second-action": 0}


class HeuristicAgent:
    """A simple greedy bot. It looks at the game (via observe) to pick cheap casualties, safe
    retreats, battles it should win and rituals worth their Power; ties are broken at random."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed ^ 0x2545F491)
        self.game = None

    def observe(self, game: object) -> None:
        self.game = game

    def _unit_value(self, option: str) -> float:
        g = self.game
        if g is None or "#" not in option:
            return 0.0
        try:
            u = g.s.unit(int(option.rsplit("#", 1)[1]))
            return float(g.doom_value(u))
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return 0.0

    def _ends_the_game_lost(self, player: str) -> bool:
        """Whether a ritual now would end the game (the marker reaching the end of the track)
        while this player could not win: it lacks the six spellbooks a win needs."""
        g = self.game
        try:
            last = g.s.ritual + 1 >= len(g.ritual_track())
            needs_six = bool(g.ruleset.get("victory", {}).get("six-spellbooks", False))
            return last and needs_six and len(g.s.spellbooks.get(player, [])) < 6
        except Exception:  # noqa: BLE001 - a bot's guess must never stop a game
            return False

    def _battle_odds(self, player: str, option: str) -> float:
        g = self.game
        words = option.split()
        if g is None or len(words) < 3:
            return 0.0
        try:
            mine = sum(g.combat_of(u, foe=words[2]) for u in g.s.units_at(words[1], player))
            theirs = sum(g.combat_of(u, foe=player) for u in g.s.units_at(words[1], words[2]))
        except Exception:  # noqa: BLE001
            return 0.0
        return 30.0 if mine > theirs + 1 else -40.0

    def score(self, player: str, option: str, d: Decision) -> float:
        word = option.split()[0]
        g = self.game
        if d.kind == "doom":
            if option == "ritual":
                gates = len(g.s.controlled_gates(player)) if g is not None else 0
                late = g is not None and g.s.round >= 3
                if g is not None and self._ends_the_game_lost(player):
                    return -5
                return 80 if gates >= 3 or (late and gates >= 1) else -5
            return 10 if option != "done" else 0
        if d.kind == "action":
            base = _ACTION_SCORE.get(word, 10)
            if word == "ability" and d.context.get("costs", {}).get(option, 1) == 0:
                base = 4   # a free ability (often "do nothing" or "rest") rarely beats building up
            if word in ("battle", "extra-battle"):
                base += self._battle_odds(player, option)
            return base
        if d.kind == "unit":
            if "assign" in d.prompt or "eliminate" in d.prompt or "surrounded" in d.prompt:
                return -self._unit_value(option)   # lose the cheapest unit
            return self._unit_value(option)
        if d.kind == "area" and g is not None:
            return float(len(g.s.units_at(option, player)))
        if d.kind == "move":
            if option == "done":
                return 2
            if g is not None and "->" in option:
                dst = option.split("->")[1].split("#")[0]
                src = option.split()[1].split("->")[0]
                fresh = not g.s.units_at(dst, player)
                leaving_alone = len(g.s.units_at(src, player)) <= 1
                return (4 if fresh else 0) + (0 if leaving_alone else 1) - (3 if dst in g.s.gates and
                                                                           g.s.gate_owner(dst) not in (None, player) else 0)
            return 1
        if d.kind == "ability":
            return 5 if option != "done" else 0
        return 0

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        scored = [(self.score(player, o, context) + self.rng.below(100) / 1000, o) for o in options]
        return max(scored)[1]


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
