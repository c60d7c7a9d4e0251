# Cython declarations for the compiled core (hatch_build.py), beside the unchanged kept_costs.py,
# which stays the reference: a kept cost's key made by C calls, with the rules context's fields
# (`s`, `layout`, `tables`, `formula_depth`) read as C fields. A typed local holds exactly its type
# or None (else TypeError).
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields

cdef dict _KEPT, NAMES
cdef list _LAST

cpdef object parts_of(object m)
@cython.locals(ident=list, ms=list)
cpdef object plan(object mods)
@cython.locals(out=list, items=list)
cdef object _part(object s, object f)
@cython.locals(n=Py_ssize_t, i=Py_ssize_t)
cdef bint _same(tuple a, tuple b) except -1
@cython.locals(pl=tuple, key=tuple, kept=tuple, costs=dict)
cpdef dict costs_at(RulesFields g, object p, object action, object base, object mods)
