# Cython declarations for the compiled core (hatch_build.py), beside the unchanged core_procs.py,
# which stays the reference: `requirements_call` (asked after every action and phase step) as a C
# function whose context `g` is typed (rules_fields.pxd), so that its `g.s` reads are C field loads.
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields
# `first_holding` (held_conditions.pxd) called as a C function, with no argument tuple, by
# `requirements_call` and CheckRequirements
from necronomicon.interpreter.engine.held_conditions cimport first_holding

cpdef object requirements_call(RulesFields g, object when, object event=*, object players=*)

# the typed functions of other modules its procedures call by name, cimported: C calls (turn.pxd says why)
from necronomicon.interpreter.engine.basics cimport emit_fields, gain_power, is_area
from necronomicon.interpreter.engine.core cimport turn_order

# `Window`'s searches as C functions that call the abilities' lookups (abilities.pxd) and `core.ctx`
# (core.pxd) as C functions
from necronomicon.interpreter.engine.abilities cimport self_unit_for, usable, window_abilities
# an ability's use (`UseAbility`, the frames `Window` makes) by C calls of the abilities' lookups
from necronomicon.interpreter.engine.abilities cimport ability_cost, ability_frame, ability_of, once_key
cpdef object ability_ctx(RulesFields g, object ab, dict f)
from necronomicon.interpreter.engine.core cimport ctx

cpdef object _next_rule(RulesFields g, dict f, object rules)
@cython.locals(cands=list)
cpdef list _candidates(RulesFields g, object p, object name, object used, object outside, object event, object area)
cdef dict _RULES_AT
cdef tuple _LAST_RULES
@cython.locals(kept=tuple, by_window=dict, at=tuple)
cpdef tuple rules_at(object rules, object window)
