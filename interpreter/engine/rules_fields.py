"""The rules context's fields and its memo's reads (engine/rules.py `Rules` is this class with the
rest of its methods).

A leaf module, so that the compiled core can type the rules' functions by it: rules_fields.pxd makes
`RulesFields` an extension type whose fields are C fields, and the declarations of the hot modules
(core.pxd, actions.pxd, ...) type their context `g` with it, so that `g.s` is a C field load instead
of a lookup by name; its own methods (the memo's, read about ten times a decision) read the fields
so too. rules.py imports nearly every module of the engine (their procedures register), so a
declaration naming `rules.Rules` would make each compiled module import it first, in a circle.
"""
from __future__ import annotations

from typing import Any

from .state import CHECK_MEMO, State


class RulesFields:
    """The declared fields of the rules context (`__slots__`: nothing else can be set on it);
    `rules.Rules` adds none and sets them all (`Rules.blank`, `Rules.twin`). The memo's reads
    (`memo`, `held_conditions`, `memo_current`) are here, beside the fields they read."""

    __slots__ = (
        # what the game is: its content, ruleset, map layout, loyalty cards and first player
        "bundle", "content", "ruleset", "layout", "independents", "first",
        # the content's parts read at every turn, held here so that each is one read (the compiled
        # core's: a C field load): its tables (content/tables.py), its factions and its tables'
        # unit types and classes (basics.py `utype`, `uclass`); the content's own, never changed
        "tables", "factions", "unit_types", "unit_classes",
        # the state, the event log, scripted dice (a scenario's), the event hook (checking mode)
        "s", "log", "_forced_dice", "_event_hook",
        # the evaluation budget: steps since the last decision, formulas nested (limits.py)
        "steps", "formula_depth",
        # the one cache of facts derived from the position (`memo`, with the requirement conditions
        # kept for this state object: `held_conditions`) and its checking mode
        "_memo", "_checking",
        # the pending decision as a Decision, for the state's pending record it was made from (game.py)
        "_pending_obj", "_pending_of",
        # dry runs (feasible.py): the notes of a dry run's copy (None: not one), the steps one search
        # spent, its results by position (shared by clones; None until the game is first cloned),
        # and the position's text while one listing runs
        "_dry_run_notes", "_dry_steps", "_dry_run_memo", "_position_text",
    )

    def _check_memo(self, kept: dict[Any, Any]) -> None:
        """Checking mode: the kept facts `kept` against fresh ones (`Rules._check_memo`)."""
        raise NotImplementedError

    def memo(self) -> dict[Any, Any]:
        """A dict for facts derived from who has which abilities (active abilities, units in play,
        the modifier index), valid until that changes: it is keyed on the state object and its
        write counter `s.writes`, which every write to units (a move, a new unit), spellbooks,
        grants or loyalty cards bumps (`State.written`, `State.moved`; by hand: `state_written`).
        The check is one identity and one integer compare. (The memo record: those two keys, the
        facts, the held conditions (`held_conditions`), and in checking mode the grants list, its
        length and the number of units, compared at each use to catch a write not noted.)"""
        s = self.s
        m = self._memo
        if memo_is_current(self):
            if CHECK_MEMO and not self._checking:
                self._check_memo(m[2])
            return m[2]  # type: ignore[index,no-any-return]
        held = m[3] if m is not None and m[0] is s else {}
        self._memo = m = memo_record(s, {}, held)
        return m[2]  # type: ignore[no-any-return]

    def held_conditions(self) -> dict[Any, Any]:
        """The requirement conditions kept for this state object (held_conditions.py: each beside
        the values of the state it read, and used only while they are the same). They outlive the
        memo's facts (a write does not drop them) but not the state object: a copy, a clone or a
        restored position starts with none, so no two states share them."""
        m = self._memo
        if m is None or m[0] is not self.s:
            self.memo()
            m = self._memo
            assert m is not None
        return m[3]  # type: ignore[no-any-return]

    def memo_current(self) -> bool:
        """Whether the memo (see `memo`) is valid for the state as it is."""
        return memo_is_current(self)


def memo_is_current(g: RulesFields) -> bool:
    """Whether `g`'s memo record is valid for its state as it is: made for this state object, at
    its write count. The one test of the memo's currency: `memo`, `memo_facts` and core's `shift`
    ask it, and the compiled core calls it as a C function (rules_fields.pxd)."""
    m = g._memo
    if m is None:
        return False
    s = g.s
    return m[0] is s and m[1] == s.writes  # type: ignore[no-any-return]


def memo_facts(g: RulesFields) -> dict[Any, Any]:
    """`g.memo()`: its facts read without a method call while the memo record is current
    (`memo_is_current`), which the compiled core calls as a C function (rules_fields.pxd); the
    method itself otherwise, and always in checking mode (it checks the facts at every read)."""
    if not CHECK_MEMO and memo_is_current(g):
        return g._memo[2]  # type: ignore[index,no-any-return]
    return g.memo()


def memo_record(s: State, facts: dict[Any, Any], held: dict[Any, Any]) -> tuple[Any, ...]:
    """The memo record of `memo`: the two keys it is valid for (the state object, its write
    counter), the facts, the held conditions, and in checking mode what a write not noted would
    change unseen (the grants list, its length, the number of units; None otherwise)."""
    return (s, s.writes, facts, held, (s.grants, len(s.grants), len(s.units)) if CHECK_MEMO else None)
