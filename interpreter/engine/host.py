"""The rules context and the game as types, for the modules that take them.

The rules' functions (basics.py, core.py, abilities.py, actions.py, ...) take the rules context
(`RulesContext`: engine/rules.py builds it); `invariants.py` and `savefile.py` take a game
(`CheckedGame`). Typing them with these protocols instead of the classes keeps the import graph
free of circles (tests/test_import_cycles.py).
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from ..content.model import ContentModel, Layout, Ruleset
from .state import State


class RulesContext(Protocol):
    """The rules context (engine/rules.py `Rules`) as the rules' functions see it: the content, the
    ruleset and layout in play, the state, the event log, the evaluation budget, and the one cache
    of facts derived from the position (`memo`, valid while `memo_current()`)."""

    content: ContentModel
    ruleset: Ruleset
    layout: Layout
    independents: list[str]
    s: State
    log: list[dict[str, Any]]
    steps: int
    formula_depth: int

    def memo(self) -> dict[Any, Any]: ...

    def memo_current(self) -> bool: ...

    def memo_after_move(self) -> None: ...

    def memo_for_copy(self, s: State) -> tuple[Any, ...]: ...

    def held_conditions(self) -> dict[Any, Any]: ...

    def state_written(self) -> None: ...


GameHost = RulesContext   # what an effect context and neutral content read and call


class CheckedGame(Protocol):
    """What the invariant checks and the save checks read of a game (invariants.py, savefile.py); typing
    them with this protocol instead of `game.Game` keeps game.py -> savefile.py -> invariants.py a line."""

    content: ContentModel
    s: State
    layout: Layout
    ruleset: Ruleset
    log: list[dict[str, Any]]
    rules: RulesContext

    def set_event_hook(self, hook: Callable[[dict[str, Any]], None] | None) -> None: ...

    def apply(self, answer: str) -> None: ...
