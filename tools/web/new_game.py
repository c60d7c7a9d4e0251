"""The new-game form's two ends: what the server offers (rulesets, factions, the map layouts for
each player count, seatings, first-player choices, Independents, seats) and the checked setup a
submitted form asks for (tools/game_setup.py makes the game, as `necro play` does). Every value
is checked here before the engine sees it; a bad one is one 4xx line naming the field."""
from __future__ import annotations

from typing import Any

from necronomicon.interpreter.content.build import Content
from necronomicon.tools.auto_answers import AutoAnswers
from necronomicon.tools.game_setup import RANDOM, SEATINGS, Setup, layouts_for

from . import checks


def setup_offer(content: Content) -> dict[str, Any]:
    """The choices the form shows for this content (ids, with the names people read)."""
    from necronomicon.tools.views.colours import faction_colours
    m = content.model
    colours = faction_colours(m, sorted(m.factions))
    rulesets = []
    for r in m.rulesets.values():
        counts = [n for n in r.get("players", []) if isinstance(n, int)]
        rulesets.append({
            "id": r.id, "name": r.name, "players": counts, "default": bool(r.get("default")),
            "default_factions": r.get("default-factions", {}),
            "layouts": {str(n): [{"id": i, "name": m.layouts[i].name} for i in layouts_for(content, r.id, n)]
                        for n in counts}})
    return {
        "rulesets": rulesets,
        "factions": [{"id": f.id, "name": f.name, "colour": colours[f.id], "expansion": f.expansion,
                      "first": "always" if f.setup.get("always-first") else
                      "never" if f.setup.get("never-first-at-start") else "may"}
                     for f in sorted(m.factions.values(), key=lambda f: f.id)],
        "independents": [{"id": c, "name": f.name} for c, f in sorted(m.loyalty_cards.items())],
        "seatings": list(SEATINGS), "random": RANDOM}


def new_game_setup(spec: dict[str, Any], content: Content) -> Setup:
    """The setup a new-game request asks for, each field checked (a bad one: one 400 line)."""
    model = content.model
    factions = checks.names(spec.get("factions") or [], "factions", [*model.factions, RANDOM], most=8)
    seed = checks.whole(spec.get("seed", 1), "the seed", 0, checks.SEED_MAX)
    ruleset = checks.text(spec.get("ruleset", ""), "the ruleset")
    if ruleset not in model.rulesets:
        raise checks.RequestRefused(f"ruleset: no such ruleset '{ruleset[:60]}'; one of: {', '.join(sorted(model.rulesets))}")
    layout = spec.get("layout") or None
    if layout is not None:
        offered = layouts_for(content, ruleset, len(factions))
        layout = checks.text(layout, "layout")
        if layout not in offered:
            raise checks.RequestRefused(f"layout: '{layout[:60]}' is not offered for {len(factions)} players "
                                        f"of this ruleset; one of: {', '.join(offered)}")
    seating = checks.text(spec.get("seating") or "as-given", "seating")
    if seating not in SEATINGS:
        raise checks.RequestRefused(f"seating: '{seating[:60]}'; one of: {', '.join(SEATINGS)}")
    first = spec.get("first") or None
    if first is not None:
        first = checks.text(first, "first")
        if first != RANDOM and first not in factions:
            raise checks.RequestRefused(f"first: '{first[:60]}' is not one of the chosen factions, nor '{RANDOM}'")
    independents = spec.get("independents")
    if independents is not None:
        independents = tuple(checks.names(independents, "independents", model.loyalty_cards, most=16))
    return Setup(ruleset, tuple(factions), seed, layout, seating, first, independents)


def seats_by_row(value: Any, rows: list[str]) -> dict[str, str]:
    """Who plays each faction: a list, one seat per row of the form (its faction maybe drawn), or a
    map from faction to seat."""
    if isinstance(value, list):
        if len(value) != len(rows):
            raise checks.RequestRefused(f"seats: {len(value)} given for {len(rows)} factions")
        return {f: checks.text(v, f"seats[{i}]") for i, (f, v) in enumerate(zip(rows, value))}
    return checks.mapping(value, "seats", rows)


def auto_setting(sent: dict[str, Any], now: AutoAnswers) -> AutoAnswers:
    """A seat's auto-answer setting from a request: `one_option` and `end_turn`, each true or false
    (absent: as it is now)."""
    out = {}
    for name in ("one_option", "end_turn"):
        v = sent.get(name, getattr(now, name))
        if not isinstance(v, bool):
            raise checks.RequestRefused(f"{name} must be true or false, not {str(v)[:60]!r}")
        out[name] = v
    return AutoAnswers(**out)
