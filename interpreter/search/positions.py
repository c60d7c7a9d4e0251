"""Positions as one player knows them, as keys: the search's transposition table and its reuse of
the tree from one decision to the next (tree.py, agent.py) look statistics up by them.

`search_key(game, player)` is equal for two positions exactly when everything `player` can know
about them is equal: the whole state (the board, the rule flow and the pending question, so where
play stands mid-ability too) with what the player cannot see left out: others' face-down Elder
Sign values (their number stays), the bag's contents (its size stays), the random generator and
seed, others' unrevealed secret picks, and position digests in the rule flow (a digest covers the
hidden values). The event counter (`seq`) is left out too: it counts log lines, not position.
So the determinizations of one information set share a key, and a position reached by two orders
of answers is one entry. It is a sha1 digest (20 bytes); the units, most of the state, are hashed
once while they are unchanged (`State.units_hash`, as the engine's own position key).
"""
from __future__ import annotations

import json
import operator
import re
from typing import Any

from ..engine.game import Game
from ..engine.state import STATE_FIELDS, key_bytes

__all__ = ["search_key"]

# the fields hashed as they are; the rest are masked (below) or are not position
_HIDDEN_OR_NOT_POSITION = ("units", "seq", "rng", "seed", "elder_signs", "es_bag", "flow", "pending")
_plain_fields = operator.attrgetter(*(f.name for f in STATE_FIELDS if f.name not in _HIDDEN_OR_NOT_POSITION))
_DIGEST = re.compile(r'"[0-9a-f]{40}"')


def search_key(game: Game, player: str) -> bytes:
    """The position as `player` knows it, as a 20-byte key (the module docstring)."""
    s = game.s
    h = s.units_hash()
    signs = [(p, list(v) if p == player else len(v)) for p, v in s.elder_signs.items()]
    h.update(key_bytes((_plain_fields(s), signs, len(s.es_bag))))
    h.update(_flow_text(s.flow, player).encode())
    h.update(key_bytes(s.pending))
    return h.digest()


def _flow_text(flow: Any, player: str) -> str:
    """The rule flow as text, digests blanked and others' unrevealed secret picks masked."""
    text = json.dumps(flow)
    if '"secret_picks"' in text:
        masked = json.loads(text)
        for f in masked:
            w = f.get("wait") if isinstance(f, dict) else None
            if isinstance(w, list) and len(w) == 2 and w[0] == "secret_picks" and isinstance(w[1], dict):
                for r in w[1].get("picks", []):
                    if isinstance(r, dict) and r.get("player") != player:
                        r["value"] = None
        text = json.dumps(masked)
    return _DIGEST.sub('""', text)
