"""Readable text for game log events."""
from __future__ import annotations

from typing import Any


def event_text(e: dict[str, Any]) -> str | None:
    t = e["type"]
    if t == "game":
        return f"game: {e['ruleset']} on {e['layout']}, seed {e['seed']}: {', '.join(e['factions'])}"
    if t == "phase":
        return f"-- round {e['round']}: {e['phase']} phase --"
    if t == "first-player":
        return f"first player: {e['player']}"
    if t == "action":
        cost = f" ({e['cost']} Power)" if e.get("cost") else ""
        return f"{e['player']}: {e['action']}{cost}"
    if t == "battle":
        return f"battle in {e['area']}: {e['attacker']} attacks {e['defender']}"
    if t == "dice":
        return f"  {e['player']} rolls {e['dice']} ({e['why']})"
    if t == "result":
        return f"  {e['side']}'s {e['kind']} takes a {e['result']}"
    if t == "ritual":
        return f"{e['player']}: Ritual of Annihilation for {e['cost']} Power"
    if t == "doom":
        return f"  {e['player']} +{e['change']} Doom ({e['why']}) = {e['total']}"
    if t == "spellbook":
        return f"  {e['player']} earns spellbook {e['spellbook']}"
    if t == "ability":
        return f"  {e['player'] or 'rules'} uses {e['name']}"
    if t == "surrounded":
        return f"  {e['side']} is surrounded"
    if t == "game-over":
        return f"game over: {e['reason']}"
    return None
