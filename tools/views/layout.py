"""A deterministic 2-D layout for a graph of areas: stress majorization over graph distances.

No randomness: classical MDS gives the starting positions (with signs fixed by a rule), SMACOF
iterations then fit Euclidean distances to the number of steps between areas, and a last pass
pushes apart nodes that would overlap. The same graph always gives the same picture.
"""
from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

ITERATIONS = 300


def hop_distances(nodes: list[str], adjacent: dict[str, tuple[str, ...]]) -> np.ndarray:
    """Steps between every pair of nodes (unreachable pairs: the largest distance + 1)."""
    index = {n: i for i, n in enumerate(nodes)}
    d = np.full((len(nodes), len(nodes)), -1.0)
    for i, start in enumerate(nodes):
        d[i, i] = 0
        todo = deque([start])
        while todo:
            cur = todo.popleft()
            for nxt in adjacent.get(cur, ()):
                j = index.get(nxt)
                if j is not None and d[i, j] < 0:
                    d[i, j] = d[i, index[cur]] + 1
                    todo.append(nxt)
    d[d < 0] = d.max() + 1
    return d


def _classical_mds(d: np.ndarray) -> np.ndarray:
    n = len(d)
    j = np.eye(n) - np.ones((n, n)) / n
    b = -0.5 * j @ (d ** 2) @ j
    vals, vecs = np.linalg.eigh(b)
    top = np.argsort(vals)[::-1][:2]
    x = vecs[:, top] * np.sqrt(np.maximum(vals[top], 1e-9))
    for k in range(2):  # an eigenvector's sign is arbitrary: make the first node's coordinate >= 0
        nz = np.flatnonzero(np.abs(x[:, k]) > 1e-9)
        if len(nz) and x[nz[0], k] < 0:
            x[:, k] = -x[:, k]
    return x


def _smacof(x: np.ndarray, d: np.ndarray) -> np.ndarray:
    n = len(d)
    w = np.zeros_like(d)
    off = d > 0
    w[off] = d[off] ** -2.0
    v = -w
    v[np.diag_indices(n)] = w.sum(axis=1)
    v_inv = np.linalg.pinv(v)
    for _ in range(ITERATIONS):
        dist = np.sqrt(((x[:, None, :] - x[None, :, :]) ** 2).sum(-1))
        ratio = np.zeros_like(d)
        nz = dist > 1e-9
        ratio[nz] = d[nz] / dist[nz]
        b = -w * ratio
        b[np.diag_indices(n)] = 0
        b[np.diag_indices(n)] = -b.sum(axis=1)
        x = v_inv @ b @ x
    return x


def _separate(x: np.ndarray, gap: float, rounds: int = 50) -> np.ndarray:
    """Push apart pairs of nodes closer than `gap` (in the unit box), symmetrically."""
    for _ in range(rounds):
        delta = x[:, None, :] - x[None, :, :]
        dist = np.sqrt((delta ** 2).sum(-1)) + np.eye(len(x))
        push = np.clip(gap - dist, 0, None) / 2
        np.fill_diagonal(push, 0)
        if not push.any():
            break
        x = x + (delta / dist[..., None] * push[..., None]).sum(axis=1)
    return x


def _clear_edges(x: np.ndarray, edges: np.ndarray, clearance: float, rounds: int = 60) -> np.ndarray:
    """Move nodes off the edges they do not belong to, so no line seems to pass through an area."""
    if not len(edges):
        return x
    n = len(x)
    for _ in range(rounds):
        a, b = x[edges[:, 0]], x[edges[:, 1]]  # E x 2
        ab = b - a
        length2 = np.maximum((ab ** 2).sum(-1), 1e-12)
        t = np.clip(((x[None, :, :] - a[:, None, :]) * ab[:, None, :]).sum(-1) / length2[:, None], 0.0, 1.0)
        foot = a[:, None, :] + t[..., None] * ab[:, None, :]  # E x N x 2
        away = x[None, :, :] - foot
        dist = np.sqrt((away ** 2).sum(-1))
        own = (np.arange(n)[None, :] == edges[:, :1]) | (np.arange(n)[None, :] == edges[:, 1:])
        push = np.where(own | (dist >= clearance), 0.0, clearance - dist)
        if not push.any():
            break
        direction = away / np.maximum(dist, 1e-9)[..., None]
        # a node exactly on the line: push it along the edge's normal
        normal = np.stack([-ab[:, 1], ab[:, 0]], -1) / np.sqrt(length2)[:, None]
        direction = np.where((dist < 1e-9)[..., None], normal[:, None, :], direction)
        x = x + (direction * push[..., None]).sum(axis=0) * 0.5
    return x


def spread_layout(nodes: list[str], adjacent: dict[str, tuple[str, ...]], gap: float = 0.12) -> dict[str, tuple[float, float]]:
    """Positions in [0, 1] x [0, 1] for every node, wider than tall when the graph allows."""
    if len(nodes) == 1:
        return {nodes[0]: (0.5, 0.5)}
    d = hop_distances(nodes, adjacent)
    x = _smacof(_classical_mds(d), d)
    x = x - x.mean(axis=0)
    span = np.abs(x).max() or 1.0
    x = x / span / 2 + 0.5
    index = {nd: i for i, nd in enumerate(nodes)}
    edges = np.array(sorted({(index[a], index[b]) for a in nodes for b in adjacent.get(a, ())
                             if b in index and index[a] < index[b]}), dtype=int).reshape(-1, 2)
    for _ in range(3):
        x = _separate(_clear_edges(x, edges, gap * 0.75), gap)
    lo, hi = x.min(axis=0), x.max(axis=0)
    x = (x - lo) / np.where(hi - lo > 1e-9, hi - lo, 1.0)
    return {n: (float(px), float(py)) for n, (px, py) in zip(nodes, x)}


def area_positions(layout: Any) -> dict[str, tuple[float, float]]:
    """Where each area of a layout is drawn, in the unit box (the longer side 1) with y growing south.

    The map's own `position`s when every area has one (in its `drawing` box, else in the box
    around them); otherwise the computed layout above, so a modder's map needs no coordinates."""
    areas = layout.areas
    if areas and all(a.position is not None for a in areas.values()):
        box = layout.drawing
        if box:
            x0, y0, span = 0.0, 0.0, float(max(box["width"], box["height"]))
        else:
            xs = [a.position[0] for a in areas.values()]
            ys = [a.position[1] for a in areas.values()]
            x0, y0 = min(xs), min(ys)
            span = max(max(xs) - x0, max(ys) - y0) or 1.0
        return {aid: ((a.position[0] - x0) / span, (a.position[1] - y0) / span) for aid, a in areas.items()}
    return spread_layout(sorted(areas), layout.adjacent)


def drawn_size(layout: Any, pos: dict[str, tuple[float, float]]) -> tuple[float, float]:
    """The width and height of the drawing in area_positions' units."""
    box = layout.drawing
    if box and all(a.position is not None for a in layout.areas.values()):
        span = float(max(box["width"], box["height"]))
        return box["width"] / span, box["height"] / span
    return max((x for x, _ in pos.values()), default=1.0), max((y for _, y in pos.values()), default=1.0)


def crosses_edge(layout: Any, pos: dict[str, tuple[float, float]], a: str, b: str) -> bool:
    """On a map that wraps east-west, whether the border a-b is shorter across the edge."""
    box = layout.drawing
    if not (box and box.get("wrap")) or any(q.position is None for q in layout.areas.values()):
        return False
    return abs(pos[a][0] - pos[b][0]) > drawn_size(layout, pos)[0] / 2
