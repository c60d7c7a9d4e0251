# Cython declarations for the compiled core (hatch_build.py), beside the unchanged option.py, which
# stays the reference: its caches of records (by label, and the listings' actions and unit moves) as
# C-level dicts, so that `.get`, an item read, `len` and `clear` on them are calls of CPython's dict
# functions, not a `get` looked up on an untyped global (a generic attribute lookup each). The
# module's own code alone reads them.
import cython

from necronomicon.interpreter.engine.option_record cimport Record, fill, keep_label

# Option an extension type (option_record.pxd's Record, with its C fields, and the `label` property):
# a record is made by `_new`, a C function, through the type's C `tp_new` and C field writes
cdef class Option(Record):
    pass

cdef Option _new(object kind, object verb, object unit_kind, object unit, object src, object dst, object area,
                 object ability, object player, object spellbook, object cost, object value, object word, object gate,
                 object label)

cdef dict _PARSED, _ACTIONS, _MOVES

# the listings' record makers as C functions, which actions.pxd and moves.pxd cimport: a listing's
# call of one is a C call with no argument tuple (a record or two per listed action)
@cython.locals(by_area=dict, by_name=dict, kept=tuple)
cpdef object action(object verb, object cost, object unit_kind=*, object area=*, object player=*, object ability=*,
                    object word=*)
@cython.locals(by_src=dict, by_dst=dict)
cdef dict _moves_from(object uid, object src)
@cython.locals(by_dst=dict, kept=tuple)
cpdef tuple labelled_move(object unit_kind, object src, object dst, object uid, object cost)
@cython.locals(by_dst=dict, kept=tuple, made=list, head=str, tail=str, entry=tuple)
cpdef list labelled_moves(object unit_kind, object src, object dsts, object uid)
# a label read back as a C function, which turn.pxd cimports (an answer's label, each step of a turn)
@cython.locals(by_label=dict)
cpdef object parse(object kind, object label, object players=*, object areas=*)
# records made as tuples and labels made, as C functions (a listing's new record, a label read back)
cpdef object _action_record(object verb, object cost, object unit_kind, object area, object player, object ability,
                            object word)
cpdef object _move_record(object unit_kind, object src, object dst, object uid, object cost)
cpdef str move_label(object unit_kind, object src, object dst, object uid)
# a unit move's answer read back (moves.move_made, each unit moved) and the `done` that ends picks
@cython.locals(i=Py_ssize_t, k=Py_ssize_t)
cpdef tuple move_answer(str label)
cpdef bint is_done(object label) except -1
cpdef tuple _unit_parts(object kind_of_decision, object label)
cdef bint _same(object a, object b) except -1
# a record at another cost, its label kept (option_info, a listed cost per option; typed: it reads `_label`)
cpdef Option with_cost(Option o, object cost)
