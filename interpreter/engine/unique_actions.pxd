# Cython declarations for the compiled core (hatch_build.py), beside the unchanged unique_actions.py,
# which stays the reference: its listings as C functions that actions.pxd cimports, their lists and
# tables typed, and the helpers of other modules they call cimported (C calls, as in actions.pxd).
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields
from necronomicon.interpreter.engine cimport abilities, core, moves
from necronomicon.interpreter.engine.abilities cimport ability_cost, self_unit_for, window_abilities
from necronomicon.interpreter.engine.moves cimport action_cost
from necronomicon.interpreter.engine.option cimport action

cpdef list requirement_actions(RulesFields g, object p, object unlimited)
@cython.locals(out=list, plan=tuple, costs=dict, modified=dict)
cpdef list _requirement_actions(RulesFields g, object p, object unlimited)
@cython.locals(c2=object)
cdef object _modified(RulesFields g, object p, object c, object mods, dict modified)
cdef list _KEPT
@cython.locals(by_player=dict, plans=tuple)
cdef tuple _plan(RulesFields g, object p, object unlimited)
cdef tuple _plans_of(object tables, object p)
@cython.locals(out=list)
cdef tuple _plan_of(tuple reqs)
cpdef list ability_actions(RulesFields g, object p, object window)
@cython.locals(out=list, areas=list)
cpdef list _ability_actions(RulesFields g, object p, object window)
cdef dict _ABILITY_PLANS
@cython.locals(kept=tuple, plan=tuple)
cdef tuple _ability_plan(object ab)
cdef tuple _ability_plan_of(object ab)
cdef dict _LACKS
cpdef object _may_lack(object effect, object n, object quiet)
