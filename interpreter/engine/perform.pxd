import cython

# Cython declarations for the compiled core (hatch_build.py), beside the unchanged perform.py, which
# stays the reference: the typed functions of other modules it calls by name (their .pxd declares them
# cpdef) cimported, so that each call is a C call through the exported pointer, not a Python call of
# the module attribute with its arguments packed and parsed again (`from .basics import emit_fields`
# in the source names the same function).
from necronomicon.interpreter.engine.abilities cimport self_unit_for
from necronomicon.interpreter.engine.basics cimport emit_fields, faction, gain_power
from necronomicon.interpreter.engine.core cimport can_control, turn_order
from necronomicon.interpreter.engine.core_procs cimport requirements_call
from necronomicon.interpreter.engine.phases cimport out_of_actions, reveal_could_end_game
# the Move's listing and its step, as C calls
from necronomicon.interpreter.engine.moves cimport move_made, move_question
# an answer's label read back (each action taken, twice), as a C call
from necronomicon.interpreter.engine.option cimport parse

# TakeAction's reveals step, run on at once after a quiet window, as a C function (frames are dicts)
cdef object _reveals(object g, dict f)

from necronomicon.interpreter.engine.rules_fields cimport RulesFields
from necronomicon.interpreter.engine.state_fields cimport StateFields
from necronomicon.interpreter.engine.state cimport _pool
from necronomicon.interpreter.engine.option cimport Option

# Perform's start step as a C function (cpdef: its BODIES name it): `g` the rules context flow.run
# passes (rules_fields.pxd), its state's fields, the action's record (option.pxd) and the event C reads
# and dict writes; `s.pool` as state's C function
@cython.locals(s=StateFields, act=Option, verb=str, event=dict, memory=dict)
cpdef object _start(RulesFields g, dict f)
