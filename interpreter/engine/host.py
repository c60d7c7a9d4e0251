"""What the modules the game itself uses need from the game, as types.

`context.py` and `neutral.py` are used by the game core (`core.py`), `invariants.py` and `savefile.py` by
`game.py`; typing their `game` argument with these protocols instead of the game classes keeps the
import graph free of circles (tests/test_import_cycles.py).
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from ..content.model import ContentModel, Layout, Ruleset
from .state import State


class GameHost(Protocol):
    """The part of the game an effect context and neutral content read and call."""

    content: ContentModel
    s: State
    steps: int

    def emit(self, type_: str, **fields: Any) -> None: ...

    def record_field(self, obj: dict[str, Any], name: str) -> tuple[bool, Any]: ...

    def battle_record(self) -> dict[str, Any]: ...

    def in_play_kinds(self, player: str) -> set[str]: ...


class CheckedGame(GameHost, Protocol):
    """What the invariant checks and the save checks read of a game (invariants.py, savefile.py); typing
    them with this protocol instead of `game.Game` keeps game.py -> savefile.py -> invariants.py a line."""

    layout: Layout
    ruleset: Ruleset
    log: list[dict[str, Any]]
    rules: Any     # the rules context (engine/rules.py) the game runs over

    def is_area(self, loc: str) -> bool: ...

    def can_control(self, u: dict[str, Any]) -> bool: ...

    def capacity(self, u: dict[str, Any]) -> int: ...

    def set_event_hook(self, hook: Callable[[dict[str, Any]], None] | None) -> None: ...

    def apply(self, answer: str) -> None: ...
