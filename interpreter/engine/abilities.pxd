# Cython declarations for the compiled core (hatch_build.py), beside the unchanged abilities.py,
# which stays the reference: the lookups a listing makes per ability as C functions (their calls of
# each other are C calls). A typed local holds exactly its type or None (else TypeError).
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields, memo_facts
# the player's units as a C call (`self_unit_for`), not through State.on_map's method call
from necronomicon.interpreter.engine.state cimport _units_of

@cython.locals(memo=dict)
cpdef list active_abilities(RulesFields g, object player)
cpdef object window_abilities(RulesFields g, object player, object window)
@cython.locals(memo=dict)
cpdef object active_abilities_all(RulesFields g)
cpdef object ability_by_key(RulesFields g, object key)
cpdef object ability_of(RulesFields g, object key)
@cython.locals(f=dict)
cpdef dict ability_frame(RulesFields g, object ab, object player, object me, object event, object area,
                         object self_id, object paid=*)
cpdef object once_key(RulesFields g, object ab, object player)
cpdef object ability_cost(RulesFields g, object ab, object player, object ctx)
@cython.locals(used=object)
cpdef bint usable(RulesFields g, object ab, object player, object ctx, object check_cost=*) except -1
@cython.locals(b=dict, first=object, holder=str)
cpdef object self_unit_for(RulesFields g, object ab, object player)
@cython.locals(memo=dict, live=frozenset)
cpdef bint quiet_window(RulesFields g, object name) except -1
@cython.locals(out=set)
cpdef frozenset _live_windows(RulesFields g, object _=*)
@cython.locals(memo=dict)
cpdef dict _windows_of(RulesFields g, object player)
@cython.locals(out=list, kinds=set)
cpdef list _collect_abilities(RulesFields g, object player)
@cython.locals(out=dict)
cpdef dict _by_window(RulesFields g, object player)
cdef dict _KEYS
@cython.locals(keys=tuple)
cdef tuple _keys_of(object player)
