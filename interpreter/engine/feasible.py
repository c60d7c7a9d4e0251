"""Whether an action can be done in full, found by a dry run on a copy of the state.

Core rulebook, Unique Actions: "you cannot perform a Unique Action unless you are able to do all
parts of it". An effect's part is required when the effect cannot go on without it: a single
choice (`choose_unit`, `choose_area`, `choose_player`, ...) over an empty list gives `none`, and
an effect that then fails because of it could not be done. An effect that checks for `none`
itself (`if m != none { ... }`) marks that part as optional.

The dry run plays the effect on a copy (its own state, log, dice from the copy's generator),
answering each decision with an option in turn: it is feasible when some answers carry it to the
end. A search that stays undecided within its budget, or fails for another reason than a missing
part (a content error), counts as feasible: the action is offered and the real run reports it.
"""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Callable

from ..effects.compiler import RuleError
from .decisions import Decision
from .state import State

if TYPE_CHECKING:
    from .core import Gen, GameCore

MAX_RUNS = 12     # dry runs per action (each tries another answer at the last open decision)
MAX_STEPS = 200   # decisions per dry run

Run = Callable[["GameCore"], "Gen"]
_ERRORS = (RuleError, KeyError, ValueError, TypeError, IndexError)


def note_no_option(game: Any, where: str) -> None:
    """A single choice had no option (called by the choice primitives; a no-op outside a dry run)."""
    notes = getattr(game, "_dry_run_notes", None)
    if notes is not None:
        notes.append(where)


def can_complete(game: "GameCore", run: Run) -> bool:
    """Whether some answers let `run(copy)` (an action's effect) finish without a missing part."""
    path: list[int] = []
    for _ in range(MAX_RUNS):
        done, trail = _attempt(game, run, path)
        if done is not False:
            return True
        while trail and trail[-1][0] + 1 >= trail[-1][1]:
            trail.pop()          # every option of this decision was tried: back up one
        if not trail:
            return False
        path = [i for i, _ in trail[:-1]] + [trail[-1][0] + 1]
    return True


def _copy(game: "GameCore") -> Any:
    probe = copy.copy(game)
    probe.s = State.from_text(game.s.to_text())
    probe.log = []
    probe._depth = list(getattr(game, "_depth", []))
    probe._chain = list(getattr(game, "_chain", []))
    probe._forced_dice = None            # a scenario's scripted dice belong to the real game
    probe._event_hook = None
    probe._dry_run_notes = []
    return probe


def _attempt(game: "GameCore", run: Run, path: list[int]) -> tuple[bool | None, list[tuple[int, int]]]:
    """One dry run answering decision k with option path[k] (0 past the path): True when it ends,
    False when it failed after a choice had no option, None when undecided."""
    probe = _copy(game)
    trail: list[tuple[int, int]] = []
    gen = run(probe)
    answer: Any = None
    try:
        item = next(gen)
        for _ in range(MAX_STEPS):
            if isinstance(item, Decision):
                k = len(trail)
                i = min(path[k] if k < len(path) else 0, len(item.options) - 1)
                trail.append((i, len(item.options)))
                answer = item.options[i]
            else:
                answer = None
            item = gen.send(answer)
        return None, trail
    except StopIteration:
        return True, trail
    except _ERRORS:
        return (False if probe._dry_run_notes else None), trail
    finally:
        gen.close()


__all__ = ["can_complete", "note_no_option"]
