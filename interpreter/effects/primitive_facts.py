"""What some primitives are known to do beyond their declared parameters: facts the compiler's
proofs (content/effect_build.py, effects/guarded_choices.py) and the engine's shortcuts
(engine/feasible.py, engine/held_conditions.py) both read, declared once with the language."""
from __future__ import annotations

# the single choices that note an empty list (`note_no_option`) and give `none`
NOTING_CHOICES = frozenset({"choose_unit", "choose_area", "choose_player", "choose_spellbook"})

# The verbs that take their one unit off the map (into a pool) and set off only the `unit-removed`
# window (the remove-unit procedure, engine/core_procs.py; a capture opens a second window and is not one).
REMOVALS = frozenset({"kill", "eliminate"})
# the window REMOVALS set off
REMOVAL_WINDOW = "unit-removed"
# verbs that move no unit and set nothing off (no window, no procedure: they never wait)
QUIET_VERBS = frozenset({"gain_power", "lose_power", "bank_power", "gain_doom", "lose_doom", "elder_sign",
                         "add_battle_count", "set_flag", "set_marker"})

# query -> the State fields its answer depends on, whatever its arguments ("units": places and
# owners of the units; a unit's kind and class never change). A query not listed may read anything.
READS: dict[str, tuple[str, ...]] = {
    "count": (), "first": (), "max": (), "min": (), "ceil": (), "floor": (), "distinct": (),
    "without": (), "glyph": (),
    "power": ("power",), "doom": ("doom",), "spellbook_count": ("spellbooks",),
    "has_spellbook": ("spellbooks",), "first_player": ("first",), "round": ("round",),
    "player_count": ("players",),
    "units": ("units", "battle"), "pool": ("units",),
    "areas": ("units", "gates", "tokens"), "has_gate": ("gate-places",), "gates": ("gates", "unit-owners", "unit-gates"),
    "gate_controller": ("gates", "unit-owners"), "home": ("home",), "tokens": ("tokens",),
}
# query -> parameter -> the State fields the answer reads when that parameter is given: for a query
# listed here, what a call reads is the union over the parameters it is given (none: the map alone),
# narrower than READS (`areas(with_units_of: me)` reads where units are, never the Gates)
READS_BY_ARGUMENT: dict[str, dict[str, tuple[str, ...]]] = {
    "areas": {"with_units_of": ("units",), "without_units_of": ("units",), "gate": ("gates", "gate-places", "unit-gates"),
              "controlled_by": ("gates", "unit-owners"), "token": ("tokens",), "without_token": ("tokens",)},
}
