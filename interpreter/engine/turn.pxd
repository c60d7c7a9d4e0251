import cython

# Cython declarations for the compiled core (hatch_build.py), beside the unchanged turn.py, which
# stays the reference: the typed functions of other modules it calls by name (their .pxd declares them
# cpdef) cimported, so that each call is a C call through the exported pointer, not a Python call of
# the module attribute with its arguments packed and parsed again (`from .basics import emit_fields`
# in the source names the same function).
from necronomicon.interpreter.engine.basics cimport emit_fields, gain_power
from necronomicon.interpreter.engine.core cimport turn_order
from necronomicon.interpreter.engine.phases cimport can_pass, out_of_actions
from necronomicon.interpreter.engine.option cimport parse
from necronomicon.interpreter.engine.actions cimport as_common_action, take_action_call
# the memo's facts (handing a listing or a position key to the next step) read by a C call
from necronomicon.interpreter.engine.rules_fields cimport memo_facts
# the turn's question made as flow.ask makes it, by C calls (no keyword arguments packed)
from necronomicon.interpreter.engine.flow cimport Ask
from necronomicon.interpreter.engine.decisions cimport new_decision

# the Turn's steps' bodies (module functions) with their frame typed: its reads, writes and pops
# are C calls of dict functions (a frame is a dict; a State's memory too)
cdef object _choose(object turn, object g, dict f)
cdef object _chosen(object turn, object g, dict f, object ans)
@cython.locals(memory=dict)
cdef object _acted(object turn, object g, dict f)
# the Unlimited Actions of the turn (module functions, not Turn methods): C calls from the steps
cpdef tuple _list_unlimited(object g, dict f)
cpdef list _unlimited(object g, dict f, bint keep=*)
