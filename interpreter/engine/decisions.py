"""The one decision interface: every choice any player makes is a Decision answered by an option."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .option import Option


@dataclass(frozen=True)
class Decision:
    """A question to one player: pick one of `options` (readable, stable labels). `records`: what
    each option is, label by label in the order of `options` (engine/option.py's records, each
    with the cost the context lists for it), when the rules that asked had them: the listing's
    own, handed to the player's seat so that no label is read back (`Seat.options`). Not part of
    the state, a save or `as_json`: a decision read back from the state has none (None), and a
    seat then reads its labels."""

    player: str
    kind: str  # action | unit | area | option | ability | spellbook | order | yes-no | ...
    options: tuple[str, ...]   # labels (engine/option.py makes them and reads them back)
    prompt: str
    context: dict[str, Any] = field(default_factory=dict)
    records: "dict[str, Option] | None" = field(default=None, compare=False, repr=False)

    def __init__(self, player: str, kind: str, options: tuple[str, ...], prompt: str,
                 context: dict[str, Any] | None = None, records: "dict[str, Option] | None" = None) -> None:
        # written out, not generated: a dataclass's generated __init__ is Python made at import,
        # which the compiled core would run interpreted (see `_fill`)
        _fill(self, player, kind, options, prompt, {} if context is None else context, records)

    def as_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "options": list(self.options), "prompt": self.prompt}


def new_decision(player: str, kind: str, options: tuple[str, ...], prompt: str, context: dict[str, Any],
                 records: "dict[str, Option] | None") -> Decision:
    """`Decision(player, kind, options, prompt, context, records)`, made without a call through the
    type (flow.ask's, at every question: a C call in the compiled core, decisions.pxd, which makes
    the instance by the type's C `tp_new` and sets its C fields)."""
    d = Decision.__new__(Decision)
    _fill(d, player, kind, options, prompt, context, records)
    return d


def _fill(d: Decision, player: str, kind: str, options: tuple[str, ...], prompt: str, context: dict[str, Any],
          records: "dict[str, Option] | None") -> None:
    """Set the fields of a new decision: in the compiled core an extension type (decisions.pxd), its
    fields C fields, written as such (read-only from Python, as a frozen dataclass's); in the source
    a frozen dataclass, its fields written straight into the instance's dict (frozen guards only
    attribute assignment), not through six `object.__setattr__` calls."""
    if _C_FIELDS:
        d.player = player
        d.kind = kind
        d.options = options
        d.prompt = prompt
        d.context = context
        d.records = records
    else:
        fields = d.__dict__
        fields["player"] = player
        fields["kind"] = kind
        fields["options"] = options
        fields["prompt"] = prompt
        fields["context"] = context
        fields["records"] = records


#: whether Decision's fields are C fields (the compiled core) rather than the instance's dict's
_C_FIELDS = not hasattr(Decision.__new__(Decision), "__dict__")


class IllegalAction(Exception):
    """An answer that is not one of the pending decision's options. The state is unchanged."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


class GameError(Exception):
    """A rule or content failure while playing, or a save or log that cannot be loaded; one line.
    A failed `apply` leaves the game as it was."""


class Agent(Protocol):
    """Anything that answers decisions: a bot, a human at a terminal, a test script."""

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str: ...

