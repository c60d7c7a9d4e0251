# Cython declarations for the compiled core (hatch_build.py), beside the unchanged basics.py, which
# stays the reference: the reads of the content and the state every rule makes (a unit's type,
# several times a decision; Power gained) as C functions whose context `g` is typed
# (rules_fields.pxd), so that `g.content` and `g.s` are C field loads.
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields

cpdef object faction(RulesFields g, object player)
cpdef object utype(RulesFields g, object u)
cpdef object uclass(RulesFields g, object u)
cpdef bint is_area(RulesFields g, object loc) except -1
cpdef object gain_power(RulesFields g, object p, object n, object why=*)
cpdef object battle_record(RulesFields g)
cpdef object emit_fields(RulesFields g, object type_, dict fields)

# the unit kinds in play kept across the memo's drops while the player's units are unchanged: the
# state's unit counters C fields (RulesFields.s is typed StateFields)
@cython.locals(kept=dict, entry=tuple, at=tuple)
cdef set _kept_kinds(RulesFields g, object player)
cdef set _kinds_of(RulesFields g, object player)
