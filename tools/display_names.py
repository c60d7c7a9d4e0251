"""The names people read in reports and plots: content names for the faction and spellbook ids a
results file records (`drowned-choir` -> `The Drowned Choir`, `deep-chorus` -> `Deep Chorus`).

A report made beside its content (`necro balance`) takes the names from that content; `necro report`,
which has only the results file, takes them from the built-in content with every expansion, and an
id no content names (a modder's faction read without its folder) is shown made readable
(`drowned-choir` -> `Drowned Choir`), never as the bare id.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["DisplayNames", "builtin_names", "readable"]


def readable(ident: str) -> str:
    """An id no content names, made readable: `drowned-choir` -> `Drowned Choir`."""
    return ident.replace("-", " ").replace("_", " ").title()


@dataclass(frozen=True)
class DisplayNames:
    """Faction names by id, and spellbook names by faction id then spellbook id (neutral spellbooks
    under the key '')."""

    factions: dict[str, str] = field(default_factory=dict)
    spellbooks: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, model: Any) -> "DisplayNames":
        """The names a loaded content model gives its factions and spellbooks."""
        factions = {f: fac.name for f, fac in model.factions.items()}
        books = {f: {b: sb.name for b, sb in fac.spellbooks.items()} for f, fac in model.factions.items()}
        books[""] = {b: sb.name for b, sb in getattr(model, "neutral_spellbooks", {}).items()}
        return cls(factions, books)

    def faction(self, ident: str) -> str:
        """The faction's name."""
        return self.factions.get(ident) or readable(ident)

    def spellbook(self, faction: str, ident: str) -> str:
        """The name of a spellbook `faction` took (its own, else a neutral one)."""
        return self.spellbooks.get(faction, {}).get(ident) or self.spellbooks.get("", {}).get(ident) or readable(ident)


def builtin_names() -> DisplayNames:
    """The names of the built-in content with every expansion; ids made readable if it cannot load."""
    try:
        from necronomicon.interpreter.content import load_content
        return DisplayNames.of(load_content(expansions="all").model)
    except Exception:  # noqa: BLE001 - names are a nicety; a report must not fail for want of them
        return DisplayNames()
