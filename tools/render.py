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
    "doom": "  {player} {change:+d} Doom{why_text} = {total}",
    "independents": "independent great old ones: {cards_text}{left_text}",
    "independent": "  {player} {change} the loyalty card of {card}",
    "marker": "  marker {name} on {value}",
    "secret-picks": "  revealed together ({why}): {picks_text}",
    "spellbook": "  {player} earns spellbook {spellbook}",
    "spellbook-removed": "  {player} removes spellbook {spellbook}",
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
             "why_text": f" ({e['why']})" if e.get("why") else "",
             "cards_text": ", ".join(e.get("cards", [])) or "none",
             "left_text": f" (left out: {'; '.join(e['left_out'])})" if e.get("left_out") else "",
             "picks_text": ", ".join(f"{p} {v}" for p, v in e.get("picks", []))}
    return template.format(**e, **extra)
