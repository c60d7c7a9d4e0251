# Cython declarations for the compiled core (hatch_build.py), beside the unchanged core_procs.py,
# which stays the reference: `requirements_call` (asked after every action and phase step) as a C
# function whose context `g` is typed (rules_fields.pxd), so that its `g.s` reads are C field loads.
from necronomicon.interpreter.engine.rules_fields cimport RulesFields

cpdef object requirements_call(RulesFields g, object when, object event=*, object players=*)

# the typed functions of other modules its procedures call by name, cimported: C calls (turn.pxd says why)
from necronomicon.interpreter.engine.basics cimport emit_fields, gain_power, is_area
from necronomicon.interpreter.engine.core cimport turn_order
