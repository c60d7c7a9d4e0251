# Cython declarations for the compiled core (hatch_build.py), beside the unchanged state_fields.py,
# which stays the reference: the State's unsaved fields C fields of an extension type (the write
# counters C integers, which start at 0; the rest start as None), so that a function whose state is
# typed `StateFields s` (state.pxd, held_conditions.pxd, rules_fields.pxd's `RulesFields.s`) reads
# `s.writes` or `s._ix` as a load from the object, not a lookup by name. state.State is a Python
# subclass (a dataclass) whose saved fields stay in its `__dict__`.
import cython

cdef class StateFields:
    cdef public Py_ssize_t writes, other_writes, unit_writes
    cdef public dict _moves_of, _kinds
    cdef public tuple _ix, _chunks
    cdef public object units, memory, flow, players, power, gates, seq   # saved (SAVED_IN_C): not in __dict__

cpdef Py_ssize_t unit_changes(StateFields s) except? -1

# StateFields.moved's work, cimported by core.pxd (shift's call a C call); the unit chunks an
# extension type (unit_chunks.pxd), so that `drop` is a C call too
from necronomicon.interpreter.engine.unit_chunks cimport UnitChunks
@cython.locals(ix=tuple, kept=tuple, chunks=UnitChunks, counts=dict, built=tuple, by_owner=dict, places=dict,
               changes=Py_ssize_t, fresh=bint, i=Py_ssize_t)
cpdef object note_moved(StateFields s, object u, object src)

# the unit index's update by a move (StateFields.moved), cimported: a C call, not a Python call of the
# module attribute (unit_index.pxd types it)
from necronomicon.interpreter.engine.unit_index cimport moved_in as _moved_in
