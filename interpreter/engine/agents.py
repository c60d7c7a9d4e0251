"""Agents answer decisions. All share one method, choose(player, options, decision)."""
from __future__ import annotations

import sys
from typing import Callable, TextIO

from .decisions import Decision, match_option
from .rng import Rng


class RandomAgent:
    """Uniformly random among the options; seeded, so a seeded game is reproducible."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed ^ 0x5DEECE66D)

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        return options[self.rng.below(len(options))]


_ACTION_SCORE = {"ritual": 60, "awaken": 50, "requirement": 45, "create-gate": 40, "capture": 35,
                 "summon": 30, "battle": 25, "extra-battle": 25, "ability": 20, "recruit": 15,
                 "control-gate": 70, "move": 5, "reveal-elder-signs": -50, "abandon-gate": -40,
                 "end-turn": 0, "pass": -30, "done": 1, "decline": 0}


class HeuristicAgent:
    """A simple greedy bot: gates, rituals, spellbooks and cheap casualties first; ties random."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed ^ 0x2545F491)

    def score(self, option: str, d: Decision) -> float:
        word = option.split()[0]
        if d.kind in ("action", "doom"):
            return _ACTION_SCORE.get(word, 10)
        if d.kind == "unit" and "assign" in d.prompt:
            # put results on cheap units: cultists first, great old ones last
            return -len(option) if "acolyte" in option else -100 if "#" not in option else -50
        if d.kind == "move":
            return 1 if option != "done" else (3 if self.rng.below(3) == 0 else 0)
        if d.kind == "ability":
            return 5 if option != "done" else 0
        return 0

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        scored = [(self.score(o, context) + self.rng.below(100) / 1000, o) for o in options]
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


class HumanAgent:
    """Asks at the terminal: the options are numbered; type a number or an option's text."""

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None) -> None:
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        while True:
            print(f"\n[{player}] {context.prompt}", file=self.out)
            for i, o in enumerate(options, 1):
                print(f"  {i:>3}. {o}", file=self.out)
            print("> ", end="", file=self.out, flush=True)
            line = self.inp.readline()
            if not line:
                raise EOFError("no more input")
            line = line.strip()
            if line.isdigit() and 1 <= int(line) <= len(options):
                return options[int(line) - 1]
            m = match_option(options, line)
            if m is not None:
                return m
            print(f"'{line}' is not one of the options", file=self.out)


AGENTS: dict[str, Callable[[int], object]] = {
    "random": lambda seed: RandomAgent(seed),
    "heuristic": lambda seed: HeuristicAgent(seed),
    "human": lambda seed: HumanAgent(),
}


def make_agent(name: str, seed: int) -> object:
    if name not in AGENTS:
        raise ValueError(f"unknown agent '{name}'; one of: {', '.join(AGENTS)}")
    return AGENTS[name](seed)
