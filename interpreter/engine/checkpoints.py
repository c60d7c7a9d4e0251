"""The positions a game keeps for rollback and undo: one every CHECKPOINT_EVERY answers.

A checkpoint is the state packed (`State.pack`) at a decision, with the log's length, the scripted
dice left and how many answers the game had been given there. `Game.apply` makes one before an
answer only when the newest is CHECKPOINT_EVERY answers old, so most answers pack nothing. Any
earlier decision is then the newest checkpoint at or before it, with the answers given since
applied again (at most CHECKPOINT_EVERY - 1 of them). That is exact: the rules read nothing but
the state (its generator included), the scripted dice and the answers. A change made to the
state by hand between answers is no answer: `Game.keep_position()` keeps the position after it.

The checkpoints are a linked list, newest first: `(earlier, checkpoint, depth)`. It is never
changed, only extended, so clones share it. At 2 × MAX_UNDO checkpoints the newest MAX_UNDO are
linked anew and the older ones dropped: memory stays bounded, and undo further back replays the
game from its start.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..limits import CHECKPOINT_EVERY, MAX_UNDO


class Checkpoint(NamedTuple):
    state: bytes              # State.pack()
    log_length: int
    dice: list[int] | None    # the scripted dice left (None: dice come from the generator)
    answers: int              # how many answers the game had been given here


History = tuple[Any, Checkpoint, int]   # (earlier History | None, checkpoint, depth)


def due(history: History | None, answers: int) -> bool:
    """Whether a game given `answers` answers makes a checkpoint before the next one."""
    return history is None or answers - history[1].answers >= CHECKPOINT_EVERY


def kept(history: History | None, checkpoint: Checkpoint) -> History:
    """`history` with `checkpoint` added as its newest (the older half dropped at 2 × MAX_UNDO)."""
    depth = history[2] + 1 if history is not None else 1
    if depth <= 2 * MAX_UNDO:
        return (history, checkpoint, depth)
    newest = [checkpoint]
    node = history
    while node is not None and len(newest) < MAX_UNDO:
        newest.append(node[1])
        node = node[0]
    out: History | None = None
    for i, c in enumerate(reversed(newest)):
        out = tuple((out, c, i + 1))  # tuple(): Cython would infer a C tuple type nested without end
    assert out is not None
    return out


def at_or_before(history: History | None, answers: int) -> History | None:
    """The history whose newest checkpoint is the newest one made at or before `answers` answers
    (None when none is kept)."""
    node = history
    while node is not None and node[1].answers > answers:
        node = node[0]
    return node
