"""Find a named thing among the loaded content, or fail with one line and a did-you-mean."""
from __future__ import annotations

from typing import Iterable

from necronomicon.interpreter.diagnostics import did_you_mean


class ShowError(ValueError):
    """A view cannot be drawn: an unknown name, a missing round... (one line for the user)."""


def find(kind: str, name: str, ids: Iterable[str], names: dict[str, str] | None = None) -> str:
    """The id `name` refers to: an id, or a display name in any case. Else a ShowError."""
    known = sorted(ids)
    if name in known:
        return name
    folded = {n.casefold(): i for i, n in (names or {}).items()}
    folded.update({i.casefold(): i for i in known})
    if name.casefold() in folded:
        return folded[name.casefold()]
    # a part of an id is a good hint too: difflib misses a short name that is one word of a long id
    inside = [i for i in known if name.casefold() in i]
    hint = did_you_mean(name, known) or (f" (did you mean '{inside[0]}'?)" if inside else "")
    listing = f"; known: {', '.join(known)}" if not hint and len(known) <= 12 else ""
    raise ShowError(f"unknown {kind} '{name}'{hint}{listing}")
