# Cython declarations for the compiled core (hatch_build.py), beside the unchanged state.py, which
# stays the reference: the unit queries typed, so that their reads of the unit index (a tuple of
# dicts of lists, unit_index.py) and of the gates are C calls instead of method calls on untyped
# objects. A typed local holds exactly its type or None (else TypeError), as the index's tables
# and a State's gates always do. The state is typed by its unsaved fields' extension type
# (state_fields.pxd): `s.writes` and `s._ix` are C loads, its saved fields (`s.units`, `s.gates`)
# lookups by name. State stays a Python class (a dataclass); its methods are left untyped.
import cython

from necronomicon.interpreter.engine.state_fields cimport StateFields, unit_changes

@cython.locals(ix=tuple)
cdef tuple _built(StateFields s)

@cython.locals(built=tuple, by_loc=dict, by_owner_loc=dict, places=dict)
cdef list _here(StateFields s, object loc, object owner)

@cython.locals(here=list)
cpdef list _units_at(StateFields s, object loc, object owner=*)

@cython.locals(here=list)
cpdef Py_ssize_t _count_at(StateFields s, object loc, object owner=*) except -1

@cython.locals(by_owner_loc=dict, places=dict)
cpdef list _places_of(StateFields s, object owner)

@cython.locals(by_owner_loc=dict)
cpdef dict _owner_places(StateFields s, object owner)

@cython.locals(here=list)
cpdef bint _in_pool(StateFields s, object owner, object kind) except -1

@cython.locals(by_owner=dict, mine=list)
cpdef list _units_of(StateFields s, object owner)

cdef dict _ON_MAP_PLACES

@cython.locals(units=list, out=list)
cpdef list _on_map(StateFields s, object owner=*, object areas=*)

@cython.locals(here=list)
cpdef list _pool(StateFields s, object owner, object kind=*)

@cython.locals(gates=dict, gate=dict, by_id=dict)
cpdef object _gate_owner(StateFields s, object loc)

@cython.locals(by_id=dict, gates=dict, gate=dict, out=list)
cpdef list _controlled_gates(StateFields s, object player)

@cython.locals(players=list, step=Py_ssize_t, i=Py_ssize_t, n=Py_ssize_t, k=Py_ssize_t)
cpdef list _order_from(StateFields s, object first)
