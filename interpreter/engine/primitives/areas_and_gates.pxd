# Cython declarations for the compiled core (hatch_build.py), beside the unchanged areas_and_gates.py,
# which stays the reference: the map queries' helpers (the layout's sorted areas, names and start
# areas, kept per layout; the areas a player occupies) as C functions, so that `areas(...)` (in many
# conditions: `count(areas(...)) > 0`) calls them as C calls, not as Python calls of module functions.
import cython

cdef dict _SORTED, _STARTS, _NAMES

@cython.locals(entry=tuple)
cpdef list _sorted_areas(object layout)
@cython.locals(entry=tuple)
cpdef tuple _area_names(object layout)
@cython.locals(entry=tuple)
cpdef list _starts(object layout, object player)
cpdef tuple _areas_with(object g, object player)
cpdef set _occupied(object g, object player)
