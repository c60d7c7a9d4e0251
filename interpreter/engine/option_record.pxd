# Cython declarations for the compiled core (hatch_build.py), beside option_record.py, which stays
# the reference: Record an extension type, its fields C fields (read-only from Python; `_label`
# private), which option.py's `Option` extends (option.pxd). A record is made by the type's C
# `tp_new` (`Option.__new__(Option)`) and `fill`, a C function writing its fields.
cdef class Record:
    cdef readonly object kind, verb, unit_kind, unit, src, dst, area, ability, player, spellbook, cost, value, word
    cdef readonly object gate
    cdef object _label
    cpdef tuple fields(self)

cdef bint _C_FIELDS

cdef object _as_tuple(object x)
cdef bint _equal(Record a, Record b) except -1
cdef bint _same(object x, object y) except -1
cpdef object fill(Record o, object kind, object verb, object unit_kind, object unit, object src, object dst, object area,
                  object ability, object player, object spellbook, object cost, object value, object word, object gate,
                  object label)
cpdef object keep_label(Record o, object label)
