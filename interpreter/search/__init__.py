"""A generic search bot (information-set MCTS) that plays any faction through the Game API."""
from __future__ import annotations

from .agent import SearchAgent, SearchStats, make_search_agent
from .budget import SearchConfig, is_search, parse_agent

__all__ = ["SearchAgent", "SearchConfig", "SearchStats", "is_search", "make_search_agent", "parse_agent"]
