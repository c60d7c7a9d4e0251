"""The effect language's primitives, by topic. Each is small, declared with its parameters, and generic:
none names a faction, unit, spellbook or area. Verbs and choices may wait (they return a Suspend: see effects/registry.py).

Each is declared with the language (effects/signatures.py) and implemented here with `@implements(name)`,
which refuses at import a function whose parameters disagree with its declaration. Importing this package
registers every implementation; each topic module is listed here by name (add a new one to this list), and
the import fails when a declared primitive has no implementation.
"""
from __future__ import annotations

from . import (  # noqa: F401  (each import registers that module's primitives)
    areas_and_gates,
    battle,
    choices,
    neutral_content,
    numbers_and_lists,
    players,
    shared_costs,
    tracks_and_secrets,
    turns,
    units,
)
from ...effects.signatures import REGISTRY

if REGISTRY.unimplemented():
    raise ImportError("declared primitives without an implementation in engine/primitives: "
                      + ", ".join(REGISTRY.unimplemented()))
