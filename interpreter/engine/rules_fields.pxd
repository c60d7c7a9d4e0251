# Cython declarations for the compiled core (hatch_build.py), beside the unchanged rules_fields.py,
# which stays the reference: the rules context's fields (its __slots__) C fields of an extension
# type, so that a function whose context is typed `RulesFields g` (core.pxd, actions.pxd, ...) reads
# `g.s` as a load from the object, not a lookup by name. Any other module reads and writes the
# fields by name, as it did the slots; rules.Rules is a Python subclass with no fields of its own.
# Its own methods (the memo's reads) read them as C fields, the memo record as a tuple. The state
# is typed by its unsaved fields (state_fields.pxd), so that `g.s.writes` is two loads.
import cython

from necronomicon.interpreter.engine.state_fields cimport StateFields

cdef class RulesFields:
    cdef public object bundle, content, ruleset, layout, independents, first
    cdef public object tables
    cdef public dict factions, unit_types, unit_classes   # (the content's: plain dicts, never changed)
    cdef public StateFields s   # (a State, or None)
    cdef public object log, _forced_dice, _event_hook
    cdef public object steps, formula_depth
    cdef public tuple _memo   # (the memo record, rules_fields.memo_record; None: none yet)
    cdef public object _checking
    cdef public object _pending_obj, _pending_of
    cdef public object _dry_run_notes, _dry_steps, _dry_run_memo, _position_text

# the memo's currency, its one test (`memo_is_current`), and its facts read as C loads while the
# record is current (`memo_facts`; else the method)
@cython.locals(m=tuple, s=StateFields)
cpdef bint memo_is_current(RulesFields g) except -1
cpdef dict memo_facts(RulesFields g)
