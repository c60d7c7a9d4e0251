"""The effect language's primitives, by topic. Each is small, declared with its parameters, and generic:
none names a faction, unit, spellbook or area. Verbs and choices may wait (they return a Suspend: see effects/registry.py).

Importing this package registers every primitive in `effects.registry.REGISTRY`; each topic module is
listed here by name (add a new one to this list).
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
