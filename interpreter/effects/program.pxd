# Cython declarations for the compiled core (hatch_build.py), beside the unchanged program.py, which
# stays the reference: the runner's place (`Machine`) an extension type with C fields (its position a
# C integer), and `execute` a C function for effect frames (engine/effect_frames.pxd cimports it), so
# that the runner's reads and writes of its place, the instruction list's indexing and the loop's
# counter are C operations rather than generic attribute lookups on a Python object.
import cython

cdef class Machine:
    cdef public Py_ssize_t pc
    cdef public list iters
    cdef public object wait

# (instructions are tuples in a list: compiler.py; a loop's iterator is [items, index])
@cython.locals(code=list, ins=tuple, n=Py_ssize_t, it=list)
cpdef object execute(object prog, object ctx, Machine m, object value=*)

# a call instruction's check of its arguments, made by every call (`call_start`'s start): a C call
cpdef object check_limits(object where, object ctx, object name, object bound, object limits)
