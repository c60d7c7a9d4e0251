"""An example training run over the view-based observation: a linear softmax policy learned by
REINFORCE in self-play, with numpy alone (no deep-learning library needed).

    python -m necronomicon.interpreter.rl.reinforce --ruleset duel --games 400 --envs 8 --eval-games 40 --save policy.npz

It shows the pieces a learning researcher plugs their own model into: `VectorEnv` batches (the
chooser's observation, action mask and option rows), one shared policy for every seat (the
observation is ego-centric), final rewards per seat, and an evaluation against the random bot.

The policy scores each legal option i of a decision as

    logit_i = sum over categorical fields f of W_f[row_i[f]]       (verb, unit kind, places, ability, ...)
              + U[verb_i] . x  +  b . (cost_i, value_i, gate_i)

where `row_i` is the option's encoded row (`interpreter/rl/vocabulary.py`) and `x = log1p(observation)`,
so what an option is worth can depend on the position through its verb. After each game, every
decision of each seat is pushed along grad log pi(a) times (that seat's reward - a running baseline).
Everything is seeded: the same arguments give the same weights.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .vector import VectorEnv
from .vocabulary import OPTION_FIELDS, Vocabulary

__all__ = ["LinearPolicy", "main", "train"]

# option-row fields read as categories, and the vocabulary table each indexes ("seats": the seat offset)
CATEGORICAL = {"verb": "verbs", "unit_kind": "kinds", "src": "places", "dst": "places", "area": "places",
               "ability": "abilities", "spellbook": "spellbooks", "word": "words", "player": "seats"}
NUMERIC = {"cost": 10.0, "value": 6.0, "gate": 1.0}   # field: scale
_COL = {f: i for i, f in enumerate(OPTION_FIELDS)}


@dataclass
class LinearPolicy:
    """The weights: one table per categorical field, verb-by-observation weights, numeric weights."""

    tables: dict[str, np.ndarray]
    by_verb: np.ndarray                   # (verbs, observation size)
    numeric: np.ndarray                   # (len(NUMERIC),)
    baseline: float = 0.0
    _rows: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @classmethod
    def zeros(cls, vocab: Vocabulary, seats: int, observation: int) -> "LinearPolicy":
        sizes = {**vocab.sizes(), "seats": seats + 2}
        return cls({f: np.zeros(sizes[t]) for f, t in CATEGORICAL.items()},
                   np.zeros((sizes["verbs"], observation)), np.zeros(len(NUMERIC)))

    def probabilities(self, obs: np.ndarray, r: np.ndarray) -> np.ndarray:
        """pi over the legal options of one decision (`r`: their rows)."""
        x = np.log1p(np.maximum(obs, 0.0))
        logits = sum(self.tables[f][np.clip(r[:, _COL[f]], 0, len(self.tables[f]) - 1)] for f in CATEGORICAL)
        logits = logits + self.by_verb[np.clip(r[:, _COL["verb"]], 0, len(self.by_verb) - 1)] @ x
        logits = logits + (r[:, [_COL[f] for f in NUMERIC]] / np.array(list(NUMERIC.values()))) @ self.numeric
        z = np.exp(logits - logits.max())
        return z / z.sum()

    def push(self, obs: np.ndarray, r: np.ndarray, chosen: int, step: float) -> None:
        """Move the weights by `step` x grad log pi(chosen) at one decision (`r`: the legal options' rows)."""
        g = -self.probabilities(obs, r)
        g[chosen] += 1.0                 # d log pi(chosen) / d logit_i
        for f in CATEGORICAL:
            idx = np.clip(r[:, _COL[f]], 0, len(self.tables[f]) - 1)
            np.add.at(self.tables[f], idx, step * g)
        x = np.log1p(np.maximum(obs, 0.0))
        verbs = np.clip(r[:, _COL["verb"]], 0, len(self.by_verb) - 1)
        np.add.at(self.by_verb, verbs, step * np.outer(g, x))
        self.numeric += step * g @ (r[:, [_COL[f] for f in NUMERIC]] / np.array(list(NUMERIC.values())))

    def save(self, path: str) -> None:
        """The weights as one .npz file."""
        np.savez(path, by_verb=self.by_verb, numeric=self.numeric, baseline=self.baseline,
                 **{f"table_{f}": t for f, t in self.tables.items()})


def _act(policy: LinearPolicy, batch: dict[str, np.ndarray], i: int, rng: np.random.Generator) -> tuple[int, int]:
    """(option index, its position among the legal ones) sampled from the policy for game i."""
    legal = np.flatnonzero(batch["action_mask"][i])
    k = int(rng.choice(len(legal), p=policy.probabilities(batch["observation"][i], batch["options"][i][legal])))
    return int(legal[k]), k


def train(ruleset: str = "duel", games: int = 200, envs: int = 8, seed: int = 1, lr: float = 0.01,
          max_decisions: int = 2000, log: Any = None) -> tuple[LinearPolicy, VectorEnv]:
    """Self-play REINFORCE until `games` games have finished; the policy and the VectorEnv."""
    vec = VectorEnv(envs, seed=seed, ruleset=ruleset, max_decisions=max_decisions)
    policy = LinearPolicy.zeros(vec.envs[0].vocabulary, len(vec.possible_agents),
                                vec.observation_space["observation"].shape[0])
    rng = np.random.default_rng(seed)
    trail: list[list[tuple[int, np.ndarray, np.ndarray, int]]] = [[] for _ in range(envs)]
    batch, finished, lengths = vec.reset(), 0, []
    while finished < games:
        actions = np.zeros(envs, np.int64)
        for i in range(envs):
            actions[i], k = _act(policy, batch, i, rng)
            legal = np.flatnonzero(batch["action_mask"][i])
            trail[i].append((int(batch["seat"][i]), batch["observation"][i], batch["options"][i][legal], k))
        batch, rewards, done, infos = vec.step(actions)
        for i in np.flatnonzero(done):
            for seat, obs, rows, k in trail[i]:
                policy.push(obs, rows, k, lr * (float(rewards[i][seat]) - policy.baseline))
            policy.baseline = 0.95 * policy.baseline + 0.05 * float(rewards[i].mean())
            lengths.append(infos[i]["decisions"])
            trail[i] = []
            finished += 1
            if log is not None and finished % max(1, games // 10) == 0:
                print(f"{finished} games, mean length {np.mean(lengths[-50:]):.0f} decisions", file=log)
    return policy, vec


def against_random(policy: LinearPolicy, vec: VectorEnv, games: int, seed: int) -> tuple[int, int]:
    """(games the policy's seat won, games played) with the policy in one seat (alternating) and
    uniformly random answers in the others."""
    rng = np.random.default_rng(seed + 1)
    e = vec.envs[0]
    won = 0
    for g in range(games):
        e.reset(seed=seed + 10_000 + g)
        mine = vec.possible_agents[g % len(vec.possible_agents)]
        while not (all(e.terminations.values()) or all(e.truncations.values())):
            obs = e.observe(e.agent_selection)
            legal = np.flatnonzero(obs["action_mask"])
            if e.agent_selection == mine:
                p = policy.probabilities(obs["observation"], obs["options"][legal])
                e.step(int(legal[int(np.argmax(p))]))
            else:
                e.step(int(rng.choice(legal)))
        won += mine in (e.game.winner() or [])
    return won, games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m necronomicon.interpreter.rl.reinforce", description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="duel")
    ap.add_argument("--games", type=int, default=200, help="training games (default 200)")
    ap.add_argument("--envs", type=int, default=8, help="games played side by side (default 8)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--eval-games", type=int, default=20, help="games against the random bot, before and after")
    ap.add_argument("--save", help="write the weights to this .npz file")
    a = ap.parse_args(argv)
    if not (1 <= a.games <= 10_000_000 and 1 <= a.envs <= 4096 and 0 <= a.eval_games <= 1_000_000):
        ap.error("--games, --envs and --eval-games must be positive and reasonable")
    untrained, vec = train(a.ruleset, 0, a.envs, a.seed, a.lr) if a.eval_games else (None, None)
    if untrained is not None and vec is not None:
        w, n = against_random(untrained, vec, a.eval_games, a.seed)
        print(f"before training: won {w} of {n} against the random bot")
    policy, vec = train(a.ruleset, a.games, a.envs, a.seed, a.lr, log=sys.stdout)
    if a.eval_games:
        w, n = against_random(policy, vec, a.eval_games, a.seed)
        print(f"after {a.games} games: won {w} of {n} against the random bot")
    if a.save:
        policy.save(a.save)
        print(f"wrote {a.save}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
