# Cython declarations for the compiled core (hatch_build.py), beside the unchanged part_values.py,
# which stays the reference: the part codes as C ints (`read`'s switch), the state typed by its
# unsaved fields, and the comparisons in place (`unchanged`, `same`) as C functions that
# held_conditions cimports. A typed local holds exactly its type or None (else TypeError).
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields
from necronomicon.interpreter.engine.state_fields cimport StateFields

cdef int _UNIT_GATES, _UNITS, _UNIT_OWNERS, _MY_UNITS, _MY_GATES, _GATE_PLACES, _MINE, _WHOLE, _PLAYERS

@cython.locals(out=list, code=int)
cpdef tuple key_of(RulesFields g, tuple reads, object p, dict seen=*)

@cython.locals(s=StateFields)
cpdef object read(RulesFields g, int code, object name, object p)

cpdef object value_of(object v)

@cython.locals(out=list, cls=object)
cdef object dict_value(dict d)

@cython.locals(i=Py_ssize_t, j=Py_ssize_t, gates=dict, code=int, s=StateFields)
cpdef bint unchanged(RulesFields g, tuple reads, object p, tuple kept) except -1

@cython.locals(i=Py_ssize_t, j=Py_ssize_t, cls=object, t=tuple, u=tuple)
cdef bint same(object v, object kept) except -1
