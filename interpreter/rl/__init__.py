"""Reinforcement learning over the engine (optional extra `necronomicon[rl]`): a PettingZoo AEC env,
and `VectorEnv`, many of its games stepped as batched arrays.

`from interpreter.rl import env` needs pettingzoo and gymnasium (imported on first use);
`interpreter.rl.observation`, the observation encoder, needs only numpy.
"""
from __future__ import annotations

from typing import Any

__all__ = ["MAX_ACTIONS", "NecroEnv", "VectorEnv", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from importlib import import_module
        return getattr(import_module(".vector" if name == "VectorEnv" else ".environment", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
