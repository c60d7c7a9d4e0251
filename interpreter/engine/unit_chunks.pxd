# Cython declarations for the compiled core (hatch_build.py), beside the unchanged unit_chunks.py,
# which stays the reference: `UnitChunks` an extension type whose fields are C fields (no Python
# subclass), so that `StateFields.moved`'s `drop` (state_fields.pxd) and its own methods' reads of
# its tables are C calls and loads instead of lookups by name.
import cython

cdef class UnitChunks:
    cdef public Py_ssize_t n
    cdef public list items, hashed
    cdef public dict keyed
    cdef public bytes whole

    @cython.locals(c=Py_ssize_t)
    cpdef drop(self, Py_ssize_t position)
    @cython.locals(b=bytes, keyed=dict, parts=list, c=Py_ssize_t)
    cpdef bytes key_bytes(self, list units)
    @cython.locals(hashed=list, keyed=dict, chunks=Py_ssize_t, c=Py_ssize_t)
    cpdef object sha1(self, list units)
    @cython.locals(items=list, parts=list, i=Py_ssize_t, b=bytes)
    cpdef bytes _chunk(self, Py_ssize_t c, list units)
