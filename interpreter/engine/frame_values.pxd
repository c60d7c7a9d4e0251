# Cython declarations for the compiled core (hatch_build.py), beside the unchanged frame_values.py,
# which stays the reference: the encoding and decoding of an effect frame's values as C functions,
# so that a nested value (an event's unit, a list of units) is a C call, not a Python one.

cpdef object encode(object g, object v)

cpdef object decode(object g, object v)
