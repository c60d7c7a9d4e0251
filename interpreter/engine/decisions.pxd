# Cython declarations for the compiled core (hatch_build.py), beside the unchanged decisions.py,
# which stays the reference: Decision, a frozen dataclass there, is an extension type here (Cython
# makes the same dataclass of it: fields, equality, repr, `dataclasses.fields`/`replace`, pickling),
# its fields C fields, read-only from Python. flow.ask makes one at every question by `new_decision`,
# a C function (flow.pxd cimports it) that makes the instance by the type's C `tp_new` and sets
# its fields as C writes; the driver (flow.run) reads them as C reads.
cdef class Decision:
    cdef readonly object player, kind, options, prompt, context, records

cdef bint _C_FIELDS

cpdef Decision new_decision(object player, object kind, object options, object prompt, object context,
                            object records)
cdef object _fill(Decision d, object player, object kind, object options, object prompt, object context,
                  object records)
