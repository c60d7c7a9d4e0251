"""Many games side by side, as batched arrays: what a learner that trains on batches expects.

>>> from interpreter.rl.vector import VectorEnv                      # doctest: +SKIP
>>> v = VectorEnv(8, ruleset="duel", seed=1)                          # doctest: +SKIP
>>> batch = v.reset()                                                 # doctest: +SKIP
>>> batch, rewards, done, infos = v.step(v.sample_actions(batch))     # doctest: +SKIP

- Every step answers the pending decision of every game at once: `actions[i]` is an index into
  game i's options, as in `NecroEnv`. Play does not alternate, so `batch["seat"][i]` says which
  seat (an index into `possible_agents`) chooses in game i now.
- A batch is a dict of arrays whose first axis is the game: `observation` (n, size) float32,
  `action_mask` (n, max_actions) int8, `options` (n, max_actions, fields) int32 (the chooser's view
  only, as `NecroEnv.observe` builds it) and `seat` (n,) int64.
- `rewards` (n, seats) float32 is zero until a game ends; then it holds that game's final rewards
  (`NecroEnv.final_rewards`, in `possible_agents` order), `done[i]` is True, `infos[i]` holds the
  finished game's `seed`, `decisions`, `winners` and whether it was `truncated`, and the game is
  replaced at once by a new one (the batch shows the new game's first decision).
- Seeds: game slot i starts with seed `seed + i`; each replacement takes the next seed not yet
  used (`seed + n`, `seed + n + 1`, ...), in slot order, so a run is reproducible.
- The games run one after another in this process (the engine is Python, the GIL is held); run one
  VectorEnv per worker process to use more cores.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .environment import NecroEnv

__all__ = ["VectorEnv"]

Batch = dict[str, np.ndarray]


class VectorEnv:
    """`n` NecroEnv games stepped together, with automatic reset of finished games."""

    def __init__(self, n: int, seed: int = 0, **env_kwargs: Any) -> None:
        if not isinstance(n, int) or not 1 <= n <= 4096:
            raise ValueError(f"a VectorEnv holds 1 to 4096 games, not {n!r}")
        self.envs = [NecroEnv(**env_kwargs) for _ in range(n)]
        first = self.envs[0]
        self.possible_agents = list(first.possible_agents)
        self.max_actions = first.max_actions
        self.observation_space = first.observation_space(self.possible_agents[0])
        self.action_space = first.action_space(self.possible_agents[0])
        self.seed = int(seed)
        self._next_seed = self.seed + n
        self._seeds = [self.seed + i for i in range(n)]
        self._rng = np.random.default_rng(self.seed)

    @property
    def num_envs(self) -> int:
        """How many games are played side by side."""
        return len(self.envs)

    def reset(self) -> Batch:
        """Start every game again from the first seeds; the first batch."""
        self._next_seed = self.seed + self.num_envs
        self._seeds = [self.seed + i for i in range(self.num_envs)]
        for e, s in zip(self.envs, self._seeds):
            e.reset(seed=s)
        return self._batch()

    def step(self, actions: np.ndarray | list[int]) -> tuple[Batch, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Answer every game's pending decision; (next batch, rewards, done, infos) as the module says.
        An action outside a game's mask raises ValueError before any game is changed."""
        acts = np.asarray(actions).reshape(-1)
        if acts.shape[0] != self.num_envs:
            raise ValueError(f"step needs one action per game ({self.num_envs}), got {acts.shape[0]}")
        for i, e in enumerate(self.envs):
            a = int(acts[i])
            if not 0 <= a < min(len(e.game.legal_actions()), self.max_actions):
                raise ValueError(f"game {i}: action {a} is not legal (the mask allows "
                                 f"0..{min(len(e.game.legal_actions()), self.max_actions) - 1})")
        rewards = np.zeros((self.num_envs, len(self.possible_agents)), np.float32)
        done = np.zeros(self.num_envs, bool)
        infos: list[dict[str, Any]] = [{} for _ in self.envs]
        for i, e in enumerate(self.envs):
            e.step(int(acts[i]))
            over = all(e.terminations.values())
            if over or all(e.truncations.values()):
                rewards[i] = [e.rewards[a] if over else 0.0 for a in self.possible_agents]
                done[i] = True
                infos[i] = {"seed": self._seeds[i], "decisions": e.decisions, "truncated": not over,
                            "winners": list(e.game.winner() or [])}
                self._seeds[i] = self._next_seed
                self._next_seed += 1
                e.reset(seed=self._seeds[i])
        return self._batch(), rewards, done, infos

    def sample_actions(self, batch: Batch) -> np.ndarray:
        """A uniformly random legal action for every game of `batch` (the VectorEnv's own seeded generator)."""
        return np.array([int(self._rng.choice(np.flatnonzero(m))) for m in batch["action_mask"]], np.int64)

    def _batch(self) -> Batch:
        obs = [e.observe(e.agent_selection) for e in self.envs]
        return {"observation": np.stack([o["observation"] for o in obs]),
                "action_mask": np.stack([o["action_mask"] for o in obs]),
                "options": np.stack([o["options"] for o in obs]),
                "seat": np.array([self.possible_agents.index(e.agent_selection) for e in self.envs], np.int64)}
