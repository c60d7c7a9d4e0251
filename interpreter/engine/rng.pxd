# Cython declarations for the compiled core (hatch_build.py), beside the unchanged rng.py, which
# stays the reference: `draws` (the heuristic bot's tie-breaks, one per option of every decision)
# on 64-bit unsigned C integers, whose arithmetic wraps at 2**64 exactly as the source's `& _MASK`
# keeps it there, instead of Python integers of three digits made at every step.
import cython

cdef unsigned long long _MASK, _STEP, _MIX1, _MIX2

@cython.locals(limit=cython.ulonglong, z=cython.ulonglong, out=list)
cpdef tuple draws(unsigned long long state, unsigned long long n, Py_ssize_t count)
