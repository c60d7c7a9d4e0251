"""`necro train`'s positions file: one line per training game, appended as the game finishes, so a
stopped run (Ctrl-C, kill) keeps every finished game and the same command run again continues.

A line is a JSON object: the game's index, seed, ruleset, factions and agents (the plan's, checked
when continuing: a file of other training games is refused in one line), how often positions were
noted (`every`), the features' version (`features`: search/features.py), the outcome shares (nobody first, then each seat in seat order) and the positions
(each seat's features and the game's). A failed game is a line with `error` and no positions, so
it is not played again. A line torn by a kill is dropped, its game played again. Each line is one
`os.write`.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from necronomicon.interpreter.search.features import FEATURES_VERSION
from necronomicon.interpreter.search.fitting import Sample

from .simulate import GameSpec

Row = dict[str, Any]
MAX_LINE_BYTES = 16_000_000   # far above a real game's positions; a longer line is not ours

__all__ = ["positions_path", "read_done", "append_row", "samples_of_row"]


def positions_path(out: str) -> str:
    """Where the positions of the training run writing `out` are kept: beside it."""
    p = Path(out)
    return str(p.with_name(p.stem + ".positions.jsonl"))


def _key(row: Row) -> tuple[Any, ...]:
    return (row.get("game"), row.get("seed"), row.get("ruleset"), list(row.get("factions") or []),
            list(row.get("agents") or []), row.get("every"), row.get("features"))


def spec_key(spec: GameSpec, every: int) -> tuple[Any, ...]:
    """What a row must match to be this planned game's."""
    return (spec.index, spec.seed, spec.ruleset, list(spec.factions), list(spec.agents), every, FEATURES_VERSION)


def read_done(path: str, specs: list[GameSpec], every: int) -> list[Row]:
    """The rows of `path` (none if it is missing), each checked against the plan; a torn last line
    is cut off the file. ValueError (one line naming the file) for a file of other games."""
    p = Path(path)
    if not p.is_file():
        return []
    with open(p, "rb") as fh:
        data = fh.read()
    lines = data.split(b"\n")
    rows: dict[int, Row] = {}
    keep = 0
    for n, raw in enumerate(lines, 1):
        if n == len(lines):   # after the last newline: nothing, or a line torn by a kill (played again)
            break
        if not raw.strip():
            keep += len(raw) + 1
            continue
        try:
            if len(raw) > MAX_LINE_BYTES:
                raise ValueError("too long")
            row = json.loads(raw)
            if not isinstance(row, dict):
                raise ValueError("not an object")
        except (ValueError, RecursionError):
            raise ValueError(f"{path}:{n}: not a training game's line; give another --out, "
                             "or --overwrite to start it again") from None
        g = row.get("game")
        want = spec_key(specs[g], every) if isinstance(g, int) and 0 <= g < len(specs) else None
        if _key(row) != want:
            raise ValueError(f"{path}:{n}: game {g!r} was played with other settings (seed, seats, agents, --every "
                             "or the features' version) than this run's; give another --out, or --overwrite to "
                             "start it again")
        rows.setdefault(g, row)
        keep += len(raw) + 1
    if keep < len(data):
        with open(p, "rb+") as fh:
            fh.truncate(keep)
    return [rows[g] for g in sorted(rows)]


def append_row(fd: int, row: Row) -> None:
    """One game's line, written whole (a single write of the line)."""
    data = (json.dumps(row, separators=(",", ":")) + "\n").encode("utf-8")
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def samples_of_row(row: Row) -> list[Sample]:
    """The labelled positions of one game's line (none for a failed game)."""
    if row.get("error") or not row.get("positions"):
        return []
    shares = tuple(float(x) for x in row["shares"])
    return [Sample(int(row["game"]), tuple(tuple(float(x) for x in seat) for seat in pos["seats"]),
                   tuple(float(x) for x in pos["game"]), shares) for pos in row["positions"]]
