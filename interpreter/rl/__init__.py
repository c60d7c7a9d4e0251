"""Reinforcement learning over the engine (optional extra `necronomicon[rl]`): a PettingZoo AEC env.

`from interpreter.rl import env` needs pettingzoo and gymnasium; the observation encoder in
`interpreter.rl.observation` needs only numpy.
"""
from .env import MAX_ACTIONS, NecroEnv, env, raw_env

__all__ = ["MAX_ACTIONS", "NecroEnv", "env", "raw_env"]
