"""What an effect context and the neutral-content rules need from the game, as a type.

`context.py` and `neutral.py` are used by the game core (`core.py`); typing their `game` argument as
this protocol instead of the core class keeps the import graph free of circles.
"""
from __future__ import annotations

from typing import Any, Generator, Iterable, Protocol

from ..content.model import ContentModel
from .decisions import Decision
from .state import State


class GameHost(Protocol):
    """The part of the game an effect context and neutral content read and call."""

    content: ContentModel
    s: State
    steps: int

    def ask(self, player: str, kind: str, options: Iterable[str], prompt: str,
            **context: Any) -> Generator[Decision, str, Any]: ...

    def emit(self, type_: str, **fields: Any) -> None: ...

    def record_field(self, obj: dict[str, Any], name: str) -> tuple[bool, Any]: ...

    def battle_record(self) -> dict[str, Any]: ...

    def in_play_kinds(self, player: str) -> set[str]: ...
