"""Every bot by name: the engine's own (`engine/agents.py`: random, heuristic) and the search bot
(`search/`, `mcts[:budget...]`). Kept apart from both so that the search bot can build on the engine's
agents without an import circle."""
from __future__ import annotations

from .engine.agents import AGENTS, HUMAN
from .search import make_search_agent, parse_agent
from .search.budget import is_search

__all__ = ["AGENTS", "HUMAN", "agent_label", "is_search", "make_agent"]


def make_agent(name: str, seed: int) -> object:
    """A bot by name: a name in AGENTS, or the search bot (`mcts[:budget...]`). `human` is a known
    name but no bot: the front end that talks to the person (the terminal seat in
    tools/human_seat.py) answers through the same `choose` method."""
    if name == HUMAN:
        raise ValueError("the human seat is made by the front end (necro play); make_agent builds bots")
    if is_search(name):
        return make_search_agent(name, seed)
    if name not in AGENTS:
        raise ValueError(f"unknown agent '{name}'; one of: {', '.join([*AGENTS, HUMAN])}, mcts[:budget][:policy]")
    return AGENTS[name](seed)


def agent_label(name: str) -> str:
    """The name an agent is recorded under: a search bot's with every setting (`mcts:400:heuristic:depth=30:c=1:prior=10:root=0.5`)."""
    if is_search(name):
        return parse_agent(name).label()
    return name
