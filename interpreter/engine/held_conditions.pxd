# Cython declarations for the compiled core (hatch_build.py), beside the unchanged held_conditions.py,
# which stays the reference: a requirement check's steps as C functions (`first_holding` calls
# `_unmet_holding`, `holds_unmet`, `condition_holds`, `key_of` and `_evaluate` with no argument tuple), and
# the plan, key and held-answer tuples and dicts typed. A typed local
# holds exactly its type or None (else TypeError), as these always do.
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields
from necronomicon.interpreter.engine.state_fields cimport StateFields
# a condition's context made by a C call (`_evaluate`)
from necronomicon.interpreter.engine.context cimport new_ctx
# the parts' values read and compared by C calls (part_values.pxd)
from necronomicon.interpreter.engine.part_values cimport key_of, unchanged

cdef dict _CHECKS

@cython.locals(kept=tuple, reads=list)
cpdef tuple _plan(object r)

cpdef object parts_read(object r)

@cython.locals(plan=tuple)
cpdef bint condition_holds(RulesFields g, object p, object r, object event, dict seen=*) except -1

@cython.locals(held=dict, kept=tuple, now=tuple, mark=tuple, checking=bint)
cdef bint _holds(RulesFields g, object p, object r, tuple plan, tuple mine, tuple at, object event, dict seen) except -1

cpdef object _evaluate(RulesFields g, object p, object r, object event, object ability=*)

cpdef bint met_now(RulesFields g, object p, object key, object r, object when, object event, dict seen=*) except -1

@cython.locals(plan=tuple)
cpdef bint holds_unmet(RulesFields g, object p, object key, object r, object event, dict seen=*) except -1

cdef bint _unmet_holding(RulesFields g, object p, object key, object r, tuple plan, tuple mine, tuple at, object event,
                         dict seen) except -1

@cython.locals(plans=tuple, checks=tuple, done=list, whole=tuple, mark=tuple, held=dict, now=tuple, kept=tuple)
cpdef object first_holding(RulesFields g, object p, object when, object event, Py_ssize_t first, dict seen)

@cython.locals(check=tuple, j=Py_ssize_t)
cdef object _first_of(RulesFields g, object p, tuple checks, list done, object event, Py_ssize_t first, dict seen)

cdef tuple _checks(RulesFields g, object p, object fac, object when)

@cython.locals(kept=tuple, by_when=dict, plans=tuple, out=list, plan=tuple, j=Py_ssize_t)
cdef tuple _at(RulesFields g, object p, object fac, object when)
