# Cython declarations for the compiled core (hatch_build.py), beside the unchanged doom.py, which
# stays the reference: the typed functions of other modules it calls by name (their .pxd declares them
# cpdef) cimported, so that each call is a C call through the exported pointer, not a Python call of
# the module attribute with its arguments packed and parsed again (`from .basics import emit_fields`
# in the source names the same function).
import cython

from necronomicon.interpreter.engine.abilities cimport self_unit_for, window_abilities
from necronomicon.interpreter.engine.core cimport ctx
from necronomicon.interpreter.engine.basics cimport emit_fields, faction, gain_power
from necronomicon.interpreter.engine.core_procs cimport requirements_call

# the Doom Phase's helpers as C functions (frames are dicts)
@cython.locals(out=list)
cdef list _candidates(object g, dict f, object p, object only)
cdef object _ctx(object g, object ab, object p)
cdef object _use(object g, dict f, object ab, object p)
cdef object _next(object g, dict f)
