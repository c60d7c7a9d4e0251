"""A PettingZoo AEC environment over the engine (the optional extra `necronomicon[rl]`).

>>> from interpreter.rl import env                              # doctest: +SKIP
>>> e = env(ruleset="duel"); e.reset(seed=3)                    # doctest: +SKIP
>>> for agent in e.agent_iter():                                # doctest: +SKIP
...     obs, reward, done, cut, info = e.last()
...     e.step(None if done or cut else e.action_space(agent).sample(obs["action_mask"]))

- Agents are the factions at the table (ids, in seating order). Play does not alternate:
  `agent_selection` is whoever the pending Decision belongs to, so one agent may act many times
  in a row (a Move, then its casualties, then a spellbook pick...).
- An action is an index into the pending decision's options (`Discrete(max_actions)`); the
  observation dict carries `action_mask` with a 1 for each legal index, and `options`: one row
  per option saying what it is (verb, unit kind, from/to area, ability, cost, ...), encoded with
  a vocabulary built from the content (`interpreter/rl/vocabulary.py`: same content, same
  indices). Options are never parsed from labels here: they come from `engine/options.py`.
- Observations are built from each agent's view (`Game.view`, through its seat's board): what
  the agent may not know (others' Elder Sign values, the bag, the generator) is not in them. A decision with more
  options than `max_actions` offers only the first `max_actions` of them (rare: the largest seen
  in random 5-player games is about 240, the default is 512); `infos[agent]["options_cut"]` says so.
  An index outside the mask raises `ValueError`.
- Rewards arrive only at the end: +1 to a sole winner and -1 to every other player; in a shared
  victory the winners get 0 (a draw among them) and the others -1; when humanity wins (no player
  qualifies) everyone gets 0.
- `reset(seed=s)` starts the game with seed `s` (dice and setup are then reproducible);
  `reset()` without a seed draws the next seed from the previous one.
- `max_decisions` truncates a game that runs too long (the rules' own round limit normally ends
  it first).
"""
from __future__ import annotations

from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the RL environment needs the optional extra: pip install 'necronomicon[rl]'") from exc

from ..content.build import Content
from ..engine.decisions import Decision
from ..engine.game import Game
from ..engine.seat import Seat
from .observation import HIGH, action_mask, encode, observation_size, seats_from
from .vocabulary import OPTION_FIELDS, Vocabulary, encode_options

MAX_ACTIONS = 512
OPTION_HIGH = 1_000_000   # an option row's entries: table indices, unit ids, costs, picked values
MAX_DECISIONS = 100_000

_BUILTIN: list[Content] = []


def _builtin_content() -> Content:
    if not _BUILTIN:
        from ..content import load_content
        _BUILTIN.append(load_content().require_ok())
    return _BUILTIN[0]


