"""Every timing window the engine opens, and the fields of the event each one carries.

This is the one declaration of events: the schema's `window` enum must list exactly these windows,
the compiler refuses `event.<field>` where the window (or, for `after-action`, the action) does not
guarantee that field, and docs/effect-language.md is generated from it. A test watches whole games
and checks that every event the engine hands to effects has exactly the declared fields.
"""
from __future__ import annotations

from functools import lru_cache

from .events import EventType

# window -> (when it opens, the fields of its event; None: no event is bound there)
WINDOW_EVENTS: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "action": ("a unique action; listed among the player's actions, costs `cost`", None),
    "unlimited-action": ("like `action`, but does not use the turn's single action", None),
    "battle-declared": ("a battle was declared, before pre-battle abilities (defender first)",
                        ("attacker", "defender", "area")),
    "before-battle": ("pre-battle: attacker's abilities, then defender's", ("attacker", "defender", "area")),
    "battle-roll": ("each side after its dice are counted", ("player", "dice", "kills", "pains", "area")),
    "result-assigned": ("a result was assigned to a unit", ("unit", "result", "side", "by")),
    "kills-assigned": ("all kills and eliminations assigned", ("area",)),
    "pains-assigned": ("all pains assigned", ("area",)),
    "after-assignment": ("everything assigned, before removals and retreats", ("area",)),
    "retreats": ("after retreats", ("area",)),
    "after-battle": ("the battle is over (spellbooks earned in it arrive after this)", ("area", "attacker", "defender")),
    "unit-moved": ("a unit moved during a Move action", ("player", "unit", "src", "dst", "moved")),
    "unit-removed": ("a unit was killed, eliminated or captured (`area` is none off the map)",
                     ("unit", "how", "cause", "owner", "replaced", "area", "in_battle")),
    "unit-captured": ("a unit was captured", ("unit", "how", "cause", "owner", "replaced", "area", "in_battle")),
    "gate-created": ("a gate was created", ("player", "area")),
    "after-action": ("after any player's action, before the next (active player first); "
                     "more fields by action, see below", ("player", "action", "label", "spent")),
    "gather-power": ("after income, before the Minimum Power rule", ()),
    "after-gather-power": ("after the Minimum Power rule", ()),
    "end-of-power-phase": ("the very end of the Power phase: after `after-gather-power`, before the first "
                           "player is determined", ()),
    "doom-phase": ("on the player's Doom-phase turn; offered together with the Ritual", ("player",)),
    "end-of-doom-phase": ("after every player's Doom turn", ()),
    "on-awaken": ("a Great Old One was awakened", ("player", "kind", "unit", "area")),
    "ritual": ("after a player's Ritual of Annihilation", ("player",)),
    "static": ("never runs; carries `modifiers`", None),
}

WINDOWS = tuple(WINDOW_EVENTS)

# The field of an `after-action` event that names the action, and for each action (the first word
# of its label) what it does and the fields it adds to the window's own.
ACTION_FIELD = "action"
ACTION_EVENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "recruit": ("Recruit a cultist", ("area",)),
    "summon": ("Summon a monster", ("area", "unit")),
    "awaken": ("Awaken a Great Old One", ("area",)),
    "create-gate": ("Create a Gate", ("area",)),
    "move": ("Move (`spent` is the Power paid for every unit moved)", ()),
    "battle": ("Battle", ("area",)),
    "extra-battle": ("an Unlimited Battle a spellbook allows", ("area",)),
    "capture": ("Capture a cultist", ("area",)),
    "control-gate": ("control an abandoned Gate (unlimited)", ()),
    "abandon-gate": ("abandon a Gate (unlimited)", ()),
    "reveal-elder-signs": ("reveal Elder Signs (unlimited)", ()),
    "ability": ("an ability with window `action` or `unlimited-action` (`label` is `ability <id>`, or "
                "`ability <id> <area>` for one with `where:`; `area` is that area, none without `where:`)",
                ("area",)),
    "requirement": ("a Spellbook Requirement action", ()),
    "pass": ("pass: give up the remaining Power", ()),
}

# What the `action-cost` modifier's `subject.action` can be: a common action above, or an ability's id.
COST_ACTIONS = ("recruit", "summon", "awaken", "create-gate", "move", "battle", "capture", "requirement")


def event_fields(window: str) -> frozenset[str] | None:
    """The fields every event of `window` carries (None: no event there)."""
    fields = WINDOW_EVENTS[window][1]
    return None if fields is None else frozenset(fields)


def action_fields() -> dict[str, frozenset[str]]:
    """For each action kind, every field of its `after-action` event."""
    base = WINDOW_EVENTS["after-action"][1] or ()
    return {a: frozenset(base) | frozenset(extra) for a, (_, extra) in ACTION_EVENTS.items()}


@lru_cache(maxsize=None)
def event_type(window: str) -> EventType | None:
    """What the compiler knows of `event` in an ability of `window` (None: no event is bound)."""
    fields = event_fields(window)
    if fields is None:
        return None
    carriers: dict[str, list[str]] = {}
    for w, (_, fs) in WINDOW_EVENTS.items():
        for f in fs or ():
            carriers.setdefault(f, []).append(w)
    for _, extra in ACTION_EVENTS.values():
        for f in extra:
            if "after-action" not in carriers.setdefault(f, []):
                carriers[f].append("after-action")
    frozen = {f: tuple(ws) for f, ws in carriers.items()}
    if window == "after-action":
        return EventType(window, fields, ACTION_FIELD, action_fields(), None, frozen)
    return EventType(window, fields, carriers=frozen)
