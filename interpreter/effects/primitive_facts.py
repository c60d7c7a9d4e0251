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

# --- what a statement before a single choice may write (effects/listed_choices.py) ---------------------
# verb (or list-less choice) -> the State parts it writes; each opens no window and starts no
# procedure (it never waits), so nothing else runs while it does. A verb not listed may write anything.
WRITES: dict[str, tuple[str, ...]] = {
    "roll_die": ("rng",), "roll_dice": ("rng",),
    "gain_power": ("power",), "lose_power": ("power",), "gain_doom": ("doom",), "lose_doom": ("doom",),
    "place_token": ("tokens",),
    "elder_sign": ("elder-signs", "rng", "doom"),   # from the bag at random; 1 Doom when it is empty
}
# what starting an action ability writes before its effect runs: its cost paid, its once-limit noted
PAYMENT_WRITES = ("power", "memory")
# a part standing for what a unit's cost reads: its kind's cost formula and the cost modifiers of
# the content (found as the content is built: content/tables.py `listed_programs`)
UNIT_COSTS = "unit-costs"
# the modifier targets a unit's cost passes through (engine/core.py `unit_cost`)
COST_TARGETS = frozenset({"summon-cost", "awaken-cost", "recruit-cost"})
# what deciding which modifiers apply reads: who plays, their spellbooks, the units in play, the cards
MODIFIER_HOLDERS = ("players", "spellbooks", "units", "loyalty")
# READS for the queries a single choice's list (or a unit cost) may call beyond READS
LIST_READS: dict[str, tuple[str, ...]] = {
    "cost": ("units", UNIT_COSTS), "in_play": ("units",), "awakened_ever": ("awakened",),
}
# fields of a unit (or a cost's subject) that read nothing but the record: its keys, and its class
# (a unit's kind and class never change)
UNIT_FIELDS = frozenset({"id", "kind", "owner", "loc", "class"})
# verb -> the position of a unit parameter it checks before it does anything: given `none` there it
# fails (engine/primitives/arguments.py `as_unit`) and has written nothing
NONE_REJECTED: dict[str, int] = {"place": 0, "move_to": 0}