class NecroEnv(AECEnv):  # type: ignore[misc]
    """The game as an agent-environment-cycle environment: one Decision per step."""

    metadata = {"name": "necronomicon_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, ruleset: str = "duel", factions: list[str] | None = None, layout: str | None = None,
                 content: Content | None = None, max_actions: int = MAX_ACTIONS,
                 max_decisions: int = MAX_DECISIONS, render_mode: str | None = None) -> None:
        super().__init__()
        self.content = content or _builtin_content()
        rs = self.content.model.rulesets[ruleset] if ruleset in self.content.model.rulesets else None
        if factions is None:
            if rs is None:
                raise ValueError(f"unknown ruleset '{ruleset}'")
            n = min(rs.get("players", [2]), key=lambda k: abs(k - 4))
            factions = list(rs.get("default-factions", {}).get(str(n), []))
            if not factions:
                raise ValueError(f"ruleset '{ruleset}' names no default factions; pass factions=[...]")
        self.ruleset, self.layout_id = ruleset, layout
        self.max_actions, self.max_decisions = max_actions, max_decisions
        self.render_mode = render_mode
        probe = Game(self.content, ruleset, list(factions), 0, layout)  # checks the arguments, sizes the spaces
        self.possible_agents = list(factions)
        size = observation_size(len(factions), len(probe.layout.areas))
        self.vocabulary = Vocabulary.from_content(self.content)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, HIGH, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (max_actions,), np.int8),
            "options": spaces.Box(0, OPTION_HIGH, (max_actions, len(OPTION_FIELDS)), np.int32),
        })
        self._act_space = spaces.Discrete(max_actions)
        self._next_seed = 0
        self.game = probe
        self.decisions = 0

    # ---- spaces -----------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        """The same Dict space for every agent: a float vector and the action mask."""
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        """Discrete(max_actions): an index into the pending decision's options."""
        return self._act_space

    # ---- the cycle --------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; with `seed`, a reproducible one."""
        if seed is None:
            seed = self._next_seed
        self._next_seed = int(np.random.default_rng(seed).integers(0, 2**31 - 1))
        self.game = Game(self.content, self.ruleset, list(self.possible_agents), int(seed), self.layout_id)
        self.decisions = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """`agent`'s observation vector, its action mask and its options (zeros unless it is
        choosing), all from its view of the game."""
        seat = Seat(self.game, agent)
        board = seat.board()
        d = seat.decision()
        rows = encode_options(seat.options(d), self.vocabulary, seats_from(board, agent), self.max_actions) \
            if d is not None else np.zeros((self.max_actions, len(OPTION_FIELDS)), np.int32)
        pending = seat.view()["pending"]        # who chooses what, as the view shows it
        public = Decision(pending["player"], pending["kind"], tuple(pending.get("options", ())), pending["prompt"]) \
            if pending is not None else None
        return {"observation": encode(board, agent, self.decisions, self.max_actions, public),
                "action_mask": action_mask(d, agent, self.max_actions),
                "options": np.clip(rows, 0, OPTION_HIGH)}

    def step(self, action: int | None) -> None:
        """Answer the pending decision with option number `action` (None for a finished agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        options = self.game.legal_actions()
        if action is None or not 0 <= int(action) < min(len(options), self.max_actions):
            raise ValueError(f"action {action!r} is not legal for {agent}: the mask allows 0..{min(len(options), self.max_actions) - 1}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.game.apply(options[int(action)])
        self.decisions += 1
        if self.game.is_over():
            self.rewards = self.final_rewards()
            self.terminations = {a: True for a in self.agents}
        elif self.decisions >= self.max_decisions:
            self.truncations = {a: True for a in self.agents}
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def final_rewards(self) -> dict[str, float]:
        """+1 / -1 for a sole winner / the rest; 0 / -1 in a shared victory; 0 when humanity wins."""
        winners = self.game.winner() or []
        if not winners:
            return {a: 0.0 for a in self.agents}
        win = 1.0 if len(winners) == 1 else 0.0
        return {a: win if a in winners else -1.0 for a in self.agents}

    def _select(self) -> None:
        d = self.game.current()
        assert d is not None
        self.agent_selection = d.player
        self.infos = {a: {} for a in self.agents}
        self.infos[d.player] = {"kind": d.kind, "prompt": d.prompt, "options": list(d.options[:self.max_actions]),
                                "options_cut": len(d.options) > self.max_actions}

    # ---- rendering --------------------------------------------------------------------------------
    def render(self) -> str | None:
        """One line: the result, or the round and who chooses what."""
        if self.render_mode is None:
            return None
        d = self.game.current()
        s = self.game.s
        text = (self.game.result_line() if d is None else
                f"round {s.round}, {s.step.get('phase', '')}: {d.player} chooses {d.kind} ({len(d.options)} options)")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return str(self.metadata["name"])


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo recommends (it enforces reset-before-step order)."""
    return wrappers.OrderEnforcingWrapper(NecroEnv(**kwargs))


raw_env = NecroEnv
