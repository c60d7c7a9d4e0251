# Cython declarations for the compiled core (hatch_build.py), beside the unchanged unit_index.py,
# which stays the reference: the index's tables typed in the functions that build and update them,
# so that their reads and appends are C calls instead of method calls on untyped objects.
import cython

@cython.locals(here=list, i=Py_ssize_t, there=list)
cpdef bint moved_in(dict by_loc, object u, object src) except -1

@cython.locals(by_loc=dict, by_owner=dict, by_owner_loc=dict, here=list, mine=list, places=dict, there=list,
               by_id=dict)
cpdef tuple build_index(list units)
