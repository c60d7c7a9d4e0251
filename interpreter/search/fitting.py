"""Fit a learned evaluation (search/evaluation.py) to (position, outcome) samples with numpy.

A sample is a position's features (each seat's and the game's) and its game's outcome as shares:
a sole winner 1, k sharing a victory 1/k each, "nobody" 1 when humanity wins. The fit minimises
the cross-entropy of the conditional logit plus a small L2 penalty, by full-batch Adam; samples
are split by game, so the held-out figures (log loss, how often the likeliest outcome came true)
measure positions of games the fit never saw. numpy is a dependency already; the model is a
few dozen numbers, so a JSON file holds it and loading it runs no code.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .evaluation import Evaluation
from .features import GAME_FEATURES, SEAT_FEATURES

__all__ = ["Sample", "fit"]


@dataclass(frozen=True)
class Sample:
    """One position: seat features (seat order), game features, outcome shares (nobody first, then seats)."""

    game: int
    seats: tuple[tuple[float, ...], ...]
    globals: tuple[float, ...]
    shares: tuple[float, ...]


def _arrays(samples: list[Sample], mean: np.ndarray, scale: np.ndarray) -> tuple[np.ndarray, ...]:
    top = max(len(s.seats) for s in samples)
    n, f = len(samples), len(SEAT_FEATURES)
    x = np.zeros((n, top, f))
    mask = np.zeros((n, top), dtype=bool)
    t = np.zeros((n, top + 1))
    g = np.array([s.globals for s in samples], dtype=float)
    for i, s in enumerate(samples):
        k = len(s.seats)
        x[i, :k] = (np.array(s.seats, dtype=float) - mean) / scale
        mask[i, :k] = True
        t[i, :k + 1] = s.shares
    return x, mask, g, t


def _chances(w: np.ndarray, v: np.ndarray, x: np.ndarray, mask: np.ndarray, g: np.ndarray) -> np.ndarray:
    u = np.concatenate([(g @ v)[:, None], np.where(mask, x @ w, -np.inf)], axis=1)
    u -= u.max(axis=1, keepdims=True)
    e = np.exp(u)
    return e / e.sum(axis=1, keepdims=True)


def _loss(p: np.ndarray, t: np.ndarray) -> float:
    return float(-(t * np.log(np.clip(p, 1e-12, 1.0))).sum(axis=1).mean())


def fit(samples: list[Sample], digest: str, info: dict[str, Any] | None = None, steps: int = 600,
        l2: float = 1e-3, held_out: float = 0.2, seed: int = 0) -> Evaluation:
    """An evaluation fitted to `samples` (games whose index falls in the held-out share are kept
    for the figures in `info`, then the fit is made again on every sample)."""
    if not samples:
        raise ValueError("no positions to learn from: play more games (--games)")
    seats = np.array([row for s in samples for row in s.seats], dtype=float)
    mean = seats.mean(axis=0)
    scale = seats.std(axis=0)
    scale[scale < 1e-9] = 1.0
    games = sorted({s.game for s in samples})
    rng = np.random.default_rng(seed)
    test = set(rng.choice(games, size=max(1, int(len(games) * held_out)), replace=False).tolist()) \
        if len(games) > 1 else set()
    train = [s for s in samples if s.game not in test] or samples
    held = [s for s in samples if s.game in test]
    figures: dict[str, Any] = {"positions": len(samples), "games": len(games), "held_out_games": len(test)}
    w, v = _adam(_arrays(train, mean, scale), steps, l2)
    if held:
        x, mask, g, t = _arrays(held, mean, scale)
        p = _chances(w, v, x, mask, g)
        base = np.where(np.concatenate([np.ones((len(held), 1), bool), mask], axis=1), t.mean(axis=0), 0.0)
        base /= base.sum(axis=1, keepdims=True)
        figures.update(held_out_log_loss=round(_loss(p, t), 4), held_out_base_log_loss=round(_loss(base, t), 4),
                       held_out_top_outcome_right=round(float((t[np.arange(len(t)), p.argmax(axis=1)] > 0).mean()), 4))
    w, v = _adam(_arrays(samples, mean, scale), steps, l2)
    return Evaluation(digest, [round(float(a), 6) for a in w], [round(float(a), 6) for a in v],
                      [float(a) for a in mean], [float(a) for a in scale], {**(info or {}), **figures})


def _adam(data: tuple[np.ndarray, ...], steps: int, l2: float, lr: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Weights minimising cross-entropy + l2 |w|^2 by full-batch Adam from zero."""
    x, mask, g, t = data
    theta = np.zeros(len(SEAT_FEATURES) + len(GAME_FEATURES))
    m1 = np.zeros_like(theta)
    m2 = np.zeros_like(theta)
    nf = len(SEAT_FEATURES)
    for step in range(1, steps + 1):
        w, v = theta[:nf], theta[nf:]
        d = _chances(w, v, x, mask, g) - t                      # dLoss/du per outcome
        gw = np.einsum("nk,nkf->f", np.where(mask, d[:, 1:], 0.0), x) / len(x) + 2 * l2 * w
        gv = g.T @ d[:, 0] / len(x) + 2 * l2 * v
        grad = np.concatenate([gw, gv])
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        theta -= lr * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
    return theta[:nf], theta[nf:]
