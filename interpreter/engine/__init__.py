"""The engine: state, phases, actions, battle, timing windows and the decision interface.

Importing it registers the engine's implementation of every primitive the effect language declares
(effects/signatures.py), so content compiled once the engine is imported calls them directly.
"""
from . import primitives  # noqa: F401  (registers the implementations)
