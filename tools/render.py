"""Readable text for game log events: one template per event type (events without one are silent)."""
from __future__ import annotations

from typing import Any

TEMPLATES = {
    "game": "game: {ruleset} on {layout}, seed {seed}: {factions_text}",
    "phase": "-- round {round}: {phase} phase --",
    "first-player": "first player: {player}",
    "action": "{player}: {action}{cost_text}",
    "battle": "battle in {area}: {attacker} attacks {defender}",
    "dice": "  {player} rolls {dice} ({why})",
    "result": "  {side}'s {kind} takes a {result}",
    "ritual": "{player}: Ritual of Annihilation for {cost} Power",
    "doom": "  {player} +{change} Doom{why_text} = {total}",
    "spellbook": "  {player} earns spellbook {spellbook}",
    "spellbook-removed": "  {player} removes spellbook {spellbook}",
    "doom-paid": "  {player} pays {amount} Doom{why_text} = {total}",
    "loyalty-card": "  {player} takes the {card} loyalty card",
    "ability": "  {who} uses {name}",
    "surrounded": "  {side} is surrounded",
    "game-over": "game over: {reason}",
}


def event_text(e: dict[str, Any]) -> str | None:
    template = TEMPLATES.get(e["type"])
    if template is None:
        return None
    extra = {"factions_text": ", ".join(e.get("factions", [])),
             "cost_text": f" ({e['cost']} Power)" if e.get("cost") else "",
             "who": e.get("player") or "rules",
             "why_text": f" ({e['why']})" if e.get("why") else ""}
    return template.format(**e, **extra)
