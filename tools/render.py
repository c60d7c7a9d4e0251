"""Readable text for game log events: one template per event type (events without one are silent)."""
from __future__ import annotations

from typing import Any

from necronomicon.interpreter.engine.option import action_verb

from .words import Words

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
    "unit": "  {owner}'s {kind}: {src_text} -> {dst_text} ({why})",
    "power": "  {player} {power_text} ({why}); {total} Power now",
    "gate": "  gate in {loc}: {change}{by_text}",
    "token": "  {owner} puts a {token} token in {loc}",
    "token-removed": "  {owner}'s {token} token in {loc} is removed ({why})",
    "elder-sign": "  {player} takes an Elder Sign ({why})",
}


def event_text(e: dict[str, Any], words: Words | None = None) -> str | None:
    """The line for one event, in content names when `words` has them (None: silent, or a
    bookkeeping ability that players never see)."""
    template = TEMPLATES.get(e["type"])
    if template is None:
        return None
    if words is not None and e["type"] == "ability" and e.get("ability") in words.bookkeeping:
        return None
    line = _filled(template, e)
    return words.text(line) if words is not None else line


def _filled(template: str, e: dict[str, Any]) -> str:
    extra = {"factions_text": ", ".join(e.get("factions", [])),
             "cost_text": f" ({e['cost']} Power)" if e.get("cost") else "",
             "who": e.get("player") or "rules",
             "why_text": f" ({e['why']})" if e.get("why") else "",
             "cards_text": ", ".join(e.get("cards", [])) or "none",
             "left_text": f" (left out: {'; '.join(e['left_out'])})" if e.get("left_out") else "",
             "picks_text": ", ".join(f"{p} {v}" for p, v in e.get("picks", [])),
             "src_text": _place(e.get("src")), "dst_text": _place(e.get("dst")),
             "power_text": _power(e.get("change")),
             "by_text": f" ({e['player']})" if e.get("player") else ""}
    try:
        return template.format(**{k: v for k, v in e.items() if k not in extra}, **extra)
    except (KeyError, IndexError, ValueError):  # an event without the fields its template names
        return f"{e['type']}: " + ", ".join(f"{k} {v}" for k, v in e.items() if k not in ("type", "seq"))


def _power(change: Any) -> str:
    if not isinstance(change, int):
        return str(change)
    return f"pays {-change} Power" if change < 0 else f"gains {change} Power"


def _place(loc: Any) -> str:
    return "the pool" if loc == "pool" else str(loc)


def events_text(events: list[dict[str, Any]], words: Words | None = None) -> list[str]:
    """The readable lines for a run of events, saying each thing once: a payment that the next
    action line already shows with its cost, a unit placed by the action just shown, a setup
    placement (see `board`) and a Power change of 0 are left out."""
    out: list[str] = []
    last_action = None
    for i, e in enumerate(events):
        t = e.get("type")
        nxt = events[i + 1] if i + 1 < len(events) else {}
        if t == "action":
            last_action = e.get("action")
        if t == "power" and (not e.get("change") or (nxt.get("type") == "action" and nxt.get("action") == e.get("why"))):
            continue
        placed = e.get("src") == "pool" and last_action is not None and e.get("why") in (last_action, action_verb(last_action))
        if t == "unit" and (e.get("why") == "setup" or placed):
            continue
        text = event_text(e, words)
        if text:
            out.append(text)
    return out
