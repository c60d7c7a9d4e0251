# Cython declarations for the compiled core (hatch_build.py), beside the unchanged plain_data.py,
# which stays the reference: `data_copy` and `same_data`, the copy and exact compare that the
# position key's kept parts (`KeptParts`, phases.position_key) run over every keyed value, C
# functions walking dicts (PyDict_Next), lists and the copies' tuples through typed locals.
import cython

cpdef bytes key_bytes(object value)

@cython.locals(t=type, d=dict, out=list)
cpdef object data_copy(object v)

@cython.locals(t=type, tc=type, d=dict, dc=tuple, n=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t)
cpdef bint same_data(object v, object c) except -1

cdef class KeptParts:
    cdef public list kept

    @cython.locals(kept=list, parts=list, pair=tuple, b=bytes, n=Py_ssize_t, i=Py_ssize_t)
    cpdef bytes joined(self, bytes head, object values)
